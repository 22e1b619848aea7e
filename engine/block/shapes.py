"""BLOCK's shapes: the five tetrominoes of the shape die and the ten penalty shapes, with orientations.

A shape is a tuple of ``(row, col)`` cells counted from its top-left corner (row 0 is the top), listed in
reading order: top row first, left to right. That is the order in which a drop's values fill the cells.
Orientations are named ``r0 r1 r2 r3`` (r0 turned clockwise 0–3 quarter turns) and ``m0 m1 m2 m3`` (the
mirror image of r0, turned the same way).
"""

from __future__ import annotations

from functools import cache

Cells = tuple[tuple[int, int], ...]

ORIENTATIONS = ("r0", "r1", "r2", "r3", "m0", "m1", "m2", "m3")


def _norm(cells: list[tuple[int, int]] | Cells) -> Cells:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def _cells(picture: str) -> Cells:
    """``"##/#."`` → the cells marked ``#``, rows separated by ``/``."""
    return _norm([(r, c) for r, row in enumerate(picture.split("/")) for c, ch in enumerate(row) if ch == "#"])


SHAPES: dict[str, Cells] = {
    # the shape die's tetrominoes
    "I": _cells("####"),
    "O": _cells("##/##"),
    "T": _cells("###/.#."),
    "L": _cells("#./#./##"),
    "S": _cells(".##/##."),
    # penalty shapes (multiplayer BLOCK tiles)
    "I3": _cells("###"),
    "V3": _cells("#./##"),
    "T4": _cells("###/.#."),
    "S4": _cells(".##/##."),
    "L4": _cells("#./#./##"),
    "O4": _cells("##/##"),
    "P5": _cells("##/##/#."),
    "U5": _cells("#.#/###"),
    "L5": _cells("#./#./#./##"),
    "T5": _cells("###/.#./.#."),
}
DIE_SHAPES = ("I", "O", "T", "L", "S")
# The five double-sided multiplayer tiles: (side 1, side 2).
PENALTY_TILES = (("I3", "V3"), ("T4", "S4"), ("L4", "O4"), ("P5", "U5"), ("L5", "T5"))


def _rotate(cells: Cells) -> Cells:
    """A quarter turn clockwise."""
    height = max(r for r, _ in cells) + 1
    return _norm([(c, height - 1 - r) for r, c in cells])


def _mirror(cells: Cells) -> Cells:
    width = max(c for _, c in cells) + 1
    return _norm([(r, width - 1 - c) for r, c in cells])


@cache
@cache
def oriented(shape: str, orientation: str) -> Cells:
    """The cells of ``shape`` in ``orientation`` (see the module docstring)."""
    cells = SHAPES[shape]
    if orientation.startswith("m"):
        cells = _mirror(cells)
    for _ in range(int(orientation[1])):
        cells = _rotate(cells)
    return cells


@cache
def distinct_orientations(shape: str) -> tuple[str, ...]:
    """The orientation names giving different cell sets, each by its first name (``O`` has only ``r0``)."""
    seen: dict[Cells, str] = {}
    for name in ORIENTATIONS:
        seen.setdefault(oriented(shape, name), name)
    return tuple(seen.values())


@cache
def canonical_orientation(shape: str, orientation: str) -> str:
    """The first orientation name with the same cells as ``orientation``."""
    cells = oriented(shape, orientation)
    return next(name for name in ORIENTATIONS if oriented(shape, name) == cells)


@cache
def size(cells: Cells) -> tuple[int, int]:
    """(height, width)."""
    return max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
