"""BLOCK's combo step as its menu lists it, kept with the grid by the combos made: whatever is kept, a seat's menu is
its sheet's combos available now (at most COMBO_CAP of each type and size) and the pass, as moves made afresh."""

from __future__ import annotations

import pytest

import engine.block.sheet as block_sheet
from engine.block import Block
from engine.block.game import PASS, BlockState, Move
from engine.block.sheet import Combo
from engine.rng import Rng

G = Block()


def expected(state: BlockState, seat: int) -> list[Move]:
    return [Move("combo", combo=c.kind, cells=c.cells) for c in state.work[seat].combos_available()] + [PASS]


def combo_positions(seed: int, seats: int, games: int = 3) -> list[tuple[BlockState, int]]:
    rng = Rng(seed)
    out = []
    for game in range(games):
        state = G.new_game(seats, G.resolve_options({}, seats), seed * 100 + game)
        for _ in range(600):
            if G.is_over(state):
                break
            seat = sorted(G.may_act(state))[rng.below(len(G.may_act(state)))]
            if G.step(state, seat) == "combo":
                out.append((G.clone(state), seat))
            state, _ = G.apply(state, seat, G.sample_move(state, seat, rng))
    return out


@pytest.mark.parametrize("kept", [1, 128])
@pytest.mark.parametrize(("seed", "seats"), [(3, 1), (2, 2), (3, 4)])
def test_a_seats_combo_menu_is_the_same_whatever_is_kept(monkeypatch: pytest.MonkeyPatch, kept: int, seed: int,
                                                         seats: int) -> None:
    monkeypatch.setattr(block_sheet, "_DERIVED", {})
    monkeypatch.setattr(block_sheet, "_DERIVED_KEPT", kept)
    positions = combo_positions(seed, seats)
    assert sum(len(expected(s, p)) > 1 for s, p in positions) >= 3  # (combos to list, not only the pass)
    for state, seat in positions + positions[::-1]:  # (again: from what the grid kept, or worked out anew)
        state = G.load(G.dump(state))
        moves = G.menu_moves(state, seat)
        assert moves == expected(state, seat)
        assert [G.format_move(m) for m in moves] == [G.format_move(m) for m in expected(state, seat)]
        moves.clear()  # (the caller's own list)
        assert G.menu_moves(state, seat) == expected(state, seat)


def test_the_same_grid_with_other_combos_made_lists_its_own() -> None:
    """Two sheets with one grid share what the grid decides; the combos made on each decide what is left."""
    state, seat = next((s, p) for s, p in combo_positions(2, 2) if len(expected(s, p)) > 2)
    before = G.menu_moves(state, seat)
    made = next(m for m in before if m.kind == "combo")
    other = G.clone(state)
    other.work[seat].add_combo(Combo(made.combo, made.cells))  # (the grid unchanged: its cells now circled)
    assert other.work[seat].derived() is state.work[seat].derived()
    after = G.menu_moves(other, seat)
    assert after == expected(other, seat) and made not in after
    assert G.menu_moves(state, seat) == before == expected(state, seat)
