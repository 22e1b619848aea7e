"""A player's BLOCK score sheet: the 7×14 grid, drops, combos, letters and the score.

Coordinates: ``grid[row][col]`` with row 0 the bottom row (written ``1``) and col 0 the left column (``a``).
A cell holds ``None`` (empty), a number 0–9, or ``X`` (a penalty cell, never part of a combo).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from engine.block.shapes import Cells, size
from engine.state import copy_state

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
    # tops() as last computed, with a copy of the grid it was computed from: reused while the grid still equals
    # that copy (checked at C speed), as when every drop of a turn is described. Not part of the state: never
    # dumped, copied or compared.
    _tops: tuple[list[list[int | str | None]], list[int]] | None = field(default=None, init=False, repr=False,
                                                                          compare=False)

    def copy(self) -> Sheet:
        return copy_state(self)

    # --- the grid ---------------------------------------------------------------------------------------
    def tops(self) -> list[int]:
        """Per column, the row index of the highest filled cell (-1 when the column is empty)."""
        grid = self.grid
        cached = self._tops
        if cached is not None and cached[0] == grid:
            return cached[1][:]
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
        self._tops = ([row[:] for row in grid], out[:])
        return out

    def landing(self, cells: Cells, col: int, tops: Sequence[int] | None = None) -> list[Cell] | None:
        """Where a shape dropped with its left edge in column ``col`` comes to rest, as grid cells in the shape's
        reading order (top row first, left to right); ``None`` if it doesn't fit inside the grid."""
        height, width, lowest = _profile(cells)
        if col < 0 or col + width > WIDTH:
            return None
        tops = self.tops() if tops is None else tops
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
        return {(r, c): v for r, row in enumerate(self.grid) for c, v in enumerate(row)
                if isinstance(v, int) and (r, c) not in used}

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
        """Whether any combo can be made now (stops at the first found)."""
        return bool(self.combos_available(cap=1))

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
        identical = sum(c.size for c in self.combos if c.kind == IDENTICAL and not c.bonus)
        consecutive = sum(c.size for c in self.combos if c.kind == CONSECUTIVE and not c.bonus)
        made = {(c.kind, c.size) for c in self.combos}
        columns = sum(COLUMN_BONUS for kind in COMBO_TYPES if all((kind, n) in made for n in SIZES))
        parts = {
            "identical": identical,
            "consecutive": consecutive,
            "bonus": BONUS if self.bonus_used else 0,
            "columns": columns,
            "rows": ROW_POINTS * len(self.full_rows()),
            "beyond": -BEYOND_PENALTY * len(self.beyond_rows_with_numbers()),
        }
        parts["total"] = sum(parts.values())
        return parts


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
