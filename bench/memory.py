"""Memory over a long run (issue 28, "memory flat"): random games through the real ``TableService`` on a real SQLite
file (``bench.pipeline``'s driver: every seat a person, every move one ``submit()``), the process's RSS after a
``gc.collect()`` about every 1,000 moves, and the growth per 1,000 moves after warm-up (least squares over the samples
from ``--settle`` moves on). Each sample also has what glibc's malloc holds in use and in its free lists
(``mallinfo2``, glibc), what Python's small-object allocator holds in blocks and in arenas
(``sys._debugmallocstats``) and what SQLite holds, so that growth of live memory (objects, Pillow's image memory,
SQLite's page caches) can be told from fragmentation.
``--trace`` adds tracemalloc's largest growths (by traceback) between two points, the end of the warm-up and the end
unless ``--trace-at A,B`` names them (moves played, warm-up included). Tracing starts at the end of the warm-up
(or at ``--trace-from`` moves), well before A, so that what a bounded cache drops between A and B was traced when
it was made and counts as freed (slow: several times the run's time while tracing).

    python -m bench.memory                                   # Breaks, 4 players, 10,000 moves
    python -m bench.memory --game blockers --moves 10000
    python -m bench.memory --game blocbybloc --moves 10000 --trace --trace-at 3000,8000
    python -m bench.memory --game blocbybloc --workers 1          # pictures in a render worker, as the bot draws

``--workers N`` draws the pictures in N render worker processes (the bot's default on two cores or more is one): the
process measured is then the bot's own without the renderers' caches and buffers, and each sample adds the workers'
RSS (``render_rss``, their sum; ``/proc/<pid>/status``). ``--arena-max N`` and ``--mmap-threshold BYTES`` set
glibc's malloc (``mallopt`` in this process, ``GLIBC_TUNABLES`` for the workers it starts): fewer arenas for its
threads, or blocks from that size up mapped apart and given back when freed (a board's PNG, ~125 KB, is under
glibc's default of 128 KB), to tell fragmentation from live memory.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import ctypes.util
import gc
import json
import multiprocessing
import os
import re
import sys
import tempfile
import threading
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.pipeline import Bench, TimedDatabase, TimedService, rss_now_kb
from cogs.client import GC_THRESHOLDS
from engine.rng import Rng
from tables import renderer
from tables.catalog import default_catalog
from tables.workers import MMAP_THRESHOLD


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                     "fsmblks", "uordblks", "fordblks", "keepcost")]


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
        if libc is not None:
            libc.mallinfo2.restype = _Mallinfo2
    except (OSError, AttributeError):  # not glibc, or a glibc before 2.33
        return None
    return libc


_LIBC = _libc()


M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8  # mallopt's parameters (glibc's malloc.h)


def set_malloc(arena_max: int = 0, mmap_threshold: int = 0) -> list[str]:
    """glibc's malloc for this process (``mallopt``) and the processes it starts (``GLIBC_TUNABLES``): at most
    ``arena_max`` arenas, blocks of ``mmap_threshold`` bytes and more mapped apart (0: glibc's default); what was
    set, in words (nothing without glibc)."""
    done: list[str] = []
    tunables = []
    for param, value, name in ((M_ARENA_MAX, arena_max, "arena_max"), (M_MMAP_THRESHOLD, mmap_threshold,
                                                                       "mmap_threshold")):
        if value <= 0:
            continue
        tunables.append(f"glibc.malloc.{name}={value}")
        if _LIBC is not None and _LIBC.mallopt(param, value) == 1:
            done.append(f"{name}={value}")
    if tunables:
        os.environ["GLIBC_TUNABLES"] = ":".join(tunables)
    return done


def malloc_mb() -> tuple[float, float] | None:
    """What glibc's malloc holds in MB: (in use, free in its heaps), over all arenas; None without glibc.
    In use counts Pillow's image memory and Python's objects over 512 bytes (smaller ones live in pymalloc's
    arenas, mapped apart: they are in RSS − used − free, with the code and the libraries); free is memory malloc
    keeps in its heaps but nothing uses: RSS that grows with it is fragmentation, not live memory."""
    if _LIBC is None:
        return None
    info = _LIBC.mallinfo2()
    return (info.uordblks + info.hblkhd) / 2**20, info.fordblks / 2**20


def pymalloc_mb() -> tuple[float, float] | None:
    """Python's small-object allocator in MB: (bytes in its allocated blocks, its arenas in all), from
    ``sys._debugmallocstats`` (printed by C on the process's stderr, read back here); None if that fails. Arenas
    that grow while the blocks do not are fragmentation: an arena is given back only once all of it is free."""
    try:
        with tempfile.TemporaryFile() as out:
            sys.stderr.flush()
            saved = os.dup(2)
            try:
                os.dup2(out.fileno(), 2)
                sys._debugmallocstats()
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            out.seek(0)
            text = out.read().decode(errors="replace")
    except (OSError, AttributeError):
        return None
    blocks = re.search(r"# bytes in allocated blocks\s*=\s*([\d,]+)", text)
    total = re.search(r"^Total\s*=\s*([\d,]+)", text, re.MULTILINE)  # (the first Total: the arenas')
    if blocks is None or total is None:
        return None
    return int(blocks[1].replace(",", "")) / 2**20, int(total[1].replace(",", "")) / 2**20


def _sqlite() -> ctypes.CDLL | None:
    """The SQLite library Python's sqlite3 module is linked to, when it is a shared one (its counters are the
    module's); None when it is built in or absent."""
    name = ctypes.util.find_library("sqlite3")
    try:
        lib = ctypes.CDLL(name) if name else None
        if lib is not None:
            lib.sqlite3_memory_used.restype = ctypes.c_int64
    except (OSError, AttributeError):
        return None
    return lib


_SQLITE = _sqlite()


def sqlite_mb() -> float | None:
    """What SQLite holds now (its page caches, schemas, statements), in MB, taken from malloc: part of
    :func:`malloc_mb`'s in use. None when the library is not a shared one."""
    return None if _SQLITE is None else _SQLITE.sqlite3_memory_used() / 2**20


def children_rss_mb() -> float | None:
    """The RSS of this process's live child processes (the render workers), summed, in MB; None without /proc or
    without children."""
    total, found = 0, False
    for child in multiprocessing.active_children():
        try:
            status = Path(f"/proc/{child.pid}/status").read_text()
        except OSError:
            continue
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
        if match:
            total += int(match[1])
            found = True
    return total / 1024 if found else None


def slope(points: Sequence[tuple[int, float]]) -> float:
    """Least-squares growth of y per unit of x (0 with fewer than two points)."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


def _sample(played: int, games: int = 0) -> dict[str, Any]:
    """RSS and the allocators' figures now (after a full collection), in MB, after ``played`` moves in ``games``
    games (a game's own caches, such as Bloc by Bloc's cities, fill by the game, not by the move)."""
    gc.collect()
    out: dict[str, Any] = {"moves": played, "games": games, "threads": threading.active_count(),
                           "rss": round((rss_now_kb() or 0) / 1024, 1)}  # (each thread may take a malloc arena)
    heap = malloc_mb()
    if heap is not None:
        out["malloc_used"], out["malloc_free"] = round(heap[0], 1), round(heap[1], 1)
    small = pymalloc_mb()
    if small is not None:
        out["pymalloc_used"], out["pymalloc_arenas"] = round(small[0], 1), round(small[1], 1)
    held = sqlite_mb()
    if held is not None:
        out["sqlite"] = round(held, 1)
    workers = children_rss_mb()
    if workers is not None:
        out["render_rss"] = round(workers, 1)
    if tracemalloc.is_tracing():
        out["traced"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
    return out


def _growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, top: int) -> list[str]:
    """The ``top`` largest growths from ``before`` to ``after`` by traceback, in words."""
    out = []
    for stat in after.compare_to(before, "traceback")[:top]:
        out.append(f"{stat.size_diff / 1024:+.0f} KB in {stat.count_diff:+d} blocks at "
                   + " <- ".join(f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}" for f in reversed(stat.traceback[-6:])))
    return out


async def run(game_key: str, players: int, moves: int, warmup_games: int, seed: int, trace: bool,
              trace_at: tuple[int, int] | None = None, top: int = 15, trace_from: int = 0) -> dict[str, Any]:
    rng = Rng(seed)
    with tempfile.TemporaryDirectory(prefix="blockhouse-memory-") as tmp:
        db = await TimedDatabase.open(Path(tmp) / "memory.sqlite3")
        assert isinstance(db, TimedDatabase)
        try:
            service = TimedService(db, default_catalog(), seeds=lambda: rng.next64() >> 1)
            bench = Bench(service=service, db=db, game=service.game(game_key), rng=rng)
            played = games = 0
            for _ in range(warmup_games):  # fonts, sprites, empty tables, SQLite pages
                played += len((await bench.play_game(players)).times["total"])
                games += 1
            warm = played
            snapshots: dict[str, tracemalloc.Snapshot] = {}
            samples = [_sample(played, games)]
            while True:
                if trace and not tracemalloc.is_tracing() and played >= trace_from and "last" not in snapshots:
                    gc.collect()
                    tracemalloc.start(8)
                    print(f"  {played:>6} moves: tracing", flush=True)
                    if trace_at is None:
                        snapshots["first"] = tracemalloc.take_snapshot()
                if played - warm >= moves:
                    break
                played += len((await bench.play_game(players)).times["total"])
                games += 1
                service.png_sizes.clear()  # (the bench's own records: a float or two a picture, dropped)
                service.render_spans.clear()
                if (trace_at is not None and tracemalloc.is_tracing() and len(snapshots) < 2
                        and played >= trace_at[len(snapshots)]):
                    gc.collect()
                    snapshots["first" if not snapshots else "last"] = tracemalloc.take_snapshot()
                    print(f"  {played:>6} moves: snapshot", flush=True)
                    if len(snapshots) == 2:
                        tracemalloc.stop()  # (the rest of the run at full speed)
                if played - samples[-1]["moves"] >= 1000 or played - warm >= moves:
                    samples.append(_sample(played, games))
                    print("  " + ", ".join(f"{k} {v}" for k, v in samples[-1].items()), flush=True)
            growth: list[str] = []
            if trace:
                if "last" not in snapshots and tracemalloc.is_tracing():
                    gc.collect()
                    snapshots["last"] = tracemalloc.take_snapshot()
                if len(snapshots) == 2:
                    growth = _growth(snapshots["first"], snapshots["last"], top)
                tracemalloc.stop()
        finally:
            await db.close()
    return {"game": game_key, "players": players, "warmup_moves": warm, "samples": samples, "growth": growth}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="breaks")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--moves", type=int, default=10_000, help="measured moves after the warm-up")
    ap.add_argument("--warmup", type=int, default=3, help="uncounted games first")
    ap.add_argument("--settle", type=int, default=2000,
                    help="moves after the warm-up before the growth is fitted (caches filling to their bounds)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--trace", action="store_true", help="tracemalloc's largest growths (slow)")
    ap.add_argument("--trace-at", help="A,B: the growths from A to B moves played (default: warm-up to end)")
    ap.add_argument("--trace-from", type=int, default=0,
                    help="moves played before tracing starts (default: the end of the warm-up)")
    ap.add_argument("--top", type=int, default=15, help="how many growths --trace lists")
    ap.add_argument("--workers", type=int, default=0,
                    help="render worker processes (default 0: one process, pictures drawn in its threads, so its RSS "
                         "holds the renderers' caches too; the bot's default on two cores or more is 1)")
    ap.add_argument("--arena-max", type=int, default=0, help="glibc malloc arenas at most (default: glibc's)")
    ap.add_argument("--mmap-threshold", type=int, default=MMAP_THRESHOLD,
                    help=f"bytes from which glibc maps a block apart (default: the bot's, {MMAP_THRESHOLD}; "
                         "0: glibc's, 128 KB and rising, in this process; its render workers set the bot's)")
    ap.add_argument("--json", dest="out")
    args = ap.parse_args(argv)
    os.environ[renderer.WORKERS_SETTING] = str(max(0, args.workers))
    renderer.shutdown()  # (the setting read again at the first picture, whatever this process drew before)
    gc.set_threshold(*GC_THRESHOLDS)  # the collector as the bot's process sets it (cogs.client.tune_process)
    malloc = set_malloc(args.arena_max, args.mmap_threshold)
    if malloc:
        print(f"  malloc: {', '.join(malloc)}", flush=True)
    trace_at = None
    if args.trace_at:
        a, b = (int(v) for v in args.trace_at.split(","))
        trace_at = (a, b) if args.trace_from < a < b else ap.error("--trace-at A,B needs --trace-from < A < B")
    try:
        res = asyncio.run(run(args.game, args.players, args.moves, args.warmup, args.seed,
                              args.trace or bool(trace_at), trace_at, args.top, args.trace_from))
    finally:
        renderer.shutdown()  # (the render workers, if any)
    samples = res["samples"]
    start = samples[0]["moves"]
    fitted = [s for s in samples if s["moves"] - start >= args.settle]
    for key in ("rss", "malloc_used", "malloc_free", "pymalloc_used", "pymalloc_arenas", "sqlite", "render_rss",
                "traced"):
        if all(key in s for s in fitted):
            res[f"{key}_mb_per_1000"] = round(slope([(s["moves"], s[key]) for s in fitted]) * 1000, 2)
    res["growth_mb_per_1000"] = res["rss_mb_per_1000"]
    print(f"{args.game}, {args.players} players: RSS {samples[0]['rss']:.1f} MB after {start} warm-up moves, "
          f"{samples[-1]['rss']:.1f} MB after {samples[-1]['moves']}; growth from {start + args.settle} moves on: "
          f"{res['growth_mb_per_1000']:+.2f} MB per 1,000 moves (target <= 0.5)")
    keys = tuple(f"{key}_mb_per_1000" for key in ("malloc_used", "malloc_free", "pymalloc_used", "pymalloc_arenas",
                                                   "sqlite", "render_rss", "traced"))
    others = ", ".join(f"{key.split('_mb')[0]} {res[key]:+.2f}" for key in keys if key in res)
    if others:
        print(f"  of which, per 1,000 moves: {others} MB")
    for line in res["growth"]:
        print("  " + line)
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
