"""A bot's worker process from nothing to its first answer (target: under 1 s).

Each run makes a fresh :class:`~tables.bots.Thinker` (a new worker process, spawned as the bot spawns it; the bot's
other workers, ``--workers`` in all, start once it has answered) and times its first ``move`` of a medium bot,
which includes starting the interpreter, importing what the worker imports and thinking; a second ``move`` on the
now warm worker gives the thinking alone. It then asks the worker
which of the platform's packages it has loaded: a worker should hold the engine and the bots, never the table
service, the catalogue, a renderer, Pillow or discord.py.

Run from the repository root (``--busy N`` adds N processes that spin on the CPU while it measures)::

    python -m bench.worker_start
    python -m bench.worker_start --busy 2 --runs 5

This module imports nothing of the platform at its top: a spawned worker imports the parent's ``__main__`` module,
and this one must not make the worker look slower than the bot's own would be.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from typing import Any

WATCHED = ("tables", "render", "storage", "cogs", "discord", "PIL", "bots", "engine")


def loaded_packages() -> list[str]:
    """In the worker: which of :data:`WATCHED` are imported."""
    return sorted({name.split(".")[0] for name in sys.modules} & set(WATCHED))


async def one_run(game_key: str, level: str, workers: int | None = None) -> tuple[float, float, list[str]]:
    from engine.rng import Rng
    from tables.bots import Thinker
    from tables.catalog import default_catalog

    game = default_catalog().get(game_key)
    assert game is not None, game_key
    state = game.new_game(game.min_players if game.min_players > 1 else 2, game.resolve_options({}), 7)
    seat = min(game.to_act(state))
    thinker = Thinker(workers=workers)
    try:
        started = time.perf_counter()
        await thinker.move(game, state, seat, level, Rng(1), True)
        first = time.perf_counter() - started
        started = time.perf_counter()
        await thinker.move(game, state, seat, level, Rng(2), True)
        warm = time.perf_counter() - started
        pool = thinker._executor()
        packages = await asyncio.get_running_loop().run_in_executor(pool, loaded_packages)
    finally:
        thinker.close()
    return first, warm, packages


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="breakerblocks")
    parser.add_argument("--level", default="medium")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--busy", type=int, default=0, help="processes spinning on the CPU meanwhile")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: the bot's)")
    args = parser.parse_args(argv)
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        rows: list[tuple[float, float, list[str]]] = []
        for _ in range(args.runs):
            rows.append(asyncio.run(one_run(args.game, args.level, args.workers)))
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    firsts = [r[0] for r in rows]
    warms = [r[1] for r in rows]
    report: dict[str, Any] = {
        "game": args.game, "level": args.level, "busy": args.busy, "runs": args.runs,
        "workers": args.workers or "default",
        "first answer, median (s)": round(statistics.median(firsts), 3),
        "first answer, max (s)": round(max(firsts), 3),
        "warm answer, median (s)": round(statistics.median(warms), 3),
        "worker loaded": rows[-1][2],
    }
    for key, value in report.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
