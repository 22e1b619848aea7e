"""Bots keep their budget, seen from outside (issues 13 and 28).

Each game's bots at every level answer positions as a table asks them: through :class:`~tables.bots.Thinker`, as
the table service calls it (medium and hard in its worker processes, with the table's per-move budget; easy at
once), and each answer is timed on the wall clock around that call, from asking to the move, which is what the
table waits for. The positions are the heaviest each game offers its bots: the most seats it seats (at most 4),
moments along games the medium bot plays (every few plies), and for BLOCK also turns whose dice show four ★
values and the ★ shape (its planner's largest search). It prints, per game and level, the slowest answer against
the budget + 10 %.

Then three tables of hard bots think at once (Breaker Blocks' by default, the game of the issue's figures), each
asking as soon as it has its answer, on the default number of workers (``BLOCKHOUSE_BOT_WORKERS``, else one per
core): the p95 of their answers against the budget + 1 s.

All along, a ticker on the bot's event loop sleeps 5 ms at a time and records how late each wake-up is (issue 13:
the loop never waits 50 ms on a bot). ``--in-process`` runs the medium and hard bots in a thread of this process
instead, for comparison: the GIL then starves the loop.

This module imports only the engine and the bots at its top: a spawned worker imports the parent's ``__main__``
module, and this one must not make the workers start slower than the bot's own (``bot.py`` imports nothing).

Run from the repository root (use ``nice`` on a shared machine)::

    python -m bench.botlag                          # every game, every level, then 3 tables of hard bots
    python -m bench.botlag --game block --positions 12
    python -m bench.botlag --tables 3 --busy-game blocbybloc
    python -m bench.botlag --in-process --game blockers
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bots import DEFAULT_BUDGET_MS, LEVELS, choose
from engine.base import Game
from engine.rng import Rng

if TYPE_CHECKING:
    from tables.bots import Thinker

SLACK = 1.10  # a bot's slowest answer: within its budget + 10 %
BUSY_SLACK_S = 1.0  # tables thinking at once: p95 of the answers within the budget + 1 s


@dataclass
class Lag:
    """How late the event loop's 5 ms ticks wake."""

    late: list[float] = field(default_factory=list)
    windows: int = 0  # stretches of recording so far (a tick counts only within one)
    recording: bool = False

    @property
    def on(self) -> bool:
        return self.recording

    @on.setter
    def on(self, value: bool) -> None:
        """Recording while bots are asked; not while the bench sets up its positions or checks a move."""
        if value != self.recording:
            self.recording = value
            self.windows += 1

    async def tick(self) -> None:
        while True:
            t0, window = time.perf_counter(), self.windows
            await asyncio.sleep(0.005)
            if self.recording and self.windows == window:  # (a tick that spans the bench's own work is not counted)
                self.late.append(time.perf_counter() - t0 - 0.005)

    def summary(self) -> dict[str, float]:
        late = sorted(self.late) or [0.0]
        return {"ticks": len(self.late), "median_ms": statistics.median(late) * 1000,
                "p99_ms": late[int(len(late) * 0.99)] * 1000, "max_ms": late[-1] * 1000}


def seats_of(game: Game[Any, Any, Any]) -> int:
    return max(2, min(4, game.max_players)) if game.max_players > 1 else 1


def positions(game: Game[Any, Any, Any], count: int, seed: int) -> list[tuple[Any, int]]:
    """``count`` positions with a choice to make (two legal moves or more), spread along games the medium bot plays
    at the game's largest table (at most 4 seats), with the seat to move; BLOCK adds turns of four ★ dice and
    the ★ shape."""
    out: list[tuple[Any, int]] = []
    rng = Rng(seed)
    game_seed = seed
    while len(out) < count:
        state = game.new_game(seats_of(game), game.resolve_options({}), game_seed)
        game_seed += 1
        ply = 0
        while not game.is_over(state) and len(out) < count and ply < 2000:
            seat = min(game.to_act(state))
            moves = game.search_moves(state, seat)
            if len(moves) > 1 and ply % 5 == 2:
                out.append((state, seat))
            state, _ = game.apply(state, seat, choose(game, state, seat, "medium", rng))
            ply += 1
    if game.key == "block":  # its planner's largest search: four ★ values to choose, every shape allowed
        heavy = []
        for state, _ in out[len(out) // 2:]:
            if getattr(state, "phase", "") == "play":
                turn = game.with_dice(state, ["*"] * 5)  # type: ignore[attr-defined]
                seat = min(game.to_act(turn))
                if game.step(turn, seat) == "star":  # type: ignore[attr-defined]
                    heavy.append((turn, seat))
        out = out[:count - min(len(heavy), count // 3)] + heavy[:count // 3]
    return out


async def answer(thinker: Thinker, game: Game[Any, Any, Any], state: Any, seat: int, level: str,
                 seed: int, lag: Lag | None = None) -> float:
    """Seconds from asking the bot to its move (checked legal, after the clock stops)."""
    if lag is not None:
        lag.on = True
    started = time.perf_counter()
    move = await thinker.move(game, state, seat, level, Rng(seed), True)
    took = time.perf_counter() - started
    if lag is not None:
        lag.on = False
    assert move in game.legal_moves(state, seat), (game.key, level, move)
    return took


def p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


async def run(games: Sequence[str], levels: Sequence[str], count: int, budget_ms: float, tables: int,
              busy_game: str, busy_moves: int, in_process: bool, workers: int | None) -> dict[str, Any]:
    from tables.bots import Thinker
    from tables.catalog import default_catalog

    class InThread(Thinker):
        """The search in a thread of this process (what the worker processes avoid)."""

        async def move(self, game: Any, state: Any, seat: int, level: str, rng: Rng, in_catalog: bool) -> Any:
            return await asyncio.to_thread(choose, game, state, seat, level, rng, budget_ms=self.budget_ms)

    catalog = default_catalog()
    lag = Lag()
    ticker = asyncio.create_task(lag.tick())
    make = InThread if in_process else Thinker
    thinker = make(budget_ms, workers=workers)
    rows: list[dict[str, Any]] = []
    report: dict[str, Any] = {"budget_ms": budget_ms, "workers": thinker.workers, "in_process": in_process}
    try:
        await answer(thinker, *(_first(catalog, games[0])), "medium", 0)  # a worker started (not measured)
        for key in games:
            game = catalog.get(key)
            assert game is not None, key
            found = positions(game, count, 1000)
            for level in levels:
                took = [await answer(thinker, game, state, seat, level, i, lag)
                        for i, (state, seat) in enumerate(found)]
                worst = max(took)
                rows.append({"game": key, "level": level, "seats": seats_of(game), "moves": len(took),
                             "median_s": statistics.median(took), "slowest_s": worst,
                             "limit_s": budget_ms / 1000 * SLACK, "ok": worst <= budget_ms / 1000 * SLACK})
                print(_row(rows[-1]), flush=True)
        report["rows"] = rows
        if tables:
            report["tables"] = await _busy(thinker, catalog.get(busy_game), tables, busy_moves, budget_ms, lag)
    finally:
        thinker.close()
        ticker.cancel()
    report["loop_lag"] = lag.summary()
    return report


def _first(catalog: Any, key: str) -> tuple[Any, Any, int]:
    game = catalog.get(key)
    state = game.new_game(seats_of(game), game.resolve_options({}), 1)
    return game, state, min(game.to_act(state))


async def _busy(thinker: Thinker, game: Game[Any, Any, Any] | None, tables: int, moves: int,
                budget_ms: float, lag: Lag) -> dict[str, Any]:
    """``tables`` tables of hard bots at once, each asking again as soon as it has its answer."""
    assert game is not None
    found = positions(game, tables * moves, 2000)
    took: list[float] = []
    lag.on = True

    async def table(t: int) -> None:
        for i in range(moves):
            state, seat = found[t * moves + i]
            took.append(await answer(thinker, game, state, seat, "hard", 100 * t + i))

    await asyncio.gather(*(table(t) for t in range(tables)))
    lag.on = False
    limit = budget_ms / 1000 + BUSY_SLACK_S
    out = {"game": game.key, "tables": tables, "answers": len(took), "median_s": statistics.median(took),
           "p95_s": p95(took), "slowest_s": max(took), "limit_s": limit, "ok": p95(took) <= limit}
    print(f"{tables} tables of {game.key} hard bots at once, {thinker.workers} workers: {len(took)} answers, "
          f"median {out['median_s']:.2f} s, p95 {out['p95_s']:.2f} s, slowest {out['slowest_s']:.2f} s "
          f"({'PASS' if out['ok'] else 'FAIL'}: p95 ≤ budget + {BUSY_SLACK_S:.0f} s = {limit:.2f} s)", flush=True)
    return out


def _row(r: dict[str, Any]) -> str:
    return (f"{r['game']:<14} {r['level']:<6} {r['seats']} seats, {r['moves']:>3} moves: median {r['median_s']:.3f} s,"
            f" slowest {r['slowest_s']:.3f} s ({'PASS' if r['ok'] else 'FAIL'}: ≤ {r['limit_s']:.2f} s)")


def main(argv: Sequence[str] | None = None) -> int:
    from tables.catalog import default_catalog

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    keys = [e.rules.key for e in default_catalog().entries()]
    parser.add_argument("--game", default=",".join(keys), help="games, comma-separated (default: every game)")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--positions", type=int, default=8, help="positions a game and level answer")
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--tables", type=int, default=3, help="tables of hard bots thinking at once (0: none)")
    parser.add_argument("--busy-game", default="breakerblocks")
    parser.add_argument("--busy-moves", type=int, default=8, help="answers each of those tables waits for")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: the bot's)")
    parser.add_argument("--in-process", action="store_true")
    parser.add_argument("--json", help="write the report here too")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args.game.split(","), args.levels.split(","), args.positions, args.budget_ms,
                             args.tables, args.busy_game, args.busy_moves, args.in_process, args.workers))
    lag = report["loop_lag"]
    where = "a thread of the bot's process" if args.in_process else f"{report['workers']} worker processes"
    print(f"bots in {where}, {args.budget_ms:.0f} ms a move: event-loop lag over {lag['ticks']:.0f} ticks: "
          f"median {lag['median_ms']:.2f} ms, p99 {lag['p99_ms']:.2f} ms, max {lag['max_ms']:.2f} ms "
          f"({'PASS' if lag['max_ms'] < 50 else 'FAIL'}: under 50 ms)")
    failed = [r for r in report["rows"] if not r["ok"]]
    print(f"slowest answer within budget + 10 %: {len(report['rows']) - len(failed)} of {len(report['rows'])} "
          f"games and levels" + (f" (over: {', '.join(r['game'] + ' ' + r['level'] for r in failed)})" if failed
                                 else ""))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(report, out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
