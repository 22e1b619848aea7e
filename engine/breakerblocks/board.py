"""Breaker Blocks: the grid model of the plug-together tiles (``../shared/rules/breaker-blocks.md``).

A 9×9 grid, columns ``a``–``i`` left to right, rows ``1``–``9`` bottom to top; a cell is an index
``row * 9 + col`` and is written ``e4``. The Circuit Core fills ``d5`` (circuit I), ``e5`` (II) and ``f5`` (III).
Every block fills one cell and has one plug facing the block (or core cell) it is plugged into; its inputs are on
its other three sides, named looking away from the plug: ``L`` (left), ``S`` (straight on), ``R`` (right).
"""

from __future__ import annotations

from functools import cache

SIZE = 9
CELLS = SIZE * SIZE
COLUMNS = "abcdefghi"
CIRCUITS = ("I", "II", "III")

# Directions as (dcol, drow); row numbers grow upward.
UP, RIGHT, DOWN, LEFT = (0, 1), (1, 0), (0, -1), (-1, 0)


def cell_at(col: int, row: int) -> int:
    return row * SIZE + col


def col_of(cell: int) -> int:
    return cell % SIZE


def row_of(cell: int) -> int:
    return cell // SIZE


def cell_name(cell: int) -> str:
    return f"{COLUMNS[col_of(cell)]}{row_of(cell) + 1}"


def parse_cell(text: str) -> int:
    """``"e4"`` → its index; ``ValueError`` when it is not a cell of the board."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "123456789":
        raise ValueError(text)
    return cell_at(COLUMNS.index(text[0]), int(text[1]) - 1)


def step(cell: int, direction: tuple[int, int]) -> int | None:
    """The neighbouring cell in ``direction``, or None off the board."""
    col, row = col_of(cell) + direction[0], row_of(cell) + direction[1]
    if 0 <= col < SIZE and 0 <= row < SIZE:
        return cell_at(col, row)
    return None


def direction(a: int, b: int) -> tuple[int, int]:
    """The direction from cell ``a`` to its neighbour ``b``."""
    return (col_of(b) - col_of(a), row_of(b) - row_of(a))


def _left(d: tuple[int, int]) -> tuple[int, int]:
    return (-d[1], d[0])


def _right(d: tuple[int, int]) -> tuple[int, int]:
    return (d[1], -d[0])


@cache
def input_cells(cell: int, parent: int, sides: str) -> tuple[int, ...]:
    """The cells that ``sides`` (a subset of ``LSR``) of a block at ``cell`` plugged into ``parent`` open into."""
    facing = direction(parent, cell)  # looking away from the plug
    out = []
    for side in sides:
        d = _left(facing) if side == "L" else _right(facing) if side == "R" else facing
        target = step(cell, d)
        if target is not None:
            out.append(target)
    return tuple(out)


# --- the Circuit Core -------------------------------------------------------------------------------------------
CORE = {cell_at(3, 4): 0, cell_at(4, 4): 1, cell_at(5, 4): 2}  # d5, e5, f5 → circuit index
# (owner, core cell, the cell the input opens into)
CORE_INPUTS: tuple[tuple[int, int, int], ...] = (
    (0, cell_at(3, 4), cell_at(3, 3)),  # P1: d4 → I
    (0, cell_at(3, 4), cell_at(2, 4)),  # P1: c5 → I
    (0, cell_at(4, 4), cell_at(4, 3)),  # P1: e4 → II
    (0, cell_at(5, 4), cell_at(5, 3)),  # P1: f4 → III
    (1, cell_at(5, 4), cell_at(5, 5)),  # P2: f6 → III
    (1, cell_at(5, 4), cell_at(6, 4)),  # P2: g5 → III
    (1, cell_at(4, 4), cell_at(4, 5)),  # P2: e6 → II
    (1, cell_at(3, 4), cell_at(3, 5)),  # P2: d6 → I
)

# --- blocks -------------------------------------------------------------------------------------------------
# Power blocks: id → (power, inputs). Each player's supply holds these, with copies.
POWER: dict[str, tuple[int, str]] = {
    "0": (0, "LSR"), "1LS": (1, "LS"), "1SR": (1, "SR"), "1LR": (1, "LR"),
    "2L": (2, "L"), "2S": (2, "S"), "2R": (2, "R"), "3": (3, ""),
}
POWER_SUPPLY = ("1LS", "1SR", "1LR", "2L", "2S", "2R", "3", "3")  # the two 0s start in hand
STARTING_HAND = ("0", "0")

ANNIHILATE, AUTOMATE, ACCELERATE, ATTENUATE = "annihilate", "automate", "accelerate", "attenuate"
AGITATE, AGGRAVATE, AUTHENTICATE = "agitate", "aggravate", "authenticate"
MODULES = (ANNIHILATE, AUTOMATE, ACCELERATE, ATTENUATE, AGITATE, AGGRAVATE, AUTHENTICATE)
MODULE_COPIES = 2
MODULE_INPUTS = "LSR"  # a module passes power through on all three sides and adds none


def is_module(kind: str) -> bool:
    return kind in MODULES


def power_of(kind: str) -> int:
    return POWER[kind][0] if kind in POWER else 0


def inputs_of(kind: str) -> str:
    return POWER[kind][1] if kind in POWER else MODULE_INPUTS


def hand_limit(kind: str) -> int | None:
    """How many of ``kind`` a hand may hold (None: no limit, for power blocks)."""
    if not is_module(kind):
        return None
    return 2 if kind == AUTHENTICATE else 1
