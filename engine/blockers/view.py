"""What ``Blockers.view`` returns: the typed contract between the engine and ``render/blockers.py``.

Squares are named column then row (``"7E"``: column 7, row E; :func:`engine.blockers.board.square_name`). The
public view (``viewer`` None) has no ``rack``; a seat's own view adds its rack. ``docs/dev/blockers-view.md``
explains the picture's reading of it.
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired only from evaluated annotations.
from typing import NotRequired, TypedDict

from engine.base import ResultView


class TileView(TypedDict):
    colour: str  # one of board.COLOURS
    face: str  # one of board.FACES


# "pass" is a keyword, hence the functional form.
BlockersLast = TypedDict("BlockersLast", {
    "seat": int,
    "move": str,  # its notation
    "square": str | None,  # where the tile went (None for a pass)
    "tile": TileView | None,
    "captured": TileView | None,
    "pass": bool,
})


class BlockersPlayer(TypedDict):
    colours: list[str]  # the seat's colours (two in the advanced game)
    rack_counts: dict[str, int]  # by colour
    pile_counts: dict[str, int]
    captured: dict[str, int]  # tiles captured, by the captured tile's colour (every colour listed)
    groups: int
    score: int
    finished: list[str]  # advanced game: colours whose pile and rack ran out
    public: dict[str, list[str]]  # advanced game: a finished colour's rack, face up (faces)


class BlockersView(TypedDict):
    game: str
    viewer: int | None
    mode: str  # "basic" | "advanced"
    phase: str  # "play" | "over"
    ply: int
    turn: int
    to_act: list[int]
    board: list[list[TileView | None]]  # [row A..I][column 1..9]
    sections: list[str]  # the nine sections' symbols in reading order
    players: list[BlockersPlayer]
    last: BlockersLast | None
    result: ResultView | None
    rack: NotRequired[dict[str, list[str]]]  # a seat's own view only: its rack's faces by colour
