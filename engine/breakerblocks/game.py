"""Breaker Blocks for two players: circuits, command modules and physical blocking.

Rules: ``../shared/rulebooks/breaker-blocks.txt`` as decided in ``../shared/rules/breaker-blocks.md`` (the grid model
of the tiles in :mod:`engine.breakerblocks.board`). A turn is two actions (draw, play, move) in any combination; a
command module's effect is a chain of follow-up decisions of the same action, each one pick from the legal choices.
The game ends when the second AUTHENTICATE is added, one turn after a player could neither draw nor add a power
block, or at the round limit; the player controlling more circuits wins.

Notation (case-insensitive)::

    draw 1LS | draw annihilate | draw module (Blind Action)      ALLOCATE
    play 2L e3 [from e4]                                        ASSIMILATE (from: the block plugged into)
    move e3 c4 [from c5]                                        AGGREGATE
    end                                                         end the turn early
    destroy e3                          ANNIHILATE's target
    automate 2L e3 [from e4]            AUTOMATE's block and cell (``automate module …`` in Blind Action)
    take 3 | take agitate | stop        ACCELERATE's picks (up to three)
    return e3                           ATTENUATE's targets (yours, then your opponent's)
    rearrange e6 d7 [from d6] | stop    AGITATE's moves of your opponent's blocks (up to two)
    keep 1LS                            AGGRAVATE's keeps (yours, then your opponent's)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.base import (
    Decision,
    Event,
    Game,
    NotationError,
    OptionSpec,
    Result,
    Turns,
    rank_by,
)
from engine.breakerblocks.board import (
    ACCELERATE,
    AGGRAVATE,
    AGITATE,
    ANNIHILATE,
    ATTENUATE,
    AUTHENTICATE,
    AUTOMATE,
    CELLS,
    CIRCUITS,
    CORE,
    CORE_INPUTS,
    MODULE_COPIES,
    MODULES,
    POWER,
    POWER_SUPPLY,
    STARTING_HAND,
    cell_name,
    hand_limit,
    input_cells,
    inputs_of,
    is_module,
    parse_cell,
    power_of,
)
from engine.breakerblocks.view import BlockView, BreakerView, CircuitView
from engine.rng import Rng
from engine.state import copy_state

FORMAT_VERSION = 1
PLAY, OVER = "play", "over"
ACTIONS = 2
MODULE = "module"  # a face-down module (Blind Action)


@dataclass
class Placed:
    kind: str
    owner: int
    parent: int  # the cell it plugs into: a block's cell or a core cell


@dataclass
class Pending:
    """A follow-up decision of the action that added a command module."""

    kind: str  # annihilate automate accelerate attenuate_mine attenuate_theirs agitate aggravate_mine aggravate_theirs
    left: int = 1  # picks still allowed (accelerate: 3, agitate: 2)
    module: int = -1  # the module's cell (a module never targets itself)


@dataclass
class LastTurn:
    seat: int
    moves: list[str] = field(default_factory=list)
    cells: list[int] = field(default_factory=list)


@dataclass
class BreakerState:
    options: dict[str, Any] = field(metadata={"shared": True})  # never mutated
    rng: int
    board: list[Placed | None]  # by cell; core cells stay None
    hands: list[list[str]]
    fresh: list[list[str]]  # drawn this turn: cannot be added this turn
    supplies: list[list[str]]  # each seat's colored supply
    modules: list[str]  # the neutral supply
    removed: list[str]  # Blind Action: modules set aside unseen at setup
    destroyed: list[str]
    turn: int = 0
    actions: int = ACTIONS
    round: int = 1
    authenticated: bool = False  # an AUTHENTICATE was added this turn
    pending: list[Pending] = field(default_factory=list)
    final: int | None = None  # the seat taking the last turn
    phase: str = PLAY
    reason: str = ""
    winner: int | None = None  # Power Overwhelming: the seat that won outright
    last: LastTurn | None = None
    ply: int = 0

    def clone(self) -> BreakerState:
        return copy_state(self)


@dataclass(frozen=True)
class Move:
    kind: str  # draw play move end destroy automate take stop return rearrange keep
    block: str = ""
    cell: int = -1  # where a block goes, or the target
    source: int = -1  # move / rearrange: the block moved
    parent: int = -1  # the cell plugged into (-1: the only one possible)


END, STOP = Move("end"), Move("stop")

PROMPTS = {
    "annihilate": "ANNIHILATE: choose a block to destroy.",
    "automate": "AUTOMATE: choose a block from a supply and where it goes.",
    "accelerate": "ACCELERATE: take a block into your hand, or stop.",
    "attenuate_mine": "ATTENUATE: choose one of your blocks to return to its supply.",
    "attenuate_theirs": "ATTENUATE: choose one of your opponent's blocks to return to its supply.",
    "agitate": "AGITATE: rearrange one of your opponent's blocks, or stop.",
    "aggravate_mine": "AGGRAVATE: choose the one tile of your hand you keep.",
    "aggravate_theirs": "AGGRAVATE: choose the one tile of your opponent's hand they keep.",
}

_CELL = r"([a-i][1-9])"
_BLOCK = r"([0-3][lsr]{0,2}|[a-z]+|module[1-9])"
_FROM = rf"(?:\s+from\s+{_CELL})?"
_RE = {
    "draw": re.compile(rf"^(?:draw|allocate)\s+{_BLOCK}$"),
    "play": re.compile(rf"^(?:play|assimilate|add)\s+{_BLOCK}\s+{_CELL}{_FROM}$"),
    "move": re.compile(rf"^(?:move|aggregate)\s+{_CELL}\s+(?:to\s+)?{_CELL}{_FROM}$"),
    "destroy": re.compile(rf"^destroy\s+{_CELL}$"),
    "automate": re.compile(rf"^automate\s+{_BLOCK}\s+{_CELL}{_FROM}$"),
    "take": re.compile(rf"^take\s+{_BLOCK}$"),
    "return": re.compile(rf"^return\s+{_CELL}$"),
    "rearrange": re.compile(rf"^rearrange\s+{_CELL}\s+(?:to\s+)?{_CELL}{_FROM}$"),
    "keep": re.compile(rf"^keep\s+{_BLOCK}$"),
}
HELP = ("Moves look like `draw 1LS`, `draw annihilate`, `play 2L e3`, `move e3 c4`, `end`; a command module then "
        "asks for its choices (`destroy e7`, `take 3`, `return f6`, `keep 0`…).")


def _block(text: str) -> str:
    low = text.lower()
    if low in MODULES or low == MODULE or re.fullmatch(r"module[1-9]", low):
        return low
    up = text.upper()
    if up in POWER:
        return up
    raise NotationError(f"There is no block `{text}`: power blocks are 0, 1LS, 1SR, 1LR, 2L, 2S, 2R, 3; "
                        f"modules are {', '.join(MODULES)}.")


def parse_move(text: str) -> Move:
    t = " ".join(text.strip().lower().split())
    if t in ("end", "end turn", "pass"):
        return END
    if t in ("stop", "done"):
        return STOP
    for kind, pattern in _RE.items():
        m = pattern.match(t)
        if not m:
            continue
        g = m.groups()
        if kind in ("draw", "take", "keep"):
            return Move(kind, block=_block(g[0]))
        if kind in ("play", "automate"):
            return Move(kind, block=_block(g[0]), cell=parse_cell(g[1]), parent=parse_cell(g[2]) if g[2] else -1)
        if kind in ("move", "rearrange"):
            return Move(kind, source=parse_cell(g[0]), cell=parse_cell(g[1]),
                        parent=parse_cell(g[2]) if g[2] else -1)
        return Move(kind, cell=parse_cell(g[0]))
    raise NotationError(f"I don't understand `{text.strip()[:40]}`. {HELP}")


def format_move(move: Move) -> str:
    tail = f" from {cell_name(move.parent)}" if move.parent >= 0 else ""
    if move.kind in ("draw", "take", "keep"):
        return f"{move.kind} {move.block}"
    if move.kind in ("play", "automate"):
        return f"{move.kind} {move.block} {cell_name(move.cell)}{tail}"
    if move.kind in ("move", "rearrange"):
        return f"{move.kind} {cell_name(move.source)} {cell_name(move.cell)}{tail}"
    if move.kind in ("destroy", "return"):
        return f"{move.kind} {cell_name(move.cell)}"
    return move.kind


class BreakerBlocks(Game[BreakerState, Move, BreakerView]):
    key = "breakerblocks"
    name = "Breaker Blocks"
    tie = "draw"  # "the player controlling more circuits wins; otherwise the game is a draw"
    min_players = 2
    max_players = 2
    turns = Turns.SEQUENTIAL
    hidden_information = True  # Blind Action: a drawn module is known only to its holder
    options = (
        OptionSpec("blind", bool, False, "Blind Action: command modules are drawn face down, at random.",
                   (False, True)),
        OptionSpec("blind_remove4", bool, False, "Blind Action: also set 4 random modules aside unseen.",
                   (False, True)),
        OptionSpec("power_overwhelming", bool, False,
                   "No AUTHENTICATE: a player who starts their turn controlling 2+ circuits wins.", (False, True)),
        OptionSpec("max_rounds", int, 40, "The game ends and is scored after this many rounds.", (20, 30, 40, 60)),
        OptionSpec("tiebreak", str, "none", "none: a tie is a draw; total_power: more power in all circuits wins.",
                   ("none", "total_power")),
    )

    def __init__(self) -> None:
        super().__init__()
        from engine.breakerblocks.text import BreakerBlocksText  # (here: the words import the rules)

        self.text = BreakerBlocksText(self)

    # --- setup --------------------------------------------------------------------------------------------------
    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> BreakerState:
        self.check_seats(seats)
        opts = self.resolve_options(options)
        rng = Rng(seed)
        kinds = [m for m in MODULES if not (m == AUTHENTICATE and opts["power_overwhelming"])]
        modules = [m for m in kinds for _ in range(MODULE_COPIES)]
        removed: list[str] = []
        if opts["blind"] and opts["blind_remove4"]:
            candidates = [i for i, m in enumerate(modules) if m != AUTHENTICATE]
            rng.shuffle(candidates)
            drop = set(candidates[:4])
            removed = sorted(modules[i] for i in drop)
            modules = [m for i, m in enumerate(modules) if i not in drop]
        return BreakerState(options=opts, rng=rng.state, board=[None] * CELLS,
                            hands=[list(STARTING_HAND), list(STARTING_HAND)], fresh=[[], []],
                            supplies=[list(POWER_SUPPLY), list(POWER_SUPPLY)], modules=modules, removed=removed,
                            destroyed=[])

    # --- the board -----------------------------------------------------------------------------------------------
    @staticmethod
    def _children(s: BreakerState) -> Counter[int]:
        return Counter(p.parent for p in s.board if p is not None)

    def leaves(self, s: BreakerState, owner: int | None = None) -> list[int]:
        """Cells of blocks with nothing plugged into them (of ``owner``, or of either player)."""
        parents = {p.parent for p in s.board if p is not None}
        return [c for c, p in enumerate(s.board)
                if p is not None and c not in parents and (owner is None or p.owner == owner)]

    @staticmethod
    def _all_inputs(s: BreakerState, seat: int) -> list[tuple[int, int]]:
        """Every input of ``seat`` (core and blocks) as (parent, cell), open or not (cells on the board only)."""
        board = s.board
        out = [(parent, cell) for owner, parent, cell in CORE_INPUTS if owner == seat]
        for c, p in enumerate(board):
            if p is not None and p.owner == seat:
                out.extend((c, t) for t in input_cells(c, p.parent, inputs_of(p.kind)) if t not in CORE)
        return out

    def open_inputs(self, s: BreakerState, seat: int, lifted: int = -1,
                    inputs: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
        """``seat``'s open inputs as (parent, cell) pairs: its core inputs and block inputs facing an empty cell.
        ``lifted``: a block being moved, whose cell counts as empty, whose own inputs are gone, and whose present
        input is not one to move to (a move goes to a *different* open input, which may face the same cell)."""
        board = s.board
        placed = board[lifted] if lifted >= 0 else None
        here = (placed.parent, lifted) if placed is not None else None
        return [(p, c) for p, c in (inputs if inputs is not None else self._all_inputs(s, seat))
                if p != lifted and (board[c] is None or c == lifted) and (p, c) != here]

    @staticmethod
    def circuit_of(s: BreakerState, cell: int) -> int:
        while cell not in CORE:
            placed = s.board[cell]
            assert placed is not None, f"a chain is broken at {cell_name(cell)}"
            cell = placed.parent
        return CORE[cell]

    def circuit_power(self, s: BreakerState) -> list[list[int]]:
        """Power by circuit then seat."""
        out = [[0, 0] for _ in CIRCUITS]
        for c, p in enumerate(s.board):
            if p is not None and not is_module(p.kind):
                out[self.circuit_of(s, c)][p.owner] += power_of(p.kind)
        return out

    def controllers(self, s: BreakerState) -> list[int | None]:
        return [0 if a > b else 1 if b > a else None for a, b in self.circuit_power(s)]

    def controlled(self, s: BreakerState, seat: int) -> int:
        return sum(1 for c in self.controllers(s) if c == seat)

    def _stuck(self, s: BreakerState, seat: int) -> bool:
        """Unable both to draw a power block and to add one (the rule that ends the game a turn later)."""
        if s.supplies[seat]:
            return False
        in_hand = any(not is_module(k) for k in s.hands[seat])
        return not in_hand or not self.open_inputs(s, seat)

    # --- whose turn -------------------------------------------------------------------------------------------
    def decisions(self, state: BreakerState) -> tuple[Decision, ...]:
        if state.phase == OVER:
            return ()
        seat = state.turn
        if state.pending:
            kind = state.pending[0].kind
            return (Decision(seat, kind.split("_")[0], PROMPTS[kind], followup=True,
                             private=state.options["blind"]),)
        left = "two actions" if state.actions == ACTIONS else "one more action"
        return (Decision(seat, "turn", f"Your turn: {left} (draw, play, move, or end).",
                         followup=state.actions < ACTIONS, private=state.options["blind"], default="end"),)

    def to_act(self, state: BreakerState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    # --- legal moves ---------------------------------------------------------------------------------------------
    def _drawable(self, s: BreakerState, seat: int) -> list[str]:
        """What ``seat`` may draw: distinct blocks of its supply, and modules that fit its hand limits."""
        out = sorted(set(s.supplies[seat]), key=_order)
        if s.options["blind"]:
            if any(self._fits(s, seat, m) for m in s.modules):
                out.append(MODULE)
        else:
            out += [m for m in MODULES if m in s.modules and self._fits(s, seat, m)]
        return out

    @staticmethod
    def _fits(s: BreakerState, seat: int, kind: str) -> bool:
        limit = hand_limit(kind)
        return limit is None or s.hands[seat].count(kind) < limit

    def _playable(self, s: BreakerState, seat: int) -> list[str]:
        """Distinct blocks of the hand that may be added now (not drawn this turn; one AUTHENTICATE a turn)."""
        counts = Counter(s.hands[seat])
        counts.subtract(s.fresh[seat])
        return sorted((k for k, n in counts.items() if n > 0 and not (k == AUTHENTICATE and s.authenticated)),
                      key=_order)

    def _placements(self, s: BreakerState, seat: int, lifted: int = -1) -> list[tuple[int, int]]:
        """(cell, parent) for each open input, parent -1 where the cell has only one open input facing it."""
        return _named(self.open_inputs(s, seat, lifted))

    def _movable(self, s: BreakerState, owner: int) -> list[int]:
        return [c for c in self.leaves(s, owner) if _kind(s, c) != AUTHENTICATE]

    def _targets(self, s: BreakerState, owner: int, src: int, inputs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Where ``owner``'s block at ``src`` may move: (cell, parent or -1 where one input faces the cell)."""
        return _named(self.open_inputs(s, owner, lifted=src, inputs=inputs))

    def _moves_of(self, s: BreakerState, owner: int, kind: str) -> list[Move]:
        inputs = self._all_inputs(s, owner)
        return [Move(kind, source=src, cell=cell, parent=parent) for src in self._movable(s, owner)
                for cell, parent in self._targets(s, owner, src, inputs)]

    def _automatable(self, s: BreakerState, seat: int) -> list[str]:
        out = sorted(set(s.supplies[seat]), key=_order)
        ok = [m for m in s.modules if m != AUTOMATE and not (m == AUTHENTICATE and s.authenticated)]
        if s.options["blind"]:
            out += [MODULE] if ok else []
        else:
            out += [m for m in MODULES if m in ok]
        return out

    def _returnable(self, s: BreakerState, owner: int) -> list[int]:
        return [c for c in self.leaves(s, owner) if _kind(s, c) not in (ATTENUATE, AUTHENTICATE)]

    def _keepable(self, s: BreakerState, seat: int, viewer: int) -> list[str]:
        """AGGRAVATE's keeps. In Blind Action modules are never named in a move (the log is public): your own are
        ``module1``, ``module2``… in the order you hold them, and the other hand's is ``module`` (one at random)."""
        hand = s.hands[seat]
        powers = sorted({k for k in hand if not is_module(k)}, key=_order)
        if not s.options["blind"]:
            return sorted(set(hand), key=_order)
        held = sum(1 for k in hand if is_module(k))
        if seat != viewer:
            return powers + ([MODULE] if held else [])
        return powers + [f"{MODULE}{i + 1}" for i in range(held)]

    def _pending_moves(self, s: BreakerState, seat: int, p: Pending) -> list[Move]:
        other = 1 - seat
        if p.kind == "annihilate":
            return [Move("destroy", cell=c) for c in self.leaves(s) if c != p.module and _kind(s, c) != AUTHENTICATE]
        if p.kind == "automate":
            places = self._placements(s, seat)
            return [Move("automate", block=k, cell=c, parent=par) for k in self._automatable(s, seat)
                    for c, par in places]
        if p.kind == "accelerate":
            return [Move("take", block=k) for k in self._drawable(s, seat)] + [STOP]
        if p.kind == "attenuate_mine":
            return [Move("return", cell=c) for c in self._returnable(s, seat) if c != p.module]
        if p.kind == "attenuate_theirs":
            return [Move("return", cell=c) for c in self._returnable(s, other)]
        if p.kind == "agitate":
            return self._moves_of(s, other, "rearrange") + [STOP]
        if p.kind == "aggravate_mine":
            return [Move("keep", block=k) for k in self._keepable(s, seat, seat)]
        return [Move("keep", block=k) for k in self._keepable(s, other, seat)]

    def legal_moves(self, state: BreakerState, seat: int) -> list[Move]:
        if state.phase == OVER or seat != state.turn:
            return []
        if state.pending:
            return self._pending_moves(state, seat, state.pending[0])
        out = [Move("draw", block=k) for k in self._drawable(state, seat)]
        places = self._placements(state, seat)
        out += [Move("play", block=k, cell=c, parent=p) for k in self._playable(state, seat) for c, p in places]
        out += self._moves_of(state, seat, "move")
        out.append(END)
        return out

    def sample_move(self, state: BreakerState, seat: int, rng: Rng) -> Move:
        """A uniformly random legal move, counting the choices of each kind instead of listing every move."""
        if state.phase == OVER or seat != state.turn:
            raise ValueError(f"seat {seat} has no legal move")
        if state.pending:
            moves = self._pending_moves(state, seat, state.pending[0])
            return moves[rng.below(len(moves))]
        draws = self._drawable(state, seat)
        playable = self._playable(state, seat)
        inputs = self._all_inputs(state, seat)
        places = _named(self.open_inputs(state, seat, inputs=inputs)) if playable else []
        # (src, how many places it may move to): counted, listed only for the one drawn
        targets = [(src, len(self.open_inputs(state, seat, src, inputs))) for src in self._movable(state, seat)]
        i = rng.below(len(draws) + len(playable) * len(places) + sum(n for _, n in targets) + 1)
        if i < len(draws):
            return Move("draw", block=draws[i])
        i -= len(draws)
        if i < len(playable) * len(places):
            cell, parent = places[i % len(places)]
            return Move("play", block=playable[i // len(places)], cell=cell, parent=parent)
        i -= len(playable) * len(places)
        for src, n in targets:
            if i < n:
                cell, parent = self._targets(state, seat, src, inputs)[i]
                return Move("move", source=src, cell=cell, parent=parent)
            i -= n
        return END

    def normalise_move(self, state: BreakerState, seat: int, move: Move) -> Move:
        """``from`` is optional where only one of your inputs faces the cell, and refused as ambiguous text."""
        if move.kind not in ("play", "automate", "move", "rearrange") or move.parent < 0:
            return move
        owner = 1 - seat if move.kind == "rearrange" else seat
        lifted = move.source if move.kind in ("move", "rearrange") else -1
        facing = [p for p, c in self.open_inputs(state, owner, lifted) if c == move.cell]
        if len(facing) == 1 and facing[0] == move.parent:
            return Move(move.kind, move.block, move.cell, move.source, -1)
        return move

    def why_illegal(self, state: BreakerState, seat: int, move: Move) -> str:
        if state.pending:
            return PROMPTS[state.pending[0].kind] + " That is not one of the choices."
        if move.kind in ("destroy", "automate", "take", "return", "rearrange", "keep", "stop"):
            return f"`{move.kind}` answers a command module; there is none to answer now."
        if move.kind == "draw":
            if move.block in MODULES or move.block == MODULE:
                return f"You can't draw {move.block}: none left, or your hand already holds its limit."
            return f"Your supply has no {move.block} left."
        if move.kind == "play":
            if move.block not in state.hands[seat]:
                return f"You have no {move.block} in your hand."
            if move.block in self._playable(state, seat) or move.block not in state.fresh[seat]:
                if move.block == AUTHENTICATE and state.authenticated:
                    return "Only one AUTHENTICATE may be added each turn."
                return self._why_not_there(state, seat, move)
            return f"You drew that {move.block} this turn: blocks can't be added on the turn they are drawn."
        if move.kind == "move":
            placed = state.board[move.source] if 0 <= move.source < CELLS else None
            if placed is None or placed.owner != seat:
                return f"You have no block at {cell_name(move.source)}."
            if placed.kind == AUTHENTICATE:
                return "AUTHENTICATE can't be moved."
            if move.source not in self.leaves(state):
                return "Only a block with nothing plugged into it can be moved."
            if move.cell == move.source and move.parent == placed.parent:
                return (f"Your {placed.kind} at {cell_name(move.source)} is plugged into {cell_name(placed.parent)} "
                        "already: a move takes it to a different input.")
            return self._why_not_there(state, seat, move)
        return "That move is not allowed now."

    def _why_not_there(self, state: BreakerState, seat: int, move: Move) -> str:
        """Why a block may not go to ``move.cell``: two inputs face it and the move names neither, or none does."""
        facing = [p for p, c in self.open_inputs(state, seat, move.source if move.kind == "move" else -1)
                  if c == move.cell]
        if len(facing) > 1 and move.parent < 0:
            names = " or ".join(f"`from {cell_name(p)}`" for p in facing)
            return f"Two of your inputs face {cell_name(move.cell)}: say which, {names}."
        return f"{cell_name(move.cell)} is not one of your open inputs."

    # --- applying ------------------------------------------------------------------------------------------------
    def perform(self, s: BreakerState, seat: int, move: Move, events: list[Event]) -> None:
        s.ply += 1
        if s.last is None or s.last.seat != seat or s.actions == ACTIONS and not s.pending:
            s.last = LastTurn(seat)  # (a new turn: also the same seat's again, when the other was stuck)
        s.last.moves.append(format_move(move))
        if s.pending:
            self._answer(s, seat, move, events)
        else:
            self._action(s, seat, move, events)
        self._settle(s, events)
        if s.phase == PLAY and not s.pending and s.actions <= 0:
            self._end_turn(s, events)

    def _rng(self, s: BreakerState) -> Rng:
        return Rng(s.rng)

    def _draw_random_module(self, s: BreakerState, fits: Any) -> str:
        """Blind Action: a random module of the neutral supply among those ``fits`` accepts."""
        choices = [i for i, m in enumerate(s.modules) if fits(m)]
        rng = self._rng(s)
        i = choices[rng.below(len(choices))]
        s.rng = rng.state
        return s.modules.pop(i)

    def _take(self, s: BreakerState, seat: int, kind: str) -> str:
        """Move ``kind`` from a supply into ``seat``'s hand (drawn this turn); returns what was taken."""
        if kind == MODULE:
            kind = self._draw_random_module(s, lambda m: self._fits(s, seat, m))
        elif is_module(kind):
            s.modules.remove(kind)
        else:
            s.supplies[seat].remove(kind)
        s.hands[seat].append(kind)
        s.fresh[seat].append(kind)
        return kind

    def _action(self, s: BreakerState, seat: int, move: Move, events: list[Event]) -> None:
        if move.kind == "end":
            s.actions = 0
            events.append(Event("end", seat, "{p%d} ended their turn." % seat))
            return
        s.actions -= 1
        if move.kind == "draw":
            kind = self._take(s, seat, move.block)
            shown = "a command module" if s.options["blind"] and is_module(kind) else _label(kind)
            events.append(Event("draw", seat, "{p%d} drew %s." % (seat, shown)))
        elif move.kind == "play":
            s.hands[seat].remove(move.block)
            self._place(s, seat, move.block, move.cell, move.parent, events, "added")
        elif move.kind == "move":
            self._relocate(s, seat, move, events)

    def _parent(self, s: BreakerState, owner: int, cell: int, parent: int, lifted: int = -1) -> int:
        if parent >= 0:
            return parent
        return next(p for p, c in self.open_inputs(s, owner, lifted) if c == cell)

    def _place(self, s: BreakerState, seat: int, kind: str, cell: int, parent: int, events: list[Event],
               verb: str) -> None:
        parent = self._parent(s, seat, cell, parent)
        s.board[cell] = Placed(kind, seat, parent)
        assert s.last is not None
        s.last.cells.append(cell)
        circuit = CIRCUITS[self.circuit_of(s, cell)]
        events.append(Event("add", seat, "{p%d} %s %s at %s (circuit %s)." % (seat, verb, _label(kind),
                                                                                cell_name(cell), circuit)))
        if is_module(kind):
            self._trigger(s, seat, kind, cell, events)

    def _relocate(self, s: BreakerState, owner: int, move: Move, events: list[Event]) -> None:
        placed = s.board[move.source]
        assert placed is not None
        parent = self._parent(s, owner, move.cell, move.parent, lifted=move.source)
        s.board[move.source] = None
        s.board[move.cell] = Placed(placed.kind, owner, parent)
        assert s.last is not None
        s.last.cells += [move.source, move.cell]
        circuit = CIRCUITS[self.circuit_of(s, move.cell)]
        name = _label(placed.kind)
        if move.cell == move.source:  # the same cell, plugged into another input
            text = "{p%d}'s %s at %s now plugs into %s (circuit %s)." % (
                owner, name, cell_name(move.cell), cell_name(parent), circuit)
        else:
            text = "{p%d}'s %s moved from %s to %s (circuit %s)." % (
                owner, name, cell_name(move.source), cell_name(move.cell), circuit)
        events.append(Event("move", owner, text))

    def _trigger(self, s: BreakerState, seat: int, kind: str, cell: int, events: list[Event]) -> None:
        if kind == AUTHENTICATE:
            s.authenticated = True
            on_board = sum(1 for p in s.board if p is not None and p.kind == AUTHENTICATE)
            if on_board >= 2:
                s.phase, s.reason = OVER, "the second AUTHENTICATE was added"
                s.pending.clear()
                events.append(Event("over", None, "The second AUTHENTICATE is in: the game is over."))
            return
        steps = {ANNIHILATE: [Pending("annihilate", module=cell)], AUTOMATE: [Pending("automate")],
                 ACCELERATE: [Pending("accelerate", left=3)],
                 ATTENUATE: [Pending("attenuate_mine", module=cell), Pending("attenuate_theirs")],
                 AGITATE: [Pending("agitate", left=2)],
                 AGGRAVATE: [Pending("aggravate_mine"), Pending("aggravate_theirs")]}[kind]
        s.pending[:0] = steps  # a module added by AUTOMATE resolves before anything still owed

    def _settle(self, s: BreakerState, events: list[Event]) -> None:
        """Drop follow-ups that have no choice left (a module with no target does nothing)."""
        while s.phase == PLAY and s.pending:
            p = s.pending[0]
            choices = self._pending_moves(s, s.turn, p)
            if p.left > 0 and any(m != STOP for m in choices):
                return
            s.pending.pop(0)
            if p.left > 0 and p.kind not in ("aggravate_mine", "aggravate_theirs"):
                events.append(Event("nothing", s.turn, "%s had no target." % p.kind.split("_")[0].upper()))

    def _answer(self, s: BreakerState, seat: int, move: Move, events: list[Event]) -> None:
        p = s.pending[0]
        other = 1 - seat
        p.left -= 1
        if move.kind == "stop":
            p.left = 0
        elif move.kind == "destroy":
            gone = s.board[move.cell]
            assert gone is not None
            s.board[move.cell] = None
            s.destroyed.append(gone.kind)
            assert s.last is not None
            s.last.cells.append(move.cell)
            events.append(Event("destroy", seat, "{p%d} destroyed {p%d}'s %s at %s." % (
                seat, gone.owner, _label(gone.kind), cell_name(move.cell))))
        elif move.kind == "automate":
            kind = move.block
            if kind == MODULE:
                kind = self._draw_random_module(s, lambda m: m != AUTOMATE and not (m == AUTHENTICATE and
                                                                                     s.authenticated))
            elif is_module(kind):
                s.modules.remove(kind)
            else:
                s.supplies[seat].remove(kind)
            s.pending.pop(0)  # AUTOMATE is answered; the module it adds may owe its own follow-ups
            self._place(s, seat, kind, move.cell, move.parent, events, "automated")
            return
        elif move.kind == "take":
            kind = self._take(s, seat, move.block)
            shown = "a command module" if s.options["blind"] and is_module(kind) else _label(kind)
            events.append(Event("draw", seat, "{p%d} took %s (ACCELERATE)." % (seat, shown)))
        elif move.kind == "return":
            gone = s.board[move.cell]
            assert gone is not None
            s.board[move.cell] = None
            (s.modules if is_module(gone.kind) else s.supplies[gone.owner]).append(gone.kind)
            assert s.last is not None
            s.last.cells.append(move.cell)
            events.append(Event("return", seat, "{p%d}'s %s at %s went back to the supply (ATTENUATE)." % (
                gone.owner, _label(gone.kind), cell_name(move.cell))))
        elif move.kind == "rearrange":
            self._relocate(s, other, move, events)
        elif move.kind == "keep":
            whose = seat if p.kind == "aggravate_mine" else other
            self._keep_only(s, whose, move.block, events)
        if p.left <= 0 and s.pending and s.pending[0] is p:
            s.pending.pop(0)

    def _keep_only(self, s: BreakerState, seat: int, kind: str, events: list[Event]) -> None:
        hand = s.hands[seat]
        mods = [k for k in hand if is_module(k)]
        if kind == MODULE:
            rng = self._rng(s)
            kind = mods[rng.below(len(mods))]
            s.rng = rng.state
        elif kind.startswith(MODULE):
            kind = mods[int(kind[len(MODULE):]) - 1]
        hand.remove(kind)
        for k in hand:
            (s.modules if is_module(k) else s.supplies[seat]).append(k)
        s.hands[seat] = [kind]
        s.fresh[seat] = [kind] if kind in s.fresh[seat] else []
        events.append(Event("aggravate", seat, "{p%d} keeps only one tile; the rest went back to the supply." % seat))

    def _end_turn(self, s: BreakerState, events: list[Event]) -> None:
        while True:
            s.fresh[s.turn] = []
            s.authenticated = False
            if s.final is not None and s.turn == s.final:
                s.phase, s.reason = OVER, "the last turn was played"
                return
            s.turn = 1 - s.turn
            s.actions = ACTIONS
            if s.turn == 0:
                s.round += 1
                if s.round > s.options["max_rounds"]:
                    s.phase, s.reason = OVER, f"the {s.options['max_rounds']}-round limit"
                    return
            if s.options["power_overwhelming"] and self.controlled(s, s.turn) >= 2:
                s.phase, s.reason, s.winner = OVER, "Power Overwhelming: two circuits at the start of a turn", s.turn
                events.append(Event("over", s.turn, "{p%d} starts their turn controlling two circuits." % s.turn))
                return
            if s.final is None and self._stuck(s, s.turn):
                s.final = 1 - s.turn
                events.append(Event("stuck", s.turn, "{p%d} can neither draw nor add a power block: their turn is "
                                    "over, and {p%d} takes the last turn." % (s.turn, 1 - s.turn)))
                continue
            return

    # --- result ----------------------------------------------------------------------------------------------------
    def result(self, state: BreakerState) -> Result | None:
        if state.phase != OVER:
            return None
        circuits = [float(self.controlled(state, p)) for p in (0, 1)]
        if state.winner is not None:
            return Result(tuple(circuits), (1, 2) if state.winner == 0 else (2, 1), frozenset({state.winner}),
                          state.reason)
        reason = f"circuits controlled ({state.reason})"
        if circuits[0] == circuits[1] and state.options["tiebreak"] == "total_power":
            reason += "; tie broken by total power"
        ranks = self.ranks_now(state)
        return Result(tuple(circuits), ranks, frozenset(p for p in (0, 1) if ranks[p] == 1), reason)

    def ranks_now(self, state: BreakerState) -> tuple[int, ...]:
        """More circuits controlled first; on equal circuits, with the ``total_power`` tiebreak, more total power."""
        circuits = [float(self.controlled(state, p)) for p in (0, 1)]
        keys: list[tuple[float, ...]] = [(circuits[p],) for p in (0, 1)]
        if circuits[0] == circuits[1] and state.options["tiebreak"] == "total_power":
            power = self.circuit_power(state)
            keys = [(circuits[p], float(sum(c[p] for c in power))) for p in (0, 1)]
        return rank_by(keys)

    def scores(self, state: BreakerState) -> list[float]:
        return [float(self.controlled(state, p)) for p in (0, 1)]

    # --- notation -------------------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    # --- menus -------------------------------------------------------------------------------------------------
    def previewed(self, decision: Decision, move: Move) -> bool:
        """Placing a block (play, move, AUTOMATE, AGITATE's rearrange) is previewed; drawing and the rest are not,
        nor AUTOMATE of a face-down module (Blind Action): its preview would show the random module to be drawn,
        and the player could go back on it."""
        if move.kind == "automate" and move.block == MODULE:
            return False
        return move.kind in ("play", "move", "automate", "rearrange")

    # --- views -----------------------------------------------------------------------------------------------------
    def view(self, state: BreakerState, seat: int | None) -> BreakerView:
        s = state
        blind = bool(s.options["blind"])
        children = self._children(s)
        power = self.circuit_power(s)
        controllers = self.controllers(s)
        blocks: list[BlockView] = []
        for c, p in enumerate(s.board):
            if p is None:
                continue
            blocks.append({"cell": cell_name(c), "kind": p.kind, "owner": p.owner, "parent": cell_name(p.parent),
                           "power": power_of(p.kind), "circuit": self.circuit_of(s, c),
                           "inputs": [cell_name(t) for t in input_cells(c, p.parent, inputs_of(p.kind))],
                           "leaf": not children[c]})

        def hand(p: int) -> list[str]:
            if blind and p != seat:
                return [MODULE if is_module(k) else k for k in s.hands[p]]
            return list(s.hands[p])

        circuits: list[CircuitView] = [{"power": list(power[i]), "controller": controllers[i]}
                                       for i in range(len(CIRCUITS))]
        result = self.result(s)
        pending = s.pending[0].kind if s.pending and s.phase == PLAY else ""
        decision = self.decision(s, s.turn)
        return {
            "game": self.key, "viewer": seat, "phase": s.phase, "ply": s.ply, "round": s.round,
            "max_rounds": s.options["max_rounds"], "turn": s.turn, "to_act": sorted(self.to_act(s)),
            "actions_left": s.actions if s.phase == PLAY else 0, "pending": pending,
            "prompt": decision.prompt if decision else "",
            "blocks": blocks,
            "open_inputs": [sorted({cell_name(c) for _, c in self.open_inputs(s, p)}) for p in (0, 1)],
            "circuits": circuits,
            "hands": [hand(p) for p in (0, 1)],
            "fresh": [[MODULE if blind and p != seat and is_module(k) else k for k in s.fresh[p]] for p in (0, 1)],
            "supplies": [sorted(s.supplies[p], key=_order) for p in (0, 1)],
            "modules": {} if blind else {m: s.modules.count(m) for m in MODULES if m in s.modules},
            "modules_left": len(s.modules),
            "destroyed": list(s.destroyed),
            "authenticated": sum(1 for p in s.board if p is not None and p.kind == AUTHENTICATE),
            "final": s.final, "blind": blind, "power_overwhelming": bool(s.options["power_overwhelming"]),
            "last": {"seat": s.last.seat, "moves": list(s.last.moves), "cells": [cell_name(c) for c in s.last.cells]}
            if s.last else None,
            "result": result.to_json() if result else None,
        }

    def determinize(self, state: BreakerState, seat: int, rng: Rng) -> BreakerState:
        """Blind Action hides the modules in the other hand, the neutral supply's make-up and the modules set
        aside: they are dealt again at random from the same pool (within the hand limits)."""
        out = self.clone(state)
        self.reseed(out, rng)
        if not out.options["blind"]:
            return out
        other = 1 - seat
        held = [k for k in out.hands[other] if is_module(k)]
        fresh = sum(1 for k in out.fresh[other] if is_module(k))
        pool = sorted(held + out.modules + out.removed)  # canonical before the shuffle: only the seat's view counts
        rng.shuffle(pool)
        hand: list[str] = []
        rest: list[str] = []
        for k in pool:
            limit = hand_limit(k) or 0
            (hand if len(hand) < len(held) and hand.count(k) < limit else rest).append(k)
        out.hands[other] = [k for k in out.hands[other] if not is_module(k)] + hand
        out.fresh[other] = [k for k in out.fresh[other] if not is_module(k)] + hand[:fresh]
        out.modules, out.removed = rest[:len(out.modules)], sorted(rest[len(out.modules):])
        return out

    def undoable(self, before: BreakerState, after: BreakerState, seat: int) -> bool:
        """Everything is open but Blind Action's modules in hand: an action or a module's pick can be taken back
        unless it drew on the generator (a random draw, AGGRAVATE's random keep) or, in Blind Action, a module of
        the seat's hand came onto the board face up (it showed the opponent which it was; one sent back to the
        hidden supply, as AGGRAVATE's keep does, shows nothing)."""
        if before.rng != after.rng:
            return False
        if not before.options["blind"]:
            return True
        gone = Counter(k for k in before.hands[seat] if is_module(k))
        gone.subtract(k for k in after.hands[seat] if is_module(k))
        shown = Counter(p.kind for p in after.board if p is not None and is_module(p.kind))
        shown.subtract(p.kind for p in before.board if p is not None and is_module(p.kind))
        return not any(n > 0 and shown[k] > 0 for k, n in gone.items())

    def private_info(self, state: BreakerState, seat: int) -> dict[str, Any]:
        """Only Blind Action hides anything: the modules in one's own hand."""
        if not state.options["blind"]:
            return {}
        return {"hand": sorted(state.hands[seat], key=_order)}

    def seat_count(self, state: BreakerState) -> int:
        return 2

_ORDER = {k: i for i, k in enumerate((*POWER, *MODULES, MODULE))}


def _named(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(cell, parent) for open inputs given as (parent, cell): parent -1 where only one input faces the cell."""
    facing: dict[int, int] = {}
    for _, cell in pairs:
        facing[cell] = facing.get(cell, 0) + 1
    return sorted((cell, parent if facing[cell] > 1 else -1) for parent, cell in pairs)


def _label(kind: str) -> str:
    """A block as events name it: a command module in capitals (ACCELERATE), a power block as written (2L)."""
    return kind.upper() if is_module(kind) else kind


def _kind(s: BreakerState, cell: int) -> str:
    placed = s.board[cell]
    return placed.kind if placed is not None else ""


def _order(kind: str) -> int:
    return _ORDER[kind]


def components() -> Counter[str]:
    """Every block of a game (both colored supplies with their starting hands, and the neutral supply)."""
    out: Counter[str] = Counter()
    for _ in range(2):
        out.update(POWER_SUPPLY)
        out.update(STARTING_HAND)
    out.update({m: MODULE_COPIES for m in MODULES})
    return out


__all__: Sequence[str] = ("BreakerBlocks", "BreakerState", "Move", "Pending", "Placed", "components",
                          "format_move", "parse_move")
