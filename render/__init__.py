"""Board images for the games: pure functions from a game's public view to PNG bytes.

The Discord layer calls :func:`render_png` with ``Game.view(...)`` output; no renderer
does I/O, talks to Discord or keeps state between calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from render import block, blockers, breaks

Renderer = Callable[[Mapping[str, Any], Sequence[str]], bytes]

RENDERERS: Mapping[str, Renderer] = {
    "breaks": breaks.render,
    "blockers": blockers.render,
    "block": block.render,
}


def render_png(game_key: str, view: dict[str, Any], names: list[str]) -> bytes:
    """The board image for ``view`` of game ``game_key``; ``names`` are display names by seat.

    Raises ``KeyError`` for a game without a renderer.
    """
    try:
        renderer = RENDERERS[game_key]
    except KeyError:
        raise KeyError(f"no renderer for game {game_key!r}") from None
    return renderer(view, names)


__all__ = ["RENDERERS", "Renderer", "render_png"]
