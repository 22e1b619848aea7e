"""Blockers! pictures are deflated band by band (render/blockers.py, ``BandCanvas``): a band that shows what it showed
in a picture a moment before is neither drawn nor deflated again. That must never change a picture: the bytes are those
of the picture drawn from nothing, the stream is a valid zlib stream of exactly the canvas's pixels, and pictures
drawn in threads at once are the pictures drawn one by one."""

from __future__ import annotations

import io
import json
import random
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image

from engine.rng import Rng
from render import blockers, common
from tables.catalog import default_catalog
from tests.render.png_helpers import idat, shown

NAMES = ["Alice", "Bob", "Carmen", "Dmitri", "Eun-ji"]


def table_order(seats: int, mode: str, seed: int, limit: int) -> list[Any]:
    """After each move: the public view, the mover's and the next mover's, as a table draws them."""
    game = default_catalog().get("blockers")
    state = game.new_game(seats, game.resolve_options({"mode": mode}), seed)
    rng = Rng(seed)
    views: list[Any] = []
    while game.to_act(state) and len(views) < limit:
        seat = sorted(game.to_act(state))[0]
        game.fast_apply(state, seat, game.sample_move(state, seat, rng))
        for s in [None, seat, *sorted(game.to_act(state))[:1]]:
            views.append(json.loads(json.dumps(game.view(state, s))))
    return views


def forget_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing kept of earlier pictures (parts, bands, idle canvases); the empty tables stay."""
    monkeypatch.setattr(blockers, "_PARTS", blockers._parts())
    monkeypatch.setattr(blockers, "_BANDS", blockers._bands())
    monkeypatch.setattr(blockers, "_IDLE", {})


@pytest.mark.parametrize(("seats", "mode"), [(2, "advanced"), (3, "basic"), (5, "basic")])
def test_pictures_from_kept_bands_are_the_pictures_drawn_from_nothing(seats: int, mode: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    views = table_order(seats, mode, 11, limit=150)
    forget_kept(monkeypatch)
    hits = Counter[str]()
    get = blockers._BANDS.get

    def counted(key: tuple[Any, ...]) -> Any:
        found = get(key)
        hits[f"{key[0] if isinstance(key[0], str) else key[0][0]} {'hit' if found is not None else 'miss'}"] += 1
        return found

    monkeypatch.setattr(blockers._BANDS, "get", counted)
    kept = [blockers.render(v, NAMES) for v in views]
    assert all(hits[f"{kind} hit"] for kind in ("ground", "board", "card", "top", "rack")), hits
    for view, png in zip(views[::7], kept[::7], strict=True):
        forget_kept(monkeypatch)
        assert shown(blockers.render(view, NAMES)) == shown(png)  # (as a player gets it: png_helpers.shown)


@pytest.mark.parametrize("private", [False, True])
def test_the_stream_is_the_canvas_pixels(private: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    view = table_order(4, "basic", 5, limit=90)[-3 + private]
    assert ("rack" in view) == private
    forget_kept(monkeypatch)
    canvas = blockers._canvas(blockers._shape_of(view))
    blockers.draw_board(view, NAMES, canvas)  # nothing kept: every band drawn
    png = canvas.png()
    rows = zlib.decompress(idat(png))  # (checks the Adler-32 of the whole)
    width, height = canvas.image.size
    assert len(rows) == (width + 1) * height
    assert all(rows[y * (width + 1)] == 0 for y in range(height))  # every row unfiltered
    assert b"".join(rows[y * (width + 1) + 1:(y + 1) * (width + 1)] for y in range(height)) == canvas.image.tobytes()
    decoded = Image.open(io.BytesIO(png))
    assert decoded.size == (width, height) and decoded.getpalette() == canvas.image.getpalette()


def test_adler_of_bands_one_after_another() -> None:
    """render.common's Adler-32 of two byte strings from theirs (the bands of Blockers! and Breaks)."""
    rnd = random.Random(3)
    for _ in range(200):
        a = rnd.randbytes(rnd.choice([0, 1, 7, 5552, 65521, 70000, 200_000]))
        b = bytes([rnd.choice([0, 255])]) * rnd.choice([0, 1, 65520, 65521, 65522, 300_000])
        assert common.adler_after(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_pictures_drawn_in_threads_at_once_are_the_pictures_drawn_one_by_one(monkeypatch: pytest.MonkeyPatch
                                                                             ) -> None:
    views = table_order(3, "basic", 2, limit=60)
    forget_kept(monkeypatch)
    alone = [blockers.render(v, NAMES) for v in views]
    forget_kept(monkeypatch)
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda v: blockers.render(v, NAMES), views))
    assert [shown(p) for p in together] == [shown(p) for p in alone]
    assert all(len(idle) <= 2 for idle in blockers._IDLE.values())
