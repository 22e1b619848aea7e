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
from render.blocbybloc import BARRICADE, COP, FACTION_COLOURS, GAP, MARGIN, TABLE, TILE, W, render
from render.common import WHITE, YELLOW, recording
from tables.catalog import default_catalog
from tests.render.png_helpers import decode
from tests.view_schema import problems

G = BlocByBloc()
NAMES = ["Мария", "Zoë Åström", "李小龙", "Dmitri"]
SEEDS = {2: 24, 3: 3, 4: 28}  # games of 4-5 nights with plain random moves (most seeds end on the first Sunrise)
MAX_BYTES = 250 * 1024
Box = tuple[int, int, int, int]


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
    assert img.width == W == 800 and 1200 < img.height < 3000
    return img


def texts(view: BlocView, names: list[str] | None = None) -> list[str]:
    """Every text the picture of ``view`` sets (drawn afresh, not taken from the renderer's recent pictures)."""
    rb._recent.clear()
    with recording() as seen:
        render(view, NAMES if names is None else names)
    return [d.text for d in seen]


def tile_box(view: BlocView, cell: str, names: list[str] | None = None) -> Box:
    return rb.layout(view, NAMES if names is None else names).box(cell)


def city_box(view: BlocView) -> Box:
    at = rb.layout(view, NAMES)
    return (0, at.top, W, at.bottom)


def below_city(view: BlocView, img: Image.Image) -> Box:
    return (0, rb.layout(view, NAMES).bottom, W, img.height)


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
    """A district with an occupation circle and nothing on it yet (no blocs, police, occupation), off the first
    and last column and row (so that the gaps and rows beside it can be watched)."""
    for c in view["cells"]:
        if (c["type"] != "Highway" and c["circle"] and not any(c["blocs"]) and not c["cops"] and c["van"] < 0
                and c["occupation"] is None and c["cell"][1] not in "15" and c["cell"][0] not in "AE"):
            return c["cell"]
    raise AssertionError("no quiet district in the view")


def rows_above(view: BlocView, cell: str) -> list[Box]:
    """Every tile of the city in the rows above ``cell``'s (a district that grows moves only the rows below)."""
    return [tile_box(view, f"{r}{c}") for r in "ABCDE"[:"ABCDE".index(cell[0])] for c in "12345"]


# --- random games --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_render_every_few_moves(seats: int) -> None:
    """Public and seat views along a whole game: valid PNGs 800 px wide, every district drawn, and the blocs and
    cops of each district on that district's tile (chips in the faction's or the police's colour)."""
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
            assert len(img.crop(below_city(view, img)).getcolors(1 << 16) or []) > 20, "the panel is drawn"
            for c in view["cells"]:
                tile = colours(img, tile_box(view, c["cell"]))
                assert tile.get(drawn(TABLE), 0) < TILE * TILE // 20, f"{c['cell']} is drawn"
                assert (tile.get(drawn(COP), 0) > 150) == (c["cops"] > 0), (i, c["cell"], c["cops"])
                occupier = c["occupation"]["faction"] if c["occupation"] else -1
                for f, colour in enumerate(FACTION_COLOURS):
                    shown = tile.get(drawn(colour), 0) > 150
                    assert shown == (c["blocs"][f] > 0 or occupier == f), (i, c["cell"], f, c["blocs"])
    assert {"start", "sunset", "over"} <= phases


@pytest.mark.parametrize("seats", [2, 4])
def test_every_text_reads_on_a_phone(seats: int) -> None:
    """Every text of the public picture and of each seat's, along a game, is at least 18 px in the 800 px
    picture: 9 px when a phone shows it 400 px wide."""
    states = game(seats)
    for state in (states[0], mid_game(seats), states[len(states) // 2], states[-1]):
        for viewer in (None, *range(seats)):
            rb._recent.clear()
            with recording() as seen:
                img = check(G.view(state, viewer), ["Alexandra-Marguerite", "محمد", "נועה", "Bo"])
            assert seen and all(d.size * 400 / img.width >= 9 for d in seen), min(seen, key=lambda d: d.size)


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
    only below the city: the city is the same for everyone."""
    states = game(seats)
    held = [s for s in states if any(s.hands) and not s.offers and s.night >= 2]
    picked = held[:1] + [s for s in states if s.offers][:1]
    compared = private = 0
    for state in picked:
        if not any(state.hands):
            continue
        other = disguised(state)
        assert render(G.view(state, None), NAMES) == render(G.view(other, None), NAMES)
        public_view = G.view(state, None)
        public = check(public_view)
        for seat in range(seats):
            mine = {f for f in state.order if state.controller[f] == seat}
            sees = any(state.hands[f] for f in mine) or any(mine & {o.frm, o.to} for o in state.offers)
            own = render(G.view(state, seat), NAMES)
            assert (own == render(G.view(other, seat), NAMES)) == (not sees), (seat, state.ply)
            if sees:
                view = G.view(state, seat)
                img = decode(own)
                assert img.crop(city_box(view)).tobytes() == public.crop(city_box(public_view)).tobytes()
                assert img.crop(below_city(view, img)).tobytes() != public.crop(below_city(public_view, public))\
                    .tobytes()
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


def test_a_seat_reads_its_hand_by_card_name() -> None:
    """The seat's own hand: every card by its name, numbered, in large type (all of them, however many)."""
    state = mid_game(2)
    seat = state.controller[state.faction_now()]
    view = G.view(state, seat)
    mine = next(fv for fv in view["factions"] if fv["seat"] == seat)
    mine["hand"] = sorted(LOOT_NAMES.values())
    mine["loot"] = len(mine["hand"])
    seen = texts(view)
    assert "Your hand:" in seen
    for i, card in enumerate(mine["hand"], 1):
        assert f"{i}. {card}" in seen, card
    assert "Your hand:" not in texts(G.view(state, None))


# --- a question for one card's holder (cards.md decision 21) -------------------------------------------------------
def one_holder_question(kind: str, prompt: str) -> tuple[BlocView, int]:
    """A real mid-game view with a one-holder question open for the acting faction's seat."""
    view = G.view(mid_game(4), None)
    f = view["acting"]
    seat = view["factions"][f]["seat"]
    name = view["factions"][f]["name"]
    view["pending"], view["prompt"], view["to_act"] = kind, prompt.format(f=name), [seat]
    return view, seat


@pytest.mark.parametrize(("kind", "prompt"), [
    ("lookout", "{f}: reaction roll 2. Play Lookouts to roll again, or keep it?"),
    ("communique", "{f}: play Communiqué on C3 (its card one level higher), or pass?"),
    ("scan", "{f}: Police Scanner: put the cards back on top in the order you choose."),
])
def test_a_one_holder_question_is_asked_only_in_the_holders_picture(kind: str, prompt: str) -> None:
    """The public picture (and any other seat's) says only that the game waits for a reaction: not the card, not
    its choices, not the faction asked; the holder's own picture asks it."""
    view, seat = one_holder_question(kind, prompt)
    asked = view["factions"][view["acting"]]["name"]
    seen = texts(view)
    public = " | ".join(seen)
    assert "Waiting for a reaction" in public
    for word in ("Lookouts", "Communiqué", "Scanner", "roll again", "keep it", "pass?"):
        assert word not in public, word
    assert "ASKED" not in seen and "» TURN" not in seen
    assert f"{asked}:" not in public
    for other in range(4):
        if other != seat:
            assert texts({**view, "viewer": other}) == texts(view)
    own = texts({**view, "viewer": seat})
    assert view["prompt"] in own and "Waiting for a reaction" not in own
    trader = next(f for f in view["factions"] if f["seat"] not in (seat, -1))
    trading = copy.deepcopy(view)
    trading["viewer"], trading["to_act"] = trader["seat"], [seat, trader["seat"]]
    trading["offers"] = [{"id": 1, "by": view["acting"], "to": trader["faction"], "cards": 1, "want": 1, "names": []}]
    words = " | ".join(texts(trading))
    assert "Waiting for a reaction" in words and "Lookouts" not in words, "answering a trade, not holding the card"


def test_the_public_picture_addresses_nobody() -> None:
    """No line of the public picture speaks to one player ("Workers: your actions"): it says whose turn it is
    or whom the game waits for, and what about, in the third person."""
    for state in game(4)[::7]:
        for text in texts(G.view(state, None)):
            words = text.replace(".", " ").replace(",", " ").replace(":", " ").lower().split()
            assert not {"you", "your"} & set(words), text


# --- every faction owing a choice ------------------------------------------------------------------------------------
def tags(view: BlocView) -> list[str]:
    return [t for t in texts(view) if t in ("» TURN", "ASKED")]


def test_every_faction_owing_a_choice_is_tagged() -> None:
    """At the start every faction chooses its Faction Start at once: all four are tagged and named on top; in a
    turn only the acting faction is; when two players share a seat's factions only the one asked is."""
    start = G.view(game(4)[0], None)
    assert start["pending"] == "start" and len(start["to_act"]) == 4
    assert tags(start) == ["ASKED"] * 4
    top = texts(start)[1:3]
    assert all(f["name"] in " ".join(texts(start)) for f in start["factions"])
    assert any("Waiting for" in t for t in top)
    turn = G.view(mid_game(4), None)
    assert tags(turn) == ["» TURN"]
    split = copy.deepcopy(start)
    split["pending"], split["to_act"] = "split", [start["factions"][f]["seat"] for f in (0, 2)]
    split["prompt"] = "Workers: 2 cops attack in C3; choose which blocs are defeated."
    assert tags(split) == ["ASKED", "ASKED"]
    two = G.view(game(2)[0], None)
    two_seats = copy.deepcopy(two)
    first = two["order"][0]
    two_seats["to_act"] = [two["factions"][first]["seat"]]
    for fv in two_seats["factions"]:
        if fv["seat"] == two["factions"][first]["seat"] and fv["faction"] != first:
            fv["occupations_mat"] = [o for o in fv["occupations_mat"] if o != "start"]  # placed already
    assert tags(two_seats) == ["ASKED"]


# --- the last move ---------------------------------------------------------------------------------------------------
def test_the_last_move_is_said_in_words_and_outlined_in_the_city() -> None:
    view = G.view(mid_game(4), None)
    cell = quiet_cell(view)
    marked = copy.deepcopy(view)
    marked["last"] = {"faction": view["acting"], "text": "the Prisoners moved 2 blocs to " + cell,
                      "cells": [cell]}
    assert "Last: the Prisoners moved 2 blocs to " + cell in texts(marked)
    img, bare = check(marked), check(view)
    x0, y0, x1, y1 = tile_box(marked, cell)
    at = tile_box(view, cell)
    ring = [(x0 - 5, y0 - 5, x1 + 5, y0), (x0 - 5, y1, x1 + 5, y1 + 5)]  # the gap above and below it
    white = sum(count(img, box, WHITE) for box in ring)
    assert white > 150
    assert sum(count(bare, (a - 5, b - 5, c + 5, b), WHITE) for a, b, c, _ in [at]) < 40
    other = tile_box(marked, "A1")
    assert count(img, (other[0], other[1] - 5, other[2], other[1]), WHITE) < 40, "only the district it touched"


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
            assert not same(img, check(view, ["Ann", "Bo", "Cy", "Di"]), (0, 0, W, img.height))


# --- not colour alone ------------------------------------------------------------------------------------------------
@pytest.fixture
def monotone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every faction drawn in one grey, as a reader who cannot tell the colours apart might see them."""
    rb._palette()  # the palette is taken once, from the real colours
    monkeypatch.setattr(rb, "FACTION_COLOURS", ((200, 200, 200),) * 4)
    rb._recent.clear()
    rb.chip.cache_clear()
    yield
    rb._recent.clear()
    rb.chip.cache_clear()


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
        tiles += [check(blocs).crop(tile_box(blocs, cell)).tobytes(),
                  check(occupied).crop(tile_box(occupied, cell)).tobytes()]
    assert len(set(tiles)) == 8, "a bloc or an occupation names its faction by letter"


def test_every_faction_colour_has_its_letter() -> None:
    """PLAYER_COLOURS and SECOND_CUE: each faction's colour with its letter, the letters all different, and each
    drawn on the public board in large type (the faction list's chips)."""
    assert set(rb.PLAYER_COLOURS) == set(rb.SECOND_CUE) == {"Workers", "Students", "Neighbors", "Prisoners"}
    assert len(set(rb.SECOND_CUE.values())) == 4
    seen = texts(G.view(mid_game(4), None))
    assert all(letter in seen for letter in rb.SECOND_CUE.values())


# --- the city ---------------------------------------------------------------------------------------------------------
def test_police_are_written_on_their_district_and_only_there() -> None:
    """Cops as a count in words, a van with its damage in words: every combination its own tile, the rows above
    untouched. A van hit once and one hit twice share a colour: only the words differ."""
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
        assert all(same(img, bare, box) for box in rows_above(view, cell))
        assert (count(img, tile_box(changed, cell), COP) > 150) == (cops > 0)
        tiles[cops, van] = img.crop(tile_box(changed, cell)).tobytes()
    assert len(set(tiles.values())) == 10
    seen = set()
    for cops, van in ((3, 2), (1, 1)):
        changed = copy.deepcopy(view)
        changed["cells"][i]["cops"], changed["cells"][i]["van"] = cops, van
        seen |= set(texts(changed))
    assert {"3 COPS", "1 COP", "VAN 1/3", "VAN 2/3"} <= seen


def test_a_crowded_district_grows_and_keeps_its_pieces_inside() -> None:
    """Four factions' blocs in two digits, a dozen cops, a wrecked van, an occupation: its row grows to hold them,
    and nothing spills into the gaps beside the district."""
    view = G.view(mid_game(4), None)
    cell = quiet_cell(view)
    i = cell_index(view, cell)
    crowded = copy.deepcopy(view)
    c = crowded["cells"][i]
    c["blocs"], c["cops"], c["van"], c["occupation"] = [12, 11, 10, 9], 12, 2, {"faction": 3, "kind": "hideout"}
    img = check(crowded)
    x0, y0, x1, y1 = tile_box(crowded, cell)
    assert y1 - y0 >= tile_box(view, cell)[3] - tile_box(view, cell)[1]
    pieces = (*FACTION_COLOURS, COP)
    for gap in ((x1, y0, x1 + GAP, y1), (x0 - GAP, y0, x0, y1), (x0, y1, x1, y1 + GAP)):
        assert all(count(img, gap, colour) == 0 for colour in pieces), gap
    inside = colours(img, (x0, y0, x1, y1))
    assert all(inside.get(drawn(colour), 0) > 150 for colour in pieces)
    assert {"W12", "S11", "N10", "P9", "12 COPS", "VAN 2/3", "P Scavenger"} <= set(texts(crowded))


def test_chips_have_round_transparent_corners() -> None:
    """A chip's corners show the district under it, not the chip's colour."""
    label = rb.chip("W3", FACTION_COLOURS[0])
    assert label.image.getpixel((0, 0))[3] == 0  # type: ignore[index]
    assert label.image.getpixel((label.image.width - 1, label.image.height - 1))[3] == 0  # type: ignore[index]


def test_barricades_sit_on_their_connection_with_their_count() -> None:
    view = G.view(mid_game(2), None)
    streets = [k for k, c in enumerate(view["connections"]) if not c["highway"] and not c["barricades"]]
    assert streets
    k = streets[0]
    conn = view["connections"][k]
    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = tile_box(view, conn["a"]), tile_box(view, conn["b"])
    mx, my = (ax0 + ax1 + bx0 + bx1) // 4, (ay0 + ay1 + by0 + by1) // 4
    box = (mx - 22, my - 22, mx + 23, my + 23)
    images = {}
    for n in (0, 1, 2, 3):
        changed = copy.deepcopy(view)
        changed["connections"][k]["barricades"] = n
        images[n] = check(changed)
        assert (count(images[n], box, BARRICADE) > 150) == (n > 0), n
        assert same(images[n], images[0], (0, 0, mx - 30, images[n].height)), "nothing moves left of it"
    assert len({img.crop(box).tobytes() for img in images.values()}) == 4


def test_shops_and_liberation_are_marked_in_words_and_shapes() -> None:
    view = G.view(mid_game(4), None)
    shop = next(k for k, c in enumerate(view["cells"]) if len(c["shops"]) == 1)
    cell = view["cells"][shop]["cell"]
    shops = set()
    for state in (0, 1, 2):
        changed = copy.deepcopy(view)
        changed["cells"][shop]["shops"] = [state]
        shops.add(check(changed).crop(tile_box(changed, cell)).tobytes())
        assert "SGX"[state] in texts(changed)
    assert len(shops) == 3, "S, G and X"
    district = next(k for k, c in enumerate(view["cells"]) if c["type"] != "Highway" and not c["liberated"])
    cell = view["cells"][district]["cell"]
    freed = copy.deepcopy(view)
    freed["cells"][district]["liberated"] = True
    x0, y0, x1, _ = tile_box(freed, cell)
    top = (x0 + 8, y0 + 1, x1 - 8, y0 + 6)  # the dashed inner border along the top
    assert count(check(freed), top, WHITE) > count(check(view), top, WHITE) + 100
    assert "LIBERATED" in texts(freed) and "LIBERATED" not in texts(view)


# --- the panel -----------------------------------------------------------------------------------------------------
def test_the_police_morale_track_marks_the_current_level() -> None:
    """Only the current level is filled red, in its own box of the five."""
    view = G.view(mid_game(2), None)
    left = MARGIN + 8
    bw = (W - 2 * left - 4 * 6) / 5
    for morale in range(1, 6):
        changed = copy.deepcopy(view)
        changed["morale"] = morale
        img = check(changed)
        crop = img.crop(below_city(changed, img))
        red = drawn((180, 40, 40))
        xs = [x for x in range(crop.width) for y in range(0, 200, 2) if crop.getpixel((x, y)) == red]
        assert len(xs) > 1000, morale
        lo = left + (morale - 1) * (bw + 6)
        assert lo - 1 <= min(xs) and max(xs) <= lo + bw + 1, (morale, min(xs), max(xs))


def test_who_is_to_act_is_outlined_and_pointed_at() -> None:
    """The acting faction's box has a thick white outline, a dashed one and a "» TURN" tag, not a colour; the
    dice it has left are white boxes, and no dice are drawn when nobody acts."""
    view = G.view(mid_game(4), None)
    f = view["acting"]
    assert f >= 0 and view["dice"]
    nobody = copy.deepcopy(view)
    nobody["acting"], nobody["to_act"] = -1, []
    acting, idle = check(view), check(nobody)
    assert count(acting, below_city(view, acting), WHITE) > count(idle, below_city(nobody, idle), WHITE) + 2500
    assert "» TURN" in texts(view) and "» TURN" not in texts(nobody)
    rolled = copy.deepcopy(view)
    rolled["dice"] = [6, 5, 4, 3, 1]
    spent = copy.deepcopy(view)
    spent["dice"] = []
    assert count(check(rolled), (0, 0, W, 4000), WHITE) > count(check(spent), (0, 0, W, 4000), WHITE) + 5 * 1000
    rolled["acting"] = spent["acting"] = -1
    assert render(rolled, NAMES) == render(spent, NAMES)


def test_counts_the_public_may_see_are_drawn() -> None:
    """What anyone may know of a faction and the police (cards held, blocs on the mat, the night and the
    countdown, the decks' sizes, a Metro Lockdown) is written below the city, which stays as it was."""
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
        assert img.crop(city_box(changed)).tobytes() == bare.crop(city_box(view)).tobytes()
        assert texts(changed) != texts(view)


def test_game_over_shows_the_outcome_instead_of_a_prompt() -> None:
    final = G.view(game(3)[-1], None)
    assert final["result"] is not None and final["acting"] == -1
    img = check(final)
    other_prompt = copy.deepcopy(final)
    other_prompt["prompt"] = "Workers: your actions (dice 6 6 6)."
    assert render(other_prompt, NAMES) == render(final, NAMES), "a finished game asks nothing"
    won = copy.deepcopy(final)
    won["result"]["winners"] = [0, 1, 2]
    header = (0, 0, W, 48)
    assert count(check(won), header, YELLOW) > count(img, header, YELLOW) + 500  # SUCCEEDS, in other words
    assert "THE INSURRECTION SUCCEEDS" in texts(won) and "THE INSURRECTION FAILS" in texts(final)
    playing = G.view(game(3)[len(game(3)) // 2], None)
    assert playing["result"] is None
    assert count(check(playing), header, YELLOW) < 50
