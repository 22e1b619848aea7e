"""The contract every game implements.

A game is one object (a :class:`Game` subclass) with no I/O, no clock and no global
random: everything it needs is in the arguments, and all randomness comes from a seeded
:class:`~engine.rng.Rng` kept inside the state. The platform (table service, bots,
renderers, tests) only talks to games through this contract.

Seats are numbered from 0. A move is a game-specific immutable value; its text form
(``format_move``) is what players type, what buttons carry and what the move log stores.
``parse_move(format_move(m)) == m`` for every legal move ``m``.

Multi-step actions are *pending decisions*: the state records what is owed and
``legal_moves`` lists the choices, so every step is one pick from a list.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

S = TypeVar("S")  # game state
M = TypeVar("M")  # move

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
    choices: tuple[Any, ...] = ()

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


@dataclass(frozen=True)
class Event:
    """Something that happened while applying a move, for logs and the turn embed."""

    kind: str
    seat: int | None
    text: str  # in words, with seats written as {p0}, {p1}… for the caller to name
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game."""

    scores: tuple[float, ...]
    ranks: tuple[int, ...]  # 1 = first; tied seats share a rank
    winners: frozenset[int]
    reason: str = ""

    @property
    def draw(self) -> bool:
        return len(self.winners) != 1

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": sorted(self.winners),
            "reason": self.reason,
        }


def rank_by(keys: Sequence[tuple[float, ...]]) -> tuple[int, ...]:
    """Competition ranking (1, 1, 3…) where a larger key is better."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


class Game(ABC, Generic[S, M]):
    """One game's rules. Subclasses set the class attributes and implement the methods."""

    key: str
    name: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()
    hidden_information: bool = False  # True: some seat views differ from the public one
    simultaneous: bool = False  # True: seats pick at once, and one seat's pick never changes what another may pick
    confirm_moves: bool = False  # True: a pick from the menu first shows its result privately, then Submit plays it
    summary: str = ""

    # --- options -------------------------------------------------------------------
    def resolve_options(self, given: Mapping[str, Any] | None = None, seats: int | None = None) -> dict[str, Any]:
        """Fill defaults and validate; raises :class:`OptionError`."""
        given = dict(given or {})
        specs = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            raise OptionError(f"{self.name} has no option `{unknown[0]}`.")
        return {name: spec.coerce(given[name]) if name in given else spec.default for name, spec in specs.items()}

    def check_seats(self, seats: int) -> None:
        if not self.min_players <= seats <= self.max_players:
            raise OptionError(f"{self.name} needs {self.min_players}–{self.max_players} players, not {seats}.")

    # --- the state machine ----------------------------------------------------------
    @abstractmethod
    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> S:
        """A fresh game. ``options`` are already resolved."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that owe a decision now (empty once the game is over)."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every move ``seat`` may make now, in a stable order (empty if none)."""

    @abstractmethod
    def apply(self, state: S, seat: int, move: M) -> tuple[S, list[Event]]:
        """Return the new state and events; never mutates ``state``.

        Raises :class:`IllegalMoveError` (or a subclass) and changes nothing if the
        move is not legal for ``seat``.
        """

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

    def describe_move(self, state: S, seat: int, move: M) -> str:
        """A short label in words for menus; defaults to the notation."""
        return self.format_move(move)

    def menu_groups(self, state: S, seat: int, move: M) -> tuple[str, ...]:
        """The menu groups ``move`` sits under, outermost first; its own label is :meth:`describe_move`.

        The default is none: a flat list. A game with many moves groups them (Blockers!: the tile,
        and for a wild tile the row) so that a player picks step by step, each step one select menu.
        """
        return ()

    # --- views ---------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """JSON-safe view for ``seat``, or the public view when ``seat`` is None."""

    def preview_view(self, state: S, seat: int, move: M) -> dict[str, Any]:
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
        public = self.view(state, None)
        return {k: v for k, v in self.view(state, seat).items() if k != "viewer" and public.get(k) != v}

    def new_board(self, old: S, new: S) -> bool:
        """Whether the channel gets a new board after the moves from ``old`` to ``new`` (default: always).

        A game of simultaneous picks shows nothing new until the turn resolves, so it answers no until then
        and the channel only hears the events (e.g. who is done)."""
        return True

    def secret_moves(self, state: S) -> int:
        """How many of the latest moves are still secret: ``/log`` shows that they happened, not what they were."""
        return 0

    def prompt(self, state: S, seat: int) -> str:
        """What ``seat`` decides now, in words, for its private view (empty: a generic line)."""
        return ""

    def status_line(self, state: S) -> str:
        """One line describing the position, with {pN} seat placeholders."""
        return ""

    def scores(self, state: S) -> list[float]:
        """Running scores by seat, for the embed; empty when the game has none."""
        return []

    def advice(self, seats: int, options: Mapping[str, Any]) -> str:
        """A tip shown in the lobby for this seat count and these options (empty for none)."""
        return ""

    def alt_text(self, view: Mapping[str, Any], names: Sequence[str]) -> str:
        """The position in words, for the image description (screen readers)."""
        return ""

    # --- persistence ---------------------------------------------------------------
    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]:
        """JSON-safe dict including ``format``; ``load(dump(s))`` equals ``s``."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`dump`; raises ``ValueError`` on an unknown format."""

    # --- checking a move (shared by every game's ``apply``) ---------------------------
    def normalise_move(self, state: S, seat: int, move: M) -> M:
        """Fill in what a short form leaves out (e.g. a default target); may raise IllegalMoveError."""
        return move

    def why_illegal(self, state: S, seat: int, move: M) -> str:
        """The reason, in words a player understands, that ``move`` is not legal now."""
        return "That move is not allowed now."

    def checked_move(self, state: S, seat: int, move: M) -> M:
        """The move in canonical form if ``seat`` may play it now; otherwise the matching typed error."""
        if self.is_over(state):
            raise GameOverError("This game is already over.")
        if seat not in self.to_act(state):
            raise NotYourTurnError("It is not your turn.")
        move = self.normalise_move(state, seat, move)
        if move not in self.legal_moves(state, seat):
            raise IllegalMoveError(self.why_illegal(state, seat, move))
        return move

    # --- conveniences built on the contract ------------------------------------------
    def is_over(self, state: S) -> bool:
        return self.result(state) is not None

    def play(self, state: S, seat: int, text: str) -> tuple[S, list[Event], M]:
        """Parse then apply: the common path for typed moves."""
        move = self.parse_move(text)
        new_state, events = self.apply(state, seat, move)
        return new_state, events, move

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
