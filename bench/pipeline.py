"""Per-move pipeline benchmark for Breaks: engine apply, persist, render, and the whole submit().

Plays many random games through the real :class:`~tables.service.TableService` on a real
SQLite file (WAL) in a temporary directory, one human actor per seat (no bots, so every
``submit()`` is exactly one move). For each move it records:

* **engine** – ``json.loads`` of the stored state text, ``Game.load``, ``parse_move`` and
  ``apply``: the same calls ``submit()`` makes, timed on the side just before the real call
  (the result is checked against what the service then stores);
* **persist** – the wall time of ``Database.record_moves`` *inside* ``submit()`` (one
  versioned ``BEGIN IMMEDIATE`` transaction writing the state and the move log);
* **render** – the wall time of the service's ``_render`` *inside* ``submit()``:
  ``render_png`` of the public view in a worker thread (``asyncio.to_thread``) plus alt text;
* **total** – the wall time of ``TableService.submit()``;
* **rest** – total minus the three stages: table reads, seat checks, the board post and
  its move controls;
* the **PNG size** of the board image the move produced.

Run from the repo root: ``python -m bench.pipeline [--games N] [--players 2,3,4] [--seed S]
[--json out.json]``. Moves are chosen with :class:`engine.rng.Rng` from ``--seed``, so the
games are reproducible; the timings of course are not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.base import Game
from engine.rng import Rng
from storage import Database, TableRow
from tables import renderer
from tables.catalog import default_catalog
from tables.outcome import Actor, Board
from tables.service import TableService

GAME_KEY = "breaks"
DEFAULT_GAMES = 15  # ~80 s on a 2-core machine
DEFAULT_PLAYERS = (2, 3, 4)
DEFAULT_SEED = 20240601

TARGET_MEDIAN_MS = 20.0
TARGET_P95_MS = 50.0
TARGET_PNG_KB = 200.0

STAGES: tuple[tuple[str, str], ...] = (
    ("engine", "engine apply"),
    ("persist", "persist (SQLite)"),
    ("render", "render PNG"),
    ("rest", "rest of submit()"),
    ("total", "total submit()"),
)


# --- instrumented subclasses: the real code, with a stopwatch around one call ------------------------------
class TimedDatabase(Database):
    """A :class:`Database` that adds the wall time of each ``record_moves`` to :attr:`persist_s`."""

    def __init__(self, conn: Any, path: str) -> None:
        super().__init__(conn, path)
        self.persist_s = 0.0

    async def record_moves(self, *args: Any, **kwargs: Any) -> TableRow:  # whatever Database.record_moves takes
        t0 = time.perf_counter()
        try:
            return await super().record_moves(*args, **kwargs)
        finally:
            self.persist_s += time.perf_counter() - t0


class TimedService(TableService):
    """A :class:`TableService` that records when each board render runs (:attr:`render_spans`).

    A move's images (the public board, the mover's DM) render concurrently, so the render stage of a move is
    the wall time covered by the union of its spans, not their sum."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.render_spans: list[tuple[float, float]] = []
        self.png_sizes: list[int] = []
        self._draw = self.presenter.render
        self.presenter.render = self._render  # type: ignore[method-assign]  # every picture the service draws

    @property
    def render_s(self) -> float:
        covered, end = 0.0, float("-inf")
        for t0, t1 in sorted(self.render_spans):
            if t1 > end:
                covered += t1 - max(t0, end)
                end = t1
        return covered

    async def _render(self, game: Game, view: dict[str, Any], names: list[str]) -> Board | None:
        t0 = time.perf_counter()
        try:
            board = await self._draw(game, view, names)
        finally:
            self.render_spans.append((t0, time.perf_counter()))
        if board is not None:
            self.png_sizes.append(len(board.png))
        return board


# --- samples and statistics ---------------------------------------------------------------------------------
@dataclass
class Samples:
    """Per-move measurements for one group of games (times in ms, PNG sizes in KB)."""

    games: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: {key: [] for key, _ in STAGES})
    png_kb: list[float] = field(default_factory=list)

    @property
    def moves(self) -> int:
        return len(self.times["total"])

    def extend(self, other: Samples) -> None:
        self.games += other.games
        for key, _ in STAGES:
            self.times[key].extend(other.times[key])
        self.png_kb.extend(other.png_kb)


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (``pct`` in 0–100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]


def summary(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"median": math.nan, "p95": math.nan, "max": math.nan}
    return {"median": statistics.median(values), "p95": percentile(values, 95), "max": max(values)}


def rss_now_kb() -> int | None:
    """Current resident set size in KB (Linux /proc), or None elsewhere."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return pages * resource.getpagesize() // 1024


def rss_peak_kb() -> int:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes on macOS, KB on Linux


# --- playing ---------------------------------------------------------------------------------------------------
@dataclass
class Bench:
    service: TimedService
    db: TimedDatabase
    game: Game
    rng: Rng
    next_channel: int = 1000
    mismatches: int = 0
    options: str | None = None  # the lobby's options (``scenario=traffic mode=semi``)

    async def play_game(self, players: int) -> Samples:
        """One random game with ``players`` human seats, every move through ``submit()``."""
        self.next_channel += 1
        channel = self.next_channel
        actors = [Actor(user_id=channel * 10 + i, name=f"Player {i + 1}") for i in range(players)]
        out = await self.service.open_lobby(guild_id=1, channel_id=channel, host=actors[0], game_key=self.game.key,
                                             options_text=self.options)
        assert out.table_id is not None
        table_id = out.table_id
        for actor in actors[1:]:
            await self.service.join(table_id, actor)
        await self.service.start(table_id, actors[0])
        samples = Samples(games=1)
        game = self.game
        while True:
            table = await self.db.get_table(table_id)
            assert table is not None and table.state is not None
            if table.status != "active":
                break
            stored = json.dumps(table.state)  # the text record_moves wrote
            to_act = sorted(game.to_act(game.load(table.state)))
            seat = to_act[0]
            choices = await self.service.choices(channel, actors[seat])
            text = self.rng.choice(choices).notation

            # (a) engine, timed on the side: the same load/parse/apply submit() does.
            t0 = time.perf_counter()
            state = game.load(json.loads(stored))
            move = game.parse_move(text)
            new_state, _events = game.apply(state, seat, move)
            engine_s = time.perf_counter() - t0

            # (b)+(c)+(d): the real request, with persist and render timed inside it.
            self.db.persist_s = 0.0
            self.service.render_spans.clear()
            renders_before = len(self.service.png_sizes)
            t0 = time.perf_counter()
            await self.service.submit(actors[seat], text, channel_id=channel)
            total_s = time.perf_counter() - t0

            after = await self.db.get_table(table_id)
            if after is None or after.state != game.dump(new_state):
                self.mismatches += 1
            ms = {"engine": engine_s * 1000, "persist": self.db.persist_s * 1000,
                  "render": self.service.render_s * 1000, "total": total_s * 1000}
            ms["rest"] = ms["total"] - ms["engine"] - ms["persist"] - ms["render"]
            for key, value in ms.items():
                samples.times[key].append(value)
            samples.png_kb.extend(size / 1024 for size in self.service.png_sizes[renders_before:])
        return samples


async def run(games: int, players: Sequence[int], seed: int, warmup: int, game_key: str = GAME_KEY,
              options: str | None = None) -> dict[str, Any]:
    rng = Rng(seed)
    with tempfile.TemporaryDirectory(prefix="blockhouse-bench-") as tmp:
        db_path = Path(tmp) / "bench.sqlite3"
        db = await TimedDatabase.open(db_path)
        assert isinstance(db, TimedDatabase)
        try:
            journal = await db.journal_mode()
            service = TimedService(db, default_catalog(), seeds=lambda: rng.next64() >> 1)
            game = service.game(game_key)
            bench = Bench(service=service, db=db, game=game, rng=rng, options=options)
            for _ in range(warmup):  # fonts, sprites, SQLite pages: not counted
                await bench.play_game(players[0])
            rss_start = rss_now_kb()
            groups: dict[int, Samples] = {n: Samples() for n in players}
            started = time.perf_counter()
            for _ in range(games):  # interleave player counts so drift hits every group alike
                for n in players:
                    groups[n].extend(await bench.play_game(n))
            wall = time.perf_counter() - started
            rss_end = rss_now_kb()
            db_kb = sum(p.stat().st_size for p in Path(tmp).iterdir() if p.is_file()) / 1024
        finally:
            await db.close()
    overall = Samples()
    for s in groups.values():
        overall.extend(s)
    return {
        "game": game_key, "seed": seed, "games_per_player_count": games, "warmup_games": warmup,
        "wall_s": wall, "journal_mode": journal, "db_files_kb": db_kb, "state_mismatches": bench.mismatches,
        "python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
        "memory": {"rss_after_warmup_kb": rss_start, "rss_end_kb": rss_end,
                   "rss_peak_kb": max(rss_peak_kb(), rss_end or 0)},
        "groups": {str(n): report(s) for n, s in groups.items()},
        "overall": report(overall),
    }


def report(s: Samples) -> dict[str, Any]:
    return {
        "games": s.games,
        "moves": s.moves,
        "ms": {key: summary(s.times[key]) for key, _ in STAGES},
        "png_kb": summary(s.png_kb),
        "pngs": len(s.png_kb),
    }


def targets(rep: dict[str, Any]) -> list[dict[str, Any]]:
    ms, png = rep["ms"]["total"], rep["png_kb"]
    rows = [("median submit() < %g ms" % TARGET_MEDIAN_MS, ms["median"], TARGET_MEDIAN_MS, "ms"),
            ("p95 submit() < %g ms" % TARGET_P95_MS, ms["p95"], TARGET_P95_MS, "ms"),
            ("max PNG < %g KB" % TARGET_PNG_KB, png["max"], TARGET_PNG_KB, "KB")]
    return [{"target": name, "value": value, "limit": limit, "unit": unit, "pass": bool(value < limit)}
            for name, value, limit, unit in rows]


# --- output ----------------------------------------------------------------------------------------------------
def _mb(kb: int | None) -> str:
    return "n/a" if kb is None else f"{kb / 1024:.1f} MB"


def format_text(res: dict[str, Any]) -> str:
    lines = [
        f"Blockhouse pipeline benchmark: {res['game']}, seed {res['seed']}, "
        f"{res['games_per_player_count']} games per player count (+{res['warmup_games']} warm-up, not counted)",
        f"Python {res['python']}, SQLite {res['sqlite']} (journal_mode={res['journal_mode']}, real file), "
        f"wall {res['wall_s']:.1f} s, DB files at end {res['db_files_kb'] / 1024:.1f} MB",
        "",
        f"{'players':<8} {'games':>5} {'moves':>6}  {'stage':<18} {'median ms':>10} {'p95 ms':>9} {'max ms':>9}",
    ]
    rows = [(n, rep) for n, rep in res["groups"].items()] + [("all", res["overall"])]
    for n, rep in rows:
        for i, (key, label) in enumerate(STAGES):
            head = f"{n:<8} {rep['games']:>5} {rep['moves']:>6}" if i == 0 else " " * 21
            st = rep["ms"][key]
            lines.append(f"{head}  {label:<18} {st['median']:>10.2f} {st['p95']:>9.2f} {st['max']:>9.2f}")
        lines.append("")
    lines.append(f"{'players':<8} {'PNGs':>6}  {'median KB':>10} {'p95 KB':>9} {'max KB':>9}")
    for n, rep in rows:
        png = rep["png_kb"]
        lines.append(f"{n:<8} {rep['pngs']:>6}  {png['median']:>10.1f} {png['p95']:>9.1f} {png['max']:>9.1f}")
    lines.append("")
    lines.append("Targets (all moves):")
    for t in targets(res["overall"]):
        verdict = "PASS" if t["pass"] else "FAIL"
        lines.append(f"  {verdict}  {t['target']:<24} measured {t['value']:.2f} {t['unit']}")
    mem = res["memory"]
    lines.append("")
    lines.append(f"Memory: RSS after warm-up {_mb(mem['rss_after_warmup_kb'])}, at end {_mb(mem['rss_end_kb'])}, "
                 f"peak {_mb(mem['rss_peak_kb'])} (getrusage ru_maxrss)")
    check = "OK" if res["state_mismatches"] == 0 else f"{res['state_mismatches']} MISMATCHES"
    lines.append(f"Engine-stage check (side apply == state submit() stored): {check}")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.pipeline", description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per player count (default %(default)s)")
    p.add_argument("--game", default=GAME_KEY, help="which game (default %(default)s)")
    p.add_argument("--players", default=",".join(map(str, DEFAULT_PLAYERS)),
                   help="comma-separated player counts (default %(default)s)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed for deals and moves (default %(default)s)")
    p.add_argument("--warmup", type=int, default=1, help="uncounted warm-up games (default %(default)s)")
    p.add_argument("--json", type=Path, default=None, metavar="OUT", help="also write the results as JSON here")
    p.add_argument("--options", default=None, help="the lobby's options, as /game new takes them "
                   "(e.g. \"scenario=traffic\")")
    args = p.parse_args(argv)
    try:
        args.players = sorted({int(x) for x in args.players.split(",") if x.strip()})
    except ValueError:
        p.error(f"--players must look like 2,3,4, not {args.players!r}")
    game = default_catalog().get(args.game)
    if game is None:
        p.error(f"--game must be one of {', '.join(g.key for g in default_catalog().all())}")
    if not args.players or any(not game.min_players <= n <= game.max_players for n in args.players):
        p.error(f"--players must be between {game.min_players} and {game.max_players}")
    if args.games < 1 or args.warmup < 0:
        p.error("--games must be at least 1 and --warmup at least 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    # pictures drawn in this process's threads, as this bench has always measured (the bot's default on two cores
    # or more is a render worker process, which bench.load measures)
    os.environ.setdefault(renderer.WORKERS_SETTING, "0")
    args = parse_args(argv)
    res = asyncio.run(run(args.games, args.players, args.seed, args.warmup, args.game, args.options))
    res["targets"] = targets(res["overall"])
    print(format_text(res))
    if args.json is not None:
        args.json.write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
        print(f"JSON written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
