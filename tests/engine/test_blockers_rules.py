"""Rule tests for Blockers!, built from exact positions.

Rules: /work/shared/rulebooks/blockers.txt and our decisions in /work/shared/rules/blockers.md (the decisions
win); the view is docs/dev/blockers-view.md. Boards are drawn as nine rows (A at the top) of nine characters
(column 1 at the left): ``.`` empty, ``y b g r p`` a yellow, blue, green, red or purple tile. Faces are filled
in automatically (each colour's first unused face that fits the square) unless ``cells`` names them.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

from engine.base import GameOverError, NotationError, NotYourTurnError, OptionError
from engine.blockers import PASS, Blockers, BlockersState, Move
from engine.blockers.board import (
    COLOURS,
    FACES,
    SECTIONS,
    SQUARES,
    count_groups,
    fits,
    section_of,
    square_name,
)
from tests.engine import rule_helpers

G = Blockers()
INITIAL = {c[0]: c for c in COLOURS}
EMPTY = ["." * 9] * 9


def sq(name: str) -> int:
    """``5C`` -> square index (test-side, independent of the engine's parser)."""
    return "ABCDEFGHI".index(name[1].upper()) * 9 + int(name[0]) - 1


def board_from(picture: list[str] | None, cells: dict[str, str] | None = None) -> list[str | None]:
    rows = [r.replace(" ", "") for r in (picture or EMPTY)]
    assert len(rows) == 9 and all(len(r) == 9 for r in rows), rows
    board: list[str | None] = [None] * SQUARES
    named = {sq(k): v for k, v in (cells or {}).items()}
    used: dict[str, set[str]] = {c: {v.split(":")[1] for v in named.values() if v.startswith(c + ":")}
                                 for c in COLOURS}
    for i in range(SQUARES):
        if i in named:
            board[i] = named[i]
            continue
        ch = rows[i // 9][i % 9]
        if ch == ".":
            continue
        colour = INITIAL[ch]
        face = next((f for f in FACES if f not in used[colour] and fits(f, i)), "wild")
        used[colour].add(face)
        board[i] = f"{colour}:{face}"
    return board


def make(picture: list[str] | None = None, *, cells: dict[str, str] | None = None,
         racks: dict[str, str] | None = None, piles: dict[str, str] | None = None,
         captured: list[str] | None = None, seats: int = 2, mode: str = "basic", turn: int = 0,
         finished: tuple[str, ...] = (), passes: int = 0) -> BlockersState:
    """A position. Racks and piles are space-separated faces (a pile's top, drawn next, last); a missing rack is
    empty and a missing pile holds three filler tiles. ``captured`` is one space-separated string per seat."""
    opts = G.resolve_options({"mode": mode}, seats)
    colours = ["yellow", "blue", "green", "red"] if mode == "advanced" else list(COLOURS[:seats])
    racks = racks or {}
    piles = piles or {}
    return BlockersState(
        seats=seats,
        options=opts,
        rng=99,
        board=board_from(picture, cells),
        racks={c: sorted(racks.get(c, "").split(), key=FACES.index) for c in colours},
        piles={c: piles.get(c, "sun moon star").split() for c in colours},
        captured=[s.split() for s in (captured or [""] * seats)],
        turn=turn,
        finished=list(finished),
        passes=passes,
    )


snapshot = partial(rule_helpers.snapshot, G)


def play(state: BlockersState, seat: int, text: str) -> BlockersState:
    before = snapshot(state)
    new, _ = G.apply(state, seat, G.parse_move(text))
    assert snapshot(state) == before, "apply mutated its input"
    return new


def legal_texts(state: BlockersState, seat: int | None = None) -> list[str]:
    return [G.format_move(m) for m in G.legal_moves(state, state.turn if seat is None else seat)]


expect_illegal = partial(rule_helpers.expect_illegal, G)


# --- the board --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("square, symbol", [
    ("1A", "sun"), ("3C", "sun"), ("4A", "moon"), ("6C", "moon"), ("7A", "star"), ("9C", "star"),
    ("1D", "heart"), ("3F", "heart"), ("4D", "triangle"), ("5E", "triangle"), ("6F", "triangle"),
    ("7D", "diamond"), ("9F", "diamond"), ("1G", "circle"), ("3I", "circle"), ("4G", "square"), ("6I", "square"),
    ("7G", "cross"), ("9I", "cross"),
])
def test_sections_in_reading_order(square: str, symbol: str) -> None:
    i = sq(square)
    assert SECTIONS[(i // 9 // 3) * 3 + (i % 9) // 3] == symbol
    assert SECTIONS[section_of(i)] == symbol
    assert fits(symbol, i)
    assert [s for s in SECTIONS if fits(s, i)] == [symbol]


def test_every_square_takes_exactly_its_number_letter_symbol_and_the_wild() -> None:
    for i in range(SQUARES):
        name = square_name(i)
        faces = [f for f in FACES if fits(f, i)]
        assert faces == [name[0], name[1], SECTIONS[section_of(i)], "wild"]
    for face in FACES[:-1]:
        assert sum(fits(face, i) for i in range(SQUARES)) == 9
    assert len(FACES) == len(set(FACES)) == 28


# --- legality, table-driven ---------------------------------------------------------------------------------------
# (id, picture, position keywords, move, None if legal else words the refusal must contain); yellow (seat 0) moves

LINE = [".........", ".........", ".........", ".........", "...bbb...",
        ".........", ".........", ".........", "........."]
BLOCK = [".........", ".........", ".........", "...bb....", "...bb....",
         ".........", ".........", ".........", "........."]
RING = [".........", ".........", ".........", "...bbb...", "...b.b...",
        "...bbb...", ".........", ".........", "........."]
PLUS = [".........", ".........", ".........", "....b....", "...bbb...",
        "....b....", ".........", ".........", "........."]
TEE = [".........", ".........", ".........", ".........", "...bbb...",
       "....b....", ".........", ".........", "........."]
DIAGONAL = [".........", ".........", ".........", "...b.....", "....b....",
            ".....b...", ".........", ".........", "........."]
SURROUNDED = [".........", ".........", ".........", "....y....", "...yby...",
              "....y....", ".........", ".........", "........."]
OWN = [".........", ".........", ".........", ".........", "....y....",
       ".........", ".........", ".........", "........."]

LEGALITY: list[tuple[str, list[str] | None, dict[str, Any], str, tuple[str, ...] | None]] = [
    # placement on empty squares, per kind of tile
    ("number-in-its-column", None, {"racks": {"yellow": "7"}}, "7 7E", None),
    ("number-top-of-column", None, {"racks": {"yellow": "7"}}, "7 7A", None),
    ("number-wrong-column", None, {"racks": {"yellow": "7"}}, "7 5E", ("7 goes in column 7", "5E")),
    ("letter-in-its-row", None, {"racks": {"yellow": "C"}}, "C 5C", None),
    ("letter-end-of-row", None, {"racks": {"yellow": "C"}}, "C 9C", None),
    ("letter-wrong-row", None, {"racks": {"yellow": "C"}}, "C 5D", ("C goes in row C",)),
    ("symbol-centre-is-triangle", None, {"racks": {"yellow": "triangle"}}, "triangle 5E", None),
    ("symbol-wrong-section", None, {"racks": {"yellow": "triangle"}}, "triangle 1A",
     ("triangle section", "4D–6F")),
    ("moon-top-middle", None, {"racks": {"yellow": "moon"}}, "moon 6B", None),
    ("moon-not-top-left", None, {"racks": {"yellow": "moon"}}, "moon 2B", ("moon section", "4A–6C")),
    ("sun-top-left", None, {"racks": {"yellow": "sun"}}, "sun 2B", None),
    ("cross-bottom-right", None, {"racks": {"yellow": "cross"}}, "cross 9I", None),
    ("wild-corner", None, {"racks": {"yellow": "wild"}}, "wild 9I", None),
    ("wild-anywhere", None, {"racks": {"yellow": "wild"}}, "wild 3F", None),
    ("tile-not-on-rack", None, {"racks": {"yellow": "7"}}, "8 8E", ("no 8 on your rack",)),
    # captures
    ("capture-lone-tile", OWN[:4] + ["....b...."] + OWN[5:], {"racks": {"yellow": "5"}}, "5 5E", None),
    ("capture-with-wild", OWN[:4] + ["....b...."] + OWN[5:], {"racks": {"yellow": "wild"}}, "wild 5E", None),
    ("capture-must-fit", OWN[:4] + ["....b...."] + OWN[5:], {"racks": {"yellow": "4"}}, "4 5E",
     ("column 4",)),
    ("own-tile-never", OWN, {"racks": {"yellow": "5"}}, "5 5E", ("your own",)),
    ("line-end-left", LINE, {"racks": {"yellow": "E"}}, "E 4E", None),
    ("line-end-right", LINE, {"racks": {"yellow": "E"}}, "E 6E", None),
    ("line-middle-splits", LINE, {"racks": {"yellow": "E"}}, "E 5E", ("split", "blue group", "2 parts")),
    ("block-corner", BLOCK, {"racks": {"yellow": "D"}}, "D 4D", None),
    ("ring-any-tile", RING, {"racks": {"yellow": "5"}}, "5 5D", None),
    ("plus-centre-splits-in-four", PLUS, {"racks": {"yellow": "5"}}, "5 5E", ("4 parts",)),
    ("plus-arm", PLUS, {"racks": {"yellow": "5"}}, "5 5D", None),
    ("tee-junction-splits", TEE, {"racks": {"yellow": "E"}}, "E 5E", ("3 parts",)),
    ("tee-stem", TEE, {"racks": {"yellow": "5"}}, "5 5F", None),
    ("diagonals-do-not-connect", DIAGONAL, {"racks": {"yellow": "E"}}, "E 5E", None),
    ("surrounded-by-others-is-alone", SURROUNDED, {"racks": {"yellow": "5"}}, "5 5E", None),
    ("capture-third-player", OWN[:4] + ["....g...."] + OWN[5:], {"racks": {"yellow": "5"}, "seats": 3},
     "5 5E", None),
    ("capture-although-empty-fits", OWN[:4] + ["....b...."] + OWN[5:], {"racks": {"yellow": "5"}}, "5 5E", None),
    # passing
    ("pass-with-a-move", None, {"racks": {"yellow": "7"}}, "pass", ("can't pass", "7 7A")),
]


@pytest.mark.parametrize("picture, position, text, refusal", [c[1:] for c in LEGALITY], ids=[c[0] for c in LEGALITY])
def test_legality(picture: list[str] | None, position: dict[str, Any], text: str,
                  refusal: tuple[str, ...] | None) -> None:
    state = make(picture, **position)
    move = G.parse_move(text)
    if refusal is None:
        assert move in G.legal_moves(state, 0)
        play(state, 0, text)
    else:
        assert move not in G.legal_moves(state, 0)
        expect_illegal(state, 0, text, *refusal)


@pytest.mark.parametrize("face, squares", [
    ("7", {f"7{r}" for r in "ABCDEFGHI"}),
    ("C", {f"{c}C" for c in range(1, 10)}),
    ("triangle", {f"{c}{r}" for c in (4, 5, 6) for r in "DEF"}),
    ("sun", {f"{c}{r}" for c in (1, 2, 3) for r in "ABC"}),
    ("square", {f"{c}{r}" for c in (4, 5, 6) for r in "GHI"}),
])
def test_placements_of_one_tile_on_an_empty_board(face: str, squares: set[str]) -> None:
    state = make(racks={"yellow": face})
    assert set(legal_texts(state)) == {f"{face} {s}" for s in squares}
    assert len(legal_texts(make(racks={"yellow": "wild"}))) == 81


def test_the_rulebook_capture_example() -> None:
    """"The blue player may use either his moon tile, G tile, or 2 tile to replace and capture the yellow G."

    The yellow G stands alone on 2G (a G goes in row G; the "2" puts it in column 2). Our 2G lies in the circle
    section, not the moon's (our symbols are not the published pictures), so blue's 2, G and circle capture."""
    state = make(cells={"2G": "yellow:G"}, racks={"blue": "2 G circle moon 5"}, turn=1)
    captures = [t for t in legal_texts(state, 1) if t.endswith(" 2G")]
    assert captures == ["2 2G", "G 2G", "circle 2G"]


def test_legal_moves_are_in_a_stable_order() -> None:
    state = make(LINE, racks={"yellow": "wild 5 E C"})
    moves = G.legal_moves(state, 0)
    assert moves == sorted(moves, key=lambda m: (FACES.index(m.face), m.square))
    assert moves == G.legal_moves(G.load(snapshot(state)), 0)
    assert legal_texts(state)[:9] == [f"5 5{r}" for r in "ABCDEFGHI" if r != "E"] + ["C 1C"]


def test_forced_capture_only_captures_are_legal() -> None:
    """Column 7 is full: the 7 can only capture, and it may take the lone blue tiles but never yellow."""
    column = ["......y..", "......b..", "......y..", "......b..", "......y..",
              "......b..", "......y..", "......b..", "......y.."]
    state = make(column, racks={"yellow": "7"})
    assert legal_texts(state) == ["7 7B", "7 7D", "7 7F", "7 7H"]
    after = play(state, 0, "7 7D")
    assert after.captured[0] == [state.board[sq("7D")]]
    expect_illegal(state, 0, "pass", "can't pass")


STUCK = [".....yyy.", ".....bbb.", ".....yyy.", ".....bbb.", ".....yyy.",
         ".....bbb.", ".....yyy.", ".....bbb.", ".....yyy."]  # column 7: each tile the middle of a line


def test_pass_only_when_no_move_exists() -> None:
    """Every blue tile in column 7 is the middle of a line: taking it would split the line, so the 7 fits nowhere."""
    state = make(STUCK, racks={"yellow": "7"}, piles={"yellow": "1 2"})
    assert G.legal_moves(state, 0) == [PASS]
    assert G.text.describe_move(state, 0, PASS).startswith("Pass")
    expect_illegal(state, 0, "7 7B", "split")
    after, events = G.apply(state, 0, PASS)
    assert [e.kind for e in events] == ["pass"]
    assert after.turn == 1 and after.passes == 1 and after.board == state.board
    assert after.racks == state.racks and after.piles == state.piles, "a pass draws nothing"
    assert after.last == {"seat": 0, "move": "pass", "square": None, "tile": None, "captured": None, "pass": True}
    assert G.view(after, None)["last"]["pass"] is True


def test_an_empty_rack_passes() -> None:
    state = make(racks={"yellow": ""}, piles={"yellow": ""})
    assert G.legal_moves(state, 0) == [PASS]


def test_other_seats_have_no_moves_and_are_refused() -> None:
    state = make(racks={"yellow": "7", "blue": "7"})
    assert G.legal_moves(state, 1) == []
    expect_illegal(state, 1, "7 7E", "not your turn", error=NotYourTurnError)


# --- what a move does ------------------------------------------------------------------------------------------

def test_placing_draws_the_top_of_the_pile() -> None:
    state = make(racks={"yellow": "7 C moon"}, piles={"yellow": "2 wild"}, seats=3)
    after, events = G.apply(state, 0, G.parse_move("7 7E"))
    assert after.board[sq("7E")] == "yellow:7"
    assert after.racks["yellow"] == ["C", "moon", "wild"], "the top tile was drawn; the rack stays in face order"
    assert after.piles["yellow"] == ["2"]
    assert after.turn == 1 and after.ply == 1 and after.passes == 0
    assert [e.kind for e in events] == ["play", "draw"]
    assert events[0].text == "{p0} played yellow 7 on 7E."
    assert "wild" not in events[1].text, "the drawn tile stays secret"
    assert after.last == {"seat": 0, "move": "7 7E", "square": "7E", "tile": {"colour": "yellow", "face": "7"},
                          "captured": None, "pass": False}


def test_capturing_keeps_the_tile_face_up() -> None:
    state = make(cells={"5E": "blue:E"}, racks={"yellow": "5"}, piles={"yellow": "9"})
    after, events = G.apply(state, 0, G.parse_move("5 5E"))
    assert after.board[sq("5E")] == "yellow:5"
    assert after.captured == [["blue:E"], []]
    assert [e.kind for e in events] == ["capture", "draw"]
    assert events[0].text == "{p0} played yellow 5 on 5E, capturing blue E."
    assert after.last is not None and after.last["captured"] == {"colour": "blue", "face": "E"}
    view = G.view(after, None)
    assert view["players"][0]["captured"] == {"blue": 1}
    assert view["board"][4][4] == {"colour": "yellow", "face": "5"}


def test_playing_with_an_empty_pile_draws_nothing_and_is_the_final_turn() -> None:
    state = make(racks={"yellow": "7 8"}, piles={"yellow": "", "blue": "1"})
    after, events = G.apply(state, 0, G.parse_move("7 7E"))
    assert after.racks["yellow"] == ["8"] and [e.kind for e in events] == ["play", "final"]
    assert after.finished == ["yellow"] and not G.is_over(after), "blue still has a tile to draw"
    assert events[1].text == "{p0} has taken their final turn and sits out, keeping 1 tile."


def test_describe_move() -> None:
    state = make(cells={"5B": "blue:E"}, racks={"yellow": "7 moon"})
    assert G.text.describe_move(state, 0, G.parse_move("7 7E")) == "7 → 7E"
    assert G.text.describe_move(state, 0, G.parse_move("moon 5B")) == "moon → 5B (captures blue E)"
    adv = make(cells={"5B": "blue:E"}, racks={"green": "moon"}, mode="advanced")
    assert G.text.describe_move(adv, 0, G.parse_move("green:moon 5B")) == "green moon → 5B (captures blue E)"


# --- the end of the basic game ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("rack", "pile", "final"), [("1 2 3 4 5", "9", False), ("1 2 3 4 5", "", True)])
def test_the_final_turn_is_the_first_turn_after_the_own_pile_ran_out(rack: str, pile: str, final: bool) -> None:
    state = make(racks={"yellow": rack, "blue": "1 2 3 4 5"}, piles={"yellow": pile, "blue": "9"})
    after = play(state, 0, "1 1A")
    assert ("yellow" in after.finished) is final
    assert G.to_act(after) == {1}


def test_each_player_takes_one_final_turn_then_sits_out() -> None:
    """Blue draws the last tile of its pile; green and yellow, whose piles are empty, take their final turns;
    then blue takes its own, and the game ends with every player having played their last turn."""
    state = make(racks={"yellow": "1 2", "blue": "1 2 3", "green": "1 2"},
                 piles={"yellow": "", "blue": "4", "green": ""}, seats=3, turn=1)
    state, events = G.apply(state, 1, G.parse_move("1 1A"))
    assert state.racks["blue"] == ["2", "3", "4"] and state.piles["blue"] == [] and state.finished == []
    assert G.text.status_line(state) == "{p2} takes their final turn (their pile is empty)."
    state = play(state, 2, "2 2A")  # green's final turn
    assert state.finished == ["green"] and G.to_act(state) == {0}
    state = play(state, 0, "1 1B")  # yellow's final turn
    assert state.finished == ["green", "yellow"] and G.to_act(state) == {1}
    assert G.text.status_line(state) == "{p1} takes their final turn (their pile is empty). Sitting out: {p0}, {p2}."
    state, events = G.apply(state, 1, G.parse_move("2 2B"))  # blue's final turn ends the game
    assert G.is_over(state) and events[-1].kind == "over"
    assert G.to_act(state) == frozenset()
    assert [len(r) for r in state.racks.values()] == [1, 2, 1]
    with pytest.raises(GameOverError):
        G.apply(state, 2, G.parse_move("2 2C"))


def test_a_player_who_passed_is_behind_and_plays_on_while_the_others_sit_out() -> None:
    """Yellow's pile ran out first: its final turn comes, then only blue plays, until its own final turn."""
    state = make(racks={"yellow": "1 2 3", "blue": "1 2 3"}, piles={"yellow": "", "blue": "4"}, turn=0)
    state = play(state, 0, "1 1A")  # yellow's final turn
    assert state.finished == ["yellow"] and state.racks["yellow"] == ["2", "3"]
    state = play(state, 1, "1 1B")  # blue draws its last tile
    assert G.to_act(state) == {1}, "yellow sits out: blue plays again"
    state = play(state, 1, "2 2B")  # blue's final turn
    assert G.is_over(state) and state.finished == ["yellow", "blue"]


def test_a_pass_counts_as_a_final_turn() -> None:
    state = make(racks={"yellow": "", "blue": "5"}, piles={"yellow": "", "blue": ""})
    state = play(state, 0, "pass")
    assert not G.is_over(state) and state.finished == ["yellow"]
    state = play(state, 1, "5 5A")
    assert G.is_over(state)


def test_a_basic_players_last_tiles_stay_private_after_the_final_turn() -> None:
    state = make(racks={"yellow": "7 8 9 A B", "blue": "1 2"}, piles={"yellow": "", "blue": "4"})
    state = play(state, 0, "7 7E")
    assert state.finished == ["yellow"]
    for viewer in (None, 1):
        view = G.view(state, viewer)
        assert view["players"][0]["public"] == {} and "8" not in str(view["players"][0])
    assert G.view(state, 0)["rack"] == {"yellow": ["8", "9", "A", "B"]}


def test_everybody_passing_ends_the_game() -> None:
    state = make(STUCK, racks={"yellow": "7", "blue": "7"}, piles={"yellow": "1", "blue": "1"})
    state = play(state, 0, "pass")
    assert G.legal_moves(state, 1) == [PASS]
    state, events = G.apply(state, 1, PASS)
    assert G.is_over(state)
    assert [e.kind for e in events] == ["pass", "stuck", "over"]


def test_a_full_game_plays_24_tiles_each_and_keeps_4() -> None:
    for seats in (2, 3, 4, 5):
        state = G.new_game(seats, {}, seats)
        played = [0] * seats
        while not G.is_over(state):
            (seat,) = G.to_act(state)
            colour = state.colours(seat)[0]
            assert colour not in state.finished, "a seat that took its final turn sits out"
            state = G.apply(state, seat, G.legal_moves(state, seat)[-1])[0]
            played[seat] += 1
            assert (colour in state.finished) is (played[seat] == 24), "the 24th play is the final turn"
        assert played == [24] * seats
        assert all(len(r) == 4 for r in state.racks.values())


# --- scoring ------------------------------------------------------------------------------------------------------

FIGURE_C = [
    "yy....b..",
    "y.....b..",
    "...gg....",
    "..y.g..y.",
    ".........",
    ".bb......",
    "......gg.",
    "y.....g..",
    ".........",
]


def test_figure_c() -> None:
    """Yellow 4 groups + 1 capture = 5; Blue 2 groups + 2 (of one colour) = 4; Green 2 groups = 2 and wins."""
    state = make(FIGURE_C, seats=3, captured=["blue:3", "green:1 green:2 yellow:9", ""])
    state.phase = "over"
    assert [count_groups(state.board, c) for c in ("yellow", "blue", "green")] == [4, 2, 2]
    assert G.scores(state) == [5, 4, 2]
    result = G.result(state)
    assert result is not None
    assert result.scores == (5.0, 4.0, 2.0) and result.ranks == (3, 2, 1) and result.winners == {2}
    view = G.view(state, None)
    assert [p["groups"] for p in view["players"]] == [4, 2, 2]
    assert [p["score"] for p in view["players"]] == [5, 4, 2]
    assert view["players"][1]["captured"] == {"yellow": 1, "green": 2}
    assert view["result"]["winners"] == [2]
    assert G.text.status_line(state) == "Game over: {p2} wins."


@pytest.mark.parametrize("captured, expected_scores, ranks, reason", [
    # a tie on score goes to the fewest captures in all
    (["blue:1", "yellow:1 green:1 green:2", "red:1 red:2"], [2, 3, 3], (1, 3, 2), "lowest score"),
    (["blue:1 blue:2", "yellow:1 green:1", "red:1 red:2"], [3, 2, 3], (2, 1, 2), "lowest score"),
    (["blue:1 red:1", "green:1", "yellow:1 red:2"], [2, 2, 2], (2, 1, 2), "fewest captures"),
    # the most-captured colour counts once even when several colours tie for most
    (["blue:1 blue:2 red:1 red:2", "", ""], [3, 1, 1], (3, 1, 1), "shared"),
    # everything tied: shared
    (["blue:1", "green:1", "yellow:1"], [2, 2, 2], (1, 1, 1), "shared"),
])
def test_scores_and_tie_breaks(captured: list[str], expected_scores: list[int], ranks: tuple[int, ...],
                               reason: str) -> None:
    picture = ["y...b...g"] + ["." * 9] * 8  # one group each
    state = make(picture, seats=3, captured=captured)
    state.phase = "over"
    assert G.scores(state) == expected_scores
    result = G.result(state)
    assert result is not None and result.ranks == ranks and reason in result.reason
    assert result.winners == {p for p in range(3) if ranks[p] == 1}
    assert result.draw is (len(result.winners) > 1)


# --- the advanced two-player game ------------------------------------------------------------------------------

def test_advanced_is_for_two_players_only() -> None:
    assert G.new_game(2, {"mode": "advanced"}, 1).options["mode"] == "advanced"
    for seats in (3, 4, 5):
        with pytest.raises(OptionError, match="two players"):
            G.new_game(seats, {"mode": "advanced"}, 1)
        with pytest.raises(OptionError):
            G.resolve_options({"mode": "advanced"}, seats)
        assert G.text.advice(seats, {"mode": "advanced"})
    assert G.resolve_options({"mode": "ADVANCED"}) == {"mode": "advanced"}
    with pytest.raises(OptionError):
        G.resolve_options({"mode": "expert"})


def test_advanced_setup() -> None:
    state = G.new_game(2, {"mode": "advanced"}, 5)
    assert state.colours(0) == ("yellow", "green") and state.colours(1) == ("blue", "red")
    for colour in ("yellow", "green", "blue", "red"):
        assert len(state.racks[colour]) == 5 and len(state.piles[colour]) == 23
        assert sorted(state.racks[colour] + state.piles[colour]) == sorted(FACES)
    assert "purple" not in state.racks


ADV_LEGALITY: list[tuple[str, list[str] | None, dict[str, Any], str, tuple[str, ...] | None]] = [
    ("capture-own-other-colour", OWN[:4] + ["....g...."] + OWN[5:], {"racks": {"yellow": "5"}}, "yellow:5 5E", None),
    ("capture-own-other-colour-back", OWN, {"racks": {"green": "5"}}, "green:5 5E", None),
    ("never-own-same-colour", OWN[:4] + ["....g...."] + OWN[5:], {"racks": {"green": "5"}}, "green:5 5E",
     ("green tile can't capture",)),
    ("own-other-colour-no-split", [".........", ".........", ".........", ".........", "...ggg...",
                                   ".........", ".........", ".........", "........."],
     {"racks": {"yellow": "E"}}, "yellow:E 5E", ("split", "green group")),
    ("capture-opponent", OWN[:4] + ["....r...."] + OWN[5:], {"racks": {"green": "5"}}, "green:5 5E", None),
    ("colour-inferred", None, {"racks": {"yellow": "5", "green": "7"}}, "5 5E", None),
    ("colour-ambiguous", None, {"racks": {"yellow": "5", "green": "5"}}, "5 5E", ("both colours", "yellow:5 5E")),
    ("colour-inferred-by-legality", OWN, {"racks": {"yellow": "5", "green": "5"}}, "5 5E", None),
    ("not-my-colour", None, {"racks": {"yellow": "5"}}, "blue:5 5E", ("blue is not your colour",)),
    ("not-on-that-rack", None, {"racks": {"yellow": "5"}}, "green:5 5E", ("no 5 on your green rack",)),
    ("not-on-any-rack", None, {"racks": {"yellow": "5"}}, "6 6E", ("no 6 on your racks",)),
    ("finished-colour", None, {"racks": {"yellow": "5 6 7 8", "green": "1"}, "finished": ("yellow",)},
     "yellow:5 5E", ("finished yellow", "green")),
    ("finished-colour-inferred", None, {"racks": {"yellow": "5 6 7 8", "green": "1"}, "finished": ("yellow",)},
     "5 5E", ("finished yellow rack",)),
]


@pytest.mark.parametrize("picture, position, text, refusal", [c[1:] for c in ADV_LEGALITY],
                         ids=[c[0] for c in ADV_LEGALITY])
def test_advanced_legality(picture: list[str] | None, position: dict[str, Any], text: str,
                           refusal: tuple[str, ...] | None) -> None:
    state = make(picture, mode="advanced", **position)
    if refusal is None:
        after = play(state, 0, text)
        assert after.ply == 1
    else:
        expect_illegal(state, 0, text, *refusal)


def test_advanced_moves_name_their_colour() -> None:
    state = make(racks={"yellow": "5", "green": "5"}, mode="advanced")
    texts = legal_texts(state)
    assert texts[:9] == [f"yellow:5 5{r}" for r in "ABCDEFGHI"]
    assert texts[9:] == [f"green:5 5{r}" for r in "ABCDEFGHI"]
    assert G.parse_move("yellow:5 5A") == Move("5", sq("5A"), "yellow")


def test_basic_moves_may_name_their_own_colour() -> None:
    state = make(racks={"yellow": "5"})
    after = play(state, 0, "yellow:5 5E")
    assert after.board[sq("5E")] == "yellow:5" and after.last is not None and after.last["move"] == "5 5E"
    expect_illegal(state, 0, "blue:5 5E", "not your colour")


def test_capturing_own_other_colour_counts_against_you() -> None:
    state = make(cells={"5E": "green:E", "1A": "green:1", "9I": "blue:9"}, racks={"yellow": "5 1"},
                 piles={"yellow": "2 3"}, mode="advanced")
    after = play(state, 0, "yellow:5 5E")
    assert after.captured[0] == ["green:E"]
    assert G.view(after, None)["players"][0]["captured"] == {"green": 1}
    # groups: yellow 1 (5E) + green 1 (1A) = 2, plus 1 capture
    assert G.scores(after)[0] == 3


def test_finishing_a_colour_shows_its_four_tiles() -> None:
    state = make(racks={"yellow": "1 2 3 4 5", "green": "1"}, piles={"yellow": "", "green": "2"}, mode="advanced")
    after, events = G.apply(state, 0, G.parse_move("yellow:5 5E"))
    assert after.finished == ["yellow"]
    assert [e.kind for e in events] == ["play", "finish"]
    assert "1, 2, 3, 4" in events[1].text
    public = G.view(after, None)
    assert public["players"][0]["finished"] == ["yellow"]
    assert public["players"][0]["public"] == {"yellow": ["1", "2", "3", "4"]}
    assert public["players"][0]["rack_counts"] == {"yellow": 4, "green": 1}
    assert "rack" not in public
    after = play(after, 1, "pass")  # blue and red have nothing
    assert [m.colour for m in G.legal_moves(after, 0)] == ["green"] * 9
    expect_illegal(after, 0, "yellow:1 1A", "finished yellow")


def test_drawing_the_last_tile_does_not_finish_the_colour() -> None:
    state = make(racks={"yellow": "1 2 3 4 5"}, piles={"yellow": "6"}, mode="advanced")
    after = play(state, 0, "yellow:5 5E")
    assert after.finished == [] and after.racks["yellow"] == ["1", "2", "3", "4", "6"]
    assert after.piles["yellow"] == []


def test_a_player_done_with_both_colours_is_skipped_and_the_game_ends_when_all_are_done() -> None:
    state = make(racks={"yellow": "1 2 3 4", "green": "1 2 3 4", "blue": "1 2 3 4 5", "red": "4 5 6 7 8"},
                 piles={"yellow": "", "green": "", "blue": "", "red": "9"}, mode="advanced", turn=1,
                 finished=("yellow", "green"))
    state = play(state, 1, "red:4 4A")
    assert G.to_act(state) == {1}, "yellow and green have finished: blue and red play on alone"
    assert state.finished == ["yellow", "green"] and state.racks["red"] == ["5", "6", "7", "8", "9"]
    state = play(state, 1, "red:5 5A")
    assert G.to_act(state) == {1} and state.finished == ["yellow", "green", "red"]
    state, events = G.apply(state, 1, G.parse_move("blue:5 5B"))
    assert G.is_over(state) and [e.kind for e in events][-2:] == ["finish", "over"]
    assert all(len(r) == 4 for r in state.racks.values())


def test_advanced_scoring_counts_both_colours_and_own_captures() -> None:
    picture = ["yg.......", ".........", "....b....", "....r....", ".........",
               ".........", ".........", "g........", "........."]
    state = make(picture, mode="advanced", captured=["green:1 green:2 blue:3", "red:4"],
                 finished=("yellow", "green", "blue", "red"))
    state.phase = "over"
    # seat 0: yellow 1 + green 2 groups (touching yellow and green do not join) + 2 green captured = 5
    # seat 1: blue 1 + red 1 + 1 = 3
    assert G.scores(state) == [5, 3]
    result = G.result(state)
    assert result is not None and result.winners == {1}


# --- notation -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("7 7E", Move("7", sq("7E"))),
    ("7 7e", Move("7", sq("7E"))),
    ("  C   5c ", Move("C", sq("5C"))),
    ("c 5C", Move("C", sq("5C"))),
    ("MOON 2b", Move("moon", sq("2B"))),
    ("wild 9I", Move("wild", sq("9I"))),
    ("Blockers 1a", Move("wild", sq("1A"))),
    ("blue:7 7E", Move("7", sq("7E"), "blue")),
    ("Blue : 7 7e", Move("7", sq("7E"), "blue")),
    ("7 → 7E", Move("7", sq("7E"))),
    ("7 on 7E", Move("7", sq("7E"))),
    ("pass", PASS),
    ("PASS", PASS),
])
def test_parse(text: str, expected: Move) -> None:
    assert G.parse_move(text) == expected


@pytest.mark.parametrize("text, words", [
    ("7 E7", ("column then row", "`7E`")),
    ("moon b2", ("column then row", "`2B`")),
    ("7", ("tile then a square",)),
    ("7E", ("which tile", "`7 7E`")),
    ("10 5C", ("1 to 9",)),
    ("0 5C", ("1 to 9",)),
    ("J 5C", ("A to I",)),
    ("pink:7 7E", ("no colour", "yellow")),
    ("blob 5C", ("not a tile", "moon")),
    ("7 0A", ("not a square",)),
    ("7 7J", ("not a square",)),
    ("7 7E 8", ("don't understand",)),
    ("", ("which tile",)),
])
def test_notation_errors(text: str, words: tuple[str, ...]) -> None:
    with pytest.raises(NotationError) as info:
        G.parse_move(text)
    for word in words:
        assert word.lower() in str(info.value).lower(), str(info.value)


def test_every_move_round_trips() -> None:
    for colour in ("", *COLOURS):
        for face in FACES:
            for i in range(SQUARES):
                move = Move(face, i, colour)
                text = G.format_move(move)
                assert G.parse_move(text) == move
                assert G.parse_move(text.upper()) == move
    assert G.format_move(Move("moon", sq("2B"))) == "moon 2B"
    assert G.format_move(Move("7", sq("7E"), "blue")) == "blue:7 7E"
    assert G.format_move(PASS) == "pass"


# --- views --------------------------------------------------------------------------------------------------

VIEW_KEYS = {"game", "viewer", "mode", "phase", "ply", "turn", "to_act", "board", "sections", "players", "last",
             "result"}
PLAYER_KEYS = {"colours", "rack_counts", "pile_counts", "captured", "groups", "score", "finished", "public"}


def test_view_follows_the_contract() -> None:
    state = G.new_game(3, {}, 4)
    public = G.view(state, None)
    assert set(public) == VIEW_KEYS
    assert public["game"] == "blockers" and public["viewer"] is None and public["mode"] == "basic"
    assert public["phase"] == "play" and public["to_act"] == [state.turn] and public["turn"] == state.turn
    assert public["sections"] == list(SECTIONS)
    assert len(public["board"]) == 9 and all(row == [None] * 9 for row in public["board"])
    assert public["last"] is None and public["result"] is None
    for p, pl in enumerate(public["players"]):
        assert set(pl) == PLAYER_KEYS
        colour = COLOURS[p]
        assert pl == {"colours": [colour], "rack_counts": {colour: 5}, "pile_counts": {colour: 23}, "captured": {},
                      "groups": 0, "score": 0, "finished": [], "public": {}}
    for seat in range(3):
        mine = G.view(state, seat)
        assert set(mine) == VIEW_KEYS | {"rack"} and mine["viewer"] == seat
        assert mine["rack"] == {COLOURS[seat]: state.racks[COLOURS[seat]]}
        assert {k: v for k, v in mine.items() if k not in ("rack", "viewer")} == \
               {k: v for k, v in public.items() if k != "viewer"}
    json.dumps(public)


def test_view_board_is_row_major_from_1a() -> None:
    state = make(cells={"2A": "blue:2", "1B": "yellow:B", "9I": "yellow:wild"})
    board = G.view(state, None)["board"]
    assert board[0][1] == {"colour": "blue", "face": "2"}
    assert board[1][0] == {"colour": "yellow", "face": "B"}
    assert board[8][8] == {"colour": "yellow", "face": "wild"}


def test_public_view_ignores_hidden_tiles() -> None:
    """Racks and the order of the piles change nothing in the public view."""
    state = G.new_game(2, {"mode": "advanced"}, 8)
    for _ in range(30):
        (seat,) = G.to_act(state)
        state = G.apply(state, seat, G.legal_moves(state, seat)[0])[0]
    other = state.clone()
    for colour in other.racks:
        hidden = other.racks[colour] + other.piles[colour]
        hidden.reverse()
        other.racks[colour] = sorted(hidden[:len(other.racks[colour])], key=FACES.index)
        other.piles[colour] = hidden[len(other.racks[colour]):]
    assert other.racks != state.racks
    assert G.view(other, None) == G.view(state, None)
    assert G.text.alt_text(G.view(other, None), ["Ann", "Bo"]) == G.text.alt_text(G.view(state, None), ["Ann", "Bo"])


def test_alt_text_and_status() -> None:
    state = make(cells={"5E": "blue:E"}, racks={"yellow": "5 moon"}, piles={"yellow": "9"})
    state = play(state, 0, "5 5E")
    public = G.view(state, None)
    text = G.text.alt_text(public, ["Ann", "Bo"])
    assert text.startswith("Blockers!, basic game, 2 players.")
    assert "Bo (blue) to play" in text and "yellow tiles at 5E 5" in text
    assert "captured 1 blue" in text and "capturing blue E" in text
    assert "moon" not in text and "Your rack" not in text
    mine = G.text.alt_text(G.view(state, 0), ["Ann", "Bo"])
    assert "Your rack: yellow 9, moon." in mine
    assert G.text.status_line(state) == "{p1} to play (blue 3 in the pile)."


def test_dump_and_load() -> None:
    state = make(FIGURE_C, seats=3, captured=["blue:3", "green:1", ""], racks={"yellow": "1 2"}, finished=("blue",))
    data = G.dump(state)
    assert G.load(json.loads(json.dumps(data))) == state
    with pytest.raises(ValueError):
        G.load({**data, "format": 99})
    with pytest.raises(ValueError):
        G.load({**data, "game": "breaks"})
