"""Bots against bots (issue 13): win rates with 95% confidence intervals, and time per move, for any game.

For a two-player game each pairing plays ``--games`` games, the seats alternating; with more players the stronger
bot takes seat 0 and the weaker the others, and "wins" counts its wins. BLOCK solo reports each level's average
score; Bloc by Bloc (cooperative) reports the win rate of a table of one level.

Run from the repository root::

    python -m bench.tournament --game breaks --games 200                 # medium v easy, hard v medium
    python -m bench.tournament --game block --players 1 --games 50       # the solo ladder
    python -m bench.tournament --game blocbybloc --players 2 --games 20  # a table of hard bots
    python -m bench.tournament --game blockers --iterations 300 --games 100

``--iterations`` fixes the hard bot's search per move (reproducible; default 200); ``--budget-ms`` gives it a
time budget instead.

Last measured (2 cores, 2026-11-25, 200 games per pairing; hard bot at 150 iterations; Breaks re-measured on
2026-11-26, its search is a fixed expectimax that ``--iterations`` does not change): medium beats easy in 97%
(Breaks), 100% (Blockers!), 93% (Breaker Blocks) and 100% (BLOCK for two); hard beats medium in 59% (Breaks, 95%
CI 52–66%, below the 65% target; 59% of 700 games, 55–63%; again 59.1% of 700, 55–63%, on 2026-11-27 with the
discard pile face down and the bot seeing only its seat's cards), 71% (Blockers!, 65–77%), 93% (Breaker Blocks,
89–96%) and 99% (BLOCK for two, 96–100%), at 23, 6, 120 and 72 ms a move. BLOCK solo averages (200 games): easy
−3.9, medium 14.9, hard 40.2. Bloc by Bloc tables of hard bots (2026-11-26, 20–40 games per setup): 26 wins in 240
games (11%), from 0% to 20% a setup (bench/README.md has the table); medium tables 1 win in 180.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bots import choose
from engine.base import Game
from engine.rng import Rng
from tables.catalog import default_catalog

MAX_PLIES = 5000


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    moves: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    scores: list[float] = field(default_factory=list)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(game: Game[Any, Any, Any], levels: Sequence[str], seed: int, tally: Tally, *, iterations: int | None,
         budget_ms: float, options: dict[str, Any] | None = None) -> Any:
    state = game.new_game(len(levels), game.resolve_options(options or {}), seed)
    rng = Rng(seed * 7919 + 1)
    for _ in range(MAX_PLIES):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        level = levels[seat]
        t0 = time.perf_counter()
        move = choose(game, state, seat, level, rng, iterations=iterations, budget_ms=budget_ms)
        tally.seconds[level] += time.perf_counter() - t0
        tally.moves[level] += 1
        state, _ = game.apply(state, seat, move)
    return game.result(state), state


def pairing(game: Game[Any, Any, Any], strong: str, weak: str, players: int, games: int, *,
            iterations: int | None, budget_ms: float) -> Tally:
    tally = Tally()
    for i in range(games):
        seat = i % players if players == 2 else 0
        levels = [weak] * players
        levels[seat] = strong
        result, _ = play(game, levels, 1000 + i, tally, iterations=iterations, budget_ms=budget_ms)
        tally.games += 1
        if result is not None and seat in result.winners:
            tally.wins += 1.0 / len(result.winners)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--budget-ms", type=float, default=None)
    parser.add_argument("--options", default="", help="game options, e.g. 'difficulty=easy city=beginner'")
    parser.add_argument("--levels", default="easy,medium,hard", help="the tables to play (solo, cooperative games)")
    args = parser.parse_args(argv)
    options = dict(part.split("=", 1) for part in args.options.split())
    game = default_catalog().get(args.game)
    if game is None:
        parser.error(f"no game {args.game!r}")
    iterations = None if args.budget_ms is not None else args.iterations
    budget = args.budget_ms or 0.0
    search = f"{iterations} iterations" if iterations is not None else f"{budget:.0f} ms"
    print(f"{game.name}, {args.players} players, {args.games} games per pairing, hard bot: {search} a move")
    if args.players == 1 or game.key == "blocbybloc":
        for level in args.levels.split(","):
            tally = Tally()
            for i in range(args.games):
                result, state = play(game, [level] * args.players, 1000 + i, tally, iterations=iterations,
                                     budget_ms=budget, options=options)
                tally.games += 1
                tally.wins += 1.0 if result is not None and result.winners else 0.0
                tally.scores.append(float(game.scores(state)[0]) if game.scores(state) else 0.0)
            per_move = 1000 * tally.seconds[level] / max(1, tally.moves[level])
            lo, hi = wilson(tally.wins, tally.games)
            what = (f"average score {sum(tally.scores) / len(tally.scores):.1f}" if args.players == 1
                    else f"table win rate {tally.wins / tally.games:.0%} (95% CI {lo:.0%}–{hi:.0%})")
            print(f"  {level:<6} {what}, {per_move:.2f} ms a move")
        return 0
    for strong, weak in (("medium", "easy"), ("hard", "medium")):
        tally = pairing(game, strong, weak, args.players, args.games, iterations=iterations, budget_ms=budget)
        lo, hi = wilson(tally.wins, tally.games)
        times = ", ".join(f"{lvl} {1000 * tally.seconds[lvl] / max(1, tally.moves[lvl]):.2f} ms"
                          for lvl in (strong, weak))
        print(f"  {strong} v {weak}: {strong} wins {tally.wins / tally.games:.0%} of {tally.games} "
              f"(95% CI {lo:.0%}–{hi:.0%}); a move: {times}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
