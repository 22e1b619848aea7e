"""Blockers!' groups counted for every colour of a board at once and kept by the board: the same counts as the groups
listed one colour at a time, on boards of random games, and on a board changed in place."""

from __future__ import annotations

import pytest

import engine.blockers.board as board_module
from engine.blockers import Blockers
from engine.blockers.board import COLOURS, count_groups, group_counts, group_squares
from engine.rng import Rng

G = Blockers()


def boards(seed: int, seats: int, mode: str) -> list[list[str | None]]:
    rng = Rng(seed)
    state = G.new_game(seats, G.resolve_options({"mode": mode}, seats), seed)
    out = []
    while not G.is_over(state):
        out.append(list(state.board))
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.sample_move(state, seat, rng))
    return out


@pytest.mark.parametrize(("seed", "seats", "mode"), [(1, 2, "basic"), (2, 3, "basic"), (3, 2, "advanced"),
                                                     (4, 5, "basic")])
def test_counts_are_the_groups_listed(monkeypatch: pytest.MonkeyPatch, seed: int, seats: int, mode: str) -> None:
    monkeypatch.setattr(board_module, "_COUNTS", {})
    monkeypatch.setattr(board_module, "_COUNTS_KEPT", 3)  # (evicted all the time)
    seen = boards(seed, seats, mode)
    assert len(seen) > 20
    for board in seen + seen[::-1]:
        want = {c: len(group_squares(board, c)) for c in COLOURS}
        assert {c: count_groups(board, c) for c in COLOURS} == want
        assert group_counts(board) == {c: n for c, n in want.items() if n}
    assert len(board_module._COUNTS) <= 3


def test_a_board_changed_in_place_is_counted_again() -> None:
    board = boards(5, 2, "basic")[-1]
    colour = next(c for c in COLOURS if count_groups(board, c) > 0)
    before = count_groups(board, colour)
    empty = next(sq for sq, t in enumerate(board) if t is None and all(
        board[n] is None or not board[n].startswith(colour + ":") for n in board_module.NEIGHBOURS[sq]))
    board[empty] = f"{colour}:A"  # a lone tile: one group more
    assert count_groups(board, colour) == before + 1 == len(group_squares(board, colour))
    board[empty] = None
    assert count_groups(board, colour) == before
