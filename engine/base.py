"""The contract every game implements.

A game is one object (a :class:`Game` subclass) with no I/O, no clock and no global
random: everything it needs is in the arguments, and all randomness comes from a seeded
:class:`~engine.rng.Rng` kept inside the state. The platform (table service, bots,
renderers, tests) only talks to games through this contract.

Seats are numbered from 0. A move is a game-specific immutable value; its text form
(``format_move``) is what players type, what buttons carry and what the move log stores.
``parse_move(format_move(m)) == m`` for every legal move ``m``.

A game declares once how its turns work (:class:`Turns`), and says what is owed now as typed
:class:`Decision` values: who owes it, what kind, its prompt in words, whether a pick is previewed, and
what happens if nobody answers. The platform derives everything else from those two (whose turn it is,
whether the channel gets a new board, which log entries are still secret, whose controls went stale).
Multi-step actions are pending decisions too, so every step is one pick from ``legal_moves``.

A game's words for players (its summary, move labels and menu groups, the status line, the board in words) are not
part of its rules: they are its :class:`~engine.text.GameText`, ``Game.text``.

``apply`` is a template: the base class checks the move (game over, turn, legality through
:meth:`Game.is_legal`, a reason in words) and then calls the game's own :meth:`Game.perform`, which
changes a clone in place. Search code uses :meth:`Game.fast_apply` (no checks, no clone, no events),
:meth:`Game.sample_move` and :meth:`Game.determinize`, which never lets a seat learn what it cannot see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypedDict, TypeVar, cast, get_args, get_origin

from engine.rng import Rng
from engine.state import copy_state, dump_state, load_state
from engine.text import GameText

S = TypeVar("S")  # game state
M = TypeVar("M")  # move
V = TypeVar("V", bound=Mapping[str, Any])  # the game's view: a TypedDict its renderer reads as it is typed

FORMAT_VERSION = 1


class GameError(Exception):
    """Base of every error a player can cause; ``str(err)`` is shown to them."""


class NotationError(GameError):
    """The text is not a move in this game's notation."""


class IllegalMoveError(GameError):
    """The move is well formed but not allowed in this position."""


class NotYourTurnError(IllegalMoveError):
    """The seat has nothing to decide right now."""


class GameOverError(IllegalMoveError):
    """The game has ended; no more moves."""


class OptionError(GameError):
    """A game option has an unknown name or a value outside its choices."""


@dataclass(frozen=True)
class OptionSpec:
    """One typed game option with a default and, where finite, its choices."""

    name: str
    kind: type  # bool, int or str
    default: Any
    description: str
    choices: tuple[Any, ...] = ()  # a bool's are always (False, True), so that autocomplete offers both

    def __post_init__(self) -> None:
        if self.kind is bool and not self.choices:
            object.__setattr__(self, "choices", (False, True))

    def coerce(self, value: Any) -> Any:
        if self.kind is bool:
            if isinstance(value, bool):
                out: Any = value
            elif isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                out = True
            elif isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                out = False
            else:
                raise OptionError(f"Option `{self.name}` must be true or false, not {value!r}.")
        elif self.kind is int:
            try:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError(value)
                out = int(value)
            except (TypeError, ValueError):
                raise OptionError(f"Option `{self.name}` must be a whole number, not {value!r}.") from None
        else:
            out = str(value).strip().lower()
        if self.choices and out not in self.choices:
            allowed = ", ".join(str(c).lower() for c in self.choices)
            raise OptionError(f"Option `{self.name}` must be one of: {allowed} (got {value!r}).")
        return out


CANCEL = "cancel"  # an Event kind: the move was not carried out (see Event)


@dataclass(frozen=True)
class Event:
    """Something that happened while applying a move, for logs and the turn embed.

    Kind :data:`CANCEL`: a move asked for was not carried out after all (what came first stands, such as a roll
    it set off); its text says why and ``data["move"]`` names it. When it is the move just submitted, the mover is
    told so instead of "Played" (it may instead be one that waited on an answer, such as a Lookouts reroll)."""

    kind: str
    seat: int | None
    text: str  # in words, with seats written as {p0}, {p1}… for the caller to name
    data: Mapping[str, Any] = field(default_factory=dict)


class _ResultKeys(TypedDict):
    scores: list[float]
    ranks: list[int]
    winners: list[int]  # sorted
    reason: str


class ResultView(_ResultKeys, total=False):
    """:meth:`Result.to_json`: the result as views and stored games carry it. (Optional keys by ``total=False``:
    under ``from __future__ import annotations`` Python 3.11 does not see ``NotRequired``.)"""

    cooperative: bool  # only when true
    rung: str  # only when set


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game, for every kind of game.

    * competitive: ``winners`` are the seats ranked first (several when they tie and share the win);
    * cooperative (``cooperative=True``): every seat wins together, or ``winners`` is empty (everyone lost);
    * solo: one seat, whose ``rung`` names where the score lands on the game's ladder.

    ``ranks`` are competition ranks (1 = first; tied seats share a rank); in a cooperative game every seat
    shares rank 1, win or lose.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]  # 1 = first; tied seats share a rank
    winners: frozenset[int]  # may be empty (a cooperative loss)
    reason: str = ""
    cooperative: bool = False
    rung: str = ""  # solo games with a ladder: the rung reached

    @property
    def draw(self) -> bool:
        """Several seats share the win of a competitive game."""
        return not self.cooperative and len(self.winners) > 1

    def outcome(self, seat: int) -> str:
        """``"win"``, ``"shared win"`` (a competitive tie for first) or ``"loss"`` for ``seat``."""
        if seat not in self.winners:
            return "loss"
        return "shared win" if self.draw else "win"

    def to_json(self) -> ResultView:
        out: ResultView = {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": sorted(self.winners),
            "reason": self.reason,
        }
        if self.cooperative:
            out["cooperative"] = True
        if self.rung:
            out["rung"] = self.rung
        return out


class Turns(Enum):
    """How a game's turns work, declared once per game (``Game.turns``)."""

    SEQUENTIAL = "sequential"  # one seat decides at a time (besides answers owed alongside); moves are public
    SIMULTANEOUS = "simultaneous"  # the seats owing decisions pick in secret; the picks are revealed together


@dataclass(frozen=True)
class Decision:
    """One decision owed now: by whom, what kind, and how it is asked.

    ``kind`` is the game's own name for it (``"turn"``, ``"placement"``, ``"drop"``, ``"trade"``…); its
    choices are ``Game.legal_moves(state, seat)``. ``prompt`` says in words what to decide (with ``{pN}``
    seat placeholders). ``preview``: a pick here is shown to the seat privately before it is submitted.
    ``private``: the choices reveal what only this seat may see (a hand), so they are never shown in
    public. ``clock`` names the timer that limits it (``"turn"``: the table's turn clock; ``"decision"``:
    the shorter timeout for answers owed outside one's own turn) and ``default`` the move made for the
    seat when that timer runs out (``None``: the platform's policy for the table, e.g. a bot plays).
    The engine has no clock: deadlines are the platform's, computed from ``clock``. ``followup``: the decision
    continues the same seat's turn (Breaks: placing the card just drawn), so the channel gets one board when the
    turn ends, listing the whole turn, and the seat carries on privately. ``unnamed``: who is asked is itself
    secret (Bloc by Bloc: a question only a card's holder gets, which would say who holds the card), so the board
    says only that the game waits for an answer, and the seat is told privately, never mentioned in the channel.

    Two kinds of decision run beside the game's main line instead of taking their turn in it: ``alongside``, an
    answer owed while the main line goes on (Bloc by Bloc: a trade offered to a faction while the offering faction
    plays on; it has its clock and default like any other), and ``optional``, a chance to act that nothing waits
    for (the other side of an exchange may give or offer cards during someone else's turn): no clock, no default,
    no mention, and the seat is not "to act" (:meth:`Game.to_act`) but may act (:meth:`Game.may_act`).
    """

    seat: int
    kind: str
    prompt: str
    preview: bool = False
    private: bool = False
    followup: bool = False  # continues the same seat's turn: the channel hears of it with the turn's board
    clock: str = "turn"
    default: str | None = None  # a move in notation
    alongside: bool = False  # answered while the main line goes on; holds nothing up
    optional: bool = False  # the seat may act, nothing waits for it (beside the main line; no clock, no default)
    unnamed: bool = False  # who is asked is secret: never named or mentioned in public (implies ``private``)

    @property
    def beside(self) -> bool:
        """Not on the main line: ``alongside`` or ``optional``."""
        return self.alongside or self.optional

    @property
    def answer(self) -> bool:
        """A choice owed outside one's own turn (stop or allow, a split, a trade's answer): it runs on the answers'
        clock and takes its default when that runs out."""
        return self.clock == "decision" and self.default is not None


class _NoEvents(list):  # type: ignore[type-arg]
    """An event list that keeps nothing: simulation needs the new state, not the story."""

    def append(self, item: Any) -> None:
        pass

    def extend(self, items: Any) -> None:
        pass

    def __iadd__(self, items: Any) -> _NoEvents:  # type: ignore[misc,override]  # keeps nothing, returns itself
        return self


def rank_by(keys: Sequence[tuple[float, ...]]) -> tuple[int, ...]:
    """Competition ranking (1, 1, 3…) where a larger key is better."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


class Game(ABC, Generic[S, M, V]):
    """One game's rules. Subclasses set the class attributes and implement the methods."""

    key: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    turns: Turns = Turns.SEQUENTIAL  # how turns work (see Turns); the platform derives its behaviour from it
    hidden_information: bool = False  # some seat views differ from the public one (hands, secret picks)
    cooperative: bool = False  # every seat wins or loses together (its results say so too)
    tie: str = "shared win"  # what a tie for first is called in the game's rules ("draw" in Breaker Blocks)
    skippable: bool = True  # a turn has a default move, which a lobby's timeout=skip plays (else a bot plays it)
    state_type: type  # the state's dataclass, taken from ``Game[State, Move, View]``: what dump, load and clone copy
    text: GameText[S, M, V]  # the game's words for players (engine.text): a game with words sets its own in __init__

    def __init__(self) -> None:
        self.text = GameText(self)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if get_origin(base) is Game and isinstance(get_args(base)[0], type):
                cls.state_type = get_args(base)[0]

    # --- options -------------------------------------------------------------------
    def resolve_options(self, given: Mapping[str, Any] | None = None, seats: int | None = None) -> dict[str, Any]:
        """Fill defaults and validate; raises :class:`OptionError`."""
        given = dict(given or {})
        specs = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            raise OptionError(f"{self.name} has no option `{unknown[0]}`.")
        return {name: spec.coerce(given[name]) if name in given else spec.default for name, spec in specs.items()}

    def seat_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        """The numbers of players a table with these options can start with (Bloc by Bloc's semi-cooperative game:
        3 or 4 of the game's 2–4)."""
        out = []
        for n in range(self.min_players, self.max_players + 1):
            try:
                self.resolve_options(options, n)
            except GameError:
                continue
            out.append(n)
        return tuple(out)

    def plays_together(self, options: Mapping[str, Any]) -> bool:
        """Whether a table with these (resolved) options plays together against the game, every seat winning or losing
        as one: the class's ``cooperative``, unless an option changes it (Bloc by Bloc's semi-cooperative mode, where
        a faction may win alone). A finished game's :class:`Result` says it for that game."""
        return self.cooperative

    def check_seats(self, seats: int) -> None:
        if not self.min_players <= seats <= self.max_players:
            raise OptionError(f"{self.name} needs {self.min_players}–{self.max_players} players, not {seats}.")

    # --- the state machine ----------------------------------------------------------
    @abstractmethod
    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> S:
        """A fresh game. ``options`` are already resolved."""

    @abstractmethod
    def decisions(self, state: S) -> tuple[Decision, ...]:
        """Every decision owed now, in the order they are answered (empty once the game is over).

        SEQUENTIAL games owe one at a time; SIMULTANEOUS games one per seat still picking. Decisions marked
        ``alongside`` or ``optional`` come after the main line's and run beside it. A seat owes at most one decision
        at a time."""

    def to_act(self, state: S) -> frozenset[int]:
        """Seats the game waits on now: the owers of :meth:`decisions` on the main line, with the answers owed
        alongside; never the seats that only *may* act (``optional``).

        Games may override this with a faster equivalent; the contract tests check that they agree."""
        owed = self.decisions(state)
        return frozenset(d.seat for d in owed if not d.beside or (d.alongside and not d.optional))

    def may_act(self, state: S) -> frozenset[int]:
        """Seats that may make a move now: :meth:`to_act` and the seats with an ``optional`` decision."""
        return self.to_act(state) | frozenset(d.seat for d in self.decisions(state) if d.optional)

    def decision(self, state: S, seat: int) -> Decision | None:
        """The decision ``seat`` owes now, if any."""
        return next((d for d in self.decisions(state) if d.seat == seat), None)

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every move ``seat`` may make now, in a stable order (empty if none). All of them, truthfully: where a
        list is too long for a menu, the menu layer curates it (:meth:`menu_moves`)."""

    def is_legal(self, state: S, seat: int, move: M) -> bool:
        """Whether ``move`` (already normalised) is legal for ``seat`` now. The default looks it up in
        :meth:`legal_moves`; a game with long lists answers directly."""
        return move in self.legal_moves(state, seat)

    def menu_moves(self, state: S, seat: int) -> list[M]:
        """The moves a menu offers: all legal moves, unless a game curates a very long list (every legal move
        can still be typed)."""
        return self.legal_moves(state, seat)

    def search_moves(self, state: S, seat: int) -> list[M]:
        """The moves a bot chooses from: every legal move, unless a game leaves out moves that change nothing a
        search can value and would let a bot stall (Bloc by Bloc: trade offers, which only ask). Never empty when
        :meth:`legal_moves` is not."""
        return self.legal_moves(state, seat)

    def apply(self, state: S, seat: int, move: M, *, may_act: frozenset[int] | None = None
              ) -> tuple[S, list[Event]]:
        """Return the new state and events; never mutates ``state``.

        Raises :class:`IllegalMoveError` (or a subclass) and changes nothing if the move is not legal for
        ``seat``. Games implement :meth:`perform`, not this. ``may_act``: the seats that may move now, where the
        caller has worked them out already (the platform's situation of the position), so they are not again."""
        move = self.checked_move(state, seat, move, may_act=may_act)
        new = self.clone(state)
        events: list[Event] = []
        self.perform(new, seat, move, events)
        return new, events

    @abstractmethod
    def perform(self, state: S, seat: int, move: M, events: list[Event]) -> None:
        """The game's own rules: make the legal, normalised ``move`` on ``state`` in place, adding events."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else ``None``."""

    # --- notation ------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Text to move; raises :class:`NotationError` with a helpful message."""

    @abstractmethod
    def format_move(self, move: M) -> str:
        """Canonical text of a move."""

    def public_notation(self, notation: str) -> str:
        """How a move reads in the channel's log while the game runs: its notation, unless that names what only
        some seats may see (Bloc by Bloc: the cards of a gift or a trade). A finished game's log shows every move as
        it was played."""
        return notation

    def previewed(self, decision: Decision, move: M) -> bool:
        """Whether a pick of ``move``, answering ``decision``, is shown to the seat privately before it is
        submitted. The default: when the decision says so (``Decision.preview``); a game may preview only some of
        its moves (placing a block, not drawing one)."""
        return decision.preview

    # --- views ---------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> V:
        """JSON-safe view for ``seat``, or the public view when ``seat`` is None."""

    def preview_view(self, state: S, seat: int, move: M) -> V:
        """``seat``'s view with ``move`` made but nothing else: what a preview of an unsubmitted pick shows.

        The default applies the move. A game of simultaneous picks must not resolve the turn here (the last
        seat's preview would reveal the other seats' picks and the next roll), so it overrides this to apply
        the pick to the seat's own working copy only. Raises like :meth:`apply` when the move is illegal."""
        after, _ = self.apply(state, seat, move)
        return self.view(after, seat)

    def private_info(self, state: S, seat: int) -> dict[str, Any]:
        """What only ``seat`` sees: the entries of its view that differ from the public view.

        The platform DMs a player when this changes (e.g. their rack after they draw), not when
        the public position moves on.
        """
        if not self.hidden_information:  # every seat sees the public view: nothing to compare, nothing to DM
            return {}
        public = self.view(state, None)
        return {k: v for k, v in self.view(state, seat).items() if k != "viewer" and public.get(k) != v}

    def scores(self, state: S) -> list[float]:
        """Running scores by seat, for the embed; empty when the game has none."""
        return []

    def ranks_now(self, state: S) -> tuple[int, ...]:
        """The places as the position stands, by the game's own ranking of a finished game (competition ranks): what a
        game stopped early gets (a tournament round's deadline). The default ranks larger scores first; a cooperative
        game's seats share first place. Empty for a game without scores (its seats share the place)."""
        scores = self.scores(state)
        if self.cooperative:
            return (1,) * len(scores)
        return rank_by([(float(x),) for x in scores])

    # --- persistence ---------------------------------------------------------------
    def dump(self, state: S) -> dict[str, Any]:
        """JSON-safe dict including ``format``; ``load(dump(s))`` equals ``s``. The default writes ``format`` and
        ``game`` (the key), then the state's fields (:mod:`engine.state`)."""
        return dump_state(state, format=FORMAT_VERSION, game=self.key)

    def load(self, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`dump`; raises ``ValueError`` on an unknown format or another game's state."""
        if data.get("game") != self.key or data.get("format") != FORMAT_VERSION:
            raise ValueError(f"not a {self.name} state of format {FORMAT_VERSION}")
        return cast(S, load_state(self.state_type, data))

    # --- checking a move (shared by every game's ``apply``) ---------------------------
    def normalise_move(self, state: S, seat: int, move: M) -> M:
        """Fill in what a short form leaves out (e.g. a default target); may raise IllegalMoveError."""
        return move

    def why_illegal(self, state: S, seat: int, move: M) -> str:
        """The reason, in words a player understands, that ``move`` is not legal now."""
        return "That move is not allowed now."

    def checked_move(self, state: S, seat: int, move: M, *, may_act: frozenset[int] | None = None) -> M:
        """The move in canonical form if ``seat`` may play it now (``may_act``: the seats that may, where the caller
        knows them); otherwise the matching typed error."""
        if self.is_over(state):
            raise GameOverError("This game is already over.")
        if seat not in (self.may_act(state) if may_act is None else may_act):
            raise NotYourTurnError("It is not your turn.")
        move = self.normalise_move(state, seat, move)
        if not self.is_legal(state, seat, move):
            raise IllegalMoveError(self.why_illegal(state, seat, move))
        return move

    # --- search (bots, playouts) -----------------------------------------------------
    def clone(self, state: S) -> S:
        """An independent copy of ``state``, copying only its mutable parts (:func:`engine.state.copy_state`)."""
        return copy_state(state)

    def fast_apply(self, state: S, seat: int, move: M) -> None:
        """Make a legal move on ``state`` in place, for simulation: no checks, no clone, no events.

        Only for moves from :meth:`legal_moves` or :meth:`sample_move` of this very state."""
        self.perform(state, seat, move, _NoEvents())

    def sample_move(self, state: S, seat: int, rng: Rng) -> M:
        """A uniformly random legal move for ``seat`` (a game may draw one without listing them all, or among fewer:
        Bloc by Bloc leaves out the trade offers of several cards, 2^n of them for n cards in hand)."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move")
        return moves[rng.below(len(moves))]

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A full state consistent with everything ``seat`` can see, the rest drawn at random from ``rng``.

        Other seats' hidden hands and picks, the order of face-down piles and future random events are
        resampled, and the state's random generator is reseeded, so a search from the result never learns
        what ``seat`` could not know. The default (for games with nothing hidden but the future) only
        reseeds the generator; games with hidden information override it."""
        out = self.clone(state)
        self.reseed(out, rng)
        return out

    def reseed(self, state: S, rng: Rng) -> None:
        """Give ``state`` a fresh random generator drawn from ``rng`` (its ``rng`` field, by default)."""
        state.rng = rng.next64()  # type: ignore[attr-defined]

    def undoable(self, before: S, after: S, seat: int) -> bool:
        """Whether ``seat`` may take back the move that led from ``before`` to ``after`` (the platform has already
        checked that it was this seat's last move and that the seat is still to act). Never once it drew on the
        random generator (a die seen, a card dealt) or revealed hidden information: the default allows it only in
        games with nothing hidden, when the generator is untouched; games that know better say so."""
        return not self.hidden_information and getattr(before, "rng", None) == getattr(after, "rng", None)

    def seat_count(self, state: S) -> int:
        """How many seats the game has (its ``seats`` field, by default)."""
        return int(state.seats)  # type: ignore[attr-defined]

    def ply(self, state: S) -> int:
        """How many moves have been made (its ``ply`` field, by default)."""
        return int(state.ply)  # type: ignore[attr-defined]

    def revealed_ply(self, state: S) -> int:
        """How many of the moves so far are public. Below :meth:`ply` while simultaneous picks are still
        secret; the platform shows a new board when it changes and keeps the later log entries secret."""
        return self.ply(state)

    def turn_of(self, state: S) -> object:
        """Which turn the game is in, where a seat may owe the next one at once (``None``: no more than "the seats
        to act"). When a late player's turn is played for them, it stops where this changes: the next turn is
        theirs to play. By default a simultaneous turn is over when its picks are revealed."""
        return self.revealed_ply(state) if self.turns is Turns.SIMULTANEOUS else None

    # --- conveniences built on the contract ------------------------------------------
    def goes_on(self, state: S, seat: int) -> bool:
        """``seat``'s turn goes on privately after its move, with a follow-up (a card just drawn, to place): the
        channel sees no board of it until the turn ends."""
        decision = self.decision(state, seat)
        return decision is not None and decision.followup and not self.is_over(state)

    def is_over(self, state: S) -> bool:
        return self.result(state) is not None

    def replay(self, seats: int, options: Mapping[str, Any], seed: int, log: Sequence[tuple[int, str]]) -> S:
        """Rebuild a state from its move log of ``(seat, notation)`` pairs."""
        state = self.new_game(seats, options, seed)
        for seat, text in log:
            state, _ = self.apply(state, seat, self.parse_move(text))
        return state


def name_seats(text: str, names: Sequence[str]) -> str:
    """Replace {p0}, {p1}… placeholders in event or status text with names."""
    for i, name in enumerate(names):
        text = text.replace("{p%d}" % i, name)
    return text
