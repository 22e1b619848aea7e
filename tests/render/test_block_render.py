"""The BLOCK renderer: real views from seeded playouts of ``engine.block`` in, valid PNGs out.

Checks are on the decoded image (format, orientation, size, pixels in the cells, bands and boxes where
something must or must not be drawn), never on timing. Views are the engine's own; a few tests then change
one field of a real view to compare two images that differ in exactly that field.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from PIL import Image

from engine.block import Block
from engine.block.view import BlockView
from engine.rng import Rng
from render.block import (
    HAZARD,
    INK,
    MUTED,
    PAPER,
    PEN,
    PENDING,
    TILE,
    VERMILLION,
    WHITE,
    X_FILL,
    YELLOW,
    Layout,
    background,
    cell_box,
    ix,
    layout,
    render,
    tile_box,
    view_layout,
)
from tables.catalog import default_catalog
from tests.render.png_helpers import decode
from tests.view_schema import problems

GAME = Block()
MAX_BYTES = 200 * 1024
NAMES = ["Alice", "Bob", "Carmen", "Dmitri", "Eun-ji", "Fatima"]
COLUMNS = "abcdefg"

View = BlockView
Cell = tuple[int, int]  # (row index, col index), row 0 = row 1


# --- playouts --------------------------------------------------------------------------------------------------
def _pick(moves: list[Any], rng: Rng) -> Any:
    """A random legal move, but a combo whenever one can be made (so that letters get circled and BLOCKs drop)."""
    combos = [m for m in moves if m.kind == "combo"]
    return rng.choice(combos) if combos else rng.choice(moves)


@cache
@cache
def playout(seats: int, seed: int) -> tuple[Any, ...]:
    """Every state of one seeded game, one per decision, to the end (played once per session: the tests read the
    states and change only deep copies of their views)."""
    state = GAME.new_game(seats, {}, seed)
    rng = Rng(seed)
    states = [state]
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, _pick(GAME.legal_moves(state, seat), rng))
        states.append(state)
    assert state.phase == "over"
    return tuple(states)


def find(seats: int, test: Callable[[Any], bool], seeds: range = range(40)) -> Any:
    for seed in seeds:
        for state in playout(seats, seed):
            if test(state):
                return state
    raise AssertionError("no state of the playouts matches")


# --- checks on the image ---------------------------------------------------------------------------------------
def check(view: View, names: list[str] | None = None, rgb: bool = True) -> Image.Image:
    assert not problems(view, BlockView), problems(view, BlockView)[:3]  # what the test changed is still a view
    png = render(view, NAMES if names is None else names)
    assert len(png) < MAX_BYTES
    img = decode(png, rgb)
    lay = view_layout(view)
    assert img.size == (lay.w, lay.h)
    assert img.width > img.height, "the image is landscape"
    return img


def count(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    crop = img.crop(box)
    return sum(n for n, c in crop.getcolors(crop.width * crop.height) or [] if c == colour)


def inner(box: tuple[int, int, int, int], inset: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return (x0 + inset, y0 + inset, x1 - inset + 1, y1 - inset + 1)


def bands(lay: Layout, seat: int, cells: set[Cell]) -> list[tuple[int, int, int, int]]:
    """Thin boxes along the outer edges of a group of cells, on the grid lines."""
    out = []
    for r, c in cells:
        x0, y0, x1, y1 = cell_box(lay, seat, r, c)
        if (r + 1, c) not in cells:
            out.append((x0 + 4, y0 - 1, x1 - 3, y0 + 2))
        if (r - 1, c) not in cells:
            out.append((x0 + 4, y1 - 1, x1 - 3, y1 + 2))
        if (r, c - 1) not in cells:
            out.append((x0 - 1, y0 + 4, x0 + 2, y1 - 3))
        if (r, c + 1) not in cells:
            out.append((x1 - 1, y0 + 4, x1 + 2, y1 - 3))
    return out


def band_count(img: Image.Image, lay: Layout, seat: int, cells: set[Cell], colour: tuple[int, int, int]) -> int:
    return sum(count(img, box, colour) for box in bands(lay, seat, cells))


def parse(name: str) -> Cell:
    return int(name[1:]) - 1, COLUMNS.index(name[0])


def empty_table(view: View) -> Image.Image:
    lay = view_layout(view)
    return background(1 if lay.solo else len(lay.cards), lay.focus).convert("RGB")


def test_key_colours_are_drawn_exactly() -> None:
    """The tests below look for these colours; the palette must hold each of them exactly."""
    palette = background(4).getpalette() or []
    for colour in (PAPER, PEN, PENDING, HAZARD, INK, WHITE, X_FILL, YELLOW, TILE):
        i = ix(colour)
        assert tuple(palette[3 * i: 3 * i + 3]) == colour


# --- layouts ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_layouts_fit_landscape_images(seats: int) -> None:
    lay = layout(seats)
    assert lay.w > lay.h and lay.w <= 2000
    assert len(lay.cards) == seats and lay.solo == (seats == 1)
    boxes = [(x, y, x + lay.sheet.w, y + lay.sheet.h) for x, y in lay.cards]
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert 0 <= x0 < x1 <= lay.w and 150 < y0 < y1 <= lay.h
        for a0, b0, a1, b1 in boxes[i + 1:]:
            assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, "cards overlap"
    # big enough cells to read a number on a phone, where 2000 px become about 800 device pixels
    assert lay.sheet.c >= (36 if seats >= 5 else 45)
    if seats >= 5:
        assert len({y for _, y in lay.cards}) == 2, "five or six players: two rows of sheets"


# Pixels a grid cell takes when Discord shows the image inline 520 px wide on a phone (issue 8: the sheets must be
# readable there for 1-4 players, and with a tap for 5-6). Before: 16.2, 14.0, 14.6, 12.0, 10.1, 10.1.
PHONE_CELL = {1: 22, 2: 18, 3: 18, 4: 14, 5: 11, 6: 11}


@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_cells_at_phone_width(seats: int) -> None:
    lay = layout(seats)
    assert lay.sheet.c * 520 / lay.w >= PHONE_CELL[seats]


@pytest.mark.parametrize("seats", [5, 6])
def test_with_five_or_six_players_my_view_draws_my_sheet_large(seats: int) -> None:
    """The public board shows every sheet small; "My view" (one tap) draws the player's own sheet readable on a
    phone and the others beside it."""
    state = find(seats, lambda s: s.turn >= 3 and s.phase == "play", seeds=range(3))
    for seat in (0, seats - 1):
        lay = view_layout(GAME.view(state, seat))
        assert lay.focus == seat
        assert lay.geom(seat).c * 520 / lay.w >= 18
        assert all(lay.geom(p).c < lay.geom(seat).c for p in range(seats) if p != seat)
        boxes = [(x, y, x + lay.geom(p).w, y + lay.geom(p).h) for p, (x, y) in enumerate(lay.cards)]
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            assert 0 <= x0 < x1 <= lay.w and 0 <= y0 < y1 <= lay.h
            for a0, b0, a1, b1 in boxes[i + 1:]:
                assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, "cards overlap"
    assert view_layout(GAME.view(state, None)).focus is None


def test_the_own_view_shows_its_star_values_on_the_dice() -> None:
    state = find(2, lambda s: s.phase == "play" and "*" in s.dice[:4] and s.progress[0].stars
                 and s.progress[0].steps)
    view = GAME.view(state, 0)
    valued = decode(render(view, NAMES[:2]))
    plain = copy.deepcopy(view)
    plain["mine"]["stars"] = []
    unvalued = decode(render(plain, NAMES[:2]))
    lay = view_layout(view)
    dice_box = (lay.dice_x, 0, lay.dice_x + 5 * 72 + 8, 100)
    assert valued.crop(dice_box).tobytes() != unvalued.crop(dice_box).tobytes()
    public = decode(render(GAME.view(state, None), NAMES[:2]))
    assert public.crop(dice_box).tobytes() == unvalued.crop(dice_box).tobytes()  # others never see the value


# --- every player count ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_every_player_count_draws_the_grids(seats: int) -> None:
    """Mid-game, public and a seat's own view: every filled cell is drawn over the empty sheet, every empty cell
    is left as it was."""
    state = find(seats, lambda s: s.turn >= 5 and s.phase == "play", seeds=range(3))
    for seat in (None, seats - 1):
        view = GAME.view(state, seat)
        img = check(view)
        table = empty_table(view)
        lay = view_layout(view)
        filled = 0
        for p, player in enumerate(view["players"]):
            for r in range(14):
                for c in range(7):
                    box = inner(cell_box(lay, p, r, c), 4)
                    same = img.crop(box).tobytes() == table.crop(box).tobytes()
                    assert same == (player["grid"][r][c] is None), (p, r, c)
                    filled += player["grid"][r][c] is not None
        assert filled >= 10 * seats


def test_setup_shows_no_dice_and_the_own_pending_cell() -> None:
    state = GAME.new_game(4, {}, 3)
    view = GAME.view(state, None)
    assert view["phase"] == "setup" and view["dice"] == []
    img = check(view)
    lay = view_layout(view)
    dice = (lay.dice_x, 10, lay.dice_x + 400, 72)
    assert count(img, dice, WHITE) < 1500  # only the words "Dice not rolled yet"
    played = find(4, lambda s: s.phase == "play" and s.turn == 1)
    assert count(check(GAME.view(played, None)), dice, WHITE) > 4 * 2000  # four white number dice
    # seat 2 writes its number: its own view outlines the cell, the public view shows nothing yet
    state, _ = GAME.apply(state, 2, GAME.parse_move("write d1"))
    own, public = GAME.view(state, 2), GAME.view(state, None)
    assert own["mine"]["placed"] == ["d1"]
    cells = {parse("d1")}
    assert band_count(check(own), lay, 2, cells, PENDING) > 80
    assert band_count(check(public), lay, 2, cells, PENDING) == 0
    assert public["players"][2]["grid"][0][3] is None


# --- highlights ----------------------------------------------------------------------------------------------------
def test_own_pending_cells_are_outlined_only_in_the_own_view() -> None:
    state = find(4, lambda s: s.phase == "play" and s.turn >= 3 and len(s.progress[1].placed) == 4
                 and s.progress[1].steps)
    own, public = GAME.view(state, 1), GAME.view(state, None)
    cells = {parse(name) for name in own["mine"]["placed"]}
    assert len(cells) == 4
    lay = view_layout(own)
    mine, theirs = check(own), check(public)
    assert band_count(mine, lay, 1, cells, PENDING) > 150
    assert band_count(theirs, lay, 1, cells, PENDING) < 20  # the Game Over line's dashes at most
    for r, c in cells:  # drawn in the own view, still empty in the public one
        assert own["players"][1]["grid"][r][c] is not None and public["players"][1]["grid"][r][c] is None
        box = inner(cell_box(lay, 1, r, c), 5)
        assert mine.crop(box).tobytes() != theirs.crop(box).tobytes()
    # nobody else's sheet changes between the two views
    for seat in (0, 2, 3):
        x, y = lay.cards[seat]
        box = (x, y, x + lay.sheet.w, y + lay.sheet.h)
        assert mine.crop(box).tobytes() == theirs.crop(box).tobytes()


def test_last_turn_cells_are_outlined_with_dashes() -> None:
    state = find(3, lambda s: s.phase == "play" and s.turn >= 4 and all(s.progress[p].steps for p in range(3))
                 and all(s.recent[p].get("placed") for p in range(3)))
    view = GAME.view(state, None)
    lay = view_layout(view)
    img = check(view)
    plain = copy.deepcopy(view)
    for player in plain["players"]:
        player["recent"] = {}
    bare = check(plain)
    for seat, player in enumerate(view["players"]):
        cells = {parse(name) for name in player["recent"]["placed"]}
        assert cells
        assert band_count(img, lay, seat, cells, HAZARD) > 60
        assert band_count(img, lay, seat, cells, INK) > 60  # yellow dashes on a black band
        assert band_count(bare, lay, seat, cells, HAZARD) == 0


# --- cells -------------------------------------------------------------------------------------------------------
def test_an_x_cell_and_a_number_cell_look_different() -> None:
    state = find(2, lambda s: s.phase == "play" and s.turn >= 2)
    view = GAME.view(state, None)
    lay = view_layout(view)
    r, c = 5, 6  # an empty cell away from the others
    assert view["players"][0]["grid"][r][c] is None
    cells = {}
    for value in ("X", 5, 8):
        changed = copy.deepcopy(view)
        changed["players"][0]["grid"][r][c] = value
        cells[value] = check(changed).crop(inner(cell_box(lay, 0, r, c), 1))
    area = cells["X"].width * cells["X"].height
    assert count(cells["X"], (0, 0, *cells["X"].size), X_FILL) > area // 3  # dark
    assert count(cells[5], (0, 0, *cells[5].size), X_FILL) < area // 50
    assert count(cells[5], (0, 0, *cells[5].size), PAPER) > area // 2  # light, with a number
    assert len({im.tobytes() for im in cells.values()}) == 3


def test_a_combo_is_drawn_in_its_cells_and_only_there() -> None:
    state = find(3, lambda s: s.phase == "play" and any(len(sh.combos) >= 2 for sh in s.sheets))
    view = GAME.view(state, None)
    lay = view_layout(view)
    seat = next(p for p, pl in enumerate(view["players"]) if len(pl["combos"]) >= 2)
    combo = view["players"][seat]["combos"][0]
    cells = {parse(name) for name in combo["cells"]}
    without = copy.deepcopy(view)
    without["players"][seat]["combos"] = view["players"][seat]["combos"][1:]
    with_img, without_img = check(view), check(without)
    for r in range(14):
        for c in range(7):
            box = cell_box(lay, seat, r, c)
            differs = with_img.crop(box).tobytes() != without_img.crop(box).tobytes()
            assert differs == ((r, c) in cells), (r, c)
            if (r, c) in cells:
                assert count(with_img, box, PEN) > lay.sheet.c  # the pen outline
    # and the track shows the combo made
    if combo["size"] == 8:
        box = lay.sheet.bonus
    else:
        box = (lay.sheet.ident if combo["type"] == "identical" else lay.sheet.consec)[combo["size"] - 3]
    x, y = lay.cards[seat]
    track = (x + box[0], y + box[1], x + box[2], y + box[3])
    if not any(c["type"] == combo["type"] and c["size"] == combo["size"] for c in without["players"][seat]["combos"]):
        assert count(with_img, track, PEN) > count(without_img, track, PEN) + 200


def test_circled_and_crossed_letters_on_the_track() -> None:
    state = find(3, lambda s: s.phase == "play" and s.turn >= 2)
    view = GAME.view(state, None)
    lay = view_layout(view)
    x, y = lay.cards[0]
    lx0, ly0, lx1, ly1 = lay.sheet.letters[1]
    box = (x + lx0 - 2, y + ly0 - 2, x + lx1 + 3, y + ly1 + 3)
    view["players"][0]["letters"] = []
    view["blocks"][1]["crossed"] = False
    plain = check(view)
    circled = copy.deepcopy(view)
    circled["players"][0]["letters"] = ["B"]
    circled["blocks"][1]["circled_by"] = [0]
    crossed = copy.deepcopy(view)
    crossed["blocks"][1]["crossed"] = True
    ring, stroke = check(circled), check(crossed)
    assert count(ring, box, PEN) > count(plain, box, PEN) + 60
    assert count(stroke, box, INK) > count(plain, box, INK) + 20
    # the board's slot B: crossed for everyone, with a big cross and the word
    slot = lay.slots[1]
    assert count(stroke, slot, MUTED) > count(plain, slot, MUTED) + 800


# --- turns ---------------------------------------------------------------------------------------------------------
def test_a_penalty_turn_has_a_banner_and_marks_the_slot() -> None:
    state = find(3, lambda s: s.penalty != "" and s.phase == "play")
    view = GAME.view(state, None)
    letter = view["penalty"]
    lay = view_layout(view)
    img = check(view)
    calm = copy.deepcopy(view)
    calm["penalty"] = ""
    quiet = check(calm)
    banner = (lay.dice_x, 90, lay.dice_x + 400, 140)
    assert count(img, banner, VERMILLION) > count(quiet, banner, VERMILLION) + 1500
    x0, y0, x1, y1 = lay.slots["ABCDE".index(letter)]
    ring = (x0 - 4, y0 - 4, x1 + 5, y0 + 3)
    assert count(img, ring, VERMILLION) > (x1 - x0) * 3
    assert count(quiet, ring, VERMILLION) == 0


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_game_over_marks_the_winners(seats: int) -> None:
    state = playout(seats, 4)[-1]
    view = GAME.view(state, None)
    winners = set(view["result"]["winners"])
    assert winners
    img = check(view)
    lay = view_layout(view)
    for seat, (x, y) in enumerate(lay.cards):
        edge = (x + 20, y - 6, x + lay.sheet.w - 20, y - 1)
        assert (count(img, edge, YELLOW) > lay.sheet.w * 3) == (seat in winners), seat
    # the final scores are shown: change one and the image changes where that sheet's score is
    changed = copy.deepcopy(view)
    changed["players"][0]["score"] += 10
    other = check(changed)
    x, y = lay.cards[0]
    hx0, hy0, hx1, hy1 = lay.sheet.head
    head = (x + hx0, y + hy0, x + hx1, y + hy1)
    assert img.crop(head).tobytes() != other.crop(head).tobytes()


def test_thinking_and_submitted_read_differently() -> None:
    state = find(2, lambda s: s.phase == "play" and s.turn >= 2)
    view = GAME.view(state, None)
    lay = view_layout(view)
    x, y = lay.cards[0]
    hx0, hy0, hx1, hy1 = lay.sheet.head
    head = (x + hx0, y + hy0, x + hx1, y + hy1)
    images = []
    for waiting in (True, False):
        changed = copy.deepcopy(view)
        changed["players"][0]["waiting"] = waiting
        images.append(check(changed))
    assert images[0].crop(head).tobytes() != images[1].crop(head).tobytes()
    # submitted is a dark badge, thinking a light one: not the colour alone but the fill and the word
    assert count(images[1], head, INK) > count(images[0], head, INK) + 500


# --- solo -------------------------------------------------------------------------------------------------------
def test_solo_tiles_sit_at_their_notches() -> None:
    state = find(1, lambda s: s.phase == "play" and 4 in s.notches and len(set(s.notches)) >= 3)
    view = GAME.view(state, 0)
    assert view["solo"] and len(view["players"]) == 1
    lay = view_layout(view)
    assert lay.solo and lay.tracks is not None
    for notches in ([b["notch"] for b in view["blocks"]], [0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [4, 4, 4, 4, 4]):
        changed = copy.deepcopy(view)
        for block, notch in zip(changed["blocks"], notches, strict=True):
            block["notch"] = notch
        img = check(changed)
        for slot, notch in enumerate(notches):
            for k in range(5):
                x0, y0, x1, y1 = tile_box(lay, slot, k)
                tile = count(img, (x0 + 4, y0 + 4, x1 - 3, y1 - 3), TILE)
                area = (x1 - x0) * (y1 - y0)
                assert (tile > area // 3) == (k == notch), (notches, slot, k)


def test_solo_game_over_and_the_ladder() -> None:
    state = playout(1, 2)[-1]
    view = GAME.view(state, None)
    assert view["phase"] == "over" and view["result"]["reason"].startswith("solo score")
    img = check(view)
    lay = view_layout(view)
    assert lay.ladder is not None
    x0, y0, x1, y1 = lay.ladder
    band = (x0, y0 + 24, x1, y1 - 20)
    assert count(img, band, YELLOW) > 300  # the reached rung is outlined
    changed = copy.deepcopy(view)
    changed["players"][0]["score"] = 65
    assert img.crop(band).tobytes() != check(changed).crop(band).tobytes()


# --- every view of many games -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_random_playouts_render(seats: int) -> None:
    """Views from random games, public and private, at every phase, render into valid small landscape PNGs."""
    rendered = 0
    for seed in range(3):
        states = playout(seats, seed)
        step = max(1, len(states) // 12)
        for i, state in enumerate(states):
            if i % step and i != len(states) - 1:
                continue
            seat = i % seats
            for viewer in (None, seat):
                check(GAME.view(state, viewer), rgb=False)  # (the pixels are not read here)
                rendered += 1
    assert rendered >= 60


# --- the contract --------------------------------------------------------------------------------------------------
def test_rendering_is_pure_and_registered() -> None:
    state = find(4, lambda s: s.phase == "play" and s.turn >= 4)
    view = GAME.view(state, 2)
    names = list(NAMES)
    snapshot = copy.deepcopy(view)
    once = render(view, names)
    assert view == snapshot and names == NAMES
    assert render(view, names) == once
    assert default_catalog().entry("block").render(view, names) == once
    assert render(GAME.view(state, None), names) != once


@pytest.mark.parametrize("names", [
    ["A" * 80, "B" * 80, "C" * 80, "D" * 80, "E" * 80, "F" * 80],
    ["Zoë Åström", "李小龙", "🎲🎲", "", "x", "y"],
    [],
])
def test_awkward_names_still_render(names: list[str]) -> None:
    for seats in (1, 4, 6):
        state = find(seats, lambda s: s.phase == "play" and s.turn >= 3, seeds=range(3))
        check(GAME.view(state, 0), names)
        check(GAME.view(playout(seats, 1)[-1], None), names)
