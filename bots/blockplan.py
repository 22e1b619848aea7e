"""The hard bot's BLOCK turn planner (issue 13).

BLOCK is a race of score sheets: the seats' picks are simultaneous and never touch each other's sheets (but for
the penalty shapes), so a turn's picks are planned on the seat's own working sheet. The planner looks at every
drop (each placement of the shape with each arrangement of the values) and scores the sheet it leaves: the best
combo it makes possible at once (the combo step comes next), plus the shape of the stack (flat, few holes, low,
far from the Game Over line) and pairs of free numbers that a later combo may grow from. ★ values are chosen for
the drop they allow (the medium bot cannot tell them apart: a ★ value alone changes no sheet), penalty shapes
where they harm least, and combos by points (a completed score column and a circled letter count extra).

Only the seat's own sheet is read, from a determinization of its view (``Game.determinize``), so nothing hidden
is used; ties go to the seeded generator, so a choice is reproducible.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from bots.deadline import Deadline
from bots.mcts import DEFAULT_BUDGET_MS
from engine.base import Game
from engine.rng import Rng

Grid = list[list[Any]]
Cell = tuple[int, int]

WIDTH, HEIGHT, LINE = 7, 14, 11
X = "X"  # a filled cell that holds no number
SIZES = (3, 4, 5, 6, 7)
BONUS = 8
SAFE_HEIGHT = 8  # rows above this many start to cost
STAR_SHORTLIST = 12  # ★ values: the drop is searched over this many best placements (by the shape alone)
STAR_VALUES_MULTI = 6  # with two or more ★ dice, the candidate values of each


def _neighbours(r: int, c: int) -> list[Cell]:
    return [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= r + dr < HEIGHT and 0 <= c + dc < WIDTH]


NEIGHBOURS = {(r, c): _neighbours(r, c) for r in range(HEIGHT) for c in range(WIDTH)}


def _patch(free: Grid, start: Cell, value: Any) -> int:
    """The cells of the patch of ``value`` (free numbers side by side) through ``start``."""
    seen, todo = {start}, [start]
    while todo:
        for n in NEIGHBOURS[todo.pop()]:
            if n not in seen and free[n[0]][n[1]] == value:
                seen.add(n)
                todo.append(n)
    return len(seen)


def _reach(free: Grid, cell: Cell, value: int, step: int) -> int:
    """The cells of the longest path from ``cell`` (holding ``value``) whose numbers change by ``step`` each."""
    best = 1
    want = value + step
    for n in NEIGHBOURS[cell]:
        if free[n[0]][n[1]] == want:
            x = 1 + _reach(free, n, want, step)
            if x > best:
                best = x
    return best


class Planner:
    """The seat's sheet at the start of its decision, with what stays fixed while its drops are compared."""

    def __init__(self, sheet: Any) -> None:
        self.grid: Grid = [row[:] for row in sheet.grid]
        self.used: set[Cell] = {cell for combo in sheet.combos for cell in combo.cells}
        # the numbers a combo may still use, by cell (None: empty, an X, or in a combo already): what every feature
        # below reads, made once and changed only where a compared drop lands
        self.free: Grid = [[self._free_number(v, (r, c)) for c, v in enumerate(row)] for r, row in enumerate(self.grid)]
        self.open = {kind: {n for n in SIZES if not sheet.has(kind, n)} for kind in ("identical", "consecutive")}
        self.bonus_open = not sheet.bonus_used
        self.letters = set(sheet.letters)
        self.tops = sheet.tops()
        self.seeds = self._seeds(self.free)
        self._stacks: dict[tuple[Cell, ...], float] = {}  # stack_worth by the cells a drop fills
        self._point_memo: dict[tuple[str, int], float] = {}  # _points by (kind, longest)

    # --- features of a grid (``free``: the free numbers by cell, see __init__) ------------------------------------
    def _free_number(self, v: Any, cell: Cell) -> int | None:
        return v if isinstance(v, int) and cell not in self.used else None

    def best_combo(self, free: Grid, cells: Sequence[Cell]) -> float:
        """Points of the best combo through one of ``cells`` (the cells just filled), with what it completes."""
        longest = 0
        for cell in cells:
            v = free[cell[0]][cell[1]]
            if v is not None:
                n = _patch(free, cell, v)
                if n > longest:
                    longest = n
        best = max(0.0, self._points("identical", longest))
        longest = 0
        for cell in cells:
            v = free[cell[0]][cell[1]]
            if v is not None:
                n = _reach(free, cell, v, 1) + _reach(free, cell, v, -1) - 1
                if n > longest:
                    longest = n
        return max(best, self._points("consecutive", longest))

    def _points(self, kind: str, longest: int) -> float:
        """The best combo of ``kind`` that a run (or patch) of ``longest`` cells allows (worked out once each)."""
        key = (kind, longest)
        found = self._point_memo.get(key)
        if found is None:
            found = self._point_memo[key] = self._points_now(kind, longest)
        return found

    def _points_now(self, kind: str, longest: int) -> float:
        if longest >= BONUS and self.bonus_open:
            return float(BONUS)
        sizes = [n for n in self.open[kind] if n <= longest]
        return self.combo_points(kind, max(sizes)) if sizes else 0.0

    def combo_points(self, kind: str, n: int) -> float:
        """A combo of ``kind`` and size ``n`` (open), with what it completes."""
        if n == BONUS:
            return float(BONUS)
        points = float(n)
        if len(self.open[kind]) == 1:  # the score column is complete
            points += 10.0
        other = "consecutive" if kind == "identical" else "identical"
        if n not in self.open[other]:  # both combos of this size: its letter (a penalty for the others)
            points += 2.0
        return points

    def _patch(self, free: Grid, start: Cell) -> int:
        return _patch(free, start, free[start[0]][start[1]])

    def _run(self, free: Grid, start: Cell) -> int:
        return self._reach(free, start, 1) + self._reach(free, start, -1) - 1

    def _reach(self, free: Grid, cell: Cell, step: int) -> int:
        value = free[cell[0]][cell[1]]
        assert value is not None
        return _reach(free, cell, value, step)

    def shape(self, grid: Grid, free: Grid, tops: list[int]) -> float:
        """The stack: flat, few holes, low; rows newly full; pairs of free numbers a combo can grow from."""
        return self._stack(grid, tops) + 0.35 * self._seeds(free, max(tops) + 1)

    @staticmethod
    def _stack(grid: Grid, tops: list[int]) -> float:
        """The part of :meth:`shape` that reads only which cells are filled."""
        bumps = sum(abs(a - b) for a, b in zip(tops, tops[1:], strict=False))
        height = max(tops) + 1
        holes = 0  # empty cells under a column's top (rows with no empty cell are skipped at C speed)
        for r in range(height - 1):
            row = grid[r]
            if None in row:
                holes += sum(1 for c, v in enumerate(row) if v is None and r < tops[c])
        x = -0.4 * bumps - 1.2 * holes - 1.5 * max(0, height - SAFE_HEIGHT)
        if height > LINE:
            x -= 40.0  # beyond the Game Over line: the game ends, with −5 a row
        x += 2.0 * sum(1 for r in range(height) if None not in grid[r])
        return x

    @staticmethod
    def _seeds(free: Grid, height: int = HEIGHT) -> int:
        """Pairs of free numbers side by side or one above the other, equal or one apart, in the rows below
        ``height`` (above the stack there are none)."""
        seeds = 0
        for r in range(height):
            row = free[r]
            pairs: Iterable[tuple[int | None, int | None]] = zip(row, row[1:], strict=False)  # (beside, above)
            if r + 1 < HEIGHT:
                pairs = itertools.chain(pairs, zip(row, free[r + 1], strict=True))
            for v, w in pairs:
                if v is not None and w is not None and -1 <= w - v <= 1:
                    seeds += 1
        return seeds

    def drop_worth(self, cells: Sequence[Cell], values: Sequence[Any]) -> float:
        """``best_combo + shape`` of the sheet after this drop, worked out without copying the grid: the part of
        :meth:`shape` that reads only which cells are filled is the same for every order of the values (made once
        per placement), and the pairs of free numbers change only at the cells the drop fills (the others are
        counted once, in ``__init__``). The dropped cells are written into ``self.free`` and put back after."""
        return self.drop_worths(cells, (values,))[0]

    def drop_worths(self, cells: Sequence[Cell], orders: Iterable[Sequence[Any]]) -> list[float]:
        """:meth:`drop_worth` of one placement with each of ``orders`` of the values, in order."""
        key = tuple(cells)
        stack = self._stacks.get(key)
        if stack is None:
            grid = [row[:] for row in self.grid]
            tops = self.tops[:]
            for r, c in cells:
                grid[r][c] = X
                tops[c] = max(tops[c], r)
            stack = self._stacks[key] = self._stack(grid, tops)
        free = self.free
        used = self.used
        base_seeds = self.seeds
        before = [free[r][c] for r, c in cells]
        out = []
        try:
            for values in orders:
                for (r, c), v in zip(cells, values, strict=True):
                    free[r][c] = v if isinstance(v, int) and (r, c) not in used else None
                numbers = [cell for cell, v in zip(cells, values, strict=True) if isinstance(v, int)]
                seeds = base_seeds + self._new_seeds(free, key)
                out.append(self.best_combo(free, numbers) + (stack + 0.35 * seeds))
        finally:
            for (r, c), v in zip(cells, before, strict=True):
                free[r][c] = v
        return out

    @staticmethod
    def _new_seeds(free: Grid, cells: tuple[Cell, ...]) -> int:
        """The pairs :meth:`_seeds` counts that have a cell among ``cells`` (cells that held no free number
        before): each pair once."""
        seeds = 0
        for cell in cells:
            v = free[cell[0]][cell[1]]
            if v is None:
                continue
            for n in NEIGHBOURS[cell]:
                w = free[n[0]][n[1]]
                if w is not None and -1 <= w - v <= 1 and (n not in cells or n > cell):
                    seeds += 1
        return seeds


def _placements(game: Any, sheet: Any, shapes: Sequence[str]) -> list[tuple[str, str, int, list[Cell]]]:
    return [(shape, o, c, cells) for shape in shapes for o, c, cells in game.placements(sheet, shape)]


Place = tuple[str, str, int, list[Cell]]
Pick = tuple[str, str, int, tuple[int, ...]]


def _shortlist(planner: Planner, places: list[Place], shortlist: int) -> list[Place]:
    """The best ``shortlist`` placements by their shape alone (values matter less), in their listed order's ties."""
    if shortlist and len(places) > shortlist:
        places = sorted(places, key=lambda p: -planner.drop_worth(p[3], ["X"] * len(p[3])))[:shortlist]
    return places


def _best_drop(planner: Planner, places: Sequence[Place], values: Sequence[int],
               deadline: Deadline | None = None) -> tuple[float, Pick | None]:
    """The best drop of ``values`` among ``places``: the first of the best in the order listed (placements, then
    the orders of the values, sorted). With a ``deadline``, placements are looked at best shape first (the worth of
    the shape alone, as the shortlist ranks them) and the search stops when it passes, with the best so far; a
    search the deadline does not cut chooses exactly what the whole search in the listed order would."""
    orders = sorted(set(itertools.permutations(values)))
    order: Sequence[int] = range(len(places))
    if deadline is not None and deadline.timed:
        order = sorted(order, key=lambda i: -planner.drop_worth(places[i][3], ["X"] * len(places[i][3])))
    best: tuple[float, int] = (-1e9, 0)
    pick: Pick | None = None
    for n, i in enumerate(order):
        if n and deadline is not None and deadline.passed():
            break
        shape, o, c, cells = places[i]
        for k, (vals, w) in enumerate(zip(orders, planner.drop_worths(cells, orders), strict=True)):
            key = (w, -(i * len(orders) + k))  # (ties: the first listed, as a search in order keeps it)
            if key > best:
                best, pick = key, (shape, o, c, vals)
    return best[0], pick


def plan(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng,
         budget_ms: float = DEFAULT_BUDGET_MS, timed: bool = True) -> Any | None:
    """The planner's move for ``seat``, or ``None`` for a step it leaves to the search (setup, solo slides).

    Live (``timed``), it answers within ``budget_ms`` of the wall clock from its call: its larger searches (the ★
    values, and a drop's placements) look at the likeliest first and stop at the deadline with the best found so
    far. Untimed (tests, ``bench.tournament``'s fixed search), it searches everything, so its choice is
    reproducible on any machine; that search takes 0.3 s of CPU at most (four ★ dice, every shape) on this
    project's 2-core machine. A search the deadline does not cut chooses the same move either way."""
    deadline = Deadline.of(budget_ms, timed)
    seen = game.determinize(state, seat, rng)
    step = game.step(seen, seat)  # type: ignore[attr-defined]
    sheet = seen.work[seat]
    planner = Planner(sheet)

    def pick(text: str) -> Any | None:
        # (the last move written so, as a dict of every move by its notation would give)
        return next((m for m in reversed(moves) if game.format_move(m) == text), None)

    if step == "drop":
        places = _placements(game, sheet, game.shapes_allowed(seen))  # type: ignore[attr-defined]
        _, best = _best_drop(planner, places, game.number_values(seen, seat), deadline)  # type: ignore[attr-defined]
        if best is None:
            return None
        shape, o, c, vals = best
        return next((m for m in moves if m.shape == shape and m.orientation == o and m.column == c
                     and m.values == vals), None)
    if step == "star":
        prog = seen.progress[seat]
        fixed = [int(d) for d in seen.dice[:4] if d != "*"]
        owed = sum(1 for s in prog.steps if s == "star")
        values: list[int] = list(range(10))
        if owed > 1:  # several ★ dice: values next to the free numbers on top, and the dice's own
            near = {v + d for v in fixed for d in (-1, 0, 1)}
            for c, top in enumerate(planner.tops):
                if top >= 0 and isinstance(sheet.grid[top][c], int):
                    near |= {sheet.grid[top][c] + d for d in (-1, 0, 1)}
            ranked = sorted(v for v in near if 0 <= v <= 9)
            rng.shuffle(ranked)
            values = sorted(ranked[:STAR_VALUES_MULTI])
        return _stars(planner, _placements(game, sheet, game.shapes_allowed(seen)),  # type: ignore[attr-defined]
                      list(prog.stars), fixed, values, owed, rng, deadline, pick)
    if step.startswith("penalty:"):
        best_w, best_m = -1e9, None
        for m in moves:
            cells = sheet.landing(_oriented(seen.blocks["ABCDE".index(step[-1])], m.orientation), m.column)
            if cells is None:
                continue
            w = planner.drop_worth(cells, ["X"] * len(cells)) + rng.below(1000) * 1e-9
            if w > best_w:
                best_w, best_m = w, m
        return best_m
    if step == "combo":
        best_w, best_m = -1e9, None
        for m in moves:
            if m.kind != "combo":
                continue
            w = planner.combo_points(m.combo, len(m.cells)) + rng.below(1000) * 1e-9
            if w > best_w:
                best_w, best_m = w, m
        return best_m if best_m is not None else pick("pass")
    return None


def _stars(planner: Planner, places: list[Place], chosen: list[int], fixed: list[int], values: list[int],
           owed: int, rng: Rng, deadline: Deadline, pick: Any) -> Any | None:
    """The ★ value to pick now: each way of choosing the ★ values still owed is worth the best drop it allows
    (over the placements best by their shape alone, :data:`STAR_SHORTLIST`), ties to the seeded generator.

    The best drop depends on the values, not on their order (★ values 3 then 5 drop as 5 then 3 would), so each
    set of values is searched once. Live, the sets are searched best first by a quick look (the best drop over the
    three best placements) and the search stops at the deadline: the best fully searched set wins (the quick
    look's best if none is). Without a cut, the choice is the whole search's."""
    shortlist = _shortlist(planner, places, STAR_SHORTLIST)  # (the same for every set of values: ranked once)
    tuples = list(itertools.product(values, repeat=owed))
    noise = [rng.below(1000) * 1e-9 for _ in tuples]  # ties, drawn in the listed order as the whole search does
    keys = [tuple(sorted(chosen + list(stars) + fixed)) for stars in tuples]
    distinct = list(dict.fromkeys(keys))
    drops: dict[tuple[int, ...], float] = {}
    if deadline.timed and len(distinct) > 1:
        quick = {key: _best_drop(planner, shortlist[:3], key)[0] for key in distinct}
        distinct.sort(key=lambda key: -quick[key])
        for key in distinct:
            if drops and deadline.passed():
                break
            drops[key] = _best_drop(planner, shortlist, key)[0]
    else:
        drops = {key: _best_drop(planner, shortlist, key)[0] for key in distinct}
    best_value, best_stars = -1e9, None
    for stars, key, tie in zip(tuples, keys, noise, strict=True):
        if key in drops and drops[key] + tie > best_value:
            best_value, best_stars = drops[key] + tie, stars
    return pick(f"star {best_stars[0]}") if best_stars is not None else None


def _oriented(shape: str, orientation: str) -> Any:
    from engine.block.shapes import oriented

    return oriented(shape, orientation)
