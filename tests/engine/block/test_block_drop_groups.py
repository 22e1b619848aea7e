"""BLOCK's menu groups of a whole list at once (BlockText.menu_groups_of): always each move's menu_groups, in order;
a seat's drops as its step lists them come from what the grid keeps beside them, any other list is asked move by
move. And the platform's choices use it: a drop menu's groups are the moves' own."""

from __future__ import annotations

import copy

import engine.block.text as block_text
from engine.block import Block
from engine.block.game import BlockState, Move
from engine.rng import Rng
from tables.situation import Situation

G = Block()


def positions(seed: int, seats: int) -> list[tuple[BlockState, int]]:
    rng = Rng(seed)
    out = []
    for game in range(2):
        state = G.new_game(seats, G.resolve_options({}, seats), seed * 10 + game)
        for _ in range(300):
            if G.is_over(state):
                break
            for seat in sorted(G.to_act(state)):
                out.append((G.clone(state), seat))
            seat = sorted(G.may_act(state))[rng.below(len(G.may_act(state)))]
            state, _ = G.apply(state, seat, G.sample_move(state, seat, rng))
    return out


def one_by_one(state: BlockState, seat: int, moves: list[Move]) -> list[tuple[str, ...]]:
    return [G.text.menu_groups(state, seat, m) for m in moves]


def test_groups_of_a_list_are_each_moves_groups() -> None:
    text = G.text
    assert isinstance(text, block_text.BlockText)
    found = {"drop": 0, "chosen": 0}
    for state, seat in positions(3, 2) + positions(4, 1):
        state = G.load(G.dump(state))  # (a position as a request loads it)
        moves = G.menu_moves(state, seat)
        want = one_by_one(state, seat, moves)
        assert text.menu_groups_of(state, seat, moves) == want
        assert text.menu_groups_of(state, seat, moves) == want  # (again: from what the grid kept)
        if G.step(state, seat) == "drop" and moves:
            found["drop"] += 1
            found["chosen"] += len(G.shapes_allowed(state)) > 1
            copies = [copy.copy(m) for m in moves]  # equal moves, not the ones the grid keeps
            assert text.menu_groups_of(state, seat, copies) == want
            part = moves[: len(moves) // 2]
            assert text.menu_groups_of(state, seat, part) == want[: len(part)]
            other = moves[::-1]
            assert text.menu_groups_of(state, seat, other) == want[::-1]
    assert found["drop"] >= 10 and found["chosen"] >= 1


def test_a_seats_drop_menu_has_its_moves_groups() -> None:
    for state, seat in positions(5, 2):
        if G.step(state, seat) != "drop":
            continue
        state = G.load(G.dump(state))
        sit = Situation.of(G, state)
        offered = sit.offered(seat)
        assert offered.groups == one_by_one(state, seat, G.menu_moves(state, seat))
        assert [c.label for c in sit.menu(seat).children] == list(dict.fromkeys(g[0] for g in offered.groups))
