"""Random playouts through the search API: plies per second, single-threaded, per game and player count.

What a search bot does thousands of times per move: from a position, play random legal moves to the end with
``Game.sample_move`` and ``Game.fast_apply`` (in place on one clone: no checks, no events, no copies). Each game
starts from ``new_game`` with default options; seeds count up from ``--seed``, so the games are reproducible
(the timings are not).

Run from the repository root::

    python -m bench.playouts                  # every registered game, every player count, ~3 s each
    python -m bench.playouts --game block --seconds 10
    python -m bench.playouts --json /tmp/playouts.json

Targets (issue 9, on the project's 2-core machine) are registered with each game in ``tables.catalog``: Breaks
≥ 100,000, Blockers! ≥ 20,000, BLOCK ≥ 5,000 plies/s. A game without a target is reported with "—".
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from engine.base import Game
from engine.rng import Rng
from tables.catalog import default_catalog

MAX_PLIES = 100_000  # a safety net per game


@dataclass
class Row:
    game: str
    players: int
    games: int
    plies: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.plies / self.seconds if self.seconds else 0.0


def playout(game: Game, seats: int, seed: int, options: Mapping[str, str] | None = None) -> int:
    """One random game from the start; returns its number of plies."""
    state = game.new_game(seats, options or {}, seed)
    rng = Rng(seed ^ 0x5DEECE66D)
    plies = 0
    while plies < MAX_PLIES:
        acting = game.to_act(state)
        if not acting:
            return plies
        seat = min(acting) if len(acting) == 1 else sorted(acting)[rng.below(len(acting))]
        game.fast_apply(state, seat, game.sample_move(state, seat, rng))
        plies += 1
    raise RuntimeError(f"{game.key}: no end after {MAX_PLIES} plies (seed {seed})")


def measure(game: Game, seats: int, seconds: float, seed: int, options: Mapping[str, str] | None = None) -> Row:
    games = plies = 0
    start = time.perf_counter()
    while True:
        plies += playout(game, seats, seed + games, options)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return Row(game.key, seats, games, plies, elapsed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="one game key (default: every registered game)")
    parser.add_argument("--players", help="comma-separated player counts (default: all the game allows)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per game and player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--options", default="", help="the game's options with --game, as /game new takes them "
                        "(e.g. \"scenario=traffic mode=semi\")")
    args = parser.parse_args(argv)
    options = dict(part.split("=", 1) for part in args.options.split())
    if options and not args.game:
        parser.error("--options needs --game")
    registry = default_catalog()
    games = [registry.get(args.game)] if args.game else registry.all()
    if None in games:
        parser.error(f"no game {args.game!r}; games: {', '.join(g.key for g in registry.all())}")
    print(f"Python {platform.python_version()} on {platform.machine()}, one thread, {args.seconds:g} s each")
    print(f"{'game':<10} {'players':>7} {'games':>7} {'plies':>9} {'plies/s':>10} {'target':>9}  ok")
    rows = []
    for game in games:
        assert game is not None
        counts = ([int(x) for x in args.players.split(",")] if args.players
                  else range(game.min_players, game.max_players + 1))
        for seats in counts:
            row = measure(game, seats, args.seconds, args.seed, options)
            rows.append(row)
            target = registry.entry(game.key).playout_target
            ok = "—" if target is None else ("yes" if row.rate >= target else "NO")
            print(f"{row.game:<10} {seats:>7} {row.games:>7} {row.plies:>9} {row.rate:>10,.0f} "
                  f"{target or 0:>9,}  {ok}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([{**asdict(r), "rate": r.rate} for r in rows], out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
