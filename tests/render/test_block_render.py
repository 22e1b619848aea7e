"""The BLOCK renderer: real views from seeded playouts of ``engine.block`` in, valid PNGs out.

Checks are on the decoded image (format, orientation, size, pixels in the cells, bands and boxes where
something must or must not be drawn) and on the texts it sets (render.common.recording: how big each is on a
phone, what the public picture says), never on timing. Views are the engine's own; a few tests then change
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
    CONSEC_FILL,
    HAZARD,
    IDENT_FILL,
    INK,
    MUTED,
    PAPER,
    PEN,
    PENDING,
    PLAYER_COLOURS,
    SECOND_CUE,
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
from render.colour_vision import APART, KINDS, delta_e, simulate
from render.common import Drawn, recording
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
    assert img.height > img.width, "the image is portrait, for a phone"
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
    return background(len(lay.cards), lay.focus).convert("RGB")


def dice_box(lay: Layout) -> tuple[int, int, int, int]:
    return (lay.dice_x, lay.dice_y - 31, lay.dice_x + 5 * 70 + 8, lay.dice_y + 31)


def texts(view: View, names: list[str] | None = None) -> list[Drawn]:
    with recording() as seen:
        render(view, NAMES if names is None else names)
    return seen


def test_key_colours_are_drawn_exactly() -> None:
    """The tests below look for these colours; the palette must hold each of them exactly."""
    palette = background(4).getpalette() or []
    for colour in (PAPER, PEN, PENDING, HAZARD, INK, WHITE, X_FILL, YELLOW, TILE):
        i = ix(colour)
        assert tuple(palette[3 * i: 3 * i + 3]) == colour


# --- layouts ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_layouts_fit_portrait_images(seats: int) -> None:
    lay = layout(seats)
    assert lay.h > lay.w == 600
    assert len(lay.cards) == seats and lay.solo == (seats == 1) and lay.drawn == tuple(range(seats))
    boxes = [(x, y, x + lay.sheet.w, y + lay.sheet.h) for x, y in lay.cards]
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert 0 <= x0 < x1 <= lay.w and lay.top_h < y0 < y1 <= lay.h
        for a0, b0, a1, b1 in boxes[i + 1:]:
            assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, "cards overlap"
    if seats > 1:
        assert len({x for x, _ in lay.cards}) >= 2 or seats == 1, "two sheets side by side"
        for x0, _, x1, y1 in lay.slots:
            assert 0 <= x0 < x1 <= lay.w and y1 <= lay.top_h


# The pixels a grid cell takes when the picture is shown 400 px wide on a phone (issue 24). Before (2,000 px wide
# pictures shown 400 wide): 1 seat 10.7, 2-3 seats 13.2, 4 seats 10.4, 5-6 seats 7.8.
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_cells_at_phone_width(seats: int) -> None:
    lay = layout(seats)
    assert lay.sheet.c * 400 / lay.w >= (24 if seats == 1 else 20)


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_my_view_draws_my_sheet_alone_and_large(seats: int) -> None:
    """The public board shows every sheet; "My view" draws the player's own sheet alone, large, and everyone's
    name, state and score under it."""
    state = find(seats, lambda s: s.turn >= 3 and s.phase == "play", seeds=range(3))
    for seat in (0, seats - 1):
        view = GAME.view(state, seat)
        lay = view_layout(view)
        assert lay.focus == seat and lay.drawn == (seat,) and lay.standings is not None
        assert lay.geom(seat).c * 400 / lay.w >= 24
        assert lay.geom(seat).c > layout(seats).sheet.c
        seen = [t.text for t in texts(view)]
        for p in range(seats):
            assert NAMES[p] in seen  # every player's name, in the standings
    assert view_layout(GAME.view(state, None)).focus is None


def test_the_own_view_shows_its_star_values_on_the_dice() -> None:
    state = find(2, lambda s: s.phase == "play" and "*" in s.dice[:4] and s.progress[0].stars
                 and s.progress[0].steps)
    view = GAME.view(state, 0)
    valued = decode(render(view, NAMES[:2]))
    plain = copy.deepcopy(view)
    plain["mine"]["stars"] = []
    unvalued = decode(render(plain, NAMES[:2]))
    dice = dice_box(view_layout(view))
    assert valued.crop(dice).tobytes() != unvalued.crop(dice).tobytes()
    public_view = GAME.view(state, None)
    public = decode(render(public_view, NAMES[:2]))
    public_dice = dice_box(view_layout(public_view))
    assert public.crop(public_dice).tobytes() == unvalued.crop(dice).tobytes()  # others never see the value


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
        for p in lay.drawn:
            player = view["players"][p]
            for r in range(14):
                for c in range(7):
                    box = inner(cell_box(lay, p, r, c), 4)
                    same = img.crop(box).tobytes() == table.crop(box).tobytes()
                    assert same == (player["grid"][r][c] is None), (p, r, c)
                    filled += player["grid"][r][c] is not None
        assert filled >= 10 * len(lay.drawn)


def test_setup_shows_no_dice_and_the_own_pending_cell() -> None:
    state = GAME.new_game(4, {}, 3)
    view = GAME.view(state, None)
    assert view["phase"] == "setup" and view["dice"] == []
    img = check(view)
    lay = view_layout(view)
    dice = dice_box(lay)
    assert count(img, dice, WHITE) < 1500  # only the words "Dice not rolled yet"
    played = find(4, lambda s: s.phase == "play" and s.turn == 1)
    assert count(check(GAME.view(played, None)), dice, WHITE) > 4 * 2000  # four white number dice
    # seat 2 writes its number: its own view outlines the cell, the public view shows nothing yet
    state, _ = GAME.apply(state, 2, GAME.parse_move("write d1"))
    own, public = GAME.view(state, 2), GAME.view(state, None)
    assert own["mine"]["placed"] == ["d1"]
    cells = {parse("d1")}
    assert band_count(check(own), view_layout(own), 2, cells, PENDING) > 80
    assert band_count(check(public), lay, 2, cells, PENDING) == 0
    assert public["players"][2]["grid"][0][3] is None


# --- highlights ----------------------------------------------------------------------------------------------------
def test_own_pending_cells_are_outlined_only_in_the_own_view() -> None:
    state = find(4, lambda s: s.phase == "play" and s.turn >= 3 and len(s.progress[1].placed) == 4
                 and s.progress[1].steps)
    own, public = GAME.view(state, 1), GAME.view(state, None)
    cells = {parse(name) for name in own["mine"]["placed"]}
    assert len(cells) == 4
    lay, public_lay = view_layout(own), view_layout(public)
    mine, theirs = check(own), check(public)
    assert band_count(mine, lay, 1, cells, PENDING) > 150
    assert band_count(theirs, public_lay, 1, cells, PENDING) < 20  # the Game Over line's dashes at most
    empty = empty_table(own)
    for r, c in cells:  # drawn in the own view, still empty in the public one
        assert own["players"][1]["grid"][r][c] is not None and public["players"][1]["grid"][r][c] is None
        box = inner(cell_box(lay, 1, r, c), 5)
        assert mine.crop(box).tobytes() != empty.crop(box).tobytes()
    # the own view draws no other sheet, the public one every sheet, and neither says "your picks" publicly
    assert lay.drawn == (1,) and public_lay.drawn == (0, 1, 2, 3)


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
    banner = (lay.dice_x + 5 * 70, lay.dice_y - 30, lay.w, lay.dice_y + 30)
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
        edge = (x + 20, y - 3, x + lay.sheet.w - 20, y)
        assert (count(img, edge, YELLOW) > lay.sheet.w * 2) == (seat in winners), seat
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
    band = (x0, y0 + 20, x1, y1 - 16)
    assert count(img, band, YELLOW) > 300  # the reached rung is outlined
    changed = copy.deepcopy(view)
    changed["players"][0]["score"] = 65
    assert img.crop(band).tobytes() != check(changed).crop(band).tobytes()


# --- every view of many games -------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_random_playouts_render(seats: int) -> None:
    """Views from random games, public and private, at every phase, render into valid small portrait PNGs."""
    rendered = 0
    for seed in range(2):
        states = playout(seats, seed)
        step = max(1, len(states) // 12)
        for i, state in enumerate(states):
            if i % step and i != len(states) - 1:
                continue
            seat = i % seats
            for viewer in (None, seat):
                check(GAME.view(state, viewer), rgb=False)  # (the pixels are not read here)
                rendered += 1
    assert rendered >= 40


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


# --- phones (issue 24) -----------------------------------------------------------------------------------------------
PHONE_NAMES = ["Alexandra-Marguerite", "محمد", "נועה", "Bo", "李小龙", "Zoë"]


@pytest.mark.parametrize("seats", [1, 2, 5, 6])
def test_every_needed_text_reads_on_a_phone(seats: int) -> None:
    """Shown 400 px wide, every text a player needs is at least 9 px high: the public board and each seat's own
    view, at the start, mid-game and at the end."""
    states = playout(seats, 0)
    for state in (states[0], states[len(states) // 2], states[-1]):
        for seat in (None, *range(seats)):
            view = GAME.view(state, seat)
            width = view_layout(view).w
            seen = texts(view, PHONE_NAMES[:seats])
            needed = [t for t in seen if not t.decorative]
            assert needed
            low = min(needed, key=lambda t: t.size)
            assert low.size * 400 / width >= 9, (seats, seat, low)


def test_the_last_turn_is_said_in_words_on_each_sheet() -> None:
    state = find(3, lambda s: s.phase == "play" and s.turn >= 4 and all(s.recent[p].get("placed") for p in range(3)))
    view = GAME.view(state, None)
    said = [t.text for t in texts(view)]
    lasts = [t for t in said if t.startswith("Last: ")]
    assert len(lasts) >= 3  # one a sheet (two lines where it is long)
    assert any("dropped" in t for t in lasts)
    bare = copy.deepcopy(view)
    for player in bare["players"]:
        player["recent"] = {}
    assert not [t for t in (d.text for d in texts(bare)) if t.startswith("Last")]


def test_the_public_board_says_nothing_to_one_player() -> None:
    for seats in (1, 3, 6):
        state = find(seats, lambda s: s.phase == "play" and s.turn >= 3, seeds=range(3))
        public = " | ".join(t.text for t in texts(GAME.view(state, None)))
        own = " | ".join(t.text for t in texts(GAME.view(state, 0)))
        if seats > 1:
            for word in ("YOUR VIEW", "Now:", "You are", "YOU", "your picks"):
                assert word not in public, word
            assert "YOU" in own
        assert "Last:" in public or state.turn <= 1


def test_colours_that_tell_things_apart_have_words() -> None:
    assert PLAYER_COLOURS == {"identical combo": IDENT_FILL, "consecutive combo": CONSEC_FILL}
    a, b = PLAYER_COLOURS.values()
    assert delta_e(a, b) >= APART and all(delta_e(simulate(a, k), simulate(b, k)) >= APART for k in KINDS)
    state = find(3, lambda s: s.phase == "play" and s.turn >= 2)
    seen = texts(GAME.view(state, None))
    for cue in SECOND_CUE.values():
        assert any(t.text == cue and t.size * 400 / 600 >= 9 for t in seen), cue
