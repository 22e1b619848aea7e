"""Do the ratings order players right? (issue 23) Players of known strength play rated games through the very function
the bot rates with (:func:`community.ratings.rate`); after 10, 30 and 100 games per player, the leaderboard's order
(by the shown, conservative rating) is compared with the true order by Kendall's tau (1: the same order; 0: no
relation).

A player's true skill is drawn from a normal distribution; in each game every seat's performance is its skill plus
noise, and the seats finish in the order of their performances (ties impossible). ``--noise`` sets how much luck
there is, in units of the skills' spread (1.0: a game's luck is as large as the gap between an average player and
one a standard deviation better: a noisy game, as card games are). Tables are drawn at random from the field.

Run from the repository root::

    python -m bench.ratings                       # 2 and 4 seats, 60 players, noise 1.0, 5 runs each
    python -m bench.ratings --players 100 --noise 0.5 --runs 3
"""

from __future__ import annotations

import argparse
import random
import statistics

from community.ratings import Skill, rate

CHECKPOINTS = (10, 30, 100)


def kendall_tau(a: list[float], b: list[float]) -> float:
    """Kendall's tau-a between two score lists over the same items (ties count as neither)."""
    n = len(a)
    concordant = discordant = 0
    for i in range(n):
        for j in range(i + 1, n):
            s = (a[i] - a[j]) * (b[i] - b[j])
            if s > 0:
                concordant += 1
            elif s < 0:
                discordant += 1
    return (concordant - discordant) / (n * (n - 1) / 2)


def run(players: int, seats: int, noise: float, seed: int) -> dict[int, float]:
    """One simulated server: the tau at each checkpoint of games per player."""
    rng = random.Random(seed)
    truth = [rng.gauss(0.0, 1.0) for _ in range(players)]
    skills: dict[str, Skill] = {}
    played = [0] * players
    out: dict[int, float] = {}
    target = iter(CHECKPOINTS)
    goal = next(target)
    while True:
        table = rng.sample(range(players), seats)
        perf = {p: truth[p] + rng.gauss(0.0, noise) for p in table}
        order = sorted(table, key=lambda p: -perf[p])
        skills.update(rate([(str(p), order.index(p) + 1) for p in table], skills))
        for p in table:
            played[p] += 1
        while min(played) >= goal:
            shown = [skills[str(p)].conservative if str(p) in skills else -1e9 for p in range(players)]
            out[goal] = kendall_tau(shown, truth)
            goal = next(target, 0)
            if not goal:
                return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seats", default="2,4")
    parser.add_argument("--noise", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.players} players, true skills ~ N(0, 1), a game's luck ~ N(0, {args.noise}), {args.runs} runs; "
          "Kendall tau of the leaderboard (conservative rating) against the true order, mean (min–max):")
    for seats in (int(s) for s in args.seats.split(",")):
        taus: dict[int, list[float]] = {c: [] for c in CHECKPOINTS}
        for r in range(args.runs):
            for c, tau in run(args.players, seats, args.noise, args.seed * 1000 + r).items():
                taus[c].append(tau)
        cells = ", ".join(f"after {c} games: {statistics.mean(t):.2f} ({min(t):.2f}–{max(t):.2f})"
                          for c, t in taus.items())
        print(f"  {seats} seats: {cells}")


if __name__ == "__main__":
    main()
