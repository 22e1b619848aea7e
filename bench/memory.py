"""Memory over a long run (issue 28, "memory flat"): random games through the real ``TableService`` on a real SQLite
file (``bench.pipeline``'s driver: every seat a person, every move one ``submit()``), the process's RSS after a
``gc.collect()`` about every 1,000 moves, and the growth per 1,000 moves after warm-up (least squares over the samples
from ``--settle`` moves on). ``--trace`` adds tracemalloc's largest growths between the end of the warm-up and the end
(slow: several times the run's time).

    python -m bench.memory                                   # Breaks, 4 players, 10,000 moves
    python -m bench.memory --game blockers --moves 10000
    python -m bench.memory --game blocbybloc --moves 3000 --trace
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import tempfile
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.pipeline import Bench, TimedDatabase, TimedService, rss_now_kb
from engine.rng import Rng
from tables import renderer
from tables.catalog import default_catalog


def slope(points: Sequence[tuple[int, float]]) -> float:
    """Least-squares growth of y per unit of x (0 with fewer than two points)."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


async def run(game_key: str, players: int, moves: int, warmup_games: int, seed: int, trace: bool) -> dict[str, Any]:
    rng = Rng(seed)
    with tempfile.TemporaryDirectory(prefix="blockhouse-memory-") as tmp:
        db = await TimedDatabase.open(Path(tmp) / "memory.sqlite3")
        assert isinstance(db, TimedDatabase)
        try:
            service = TimedService(db, default_catalog(), seeds=lambda: rng.next64() >> 1)
            bench = Bench(service=service, db=db, game=service.game(game_key), rng=rng)
            played = 0
            for _ in range(warmup_games):  # fonts, sprites, empty tables, SQLite pages
                played += len((await bench.play_game(players)).times["total"])
            warm = played
            gc.collect()
            if trace:
                tracemalloc.start(8)
                before = tracemalloc.take_snapshot()
            samples = [(played, (rss_now_kb() or 0) / 1024)]
            while played - warm < moves:
                played += len((await bench.play_game(players)).times["total"])
                service.png_sizes.clear()
                if played - samples[-1][0] >= 1000:
                    gc.collect()
                    samples.append((played, (rss_now_kb() or 0) / 1024))
                    print(f"  {played:>6} moves: {samples[-1][1]:.1f} MB", flush=True)
            growth: list[str] = []
            if trace:
                gc.collect()
                after = tracemalloc.take_snapshot()
                for stat in after.compare_to(before, "traceback")[:10]:
                    growth.append(f"{stat.size_diff / 1024:+.0f} KB in {stat.count_diff:+d} blocks at "
                                  + " <- ".join(f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}"
                                                for f in reversed(stat.traceback[-4:])))
                tracemalloc.stop()
        finally:
            await db.close()
    return {"game": game_key, "players": players, "warmup_moves": warm, "samples": samples, "growth": growth}


def main(argv: Sequence[str] | None = None) -> int:
    # one process: pictures drawn in its threads, so its RSS holds the renderers' caches too (the bot's default on
    # two cores or more is a render worker process)
    os.environ.setdefault(renderer.WORKERS_SETTING, "0")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="breaks")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--moves", type=int, default=10_000, help="measured moves after the warm-up")
    ap.add_argument("--warmup", type=int, default=3, help="uncounted games first")
    ap.add_argument("--settle", type=int, default=2000,
                    help="moves after the warm-up before the growth is fitted (caches filling to their bounds)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--trace", action="store_true", help="tracemalloc's largest growths (slow)")
    ap.add_argument("--json", dest="out")
    args = ap.parse_args(argv)
    res = asyncio.run(run(args.game, args.players, args.moves, args.warmup, args.seed, args.trace))
    samples = res["samples"]
    start = samples[0][0]
    fitted = [(m, mb) for m, mb in samples if m - start >= args.settle]
    res["growth_mb_per_1000"] = round(slope(fitted) * 1000, 2)
    print(f"{args.game}, {args.players} players: RSS {samples[0][1]:.1f} MB after {start} warm-up moves, "
          f"{samples[-1][1]:.1f} MB after {samples[-1][0]}; growth from {start + args.settle} moves on: "
          f"{res['growth_mb_per_1000']:+.2f} MB per 1,000 moves (target <= 0.5)")
    for line in res["growth"]:
        print("  " + line)
    if args.out:
        Path(args.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
