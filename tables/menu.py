"""Legal moves as a menu of small steps, so that every step fits one Discord select (25 options).

A move's :attr:`Choice.groups` place it in a tree (Blockers!: tile → row → square). Any level
with more than :data:`MAX_OPTIONS` entries is split into consecutive ranges, so a flat list of
200 moves still becomes ranges of at most 25. The tree depends only on the choices, which
depend only on the position, so a path of indexes taken from a component id made for one table
version finds the same entry whenever it is read again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tables.outcome import Choice, Outcome, Post

MAX_OPTIONS = 25


class MenuNode:
    """An entry of the menu: a move (a leaf, whose label is its choice's) or a group or range of entries. A range's
    label names its first and last entries, read when it is shown."""

    __slots__ = ("_label", "children", "choice")

    def __init__(self, label: str | Callable[[], str], children: tuple[MenuNode, ...] = (),
                 choice: Choice | None = None) -> None:
        self._label = label
        self.children = children
        self.choice = choice  # set on a leaf: the move it plays

    @property
    def label(self) -> str:
        if not isinstance(self._label, str):
            self._label = self._label()
        return self._label

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
        """How many moves lie under this entry."""
        return 1 if self.leaf else sum(c.moves for c in self.children)


def build_menu(choices: Sequence[Choice], label: str = "Your move") -> MenuNode:
    """The menu tree of ``choices``, groups in order of first appearance."""
    return MenuNode(label, _level(list(choices), 0))


def _level(choices: list[Choice], depth: int) -> tuple[MenuNode, ...]:
    entries: list[MenuNode | tuple[str, list[Choice]]] = []
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        if depth >= len(choice.groups):
            entries.append(MenuNode(_label_of(choice), choice=choice))
            continue
        name = choice.groups[depth]
        if name not in groups:
            groups[name] = []
            entries.append((name, groups[name]))
        groups[name].append(choice)
    nodes = [e if isinstance(e, MenuNode) else MenuNode(e[0], _level(e[1], depth + 1)) for e in entries]
    return _split(nodes)


def _split(nodes: list[MenuNode]) -> tuple[MenuNode, ...]:
    """At most MAX_OPTIONS entries: longer levels become ranges of near-equal size (recursively)."""
    if len(nodes) <= MAX_OPTIONS:
        return tuple(nodes)
    parts = math.ceil(len(nodes) / MAX_OPTIONS)
    size = math.ceil(len(nodes) / parts)
    ranges = []
    for start in range(0, len(nodes), size):
        chunk = nodes[start:start + size]
        ranges.append(MenuNode(_range_label(chunk), tuple(chunk)))
    return _split(ranges)


def _label_of(choice: Choice) -> Callable[[], str]:
    return lambda: choice.label


def _range_label(chunk: list[MenuNode]) -> Callable[[], str]:
    """A range's label, read when shown: its first and last entries' labels (the one's alone)."""
    first, last = chunk[0], chunk[-1]
    return lambda: first.label if first is last else f"{shorten(first.label)} … {shorten(last.label)}"


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
