"""A BLOCK preview shows the previewing seat's own pick and nothing else (issue 8: the preview leak).

Before the fix, previewing the last pick owed in a turn applied it, so the turn resolved inside the preview: the
player saw the next roll and the other seats' secret picks, then could go back and choose again. Over random
positions for 1–6 players, every preview must equal the seat's current view except for its own pending cells.
"""

from __future__ import annotations

import pytest

from engine.block import Block
from engine.block.game import BlockState
from engine.block.view import BlockView
from engine.rng import Rng

G = Block()
OWN_ENTRY_KEYS = ("grid", "combos", "letters", "full_rows", "score", "breakdown", "waiting")


def assert_only_own_pick_differs(before: BlockView, after: BlockView, seat: int, move: str) -> None:
    for key in before.keys() | after.keys():
        if key in ("players", "mine", "to_act", "ply", "blocks"):
            continue
        assert after.get(key) == before.get(key), f"preview of {move!r} changed {key!r}"
    # The turn never resolves in a preview: same seats still owe picks, except perhaps the previewing one.
    assert set(after["to_act"]) | {seat} == set(before["to_act"]) | {seat}, move
    for p, (old, new) in enumerate(zip(before["players"], after["players"], strict=True)):
        if p != seat:
            assert new == old, f"preview of {move!r} changed seat {p}'s sheet"
            continue
        for key in new.keys() - set(OWN_ENTRY_KEYS):
            assert dict(new)[key] == dict(old)[key], f"preview of {move!r} changed the seat's {key!r}"
        for r, row in enumerate(old["grid"]):
            for c, value in enumerate(row):
                if value is not None:  # a cell written before stays as it was
                    assert new["grid"][r][c] == value, (move, r, c)
    for i, (old_slot, new_slot) in enumerate(zip(before["blocks"], after["blocks"], strict=True)):
        changed = {k for k in old_slot.keys() | new_slot.keys() if old_slot.get(k) != new_slot.get(k)}
        # only the solo player's own turn moves a tile's notch (its slide, or the automatic slide that follows)
        assert changed <= ({"notch"} if before["solo"] else set()), (move, i, changed)


def positions(seats: int, seed: int, limit: int = 120) -> list[BlockState]:
    """States along a random game, every pick of it."""
    state = G.new_game(seats, {}, seed)
    rng = Rng(seed * 31 + seats)
    out = [state]
    while not G.is_over(state) and len(out) < limit:
        seat = rng.choice(sorted(G.to_act(state)))
        state, _ = G.apply(state, seat, rng.choice(G.legal_moves(state, seat)))
        out.append(state)
    return out


@pytest.mark.parametrize("seats", range(1, 7))
def test_no_preview_reveals_anything_but_the_seats_own_pick(seats: int) -> None:
    rng = Rng(seats)
    last_picks = 0
    for seed in range(2):
        for state in positions(seats, seed):
            for seat in sorted(G.to_act(state)):
                before = G.view(state, seat)
                moves = G.legal_moves(state, seat)
                for _ in range(3):
                    move = rng.choice(moves)
                    after = G.preview_view(state, seat, move)
                    assert_only_own_pick_differs(before, after, seat, G.format_move(move))
                    applied, _ = G.apply(state, seat, move)
                    if applied.turn != state.turn or applied.phase != state.phase:
                        last_picks += 1  # this pick, submitted, would resolve the turn
    assert last_picks > 0, "no preview of a turn's last pick was checked"


def test_previewing_the_last_pick_shows_neither_the_next_roll_nor_the_others_picks() -> None:
    state = G.new_game(2, {}, 5)
    state, _ = G.apply(state, 1, G.parse_move("write d1"))
    secret = G.view(state, None)["players"][1]["grid"]
    preview = G.preview_view(state, 0, G.parse_move("write a1"))
    assert preview["phase"] == "setup" and preview["dice"] == []
    assert preview["players"][1]["grid"] == secret and preview["players"][1]["grid"][0][3] is None
    assert preview["players"][0]["grid"][0][0] == 1
    submitted, _ = G.apply(state, 0, G.parse_move("write a1"))
    assert submitted.phase == "play" and submitted.dice  # submitting it does resolve the turn
