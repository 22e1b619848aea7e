"""What ``Block.view`` returns: the typed contract between the engine and ``render/block.py``.

Cells are named ``<column><row>`` (:func:`engine.block.sheet.cell_name`: columns ``a``–``g`` left to right, rows
``1`` at the bottom to ``14``, e.g. ``c12``). The public view (``viewer`` None) shows every sheet as it was when
the turn began; a seat's own view shows its own sheet with this turn's picks so far and adds ``mine``.
``docs/dev/block-view.md`` explains how the picture reads it.
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired only from evaluated annotations.
from typing import NotRequired, TypedDict

from engine.base import ResultView


class ComboView(TypedDict):
    type: str  # "identical" | "consecutive"
    size: int  # 3..7, or 8 for the bonus combo
    cells: list[str]  # consecutive combos in rising order


class Breakdown(TypedDict):
    """A sheet's score by part (``Sheet.score``)."""

    identical: int
    consecutive: int
    bonus: int
    columns: int
    rows: int
    beyond: int  # negative: rows beyond the line that hold a number
    total: int


class BlockRecent(TypedDict, total=False):
    """What a seat's last resolved turn added, for the picture's highlights; empty before the first one."""

    placed: list[str]
    penalty: list[str]  # X cells a dropped BLOCK tile made
    combo: list[str]
    rows: list[int]  # rows (1-based) it completed
    letters: list[str]  # letters it circled
    moves: list[str]  # its picks, as notation
    stuck: bool  # no legal drop (counts as crossing the line)
    slides: list[str]  # solo: tiles slid


class BlockPlayer(TypedDict):
    grid: list[list[int | str | None]]  # 14 rows × 7, row 0 = row 1; a number 0–9, "X" (penalty) or None
    combos: list[ComboView]
    letters: list[str]  # circled letters
    full_rows: list[int]  # 1-based rows with all seven cells filled
    score: int
    breakdown: Breakdown
    crossed_line: bool
    waiting: bool  # still owes a pick this turn
    recent: BlockRecent


class BlockSlot(TypedDict):
    letter: str  # "A".."E"
    size: int  # the combo size the letter belongs to
    shape: str  # multiplayer: the penalty shape (I3 … T5); solo: the tile's tetromino (I O T L S)
    cells: list[list[int]]  # the shape as [row from top, col] cells, for drawing it
    crossed: bool  # multiplayer: crossed off for everyone
    circled_by: list[int]  # seats that circled the letter (as the turn began)
    notch: NotRequired[int]  # solo only: 0 = top of the track … 4 = GO! (dropped)


class Mine(TypedDict):
    """A seat's own turn so far (its own view only)."""

    step: str  # "" | "write" | "slide" | "extra" | "penalty:<L>" | "star" | "drop" | "combo"
    todo: str  # the owed pick in words ("" when done)
    stars: list[int]  # ★ values chosen this turn
    placed: list[str]  # cells filled this turn
    combo: list[str]  # the combo circled this turn
    moves: list[str]
    slides: list[str]  # solo: tiles slid so far this turn
    note: str  # with nothing to pick, what the seat is told of its turn ("": nothing; e.g. protected from BLOCK A)


class BlockView(TypedDict):
    game: str
    solo: bool
    phase: str  # "setup" | "play" | "over"
    turn: int  # 0 during setup
    first: int  # the first player this turn (multiplayer)
    dice: list[int | str]  # [] during setup, else four number dice (0–9 or "*") and the shape die ("I".."S" or "*")
    penalty: str  # multiplayer: the letter whose BLOCK tile drops this turn, or ""
    blocks: list[BlockSlot]  # slots A–E
    players: list[BlockPlayer]
    to_act: list[int]
    ply: int
    line: int  # the first row (1-based) beyond the Game Over line
    result: ResultView | None
    viewer: NotRequired[int]  # a seat's own view only
    mine: NotRequired[Mine]  # a seat's own view only
