"""Menu labels are words, not notation (issue 8): a player picks from what they read, so a label says what the
move does ("Place 7♣ in the empty slot 2", "L turned right, column c"), never a code ("r0") or a bare count."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.base import Game
from engine.block import Block
from engine.breaks import Breaks
from engine.rng import Rng

CODE = re.compile(r"\b[rm][0-3]\b")
BARE_COUNT = re.compile(r"\(\d+\)")


def labels(game: Game[Any, Any, Any], seats: int, seed: int, plies: int = 300) -> list[str]:
    state = game.new_game(seats, {}, seed)
    rng = Rng(seed)
    out = []
    for _ in range(plies):
        if game.is_over(state):
            break
        for seat in sorted(game.to_act(state)):
            for move in game.menu_moves(state, seat)[:60]:
                out.append(game.text.describe_move(state, seat, move))
                out.extend(game.text.menu_groups(state, seat, move))
        seat = sorted(game.to_act(state))[0]
        state, _ = game.apply(state, seat, game.sample_move(state, seat, rng))
    return out


@pytest.mark.parametrize("seats", [1, 3])
def test_block_labels_name_orientations_in_words(seats: int) -> None:
    found = labels(Block(), seats, seed=4, plies=60)
    assert any("turned right" in t for t in found) and any(t.startswith("Column ") for t in found)
    assert not [t for t in found if CODE.search(t)]


def test_breaks_labels_say_cards_and_slots_in_words() -> None:
    found = labels(Breaks(), 3, seed=2)
    assert any(t.startswith("Place ") and "empty slot" in t for t in found)
    assert any(t.startswith("Merge slot") and "card" in t for t in found)
    assert not [t for t in found if BARE_COUNT.search(t) or "in empty" in t]
