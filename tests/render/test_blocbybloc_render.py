"""The Bloc by Bloc board (``render/blocbybloc.py``): real views from seeded random games in, valid PNGs out.

What a player relies on: every district drawn, with its blocs, cops, van, shops and occupation where the view puts
them and nowhere else; factions told apart by their letters, not only by colour; barricades on their connection;
the police morale track, who is to act, the dice and the seat's own cards; nothing of a hand, an offer's cards or
a deck in the public image. Checks are on the decoded pixels (exact colours, boxes of the layout), never on
timing. Hand-made cases start from a real view and change one field of it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from functools import cache

import pytest
from PIL import Image

import render.blocbybloc as rb
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.model import LOOT_NAMES, BlocState
from engine.blocbybloc.view import BlocView
from engine.rng import Rng
from render.blocbybloc import (
    COP,
    FACTION_COLOURS,
    GAP,
    GRID_X,
    GRID_Y,
    SIDE_X,
    TABLE,
    TILE,
    H,
    W,
    render,
)
from render.common import WHITE, YELLOW
from tables.catalog import default_catalog
from tests.render.png_helpers import decode
from tests.view_schema import problems

G = BlocByBloc()
NAMES = ["Мария", "Zoë Åström", "李小龙", "Dmitri"]
SEEDS = {2: 31, 3: 32, 4: 24}  # games of 4-7 nights with plain random moves (most seeds end on the first Sunrise)
MAX_BYTES = 250 * 1024
Box = tuple[int, int, int, int]
PANEL_BOX: Box = (SIDE_X, 0, W, H)
MORALE_BAND: Box = (SIDE_X, 110, W, 180)  # while the game goes on
GRID_BOX: Box = (0, 0, SIDE_X - 20, H)


# --- games -------------------------------------------------------------------------------------------------------
@cache
def playout(seats: int, seed: int) -> tuple[BlocState, ...]:
    """Every state of one seeded game to its end, each move the engine's ``sample_move`` for the lowest seat to
    act (played once per session; tests change only copies)."""
    state = G.new_game(seats, {}, seed)
    rng = Rng(seed)
    states = [state]
    while G.to_act(state) and len(states) < 2000:
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.sample_move(state, seat, rng))
        states.append(state)
    assert G.result(state) is not None, "the game ends"
    return tuple(states)


def game(seats: int) -> tuple[BlocState, ...]:
    return playout(seats, SEEDS[seats])


def mid_game(seats: int) -> BlocState:
    """A state in a faction's turn with dice to spend and cards in hand (a board with something on it)."""
    for state in game(seats):
        if state.phase == "sunset" and state.night >= 2 and state.dice and not state.pending and any(state.hands):
            return state
    raise AssertionError("no state of the playout is in a turn of the second night")


# --- the image -----------------------------------------------------------------------------------------------------
def check(view: BlocView, names: list[str] | None = None) -> Image.Image:
    assert not problems(view, BlocView), problems(view, BlocView)[:3]  # what a test changed is still a view
    png = render(view, NAMES if names is None else names)
    assert len(png) < MAX_BYTES
    img = decode(png)
    assert img.size == (W, H) == (1600, 1000)
    return img


def tile_box(cell: str) -> Box:
    row, col = "ABCDE".index(cell[0]), int(cell[1]) - 1
    x, y = GRID_X + col * (TILE + GAP), GRID_Y + row * (TILE + GAP)
    return (x, y, x + TILE, y + TILE)


@cache
def drawn(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """``colour`` as it comes out of the PNG: each board is mapped to the renderer's palette, and Pillow maps a
    colour to a near one now and then (pure white comes out as (251, 252, 251))."""
    pixel = Image.new("RGB", (1, 1), colour).quantize(palette=rb._palette(), dither=Image.Dither.NONE)
    out = pixel.convert("RGB").getpixel((0, 0))
    assert isinstance(out, tuple)
    return out[0], out[1], out[2]


def colours(img: Image.Image, box: Box) -> dict[tuple[int, int, int], int]:
    crop = img.crop(box)
    return {c: n for n, c in crop.getcolors(crop.width * crop.height) or []}  # type: ignore[misc]


def count(img: Image.Image, box: Box, colour: tuple[int, int, int]) -> int:
    return colours(img, box).get(drawn(colour), 0)


def same(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return a.crop(box).tobytes() == b.crop(box).tobytes()


def cell_index(view: BlocView, cell: str) -> int:
    return next(i for i, c in enumerate(view["cells"]) if c["cell"] == cell)


def quiet_cell(view: BlocView) -> str:
    """A district with an occupation circle and nothing on it yet (no blocs, police, occupation), off the last
    column and row (so that the gaps beside it can be watched)."""
    for c in view["cells"]:
        if (c["type"] != "Highway" and c["circle"] and not any(c["blocs"]) and not c["cops"] and c["van"] < 0
                and c["occupation"] is None and c["cell"][1] != "5" and c["cell"][0] != "E"):
            return c["cell"]
    raise AssertionError("no quiet district in the view")


def grid_but(cell: str) -> list[Box]:
    """Every tile of the city except ``cell``'s."""
    return [tile_box(f"{r}{c}") for r in "ABCDE" for c in "12345" if f"{r}{c}" != cell]


# --- random games --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_render_every_few_moves(seats: int) -> None:
    """Public and seat views along a whole game: valid PNGs of the board's size, every district drawn, and the
    blocs and cops of each district on that district's tile (chips in the faction's or the police's colour)."""
    states = game(seats)
    middle = len(states) // 2
    phases = set()
    for i in (0, len(states) // 4, middle, len(states) - 1):
        state = states[i]
        phases.add(state.phase)
        viewers: list[int | None] = [None, *range(seats)] if i == middle else [None, i % seats]
        for viewer in viewers:
            view = G.view(state, viewer)
            img = check(view)
            assert len(img.crop(PANEL_BOX).getcolors(1 << 16) or []) > 20, "the panel is drawn"
            for c in view["cells"]:
                tile = colours(img, tile_box(c["cell"]))
                assert tile.get(drawn(TABLE), 0) < TILE * TILE // 20, f"{c['cell']} is drawn"
                assert (tile.get(drawn(COP), 0) > 300) == (c["cops"] > 0), (i, c["cell"], c["cops"])
                occupier = c["occupation"]["faction"] if c["occupation"] else -1
                for f, colour in enumerate(FACTION_COLOURS):
                    shown = tile.get(drawn(colour), 0) > 300
                    assert shown == (c["blocs"][f] > 0 or occupier == f), (i, c["cell"], f, c["blocs"])
    assert {"start", "sunset", "over"} <= phases


# --- what only a seat may see ----------------------------------------------------------------------------------------
OTHER_CARD = {card: sorted(LOOT_NAMES)[(i + 1) % len(LOOT_NAMES)] for i, card in enumerate(sorted(LOOT_NAMES))}


def disguised(state: BlocState) -> BlocState:
    """The same position with everything hidden changed: each card in a hand or an open offer another one, the
    loot and police decks in another order, the manifestation cards under other districts."""
    other = copy.deepcopy(state)
    other.hands = [[OTHER_CARD[c] for c in hand] for hand in other.hands]
    for offer in other.offers:
        offer.cards = [OTHER_CARD[c] for c in offer.cards]
    other.loot_deck = other.loot_deck[1:] + other.loot_deck[:1]
    other.police_deck = other.police_deck[1:] + other.police_deck[:1]
    under = [i for i, card in enumerate(other.under) if card]
    for i, j in zip(under, under[1:] + under[:1], strict=True):
        other.under[j] = state.under[i]
    return other


@pytest.mark.parametrize("seats", [2, 4])
def test_the_public_image_never_shows_a_hand_an_offer_or_a_deck(seats: int) -> None:
    """Two positions that differ only in what is hidden make the same public image, and the same image for every
    seat that does not hold those cards; a seat that holds cards (or is a side of an open offer) sees them, and
    only in the panel: the city is the same for everyone."""
    states = game(seats)
    held = [s for s in states if any(s.hands) and not s.offers and s.night >= 2]
    picked = held[:1] + [s for s in states if s.offers][:1]
    compared = private = 0
    for state in picked:
        if not any(state.hands):
            continue
        other = disguised(state)
        assert render(G.view(state, None), NAMES) == render(G.view(other, None), NAMES)
        public = check(G.view(state, None))
        for seat in range(seats):
            mine = {f for f in state.order if state.controller[f] == seat}
            sees = any(state.hands[f] for f in mine) or any(mine & {o.frm, o.to} for o in state.offers)
            own = render(G.view(state, seat), NAMES)
            assert (own == render(G.view(other, seat), NAMES)) == (not sees), (seat, state.ply)
            if sees:
                img = decode(own)
                assert same(img, public, GRID_BOX) and not same(img, public, PANEL_BOX)
                private += 1
        compared += 1
    assert compared == 2 and private >= 2


def test_an_offers_cards_are_named_only_for_its_two_sides() -> None:
    state = next(s for s in game(4) if s.offers)
    offer = state.offers[0]
    sides = {state.controller[offer.frm], state.controller[offer.to]}
    for seat in range(4):
        view = G.view(state, seat)
        without = copy.deepcopy(view)
        without["offers"][0]["names"] = []
        shows = render(view, NAMES) != render(without, NAMES)
        assert shows == (seat in sides), seat
    view = G.view(state, None)
    assert all(not o["names"] for o in view["offers"])
    named = copy.deepcopy(view)
    named["offers"][0]["names"] = ["Fireworks"]
    assert render(named, NAMES) != render(view, NAMES)  # the renderer draws what it is given, no more


# --- the contract ----------------------------------------------------------------------------------------------------
def test_rendering_is_pure_deterministic_and_registered() -> None:
    state = mid_game(3)
    view = G.view(state, state.controller[state.faction_now()])
    names = list(NAMES)
    snapshot = copy.deepcopy(view)
    once = render(view, names)
    assert view == snapshot and names == NAMES
    rb._recent.clear()  # drawn afresh, not the remembered picture
    assert render(copy.deepcopy(view), list(NAMES)) == once
    assert default_catalog().entry("blocbybloc").render(view, names) == once
    assert render(G.view(state, None), names) != once  # the seat's own cards


def test_different_positions_and_names_give_different_images() -> None:
    states = game(4)[:16]
    images = {render(G.view(s, None), NAMES) for s in states}
    assert len(images) >= 12
    view = G.view(mid_game(2), None)
    assert render(view, ["Ann", "Bo"]) != render(view, NAMES[:2])
    assert render(view, NAMES[1::-1]) != render(view, NAMES[:2])  # who plays which faction
    assert render(view, NAMES[:2]) == render(view, [*NAMES[:2], "Nobody", "Else"])  # names of no seat: not drawn


@pytest.mark.parametrize("names", [["A" * 80, "B" * 80, "C" * 80, "D" * 80], ["", "🎲🎲", "x"], []])
def test_awkward_names_still_render(names: list[str]) -> None:
    for seats in (2, 4):
        view = G.view(mid_game(seats), 0)
        img = check(view, names)
        if not names:  # "Player N" stands in for a missing name
            assert not same(img, check(view, ["Ann", "Bo", "Cy", "Di"]), PANEL_BOX)


# --- not colour alone ------------------------------------------------------------------------------------------------
@pytest.fixture
def monotone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every faction drawn in one grey, as a reader who cannot tell the colours apart might see them."""
    rb._palette()  # the palette is taken once, from the real colours
    monkeypatch.setattr(rb, "FACTION_COLOURS", ((200, 200, 200),) * 4)
    rb._recent.clear()
    rb._dressed_tile.cache_clear()
    yield
    rb._recent.clear()
    rb._dressed_tile.cache_clear()


def test_factions_are_told_apart_without_their_colours(monotone: None) -> None:
    view = G.view(mid_game(4), None)
    cell = quiet_cell(view)
    i = cell_index(view, cell)
    tiles = []
    for f in range(4):
        blocs = copy.deepcopy(view)
        blocs["cells"][i]["blocs"] = [2 if g == f else 0 for g in range(4)]
        occupied = copy.deepcopy(view)
        occupied["cells"][i]["occupation"] = {"faction": f, "kind": "hall"}
        tiles += [check(blocs).crop(tile_box(cell)).tobytes(), check(occupied).crop(tile_box(cell)).tobytes()]
    assert len(set(tiles)) == 8, "a bloc or an occupation names its faction by letter"


# --- the city ---------------------------------------------------------------------------------------------------------
def test_police_are_written_on_their_district_and_only_there() -> None:
    """Cops as a count in words, a van with its damage in words: every combination its own tile, the rest of the
    city untouched. A van hit once and one hit twice share a colour: only the words differ."""
    view = G.view(mid_game(3), None)
    cell = quiet_cell(view)
    i = cell_index(view, cell)
    bare = check(view)
    tiles = {}
    for cops, van in [(c, v) for c in (0, 1, 3) for v in (-1, 1, 2)] + [(0, 0)]:
        changed = copy.deepcopy(view)
        changed["cells"][i]["cops"] = cops
        changed["cells"][i]["van"] = van
        img = check(changed)
        assert all(same(img, bare, box) for box in grid_but(cell))
        assert (count(img, tile_box(cell), COP) > 300) == (cops > 0)
        tiles[cops, van] = img.crop(tile_box(cell)).tobytes()
    assert len(set(tiles.values())) == 10


def test_a_crowded_district_stays_on_its_tile() -> None:
    """Four factions' blocs (one digit each), nine cops and a wrecked van fit in their tile: nothing spills into
    the gap beside it (where the next tile, drawn later, would hide the end of a chip)."""
    view = G.view(mid_game(4), None)
    cell = quiet_cell(view)
    i = cell_index(view, cell)
    crowded = copy.deepcopy(view)
    c = crowded["cells"][i]
    c["blocs"], c["cops"], c["van"], c["occupation"] = [9, 9, 9, 9], 9, 2, {"faction": 3, "kind": "hideout"}
    img, bare = check(crowded), check(view)
    assert all(same(img, bare, box) for box in grid_but(cell))
    x0, y0, x1, y1 = tile_box(cell)
    assert same(img, bare, (x1, y0, x1 + GAP, y1)) and same(img, bare, (x0, y1, x1, y1 + GAP))
    assert not same(img, bare, tile_box(cell))


def test_barricades_sit_on_their_connection_with_their_count() -> None:
    view = G.view(mid_game(2), None)
    streets = [k for k, c in enumerate(view["connections"]) if not c["highway"] and not c["barricades"]]
    assert streets
    k = streets[0]
    conn = view["connections"][k]
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = tile_box(conn["a"]), tile_box(conn["b"])
    mx, my = (ax0 + ax1 + bx0 + bx1) // 4, (ay0 + ay1 + by0 + by1) // 4
    box = (mx - 22, my - 14, mx + 23, my + 15)
    images = {}
    for n in (0, 1, 2, 3):
        changed = copy.deepcopy(view)
        changed["connections"][k]["barricades"] = n
        images[n] = check(changed)
        assert (count(images[n], box, YELLOW) > 150) == (n > 0), n
        assert same(images[n], images[0], (0, 0, mx - 30, H)), "nothing moves left of it"
    assert len({img.crop(box).tobytes() for img in images.values()}) == 4


def test_shops_and_liberation_are_marked_in_words_and_shapes() -> None:
    view = G.view(mid_game(4), None)
    shop = next(k for k, c in enumerate(view["cells"]) if len(c["shops"]) == 1)
    cell = view["cells"][shop]["cell"]
    shops = set()
    for state in (0, 1, 2):
        changed = copy.deepcopy(view)
        changed["cells"][shop]["shops"] = [state]
        shops.add(check(changed).crop(tile_box(cell)).tobytes())
    assert len(shops) == 3, "S, G and X"
    district = next(k for k, c in enumerate(view["cells"]) if c["type"] != "Highway" and not c["liberated"])
    cell = view["cells"][district]["cell"]
    freed = copy.deepcopy(view)
    freed["cells"][district]["liberated"] = True
    x0, y0, x1, _ = tile_box(cell)
    top = (x0 + 8, y0 + 4, x1 - 8, y0 + 9)  # the dashed inner border along the top
    assert count(check(freed), top, WHITE) > count(check(view), top, WHITE) + 100


# --- the panel -----------------------------------------------------------------------------------------------------
def reddish(img: Image.Image) -> list[int]:
    """The x of every strong red pixel in the panel's band of the police morale track (only the current level is
    filled red)."""
    x0, y0, x1, y1 = MORALE_BAND
    crop = img.crop(MORALE_BAND)
    px = crop.load()
    assert px is not None
    return [x0 + x for y in range(y1 - y0) for x in range(x1 - x0)
            if (p := px[x, y])[0] > 100 and p[0] > 2 * p[1] + 20 and p[0] > 2 * p[2] + 20]  # type: ignore[index]


def test_the_police_morale_track_marks_the_current_level() -> None:
    view = G.view(mid_game(2), None)
    left = SIDE_X + 6
    for morale in range(1, 6):
        changed = copy.deepcopy(view)
        changed["morale"] = morale
        xs = reddish(check(changed))
        assert len(xs) > 1500, morale
        box = (left + (morale - 1) * 108, left + (morale - 1) * 108 + 102)
        assert box[0] <= min(xs) and max(xs) <= box[1], (morale, min(xs), max(xs))


def test_who_is_to_act_is_outlined_and_pointed_at() -> None:
    """The acting faction's row has a thick white outline and a "»", not a colour; the dice it has left are white
    boxes beside "Dice:", and no dice are drawn when nobody acts."""
    view = G.view(mid_game(4), None)
    f = view["acting"]
    assert f >= 0 and view["dice"]
    nobody = copy.deepcopy(view)
    nobody["acting"] = -1
    acting, idle = check(view), check(nobody)
    assert count(acting, PANEL_BOX, WHITE) > count(idle, PANEL_BOX, WHITE) + 2500
    other = copy.deepcopy(view)
    other["acting"] = next(g for g in view["order"] if g != f)
    assert not same(check(other), acting, PANEL_BOX)
    rolled = copy.deepcopy(view)
    rolled["dice"] = [6, 5, 4, 3, 1]
    spent = copy.deepcopy(view)
    spent["dice"] = []
    assert count(check(rolled), PANEL_BOX, WHITE) > count(check(spent), PANEL_BOX, WHITE) + 5 * 1000
    rolled["acting"] = spent["acting"] = -1
    assert render(rolled, NAMES) == render(spent, NAMES)


def test_counts_the_public_may_see_are_drawn() -> None:
    """What anyone may know of a faction and the police (cards held, blocs on the mat, the night and the
    countdown, the decks' sizes, a Metro Lockdown) changes the panel, and only the panel."""
    view = G.view(mid_game(3), None)
    bare = check(view)
    f = view["order"][0]
    changes: list[BlocView] = []
    for field, value in (("loot", view["factions"][f]["loot"] + 3), ("occupations_mat", list[str]())):
        changed = copy.deepcopy(view)
        changed["factions"][f][field] = value  # type: ignore[literal-required]
        changes.append(changed)
    for key, value in (("countdown", view["countdown"] - 1), ("police_deck", 3), ("staging_cops", 29),
                       ("lockdown", f), ("last_police", ["Maneuvers"])):
        changed = copy.deepcopy(view)
        changed[key] = value  # type: ignore[literal-required]
        changes.append(changed)
    for changed in changes:
        img = check(changed)
        assert same(img, bare, GRID_BOX) and not same(img, bare, PANEL_BOX)


def test_a_crowded_panel_keeps_its_prompt_and_legend() -> None:
    """Two players' seat view with the most the panel can hold (two hands cut at three lines, four police ops, a
    lockdown, five dice, two offers): the prompt and the legend at the bottom are drawn as on a quiet panel."""
    state = mid_game(2)
    seat = state.controller[state.faction_now()]
    view = G.view(state, seat)
    crowded = copy.deepcopy(view)
    for fv in crowded["factions"]:
        if fv["seat"] == seat:
            fv["hand"] = sorted(LOOT_NAMES.values())
            fv["loot"] = len(fv["hand"])
    crowded["lockdown"], crowded["dice"] = view["order"][1], [6, 6, 5, 4, 1]
    crowded["last_police"] = ["Advance to State Districts"] * 6
    crowded["offers"] = [{"id": n, "by": 0, "to": 1, "cards": 3, "want": 2, "names": ["Radio Jammer"] * 3}
                         for n in (1, 2)]
    quiet = copy.deepcopy(view)
    for fv in quiet["factions"]:
        fv["hand"] = []
    quiet["lockdown"], quiet["dice"], quiet["offers"] = -1, [], []
    quiet["last_police"], quiet["police_discard"] = [], []
    full, calm = check(crowded), check(quiet)
    bottom = (SIDE_X, H - 84, W, H)
    assert same(full, calm, bottom)
    assert not same(full, calm, (SIDE_X, 0, W, H - 84))


def test_game_over_shows_the_outcome_instead_of_a_prompt() -> None:
    final = G.view(game(3)[-1], None)
    assert final["result"] is not None and final["acting"] == -1
    img = check(final)
    other_prompt = copy.deepcopy(final)
    other_prompt["prompt"] = "Workers: your actions (dice 6 6 6)."
    assert render(other_prompt, NAMES) == render(final, NAMES), "a finished game asks nothing"
    won = copy.deepcopy(final)
    won["result"]["winners"] = [0, 1, 2]
    header = (SIDE_X, 70, W, 110)
    assert count(check(won), header, YELLOW) > count(img, header, YELLOW) + 500  # SUCCEEDS, in other words
    playing = G.view(game(3)[len(game(3)) // 2], None)
    assert playing["result"] is None
    assert count(check(playing), header, YELLOW) < 50
