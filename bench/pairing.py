"""Tournament pairing (issue 23): how long one round takes to pair, and how good the two-seat Swiss pairings are.

Time: ``--players`` (default 256) join a Swiss of two seats and one of four seats (tables of 3–4); four rounds
are paired and played with random results from a seeded Rng (some draws), then the fifth round's
``pair_next_round()`` is timed (median of ``--repeat`` runs of the same call on a fresh copy). Target: under 1 s
each on this machine (2 cores).

Quality: ``--quality N`` (default 1,000) simulated two-seat Swiss tournaments of 8–128 players and 5–9 rounds
(random results, some draws, a drop in every fourth) checked round by round: the number of rematches must equal
the fewest possible given the constraints (exhaustive search over every pairing for fields of up to 12; for bigger
fields, when a round has a rematch, the field's pairs minus a maximum matching of the graph of pairs who have not
met), and every bye must go to a player without one while such a player is active. ``tests/community`` runs the
first 200 of these same tournaments (the 1,000 take ~25 CPU-seconds, more than a test may).

Run from the repository root::

    python -m bench.pairing                      # both timings and the 1,000 tournaments
    python -m bench.pairing --quality 0          # timings only
    python -m bench.pairing --players 512 --quality 200
"""

from __future__ import annotations

import argparse
import copy
import itertools
import statistics
import time
from collections.abc import Sequence

import networkx as nx  # type: ignore[import-untyped]

from community.pairing import History
from community.tournament import Final, Format, Round, Settings, Tournament
from engine.rng import Rng

TARGET_S = 1.0
BYE = -1


class PairingFault(AssertionError):
    """A round that breaks a pairing rule (raised by the checks, so a test fails on it)."""


def two_seat_result(rng: Rng) -> list[int]:
    """A random game: 20% draws, else either seat wins."""
    roll = rng.below(10)
    if roll < 2:
        return [1, 1]
    return [1, 2] if roll < 6 else [2, 1]


def random_places(rng: Rng, seats: int) -> list[int]:
    """Random competition ranks for a table (ties happen)."""
    scores = [rng.below(4) for _ in range(seats)]
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def history_of(t: Tournament) -> History:
    """The meetings and byes of every round paired so far, computed here rather than taken from the tournament."""
    history = History()
    for rnd in t.rounds:
        for table in rnd.tables:
            history.add_table(table.seats)
        history.had_bye.update(rnd.byes)
    return history


def min_rematches_exhaustive(players: Sequence[int], history: History, eligible: set[int]) -> int:
    """The fewest rematches of any perfect pairing (with a bye node for an odd count, matched only to ``eligible``),
    by trying every pairing (branch and bound on the count)."""
    nodes = list(players) + ([BYE] if len(players) % 2 else [])
    best = [len(nodes)]

    def search(rest: list[int], count: int) -> None:
        if count >= best[0]:
            return
        if not rest:
            best[0] = count
            return
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            if BYE in (first, other):
                if (other if first == BYE else first) not in eligible:
                    continue
                cost = 0
            else:
                cost = 1 if history.times_met(first, other) else 0
            search(others[:i] + others[i + 1 :], count + cost)

    search(nodes, 0)
    return best[0]


def min_rematches_matching(players: Sequence[int], history: History, eligible: set[int]) -> int:
    """The fewest rematches as (pairs needed) − (most pairs of players who have not met): every pair a maximum
    matching of the not-met graph leaves over has to be a rematch."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for a, b in itertools.combinations(players, 2):
        if not history.times_met(a, b):
            graph.add_edge(a, b)
    if len(players) % 2:
        graph.add_node(BYE)
        for p in eligible:
            graph.add_edge(p, BYE)
    needed = (len(players) + 1) // 2
    return needed - len(nx.max_weight_matching(graph, maxcardinality=True))


def check_two_seat_round(t: Tournament, history: History, rnd: Round) -> int:
    """Check the round just paired (fewest rematches, rightful bye, everybody once); return its rematches."""
    players = [p for table in rnd.tables for p in table.seats] + list(rnd.byes)
    if sorted(players) != sorted(t.active(rnd.number)) or len(rnd.byes) != len(players) % 2:
        raise PairingFault(f"round {rnd.number}: not every active player paired exactly once")
    without_bye = {p for p in players if p not in history.had_bye}
    eligible = without_bye or set(players)
    for p in rnd.byes:
        if p not in eligible:
            raise PairingFault(f"round {rnd.number}: bye to {p}, who had one, while {sorted(without_bye)} had none")
    rematches = sum(1 for table in rnd.tables if history.times_met(*table.seats))
    if rematches:
        if len(players) <= 12:
            best = min_rematches_exhaustive(players, history, eligible)
        else:
            best = min_rematches_matching(players, history, eligible)
        if rematches != best:
            raise PairingFault(f"round {rnd.number} of {len(players)}: {rematches} rematches where {best} do")
    return rematches


def simulate_swiss(players: int, rounds: int, seed: int, drops: int = 0) -> tuple[int, int]:
    """Play one two-seat Swiss through the real :class:`Tournament`, checking every round; return (rounds played,
    rematches). ``drops`` players drop out along the way (each round with chance ⅓ while any are left)."""
    rng = Rng(seed)
    t = Tournament.new(Settings(Format.SWISS, rounds=rounds, seed=seed))
    for p in range(players):
        t.join(p, rating=float(rng.below(3000)))
    rematches = 0
    while True:
        history = history_of(t)
        rnd = t.pair_next_round()
        if isinstance(rnd, Final):
            return len(t.rounds), rematches
        rematches += check_two_seat_round(t, history, rnd)
        for table in rnd.tables:
            t.report(table.number, two_seat_result(rng))
        if drops and rng.below(3) == 0:
            active = t.active()
            if len(active) > 4:
                t.drop(active[rng.below(len(active))])
                drops -= 1


def quality_runs(count: int) -> list[tuple[int, int, int, int]]:
    """(players, rounds, seed, drops) for ``count`` tournaments: most small (8–16 players, where long events force
    rematches and the check is exhaustive), every 10th mid-sized (20–48 players), every 100th large (64–128)."""
    rng = Rng(2023)
    runs = []
    for i in range(count):
        if i % 100 == 99:
            players = 64 + rng.below(65)
        elif i % 10 == 9:
            players = 20 + rng.below(29)
        else:
            players = 8 + rng.below(9)
        runs.append((players, 5 + rng.below(5), 10_000 + i, 1 if i % 4 == 0 else 0))
    return runs


def mid_tournament(players: int, seats: int, played: int, seed: int = 1) -> Tournament:
    """A Swiss of ``players`` after ``played`` rounds of random results."""
    rng = Rng(seed)
    fewest = 2 if seats == 2 else seats - 1
    t = Tournament.new(Settings(Format.SWISS, seats=seats, min_seats=fewest if seats > 2 else None, rounds=played + 3))
    for p in range(players):
        t.join(p, rating=float(rng.below(3000)))
    for _ in range(played):
        rnd = t.pair_next_round()
        assert isinstance(rnd, Round)
        for table in rnd.tables:
            places = two_seat_result(rng) if len(table.seats) == 2 else random_places(rng, len(table.seats))
            t.report(table.number, places)
    return t


def time_pairing(players: int, seats: int, repeat: int) -> list[float]:
    """Seconds (CPU) for ``pair_next_round()`` after four played rounds, once per repeat on a fresh copy."""
    base = mid_tournament(players, seats, 4)
    times = []
    for _ in range(repeat):
        t = copy.deepcopy(base)
        start = time.process_time()
        t.pair_next_round()
        times.append(time.process_time() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quality", type=int, default=1000, help="simulated two-seat Swiss tournaments to check")
    args = parser.parse_args(argv)

    for seats in (2, 4):
        times = time_pairing(args.players, seats, args.repeat)
        median = statistics.median(times)
        verdict = "PASS" if median < TARGET_S else "FAIL"
        print(
            f"pair round 5, {args.players} players, {seats} seats: median {median:.3f} s "
            f"(min {min(times):.3f}, max {max(times):.3f}) {verdict} (target < {TARGET_S:.0f} s)"
        )

    if args.quality:
        start = time.process_time()
        faults, rounds, rematches = 0, 0, 0
        for players, count, seed, drops in quality_runs(args.quality):
            try:
                played, forced = simulate_swiss(players, count, seed, drops)
            except PairingFault as fault:
                faults += 1
                print(f"FAULT in {players} players, {count} rounds, seed {seed}: {fault}")
                continue
            rounds += played
            rematches += forced
        print(
            f"quality: {args.quality} Swiss tournaments, {rounds} rounds, {rematches} rematches"
            f"{' (each one the fewest possible)' if not faults else ''}, {faults} faulty tournaments, "
            f"{time.process_time() - start:.1f} CPU-s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
