"""The move menu: every legal move reachable step by step, no step over Discord's 25 options."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.blockers import Blockers
from engine.rng import Rng
from tables import Choice
from tables.menu import MAX_OPTIONS, MenuNode, build_menu, decode_path, encode_path, walk


def leaves(node: MenuNode) -> Iterator[tuple[tuple[int, ...], Choice]]:
    """Every move in the menu with the path to it, in menu order."""
    if node.choice is not None:
        yield (), node.choice
        return
    for i, child in enumerate(node.children):
        for path, choice in leaves(child):
            yield (i, *path), choice


def widest(node: MenuNode) -> int:
    return max([len(node.children), *(widest(c) for c in node.children)])


def flat(n: int) -> list[Choice]:
    return [Choice(f"m{i}", f"move {i}") for i in range(n)]


@pytest.mark.parametrize(("n", "top"), [(1, 1), (25, 25), (26, 2), (50, 2), (51, 3), (625, 25), (626, 2),
                                        (2000, 4)])
def test_a_flat_list_splits_into_ranges_of_at_most_25(n: int, top: int) -> None:
    root = build_menu(flat(n))
    assert len(root.children) == top and widest(root) <= MAX_OPTIONS and root.moves == n
    assert [c for _, c in leaves(root)] == flat(n)  # same moves, same order


def test_range_labels_name_their_first_and_last_entries() -> None:
    root = build_menu(flat(30))
    assert [c.label for c in root.children] == ["move 0 … move 14", "move 15 … move 29"]


def test_groups_keep_first_appearance_order_and_nest() -> None:
    choices = [Choice("a1", "A one", ("Tile A",)), Choice("b1", "B one", ("Tile B", "Row 1")),
               Choice("a2", "A two", ("Tile A",)), Choice("b2", "B two", ("Tile B", "Row 2")),
               Choice("pass", "Pass")]
    root = build_menu(choices)
    assert [c.label for c in root.children] == ["Tile A", "Tile B", "Pass"]
    assert [c.label for c in root.children[1].children] == ["Row 1", "Row 2"]
    assert walk(root, (1, 1, 0)) == (MenuNode("B two", choice=choices[3]), ("Tile B", "Row 2", "B two"))
    assert sorted(c.notation for _, c in leaves(root)) == sorted(c.notation for c in choices)


@pytest.mark.parametrize("path", [(3,), (0, 2), (2, 0), (-1,), (1, 0, 0, 0)])
def test_a_path_that_does_not_exist_is_an_index_error(path: tuple[int, ...]) -> None:
    root = build_menu([Choice("a1", "A one", ("Tile A",)), Choice("a2", "A two", ("Tile A",)),
                       Choice("b1", "B one", ("Tile B",)), Choice("pass", "Pass")])
    with pytest.raises(IndexError):
        walk(root, path)


@pytest.mark.parametrize("path", [(), (0,), (3, 14, 0), (24, 24, 24, 24)])
def test_paths_round_trip_through_text(path: tuple[int, ...]) -> None:
    assert decode_path(encode_path(path)) == path


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("players", [2, 5])
def test_blockers_menu_is_tile_then_square_and_wild_adds_the_row(seed: int, players: int) -> None:
    game = Blockers()
    rng = Rng(seed)
    state = game.new_game(players, game.resolve_options({"mode": "advanced"} if players == 2 and seed % 2 else {}),
                          seed)
    saw_wild = False
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        moves = game.legal_moves(state, seat)
        choices = [Choice(game.format_move(m), game.text.describe_move(state, seat, m),
                          game.text.menu_groups(state, seat, m)) for m in moves]
        root = build_menu(choices)
        assert widest(root) <= MAX_OPTIONS
        assert [c for _, c in leaves(root)] == choices  # every legal move, once, in the engine's order
        for path, choice in leaves(root):
            move = game.parse_move(choice.notation)
            depth = 1 if move.is_pass else (3 if move.face == "wild" else 2)
            assert len(path) == depth, (choice, path)
            saw_wild |= depth == 3
        state, _ = game.apply(state, seat, rng.choice(moves))
    assert saw_wild or seed % 3  # wild tiles turn up in most games
