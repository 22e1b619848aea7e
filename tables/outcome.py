"""What the table service returns: plain data the Discord layer turns into messages.

Nothing here knows about Discord; a cog maps a :class:`Post` to an embed, a file and
components, and a :class:`Refusal` to a private reply.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, overload


class Refusal(Exception):
    """A request the service declines; ``str()`` is a clear message for the requester only."""


class StaleButton(Refusal):
    """The control was made for an earlier position of the game (the player is shown the current one)."""


STALE_MENU = "That menu is from an earlier position: the game has moved on since."
STALE_BUTTON = "That button is from an earlier position: the game has moved on since."
STALE_OWN = "That {control} was made before your last move, and your turn goes on from where that move left it."


class AlreadyPlayed(Refusal):
    """A second tap of a move the first tap has just played: nothing to show but that."""


@dataclass(frozen=True)
class Actor:
    """The person making a request."""

    user_id: int
    name: str
    can_manage: bool = False  # has Manage Channels where the table lives


class MoveWords(Protocol):
    """How a position words one seat's moves (``Game.format_move``, ``GameText.describe_move``,
    ``GameText.menu_groups``): what a lazily described :class:`Choice` asks when its notation or label is first read,
    and :class:`Offered` its menu groups."""

    def notation(self, move: Any) -> str: ...

    def label(self, move: Any) -> str: ...

    def groups(self, move: Any) -> tuple[str, ...]: ...

    def groups_of(self, moves: Sequence[Any]) -> list[tuple[str, ...]]:
        """``[groups(m) for m in moves]``, which a position may know for a whole list at once."""
        ...


class Choice:
    """One move offered: its notation, its label in words and the menu groups above it, outermost first (see
    ``GameText.menu_groups``). A choice made by :meth:`of_move` words its move (notation and label) only when read: a
    menu shows one level at a time, and a position may offer thousands of moves, most never shown."""

    __slots__ = ("_label", "_move", "_notation", "_words", "groups")

    def __init__(self, notation: str, label: str, groups: tuple[str, ...] = ()) -> None:
        self._notation: str | None = notation
        self._label: str | None = label
        self.groups = groups
        self._words: MoveWords | None = None
        self._move: Any = None

    @classmethod
    def of_move(cls, words: MoveWords, move: Any, groups: tuple[str, ...]) -> Choice:
        """The choice of ``move``, its notation and label asked of ``words`` when first read."""
        choice = cls.__new__(cls)
        choice._notation = choice._label = None
        choice.groups, choice._words, choice._move = groups, words, move
        return choice

    @property
    def notation(self) -> str:
        notation = self._notation
        if notation is None:
            assert self._words is not None
            notation = self._notation = self._words.notation(self._move)
        return notation

    @property
    def label(self) -> str:
        label = self._label
        if label is None:
            assert self._words is not None
            label = self._label = self._words.label(self._move)
        return label

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Choice) and (self.notation, self.label, self.groups) == \
            (other.notation, other.label, other.groups)

    def __hash__(self) -> int:
        return hash((self.notation, self.groups))

    def __repr__(self) -> str:
        return f"Choice({self.notation!r}, {self.label!r}, {self.groups!r})"


class Offered(Sequence[Choice]):
    """The moves a seat is offered in one position, as choices: each :class:`Choice` made when first read, and the
    menu groups of all of them worked out once when the menu's top level is laid out. A position may offer
    thousands of moves (BLOCK's drops) of which a menu shows a few, and positions are kept (``tables.core``): a
    choice object per move would be made, kept and walked by the garbage collector for nothing. Equal to any
    sequence of the same choices. ``Offered.of`` wraps choices already made."""

    __slots__ = ("_groups", "_made", "_moves", "_words", "menu")

    def __init__(self, moves: Sequence[Any], words: MoveWords) -> None:
        self._moves = moves
        self._words: MoveWords | None = words
        self._made: list[Choice | None] = [None] * len(moves)
        self._groups: list[tuple[str, ...]] | None = None
        self.menu: Any = None  # tables.menu's tree of these choices, once built (see build_menu)

    @classmethod
    def of(cls, choices: Sequence[Choice]) -> Offered:
        """``choices``, made already."""
        if isinstance(choices, Offered):
            return choices
        offered = cls.__new__(cls)
        offered._made = list(choices)
        offered._moves, offered._words, offered._groups, offered.menu = offered._made, None, None, None
        return offered

    @property
    def groups(self) -> list[tuple[str, ...]]:
        """Every choice's menu groups, by index (worked out once, without making the choices)."""
        groups = self._groups
        if groups is None:
            if self._words is None:
                groups = [c.groups for c in cast("list[Choice]", self._made)]  # (all made)
            elif not any(self._made):  # (nothing read yet: as a menu's top level is laid out)
                groups = self._words.groups_of(self._moves)
            else:
                of = self._words.groups
                groups = [of(m) if c is None else c.groups for m, c in zip(self._moves, self._made, strict=True)]
            self._groups = groups
        return groups

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, index: int) -> Choice: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Choice, ...]: ...

    def __getitem__(self, index: int | slice) -> Choice | tuple[Choice, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        choice = self._made[index]
        if choice is None:
            assert self._words is not None
            move = self._moves[index]
            groups = self._groups[index] if self._groups is not None else self._words.groups(move)
            choice = self._made[index] = Choice.of_move(self._words, move, groups)
        return choice

    def __iter__(self) -> Iterator[Choice]:
        for i in range(len(self._made)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Offered, tuple, list)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Offered({len(self)} choices)"


@dataclass(frozen=True)
class Controls:
    """Legal moves offered to one player, tied to the table version they were made for."""

    table_id: int
    version: int
    user_id: int | None  # who may use them; None for several (simultaneous) players
    choices: Sequence[Choice] = ()  # a tuple, or what a position offers (Offered)


PREVIEW_FILE = "preview.png"


@dataclass(frozen=True)
class Board:
    png: bytes
    alt: str  # the position in words, for screen readers (attachment description)
    filename: str = "board.png"  # PREVIEW_FILE for a preview of a pick not yet played


@dataclass
class Post:
    """A rich message: text, an embed-like card, maybe a board image and move controls."""

    content: str = ""
    title: str = ""
    description: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)
    footer: str = ""
    colour: int = 0x2B7A78
    board: Board | None = None
    controls: Controls | None = None
    panel_table: int | None = None  # offer the "my view" button for this table
    rematch_table: int | None = None  # offer a rematch of this (finished) table
    version: int | None = None  # a board: the table version it shows, stamped on its "My view" or "Rematch" button
    # so that a board posted just before a crash is found in the channel rather than posted again
    mention_ids: list[int] = field(default_factory=list)
    status_of: tuple[int, int] | None = None  # (table, turn): the turn's status message, edited rather than reposted
    attachments: list[tuple[str, bytes]] = field(default_factory=list)  # extra files: (filename, bytes)


@dataclass(frozen=True)
class DirectMessage:
    user_id: int
    table_id: int
    post: Post


@dataclass
class LobbyCard:
    """The lobby message: its text and whether its buttons are live."""

    table_id: int
    post: Post
    open: bool
    channel_id: int = 0  # where the game is played (a rematch lobby without a message yet is posted there)
    message_channel_id: int | None = None  # where the lobby message is, once posted
    message_id: int | None = None


@dataclass(frozen=True)
class LogPage:
    """One page of a table's move log (``/log``), oldest move first."""

    table_id: int
    title: str
    lines: tuple[str, ...]
    page: int  # from 1
    pages: int  # 0: not a page of the whole log but its latest moves (``/log count:N``), no paging
    footer: str


@dataclass
class Outcome:
    """Everything a request produced."""

    reply: str = ""  # a private answer to the requester
    played: bool = True  # a move asked for was carried out (False: the game cancelled it, and ``reply`` says why)
    reply_post: Post | None = None  # a private rich answer (e.g. /hand)
    public: list[Post] = field(default_factory=list)  # to the table's channel, in order
    dms: list[DirectMessage] = field(default_factory=list)
    lobby: LobbyCard | None = None  # the lobby message should now read like this
    table_id: int | None = None
    channel_id: int | None = None  # where ``public`` goes
    outbox: tuple[int, int] | None = None  # (table, version): once ``public`` and the lobby card are posted, tell
    # the service (:meth:`delivered`): what a change owes stays in the outbox until then
    tournament_id: int | None = None  # the tournament a request made (its posts are delivered from storage)
    owed: bool = False  # posted again from the outbox: a board may have reached the channel before the process
    # stopped, so the channel is looked at before it is posted
