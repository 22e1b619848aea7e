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

from tables.outcome import Choice

MAX_OPTIONS = 25


@dataclass(frozen=True)
class MenuNode:
    label: str
    children: tuple[MenuNode, ...] = ()
    choice: Choice | None = None  # set on a leaf: the move it plays

    @property
    def leaf(self) -> bool:
        return self.choice is not None

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
            entries.append(MenuNode(choice.label, choice=choice))
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
        label = chunk[0].label if len(chunk) == 1 else f"{shorten(chunk[0].label)} … {shorten(chunk[-1].label)}"
        ranges.append(MenuNode(label, tuple(chunk)))
    return _split(ranges)


@dataclass(frozen=True)
class MenuStep:
    """One level of a player's move menu, as the service hands it to the Discord layer."""

    table_id: int
    version: int
    path: tuple[int, ...]
    trail: tuple[str, ...]  # labels of the entries picked so far
    node: MenuNode
    confirm: bool = False  # a leaf is previewed before it is played (Game.confirm_moves)


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
