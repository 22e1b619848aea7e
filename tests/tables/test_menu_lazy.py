"""The move menu laid out lazily: a level is grouped when first walked and a label worded when first read, and the
tree is the same as one built whole (labels, order, ranges, paths), over random positions of every game."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, SupportsIndex

import pytest

from engine.rng import Rng
from tables import Choice, Controls
from tables.catalog import default_catalog
from tables.menu import MAX_OPTIONS, MenuNode, build_menu, shorten, walk
from tables.outcome import Offered
from tables.situation import Situation

GAMES = [g.key for g in default_catalog().all()]


# --- the menu as it was built before: whole, every label worded at once ---------------------------------------------
class Eager:
    def __init__(self, label: str, children: tuple[Eager, ...] = (), choice: Choice | None = None) -> None:
        self.label, self.children, self.choice = label, children, choice


def eager_menu(choices: list[Choice]) -> Eager:
    return Eager("Your move", eager_level(choices, 0))


def eager_level(choices: list[Choice], depth: int) -> tuple[Eager, ...]:
    entries: list[Eager | tuple[str, list[Choice]]] = []
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        if depth >= len(choice.groups):
            entries.append(Eager(choice.label, choice=choice))
            continue
        name = choice.groups[depth]
        if name not in groups:
            groups[name] = []
            entries.append((name, groups[name]))
        groups[name].append(choice)
    return eager_split([e if isinstance(e, Eager) else Eager(e[0], eager_level(e[1], depth + 1)) for e in entries])


SPLIT: list[int] = []  # the lengths of the levels split into ranges


def eager_split(nodes: list[Eager]) -> tuple[Eager, ...]:
    if len(nodes) <= MAX_OPTIONS:
        return tuple(nodes)
    SPLIT.append(len(nodes))
    size = math.ceil(len(nodes) / math.ceil(len(nodes) / MAX_OPTIONS))
    ranges = []
    for start in range(0, len(nodes), size):
        first, last = nodes[start], nodes[min(start + size, len(nodes)) - 1]
        label = first.label if first is last else f"{shorten(first.label)} … {shorten(last.label)}"
        ranges.append(Eager(label, tuple(nodes[start:start + size])))
    return eager_split(ranges)


def eager_leaves(node: Eager) -> Iterator[tuple[tuple[int, ...], tuple[str, ...], Choice]]:
    """Every move with its path and the labels along it, in menu order."""
    if node.choice is not None:
        yield (), (), node.choice
        return
    for i, child in enumerate(node.children):
        for path, trail, choice in eager_leaves(child):
            yield (i, *path), (child.label, *trail), choice


def assert_same(lazy: MenuNode, eager: Eager) -> None:
    assert lazy.label == eager.label
    assert lazy.choice == eager.choice and lazy.leaf == (eager.choice is not None)
    assert lazy.moves == sum(1 for _ in eager_leaves(eager))
    assert len(lazy.children) == len(eager.children)
    for a, b in zip(lazy.children, eager.children, strict=True):
        assert_same(a, b)


def check(choices: list[Choice]) -> None:
    eager = eager_menu(choices)
    assert_same(build_menu(choices), eager)
    leaves = list(eager_leaves(eager))
    for path, trail, choice in leaves[::max(1, len(leaves) // 40)]:  # a path from a component id, in a fresh menu
        node, found = walk(build_menu(choices), path)
        assert node.choice is choice and found == trail
    for path, trail, _ in leaves[::max(1, len(leaves) // 8)]:  # and the levels above it, one select at a time
        root = build_menu(choices)
        for depth in range(len(path) + 1):
            node, found = walk(root, path[:depth])
            assert found == trail[:depth] and node.moves >= 1


# --- the same tree ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", GAMES)
def test_the_lazy_menu_is_the_whole_menu_over_random_positions(key: str) -> None:
    game = default_catalog().get(key)
    assert game is not None
    checked = widest = 0
    SPLIT.clear()
    for seed in range(2):
        rng = Rng(seed)
        seats = max(game.min_players, 2) + seed % max(1, game.max_players - max(game.min_players, 2) + 1)
        state = game.new_game(seats, game.resolve_options({}, seats), seed)
        for ply in range(300):
            if checked >= 30 * (seed + 1):
                break
            sit = Situation.of(game, state)
            if sit.over:
                break
            seat = sorted(sit.may_act)[0]
            offered = list(sit.offered(seat))
            if ply % 4 == 0 or len(offered) > MAX_OPTIONS:
                check(offered)
                # and the menu as the platform builds it: a fresh position's offered moves, their groups listed
                # at once, the tree shared by the controls and the clicks
                assert_same(Situation.of(game, state).menu(seat), eager_menu(offered))
                checked += 1
                widest = max(widest, len(offered))
            state, _ = sit.apply(seat, game.sample_move(state, seat, rng))
    assert checked >= 20
    if key == "block":
        assert widest > MAX_OPTIONS * MAX_OPTIONS  # (the drops of a turn: up to 2,520)
    if key == "blocbybloc":
        assert SPLIT  # (a level of more than 25 entries, split into ranges)


@pytest.mark.parametrize("n", [1, 25, 26, 51, 625, 626, 2000, 3000])
def test_flat_lists_split_into_the_same_ranges(n: int) -> None:
    check([Choice(f"m{i}", f"move {i} " + "x" * (i % 60)) for i in range(n)])


def test_groups_with_more_than_25_entries_and_moves_beside_them() -> None:
    choices = [Choice(f"m{i}", f"move {i}", tuple(f"G{j}" for j in (i % 40, i % 7, i % 3)[:i % 4])) for i in range(900)]
    check(choices)


# --- laid out when walked, worded when read ----------------------------------------------------------------------
class Counted(tuple[str, ...]):
    """A choice's groups, counting which depths are read."""

    reads: list[int] = []

    def __getitem__(self, index: SupportsIndex | slice) -> Any:
        if isinstance(index, int):
            Counted.reads.append(index)
        return super().__getitem__(index)


def test_a_level_is_grouped_only_when_walked() -> None:
    choices = [Choice(f"m{i}", f"move {i}", Counted((f"A{i % 3}", f"B{i % 30}"))) for i in range(300)]
    Counted.reads = []
    root = build_menu(choices)
    assert Counted.reads == [] and root.moves == 300
    assert [c.label for c in root.children] == ["A0", "A1", "A2"]
    assert Counted.reads == [0] * 300  # the top level: each choice's first group, once
    Counted.reads = []
    a1 = root.children[1]
    assert a1.moves == 100 and Counted.reads == []
    assert [c.label for c in a1.children] == ["B1", "B4", "B7", "B10", "B13", "B16", "B19", "B22", "B25", "B28"]
    assert Counted.reads == [1] * 100  # that group's members, nobody else's
    Counted.reads = []
    assert [c.moves for c in root.children] == [100, 100, 100] and Counted.reads == []


class Words:
    """A position's words for its moves, counting what is asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    def notation(self, move: Any) -> str:
        self.asked.append(("notation", move))
        return f"m{move}"

    def label(self, move: Any) -> str:
        self.asked.append(("label", move))
        return f"move {move}"

    def groups(self, move: Any) -> tuple[str, ...]:
        self.asked.append(("groups", move))
        return (f"G{move // 10}",) if move < 100 else ()

    def groups_of(self, moves: Sequence[Any]) -> list[tuple[str, ...]]:
        return [self.groups(m) for m in moves]


def test_a_choice_of_a_move_words_it_once_when_read() -> None:
    words = Words()
    choices = [Choice.of_move(words, i, (f"G{i // 10}",)) for i in range(100)]
    root = build_menu(choices)
    assert [c.label for c in root.children] == [f"G{j}" for j in range(10)] and words.asked == []
    shown = root.children[4]
    assert [c.label for c in shown.children] == [f"move {i}" for i in range(40, 50)]
    assert words.asked == [("label", i) for i in range(40, 50)]
    words.asked = []
    assert [c.label for c in shown.children] == [f"move {i}" for i in range(40, 50)] and words.asked == []
    assert choices[7] == Choice("m7", "move 7", ("G0",)) and hash(choices[7]) == hash(Choice("m7", "x", ("G0",)))
    assert words.asked == [("notation", 7), ("label", 7)]
    assert repr(choices[7]) == "Choice('m7', 'move 7', ('G0',))" and choices[7].notation == "m7"
    assert words.asked == [("notation", 7), ("label", 7)]  # (kept)


@pytest.mark.parametrize("key", GAMES)
def test_offered_choices_word_their_moves_as_the_game_does(key: str) -> None:
    game = default_catalog().get(key)
    assert game is not None
    rng = Rng(5)
    seats = max(game.min_players, 2)
    state = game.new_game(seats, game.resolve_options({}, seats), 5)
    for _ in range(120):
        sit = Situation.of(game, state)
        if sit.over:
            break
        seat = sorted(sit.may_act)[0]
        moves = game.menu_moves(state, seat)
        for move, choice in list(zip(moves, sit.offered(seat), strict=True))[::5]:
            assert choice == Choice(game.format_move(move), game.text.describe_move(state, seat, move),
                                    game.text.menu_groups(state, seat, move))
        state, _ = sit.apply(seat, game.sample_move(state, seat, rng))


def test_offered_choices_are_made_when_read_and_equal_to_the_choices_made_at_once() -> None:
    words = Words()
    offered = Offered(list(range(103)), words)
    made = tuple(Choice(f"m{i}", f"move {i}", (f"G{i // 10}",) if i < 100 else ()) for i in range(103))
    assert len(offered) == 103 and words.asked == []
    root = build_menu(offered)
    assert build_menu(offered) is root  # (kept: the controls and the menu's clicks walk the same tree)
    assert [c.label for c in root.children][:2] == ["G0", "G1"] and root.moves == 103
    assert words.asked == [("groups", i) for i in range(103)] + [("label", i) for i in range(100, 103)]
    words.asked = []
    assert offered[42] == made[42] and offered[-1] == made[-1]
    assert words.asked == [("notation", 42), ("label", 42), ("notation", 102)]  # (102's label: read for the menu)
    assert offered[40:43] == made[40:43] and offered[::50] == made[::50]
    assert offered == made and made == offered and offered == list(made) and offered != made[:-1]
    assert list(offered) == list(made) and hash(offered) == hash(made)
    assert Offered.of(offered) is offered and Offered.of(made) == offered
    assert_same(build_menu(Offered(list(range(103)), Words())), eager_menu(list(made)))
    with pytest.raises(IndexError):
        offered[103]


def test_a_position_offers_choices_made_when_read_and_one_menu() -> None:
    game = default_catalog().get("block")
    assert game is not None
    rng = Rng(2)
    state = game.new_game(2, game.resolve_options({}, 2), 2)
    for _ in range(60):
        sit = Situation.of(game, state)
        seat = sorted(sit.may_act)[0]
        offered = sit.offered(seat)
        assert isinstance(offered, Offered) and sit.offered(seat) is offered
        assert sit.menu(seat) is build_menu(offered) is sit.menu(seat)
        if len(offered) > 1000:
            break
        state, _ = sit.apply(seat, game.sample_move(state, seat, rng))
    assert len(offered) > 1000
    controls = Controls(1, 2, 3, offered)
    assert controls == Controls(1, 2, 3, tuple(Situation.of(game, state).offered(seat)))
