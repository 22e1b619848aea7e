"""BLOCK's drop lists, kept with the grid and by rows: whatever is kept or evicted, a seat's drops are every
placement of every shape allowed with every order of its values, in that order, as moves made afresh."""

from __future__ import annotations

import itertools

import pytest

import engine.block.game as block_game
import engine.block.sheet as block_sheet
import engine.block.text as block_text
from engine.block import Block
from engine.block.game import TURNS, BlockState, Move
from engine.block.sheet import COLUMNS
from engine.rng import Rng

G = Block()


def expected(state: BlockState, seat: int) -> list[Move]:
    values = G.number_values(state, seat)
    orders = sorted(set(itertools.permutations(values)))
    return [Move("drop", shape=shape, orientation=o, column=c, values=v)
            for shape in G.shapes_allowed(state)
            for o, c, _ in G.placements(state.work[seat], shape) for v in orders]


def drop_positions(seed: int, seats: int) -> list[tuple[BlockState, int]]:
    rng = Rng(seed)
    state = G.new_game(seats, G.resolve_options({}, seats), seed)
    out = []
    for _ in range(400):
        if G.is_over(state):
            break
        seat = sorted(G.may_act(state))[rng.below(len(G.may_act(state)))]
        if G.step(state, seat) == "drop":
            out.append((G.clone(state), seat))
        state, _ = G.apply(state, seat, G.sample_move(state, seat, rng))
    return out


@pytest.mark.parametrize("kept", [1, 2, 64])
@pytest.mark.parametrize(("seed", "seats"), [(1, 1), (2, 2), (3, 4)])
def test_a_seats_drops_are_the_same_whatever_is_kept(monkeypatch: pytest.MonkeyPatch, kept: int, seed: int,
                                                     seats: int) -> None:
    monkeypatch.setattr(block_game, "_KEPT", kept)  # (1, 2: rows evicted all the time)
    block_game._DROP_ROWS.clear()
    # the grids' memo keeps one grid at a time (a position loaded afresh finds its list there only when the grid was
    # the last one's): the drops come from the rows, kept or evicted, not from a list the grid kept
    monkeypatch.setattr(block_sheet, "_DERIVED", {})
    monkeypatch.setattr(block_sheet, "_DERIVED_KEPT", 1)
    rows_made = 0
    make_row = block_game._drop_row

    def counted(*args: object, **kwargs: object) -> list[Move]:
        nonlocal rows_made
        rows_made += 1
        return make_row(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(block_game, "_drop_row", counted)
    positions = drop_positions(seed, seats)
    assert len(positions) >= 5
    for state, seat in positions + positions[::-1]:  # (again: from the grid's list, rows evicted or not)
        state = G.load(G.dump(state))  # (sheets of its own: no grid's list carried over)
        moves = G.legal_moves(state, seat)
        assert moves == expected(state, seat) and moves == G.menu_moves(state, seat)
        assert [G.format_move(m) for m in moves] == [G.format_move(m) for m in expected(state, seat)]
        moves.clear()  # (the caller's own list)
        assert G.legal_moves(state, seat) == expected(state, seat)
    assert len(block_game._DROP_ROWS) <= kept
    assert rows_made > 0, "the drops came from the rows"


def test_drop_menu_groups_are_the_shape_orientation_and_column() -> None:
    block_text._DROP_GROUPS.clear()
    positions = drop_positions(5, 2)
    assert any(len(G.shapes_allowed(state)) > 1 for state, _ in positions)  # (★ on the shape die: it is chosen)
    for state, seat in positions:
        chosen = len(G.shapes_allowed(state)) > 1
        for move in G.legal_moves(state, seat)[::7]:
            groups = G.text.menu_groups(state, seat, move)
            assert groups == ((f"Shape {move.shape}",) if chosen else ()) + (
                f"{move.shape} {TURNS[move.orientation]}", f"Column {COLUMNS[move.column]}")
