"""A player's BLOCK score sheet: the 7×14 grid, drops, combos, letters and the score.

Coordinates: ``grid[row][col]`` with row 0 the bottom row (written ``1``) and col 0 the left column (``a``).
A cell holds ``None`` (empty), a number 0–9, or ``X`` (a penalty cell, never part of a combo).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.block.shapes import Cells, distinct_orientations, oriented, size

WIDTH, HEIGHT = 7, 14
LINE = 11  # rows with index >= LINE (written 12–14) lie beyond the Game Over line
COLUMNS = "abcdefg"
X = "X"
IDENTICAL, CONSECUTIVE = "identical", "consecutive"
COMBO_TYPES = (IDENTICAL, CONSECUTIVE)
SIZES = (3, 4, 5, 6, 7)
BONUS = 8
LETTERS = "ABCDE"  # the BLOCK letter beside each size: A=3 … E=7
LETTER_SIZE = {letter: n for letter, n in zip(LETTERS, SIZES, strict=True)}
ROW_POINTS, COLUMN_BONUS, BEYOND_PENALTY = 2, 10, 5
COMBO_CAP = 200  # combos listed per type and size (see Sheet.combos_available)

Cell = tuple[int, int]  # (row, col)


def cell_name(cell: Cell) -> str:
    try:
        return _CELL_NAMES[cell]
    except (KeyError, TypeError):  # not a cell of the grid (or not a tuple): spelt out as ever
        return f"{COLUMNS[cell[1]]}{cell[0] + 1}"


_CELL_NAMES: dict[Cell, str] = {(r, c): f"{COLUMNS[c]}{r + 1}" for r in range(HEIGHT) for c in range(WIDTH)}


def parse_cell(text: str) -> Cell:
    """``b12`` → (11, 1); ``ValueError`` when it is not a cell of the grid."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise ValueError(text)
    row = int(text[1:]) - 1
    if not 0 <= row < HEIGHT:
        raise ValueError(text)
    return row, COLUMNS.index(text[0])


@dataclass
class Combo:
    kind: str = field(metadata={"json": "type"})  # identical | consecutive
    cells: tuple[Cell, ...]  # identical: reading order of the grid (row 1 first); consecutive: rising values

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def bonus(self) -> bool:
        return self.size == BONUS


@dataclass
class Sheet:
    grid: list[list[int | str | None]] = field(default_factory=lambda: [[None] * WIDTH for _ in range(HEIGHT)])
    combos: list[Combo] = field(default_factory=list)
    letters: list[str] = field(default_factory=list)  # circled BLOCK letters, in the order circled
    # What the grid alone decides (tops(), where each shape lands, drop labels), with a copy of the grid it was
    # worked out from: reused while the grid still equals that copy (checked at C speed), as when every drop of a
    # turn is listed and described. Not part of the state: never dumped, copied or compared.
    _derived: Derived | None = field(default=None, init=False, repr=False, compare=False)

    def copy(self) -> Sheet:
        """``copy_state(self)`` (new grid rows and combos, the cells' tuples shared), written out: states are
        copied at every move. The copy shares what the grid decides (:meth:`derived`), checked as ever."""
        new = Sheet(list(map(list, self.grid)), [Combo(c.kind, c.cells) for c in self.combos], self.letters[:])
        new._derived = self._derived
        return new

    # --- the grid ---------------------------------------------------------------------------------------
    def derived(self) -> Derived:
        """What the grid decides, worked out again only when the grid changed (see :class:`Derived`)."""
        derived = self._derived
        grid = self.grid
        if derived is None or derived.grid != grid:
            # (shared with the sheets of other states that hold the same grid: a copy of the state, or a seat's
            # sheet while the others move)
            key = tuple(map(tuple, grid))
            derived = _DERIVED.get(key)
            if derived is None:
                if len(_DERIVED) >= _DERIVED_KEPT:
                    _DERIVED.clear()
                derived = _DERIVED[key] = Derived(grid)
            self._derived = derived
        return derived

    def tops(self) -> list[int]:
        """Per column, the row index of the highest filled cell (-1 when the column is empty)."""
        return self.derived().tops[:]

    def landing(self, cells: Cells, col: int, tops: Sequence[int] | None = None) -> list[Cell] | None:
        """Where a shape dropped with its left edge in column ``col`` comes to rest, as grid cells in the shape's
        reading order (top row first, left to right); ``None`` if it doesn't fit inside the grid."""
        if tops is None:
            landed = self.derived().landing(cells, col)
            return None if landed is None else list(landed)
        return _landing(cells, col, tops)

    def full_rows(self) -> list[int]:
        return [r for r, row in enumerate(self.grid) if None not in row]

    def beyond_rows_with_numbers(self) -> list[int]:
        grid = self.grid
        return [r for r in range(LINE, HEIGHT)
                if grid[r].count(None) != WIDTH and any(isinstance(v, int) for v in grid[r])]

    def beyond_line(self) -> bool:
        grid = self.grid
        return any(grid[r].count(None) != WIDTH for r in range(LINE, HEIGHT))

    # --- combos --------------------------------------------------------------------------------------------
    def circled(self) -> set[Cell]:
        return {cell for combo in self.combos for cell in combo.cells}

    def has(self, kind: str, n: int) -> bool:
        return any(c.kind == kind and c.size == n for c in self.combos)

    @property
    def bonus_used(self) -> bool:
        return any(c.bonus for c in self.combos)

    def open_sizes(self, kind: str) -> list[int]:
        """Sizes still allowed for ``kind``: 3–7 not yet made, and 8 while no bonus combo exists."""
        out = [n for n in SIZES if not self.has(kind, n)]
        return out + ([BONUS] if not self.bonus_used else [])

    def free_numbers(self) -> dict[Cell, int]:
        """Cells holding a number that is not yet in a combo."""
        used = self.circled()
        return {(r, c): v for r, row in enumerate(self.grid) if row.count(None) != len(row)  # (an empty row: none)
                for c, v in enumerate(row) if isinstance(v, int) and (r, c) not in used}

    def combos_available(self, cap: int = COMBO_CAP) -> list[Combo]:
        """The combos the player may make now, to list as choices: consecutive first (by start cell), then
        identical; at most ``cap`` of each type and size (the first found), so that a big patch of equal numbers
        can't make the list explode (a 7×8 patch has 76,566 shapes). Any combo at all passes :meth:`is_combo`."""
        free = self.free_numbers()
        out = [Combo(CONSECUTIVE, path) for path in _rising_paths(free, set(self.open_sizes(CONSECUTIVE)), cap)]
        allowed = set(self.open_sizes(IDENTICAL))
        if allowed:
            out += [Combo(IDENTICAL, cells) for cells in _same_value_sets(free, allowed, cap)]
        return out

    def has_combo(self) -> bool:
        """Whether any combo can be made now: ``bool(self.combos_available(cap=1))``, found without listing any.
        A rising path holds rising paths of every shorter length, and a connected set of equal numbers holds
        connected sets of every smaller size (drop a leaf of a spanning tree), so it is enough that the longest
        rising path, or the biggest patch of one number, reaches the smallest size still open."""
        free = self.free_numbers()
        if not free:
            return False
        sizes = self.open_sizes(CONSECUTIVE)
        if sizes and _longest_rising(free) >= min(sizes):
            return True
        sizes = self.open_sizes(IDENTICAL)
        return bool(sizes) and _biggest_patch(free) >= min(sizes)

    def is_combo(self, combo: Combo) -> bool:
        """Whether ``combo`` (cells in any order) is one the player may make now."""
        free = self.free_numbers()
        cells = combo.cells
        if len(set(cells)) != len(cells) or any(c not in free for c in cells):
            return False
        if combo.size not in self.open_sizes(combo.kind):
            return False
        if combo.kind == IDENTICAL:
            return len({free[c] for c in cells}) == 1 and _connected(set(cells))
        ordered = sorted(cells, key=free.__getitem__)
        return all(free[b] == free[a] + 1 and _adjacent(a, b) for a, b in zip(ordered, ordered[1:], strict=False))

    def add_combo(self, combo: Combo) -> None:
        self.combos.append(combo)

    def new_letters(self, crossed: Sequence[str]) -> list[str]:
        """Letters this sheet may circle now: both combos of the size held, letter neither circled nor crossed."""
        return [letter for letter, n in LETTER_SIZE.items()
                if letter not in self.letters and letter not in crossed
                and self.has(IDENTICAL, n) and self.has(CONSECUTIVE, n)]

    # --- score ----------------------------------------------------------------------------------------------
    def score(self) -> dict[str, int]:
        return self._score(self.full_rows())

    def _score(self, full_rows: list[int]) -> dict[str, int]:
        """:meth:`score`, given :meth:`full_rows` (worked out once where both are wanted)."""
        identical = consecutive = 0
        made = set()
        bonus_used = False
        for c in self.combos:
            kind, n = c.kind, len(c.cells)
            made.add((kind, n))
            if n == BONUS:
                bonus_used = True
            elif kind == IDENTICAL:
                identical += n
            elif kind == CONSECUTIVE:
                consecutive += n
        columns = sum(COLUMN_BONUS for kind in COMBO_TYPES if all((kind, n) in made for n in SIZES))
        parts = {
            "identical": identical,
            "consecutive": consecutive,
            "bonus": BONUS if bonus_used else 0,
            "columns": columns,
            "rows": ROW_POINTS * len(full_rows),
            "beyond": -BEYOND_PENALTY * len(self.beyond_rows_with_numbers()),
        }
        parts["total"] = sum(parts.values())
        return parts


def _tops(grid: list[list[int | str | None]]) -> list[int]:
    out = [-1] * WIDTH
    todo = WIDTH
    for r in range(HEIGHT - 1, -1, -1):  # from the top row down; empty rows are skipped whole
        row = grid[r]
        if row.count(None) == WIDTH:
            continue
        for c in range(WIDTH):
            if out[c] < 0 and row[c] is not None:
                out[c] = r
                todo -= 1
        if not todo:
            break
    return out


def _landing(cells: Cells, col: int, tops: Sequence[int]) -> list[Cell] | None:
    height, width, lowest = _profile(cells)
    if col < 0 or col + width > WIDTH:
        return None
    # The shape falls as one piece and stops when any of its columns' lowest cell meets the stack.
    base = 0
    for c, up in lowest:
        rest = tops[col + c] + 1 - up
        if rest > base:
            base = rest
    if base + height > HEIGHT:
        return None
    top = base + height - 1
    return [(top - r, col + c) for r, c in cells]


class Derived:
    """What a grid alone decides, worked out once per grid (:meth:`Sheet.derived`): its tops, where each shape
    lands, and whatever else a caller keeps in :attr:`memo` (keys of its own, e.g. drop labels). Never changed
    once made but for adding to its dicts; a changed grid gets a new one."""

    __slots__ = ("grid", "tops", "_landed", "_places", "memo")

    def __init__(self, grid: list[list[int | str | None]]) -> None:
        self.grid = [row[:] for row in grid]
        self.tops = _tops(grid)
        self._landed: dict[tuple[Cells, int], tuple[Cell, ...] | None] = {}
        self._places: dict[str, tuple[tuple[str, int, tuple[Cell, ...]], ...]] = {}
        self.memo: dict[Any, Any] = {}

    def landing(self, cells: Cells, col: int) -> tuple[Cell, ...] | None:
        """:meth:`Sheet.landing` on this grid, as a tuple."""
        key = (cells, col)
        try:
            return self._landed[key]
        except KeyError:
            pass
        landed = _landing(cells, col, self.tops)
        out = self._landed[key] = None if landed is None else tuple(landed)
        return out

    def placements(self, shape: str) -> tuple[tuple[str, int, tuple[Cell, ...]], ...]:
        """(orientation, column, landed cells) of every drop of ``shape`` that fits, orientations in
        :func:`distinct_orientations` order, then columns left to right."""
        try:
            return self._places[shape]
        except KeyError:
            pass
        out = []
        tops = self.tops
        for name, cells, height, width, lowest in _orientations(shape):
            for col in range(WIDTH - width + 1):  # (what _landing does, for each column the shape fits in)
                base = 0
                for c, up in lowest:
                    rest = tops[col + c] + 1 - up
                    if rest > base:
                        base = rest
                if base + height <= HEIGHT:
                    top = base + height - 1
                    out.append((name, col, tuple([(top - r, col + c) for r, c in cells])))
        places = self._places[shape] = tuple(out)
        return places


@cache
def _orientations(shape: str) -> tuple[tuple[str, Cells, int, int, tuple[tuple[int, int], ...]], ...]:
    """(name, cells, height, width, lowest cells as in _profile) of each of :func:`distinct_orientations`."""
    return tuple((name, oriented(shape, name), *_profile(oriented(shape, name)))
                 for name in distinct_orientations(shape))


_DERIVED: dict[tuple[tuple[int | str | None, ...], ...], Derived] = {}  # by grid, for Sheet.derived
_DERIVED_KEPT = 128


@cache
def _profile(cells: Cells) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """(height, width, (column, rows above the shape's bottom of its lowest cell) per column) of a shape."""
    height, width = size(cells)
    lowest: dict[int, int] = {}
    for r, c in cells:
        up = height - 1 - r
        lowest[c] = min(lowest.get(c, up), up)
    return height, width, tuple(lowest.items())


def _adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {
    (r, c): tuple((r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                  if 0 <= r + dr < HEIGHT and 0 <= c + dc < WIDTH)
    for r in range(HEIGHT) for c in range(WIDTH)}


def _neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The cells beside ``cell`` (down, up, right, left), inside the grid."""
    return _NEIGHBOURS[cell]


def _connected(cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for n in _neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _longest_rising(free: dict[Cell, int]) -> int:
    """The most cells on a path of free cells whose values rise by 1 at each step."""
    longest: dict[Cell, int] = {}  # from each cell on, highest values first (a path's next cell is done before it)
    for cell in sorted(free, key=free.__getitem__, reverse=True):
        want = free[cell] + 1
        longest[cell] = 1 + max((longest[n] for n in _NEIGHBOURS[cell] if free.get(n) == want), default=0)
    return max(longest.values(), default=0)


def _biggest_patch(free: dict[Cell, int]) -> int:
    """The most cells in a connected set of free cells holding one value."""
    best = 0
    seen: set[Cell] = set()
    for start, value in free.items():
        if start in seen:
            continue
        seen.add(start)
        todo, size = [start], 0
        while todo:
            size += 1
            for n in _NEIGHBOURS[todo.pop()]:
                if n not in seen and free.get(n) == value:
                    seen.add(n)
                    todo.append(n)
        best = max(best, size)
    return best


def _rising_paths(free: dict[Cell, int], sizes: set[int], cap: int) -> list[tuple[Cell, ...]]:
    """Paths of free cells whose values rise by 1 at each step, with a length in ``sizes`` (``cap`` per length)."""
    out: list[tuple[Cell, ...]] = []
    longest = max(sizes, default=0)
    found = dict.fromkeys(sizes, 0)

    def extend(path: list[Cell]) -> None:
        if found.get(len(path), cap) < cap:
            out.append(tuple(path))
            found[len(path)] += 1
        if len(path) == longest or all(found[n] >= cap for n in sizes if n > len(path)):
            return
        want = free[path[-1]] + 1
        for n in _neighbours(path[-1]):
            if free.get(n) == want:
                path.append(n)
                extend(path)
                path.pop()

    for cell in sorted(free):
        extend([cell])
    return out


def _same_value_sets(free: dict[Cell, int], sizes: set[int], cap: int) -> list[tuple[Cell, ...]]:
    """Connected sets of free cells holding one value, with a size in ``sizes`` (``cap`` per size); each set once,
    its cells in grid order. Enumerates connected subsets from their smallest cell (the ESU scheme)."""
    out: list[tuple[Cell, ...]] = []
    longest = max(sizes)
    found = dict.fromkeys(sizes, 0)

    def grow(root: Cell, chosen: list[Cell], frontier: list[Cell], banned: set[Cell]) -> None:
        if found.get(len(chosen), cap) < cap:
            out.append(tuple(sorted(chosen)))
            found[len(chosen)] += 1
        if len(chosen) == longest or all(found[n] >= cap for n in sizes if n > len(chosen)):
            return
        frontier = frontier[:]
        while frontier:
            nxt = frontier.pop()
            new = [n for n in _neighbours(nxt) if n > root and free.get(n) == free[root] and n not in banned]
            grow(root, chosen + [nxt], frontier + new, banned | set(new))

    for root in sorted(free):
        first = [n for n in _neighbours(root) if n > root and free.get(n) == free[root]]
        grow(root, [root], first, {root, *first})
    return out
