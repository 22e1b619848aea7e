"""BLOCK: a simultaneous roll-and-write for 1–6 players (one player: the solo mode).

Rules: ``shared/rulebooks/block.txt`` and ``shared/rules/block.md`` beside the repository (our decisions, which
win); for players, ``docs/games/block.md``.
The view dict is described in ``docs/dev/block-view.md``.

Every seat acts at once; each part of a turn is one pick from a list (a pending decision), so a seat owes a
short sequence of decisions each turn and ``to_act`` holds every seat that still owes one. A seat's picks go
onto a private working copy of its sheet; the public view shows the sheets as they were at the start of the
turn until every seat is done, then the turn resolves for all at once.

Decisions the texts leave open, decided here:

* **Setup.** The first decision of each seat is ``write <cell>``: where in the bottom row its number goes.
  Seats write at the same time (they don't affect each other).
* **★ values come first.** For each ★ on a number die (in die order) the seat picks its value with
  ``star <0-9>``; the drop then arranges the four known values. This keeps every list of choices short
  (at most 2,520 drops instead of over a million). ``drop`` is otherwise the notation of the rules page.
* **Forced steps are taken for the seat.** With no combo available the combo step passes by itself; with no
  legal drop (or penalty drop) the seat places nothing and counts as having crossed the Game Over line, as
  the rules page says. Solo: the extra slide of the tile shown on the shape die happens by itself.
* **Solo order.** Roll; the mandatory slide; the extra slide (if a die shows ★); a tile reaching ``GO!``
  drops its penalty at once (before the next step); then the ★ values, the drop and the combo.
* **Letters.** A seat circles a letter as soon as its combo completes the pair, during its turn; the letter is
  active from the next roll on. Two seats may circle the same letter in one turn.
* **Rows.** A full row (7 cells, numbers or X) is worth +2, counted once; rows beyond the line count too.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, cast

from engine.base import (
    Decision,
    Event,
    Game,
    NotationError,
    Result,
    Turns,
    rank_by,
)
from engine.block.shapes import (
    DIE_SHAPES,
    ORIENTATIONS,
    PENALTY_TILES,
    SHAPES,
    canonical_orientation,
    oriented,
)
from engine.block.sheet import (
    COLUMNS,
    COMBO_TYPES,
    IDENTICAL,
    LETTER_SIZE,
    LETTERS,
    LINE,
    WIDTH,
    Cell,
    Combo,
    Derived,
    Sheet,
    X,
    cell_name,
    parse_cell,
)
from engine.block.view import BlockPlayer, BlockRecent, BlockSlot, BlockView
from engine.rng import Rng

STAR = "*"
NUMBER_DICE = ((1, 2, 4, 5, 6, STAR), (2, 3, 4, 6, 7, STAR), (1, 2, 3, 5, 7, STAR), (1, 3, 4, 5, 7, STAR))
SHAPE_DIE = (*DIE_SHAPES, STAR)
GO = 4  # solo: notches a tile slides down before it shows GO!
# The orientations in words, for menus (the notation keeps r0…m3): a quarter turn is clockwise.
TURNS = {"r0": "as shown", "r1": "turned right", "r2": "upside down", "r3": "turned left", "m0": "mirrored",
         "m1": "mirrored, turned right", "m2": "mirrored, upside down", "m3": "mirrored, turned left"}
SETUP, PLAY, OVER = "setup", "play", "over"
LADDER = ((60, "legend"), (50, "master"), (40, "architect"), (30, "stacker"))  # below 30: "rookie"
MAX_TURNS = 400  # a safety net: a real game ends long before (the grid fills)


# --- moves ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    kind: str  # write | star | drop | penalty | combo | pass | slide
    shape: str = ""  # drop
    orientation: str = ""  # drop, penalty
    column: int = -1  # drop, penalty: the shape's leftmost column
    values: tuple[int, ...] = ()  # drop: in the oriented shape's reading order
    combo: str = ""  # combo: identical | consecutive
    cells: tuple[Cell, ...] = ()  # combo cells; write: the one cell
    value: int = -1  # star
    letter: str = ""  # slide


PASS = Move("pass")
_DROP_FIELDS = dict(Move("drop").__dict__)


def _drop_move(shape: str, orientation: str, column: int, values: tuple[int, ...]) -> Move:
    """``Move("drop", shape=…, orientation=…, column=…, values=…)``, equal in every way, made twice as fast: a
    frozen dataclass sets each of its nine fields through ``object.__setattr__``, and a turn lists up to 2,520
    drops."""
    move = object.__new__(Move)
    move.__dict__.update(_DROP_FIELDS, shape=shape, orientation=orientation, column=column, values=values)
    return move


# A drop's values as notation ("1,2,4,7"), by the tuple of exact ints, with that tuple: ``_values`` hands out the
# stored tuple, so that format_move knows a move's values by identity (a tuple equal to it but holding, say,
# ``True`` for 1 is written out the long way, as it was).
_VALUES_TEXT: dict[tuple[int, ...], tuple[tuple[int, ...], str]] = {}
_VALUES_BY_TEXT: dict[str, tuple[int, ...]] = {}  # the inverse, for parse_move
# "drop <shape> <orientation> <column> " by (shape, orientation, column index), for the die's shapes
_DROP_HEADS = {(shape, name, col): f"drop {shape} {name} {COLUMNS[col]} "
               for shape in DIE_SHAPES for name in ORIENTATIONS for col in range(WIDTH)}
_ORDERS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}  # values → their distinct orders, sorted
# per (shape, its orders): the drop moves by (orientation, column), one per order; see Block.legal_moves
_DROP_ROWS: dict[tuple[str, tuple[tuple[int, ...], ...]], dict[tuple[str, int], list[Move]]] = {}
_KEPT = 64  # entries of _ORDERS and _DROP_ROWS before they start again


def _values(values: tuple[int, ...]) -> tuple[int, ...]:
    """The stored tuple equal to ``values`` (a tuple of exact ints), stored first if new."""
    found = _VALUES_TEXT.get(values)
    if found is None:
        text = ",".join(map(str, values))
        found = _VALUES_TEXT[values] = (values, text)
        if len(values) == 4 and all(0 <= v <= 9 for v in values):  # (what parse_move reads)
            _VALUES_BY_TEXT[text] = values
    return found[0]


def _orders(values: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``sorted(set(itertools.permutations(values)))``, as stored tuples (see ``_values``)."""
    key = tuple(values)
    if not all(type(v) is int for v in key):  # (never from the dice; worked out as ever, nothing kept)
        return tuple(sorted(set(itertools.permutations(key))))
    found = _ORDERS.get(key)
    if found is None:
        if len(_ORDERS) >= _KEPT:
            _ORDERS.clear()
        found = _ORDERS[key] = tuple(_values(order) for order in sorted(set(itertools.permutations(key))))
    return found


def _drop_row(rows: dict[tuple[str, int], list[Move]], shape: str, orientation: str, column: int,
              orders: tuple[tuple[int, ...], ...]) -> list[Move]:
    """One placement's drops, one per order of the values, as :func:`_drop_move` makes them (equal in every way,
    their fields in the same order): the fields but the values are filled once for the row, and each move gets a
    copy of them as its ``__dict__`` (set past the frozen dataclass's ``__setattr__``), a third cheaper a move
    than :func:`_drop_move`'s update of nine fields (a BLOCK turn makes up to 2,520; py-spy at 20 tables saw
    ``_drop_move`` hold the GIL in 4.7 % of the bot's samples)."""
    fields = dict(_DROP_FIELDS, shape=shape, orientation=orientation, column=column)
    new, set_dict, copy = object.__new__, object.__setattr__, fields.copy
    row: list[Move] = []
    for vals in orders:
        move = new(Move)
        held = copy()
        held["values"] = vals
        set_dict(move, "__dict__", held)
        row.append(move)
    rows[(orientation, column)] = row
    return row


def _combo_moves(sheet: Sheet) -> list[Move]:
    """The combo step's menu: ``sheet.combos_available()`` (at most ``COMBO_CAP`` of each type and size) as moves,
    then the pass. What a sheet allows depends on its grid and the combos made on it (the free numbers, the sizes
    still open), so the moves are kept with the grid (:meth:`Sheet.derived`) by the combos made: a seat's combo step
    is listed at every position until it picks (each pick of another seat is one, 140 us a listing), on a sheet the
    others' picks do not change. Moves are immutable; the list is the caller's."""
    key = ("combos", tuple([(c.kind, c.cells) for c in sheet.combos]))
    memo = sheet.derived().memo
    listed = memo.get(key)
    if listed is None:
        listed = memo[key] = tuple([Move("combo", combo=c.kind, cells=c.cells) for c in sheet.combos_available()])
    return [*listed, PASS]


def format_move(move: Move) -> str:
    k = move.kind
    if k == "drop":
        head = _DROP_HEADS.get((move.shape, move.orientation, move.column))
        values = _VALUES_TEXT.get(move.values)
        if head is not None and values is not None and values[0] is move.values and type(move.column) is int:
            return head + values[1]
        return f"drop {move.shape} {move.orientation} {COLUMNS[move.column]} {','.join(map(str, move.values))}"
    if k == "write":
        return f"write {cell_name(move.cells[0])}"
    if k == "star":
        return f"star {move.value}"
    if k == "penalty":
        return f"penalty {move.orientation} {COLUMNS[move.column]}"
    if k == "combo":
        return f"combo {move.combo} " + " ".join(cell_name(c) for c in move.cells)
    if k == "slide":
        return f"slide {move.letter}"
    return "pass"


HELP = ("Moves look like `drop L r1 c 1,2,4,7`, `star 5`, `combo identical b1 b2 c2`, `pass`, "
        "`penalty r0 c`, `slide C` or `write d1`.")


def _column(word: str) -> int:
    if len(word) != 1 or word.lower() not in COLUMNS:
        raise NotationError(f"`{word}` is not a column: use a–g.")
    return COLUMNS.index(word.lower())


def _orientation(word: str) -> str:
    if word.lower() not in ORIENTATIONS:
        raise NotationError(f"`{word}` is not an orientation: use r0–r3 (turns) or m0–m3 (mirrored).")
    return word.lower()


def _cell(word: str) -> Cell:
    try:
        return parse_cell(word)
    except ValueError:
        raise NotationError(f"`{word}` is not a cell: a column a–g and a row 1–14, like `c4`.") from None


# (shape, orientation, column) of a drop by its words as format_move writes them: parse_move reads those at once
_DROP_WORDS = {(shape, name, COLUMNS[col]): (shape, name, col)
               for shape in DIE_SHAPES for name in ORIENTATIONS for col in range(WIDTH)}


def parse_move(text: str) -> Move:
    words = text.strip().split()
    if len(words) == 5 and words[0] == "drop":  # as format_move writes a drop (any other spelling: read below)
        place = _DROP_WORDS.get((words[1], words[2], words[3]))
        known = _VALUES_BY_TEXT.get(words[4])
        if place is not None and known is not None:
            return _drop_move(*place, known)
    if not words:
        raise NotationError("Empty move. " + HELP)
    head, args = words[0].lower(), words[1:]
    if head == "pass" and not args:
        return PASS
    if head == "write" and len(args) == 1:
        return Move("write", cells=(_cell(args[0]),))
    if head == "star" and len(args) == 1:
        if not re.fullmatch(r"\d", args[0]):
            raise NotationError("A ★ value is a number from 0 to 9, like `star 7`.")
        return Move("star", value=int(args[0]))
    if head == "drop" and len(args) == 4:
        shape = args[0].upper()
        if shape not in DIE_SHAPES:
            raise NotationError(f"`{args[0]}` is not a shape: use I, O, T, L or S.")
        values = args[3].split(",")
        if len(values) != 4 or not all(len(v) == 1 and v in "0123456789" for v in values):
            raise NotationError("A drop carries four values 0–9 separated by commas, like `1,2,4,7`.")
        return _drop_move(shape, _orientation(args[1]), _column(args[2]), _values(tuple(int(v) for v in values)))
    if head == "penalty" and len(args) == 2:
        return Move("penalty", orientation=_orientation(args[0]), column=_column(args[1]))
    if head == "combo" and len(args) >= 2:
        kind = args[0].lower()
        if kind not in COMBO_TYPES:
            raise NotationError("A combo is `identical` or `consecutive`, then its cells: `combo identical b1 b2 c2`.")
        return Move("combo", combo=kind, cells=tuple(_cell(w) for w in args[1:]))
    if head == "slide" and len(args) == 1 and args[0].upper() in LETTERS:
        return Move("slide", letter=args[0].upper())
    raise NotationError(f"I can't read `{text.strip()}`. " + HELP)


# --- state ---------------------------------------------------------------------------------------------------
@dataclass
class Progress:
    """What one seat still owes this turn, and what it did so far."""

    steps: list[str] = field(default_factory=list)  # owed, in order: write slide extra penalty:<L> star drop combo
    stars: list[int] = field(default_factory=list)  # chosen ★ values, in die order
    placed: list[Cell] = field(default_factory=list)  # cells filled this turn (numbers and X)
    penalty: list[Cell] = field(default_factory=list)  # X cells dropped this turn
    combo: list[Cell] = field(default_factory=list)  # the combo made this turn
    stuck: bool = False  # no legal drop: counts as crossing the Game Over line
    done: list[str] = field(default_factory=list)  # the moves made this turn, as notation
    slides: list[str] = field(default_factory=list)  # solo: tiles slid this turn (chosen or automatic), in order


@dataclass
class BlockState:
    seats: int
    options: dict[str, Any] = field(metadata={"shared": True})  # never mutated
    rng: int
    phase: str
    turn: int  # 0 during setup
    first: int
    dice: list[int | str]  # four number dice then the shape die; empty during setup
    blocks: list[str]  # slot A–E → its shape (multiplayer: penalty shapes; solo: tetrominoes)
    crossed: list[str]  # multiplayer: crossed-off letters
    notches: list[int]  # solo: each slot's tile position, 0 (top) … GO
    penalty: str  # multiplayer: the letter dropping this turn ("" for a normal turn)
    sheets: list[Sheet]  # as at the start of the turn (public)
    work: list[Sheet]  # this turn's working copies (private until the turn resolves)
    progress: list[Progress]
    crossed_line: list[bool]
    recent: list[BlockRecent]  # per seat, what the last resolved turn added (for the public picture)
    ply: int = 0

    @property
    def solo(self) -> bool:
        return self.seats == 1


def _copy_progress(p: Progress) -> Progress:
    return Progress(p.steps[:], p.stars[:], p.placed[:], p.penalty[:], p.combo[:], p.stuck, p.done[:], p.slides[:])


def _plain_copy(value: Any) -> Any:
    """A deep copy of plain JSON data, tuples made lists (as :mod:`engine.state` copies a ``TypedDict``)."""
    if isinstance(value, dict):
        return {k: _plain_copy(v) if isinstance(v, (dict, list, tuple)) else v for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_copy(v) if isinstance(v, (dict, list, tuple)) else v for v in value]
    return value


def _copy_recent(recent: BlockRecent) -> BlockRecent:
    """``_plain_copy(recent)``, quicker for what a turn's summary holds: lists of names and numbers, a flag."""
    if type(recent) is not dict:
        return cast(BlockRecent, _plain_copy(recent))
    out: dict[str, Any] = {}
    for k, v in recent.items():
        if type(v) is list:
            for x in v:
                if isinstance(x, (dict, list, tuple)):
                    out[k] = _plain_copy(v)
                    break
            else:
                out[k] = v[:]
        else:
            out[k] = _plain_copy(v) if isinstance(v, (dict, list, tuple)) else v
    return cast(BlockRecent, out)


def _copy_state(s: BlockState) -> BlockState:
    """``copy_state(s)``, written out (a state is copied at every move): the lists copied, ``options`` shared."""
    return BlockState(s.seats, s.options, s.rng, s.phase, s.turn, s.first, s.dice[:], s.blocks[:], s.crossed[:],
                      s.notches[:], s.penalty, [x.copy() for x in s.sheets], [x.copy() for x in s.work],
                      list(map(_copy_progress, s.progress)), s.crossed_line[:], list(map(_copy_recent, s.recent)),
                      s.ply)


# The copies above name every field: a field added to a state class must be added to them too.
if ([f.name for f in fields(BlockState)] != ["seats", "options", "rng", "phase", "turn", "first", "dice", "blocks",
                                              "crossed", "notches", "penalty", "sheets", "work", "progress",
                                              "crossed_line", "recent", "ply"]
        or [f.name for f in fields(Progress)] != ["steps", "stars", "placed", "penalty", "combo", "stuck", "done",
                                                  "slides"]
        or [f.name for f in fields(Sheet) if f.init] != ["grid", "combos", "letters"]
        or [f.name for f in fields(Combo)] != ["kind", "cells"]):
    raise TypeError("a BLOCK state class changed: update _copy_state, _copy_progress and Sheet.copy")


def _protected(s: BlockState, seat: int) -> bool:
    """This turn's BLOCK penalty drops on the others: ``seat`` circled its letter."""
    return bool(s.penalty) and s.penalty in s.sheets[seat].letters


def _cells_text(cells: Sequence[Cell]) -> str:
    return " ".join(cell_name(c) for c in cells)


class Block(Game[BlockState, Move, BlockView]):
    key = "block"
    name = "BLOCK"
    skippable = False  # no default move: timeout=skip has a bot play a late turn
    min_players = 1
    max_players = 6
    turns = Turns.SIMULTANEOUS  # every seat picks this turn's steps in secret; the turn resolves when all are done
    hidden_information = True  # this turn's picks stay private until every seat is done

    def __init__(self) -> None:
        super().__init__()
        from engine.block.text import BlockText  # (here: the words import the rules)

        self.text = BlockText(self)

    def clone(self, state: BlockState) -> BlockState:
        return _copy_state(state)

    # --- setup -----------------------------------------------------------------------------------------------
    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> BlockState:
        self.check_seats(seats)
        opts = self.resolve_options(options, seats)
        rng = Rng(seed)
        if seats == 1:
            blocks = list(DIE_SHAPES)
            rng.shuffle(blocks)
        else:
            tiles = list(PENALTY_TILES)
            rng.shuffle(tiles)
            blocks = [tile[rng.below(2)] for tile in tiles]
        state = BlockState(
            seats=seats, options=opts, rng=rng.state, phase=SETUP, turn=0, first=0, dice=[], blocks=blocks,
            crossed=[], notches=[0] * len(LETTERS) if seats == 1 else [], penalty="",
            sheets=[Sheet() for _ in range(seats)], work=[Sheet() for _ in range(seats)],
            progress=[Progress(steps=["write"]) for _ in range(seats)], crossed_line=[False] * seats,
            recent=[{} for _ in range(seats)])
        return state

    # --- whose turn, what is legal ------------------------------------------------------------------------------
    def decisions(self, state: BlockState) -> tuple[Decision, ...]:
        return tuple(Decision(p, self.step(state, p).split(":")[0], self.prompt(state, p),
                              preview=self._previewed(state, p), private=True)
                     for p in range(state.seats) if self.step(state, p))

    def _previewed(self, state: BlockState, seat: int) -> bool:
        """A pick that places something (a number, a drop, a penalty drop or a combo) is shown before it is
        submitted; a ★ value or a slide is not."""
        step = self.step(state, seat)
        return step in ("write", "drop", "combo") or step.startswith("penalty:")

    def to_act(self, state: BlockState) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        return frozenset(p for p in range(state.seats) if state.progress[p].steps)

    def may_act(self, state: BlockState) -> frozenset[int]:
        return self.to_act(state)  # (no decision is optional)

    def step(self, state: BlockState, seat: int) -> str:
        """The decision ``seat`` owes now ("" when none)."""
        steps = state.progress[seat].steps
        return steps[0] if steps and state.phase != OVER else ""

    def number_values(self, state: BlockState, seat: int) -> list[int]:
        """The four values of this turn's drop for ``seat`` (★ dice replaced by its chosen values)."""
        stars = iter(state.progress[seat].stars)
        return [next(stars) if d == STAR else int(d) for d in state.dice[:4]]

    def shapes_allowed(self, state: BlockState) -> tuple[str, ...]:
        face = state.dice[4] if state.dice else STAR
        return DIE_SHAPES if face == STAR else (str(face),)

    def fits(self, sheet: Sheet, shape: str) -> bool:
        """Whether ``shape`` can be dropped anywhere on ``sheet``."""
        return bool(sheet.derived().placements(shape))

    def placements(self, sheet: Sheet, shape: str) -> list[tuple[str, int, list[Cell]]]:
        """(orientation, column, landed cells) of every legal drop of ``shape`` on ``sheet``."""
        return [(name, col, list(landed)) for name, col, landed in sheet.derived().placements(shape)]

    def legal_moves(self, state: BlockState, seat: int) -> list[Move]:
        step = self.step(state, seat)
        if not step:
            return []
        sheet = state.work[seat]
        if step == "write":
            return [Move("write", cells=((0, c),)) for c in range(WIDTH)]
        if step in ("slide", "extra"):
            return [Move("slide", letter=LETTERS[i]) for i, n in enumerate(state.notches) if n < GO]
        if step.startswith("penalty:"):
            shape = state.blocks[LETTERS.index(step[-1])]
            return [Move("penalty", orientation=o, column=c) for o, c, _ in sheet.derived().placements(shape)]
        if step == "star":
            return [Move("star", value=v) for v in range(10)]
        if step == "drop":
            # Every placement allows the same orders of the values: a placement's row of moves is made once per
            # shape and values (kept while those come back) and shared, moves being immutable. The whole list is
            # kept with the grid (Sheet.derived) by shapes and values: a seat lists its drops at every position of
            # a turn (each pick of every seat is one), on a grid that the others' picks do not change.
            derived, kept = self.kept_drops(state, seat)
            shapes, orders = kept[1], kept[2]
            listed = derived.memo.get(kept)
            if listed is not None:
                return list(listed)
            out: list[Move] = []
            for shape in shapes:
                key = (shape, orders)
                rows = _DROP_ROWS.get(key)
                if rows is None:
                    if len(_DROP_ROWS) >= _KEPT:
                        _DROP_ROWS.clear()
                    rows = _DROP_ROWS[key] = {}
                for o, c, _ in derived.placements(shape):
                    row = rows.get((o, c))
                    out += row if row is not None else _drop_row(rows, shape, o, c, orders)
            derived.memo[kept] = tuple(out)
            return out
        if step == "combo":  # (every combo: tens of thousands in a big patch of equal numbers, so not kept)
            return [Move("combo", combo=c.kind, cells=c.cells) for c in sheet.combos_available(sys.maxsize)] + [PASS]
        raise AssertionError(step)

    def kept_drops(self, state: BlockState, seat: int) -> tuple[Derived, tuple[str, tuple[str, ...],
                                                                          tuple[tuple[int, ...], ...]]]:
        """Where :meth:`legal_moves` keeps a seat's drops at its drop step: with its grid (:meth:`Sheet.derived`),
        by the shapes allowed and the orders of its values (a tuple of the moves, once listed)."""
        return state.work[seat].derived(), ("drops", self.shapes_allowed(state),
                                            _orders(self.number_values(state, seat)))

    def menu_moves(self, state: BlockState, seat: int) -> list[Move]:
        """As :meth:`legal_moves`, but at most ``COMBO_CAP`` combos per type and size: a big patch of equal
        numbers has tens of thousands of combos. Any of them can still be typed."""
        if self.step(state, seat) == "combo":
            return _combo_moves(state.work[seat])
        return self.legal_moves(state, seat)

    def is_legal(self, state: BlockState, seat: int, move: Move) -> bool:
        """Checked against the rules directly: no list of 2,520 drops or of every combo is built."""
        step = self.step(state, seat)
        sheet = state.work[seat]
        if move.kind == "combo":
            return step == "combo" and sheet.is_combo(Combo(move.combo, move.cells))
        if move.kind == "pass":
            return step == "combo"
        if move.kind == "drop":
            return (step == "drop" and move.shape in self.shapes_allowed(state)
                    and move.orientation == canonical_orientation(move.shape, move.orientation)
                    and 0 <= move.column < WIDTH
                    and sorted(move.values) == sorted(self.number_values(state, seat))
                    and sheet.landing(oriented(move.shape, move.orientation), move.column) is not None)
        if move.kind == "penalty":
            if not step.startswith("penalty:"):
                return False
            shape = state.blocks[LETTERS.index(step[-1])]
            return (move.orientation == canonical_orientation(shape, move.orientation) and 0 <= move.column < WIDTH
                    and sheet.landing(oriented(shape, move.orientation), move.column) is not None)
        return move in self.legal_moves(state, seat)

    def sample_move(self, state: BlockState, seat: int, rng: Rng) -> Move:
        """Uniform over the legal moves without listing them: a drop is a placement, then an order of the values
        (every placement allows the same orders). A combo is drawn from :meth:`menu_moves` (equal to the full
        list unless a patch of equal numbers holds over 200 combos of one type and size)."""
        step = self.step(state, seat)
        if step == "drop":
            derived = state.work[seat].derived()
            places = [(shape, o, c) for shape in self.shapes_allowed(state) for o, c, _ in derived.placements(shape)]
            orders = _orders(self.number_values(state, seat))
            shape, o, c = places[rng.below(len(places))]
            return Move("drop", shape=shape, orientation=o, column=c, values=orders[rng.below(len(orders))])
        moves = self.menu_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move")
        return moves[rng.below(len(moves))]

    def normalise_move(self, state: BlockState, seat: int, move: Move) -> Move:
        """Canonical orientation names (``O r2`` is ``O r0``); combo cells in canonical order."""
        if move.kind == "drop" and move.shape in SHAPES:
            return Move("drop", shape=move.shape, orientation=canonical_orientation(move.shape, move.orientation),
                        column=move.column, values=move.values)
        if move.kind == "penalty" and self.step(state, seat).startswith("penalty:"):
            shape = state.blocks[LETTERS.index(self.step(state, seat)[-1])]
            return Move("penalty", orientation=canonical_orientation(shape, move.orientation), column=move.column)
        if move.kind == "combo":
            free = state.work[seat].free_numbers()
            if all(c in free for c in move.cells):
                if move.combo == IDENTICAL:
                    cells = tuple(sorted(move.cells))
                else:
                    cells = tuple(sorted(move.cells, key=free.__getitem__))
                return Move("combo", combo=move.combo, cells=cells)
        return move

    def why_illegal(self, state: BlockState, seat: int, move: Move) -> str:
        step = self.step(state, seat)
        wanted = {"write": "write", "slide": "slide", "extra": "slide", "star": "star", "drop": "drop",
                  "combo": "combo"}.get(step, "penalty" if step.startswith("penalty:") else "")
        if move.kind != wanted and not (step == "combo" and move.kind == "pass"):
            return f"Now you {self.describe_step(state, seat)}."
        sheet = state.work[seat]
        if move.kind == "write":
            return "Your number goes in the bottom row (row 1), like `write d1`."
        if move.kind == "slide":
            return f"Tile {move.letter} has reached GO! and can't slide any further."
        if move.kind == "drop":
            if move.shape not in self.shapes_allowed(state):
                return f"The shape die shows {state.dice[4]}: drop that shape."
            if sorted(move.values) != sorted(self.number_values(state, seat)):
                values = ", ".join(map(str, sorted(self.number_values(state, seat))))
                return f"A drop uses exactly this turn's values: {values}."
            return "That drop doesn't fit: the shape would stick out of the grid."
        if move.kind == "penalty":
            return "That penalty drop doesn't fit: it would stick out of the grid."
        if move.kind == "combo":
            if move.combo and len(move.cells) not in sheet.open_sizes(move.combo):
                return f"You already have a {move.combo} combo of {len(move.cells)} (or it isn't 3–8 cells long)."
            return (f"Those cells aren't a {move.combo} combo: they must hold numbers not yet circled, touch "
                    "side by side, and be all equal (identical) or rise by 1 along a path (consecutive).")
        return "That move is not allowed now."

    def describe_step(self, state: BlockState, seat: int) -> str:
        step = self.step(state, seat)
        if step == "write":
            return f"write your number ({seat + 1}) in a cell of your bottom row"
        if step == "slide":
            return "slide one BLOCK tile down a notch"
        if step == "extra":
            return "slide one more tile down (the shape die shows ★)"
        if step.startswith("penalty:"):
            letter = step[-1]
            return f"drop BLOCK {letter}'s penalty shape ({state.blocks[LETTERS.index(letter)]}) into your grid"
        if step == "star":
            n = len(state.progress[seat].stars)
            dice = [i for i, d in enumerate(state.dice[:4]) if d == STAR]
            return f"choose the value of ★ on number die {dice[n] + 1} (0–9)"
        if step == "drop":
            return "drop your shape"
        if step == "combo":
            return "circle a combo, or pass"
        return "wait"

    # --- applying ----------------------------------------------------------------------------------------------
    def perform(self, s: BlockState, seat: int, move: Move, events: list[Event]) -> None:
        self._perform(s, seat, move, events, resolve=True)

    def preview_view(self, state: BlockState, seat: int, move: Move) -> BlockView:
        """The seat's working sheet with this pick, the turn left unresolved even when the pick is the last one
        owed: a preview never shows other seats' picks or the next roll."""
        move = self.checked_move(state, seat, move)
        after = self.clone(state)
        self._perform(after, seat, move, [], resolve=False)
        return self.view(after, seat)

    def _perform(self, s: BlockState, seat: int, move: Move, events: list[Event], *, resolve: bool) -> None:
        prog = s.progress[seat]
        sheet = s.work[seat]
        step = prog.steps.pop(0)
        prog.done.append(format_move(move))
        if move.kind == "write":
            r, c = move.cells[0]
            sheet.grid[r][c] = seat + 1
            prog.placed.append((r, c))
        elif move.kind == "slide":
            self._slide(s, LETTERS.index(move.letter), events)
        elif move.kind == "star":
            prog.stars.append(move.value)
        elif move.kind == "drop":
            landed = sheet.landing(oriented(move.shape, move.orientation), move.column)
            assert landed is not None
            for (r, c), v in zip(landed, move.values, strict=True):
                sheet.grid[r][c] = v
            prog.placed += landed
        elif move.kind == "penalty":
            shape = s.blocks[LETTERS.index(step[-1])]
            landed = sheet.landing(oriented(shape, move.orientation), move.column)
            assert landed is not None
            for r, c in landed:
                sheet.grid[r][c] = X
            prog.placed += landed
            prog.penalty += landed
        elif move.kind == "combo":
            sheet.add_combo(Combo(move.combo, move.cells))
            prog.combo = list(move.cells)
            for letter in sheet.new_letters(s.crossed):
                sheet.letters.append(letter)
        s.ply += 1
        self._settle(s, seat, events)
        if not s.progress[seat].steps:
            events.append(Event("ready", seat, "{p%d} is done for this turn." % seat if s.phase != SETUP
                                else "{p%d} wrote their number." % seat))
        if resolve and not self.to_act(s) and s.phase != OVER:
            events += self._end_turn(s)

    def _slide(self, s: BlockState, slot: int, events: list[Event]) -> None:
        s.notches[slot] += 1
        letter = LETTERS[slot]
        s.progress[0].slides.append(letter)
        if s.notches[slot] == GO:
            if letter in s.work[0].letters:
                events.append(Event("go", 0, f"Tile {letter} reached GO!, but you are protected from it."))
            else:
                s.progress[0].steps.insert(0, f"penalty:{letter}")
                events.append(Event("go", 0, f"Tile {letter} reached GO!: its {s.blocks[slot]} drops into your grid."))

    def _settle(self, s: BlockState, seat: int, events: list[Event]) -> None:
        """Take the steps that need no decision: forced passes, impossible drops, the automatic extra slide."""
        prog = s.progress[seat]
        sheet = s.work[seat]
        while prog.steps:
            step = prog.steps[0]
            if step == "extra" and s.dice[4] != STAR:
                prog.steps.pop(0)
                slot = s.blocks.index(str(s.dice[4]))
                if s.notches[slot] < GO:
                    events.append(Event("slide", seat, f"Tile {LETTERS[slot]} ({s.blocks[slot]}, on the shape die) "
                                        "slides down a notch."))
                    self._slide(s, slot, events)
                continue
            if step in ("slide", "extra") and all(n >= GO for n in s.notches):
                prog.steps.pop(0)
                continue
            if step.startswith("penalty:"):
                shape = s.blocks[LETTERS.index(step[-1])]
                if not self.fits(sheet, shape):
                    prog.steps.pop(0)
                    prog.stuck = True
                    continue
            if step in ("star", "drop") and not any(self.fits(sheet, sh) for sh in self.shapes_allowed(s)):
                while prog.steps and prog.steps[0] in ("star", "drop"):
                    prog.steps.pop(0)
                prog.stuck = True
                continue
            if step == "combo" and not sheet.has_combo():
                prog.steps.pop(0)
                continue
            break

    def _roll(self, s: BlockState, events: list[Event]) -> None:
        rng = Rng(s.rng)
        s.dice = [die[rng.below(6)] for die in NUMBER_DICE] + [SHAPE_DIE[rng.below(6)]]
        s.rng = rng.state
        self._begin_turn(s, events)

    def with_dice(self, state: BlockState, dice: Sequence[int | str]) -> BlockState:
        """A copy of ``state`` whose current turn starts again with these dice (four number faces, then the shape
        face; ``"*"`` for ★), the sheets as they were when the turn began. For tests and set puzzles."""
        s = self.clone(state)
        if s.phase != PLAY:
            raise ValueError("dice can only be set during play")
        faces = [STAR if d in (STAR, "★") else d for d in dice]
        if len(faces) != 5 or any(f not in die for f, die in zip(faces, (*NUMBER_DICE, SHAPE_DIE), strict=True)):
            raise ValueError(f"not a roll of BLOCK's dice: {dice!r}")
        s.dice = faces
        s.work = [sheet.copy() for sheet in s.sheets]
        self._begin_turn(s, [])
        if not self.to_act(s):  # nobody owes anything (a penalty everyone is protected from)
            self._end_turn(s)
        return s

    def _begin_turn(self, s: BlockState, events: list[Event]) -> None:
        """Work out what each seat owes this turn, given the dice."""
        s.penalty = ""
        if not s.solo:
            active = [letter for letter in LETTERS if letter not in s.crossed
                      and any(letter in sheet.letters for sheet in s.sheets)]
            if active and STAR in s.dice:
                s.penalty = active[0]
        s.progress = [Progress(steps=self._turn_steps(s, p)) for p in range(s.seats)]
        for p in range(s.seats):
            self._settle(s, p, events)

    def _turn_steps(self, s: BlockState, seat: int) -> list[str]:
        """What ``seat`` owes when this turn begins (before forced steps are taken)."""
        if s.phase == SETUP:
            return ["write"]
        own = ["star"] * sum(1 for d in s.dice[:4] if d == STAR) + ["drop", "combo"]
        if s.solo:
            return ["slide"] + (["extra"] if STAR in s.dice else []) + own
        if s.penalty:
            return [] if s.penalty in s.sheets[seat].letters else [f"penalty:{s.penalty}"]
        return own

    def determinize(self, state: BlockState, seat: int, rng: Rng) -> BlockState:
        """Other seats' picks this turn are secret: each one's turn starts again from its public sheet, and a
        seat that was done picks again at random until done (one still picking is left at the turn's start).
        Future dice are resampled by reseeding."""
        s = self.clone(state)
        if s.phase != OVER:
            for p in range(s.seats):
                if p == seat or not s.progress[p].done:
                    continue
                was_done = not s.progress[p].steps
                s.work[p] = s.sheets[p].copy()
                s.progress[p] = Progress(steps=self._turn_steps(s, p))
                self._settle(s, p, [])
                while was_done and s.progress[p].steps:
                    self._perform(s, p, self.sample_move(s, p, rng), [], resolve=False)
            s.ply = state.ply
        self.reseed(s, rng)
        return s

    def _end_turn(self, s: BlockState) -> list[Event]:
        """Every seat is done: reveal, score, and roll the next turn (or end the game)."""
        events: list[Event] = []
        while True:
            for p in range(s.seats):
                prog = s.progress[p]
                before = s.sheets[p]
                after = s.work[p]
                new_rows = [r for r in after.full_rows() if r not in before.full_rows()]
                s.recent[p] = {"placed": [cell_name(c) for c in prog.placed],
                               "penalty": [cell_name(c) for c in prog.penalty],
                               "combo": [cell_name(c) for c in prog.combo], "moves": prog.done[:],
                               "slides": prog.slides[:],
                               "rows": [r + 1 for r in new_rows], "stuck": prog.stuck,
                               "letters": [x for x in after.letters if x not in before.letters]}
                if s.phase != SETUP:
                    events += self._turn_events(s, p, new_rows)
                if prog.stuck or after.beyond_line():
                    s.crossed_line[p] = True
            if s.penalty:
                s.crossed.append(s.penalty)
                events.append(Event("crossed", None, f"BLOCK {s.penalty} is crossed off for everyone."))
            s.sheets = [w.copy() for w in s.work]
            if any(s.crossed_line) or (s.solo and all(n >= GO for n in s.notches)) or s.turn >= MAX_TURNS:
                s.phase = OVER
                s.progress = [Progress() for _ in range(s.seats)]
                events.append(Event("over", None, self._end_reason(s)))
                return events
            if s.phase == SETUP:
                s.phase = PLAY
            else:
                s.first = (s.first + 1) % s.seats
            s.turn += 1
            rolled: list[Event] = []
            self._roll(s, rolled)
            safe = [p for p in range(s.seats) if _protected(s, p)]
            events.append(Event("roll", None, f"Turn {s.turn}: the dice show {self.dice_text(s)}."
                                + (f" BLOCK {s.penalty} drops on everyone not protected!" if s.penalty else "")
                                + (" Protected: " + ", ".join("{p%d}" % p for p in safe) + "." if safe else "")))
            events += rolled
            if self.to_act(s):
                return events

    def _turn_events(self, s: BlockState, p: int, new_rows: list[int]) -> list[Event]:
        prog = s.progress[p]
        sheet = s.work[p]
        who = "{p%d}" % p
        # solo: the tile the shape die slides by itself when a die shows ★ (every slide less those the player chose)
        automatic = list(prog.slides)
        for text in prog.done:
            if text.startswith("slide"):
                automatic.remove(parse_move(text).letter)
        auto = ", ".join(automatic)
        told = not automatic
        parts = []
        for text in prog.done:
            move = parse_move(text)
            if move.kind == "drop":  # each value with its cell (the drop's cells, in the order its values fill them)
                cells = [c for c in prog.placed if c not in prog.penalty]
                parts.append(f"dropped {move.shape} at "
                             + ", ".join(f"{cell_name(c)}={v}" for c, v in zip(cells, move.values, strict=True)))
            elif move.kind == "penalty":
                parts.append(f"took a penalty at {_cells_text(sorted(prog.penalty))}")
            elif move.kind == "combo":
                parts.append(f"circled {move.combo} {len(move.cells)}")
            elif move.kind == "slide":
                parts.append(f"slid tile {move.letter}" + ("" if told else f", then tile {auto} by the shape die"))
                told = True
        if not told:
            parts.append(f"the shape die slid tile {auto}")
        if prog.stuck:
            parts.append("had no room to drop (crossed the Game Over line)")
        if new_rows:
            parts.append(f"completed row {', '.join(str(r + 1) for r in new_rows)} (+{2 * len(new_rows)})")
        letters = [x for x in sheet.letters if x not in s.sheets[p].letters]
        if letters:
            parts.append(f"circled BLOCK {', '.join(letters)}")
        idle = f"was protected from BLOCK {s.penalty}" if _protected(s, p) else "had nothing to do"
        text = f"{who} " + ("; ".join(parts) if parts else idle) + "."
        return [Event("turn", p, text)]

    def _end_reason(self, s: BlockState) -> str:
        if s.solo and all(n >= GO for n in s.notches) and not s.crossed_line[0]:
            return "Every BLOCK tile reached GO!: the game is over."
        if s.turn >= MAX_TURNS:
            return f"The game stopped after {MAX_TURNS} turns."
        who = [p for p in range(s.seats) if s.crossed_line[p]]
        return " and ".join("{p%d}" % p for p in who) + " crossed the Game Over line: the game is over."

    # --- results -------------------------------------------------------------------------------------------------
    def scores(self, state: BlockState) -> list[int]:  # type: ignore[override]
        return [sheet.score()["total"] for sheet in state.sheets]

    def result(self, state: BlockState) -> Result | None:
        if state.phase != OVER:
            return None
        scores = self.scores(state)
        ranks = rank_by([(x,) for x in scores])
        winners = frozenset(p for p in range(state.seats) if ranks[p] == 1)
        if state.solo:
            reason = f"solo score {scores[0]}: {self.ladder(scores[0])}"
        else:
            reason = "highest score" if len(winners) == 1 else "tie: the win is shared"
        return Result(scores=tuple(float(x) for x in scores), ranks=ranks, winners=winners, reason=reason,
                      rung=self.ladder(scores[0]) if state.solo else "")

    @staticmethod
    def ladder(score: int) -> str:
        return next((name for floor, name in LADDER if score >= floor), "rookie")

    # --- notation ------------------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def dice_text(self, state: BlockState) -> str:
        if not state.dice:
            return "not rolled yet"
        return " ".join("★" if d == STAR else str(d) for d in state.dice[:4]) + \
            " · shape " + ("★" if state.dice[4] == STAR else str(state.dice[4]))

    # --- views -----------------------------------------------------------------------------------------------
    def view(self, state: BlockState, seat: int | None) -> BlockView:
        result = self.result(state)
        players: list[BlockPlayer] = []
        for p in range(state.seats):
            own = seat == p
            sheet = state.work[p] if own else state.sheets[p]
            full_rows = sheet.full_rows()
            score = sheet._score(full_rows)
            players.append({
                "grid": list(map(list, sheet.grid)),
                "combos": [{"type": c.kind, "size": len(c.cells), "cells": list(map(cell_name, c.cells))}
                           for c in sheet.combos],
                "letters": sheet.letters[:],
                "full_rows": [r + 1 for r in full_rows],
                "score": score["total"],
                "breakdown": {"identical": score["identical"], "consecutive": score["consecutive"],
                              "bonus": score["bonus"], "columns": score["columns"], "rows": score["rows"],
                              "beyond": score["beyond"], "total": score["total"]},
                "crossed_line": state.crossed_line[p],
                "waiting": bool(state.progress[p].steps) and state.phase != OVER,
                "recent": state.recent[p].copy(),
            })
        v: BlockView = {
            "game": self.key,
            "solo": state.solo,
            "phase": state.phase,
            "turn": state.turn,
            "first": state.first,
            "dice": ["*" if d == STAR else d for d in state.dice],
            "penalty": state.penalty,
            "blocks": [self._slot(state, i) for i in range(len(LETTERS))],
            "players": players,
            "to_act": sorted(self.to_act(state)),
            "ply": state.ply,
            "line": LINE + 1,  # the first row beyond the Game Over line
            "result": result.to_json() if result else None,
        }
        if seat is not None:
            v["viewer"] = seat
            prog = state.progress[seat]
            v["mine"] = {"step": self.step(state, seat), "todo": self.describe_step(state, seat) if prog.steps else "",
                         "stars": prog.stars[:], "placed": [cell_name(c) for c in prog.placed],
                         "combo": [cell_name(c) for c in prog.combo], "moves": prog.done[:],
                         "slides": prog.slides[:], "note": self.text.idle_note(state, seat)}
        return v

    @staticmethod
    def _slot(state: BlockState, i: int) -> BlockSlot:
        letter = LETTERS[i]
        slot: BlockSlot = {"letter": letter, "size": LETTER_SIZE[letter], "shape": state.blocks[i],
                           "cells": list(map(list, SHAPES[state.blocks[i]])), "crossed": letter in state.crossed,
                           "circled_by": [p for p in range(state.seats) if letter in state.sheets[p].letters]}
        if state.solo:
            slot["notch"] = state.notches[i]
        return slot

    def undoable(self, before: BlockState, after: BlockState, seat: int) -> bool:
        """A pick can be taken back until the turn resolves (then the picks are public and new dice rolled)."""
        return before.rng == after.rng and self.revealed_ply(before) == self.revealed_ply(after)

    def revealed_ply(self, state: BlockState) -> int:
        """This turn's picks are secret until the turn resolves."""
        return state.ply - (0 if state.phase == OVER else sum(len(p.done) for p in state.progress))

    def prompt(self, state: BlockState, seat: int) -> str:
        if not self.step(state, seat):
            return "You are done for this turn; waiting for the others." if state.phase != OVER else ""
        text = f"Now {self.describe_step(state, seat)}."
        if self.step(state, seat) == "drop":
            values = ", ".join(map(str, self.number_values(state, seat)))
            shapes = "/".join(self.shapes_allowed(state))
            text += f" Values {values}; shape {shapes}."
        return text

    def private_info(self, state: BlockState, seat: int) -> dict[str, Any]:
        """Nothing to DM: a seat's picks come back to it in the reply to each pick, and every sheet is public
        once the turn resolves."""
        return {}

    # --- persistence -------------------------------------------------------------------------------------------
