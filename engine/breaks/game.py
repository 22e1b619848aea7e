"""Breaks: build five-card sequences by matching suit or rank; steal with drawn court cards.

Rules as in ``docs/games/breaks.md`` (our summary of the published rules plus the
project's decisions). A turn is either ``draw`` followed by one pending decision
(``place``, ``break`` or ``discard``), or one ``merge``. After the piles run out,
the final merge round lets each player merge as often as they can, then ``done``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.base import (
    Decision,
    Event,
    Game,
    IllegalMoveError,
    NotationError,
    OptionSpec,
    Result,
    rank_by,
)
from engine.breaks.cards import court_points, is_court, make_deck, matches, short, spoken
from engine.breaks.view import BreaksLast, BreaksView
from engine.rng import Rng
from engine.state import copy_state

SLOTS = 3
STACK = 5

PLAY, FINAL, OVER = "play", "final", "over"


@dataclass(frozen=True, order=True)
class Move:
    """One step. Slots and seats are 0-based here, 1-based in notation."""

    kind: str  # draw | place | discard | break | merge | done
    slot: int = -1  # place: my slot; merge: from-slot; break: the victim's slot
    target: int = -1  # merge: onto-slot; break: my slot (-1 = my first empty slot)
    player: int = -1  # break: the victim's seat


DRAW = Move("draw")
DISCARD = Move("discard")
DONE = Move("done")
PLACE = tuple(Move("place", slot=i) for i in range(SLOTS))
MERGE = tuple(tuple(Move("merge", slot=a, target=b) for b in range(SLOTS)) for a in range(SLOTS))


@dataclass
class BreaksState:
    seats: int
    options: dict[str, Any] = field(metadata={"shared": True})  # never mutated
    rng: int
    draw: list[str]  # the top of the pile is the end of the list
    discard: list[str]  # face down: each seat knows only its own discards (``discarded_by``)
    slots: list[list[list[str]]]  # [seat][slot] -> cards, bottom first
    stacks: list[list[list[str]]]  # [seat] -> completed stacks
    turn: int
    phase: str = PLAY
    pending: str | None = None  # the card just drawn, awaiting place/break/discard
    recycles_left: int = 0
    final_queue: list[int] = field(default_factory=list)  # final merge round, next first
    last: BreaksLast | None = field(default=None, metadata={"shared": True})  # what the last move touched
    ply: int = 0
    discarded_by: list[int] = field(default_factory=list)  # by card of ``discard``: its discarder (-1: unknown)

    def __post_init__(self) -> None:
        if len(self.discarded_by) < len(self.discard):  # (a position built by hand, or stored before the field)
            self.discarded_by = self.discarded_by + [-1] * (len(self.discard) - len(self.discarded_by))

    def clone(self) -> BreaksState:
        return copy_state(self)


def _copy_last(last: BreaksLast | None) -> BreaksLast | None:
    """A deep copy of ``last`` (its lists copied, the rest immutable), a tenth of the time of copy.deepcopy."""
    if last is None:
        return None
    return {**last, "touched": [pair[:] for pair in last["touched"]], "stacked": last["stacked"][:]}


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _slot_name(i: int) -> str:
    return f"slot {i + 1}"


class Breaks(Game[BreaksState, Move, BreaksView]):
    key = "breaks"
    name = "Breaks"
    min_players = 2
    max_players = 4
    hidden_information = True  # the discard pile is face down, and a drawn card is its drawer's until placed
    options = (
        OptionSpec("decks", int, 1, "Number of 52-card decks (2, 104 cards, is suggested for 4 players).", (1, 2)),
        OptionSpec("jokers", bool, False, "Add two wild Jokers per deck.", (False, True)),
        OptionSpec("aces_wild", bool, False, "Every Ace is wild.", (False, True)),
        OptionSpec("scoring", str, "standard", "standard: 1 per stack; court: +3 K, +2 Q, +1 J in stacks.",
                   ("standard", "court")),
        OptionSpec("recycles", int, 1, "How often the discard pile may be reshuffled into the draw pile.",
                   (0, 1, 2, 3)),
        OptionSpec("tiebreak", str, "none", "none: ties share the win; cards_left: more cards left wins a tie.",
                   ("none", "cards_left")),
    )

    def __init__(self) -> None:
        super().__init__()
        from engine.breaks.text import BreaksText  # (here: the words import the rules)

        self.text = BreaksText(self)

    # --- setup --------------------------------------------------------------------
    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> BreaksState:
        self.check_seats(seats)
        opts = self.resolve_options(options)
        rng = Rng(seed)
        deck = make_deck(opts["decks"], opts["jokers"])
        rng.shuffle(deck)
        slots = [[[deck.pop()] for _ in range(SLOTS)] for _ in range(seats)]
        first = rng.below(seats)
        return BreaksState(
            seats=seats,
            options=opts,
            rng=rng.state,
            draw=deck,
            discard=[],
            slots=slots,
            stacks=[[] for _ in range(seats)],
            turn=first,
            recycles_left=opts["recycles"],
        )

    # --- whose turn, what is legal --------------------------------------------------
    def decisions(self, state: BreaksState) -> tuple[Decision, ...]:
        if state.phase == OVER:
            return ()
        if state.phase == FINAL:
            seat = state.final_queue[0]
            return (Decision(seat, "final", "Final merge round: merge two of your sequences, or say you are done.",
                             default="done"),)
        if state.pending is not None:
            return (Decision(state.turn, "placement",
                             f"You drew {short(state.pending)}: place it, break with it, or discard it.",
                             private=True, default="discard", followup=True),)
        return (Decision(state.turn, "turn", "It's your turn.",
                         default="draw"),)

    def to_act(self, state: BreaksState) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        if state.phase == FINAL:
            return frozenset(state.final_queue[:1])
        return frozenset((state.turn,))

    def _wild(self, state: BreaksState) -> bool:
        return bool(state.options["aces_wild"])

    def _merges(self, state: BreaksState, seat: int) -> list[Move]:
        slots = state.slots[seat]
        wild = self._wild(state)
        out = []
        for a, moving in enumerate(slots):
            if moving:
                bottom = moving[0]
                out += [MERGE[a][b] for b, onto in enumerate(slots)
                        if a != b and onto and matches(bottom, onto[-1], wild)]
        return out

    def _breaks(self, state: BreaksState, seat: int, card: str) -> list[Move]:
        if not is_court(card):
            return []
        wild = self._wild(state)
        mine = state.slots[seat]
        out = []
        for victim in range(state.seats):
            if victim == seat:
                continue
            for vs, seq in enumerate(state.slots[victim]):
                if not seq or not matches(card, seq[-1], wild):
                    continue
                bottom = seq[0]
                for t in range(SLOTS):
                    if not mine[t] or matches(bottom, mine[t][-1], wild):
                        out.append(Move("break", slot=vs, target=t, player=victim))
        return out

    def legal_moves(self, state: BreaksState, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state.phase == FINAL:
            return self._merges(state, seat) + [DONE]
        if state.pending is None:
            return [DRAW] + self._merges(state, seat)
        card = state.pending
        wild = self._wild(state)
        places = [PLACE[i] for i, seq in enumerate(state.slots[seat]) if not seq or matches(card, seq[-1], wild)]
        return places + self._breaks(state, seat, card) + [DISCARD]

    # --- applying -------------------------------------------------------------------
    def normalise_move(self, state: BreaksState, seat: int, move: Move) -> Move:
        """Fill a break's default target: the breaker's first empty slot."""
        if move.kind == "break" and move.target == -1 and state.pending is not None and is_court(state.pending):
            empty = [i for i, seq in enumerate(state.slots[seat]) if not seq]
            if not empty:
                raise IllegalMoveError("You have no empty slot: say which of your slots it goes onto, "
                                       "e.g. `break P2 1 onto 3`.")
            return Move("break", slot=move.slot, target=empty[0], player=move.player)
        return move

    def perform(self, s: BreaksState, seat: int, move: Move, events: list[Event]) -> None:
        s.ply += 1
        fmt = self.format_move(move)
        if move.kind == "draw":
            self._draw(s, seat, events)
            s.last = {"seat": seat, "move": fmt, "card": s.pending, "touched": [], "stacked": []}
            return
        if move.kind == "done":
            events.append(Event("done", seat, "{p%d} is done merging." % seat))
            s.final_queue.pop(0)
            s.last = {"seat": seat, "move": fmt, "card": None, "touched": [], "stacked": []}
            self._advance_final(s, events)
            return

        touched: list[list[int]] = []
        stacked: list[int] = []
        card: str | None = None
        if move.kind == "merge":
            src, dst = s.slots[seat][move.slot], s.slots[seat][move.target]
            events.append(Event("merge", seat, "{p%d} merged %s (%s) onto %s." % (
                seat, _slot_name(move.slot), _cards(len(src)), _slot_name(move.target)), {"move": fmt}))
            s.slots[seat][move.target] = dst + src
            s.slots[seat][move.slot] = []
            touched = [[seat, move.slot], [seat, move.target]]
            stacked = self._stack_up(s, seat, move.target, events)
        else:
            card = s.pending
            assert card is not None
            s.pending = None
            if move.kind == "place":
                s.slots[seat][move.slot].append(card)
                events.append(Event("place", seat, "{p%d} placed %s on %s." % (
                    seat, short(card), _slot_name(move.slot)), {"card": card, "move": fmt}))
                touched = [[seat, move.slot]]
                stacked = self._stack_up(s, seat, move.slot, events)
            elif move.kind == "discard":
                s.discard.append(card)  # face down: the words name no card
                s.discarded_by.append(seat)
                events.append(Event("discard", seat, "{p%d} discarded a card." % seat, {"move": fmt}))
            else:  # break
                stolen = s.slots[move.player][move.slot] + [card]
                s.slots[move.player][move.slot] = []
                s.slots[seat][move.target] = s.slots[seat][move.target] + stolen
                events.append(Event("break", seat, "{p%d} broke {p%d}'s %s with %s and took %s to %s." % (
                    seat, move.player, _slot_name(move.slot), short(card), _cards(len(stolen)),
                    _slot_name(move.target)),
                    {"card": card, "victim": move.player, "move": fmt}))
                touched = [[move.player, move.slot], [seat, move.target]]
                stacked = self._stack_up(s, seat, move.target, events)
            if not s.draw and (s.recycles_left == 0 or not s.discard):
                self._start_final(s, seat, events)
        s.last = {"seat": seat, "move": fmt, "card": card, "touched": touched, "stacked": stacked}
        if s.phase == PLAY:
            s.turn = (seat + 1) % s.seats
        elif s.phase == FINAL and move.kind == "merge" and not self._merges(s, seat):
            s.final_queue.pop(0)
            events.append(Event("done", seat, "{p%d} has no merges left." % seat))
            self._advance_final(s, events)

    def determinize(self, state: BreaksState, seat: int, rng: Rng) -> BreaksState:
        """What ``seat`` cannot see drawn afresh: the cards of the draw pile and of the others' discards (face down)
        are dealt again at random into the same places (with a card another seat holds, drawn and not placed), and
        the shuffles to come are reseeded. The seat's own discards, every tableau and every count stay."""
        s = state.clone()
        hidden = [i for i, by in enumerate(s.discarded_by) if by != seat]
        held = s.pending is not None and s.turn != seat
        pool = s.draw + [s.discard[i] for i in hidden] + ([s.pending] if held and s.pending else [])
        pool.sort()  # a canonical order first, so that only what the seat sees matters
        rng.shuffle(pool)
        n = len(s.draw)
        s.draw = pool[:n]
        for k, i in enumerate(hidden):
            s.discard[i] = pool[n + k]
        if held:
            s.pending = pool[-1]
        last = s.last
        if last is not None and last["seat"] != seat and last["move"] in ("draw", "discard") and last["card"]:
            s.last = {**last, "card": s.pending if last["move"] == "draw" else s.discard[-1]}
        self.reseed(s, rng)
        return s

    def _draw(self, s: BreaksState, seat: int, events: list[Event]) -> None:
        if not s.draw:
            # The play phase ends as soon as the pile cannot be refilled, so a refill is possible here.
            self.refill(s)
            events.append(Event("recycle", None, "The discard pile (%d cards) was shuffled into a new draw pile."
                                % len(s.draw), {"cards": len(s.draw)}))
        s.pending = s.draw.pop()
        events.append(Event("draw", seat, "{p%d} drew a card." % seat))  # (its drawer alone sees it until placed)

    def refill(self, s: BreaksState) -> None:
        """The discard pile, shuffled by the state's generator, becomes the draw pile (a recycle)."""
        rng = Rng(s.rng)
        s.draw, s.discard, s.discarded_by = s.discard, [], []
        rng.shuffle(s.draw)
        s.rng = rng.state
        s.recycles_left -= 1

    def _stack_up(self, s: BreaksState, seat: int, slot: int, events: list[Event]) -> list[int]:
        seq = s.slots[seat][slot]
        if len(seq) < STACK:
            return []
        stack, rest = seq[:STACK], seq[STACK:]
        s.stacks[seat].append(stack)
        s.slots[seat][slot] = rest
        points = self._stack_points(s, stack)
        events.append(Event("stack", seat, "{p%d} completed a stack on %s (+%d)." % (seat, _slot_name(slot), points),
                            {"stack": stack, "points": points}))
        return [seat]

    def _stack_points(self, s: BreaksState, stack: list[str]) -> int:
        return 1 + (court_points(stack) if s.options["scoring"] == "court" else 0)

    def _start_final(self, s: BreaksState, last_seat: int, events: list[Event]) -> None:
        s.phase = FINAL
        s.final_queue = [(last_seat + 1 + i) % s.seats for i in range(s.seats)]
        events.append(Event("final", None, "The cards have run out: final merge round."))
        self._advance_final(s, events)

    def _advance_final(self, s: BreaksState, events: list[Event]) -> None:
        """Skip players with no legal merge; end the game when nobody is left."""
        while s.final_queue and not self._merges(s, s.final_queue[0]):
            s.final_queue.pop(0)
        if not s.final_queue:
            s.phase = OVER
            events.append(Event("over", None, "Game over."))

    def why_illegal(self, s: BreaksState, seat: int, move: Move) -> str:
        wild = self._wild(s)
        if s.phase == FINAL and move.kind != "merge" and move.kind != "done":
            return "The cards have run out: you may only `merge` or say `done`."
        if move.kind == "done":
            return "`done` is only for the final merge round."
        if s.pending is not None and move.kind in ("draw", "merge"):
            return f"You drew {short(s.pending)}: `place` it, `break` with it, or `discard` it."
        if s.pending is None and move.kind in ("place", "discard", "break"):
            return "Draw a card first (`draw`), or `merge` two of your sequences."
        named = {"place": [move.slot], "merge": [move.slot, move.target],
                 "break": [move.slot] + ([move.target] if move.target != -1 else [])}.get(move.kind, [])
        if any(not 0 <= value < SLOTS for value in named):
            return "Slots are numbered 1 to 3."
        mine = s.slots[seat]
        if move.kind == "merge":
            a, b = move.slot, move.target
            if a == b:
                return "Merge two different slots."
            if not mine[a] or not mine[b]:
                return "Both slots of a merge must hold cards."
            return (f"The bottom card of {_slot_name(a)} ({short(mine[a][0])}) does not match the top card of "
                    f"{_slot_name(b)} ({short(mine[b][-1])}).")
        card = s.pending or ""
        if move.kind == "place":
            return f"{short(card)} does not match the top of {_slot_name(move.slot)} ({short(mine[move.slot][-1])})."
        if move.kind == "break":
            if not is_court(card):
                return f"Only a Jack, Queen or King drawn from the pile can break; you drew {short(card)}."
            if not 0 <= move.player < s.seats:
                return f"There is no P{move.player + 1} in this game: the players are P1 to P{s.seats}."
            if move.player == seat:
                return (f"Break an opponent's sequence, not your own (you are P{seat + 1}): e.g. "
                        f"`break P{(seat + 1) % s.seats + 1} 1 onto 3`.")
            theirs = s.slots[move.player][move.slot]
            if not theirs:
                return f"Player {move.player + 1}'s {_slot_name(move.slot)} is empty."
            if not matches(card, theirs[-1], wild):
                return f"{short(card)} does not match the top of that sequence ({short(theirs[-1])})."
            return (f"The stolen sequence does not fit: its bottom card {short(theirs[0])} does not match the top "
                    f"of your {_slot_name(move.target)} ({short(mine[move.target][-1])}).")
        return "That move is not allowed now."

    # --- result ---------------------------------------------------------------------
    def scores(self, state: BreaksState) -> list[int]:  # type: ignore[override]
        return [sum(self._stack_points(state, st) for st in state.stacks[p]) for p in range(state.seats)]

    def cards_left(self, state: BreaksState) -> list[int]:
        return [sum(len(seq) for seq in state.slots[p]) for p in range(state.seats)]

    def ranks_now(self, state: BreaksState) -> tuple[int, ...]:
        """Most points first; on equal points, with the ``cards_left`` tiebreak, more cards left in the slots."""
        scores = self.scores(state)
        if state.options["tiebreak"] == "cards_left":
            left = self.cards_left(state)
            return rank_by([(scores[p], left[p]) for p in range(state.seats)])
        return rank_by([(scores[p],) for p in range(state.seats)])

    def result(self, state: BreaksState) -> Result | None:
        if state.phase != OVER:
            return None
        scores = self.scores(state)
        ranks = self.ranks_now(state)
        winners = frozenset(p for p in range(state.seats) if ranks[p] == 1)
        if len(winners) > 1:
            reason = "tie: the win is shared"
        elif sorted(scores)[-2:].count(max(scores)) > 1:  # tied on points, the tiebreak decided
            reason = "more cards left in the slots (equal points)"
        else:
            reason = "most points"
        return Result(scores=tuple(float(x) for x in scores), ranks=ranks, winners=winners, reason=reason)

    # --- notation -------------------------------------------------------------------
    _RE = {
        "draw": re.compile(r"^(?:draw|d)$"),
        "discard": re.compile(r"^(?:discard|x)$"),
        "done": re.compile(r"^(?:done|pass)$"),
        "place": re.compile(r"^(?:place|p)\s+(?:slot\s*)?(\d+)$"),
        "merge": re.compile(r"^(?:merge|m)\s+(?:slot\s*)?(\d+)\s+(?:onto\s+|on\s+|>\s*)?(?:slot\s*)?(\d+)$"),
        "break": re.compile(r"^(?:break|b)\s+p?(\d+)\s+(?:slot\s*)?(\d+)(?:\s+(?:onto|on|>)\s*(?:slot\s*)?(\d+))?$"),
    }
    HELP = ("Moves look like `draw`, `place 2`, `discard`, `break P2 1 onto 3`, `merge 1 onto 2`, "
            "or `done` in the final merge round.")

    def parse_move(self, text: str) -> Move:
        t = " ".join(text.strip().lower().split())
        for kind in ("draw", "discard", "done"):
            if self._RE[kind].match(t):
                return Move(kind)
        m = self._RE["place"].match(t)
        if m:
            return Move("place", slot=self._slot(m.group(1)))
        m = self._RE["merge"].match(t)
        if m:
            return Move("merge", slot=self._slot(m.group(1)), target=self._slot(m.group(2)))
        m = self._RE["break"].match(t)
        if m:
            player = int(m.group(1)) - 1
            if player < 0 or player >= self.max_players:  # (past this table's seats: why_illegal names them)
                raise NotationError(f"There is no player {m.group(1)}: {self.name} seats P1 to P{self.max_players} "
                                    "at most.")
            target = self._slot(m.group(3)) if m.group(3) else -1
            return Move("break", slot=self._slot(m.group(2)), target=target, player=player)
        raise NotationError(f"I don't understand `{text.strip()[:40]}`. {self.HELP}")

    @staticmethod
    def _slot(digits: str) -> int:
        n = int(digits)
        if not 1 <= n <= SLOTS:
            raise NotationError(f"There is no slot {n}; slots are numbered 1 to {SLOTS}.")
        return n - 1

    def format_move(self, move: Move) -> str:
        if move.kind == "place":
            return f"place {move.slot + 1}"
        if move.kind == "merge":
            return f"merge {move.slot + 1} onto {move.target + 1}"
        if move.kind == "break":
            tail = f" onto {move.target + 1}" if move.target >= 0 else ""
            return f"break P{move.player + 1} {move.slot + 1}{tail}"
        return move.kind

    # --- views ----------------------------------------------------------------------
    def view(self, state: BreaksState, seat: int | None) -> BreaksView:
        # Every tableau is public. Hidden: the draw order, every discard but the seat's own (the pile is face down),
        # and a card drawn and not yet placed, but from its drawer.
        res = self.result(state)
        scores = self.scores(state)
        left = self.cards_left(state)
        o = state.options
        return {
            "game": self.key,
            "viewer": seat,
            "phase": state.phase,
            "ply": state.ply,
            "turn": state.turn,
            "to_act": sorted(self.to_act(state)),
            "players": [
                {"slots": [list(seq) for seq in state.slots[p]], "stacks": [list(st) for st in state.stacks[p]],
                 "stack_points": [self._stack_points(state, st) for st in state.stacks[p]],
                 "score": scores[p], "cards_left": left[p]}
                for p in range(state.seats)
            ],
            "draw_pile": len(state.draw),
            "discard_pile": len(state.discard),
            "my_discards": [c for c, by in zip(state.discard, state.discarded_by, strict=True) if by == seat]
            if seat is not None else [],
            "recycles_left": state.recycles_left,
            "pending": state.pending if seat is not None and seat == state.turn else None,
            "pending_seat": state.turn if state.pending else None,
            "final_queue": list(state.final_queue),
            "last": self._last_seen(state.last, seat),
            "last_said": self.said(state.last, seat) if state.last else "",
            "options": {"decks": o["decks"], "jokers": o["jokers"], "aces_wild": o["aces_wild"],
                        "scoring": o["scoring"], "recycles": o["recycles"], "tiebreak": o["tiebreak"]},
            "result": res.to_json() if res else None,
        }

    @staticmethod
    def _last_seen(last: BreaksLast | None, seat: int | None) -> BreaksLast | None:
        """``last`` as ``seat`` sees it: a card drawn, or discarded face down, only by the seat that did it."""
        out = _copy_last(last)
        if out is not None and out["move"] in ("draw", "discard") and out["seat"] != seat:
            out["card"] = None
        return out

    def said(self, last: BreaksLast, seat: int | None = None) -> str:
        """The move ``last`` records, in words, to follow its player's name, as ``seat`` may know it (None: everyone):
        a card drawn or discarded is named only to the seat that drew or discarded it."""
        move = self.parse_move(last["move"])
        seen = self._last_seen(last, seat)
        assert seen is not None
        card = spoken(seen["card"]) if seen["card"] else "the card"
        if move.kind == "draw":
            return f"drew the {card}" if seen["card"] else "drew a card"
        if move.kind == "done":
            return "is done merging"
        if move.kind == "discard":
            return f"discarded the {card}" if seen["card"] else "discarded a card, face down"
        if move.kind == "place":
            return f"placed the {card} on slot {move.slot + 1}"
        if move.kind == "merge":
            return f"merged slot {move.slot + 1} onto slot {move.target + 1}"
        return f"broke P{move.player + 1}'s slot {move.slot + 1} with the {card}, onto slot {move.target + 1}"

    def undoable(self, before: BreaksState, after: BreaksState, seat: int) -> bool:
        """A draw shows the next card of the face-down pile: never taken back (any other move in play ends the turn;
        a merge of the final round reveals nothing and may be)."""
        return len(before.draw) == len(after.draw) and before.rng == after.rng

    def private_info(self, state: BreaksState, seat: int) -> dict[str, Any]:
        """What is worth telling ``seat`` privately: the card it holds, drawn and not yet placed (its drawer gets it
        with its next step anyway). The seat's own discards differ from the public view too, but they are its own
        moves' doing: a message after each discard would tell it nothing new."""
        return {"pending": state.pending} if state.pending is not None and seat == state.turn else {}

    def dump(self, state: BreaksState) -> dict[str, Any]:
        """As the default, without ``discarded_by`` when no discarder is known (as stored before the field)."""
        out = super().dump(state)
        if all(by == -1 for by in state.discarded_by):
            del out["discarded_by"]
        return out

    def load(self, data: Mapping[str, Any]) -> BreaksState:
        """As the default; a game stored before ``discarded_by`` knows no discarder (each discard stays hidden from
        everyone)."""
        if "discarded_by" not in data and "discard" in data:
            data = {**data, "discarded_by": [-1] * len(data["discard"])}
        return super().load(data)

    def turn_of(self, state: BreaksState) -> object:
        """In the final merge round a seat merges as often as it likes, then says `done`: its turn is its place
        at the head of the queue (in play, a turn ends where a move is not followed up)."""
        return ("final", len(state.final_queue)) if state.phase == "final" else None
