"""Replays: the public positions of a game's move log, an animated image of their boards that fits Discord's upload
limit, and the move log as a file the engine can replay. Pure functions over the catalogue's games and renderers
(no Discord, no storage)."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.base import Game
from tables.catalog import Renderer
from tables.situation import Situation

FRAME_WIDTH = 600  # a phone shows the animation inline at about this width
MIN_WIDTH = 400  # the narrowest a frame gets to fit the cap: the width every picture's text is made readable at
MAX_FRAMES = 150  # frames are sampled evenly beyond this, the first and the last always kept
MIN_FRAMES = 40  # fewer frames before narrower ones, down to this many; below it both, or the cap could not be met
FRAME_MS, LAST_FRAME_MS = 700, 4000
UPLOAD_CAP = 15 * 1024 * 1024 // 2  # 7.5 MiB for the animation and the log together: a server without boosts
# takes 8 MiB a message (discord.py's ``Guild.filesize_limit``), and this leaves a margin
MAX_ENCODES = 3  # a replay too big is encoded again with fewer or narrower frames, at most this often in all (and
# once more, with its first and last frames alone, if a cap that small is ever met)
PALETTE_FRAMES = 5  # the boards the animation's one palette is made from, evenly spread from the start to the end
MARGIN = 0.92  # a new try aims this far under the cap: a GIF's bytes only roughly follow its frames and pixels
ELASTICITY = 0.6  # a GIF's bytes shrink about as (frames × pixels) to this power: each frame stores what changed
# since the one before (fewer frames, more change in each), and narrower text is no simpler (a Bloc by Bloc game's
# frames measured 0.35 to 0.7); a second miss measures it again


@dataclass(frozen=True)
class Position:
    """A position the channel saw: its state and how many moves of the log it includes."""

    state: Any
    moves: int


def public_positions(game: Game[Any, Any, Any], seats: int, options: dict[str, Any], seed: int,
                     log: Sequence[tuple[int, str]]) -> list[Position]:
    """The start and every position where the public record moved on, the end included: what a board shows. A
    secret pick of simultaneous picks is not one (its turn shows when it resolves), nor a move whose mover goes on
    privately (a Breaks card drawn, to place: the board comes when the turn ends). A person's move and the bot
    moves that answered it, which the channel saw as one board, are a position each. Raises ``GameError`` when a
    move of the log is not legal under these rules (a log of an older version of them)."""
    state = game.new_game(seats, options, seed)
    shown = now = Situation.of(game, state)  # the position the channel saw last: the same rule as the live game's
    out = [Position(state, 0)]
    for i, (seat, notation) in enumerate(log):
        state, _ = now.apply(seat, game.parse_move(notation))
        now = Situation.of(game, state)
        if now.tells(shown, seat):
            shown = now
            out.append(Position(state, i + 1))
    return out


def public_states(game: Game[Any, Any, Any], seats: int, options: dict[str, Any], seed: int,
                  log: Sequence[tuple[int, str]]) -> list[Any]:
    """The states of :func:`public_positions`."""
    return [p.state for p in public_positions(game, seats, options, seed, log)]


def sample(items: list[Any], limit: int = MAX_FRAMES) -> list[Any]:
    """At most ``limit`` items spread evenly, the first and the last kept."""
    if len(items) <= limit:
        return items
    if limit <= 1:
        return items[-1:]
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


def animation(game: Game[Any, Any, Any], render: Renderer[Any], states: list[Any], names: Sequence[str],
              cap: int = UPLOAD_CAP) -> bytes:
    """An animated GIF of the public board of each state (never a seat's own view), phone-sized, of at most ``cap``
    bytes (:func:`fit_frames`). Each board is drawn once, however often it is encoded: the few boards the palette is
    made of first (:func:`shared_palette`), then the others, each kept as a palette image."""
    shown = sample(states, MAX_FRAMES)

    def board(state: Any) -> Image.Image:
        return _scaled(Image.open(io.BytesIO(render(game.view(state, None), names))), FRAME_WIDTH)

    first = {i: board(shown[i]) for i in sample(list(range(len(shown))), PALETTE_FRAMES)}
    palette = shared_palette(list(first.values()))
    frames = [(first.pop(i) if i in first else board(state)).quantize(palette=palette, dither=Image.Dither.NONE)
              for i, state in enumerate(shown)]
    return fit_frames(frames, cap).gif


def _scaled(img: Image.Image, width: int) -> Image.Image:
    """``img`` in RGB, ``width`` pixels wide."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    if img.width != width:
        img = img.resize((width, max(1, round(img.height * width / img.width))), Image.Resampling.LANCZOS)
    return img


def shared_palette(boards: Sequence[Image.Image]) -> Image.Image:
    """One palette of 255 colours for every frame, made from a few of the boards (RGB): what did not change from one
    frame to the next is then the same palette index, so the GIF stores only what changed (a frame of a board
    quantized alone took 1.8 times the bytes). The boards are drawn in flat colours: a few of them, from the start
    to the end, have all of them."""
    halves = [b.resize((max(1, b.width // 2), max(1, b.height // 2)), Image.Resampling.NEAREST) for b in boards]
    sheet = Image.new("RGB", (max(h.width for h in halves), sum(h.height for h in halves)), "white")
    y = 0
    for half in halves:
        sheet.paste(half, (0, y))
        y += half.height
    return sheet.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _narrowed(frame: Image.Image, width: int) -> Image.Image:
    """A palette frame ``width`` pixels wide, in its own palette (the one every frame shares)."""
    if frame.width == width:
        return frame
    return _scaled(frame, width).quantize(palette=frame, dither=Image.Dither.NONE)


def encode(frames: Sequence[Image.Image]) -> bytes:
    """Frames as an animated GIF: each shown ``FRAME_MS``, the last one ``LAST_FRAME_MS``, looping. Each frame
    after the first stores only the box where it differs from the one before, what did not change in it
    transparent (``optimize``)."""
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=list(frames[1:]), duration=durations, loop=0,
                   optimize=True, disposal=1)
    return buf.getvalue()


@dataclass(frozen=True)
class Fitted:
    """An animation made to fit: its bytes, and how many frames of what width it kept (the benchmark reports them)."""

    gif: bytes
    frames: int
    width: int
    encodes: int


def fit_frames(frames: list[Image.Image], cap: int, max_encodes: int = MAX_ENCODES) -> Fitted:
    """The GIF of ``frames`` (palette images of one width and one palette) if it has at most ``cap`` bytes; else,
    encoded again with fewer frames (sampled evenly, the first and last kept: down to ``MIN_FRAMES``) and then
    narrower ones (down to ``MIN_WIDTH``), scaled by how far over the cap the last try was (``ELASTICITY``), at most
    ``max_encodes`` times in all. If none fits, one more try keeps the first and last frames alone, at the
    narrowest: a replay is never over the cap (``ValueError`` if even that is)."""
    count, width = len(frames), frames[0].width
    elasticity, before = ELASTICITY, None
    for attempt in range(1, max_encodes + 1):
        shown = sample(frames, count)
        gif = encode([_narrowed(f, width) for f in shown])
        if len(gif) <= cap:
            return Fitted(gif, len(shown), width, attempt)
        if count <= 2 and width <= MIN_WIDTH:
            break
        if before is not None:  # how the bytes followed the frames and pixels the last time, measured
            modelled = count / before[0] * (width / before[1]) ** 2
            measured = len(gif) / before[2]
            if 0 < modelled < 1 and 0 < measured < 1:
                elasticity = min(1.0, max(0.2, math.log(measured) / math.log(modelled)))
        before = (count, width, len(gif))
        # frames times pixels (the width squared: the height follows it) to keep, for the bytes to shrink enough
        ratio = (cap * MARGIN / len(gif)) ** (1 / elasticity)
        fewer = max(min(count, MIN_FRAMES), math.floor(count * ratio))
        rest = ratio * count / fewer  # what is left to gain by narrower frames
        narrower = max(MIN_WIDTH, math.floor(width * math.sqrt(rest))) if rest < 1 else width
        rest /= (narrower / width) ** 2
        if rest < 1:  # at both floors and still over: fewer frames below the floor
            fewer = max(2, math.floor(fewer * rest))
        count, width = fewer, narrower
    last = [_narrowed(f, min(width, MIN_WIDTH)) for f in sample(frames, 2)]
    gif = encode(last)
    if len(gif) > cap:
        raise ValueError(f"even two frames take {len(gif)} bytes, over the cap of {cap}")
    return Fitted(gif, len(last), last[0].width, max_encodes + 1)


def log_file(game_key: str, seats: int, options: dict[str, Any], seed: int, names: Sequence[str],
             log: Sequence[tuple[int, str]]) -> bytes:
    """The game as JSON: enough for ``Game.replay(seats, options, seed, moves)`` to rebuild it exactly."""
    data = {"game": game_key, "seats": seats, "names": list(names), "options": options, "seed": seed,
            "moves": [[seat, notation] for seat, notation in log]}
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
