"""The situation of a game: everything the platform needs to know about one position, worked out once.

Who acts, what each seat owes, the main line and what runs beside it, the decision the public board's controls are
for, who owes an answer and how long it may wait, whether a board is told, and what each seat is offered. A request
builds one :class:`Situation` per state it handles (the position it found, the one it leaves) and passes it to
everything that needs it, so the engine is asked once per position (``Game.decisions`` and ``Game.result`` once,
each seat's moves and menu once, a move's label only when it is shown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from engine.base import Decision, Game, Result, Turns
from storage import TableRow
from tables.menu import MenuNode, build_menu
from tables.outcome import Offered

DECISION_SECONDS = 12 * 3600  # how long an answer owed outside one's own turn waits on a table without a clock


@dataclass(eq=False)
class Situation:
    """One position of one game, with what the platform derives from it (computed on first use, then kept)."""

    game: Game[Any, Any, Any]
    state: Any
    decisions: tuple[Decision, ...]
    result: Result | None

    @classmethod
    def of(cls, game: Game[Any, Any, Any], state: Any) -> Situation:
        """The situation of ``state``: the engine's result, and its decisions (none once the game is over)."""
        result = game.result(state)
        return cls(game, state, () if result is not None else game.decisions(state), result)

    # --- who acts ---------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def simultaneous(self) -> bool:
        """The game's seats pick in secret and their picks are revealed together (``Turns.SIMULTANEOUS``): the one
        place the platform reads how a game's turns work."""
        return self.game.turns is Turns.SIMULTANEOUS

    @cached_property
    def to_act(self) -> frozenset[int]:
        """The seats the game waits on (``Game.to_act``): the main line's owers and the answers owed alongside."""
        return frozenset(d.seat for d in self.decisions if not d.beside or (d.alongside and not d.optional))

    @cached_property
    def may_act(self) -> frozenset[int]:
        """The seats that may move now (``Game.may_act``): those to act and those with an optional decision."""
        return self.to_act | frozenset(d.seat for d in self.decisions if d.optional)

    @cached_property
    def owed(self) -> dict[int, Decision]:
        return {d.seat: d for d in reversed(self.decisions)}  # a seat owes at most one: the first, if ever more

    def decision(self, seat: int) -> Decision | None:
        """What ``seat`` owes now, if anything (``Game.decision``)."""
        return self.owed.get(seat)

    def beside(self, seat: int) -> bool:
        """Whether ``seat``'s decision runs beside the main line (an answer alongside, an optional exchange)."""
        decision = self.decision(seat)
        return decision is not None and decision.beside

    def goes_on(self, seat: int) -> bool:
        """``seat``'s turn goes on privately after its move, with a follow-up (``Game.goes_on``)."""
        decision = self.decision(seat)
        return decision is not None and decision.followup and not self.over

    @cached_property
    def main_line(self) -> tuple[tuple[int, str], ...]:
        """Who owes what on the main line (decisions neither alongside nor optional)."""
        return tuple((d.seat, d.kind) for d in self.decisions if not d.beside)

    @cached_property
    def main_seats(self) -> frozenset[int]:
        """The seats on the main line, or else those to act: whose clock runs."""
        return frozenset(seat for seat, _ in self.main_line) or self.to_act

    @cached_property
    def board_decision(self) -> Decision | None:
        """The decision the public board's controls are for: the main line's, when one seat owes it."""
        main = [d for d in self.decisions if not d.beside]
        return main[0] if len(main) == 1 else None

    @cached_property
    def answering(self) -> frozenset[int]:
        """Seats owing an answer beside someone's turn (a trade offer), not those asked along with others of the same
        kind (Starts asked of all at once)."""
        return frozenset(d.seat for d in self.decisions if d.alongside and d.kind != self.decisions[0].kind)

    @cached_property
    def choosing(self) -> frozenset[int]:
        """Seats owing a choice outside their own turn (stop or allow, a split, a trade's answer): not "your turn"."""
        return frozenset(d.seat for d in self.decisions if d.clock == "decision")

    @cached_property
    def unnamed(self) -> frozenset[int]:
        """Seats asked a question whose asking is itself secret (``Decision.unnamed``): never named or mentioned in
        public, told by DM."""
        return frozenset(d.seat for d in self.decisions if d.unnamed)

    @cached_property
    def asked(self) -> dict[int, tuple[str, str]]:
        """What each seat is asked (its decision's kind and prompt): a seat asked something else has stale controls."""
        return {d.seat: (d.kind, d.prompt) for d in self.decisions}

    # --- the public record -------------------------------------------------------------------
    @cached_property
    def revealed_ply(self) -> int:
        return self.game.revealed_ply(self.state)

    @cached_property
    def ply(self) -> int:
        return self.game.ply(self.state)

    @cached_property
    def turn(self) -> object:
        """Which turn the game is in (``Game.turn_of``): a late turn played for its player ends where it changes."""
        return self.game.turn_of(self.state)

    def tells(self, before: Situation | None, mover: int | None) -> bool:
        """Whether this position, reached from ``before`` by ``mover``'s move (and whatever answered it), is told in
        the channel with a new board: not while the mover's turn goes on privately (a card just drawn, to place),
        nor after a secret pick of simultaneous picks (the public record did not move), unless the game ended.
        Without ``before`` (a start, a seat that changed hands) it is."""
        if mover is not None and self.goes_on(mover):
            return False
        return before is None or self.over or self.revealed_ply != before.revealed_ply

    # --- the clock ---------------------------------------------------------------------------
    def clock_seconds(self, table: TableRow) -> float | None:
        """The time the turn now owed gets on the table's clock (None: no clock). An answer owed outside one's own
        turn waits the table's `answers=` time, else its time per turn, else 12 hours, then takes its default: the
        game never waits forever on one player."""
        if self.decisions and self.decisions[0].answer:
            return table.answer_seconds or table.turn_seconds or DECISION_SECONDS
        return table.turn_seconds

    # --- moves from here -----------------------------------------------------------------------
    def apply(self, seat: int, move: Any) -> tuple[Any, list[Any]]:
        """``Game.apply`` from here, with the seats that may act already worked out."""
        return self.game.apply(self.state, seat, move, may_act=self.may_act)

    def previewed(self, seat: int, move: Any) -> bool:
        """Whether ``seat``'s pick of ``move`` is previewed before it is submitted (``Game.previewed``)."""
        decision = self.decision(seat)
        return decision is not None and self.game.previewed(decision, move)

    # --- what each seat is offered -----------------------------------------------------------
    def offered(self, seat: int) -> Offered:
        """The moves ``seat``'s menu offers (``Game.menu_moves``), each choice made when read, its notation and label
        worked out when they are (a menu shows one level at a time)."""
        offered = self._offered.get(seat)
        if offered is None:
            offered = self._offered[seat] = Offered(self.game.menu_moves(self.state, seat),
                                                    _Words(self.game, self.state, seat))
        return offered

    def menu(self, seat: int) -> MenuNode:
        """``seat``'s move menu (:func:`tables.menu.build_menu` of what it is offered), built once: the same tree the
        controls of this position show (their choices are this :class:`Offered`)."""
        return build_menu(self.offered(seat))

    @cached_property
    def _offered(self) -> dict[int, Offered]:
        return {}

    def moves_offered(self) -> int:
        """The moves offered in the menus worked out so far (what a kept position weighs, beside the position)."""
        return sum(len(offered) for offered in self._offered.values())


class _Words:
    """One seat's moves in one position in words (:class:`tables.outcome.MoveWords`), for its choices."""

    __slots__ = ("game", "groups", "seat", "state")

    def __init__(self, game: Game[Any, Any, Any], state: Any, seat: int) -> None:
        self.game, self.state, self.seat = game, state, seat
        # (a move's menu groups: asked of every move offered when a menu's top level is laid out)
        self.groups: Callable[[Any], tuple[str, ...]] = partial(game.text.menu_groups, state, seat)

    def notation(self, move: Any) -> str:
        return self.game.format_move(move)

    def label(self, move: Any) -> str:
        return self.game.text.describe_move(self.state, self.seat, move)

    def groups_of(self, moves: Sequence[Any]) -> list[tuple[str, ...]]:
        """Every move's menu groups, in order: the game's text may know them for its whole list at once
        (``menu_groups_of``, as BLOCK does for a seat's drops), else each move's are asked."""
        of = getattr(self.game.text, "menu_groups_of", None)
        if of is not None:
            groups: list[tuple[str, ...]] = of(self.state, self.seat, moves)
            return groups
        return list(map(self.groups, moves))
