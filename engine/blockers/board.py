"""The Blockers! board and tiles: geometry, which tile fits which square, groups and the no-split test.

Squares are numbered 0–80 in reading order: ``square = row * 9 + col`` with row 0 = A (top) and col 0 =
column 1 (left). Their text form is column then row: ``5C``. A tile on the board is the string
``"colour:face"``; a face is ``"1"``–``"9"``, ``"A"``–``"I"``, a symbol name or ``"wild"``.
"""

from __future__ import annotations

from collections.abc import Sequence

SIZE = 9
SQUARES = SIZE * SIZE
ROWS = "ABCDEFGHI"
COLOURS = ("yellow", "blue", "green", "red", "purple")
ADVANCED_COLOURS = (("yellow", "green"), ("blue", "red"))  # two-player advanced game, by seat
SECTIONS = ("sun", "moon", "star", "heart", "triangle", "diamond", "circle", "square", "cross")  # reading order
NUMBERS = tuple(str(n) for n in range(1, SIZE + 1))
LETTERS = tuple(ROWS)
WILD = "wild"
FACES = NUMBERS + LETTERS + SECTIONS + (WILD,)  # the 28 tiles of every colour, in canonical order
FACE_ORDER = {face: i for i, face in enumerate(FACES)}
RACK = 5


def col_of(square: int) -> int:
    return square % SIZE


def row_of(square: int) -> int:
    return square // SIZE


def section_of(square: int) -> int:
    """The 3×3 section (0–8, reading order) a square lies in."""
    return (row_of(square) // 3) * 3 + col_of(square) // 3


def square_at(col: int, row: int) -> int:
    return row * SIZE + col


def square_name(square: int) -> str:
    if 0 <= square < SQUARES:
        return SQUARE_NAMES[square]
    return f"{col_of(square) + 1}{ROWS[row_of(square)]}"


SQUARE_NAMES = tuple(f"{col_of(sq) + 1}{ROWS[row_of(sq)]}" for sq in range(SQUARES))  # (every move's text says one)


def square_index(name: str) -> int:
    """The inverse of :func:`square_name` (``"7E"`` → the square at column 7, row E)."""
    return square_at(int(name[0]) - 1, ROWS.index(name[1].upper()))


def fits(face: str, square: int) -> bool:
    """Whether a tile with this face may go on this square (whatever is on it)."""
    if face == WILD:
        return True
    if face in NUMBERS:
        return col_of(square) == int(face) - 1
    if face in LETTERS:
        return row_of(square) == ROWS.index(face)
    return section_of(square) == SECTIONS.index(face)


FITS: dict[str, tuple[int, ...]] = {face: tuple(sq for sq in range(SQUARES) if fits(face, sq)) for face in FACES}


def _neighbours(square: int) -> tuple[int, ...]:
    col, row = col_of(square), row_of(square)
    out = []
    for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
        c, r = col + dc, row + dr
        if 0 <= c < SIZE and 0 <= r < SIZE:
            out.append(square_at(c, r))
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(sq) for sq in range(SQUARES))


def section_span(index: int) -> str:
    """A section's corner squares, e.g. ``4A–6C`` for the moon section."""
    first = square_at((index % 3) * 3, (index // 3) * 3)
    return f"{square_name(first)}–{square_name(first + 2 * SIZE + 2)}"


def where(face: str) -> str:
    """Where a face may go, in words: ``in column 7``, ``in row C``, ``in the moon section (4A–6C)``."""
    if face == WILD:
        return "on any square"
    if face in NUMBERS:
        return f"in column {face}"
    if face in LETTERS:
        return f"in row {face}"
    return f"in the {face} section ({section_span(SECTIONS.index(face))})"


def tile(colour: str, face: str) -> str:
    return f"{colour}:{face}"


def colour_of(tile_text: str) -> str:
    return tile_text.split(":", 1)[0]


def face_of(tile_text: str) -> str:
    return tile_text.split(":", 1)[1]


def spoken(tile_text: str) -> str:
    """``blue E``, ``yellow moon``."""
    colour, face = tile_text.split(":", 1)
    return f"{colour} {face}"


def sort_faces(faces: list[str]) -> list[str]:
    return sorted(faces, key=FACE_ORDER.__getitem__)


def group_squares(board: Sequence[str | None], colour: str) -> list[list[int]]:
    """The groups (orthogonally connected sets) of one colour, each in square order, first square first."""
    prefix = colour + ":"  # a tile is "colour:face"; no colour's name begins another's
    mine = [sq for sq, t in enumerate(board) if t is not None and t.startswith(prefix)]
    left = set(mine)  # the colour's squares in no group yet
    groups = []
    for start in mine:
        if start not in left:
            continue
        left.discard(start)
        stack, group = [start], []
        while stack:
            sq = stack.pop()
            group.append(sq)
            for n in NEIGHBOURS[sq]:
                if n in left:
                    left.discard(n)
                    stack.append(n)
        groups.append(sorted(group))
    return groups


def count_groups(board: Sequence[str | None], colour: str) -> int:
    """``len(group_squares(board, colour))``, without listing the groups (every view and score counts them)."""
    return group_counts(board).get(colour, 0)


# The groups of every colour of a board, by the board: a move's request counts them for each view it draws (the
# board's, the mover's, the next seat's) and for the scores, on one board. Bounded: cleared when full.
_COUNTS: dict[tuple[str | None, ...], dict[str, int]] = {}
_COUNTS_KEPT = 64


def group_counts(board: Sequence[str | None]) -> dict[str, int]:
    """How many groups each colour on ``board`` has (a colour with no tile is not in it). Do not change it: it is
    kept for the board."""
    key = tuple(board)
    counts = _COUNTS.get(key)
    if counts is not None:
        return counts
    squares: dict[str, set[int]] = {}
    for sq, t in enumerate(key):
        if t is not None:
            colour = t[:t.index(":")]  # a tile is "colour:face"; no colour's name begins another's
            mine = squares.get(colour)
            if mine is None:
                squares[colour] = {sq}
            else:
                mine.add(sq)
    counts = {}
    for colour, left in squares.items():
        count = 0
        while left:
            count += 1
            stack = [left.pop()]
            while stack:
                for n in NEIGHBOURS[stack.pop()]:
                    if n in left:
                        left.remove(n)
                        stack.append(n)
        counts[colour] = count
    if len(_COUNTS) >= _COUNTS_KEPT:
        _COUNTS.clear()
    _COUNTS[key] = counts
    return counts


def parts_without(board: Sequence[str | None], square: int) -> int:
    """How many groups the tile's group falls into if the tile on ``square`` is removed (0 for a lone tile).

    Every other tile of the group reaches the removed tile through one of its same-coloured neighbours, so
    the group stays whole exactly when those neighbours are still connected to one another without it.
    """
    t = board[square]
    assert t is not None
    prefix = t[:t.index(":") + 1]  # "blue:"; no colour's name begins another's

    def same(sq: int) -> bool:
        other = board[sq]
        return other is not None and other.startswith(prefix)

    friends = [n for n in NEIGHBOURS[square] if same(n)]
    unreached = set(friends)
    parts = 0
    seen = {square}
    for start in friends:
        if start not in unreached:
            continue
        parts += 1
        seen.add(start)
        stack = [start]
        while stack and unreached:
            sq = stack.pop()
            unreached.discard(sq)
            for n in NEIGHBOURS[sq]:
                if n not in seen and same(n):
                    seen.add(n)
                    stack.append(n)
        # a part explored until ``unreached`` emptied may be cut short, but then no part is left to count
    return parts


def can_capture_from(board: Sequence[str | None], square: int) -> bool:
    """A tile may be taken when it stands alone or the rest of its group stays in one piece."""
    return parts_without(board, square) <= 1
