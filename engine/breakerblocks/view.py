"""What ``BreakerBlocks.view`` returns: the typed contract between the engine and its renderer.

Cells are written ``e4`` (:func:`engine.breakerblocks.board.cell_name`). In the Blind Action variant a command
module in the other player's hand shows as ``"module"`` and the neutral supply only as a count.
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired only from evaluated annotations.
from typing import TypedDict

from engine.base import ResultView


class BlockView(TypedDict):
    cell: str
    kind: str  # a power block id ("0", "1LS", … "3") or a module ("annihilate", …)
    owner: int
    parent: str  # the cell it plugs into (a block's or a core cell)
    power: int
    circuit: int  # 0, 1, 2 for circuits I, II, III
    inputs: list[str]  # the cells its inputs open into (on the board)
    leaf: bool  # nothing plugged into it: it may be moved or targeted


class CircuitView(TypedDict):
    power: list[int]  # by seat
    controller: int | None  # the seat feeding strictly more power, or None


class LastView(TypedDict):
    seat: int
    moves: list[str]  # the turn's moves so far, as notation
    cells: list[str]  # cells its moves touched


class BreakerView(TypedDict):
    game: str
    viewer: int | None
    phase: str  # "play" | "over"
    ply: int
    round: int
    max_rounds: int
    turn: int
    to_act: list[int]
    actions_left: int
    pending: str  # the follow-up owed now ("" for none): "annihilate", "automate", …
    prompt: str  # what the player to act decides, in words
    blocks: list[BlockView]
    open_inputs: list[list[str]]  # by seat: the empty cells their inputs face
    circuits: list[CircuitView]
    hands: list[list[str]]  # by seat ("module" for a hidden one)
    fresh: list[list[str]]  # by seat: drawn this turn, cannot be added yet
    supplies: list[list[str]]  # by seat: the colored supply
    modules: dict[str, int]  # the neutral supply by kind (empty when hidden)
    modules_left: int
    destroyed: list[str]
    authenticated: int  # AUTHENTICATE blocks on the board
    final: int | None  # the seat taking the last turn
    blind: bool
    power_overwhelming: bool
    last: LastView | None
    result: ResultView | None
