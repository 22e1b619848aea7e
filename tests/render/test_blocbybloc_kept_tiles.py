"""Bloc by Bloc's kept parts (``render/blocbybloc.py``): a district drawn once is pasted from its kept pixels when it
comes back at the same height, the police morale track at the same level, a faction's letter. What must hold: a
board drawn with kept parts is the same PNG, byte for byte, as the same board drawn with none kept, and it tells the
phone-text recorder the same texts at the same sizes; and the kept pixels are really used (a board drawn again keeps
nothing new, and finds every part kept)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from PIL import Image

import render.blocbybloc as rb
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.model import BlocState
from engine.rng import Rng
from render.common import Kept, recording

G = BlocByBloc()
NAMES = ["Мария", "Zoë Åström", "李小龙", "Dmitri"]


class Counted(Kept[tuple[object, ...], Image.Image]):
    """The kept parts, counting the parts found kept."""

    def __init__(self) -> None:
        super().__init__(rb.AREAS_BYTES, rb._area_bytes)
        self.found = 0

    def get(self, key: tuple[object, ...]) -> Image.Image | None:
        value = super().get(key)
        self.found += value is not None
        return value


@cache
def states(seats: int, seed: int) -> tuple[BlocState, ...]:
    """A seeded game's states, each move the engine's ``sample_move`` for the lowest seat to act."""
    state = G.new_game(seats, {}, seed)
    rng = Rng(seed)
    out = [state]
    while G.to_act(state) and len(out) < 400:
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.sample_move(state, seat, rng))
        out.append(state)
    return tuple(out)


def drawn(state: BlocState, viewer: int | None, kept: Counted) -> tuple[bytes, Counter[tuple[str, int]]]:
    """The PNG of ``state`` for ``viewer`` drawn afresh with the parts ``kept`` and the texts it told."""
    rb._areas = Counted()  # first drawn unrecorded and with nothing kept: the chips and labels it uses are made
    rb._recent.clear()  # (made within a recording, they would tell their texts once more)
    rb.render(G.view(state, viewer), NAMES)
    rb._areas = kept
    rb._recent.clear()
    with recording() as seen:
        png = rb.render(G.view(state, viewer), NAMES)
    return png, Counter((d.text, d.size) for d in seen)


@pytest.fixture(autouse=True)
def own_kept_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's kept parts as they were after each test."""
    monkeypatch.setattr(rb, "_areas", Counted())


@pytest.mark.parametrize(("seats", "seed"), [(2, 24), (4, 28)])
def test_kept_parts_make_the_same_picture_and_tell_the_same_texts(seats: int, seed: int) -> None:
    played = states(seats, seed)
    assert len(played) > 60
    warm = Counted()
    hits = 0
    for i, state in enumerate(played[::7]):
        viewer = None if i % 2 else i % seats
        before = warm.found
        board = drawn(state, viewer, warm)
        hits += warm.found > before
        assert drawn(state, viewer, Counted()) == board
    assert hits > len(played[::7]) // 2


def test_a_board_drawn_again_keeps_no_new_part() -> None:
    state = states(2, 24)[40]
    kept = Counted()
    first = drawn(state, None, kept)
    parts = len(kept.items)
    assert 25 <= parts <= 25 + 1 + 4  # its districts, the police morale track and the factions' letters
    assert drawn(state, None, kept) == first
    assert len(kept.items) == parts
    assert kept.found == parts
