"""Legal moves as a menu of small steps, so that every step fits one Discord select (25 options).

A move's :attr:`Choice.groups` place it in a tree (Blockers!: tile → row → square). Any level
with more than :data:`MAX_OPTIONS` entries is split into consecutive ranges, so a flat list of
200 moves still becomes ranges of at most 25. The tree depends only on the choices, which
depend only on the position, so a path of indexes taken from a component id made for one table
version finds the same entry whenever it is read again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tables.outcome import Choice, Offered, Outcome, Post

MAX_OPTIONS = 25


class MenuNode:
    """An entry of the menu: a move (a leaf, whose label is its choice's), a group of entries, or a range of entries
    (whose label names its first and last entries). Labels are read when shown, and a group's entries are laid out
    when first walked: a menu shows one level at a time, and a position may offer thousands of moves (BLOCK's drops)
    of which a player sees a few levels. Built lazily or not, a tree is the same: the entries depend only on the
    choices, in order."""

    __slots__ = ("_children", "_depth", "_label", "_members", "_source", "choice")

    def __init__(self, label: str | None = None, children: tuple[MenuNode, ...] = (),
                 choice: Choice | None = None) -> None:
        self._label = label  # None: a leaf's is its choice's, a range's names its first and last entries
        self._children: tuple[MenuNode, ...] | None = children
        self._source: Offered | None = None  # a group not laid out yet: the choices (of _source, by index) in it,
        self._members: Sequence[int] = ()  # grouped from _depth on
        self._depth = 0
        self.choice = choice  # set on a leaf: the move it plays

    @classmethod
    def _group(cls, label: str, source: Offered, members: Sequence[int], depth: int) -> MenuNode:
        """A group (or the root) of ``source``'s choices ``members``, grouped from ``depth`` on when first walked."""
        node = cls(label)
        node._children, node._source, node._members, node._depth = None, source, members, depth
        return node

    @property
    def children(self) -> tuple[MenuNode, ...]:
        children = self._children
        if children is None:
            assert self._source is not None
            children = self._children = _level(self._source, self._members, self._depth)
            self._source, self._members = None, ()
        return children

    @property
    def label(self) -> str:
        label = self._label
        if label is not None:
            return label
        if self.choice is not None:
            label = self.choice.label
        else:
            children = self.children
            first, last = children[0], children[-1]
            label = first.label if first is last else f"{shorten(first.label)} … {shorten(last.label)}"
        self._label = label
        return label

    @property
    def leaf(self) -> bool:
        return self.choice is not None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MenuNode) and (self.label, self.children, self.choice) == \
            (other.label, other.children, other.choice)

    __hash__ = None  # type: ignore[assignment]  # (mutable cache of its label: not hashable, like the dataclass)

    def __repr__(self) -> str:
        return f"MenuNode({self.label!r}, {len(self.children)} entries, choice={self.choice!r})"

    @property
    def moves(self) -> int:
        """How many moves lie under this entry (a group not laid out yet: one per choice, each being one leaf)."""
        if self.choice is not None:
            return 1
        if self._children is None:
            return len(self._members)
        return sum(c.moves for c in self.children)


def build_menu(choices: Sequence[Choice]) -> MenuNode:
    """The menu tree of ``choices`` ("Your move"), groups in order of first appearance; each level laid out when first
    read. The menu of a position's :class:`Offered` choices is built once and kept with them."""
    offered = Offered.of(choices)
    if offered.menu is None:
        offered.menu = MenuNode._group("Your move", offered, range(len(offered)), 0)
    root: MenuNode = offered.menu
    return root


def _level(source: Offered, members: Sequence[int], depth: int) -> tuple[MenuNode, ...]:
    """The entries of a level: the choices without a group from ``depth`` on are moves, the others fall into groups
    (in order of first appearance), whose own entries are laid out when walked."""
    nodes: list[MenuNode] = []
    groups: dict[str, list[int]] = {}
    group = MenuNode._group
    names_of = source.groups
    last: tuple[str, ...] | None = None  # the groups of the member before, when it went into a group: a member
    into: list[int] = []  # with the very same tuple goes into the same one (a game hands out one tuple for a run of
    for i in members:  # moves under the same groups, e.g. BLOCK's orders of the values of one placement)
        names = names_of[i]
        if names is last:
            into.append(i)
            continue
        if depth >= len(names):
            nodes.append(MenuNode(None, choice=source[i]))
            last = None
            continue
        name = names[depth]
        inside = groups.get(name)
        if inside is None:
            inside = groups[name] = []
            nodes.append(group(name, source, inside, depth + 1))
        inside.append(i)
        last, into = names, inside
    return _split(nodes)


def _split(nodes: list[MenuNode]) -> tuple[MenuNode, ...]:
    """At most MAX_OPTIONS entries: longer levels become ranges of near-equal size (recursively), each labelled by
    its first and last entries."""
    if len(nodes) <= MAX_OPTIONS:
        return tuple(nodes)
    parts = math.ceil(len(nodes) / MAX_OPTIONS)
    size = math.ceil(len(nodes) / parts)
    return _split([MenuNode(None, tuple(nodes[start:start + size])) for start in range(0, len(nodes), size)])


@dataclass
class MenuStep:
    """One pick in a player's move menu, as the service hands it to the Discord layer: the next level to show, or
    the move picked, with its preview (to submit) or with what playing it did."""

    table_id: int
    version: int
    path: tuple[int, ...]
    trail: tuple[str, ...]  # labels of the entries picked so far
    node: MenuNode
    confirm: bool = False  # a leaf is previewed before it is played (Game.previewed)
    preview: Post | None = None  # the picked move's preview, with Submit
    played: Outcome | None = None  # the picked move was played: what to post


def shorten(text: str, limit: int = 45) -> str:
    """``text`` cut to ``limit`` characters, marked with an ellipsis when cut."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def walk(root: MenuNode, path: Sequence[int]) -> tuple[MenuNode, tuple[str, ...]]:
    """The entry at ``path`` and the labels leading to it; ``IndexError`` if the path doesn't exist."""
    node, trail = root, []
    for i in path:
        if node.leaf or not 0 <= i < len(node.children):
            raise IndexError(f"no menu entry {list(path)}")
        node = node.children[i]
        trail.append(node.label)
    return node, tuple(trail)


def encode_path(path: Sequence[int]) -> str:
    return ".".join(str(i) for i in path)


def decode_path(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split(".") if p) if text else ()
