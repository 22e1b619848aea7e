"""The Breaks board renderer: real views from seeded playouts in, valid PNGs out.

Checks are on the decoded image (format, orientation, size, pixels where a highlight must
be), never on timing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from engine.breaks.view import BreaksView
from render.breaks import HIGHLIGHT, LAYOUTS, render
from render.common import YELLOW, recording
from tables.catalog import default_catalog
from tests.render.png_helpers import decode, shown
from tests.view_schema import problems

GAME = default_catalog().get("breaks")
render_registered = default_catalog().entry("breaks").render  # the renderer as the platform finds it
MAX_BYTES = 200 * 1024
NAMES = ["Alice", "Bob", "Carmen", "Dmitri"]
OPTION_SETS = [
    {},
    {"jokers": True},
    {"aces_wild": True},
    {"scoring": "court"},
    {"decks": 2},
    {"decks": 2, "jokers": True, "aces_wild": True, "scoring": "court", "tiebreak": "cards_left", "recycles": 0},
]

View = BreaksView


def playout(seats: int, options: dict[str, Any], seed: int, own: bool = False) -> list[View]:
    """Every public view of one seeded game with random legal moves (placing is preferred to discarding); ``own``:
    the view of the seat to act instead (it sees the card it drew, and its own discards)."""
    assert GAME is not None
    state = GAME.new_game(seats, GAME.resolve_options(options), seed)
    rnd = random.Random(seed)

    def seen() -> View:
        return GAME.view(state, min(GAME.to_act(state), default=0) if own else None)

    views = [seen()]
    for _ in range(5000):
        acting = sorted(GAME.to_act(state))
        if not acting:
            break
        seat = acting[0]
        moves = GAME.legal_moves(state, seat)
        keep = [m for m in moves if m.kind not in ("discard", "done")]
        move = rnd.choice(keep) if keep and rnd.random() < 0.85 else rnd.choice(moves)
        state, _ = GAME.apply(state, seat, move)
        views.append(seen())
    assert views[-1]["phase"] == "over", "the playout did not finish"
    return views


def first(views: list[View], test: Callable[[View], bool]) -> View:
    found = [v for v in views if test(v)]
    assert found, "no view in the playout matches"
    return found[0]


def check_board(view: View, names: list[str] | None = None) -> Image.Image:
    assert not problems(view, BreaksView), problems(view, BreaksView)[:3]
    png = render_registered(view, names if names is not None else NAMES[: len(view["players"])])
    assert len(png) < MAX_BYTES
    img = decode(png)
    assert img.size == (800, LAYOUTS[len(view["players"])].height), "800 px wide: 18 px type reads on a phone"
    return img


def held_box(seats: int) -> tuple[int, int, int, int]:
    """Where the card just drawn lies: the right end of the piles' strip."""
    x0, y0, x1, y1 = LAYOUTS[seats].piles
    return (x1 - 140, y0, x1, y1)


def texts(view: View, names: list[str] | None = None) -> tuple[list[Any], int]:
    """Every text the renderer sets for ``view`` (rendered afresh: the platform's renderer may answer from a cache),
    and the picture's width."""
    with recording() as drawn:
        png = render(view, names if names is not None else NAMES[: len(view["players"])])
    return list(drawn), decode(png).width


def count_colour(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    colours = img.crop(box).getcolors(maxcolors=1 << 24) or []
    return sum(n for n, c in colours if c == colour)


# --- states of the game ---------------------------------------------------------------------------
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_start_of_game(seats: int) -> None:
    views = playout(seats, {}, seed=seats)
    start = views[0]
    assert start["last"] is None and start["pending"] is None
    check_board(start)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_mid_game_with_pending_card_and_last_move(seats: int) -> None:
    views = playout(seats, {}, seed=10 + seats, own=True)
    view = first(views[len(views) // 3:], lambda v: v["pending"] is not None and v["last"] is not None)
    img = check_board(view)
    # the drawn card is shown to its drawer, right in the piles' strip: white card face pixels
    held = held_box(seats)
    assert count_colour(img, held, (255, 255, 255)) > 6000
    # everyone else sees that a card is held, face down: a blue back, hardly any white
    public = copy.deepcopy(view)
    public["pending"] = None
    assert count_colour(check_board(public), held, (255, 255, 255)) < 2500


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_final_round_and_game_over(seats: int) -> None:
    views = playout(seats, {}, seed=20 + seats)
    over = views[-1]
    assert over["result"] is not None
    finals = [v for v in views if v["phase"] == "final"]
    for view in finals[:1] + [over]:
        check_board(view)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("seats", [2, 4])
def test_option_combinations(seats: int, options: dict[str, Any]) -> None:
    views = playout(seats, options, seed=31 * seats + len(options))
    picks = [views[0], views[len(views) // 2], views[-1]]
    picks += [v for v in views if v["last"] and v["last"]["stacked"]][:1]
    picks += [v for v in views if v["last"] and v["last"]["move"].startswith("break")][:1]
    for view in picks:
        check_board(view)


def test_every_card_including_jokers_and_wild_aces() -> None:
    view = copy.deepcopy(playout(4, {"jokers": True, "aces_wild": True}, seed=7)[0])
    cards = iter([r + s for s in "SHDC" for r in "A23456789TJQK"])
    for player in view["players"]:
        player["slots"] = [[next(cards, "JK") for _ in range(4)] for _ in range(3)]
    view["pending"] = "JK"
    view["pending_seat"] = view["turn"]
    check_board(view)
    view["players"][0]["slots"][0] = ["2S", "3S", "4S", "5S", "6S", "7S"]  # more than a slot ever holds
    check_board(view)


# --- what the image shows --------------------------------------------------------------------------
def test_players_to_act_get_the_thick_yellow_border() -> None:
    view = playout(4, {}, seed=3)[5]
    img = check_board(view)
    layout = LAYOUTS[4]
    for seat, (x0, y0, x1, _) in enumerate(layout.panels):
        top_edge = img.getpixel(((x0 + x1) // 2, y0 + 2))
        assert (top_edge == YELLOW) == (seat in view["to_act"]), seat


def test_winners_get_the_yellow_border_after_the_game() -> None:
    over = playout(3, {}, seed=4)[-1]
    img = check_board(over)
    winners = set(over["result"]["winners"])
    assert winners and over["to_act"] == []
    for seat, (x0, y0, x1, _) in enumerate(LAYOUTS[3].panels):
        assert (img.getpixel(((x0 + x1) // 2, y0 + 2)) == YELLOW) == (seat in winners), seat


def test_a_shared_win_marks_every_winner() -> None:
    over = copy.deepcopy(playout(2, {}, seed=5)[-1])
    over["result"] = {"scores": [3.0, 3.0], "ranks": [1, 1], "winners": [0, 1], "reason": "tie: the win is shared"}
    img = check_board(over)
    for x0, y0, x1, _ in LAYOUTS[2].panels:
        assert img.getpixel(((x0 + x1) // 2, y0 + 2)) == YELLOW


def test_last_move_outlines_exactly_the_touched_slots() -> None:
    views = playout(2, {}, seed=6)
    view = copy.deepcopy(first(views, lambda v: bool(v["last"] and v["last"]["touched"])))
    layout = LAYOUTS[2]

    def outlined(img: Image.Image, seat: int, slot: int) -> int:
        """Highlight pixels above and below the slot (its outline's top and bottom edges, its label);
        the sides are left out as they are close to the neighbouring slots' outlines."""
        x = layout.slot_x(seat, slot)
        base = layout.baseline(seat)
        return count_colour(img, (x + 10, layout.panels[seat][1] + 60, x + layout.style.w - 10, base + 30), HIGHLIGHT)

    touched = {(s, i) for s, i in view["last"]["touched"]}
    img = check_board(view)
    for seat in range(2):
        for slot in range(3):
            if (seat, slot) in touched:
                assert outlined(img, seat, slot) > 300
            else:
                assert outlined(img, seat, slot) < 50
    view["last"]["touched"] = []
    plain = check_board(view)
    assert all(outlined(plain, s, i) < 50 for s, i in touched)


def test_different_states_give_different_images() -> None:
    views = playout(3, {"jokers": True}, seed=8, own=True)
    images = {render(v, NAMES[:3]) for v in views[:40]}
    assert len(images) == 40
    view = copy.deepcopy(first(views, lambda v: v["pending"] is not None))
    before = render(view, NAMES[:3])
    view["pending"] = "KS" if view["pending"] != "KS" else "QH"
    assert render(view, NAMES[:3]) != before
    assert render(views[10], ["Xavier", "Bob", "Carmen"]) != render(views[10], NAMES[:3])


def test_rendering_is_pure() -> None:
    views = playout(4, {"scoring": "court"}, seed=9, own=True)
    picks = [
        first(views, lambda v: v["pending"] is not None),
        first(views, lambda v: bool(v["last"] and v["last"]["touched"] and v["last"]["stacked"])),
        views[-1],
    ]
    for view in picks:
        names = list(NAMES)
        snapshot = copy.deepcopy(view)
        once = render_registered(view, names)
        assert view == snapshot and names == NAMES
        assert render_registered(view, names) == once
        assert render(view, names) == once


def test_unknown_game_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        default_catalog().entry("no-such-game")


# --- names and fonts -----------------------------------------------------------------------------------
@pytest.mark.parametrize("names", [
    ["A" * 80, "B" * 80],
    ["Zoë Åström", "李小龙"],
    ["Мария", "محمد", "देवी", "Ελένη"],
    ["🎲🎲", ""],
    ["x"],  # fewer names than seats
])
def test_awkward_names_still_render(names: list[str]) -> None:
    view = first(playout(2, {}, seed=12, own=True), lambda v: v["pending"] is not None and v["last"] is not None)
    check_board(view, names)


# --- each card once, counts, the discard pile (issue 8) ---------------------------------------------------------
def test_the_top_card_of_a_sequence_shows_its_rank_once() -> None:
    """A covered card shows its rank again in the strip that stays visible; the top card is whole, so it shows
    the rank only in its corner (a 4-card sequence showed 5 ranks)."""
    from render.breaks import _card, _deck

    style = LAYOUTS[3].style
    deck = _deck(style)
    whole, covered = _card(deck, "7H", False), _card(deck, "7H", False, covered=True)
    strip = (0, style.h - style.strip, style.w, style.h - 4)
    assert whole.crop(strip).tobytes() != covered.crop(strip).tobytes()
    top = (0, 0, style.w, style.strip)
    assert whole.crop(top).tobytes() == covered.crop(top).tobytes()


def test_each_slot_says_how_many_cards_it_holds() -> None:
    view = first(playout(3, {}, seed=5), lambda v: any(len(s) >= 2 for s in v["players"][0]["slots"]))
    slot = next(i for i, s in enumerate(view["players"][0]["slots"]) if len(s) >= 2)
    lay = LAYOUTS[3]
    x = lay.slot_x(0, slot)
    label = (x - 10, lay.baseline(0) + 4, x + lay.style.w + 10, lay.baseline(0) + 34)
    more = copy.deepcopy(view)
    more["players"][0]["slots"][slot] = more["players"][0]["slots"][slot] + ["JK"]
    more["last"] = None
    view = copy.deepcopy(view)
    view["last"] = None
    assert check_board(view).crop(label).tobytes() != check_board(more).crop(label).tobytes()


def test_the_discard_pile_lies_face_down() -> None:
    """Which card lies on the discard pile never shows on the public board: only how many."""
    views = playout(2, {}, seed=3)
    view = first(views, lambda v: v["discard_pile"] > 0)
    lay = LAYOUTS[2]
    x, y0 = lay.pile_x(1), lay.piles[1]
    pile = (x - 45, y0 + 30, x + 45, y0 + 150)
    shown = check_board(view)
    assert count_colour(shown, pile, (255, 255, 255)) < 600  # blue backs with a white rim, no white card face
    drawn, _ = texts(view)
    assert str(view["discard_pile"]) in {d.text for d in drawn} and "face down" in {d.text for d in drawn}


def test_a_player_sees_their_own_discards_and_only_they_do() -> None:
    views = playout(3, {}, seed=4, own=True)
    view = first(views, lambda v: len(v["my_discards"]) >= 2)
    lay = LAYOUTS[3]
    x0, y0, x1, y1 = lay.piles
    chips = (lay.pile_x(1) + 60, y0 + 40, x1 - 150, y1)
    assert count_colour(check_board(view), chips, (255, 255, 255)) > 1500  # white chips, a card each
    hidden = copy.deepcopy(view)
    hidden["my_discards"] = []
    assert count_colour(check_board(hidden), chips, (255, 255, 255)) < 100
    drawn, _ = texts(view)
    ranks = {("10" if c[0] == "T" else c[0]) for c in view["my_discards"] if c != "JK"}
    assert "yours:" in {d.text for d in drawn} and ranks <= {d.text for d in drawn}


def test_the_last_move_is_in_words_and_a_discard_is_outlined() -> None:
    views = playout(2, {}, seed=3)
    view = first(views, lambda v: bool(v["last"] and v["last"]["move"] == "discard"))
    assert view["last_said"] == "discarded a card, face down"
    img = check_board(view)
    drawn, _ = texts(view)
    words = " ".join(d.text for d in drawn)
    assert "LAST MOVE" in words and f"{NAMES[view['last']['seat']]} discarded a card, face down" in words
    lay = LAYOUTS[2]
    x, y0 = lay.pile_x(1), lay.piles[1]
    around = (x - 60, y0 + 26, x + 60, y0 + 160)
    assert count_colour(img, around, HIGHLIGHT) > 300
    other = copy.deepcopy(view)
    assert other["last"] is not None
    other["last"]["move"] = "merge 1 onto 2"
    assert count_colour(check_board(other), around, HIGHLIGHT) < 50


def test_the_public_board_has_no_private_line() -> None:
    """Nothing on the public picture speaks to one player: no "yours", no "You"."""
    for seats in (2, 3, 4):
        for view in playout(seats, {"jokers": True}, seed=40 + seats)[::7]:
            drawn, _ = texts(view)
            assert drawn
            for d in drawn:
                assert "yours" not in d.text.lower() and not d.text.startswith("You"), d.text


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_needed_text_reads_on_a_phone(seats: int) -> None:
    """Every text a player needs is at least 9 px high when the picture is shown 400 px wide (18 px here)."""
    views = playout(seats, {"scoring": "court", "tiebreak": "cards_left", "jokers": True}, seed=50 + seats)
    own = playout(seats, {"scoring": "court", "tiebreak": "cards_left", "jokers": True}, seed=50 + seats, own=True)
    for view in views[::9] + own[::9] + [views[-1]]:
        drawn, width = texts(view, ["Alexandra-Marguerite", "محمد", "נועה", "Bo"][:seats])
        small = [(d.text, d.size) for d in drawn if not d.decorative and d.size * 400 / width < 9]
        assert drawn and not small, small


def test_a_fan_drawn_with_a_deck_made_by_another_thread() -> None:
    """Render threads may each make a deck the first time (``functools.cache`` keeps one of them): a fan drawn with a
    deck other than the one the card kinds were worked out from is the same picture (the kinds were found by sprite
    id, and such a board raised KeyError and was never posted)."""
    from render import breaks

    view = first(playout(2, {}, seed=5), lambda v: any(len(s) >= 2 for p in v["players"] for s in p["slots"]))
    before = render(view, NAMES)
    breaks._kinds.cache_clear()
    breaks._fan_under.cache_clear()
    breaks._deck.cache_clear()
    style = LAYOUTS[2].style
    breaks._kinds(style)  # worked out from one deck...
    breaks._deck.cache_clear()  # ...while the board is drawn with another, made as the first was
    assert breaks._deck(style) is not None
    breaks.forget_kept()  # (drawn again, not pasted from the panels and bands kept of the first picture)
    assert shown(render(view, NAMES)) == shown(before)
