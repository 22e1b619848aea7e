"""What Blockers! and Breaker Blocks keep between boards to draw them faster (parts of boards as drawn, sprites of
badges, chips and panels, wrapped lines) must never change a picture: a board drawn with everything kept from the
boards before it is the same file as the board drawn from nothing, and tells the recorder the same texts."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageDraw

from engine.rng import Rng
from render import blockers, breakerblocks
from render.common import Drawn, Glyphs, recording
from tables.catalog import default_catalog
from tests.render.png_helpers import shown

NAMES = ["Alice", "Bob", "Carmen", "Dmitri", "Eun-ji"]
CATALOG = default_catalog()


def play(key: str, seats: int, options: dict[str, Any], seed: int, limit: int = 400, nexts: bool = False
         ) -> list[Any]:
    """The public view after each move of a random game, each followed by the view of the seat that moved (and with
    ``nexts`` that of the next seat to act, as a table draws them: the board, the mover's DM, the next one's view)."""
    game = CATALOG.get(key)
    state = game.new_game(seats, game.resolve_options(options), seed)
    rng = Rng(seed)
    views: list[Any] = []
    while game.to_act(state) and len(views) < limit:
        acting = sorted(game.to_act(state))
        seat = acting[rng.below(len(acting))]
        game.fast_apply(state, seat, game.sample_move(state, seat, rng))
        seen = [None, seat] + sorted(game.to_act(state))[:1] * nexts
        views += [json.loads(json.dumps(game.view(state, s))) for s in seen]
    return views


def texts(render: Callable[[Any, list[str]], bytes], view: Any) -> tuple[bytes, Counter[Drawn]]:
    with recording() as seen:
        png = render(view, NAMES)
    return png, Counter(seen)


@pytest.mark.parametrize(("seats", "mode"), [(2, "advanced"), (3, "basic"), (5, "basic")])
def test_blockers_boards_from_kept_parts_are_the_boards_drawn_whole(seats: int, mode: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    views = play("blockers", seats, {"mode": mode}, 7, nexts=True)
    blockers.forget_tables()
    hits = Counter[str]()
    get = blockers._PARTS.get

    def counted(key: tuple[object, ...]) -> Any:
        found = get(key)
        hits[f"{key[0]} {'hit' if found is not None else 'miss'}"] += 1
        return found

    monkeypatch.setattr(blockers._PARTS, "get", counted)
    kept = [blockers.render(v, NAMES) for v in views]
    # every kind of part was pasted again at least once: the comparison below is about something
    assert all(hits[f"{kind} hit"] for kind in ("board", "row", "card", "top", "rack")), hits
    monkeypatch.setattr(blockers, "_part", lambda img, box, key, draw: draw())
    whole = [blockers.render(v, NAMES) for v in views]
    assert [shown(p) for p in kept] == [shown(p) for p in whole]


def test_blockers_kept_parts_tell_the_recorder_their_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    views = play("blockers", 4, {}, 3, limit=40, nexts=True)
    blockers.forget_tables()
    for v in views[:20]:  # parts kept without their texts (no recorder open): drawn again under one
        blockers.render(v, NAMES)
    kept = [texts(blockers.render, v) for v in views[10:]]
    monkeypatch.setattr(blockers, "_part", lambda img, box, key, draw: draw())
    whole = [texts(blockers.render, v) for v in views[10:]]
    assert kept == whole
    assert any(c[Drawn("TO PLAY", 20)] for _, c in kept)


def _forget_breakerblocks() -> None:
    for kept in (breakerblocks._background, breakerblocks._wrap, breakerblocks._placed, breakerblocks._chip,
                 breakerblocks._panel, breakerblocks._last_frame_panel):
        kept.cache_clear()
    for drawn in (breakerblocks._badge, breakerblocks._circuits_panel, breakerblocks._last_frame):
        drawn.cache_clear()


@pytest.mark.parametrize("options", [{}, {"blind": True}])
def test_breakerblocks_boards_are_the_same_from_kept_sprites_or_from_nothing(options: dict[str, Any]) -> None:
    views = play("breakerblocks", 2, options, 5, limit=160)[::3]
    for v in views:  # (the empty table, the blocks' tiles, the palette: drawn once for good, telling their texts then)
        breakerblocks.render(v, NAMES)
    _forget_breakerblocks()
    warm = [texts(breakerblocks.render, v) for v in views]
    cold = []
    for v in views:
        _forget_breakerblocks()
        cold.append(texts(breakerblocks.render, v))
    assert warm == cold


def _chip_drawn_in_place(x: int, width: int, label: str, seat: int, module: bool, new: bool) -> Image.Image:
    """A hand's chip drawn straight on its panel, as the board drew every chip before they were kept."""
    img = Image.new("RGB", (width + 40, 60), breakerblocks.PANEL)
    draw = ImageDraw.Draw(img)
    fill = breakerblocks.MODULE_FILL if module else breakerblocks.SEAT[seat]
    cy = 30
    draw.rounded_rectangle((x, cy - 17, x + width, cy + 17), radius=7, fill=fill,
                           outline=breakerblocks.SEAT_DARK[seat], width=2)
    if new:
        draw.rounded_rectangle((x - 4, cy - 21, x + width + 4, cy + 21), radius=9, outline=breakerblocks.YELLOW,
                               width=3)
    ink = breakerblocks.INK if module else breakerblocks.SEAT_TEXT[seat]
    Glyphs(breakerblocks.BODY, ink, bold=True).paste(img, (x + width / 2, cy + 1), label, anchor="m")
    return img


@pytest.mark.parametrize("x", [20, 21])
@pytest.mark.parametrize(("label", "seat", "module", "new"), [
    ("2L", 0, False, False), ("1LS · new", 1, False, True), ("ANNIHILATE", 0, True, False),
    ("face-down module · new", 1, True, True), ("3", 1, False, False)])
def test_a_kept_chip_is_the_chip_drawn_in_place(x: int, label: str, seat: int, module: bool, new: bool) -> None:
    width = 20 + round(breakerblocks._width(label, breakerblocks.BODY, bold=True))
    expected = _chip_drawn_in_place(x, width, label, seat, module, new)
    img = Image.new("RGB", expected.size, breakerblocks.PANEL)
    chip = breakerblocks._chip(label, seat, module, new, width, bool(x % 2))
    img.paste(chip, (x - 4, 30 - 21), chip)
    assert img.tobytes() == expected.tobytes()


@pytest.mark.parametrize("x", [46, 47])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_kept_badge_is_the_badge_drawn_in_place(x: int, seat: int) -> None:
    expected = Image.new("RGB", (100, 60), breakerblocks.PANEL)
    ImageDraw.Draw(expected).rounded_rectangle((x, 30 - 14, x + 28, 30 + 14), radius=5, fill=breakerblocks.SEAT[seat],
                                               outline=breakerblocks.WHITE, width=2)
    Glyphs(breakerblocks.SMALL, breakerblocks.SEAT_TEXT[seat], bold=True).paste(expected, (x + 14, 30), str(seat + 1),
                                                                                 anchor="m")
    img = Image.new("RGB", (100, 60), breakerblocks.PANEL)
    img.paste(breakerblocks._badge(seat, bool(x % 2)), (x, 30 - 14))
    assert img.tobytes() == expected.tobytes()
