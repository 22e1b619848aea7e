"""Bloc by Bloc's kept parts (``render/blocbybloc.py``): a district drawn once is pasted from its kept pixels when it
comes back at the same height, the police morale track at the same level, a faction's letter, and the whole city
for the next picture of the same move. What must hold: a
board drawn with kept parts is the same PNG, byte for byte, as the same board drawn with none kept, and it tells the
phone-text recorder the same texts at the same sizes; and the kept pixels are really used (a board drawn again keeps
nothing new, and finds every part kept)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest
from PIL import Image

import render.blocbybloc as rb
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.model import BlocState
from render.common import Kept, recording
from tests.render.test_blocbybloc_render import playout

G = BlocByBloc()
NAMES = ["Мария", "Zoë Åström", "李小龙", "Dmitri"]


class Counted(Kept[tuple[object, ...], Image.Image]):
    """Kept parts, counting the parts found kept."""

    def __init__(self, budget: int = rb.AREAS_BYTES) -> None:
        super().__init__(budget, rb._area_bytes)
        self.found = 0

    def get(self, key: tuple[object, ...]) -> Image.Image | None:
        value = super().get(key)
        self.found += value is not None
        return value


@dataclass
class Stores:
    """What the module keeps: its parts and its cities."""

    areas: Counted = field(default_factory=Counted)
    cities: Counted = field(default_factory=lambda: Counted(rb.CITIES_BYTES))

    def use(self) -> None:
        rb._areas, rb._cities = self.areas, self.cities


def states(seats: int, seed: int) -> tuple[BlocState, ...]:
    """A seeded game's first 400 states (:func:`tests.render.test_blocbybloc_render.playout`'s)."""
    return playout(seats, seed)[:400]


def drawn(state: BlocState, viewer: int | None, kept: Stores) -> tuple[bytes, Counter[tuple[str, int]]]:
    """The PNG of ``state`` for ``viewer`` drawn afresh with what is ``kept`` and the texts it told."""
    Stores().use()  # first drawn unrecorded and with nothing kept: the chips and labels it uses are made
    rb._recent.clear()  # (made within a recording, they would tell their texts once more)
    rb.render(G.view(state, viewer), NAMES)
    kept.use()
    rb._recent.clear()
    with recording() as seen:
        png = rb.render(G.view(state, viewer), NAMES)
    return png, Counter((d.text, d.size) for d in seen)


@pytest.fixture(autouse=True)
def own_kept_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's kept parts and cities as they were after each test."""
    monkeypatch.setattr(rb, "_areas", rb._areas)
    monkeypatch.setattr(rb, "_cities", rb._cities)


@pytest.mark.parametrize(("seats", "seed"), [(2, 24), (4, 28)])
def test_kept_parts_make_the_same_picture_and_tell_the_same_texts(seats: int, seed: int) -> None:
    played = states(seats, seed)
    assert len(played) > 60
    warm = Stores()
    hits = 0
    for i, state in enumerate(played[::7]):
        before = warm.areas.found
        for viewer in (None, i % seats):  # a move's two pictures: the public one and a seat's (the same city)
            board = drawn(state, viewer, warm)
            assert drawn(state, viewer, Stores()) == board
        hits += warm.areas.found > before  # some of its districts came from the kept ones
    assert hits > len(played[::7]) // 2
    assert warm.cities.found > len(played[::7]) // 2  # most moves' second picture took the first one's city (the
    # status, worded for its seat, may wrap to another line and move the city)


def test_a_board_drawn_again_keeps_nothing_new() -> None:
    state = states(2, 24)[40]
    kept = Stores()
    first = drawn(state, None, kept)
    parts = len(kept.areas.items)
    assert 25 <= parts <= 25 + 1 + 4  # its districts, the police morale track and the factions' letters
    assert len(kept.cities.items) == 1
    assert drawn(state, None, kept) == first
    assert (len(kept.areas.items), len(kept.cities.items)) == (parts, 1)
    assert (kept.areas.found, kept.cities.found) == (parts - 25, 1)  # the city whole, the parts below it


def test_parts_are_kept_without_the_city() -> None:
    state = states(2, 24)[40]
    kept = Stores()
    first = drawn(state, 0, kept)
    kept.cities = Counted(rb.CITIES_BYTES)
    assert drawn(state, 0, kept) == first
    assert kept.areas.found == len(kept.areas.items)  # every district from the kept ones
