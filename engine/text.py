"""A game's words for players, kept beside its rules: ``Game.text`` (:class:`GameText`).

The rules (:class:`~engine.base.Game`) decide what may happen; the text object says it: the one-line summary of the
lobby, a tip for the chosen seats and options, each move's label and menu groups, the status line, the board in words
for screen readers and what a seat waiting on others is told. A game with words of its own subclasses
:class:`GameText` in ``engine/<game>/text.py``, which imports what it needs from the rules; the rules import it only to
attach it (``Game.__init__``). What is about rules or secrecy stays in the rules: ``public_notation``, ``previewed``,
``why_illegal`` and a decision's prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from engine.base import Game

S = TypeVar("S")  # game state
M = TypeVar("M")  # move
V = TypeVar("V", bound=Mapping[str, Any])  # the game's view


def players(low: int, high: int) -> str:
    """How many players a game seats, in words: "2 players", "2–4 players", "1 player"."""
    return plural(low, "player") if low == high else f"{low}–{high} players"


def player_counts(counts: Sequence[int]) -> str:
    """Some numbers of players in words: "3–4 players", "2 or 4 players", "2 players"."""
    if not counts:
        return "no number of players"
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return players(counts[0], counts[-1])
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]} players"


def plural(n: int, word: str, many: str = "") -> str:
    """``n`` and ``word`` agreeing: "1 cop", "2 cops", "0 cops" (``many``: an irregular plural)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


class GameText(Generic[S, M, V]):
    """A game's words for players. The defaults say nothing (a move's label is its notation); a game overrides what it
    has words for."""

    summary: str = ""  # one line on the lobby card

    def __init__(self, game: Game[S, M, V]) -> None:
        self.game = game

    def advice(self, seats: int, options: Mapping[str, Any]) -> str:
        """A tip shown in the lobby for this seat count and these options (empty for none)."""
        return ""

    def option_hint(self, option: str, value: str) -> str:
        """A few words on one choice of a lobby option, shown beside it where the option is typed (autocomplete):
        "" for none. Bloc by Bloc names each scenario and its goal."""
        return ""

    def describe_move(self, state: S, seat: int, move: M) -> str:
        """A short label in words for menus; defaults to the notation."""
        return self.game.format_move(move)

    def menu_groups(self, state: S, seat: int, move: M) -> tuple[str, ...]:
        """The menu groups ``move`` sits under, outermost first; its own label is :meth:`describe_move`.

        The default is none: a flat list. A game with many moves groups them (Blockers!: the tile,
        and for a wild tile the row) so that a player picks step by step, each step one select menu.
        """
        return ()

    def status_line(self, state: S) -> str:
        """One line describing the position, with {pN} seat placeholders."""
        return ""

    def alt_text(self, view: V, names: Sequence[str]) -> str:
        """The position in words, for the image description (screen readers)."""
        return ""

    def role(self, state: S, seat: int) -> str:
        """The part ``seat`` plays in this game, in words, for its record ("": none beyond its seat): Bloc by Bloc's
        factions, kept per faction in a player's history."""
        return ""

    def private_words(self, state: S, seat: int) -> str:
        """What ``seat`` holds that the others may not see, in words (its cards, its rack): the text of its private
        view, so that no one needs the picture to know their hand (a screen reader, a slow connection). "" when
        the seat holds nothing hidden."""
        return ""

    def final_words(self, state: S) -> str:
        """What the end post adds once the table is over, with {pN} seat placeholders ("": nothing): what was
        secret and now may be told (Bloc by Bloc's agendas). Also when the game did not reach its own end (its
        players left or gave up): ``state`` is then the position it stopped in."""
        return ""

    def idle_note(self, state: S, seat: int) -> str:
        """What a seat with nothing to decide now is told of its turn, beyond waiting ("": nothing): BLOCK tells a
        seat that a penalty passes it by."""
        return ""
