"""Bloc by Bloc's kept districts (``render/blocbybloc.py``): a district drawn once is pasted from its kept pixels
when it comes back at the same height. What must hold: a board drawn with kept districts is the same PNG, byte for
byte, as the same board drawn with none kept, and it tells the phone-text recorder the same texts at the same
sizes; and the kept pixels are really used (a board drawn again keeps nothing new)."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

import render.blocbybloc as rb
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.model import BlocState
from engine.rng import Rng
from render.common import Kept, recording

G = BlocByBloc()
NAMES = ["Мария", "Zoë Åström", "李小龙", "Dmitri"]


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


def drawn(state: BlocState, viewer: int | None, cold: bool) -> tuple[bytes, Counter[tuple[str, int]]]:
    """The PNG of ``state`` for ``viewer`` drawn afresh (``cold``: with no district kept) and the texts it told."""
    warm = rb._tiles
    rb._tiles = fresh()
    try:  # first drawn unrecorded, with no district kept: the chips and labels it makes are made (made within a
        rb._recent.clear()  # recording, they tell their texts once more)
        rb.render(G.view(state, viewer), NAMES)
    finally:
        rb._tiles = warm
    rb._recent.clear()
    if cold:
        rb._tiles = fresh()
    try:
        with recording() as seen:
            png = rb.render(G.view(state, viewer), NAMES)
    finally:
        rb._tiles = warm
    return png, Counter((d.text, d.size) for d in seen)


def fresh() -> Kept[tuple[int, int, str], object]:
    return Kept(rb.TILES_BYTES, rb._tile_bytes)


@pytest.fixture(autouse=True)
def no_kept_districts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no district kept (and leaves the module's own kept ones as they were)."""
    monkeypatch.setattr(rb, "_tiles", fresh())


@pytest.mark.parametrize(("seats", "seed"), [(2, 24), (4, 28)])
def test_kept_districts_make_the_same_picture_and_tell_the_same_texts(seats: int, seed: int) -> None:
    played = states(seats, seed)
    assert len(played) > 60
    hits = 0
    for i, state in enumerate(played[::7]):
        viewer = None if i % 2 else i % seats
        before = len(rb._tiles.items)
        warm = drawn(state, viewer, cold=False)
        hits += len(rb._tiles.items) - before < 25  # some of its districts came from the kept ones
        assert drawn(state, viewer, cold=True) == warm
    assert hits > len(played[::7]) // 2


def test_a_board_drawn_again_keeps_no_new_district() -> None:
    state = states(2, 24)[40]
    first = drawn(state, None, cold=False)
    kept = len(rb._tiles.items)
    assert 0 < kept <= 25
    assert drawn(state, None, cold=False) == first
    assert len(rb._tiles.items) == kept
