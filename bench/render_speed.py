"""Board pictures: CPU milliseconds per board and PNG bytes, per game and player count.

Plays random games with the engine alone (``new_game``, ``sample_move``, ``fast_apply``; seeds count up from ``--seed``,
so the games and their views are reproducible) and records the public view each time the table would post a board
(the revealed ply changed, or the game ended) and the private view of the seat that moved (what ``/hand`` and a
DM show). Then it renders every recorded view with the game's registered renderer, in this one thread, after one
untimed pass (fonts, sprites, the cached empty tables), and prints per game, player count and kind of view: boards,
the median, p95 and mean CPU milliseconds per board (``time.process_time`` around each render: the process's CPU,
which in this single-threaded run is the render's) and the median and largest PNG.

Run from the repository root::

    python -m bench.render_speed                          # every game, every player count, 6 games each
    python -m bench.render_speed --game breaks --players 4 --games 3
    python -m bench.render_speed --save /tmp/boards       # also write every PNG (game-players-kind-index.png)
    python -m bench.render_speed --compare /tmp/boards    # and compare each board with the saved one, pixel by pixel
    python -m bench.render_speed --threads 2              # also: two threads rendering at once, CPU time vs wall

``--compare`` decodes both pictures to RGB and prints, per row, the largest difference of one colour channel over
all pixels and the share of pixels that differ at all: "the same picture" is judged from those figures (and a look).
``--threads N`` renders the same boards again from 1 and N threads at once, then from 1 and N processes, and prints
the wall time per board, the CPU time and their ratio: about N when the renders run in parallel, about 1 when the
GIL serialises them (on a machine busy with other work, both less).
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import platform
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

from engine.base import Game
from engine.rng import Rng
from tables.catalog import default_catalog

NAMES = ["Alice", "Bartholomew", "Chen Wei", "Dana", "Émile", "Fatima", "Grzegorz", "Hiro"]
MAX_PLIES = 5_000  # a safety net per game
KINDS = ("public", "private")


@dataclass
class Row:
    game: str
    players: int
    kind: str
    views: list[Any] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    max_diff: int = 0  # with --compare: the largest channel difference of any board
    changed: float = 0.0  # with --compare: the largest share of changed pixels of any board
    compared: int = 0

    def name(self, i: int) -> str:
        return f"{self.game}-{self.players}-{self.kind}-{i:04d}.png"


def record(game: Game, seats: int, games: int, seed: int, every: int) -> tuple[list[Any], list[Any]]:
    """The public views a table posts and the private views of the seat that moved, over ``games`` random games
    (every ``every``-th board of each kind kept, and always the last)."""
    public: list[Any] = []
    private: list[Any] = []
    for g in range(games):
        state = game.new_game(seats, {}, seed + g)
        rng = Rng((seed + g) ^ 0x5DEECE66D)
        shown = -1
        posted = 0
        for _ in range(MAX_PLIES):
            acting = sorted(game.to_act(state))
            if not acting:
                break
            seat = acting[rng.below(len(acting))]
            game.fast_apply(state, seat, game.sample_move(state, seat, rng))
            if game.revealed_ply(state) != shown or not game.to_act(state):
                shown = game.revealed_ply(state)
                posted += 1
                if posted % every == 0 or not game.to_act(state):
                    public.append(json.loads(json.dumps(game.view(state, None))))
                    private.append(json.loads(json.dumps(game.view(state, seat))))
    return public, private


def _cpu(render: Callable[[Any, Sequence[str]], bytes], view: Any, names: Sequence[str]) -> tuple[float, bytes]:
    start = time.process_time()
    png = render(view, names)
    return (time.process_time() - start) * 1000, png


def _difference(a: bytes, b: bytes) -> tuple[int, float]:
    """The largest channel difference and the share of pixels that differ, between two PNGs decoded to RGB."""
    old = Image.open(io.BytesIO(a)).convert("RGB")
    new = Image.open(io.BytesIO(b)).convert("RGB")
    if old.size != new.size:
        return 255, 1.0
    diff = ImageChops.difference(old, new)
    biggest = max(int(hi) for _, hi in diff.getextrema())  # type: ignore[misc]
    if not biggest:
        return 0, 0.0
    mask = diff.convert("L").point(lambda v: 255 if v else 0)
    changed = mask.histogram()[255]
    return biggest, changed / (old.width * old.height)


def _in_play_order(rows: list[Row]) -> list[tuple[Row, int]]:
    """Each board of ``rows`` as (row, index), as a table draws them: a move's public board, then the private one
    of the seat that moved (they share most of their sprites), game by game."""
    return sorted(((row, i) for row in rows for i in range(len(row.views))),
                  key=lambda item: (item[0].game, item[0].players, item[1]))


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="comma-separated game keys (default: every registered game)")
    parser.add_argument("--players", help="comma-separated player counts (default: all the game allows)")
    parser.add_argument("--games", type=int, default=6, help="random games per game and player count")
    parser.add_argument("--every", type=int, default=1, help="keep every N-th board of a game (and the last)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="public,private", help="public, private or both")
    parser.add_argument("--repeat", type=int, default=1, help="timed passes over the boards")
    parser.add_argument("--save", help="write every PNG to this folder")
    parser.add_argument("--compare", help="compare every PNG with the one of the same name in this folder")
    parser.add_argument("--threads", type=int, default=0, help="also render the boards from N threads at once")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--fresh", action="store_true",
                        help="warm up on other games (seeds from seed + 10000), so that every timed board is drawn "
                             "for the first time, as in play (default: the untimed pass draws the timed boards)")
    args = parser.parse_args(argv)
    registry = default_catalog()
    keys = args.game.split(",") if args.game else [g.key for g in registry.all()]
    kinds = [k for k in args.kinds.split(",") if k in KINDS]
    rows: list[Row] = []
    warm: list[Row] = []
    for key in keys:
        game = registry.get(key)
        if game is None:
            parser.error(f"no game {key!r}; games: {', '.join(g.key for g in registry.all())}")
        counts = [n for n in ([int(x) for x in args.players.split(",")] if args.players
                              else range(game.min_players, game.max_players + 1))
                  if game.min_players <= n <= game.max_players]  # (a count another game of --game takes)
        for seats in counts:
            public, private = record(game, seats, args.games, args.seed, args.every)
            for kind, views in (("public", public), ("private", private)):
                if kind in kinds:
                    rows.append(Row(key, seats, kind, views))
            if args.fresh:
                public, private = record(game, seats, args.games, args.seed + 10_000, args.every)
                warm += [Row(key, seats, kind, views)
                         for kind, views in (("public", public), ("private", private)) if kind in kinds]
    for row, i in _in_play_order(warm if args.fresh else rows):  # the untimed pass: fonts, sprites, empty tables
        registry.entry(row.game).render(row.views[i], NAMES[:row.players])
    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    # in play order: a move's public board, then the private one of the seat that moved (they share most sprites)
    order = _in_play_order(rows)
    for _ in range(args.repeat):
        for row, i in order:
            render = registry.entry(row.game).render
            names = NAMES[:row.players]
            view = row.views[i]
            ms, png = _cpu(render, view, names)
            row.cpu_ms.append(ms)
            row.sizes.append(len(png))
            if save:
                (save / row.name(i)).write_bytes(png)
            if args.compare and (old := Path(args.compare) / row.name(i)).exists():
                biggest, changed = _difference(old.read_bytes(), png)
                row.max_diff = max(row.max_diff, biggest)
                row.changed = max(row.changed, changed)
                row.compared += 1
    print(f"Python {platform.python_version()}, one thread, CPU ms per board (time.process_time), "
          f"{args.games} games each, seed {args.seed}"
          + (" (each board drawn for the first time: warmed up on other games)" if args.fresh else ""))
    head = f"{'game':<14}{'players':>7} {'kind':<8}{'boards':>7}{'median':>8}{'p95':>8}{'mean':>8}" \
           f"{'med KB':>8}{'max KB':>8}"
    if args.compare:
        head += f"{'max diff':>9}{'changed':>9}"
    print(head)
    for row in rows:
        if not row.cpu_ms:
            continue
        line = (f"{row.game:<14}{row.players:>7} {row.kind:<8}{len(row.views):>7}"
                f"{statistics.median(row.cpu_ms):>8.2f}{pct(row.cpu_ms, 0.95):>8.2f}"
                f"{statistics.fmean(row.cpu_ms):>8.2f}{statistics.median(row.sizes) / 1024:>8.1f}"
                f"{max(row.sizes) / 1024:>8.1f}")
        if args.compare:
            line += f"{row.max_diff:>9}{row.changed:>8.2%}" if row.compared else f"{'-':>9}{'-':>9}"
        print(line)
    if args.threads:
        threads(rows, args.threads)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([{"game": r.game, "players": r.players, "kind": r.kind, "boards": len(r.views),
                        "cpu_ms_median": statistics.median(r.cpu_ms), "cpu_ms_mean": statistics.fmean(r.cpu_ms),
                        "bytes_median": statistics.median(r.sizes), "bytes_max": max(r.sizes),
                        "max_diff": r.max_diff, "changed": r.changed} for r in rows if r.cpu_ms], out, indent=2)
    return 0


def _render_slice(jobs: list[tuple[str, Any, list[str]]], barrier: Any) -> tuple[float, float, float]:
    """Render ``jobs`` once untimed, wait for the other workers, render them again: (start, end, CPU seconds) of
    the second pass, by ``time.perf_counter`` (one clock for every process of the machine) and this thread's CPU."""
    registry = default_catalog()
    for key, view, names in jobs:
        registry.entry(key).render(view, names)
    barrier.wait()
    start, cpu = time.perf_counter(), time.thread_time()
    for key, view, names in jobs:
        registry.entry(key).render(view, names)
    return start, time.perf_counter(), time.thread_time() - cpu


def threads(rows: list[Row], n: int) -> None:
    """Every board rendered by 1 and by ``n`` threads, then by 1 and ``n`` processes (spawned), each worker taking
    its share of the boards; after an untimed pass each, the workers start together. Prints the wall time per
    board and the CPU time over the wall time: about ``n`` when the workers run in parallel, about 1 when they
    take turns (the GIL), less on a machine busy with other work."""
    jobs = [(r.game, v, NAMES[:r.players]) for r in rows for v in r.views]
    for kind in ("thread", "process"):
        for count in (1, n):
            parts = [jobs[k::count] for k in range(count)]
            if kind == "thread":
                barrier: Any = threading.Barrier(count)
                with ThreadPoolExecutor(count) as pool:
                    spans = list(pool.map(_render_slice, parts, [barrier] * count))
            else:
                context = multiprocessing.get_context("spawn")
                with context.Manager() as manager:
                    barrier = manager.Barrier(count)
                    with ProcessPoolExecutor(count, mp_context=context) as procs:
                        spans = list(procs.map(_render_slice, parts, [barrier] * count))
            wall = max(end for _, end, _ in spans) - min(start for start, _, _ in spans)
            cpu = sum(c for _, _, c in spans)
            print(f"{count} {kind}{'es' * (count > 1 and kind == 'process')}{'s' * (count > 1 and kind == 'thread')}: "
                  f"{len(jobs)} boards, wall {wall * 1000 / len(jobs):.2f} ms per board, "
                  f"CPU {cpu * 1000 / len(jobs):.2f} ms per board, CPU/wall {cpu / wall:.2f}")


if __name__ == "__main__":
    sys.exit(main())
