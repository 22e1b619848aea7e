"""The menu's levels laid out when moves share one tuple of groups (a game hands out one tuple for a run of moves,
as BLOCK does for the orders of a placement's values): the same tree as every move's groups looked up one by one,
whether a run's tuple comes back after other groups or after moves with no group, equal tuples or the very same."""

from __future__ import annotations

from tables.menu import MenuNode, build_menu
from tables.outcome import Choice


def layout(node: MenuNode) -> object:
    """The tree as nested (label, entries) and move notations."""
    if node.leaf:
        assert node.choice is not None
        return node.choice.notation
    return (node.label, node.moves, [layout(c) for c in node.children])


def expected(choices: list[Choice], depth: int = 0) -> list[object]:
    out: list[object] = []
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        if depth >= len(choice.groups):
            out.append(choice.notation)
            continue
        name = choice.groups[depth]
        if name not in groups:
            groups[name] = []
            out.append(name)
        groups[name].append(choice)
    return [(e, len(groups[e]), expected(groups[e], depth + 1)) if isinstance(e, str) and e in groups else e
            for e in out]


def test_runs_of_one_groups_tuple_fall_into_their_group() -> None:
    shared = ("Shape L", "L upright", "Column A")
    equal = tuple(list(shared))  # equal, not the same object
    other = ("Shape L", "L turned", "Column A")
    deeper = ("Shape L", "L upright", "Column B")
    plan = [shared, shared, (), shared, other, other, shared, equal, equal, (), (), deeper, shared, ("Shape O",),
            shared]
    choices = [Choice(f"m{i}", f"move {i}", groups) for i, groups in enumerate(plan)]
    root = build_menu(choices)
    assert layout(root) == ("Your move", len(plan), expected(choices))
    upright = next(c for c in root.children if c.label == "Shape L").children[0]
    assert upright.label == "L upright"
    assert [layout(c) for c in upright.children] == [
        ("Column A", 8, ["m0", "m1", "m3", "m6", "m7", "m8", "m12", "m14"]),
        ("Column B", 1, ["m11"])]
