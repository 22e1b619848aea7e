"""What a picture costs the bot's own process when a render worker draws it (``tables.renderer.RenderPool``): the
view sent, the PNG received, and the event loop's work between, without the drawing (which the worker does).

Boards of seeded games are asked of a pool of ``--workers`` processes, ``--at-once`` at a time (like that many
tables), ``--rounds`` times over; it prints this process's CPU per picture (``time.process_time``: all its threads),
the workers' CPU per picture (``/proc/<pid>/stat``) and the wall time per picture. Run from the repository root::

    python -m bench.render_pool
    python -m bench.render_pool --game blocbybloc --at-once 20

The process's CPU is the figure: the wall time depends on the worker and the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path
from typing import Any

NAMES = ["Ann", "Bo", "Cy", "Di"]
TICKS = os.sysconf("SC_CLK_TCK")


def views(key: str, seats: int, count: int, seed: int) -> list[Any]:
    """The public views of the first ``count`` positions of a random game."""
    from engine.rng import Rng
    from tables.catalog import default_catalog

    game = default_catalog().get(key)
    assert game is not None
    state = game.new_game(seats, {}, seed)
    rng = Rng(seed)
    out = [game.view(state, None)]
    while len(out) < count and game.to_act(state):
        seat = min(game.to_act(state))
        game.fast_apply(state, seat, game.sample_move(state, seat, rng))
        out.append(game.view(state, None))
    return out


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


async def measure(key: str, seats: int, workers: int, at_once: int, rounds: int, seed: int) -> dict[str, float]:
    from tables.renderer import RenderPool

    shown = views(key, seats, at_once, seed)
    names = NAMES[:seats]
    pool = RenderPool(workers)
    try:
        await pool.warm()
        await asyncio.gather(*(pool.render(key, view, names) for view in shown))  # fonts and tables loaded
        pids = pool.pids()
        kids, cpu, wall = cpu_of(pids), time.process_time(), time.perf_counter()
        for _ in range(rounds):
            await asyncio.gather(*(pool.render(key, view, names) for view in shown))
        count = rounds * len(shown)
        return {"pictures": count, "bot_ms": (time.process_time() - cpu) / count * 1000,
                "workers_ms": (cpu_of(pids) - kids) / count * 1000,
                "wall_ms": (time.perf_counter() - wall) / count * 1000}
    finally:
        await pool.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="breaks")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--at-once", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    got = asyncio.run(measure(args.game, args.players, args.workers, args.at_once, args.rounds, args.seed))
    print(f"{args.game} × {args.players} players, {args.workers} worker(s), {args.at_once} at a time: "
          f"{got['pictures']:.0f} pictures; per picture: bot's process {got['bot_ms']:.3f} ms CPU, "
          f"workers {got['workers_ms']:.2f} ms CPU, wall {got['wall_ms']:.2f} ms")


if __name__ == "__main__":
    main()
