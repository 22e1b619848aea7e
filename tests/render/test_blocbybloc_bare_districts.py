"""Bloc by Bloc's bare districts (``render/blocbybloc.py``'s ``_bare``): a district's box, border and heading are
kept by its tile, liberation and height (a highway tile's box by its size), and pasted under its pieces wherever
the district lies (another cell, another row's height above it, another game). What must hold: a board whose
districts are drawn on kept bare districts is the same PNG, byte for byte, as the board drawn with nothing kept at
all, and tells the phone-text recorder the same texts; and the bare districts are really used (as many found as
the board has districts, once warmed by other games' boards). And each picture is drawn on the last one's canvas
made empty again: the same picture as on a new canvas."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from PIL import Image

import render.blocbybloc as rb
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.model import BlocState
from render.common import recording
from tests.render.test_blocbybloc_kept_tiles import Counted  # (kept pictures, counting those found)
from tests.render.test_blocbybloc_render import playout

G = BlocByBloc()
NAMES = ["Мария", "Zoë Åström", "李小龙", "Dmitri"]


@pytest.fixture(autouse=True)
def own_kept_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's kept parts as they were after each test."""
    for name in ("_areas", "_cities", "_bare"):
        monkeypatch.setattr(rb, name, getattr(rb, name))


def drawn(state: BlocState, viewer: int | None, bare: Counted) -> tuple[bytes, Counter[tuple[str, int]]]:
    """The PNG of ``state`` for ``viewer`` with no district or city kept whole, the bare districts from ``bare``,
    and the texts it told."""
    rb._areas, rb._cities, rb._bare = Counted(rb.AREAS_BYTES), Counted(rb.CITIES_BYTES), bare
    rb._recent.clear()
    with recording() as seen:
        png = rb.render(G.view(state, viewer), NAMES)
    return png, Counter((d.text, d.size) for d in seen)


def fresh(state: BlocState, viewer: int | None) -> tuple[bytes, Counter[tuple[str, int]]]:
    """As :func:`drawn` with nothing kept (its chips and labels made first, outside the recording)."""
    drawn(state, viewer, Counted(rb.BARE_BYTES))
    return drawn(state, viewer, Counted(rb.BARE_BYTES))


@pytest.mark.parametrize(("seats", "seed"), [(2, 24), (4, 28)])
def test_boards_on_kept_bare_districts_are_the_boards_drawn_afresh(seats: int, seed: int) -> None:
    bare = Counted(rb.BARE_BYTES)
    for state in playout(3, 3)[::25]:  # other cities, other heights: warm the bare districts
        drawn(state, None, bare)
    played = list(playout(seats, seed)[::23])
    for state in played[1::3]:  # random games seldom liberate a district: some liberated by hand
        freed = state.clone()
        for cell in (3, 7, 11, 18):
            freed.liberated[cell] = True
        played.append(freed)
    liberated = 0
    for i, state in enumerate(played):
        viewer = None if i % 2 else i % seats
        expected = fresh(state, viewer)
        before = bare.found
        assert drawn(state, viewer, bare) == expected
        assert drawn(state, viewer, bare) == expected  # now every bare district of this board is kept
        assert bare.found - before >= 25  # every district and highway tile's box
        liberated += any(state.liberated)
    assert liberated  # liberated districts (their dashed border) among them


def test_a_bare_district_is_kept_once_per_tile_and_height() -> None:
    state = playout(2, 24)[40]
    bare = Counted(rb.BARE_BYTES)
    first = drawn(state, None, bare)
    cells = G.view(state, None)["cells"]
    districts = sum(c["type"] != "Highway" for c in cells)
    highways = sum(c["type"] == "Highway" for c in cells)
    assert highways >= 1
    kinds = Counter(key[1] for key in bare.items)
    assert kinds["bare"] == districts  # (no two districts of a city share a tile)
    assert 1 <= kinds["highway"] <= highways  # a highway tile's box, by its size (one per row height)
    kept, found = len(bare.items), bare.found  # (found: a second highway tile at a row height met before)
    assert drawn(state, 1, bare)[0] != first[0]  # a seat's own picture: other texts, the same districts
    assert (len(bare.items), bare.found - found) == (kept, districts + highways)


def test_the_spare_canvas_draws_what_a_new_canvas_draws() -> None:
    """Each picture is drawn on the canvas of the one before, made empty again: a short board after a tall one (a
    seat's view with its hand) is the board drawn on a new canvas."""
    played = playout(4, 28)
    tall = max(played[::10], key=lambda s: max(len(h) for h in s.hands))
    short = played[len(played) // 2]
    views = {"tall": G.view(tall, tall.controller[max(range(4), key=lambda f: len(tall.hands[f]))]),
             "short": G.view(short, None)}
    rb._spare.clear()
    new = {name: rb._draw(view, NAMES) for name, view in views.items()}  # (the first on a new canvas)
    for name in ("short", "tall", "short", "tall"):
        rb._spare.clear()
        assert rb._draw(views[name], NAMES) == new[name]
    canvas = rb._spare[0]
    for name in ("tall", "short", "tall", "short"):
        assert rb._draw(views[name], NAMES) == new[name]  # on the spare canvas, after the other picture
        assert rb._spare == [canvas]  # the same canvas each time
    assert Image.open(io.BytesIO(new["tall"])).height > Image.open(io.BytesIO(new["short"])).height + 100
