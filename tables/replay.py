"""Replays of finished games: an animated image of the public boards, and the move log as a file the engine can
replay. Pure functions over the catalogue's games and renderers (no Discord, no storage)."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from typing import Any

from PIL import Image

from engine.base import Game
from tables.catalog import Renderer
from tables.situation import Situation

FRAME_WIDTH = 600  # a phone shows the animation inline at about this width
MAX_FRAMES = 150  # Discord's upload limit: frames are sampled evenly beyond this, the last one always kept
FRAME_MS, LAST_FRAME_MS = 700, 4000


def public_states(game: Game[Any, Any, Any], seats: int, options: dict[str, Any], seed: int,
                  log: Sequence[tuple[int, str]]) -> list[Any]:
    """The start and every position where the public record moved on, the end included: what a board shows. A
    secret pick of simultaneous picks is not one (its turn shows when it resolves), nor a move whose mover goes on
    privately (a Breaks card drawn, to place: the board comes when the turn ends). A person's move and the bot
    moves that answered it, which the channel saw as one board, are a frame each."""
    state = game.new_game(seats, options, seed)
    shown = Situation.of(game, state)  # the position the channel saw last: the same rule as the live game's
    out = [state]
    for seat, notation in log:
        state, _ = game.apply(state, seat, game.parse_move(notation))
        now = Situation.of(game, state)
        if now.tells(shown, seat):
            shown = now
            out.append(state)
    return out


def sample(items: list[Any], limit: int = MAX_FRAMES) -> list[Any]:
    """At most ``limit`` items spread evenly, the first and the last kept."""
    if len(items) <= limit:
        return items
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


def animation(game: Game[Any, Any, Any], render: Renderer[Any], states: list[Any], names: Sequence[str]) -> bytes:
    """An animated GIF of the public board of each state (never a seat's own view), phone-sized."""
    frames = []
    for state in sample(states):
        png = render(game.view(state, None), names)
        img = Image.open(io.BytesIO(png)).convert("RGB")
        height = round(img.height * FRAME_WIDTH / img.width)
        frames.append(img.resize((FRAME_WIDTH, height), Image.Resampling.LANCZOS)
                      .quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return buf.getvalue()


def log_file(game_key: str, seats: int, options: dict[str, Any], seed: int, names: Sequence[str],
             log: Sequence[tuple[int, str]]) -> bytes:
    """The game as JSON: enough for ``Game.replay(seats, options, seed, moves)`` to rebuild it exactly."""
    data = {"game": game_key, "seats": seats, "names": list(names), "options": options, "seed": seed,
            "moves": [[seat, notation] for seat, notation in log]}
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
