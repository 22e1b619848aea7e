"""/replay's file sizes: the largest animation (with its move log) over long games of each game, before and after
the byte cap (issue 24: a 4-player Bloc by Bloc game's GIF reached 9.35 MB, over Discord's 8 MiB upload limit).

Each game is played to its end by bots (``medium`` by default: they play long games, where random moves lose a
Bloc by Bloc city in 20 moves) at the game's largest seat count, seeded from ``--seed``, so the games are
reproducible. Its public positions (``tables.replay.public_positions``, as ``/replay`` takes them) are drawn once;
then "before" is the GIF ``/replay`` made until now (150 frames at most, 600 px wide, each frame in a palette of
its own and written whole, no cap) and "after" is what it makes now (one palette for all frames, each frame storing
what changed: ``tables.replay.fit_frames`` under ``UPLOAD_CAP`` less the move log's bytes). Sizes are the
animation plus the move log, as one message uploads them.

Run from the repository root::

    python -m bench.replay_size                       # 20 games of each game: long (Bloc by Bloc draws ~1 s a frame)
    python -m bench.replay_size --game blocbybloc --games 5
    python -m bench.replay_size --level easy --json /tmp/replay.json
    python -m bench.replay_size --game blocbybloc --games 5 --look-back   # what a /board move: look costs
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

from PIL import Image

from bots import choose
from engine.base import Game
from engine.rng import Rng
from tables import replay
from tables.catalog import Renderer, default_catalog

MAX_PLIES = 20_000
MIB = 1024 * 1024


@dataclass
class Sample:
    game: str
    seats: int
    seed: int
    moves: int
    positions: int
    before_bytes: int
    before_frames: int
    after_bytes: int
    after_frames: int
    after_width: int
    encodes: int
    seconds: float


def bot_log(game: Game[Any, Any, Any], seats: int, seed: int, level: str) -> list[tuple[int, str]]:
    """A whole game played by bots of ``level``: its move log."""
    state = game.new_game(seats, {}, seed)
    rng = Rng(seed ^ 0x5DEECE66D)
    log: list[tuple[int, str]] = []
    while len(log) < MAX_PLIES:
        acting = sorted(game.to_act(state))
        if not acting:
            return log
        seat = acting[0] if len(acting) == 1 else acting[rng.below(len(acting))]
        move = choose(game, state, seat, level, rng)
        log.append((seat, game.format_move(move)))
        state, _ = game.apply(state, seat, move)
    raise RuntimeError(f"{game.key}: no end after {MAX_PLIES} moves (seed {seed})")


def old_gif(boards: list[Image.Image]) -> bytes:
    """The GIF /replay made before the cap: each frame in a palette of its own, written whole."""
    frames = [b.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE) for b in boards]
    durations = [replay.FRAME_MS] * (len(frames) - 1) + [replay.LAST_FRAME_MS]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return buf.getvalue()


def measure(game: Game[Any, Any, Any], render: Renderer[Any], seats: int, seed: int, level: str) -> Sample:
    start = time.perf_counter()
    log = bot_log(game, seats, seed, level)
    names = [f"Player {i + 1}" for i in range(seats)]
    states = replay.public_states(game, seats, {}, seed, log)
    moves = replay.log_file(game.key, seats, {}, seed, names, log)
    boards = [replay._scaled(Image.open(io.BytesIO(render(game.view(s, None), names))), replay.FRAME_WIDTH)
              for s in replay.sample(states)]  # drawn once for both
    before = old_gif(boards)
    palette = replay.shared_palette(replay.sample(boards, replay.PALETTE_FRAMES))
    after = replay.fit_frames([b.quantize(palette=palette, dither=Image.Dither.NONE) for b in boards],
                              replay.UPLOAD_CAP - len(moves))
    return Sample(game.key, seats, seed, len(log), len(states), len(before) + len(moves), len(boards),
                  len(after.gif) + len(moves), after.frames, after.width, after.encodes,
                  time.perf_counter() - start)


def look_back(game: Game[Any, Any, Any], render: Renderer[Any], seats: int, seed: int, level: str) -> None:
    """What one ``/board move:`` costs on a long game: the replay of its log to its public positions (done once per
    table version, then kept for the next steps) and the picture of a late position, in CPU milliseconds (the
    median of 5; the first picture, which loads the fonts, is left out)."""
    log = bot_log(game, seats, seed, level)
    names = [f"Player {i + 1}" for i in range(seats)]
    replays, pictures = [], []
    positions = replay.public_positions(game, seats, {}, seed, log)
    render(game.view(positions[0].state, None), names)
    for i in range(5):
        start = time.process_time()
        positions = replay.public_positions(game, seats, {}, seed, log)
        replays.append(time.process_time() - start)
        start = time.process_time()
        render(game.view(positions[-2 - i].state, None), names)  # a late position not drawn yet
        pictures.append(time.process_time() - start)
    replayed, drawn = statistics.median(replays) * 1000, statistics.median(pictures) * 1000
    print(f"{game.key:<13}{seats:>5} {len(log):>6} moves {len(positions):>4} positions: replay to the end "
          f"{replayed:.0f} ms, a late position's picture {drawn:.0f} ms (CPU)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="one game key (default: every registered game)")
    parser.add_argument("--games", type=int, default=20, help="games of each game")
    parser.add_argument("--level", default="medium", help="the bots' level: easy, medium or hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write every game's numbers to this file")
    parser.add_argument("--look-back", action="store_true", help="time /board move: on each game instead")
    args = parser.parse_args(argv)
    catalog = default_catalog()
    keys = [args.game] if args.game else [g.key for g in catalog.all()]
    if args.look_back:
        for key in keys:
            entry = catalog.entry(key)
            for i in range(args.games):
                look_back(entry.rules, entry.render, entry.rules.max_players, args.seed + i, args.level)
        return 0
    cap = replay.UPLOAD_CAP / MIB
    print(f"cap {cap:.2f} MiB (animation and move log); {args.games} games each, {args.level} bots, max seats")
    print(f"{'game':<13}{'seats':>5} {'moves max/med':>14} {'before MiB max/med':>19} {'frames':>7} "
          f"{'after MiB max/med':>18} {'frames min/max':>15} {'width min':>10} {'encodes':>8} {'s/game':>7}")
    samples: list[Sample] = []
    for key in keys:
        entry = catalog.entry(key)
        game = entry.rules
        rows = [measure(game, entry.render, game.max_players, args.seed + i, args.level) for i in range(args.games)]
        samples += rows
        before = [r.before_bytes / MIB for r in rows]
        after = [r.after_bytes / MIB for r in rows]
        moves = [r.moves for r in rows]
        print(f"{key:<13}{game.max_players:>5} {max(moves):>6}/{statistics.median(moves):<7.0f} "
              f"{max(before):>9.2f}/{statistics.median(before):<9.2f} {max(r.before_frames for r in rows):>7} "
              f"{max(after):>8.2f}/{statistics.median(after):<9.2f} "
              f"{min(r.after_frames for r in rows):>7}/{max(r.after_frames for r in rows):<7} "
              f"{min(r.after_width for r in rows):>10} {max(r.encodes for r in rows):>8} "
              f"{statistics.mean(r.seconds for r in rows):>7.1f}")
        over = [r for r in rows if r.after_bytes > replay.UPLOAD_CAP]
        print(f"{'':<13}{'':>5} {'FAIL: over the cap: ' + str(len(over)) if over else 'PASS: every one fits'}",
              flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump([asdict(s) for s in samples], out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
