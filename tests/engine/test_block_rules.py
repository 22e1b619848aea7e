"""BLOCK rules, clause by clause (``shared/rules/block.md``), on hand-built sheets and set dice."""

from __future__ import annotations

import collections
import itertools
import random

import pytest

from engine.base import IllegalMoveError, NotationError
from engine.block import Block
from engine.block.game import NUMBER_DICE, BlockState
from engine.block.shapes import SHAPES, distinct_orientations, oriented
from engine.block.sheet import COMBO_CAP, CONSECUTIVE, IDENTICAL, Combo, Sheet, X, cell_name, parse_cell
from tests.engine.rule_helpers import expect_illegal

G = Block()


def started(seats: int, seed: int = 1) -> BlockState:
    """A game past setup: seat p wrote its number in column p (or a if p > 6)."""
    s = G.new_game(seats, {}, seed)
    for p in range(seats):
        s, _ = G.apply(s, p, G.parse_move(f"write {'abcdefg'[p % 7]}1"))
    assert s.phase == "play" and s.turn == 1
    return s


def fill(state: BlockState, seat: int, cells: dict[str, int | str]) -> None:
    """Write cells into a seat's sheet as if earlier turns had put them there."""
    for name, value in cells.items():
        r, c = parse_cell(name)
        state.sheets[seat].grid[r][c] = value


def clear(state: BlockState, seat: int) -> None:
    state.sheets[seat] = Sheet()


def rows(*lines: str) -> dict[str, int | str]:
    """Grid rows written top-down like a picture, the last line being row 1: digits, X, or . for empty."""
    out: dict[str, int | str] = {}
    for i, line in enumerate(reversed(lines)):
        for c, ch in enumerate(line.replace(" ", "")):
            if ch != ".":
                out[f"{'abcdefg'[c]}{i + 1}"] = X if ch == "X" else int(ch)
    return out


def play(state: BlockState, seat: int, *texts: str) -> BlockState:
    for text in texts:
        state, _ = G.apply(state, seat, G.parse_move(text))
    return state


def grid_of(state: BlockState, seat: int, *, work: bool = True) -> dict[str, int | str]:
    sheet = state.work[seat] if work else state.sheets[seat]
    return {cell_name((r, c)): v for r, row in enumerate(sheet.grid) for c, v in enumerate(row) if v is not None}


# --- shapes ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("shape", "count"), [("I", 2), ("O", 1), ("T", 4), ("L", 8), ("S", 4), ("I3", 2),
                                              ("V3", 4), ("P5", 8), ("U5", 4), ("L5", 8), ("T5", 4)])
def test_each_shape_has_its_distinct_orientations(shape: str, count: int) -> None:
    assert len(distinct_orientations(shape)) == count
    assert all(len(oriented(shape, o)) == len(SHAPES[shape]) for o in distinct_orientations(shape))


@pytest.mark.parametrize(("shape", "orientation", "cells"), [
    ("L", "r0", ((0, 0), (1, 0), (2, 0), (2, 1))),  # #. / #. / ##
    ("L", "r1", ((0, 0), (0, 1), (0, 2), (1, 0))),  # ### / #..  (a quarter turn clockwise)
    ("L", "m0", ((0, 1), (1, 1), (2, 0), (2, 1))),  # .# / .# / ##  (mirrored)
    ("I", "r1", ((0, 0), (1, 0), (2, 0), (3, 0))),
    ("T", "r2", ((0, 1), (1, 0), (1, 1), (1, 2))),  # .#. / ###
])
def test_orientations_turn_clockwise_and_mirror(shape: str, orientation: str, cells: tuple) -> None:
    assert oriented(shape, orientation) == cells


# --- setup -----------------------------------------------------------------------------------------------------
def test_setup_each_seat_writes_its_number_in_the_bottom_row() -> None:
    s = G.new_game(3, {}, 1)
    assert G.to_act(s) == {0, 1, 2} and s.dice == []
    assert [G.format_move(m) for m in G.legal_moves(s, 1)] == [f"write {c}1" for c in "abcdefg"]
    expect_illegal(G, s, 1, "write c2", "bottom row")
    s = play(s, 1, "write c1")
    assert grid_of(s, 1) == {"c1": 2} and G.to_act(s) == {0, 2}
    assert G.view(s, None)["players"][1]["grid"][0][2] is None  # private until everyone has written
    s = play(s, 0, "write a1")
    s = play(s, 2, "write g1")
    assert s.phase == "play" and len(s.dice) == 5 and grid_of(s, 2, work=False) == {"g1": 3}


# --- dropping --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("before", "drop", "after"), [
    # onto the floor
    ({}, "drop I r0 a 1,2,3,4", {"a1": 1, "b1": 2, "c1": 3, "d1": 4}),
    # an upright I in column g
    ({}, "drop I r1 g 1,2,3,4", {"g4": 1, "g3": 2, "g2": 3, "g1": 4}),
    # values fill the cells in reading order: top row first, left to right (L r1 = ### / #..)
    ({}, "drop L r1 b 5,6,7,8", {"b2": 5, "c2": 6, "d2": 7, "b1": 8}),
    # rests on the highest cell under any of its columns, leaving a hole under the overhang
    ({"a1": 9}, "drop L r1 a 5,6,7,8", {"a1": 9, "a3": 5, "b3": 6, "c3": 7, "a2": 8}),
    # …and the same shape beside that cell fits under nothing: it lands on the floor
    ({"a1": 9}, "drop L r1 b 5,6,7,8", {"a1": 9, "b2": 5, "c2": 6, "d2": 7, "b1": 8}),
    # a T pointing down lands its stem in a gap
    (rows("5.5"), "drop T r0 a 1,2,3,4", {"a1": 5, "c1": 5, "a2": 1, "b2": 2, "c2": 3, "b1": 4}),
    # O on uneven ground sits on the higher column; a hole stays below
    (rows(".3", "22"), "drop O r0 a 1,2,3,4", {"a1": 2, "b1": 2, "b2": 3, "a4": 1, "b4": 2, "a3": 3, "b3": 4}),
])
def test_a_drop_falls_as_one_rigid_piece(before: dict, drop: str, after: dict) -> None:
    s = started(2)
    clear(s, 0)
    fill(s, 0, before)
    move = G.parse_move(drop)
    s = play(dice_for(s, list(move.values), move.shape), 0, drop)
    assert grid_of(s, 0) == after


def dice_for(s: BlockState, values: list[int], shape: str, seat: int = 0) -> BlockState:
    """Set the dice so that these four values can be dropped (real faces where a die has them, ★ elsewhere) and
    pick the ★ values for ``seat``."""
    faces: list[int | str] = []
    left = list(values)
    for die in NUMBER_DICE:
        pick = next((v for v in left if v in die), None)
        faces.append("*" if pick is None else pick)
        if pick is not None:
            left.remove(pick)
    s = G.with_dice(s, [*faces, shape])
    while G.step(s, seat) in ("slide", "extra"):
        s = play(s, seat, G.format_move(G.legal_moves(s, seat)[-1]))
    for v in left:  # the ★ values, in die order
        s = play(s, seat, f"star {v}")
    return s


def test_a_drop_that_would_stick_out_is_illegal_and_the_values_must_be_the_roll() -> None:
    s = started(2)
    clear(s, 0)
    fill(s, 0, {f"a{r}": 1 for r in range(1, 12)})  # column a filled up to row 11
    s = dice_for(s, [1, 2, 3, 4], "I")
    expect_illegal(G, s, 0, "drop I r1 a 1,2,3,4", "stick out")  # rows 12–15: over the top
    expect_illegal(G, s, 0, "drop I r0 e 1,2,3,4", "stick out")  # e–h: off the right edge
    expect_illegal(G, s, 0, "drop I r0 b 1,2,3,5", "1, 2, 3, 4")
    expect_illegal(G, s, 0, "drop O r0 b 1,2,3,4", "shape die")
    s = play(s, 0, "drop I r1 b 1,2,3,4")
    assert {m.kind for m in G.legal_moves(s, 0)} <= {"combo", "pass"}


def test_star_values_come_first_and_each_is_0_to_9() -> None:
    s = G.with_dice(started(2), ["*", 3, "*", 1, "*"])
    assert G.step(s, 0) == "star" and [G.format_move(m) for m in G.legal_moves(s, 0)] == [
        f"star {v}" for v in range(10)]
    expect_illegal(G, s, 0, "drop L r0 a 0,3,9,1", "Now you choose the value")
    s = play(s, 0, "star 0", "star 9")
    assert G.number_values(s, 0) == [0, 3, 9, 1]
    drops = G.legal_moves(s, 0)
    assert {m.shape for m in drops} == {"I", "O", "T", "L", "S"}  # ★ on the shape die: any tetromino
    assert all(sorted(m.values) == [0, 1, 3, 9] for m in drops)
    with pytest.raises(NotationError):
        G.parse_move("star 10")


def test_orientation_names_are_normalised() -> None:
    s = dice_for(started(2), [1, 2, 3, 4], "O")
    out = play(s, 0, "drop O r2 c 1,2,3,4")  # O turned twice is O
    assert "drop O r0 c 1,2,3,4" in out.progress[0].done


# --- combos ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("grid", "combo", "ok"), [
    (rows("222"), "combo identical a1 b1 c1", True),
    (rows("2..", "22."), "combo identical a1 b1 a2", True),  # bent
    (rows("2.2", "222"), "combo identical a2 a1 b1 c1 c2", True),  # a U shape, any cell order
    (rows("2.2"), "combo identical a1 c1", False),  # too small and not connected
    (rows("2.22"), "combo identical a1 c1 d1", False),  # not connected
    (rows("223"), "combo identical a1 b1 c1", False),  # not all equal
    (rows("X22", "222"), "combo identical b2 a1 b1", True),
    (rows("2X2", "2X2"), "combo identical a1 a2 c1", False),  # X is never part of a combo
    (rows("345"), "combo consecutive a1 b1 c1", True),
    (rows("345"), "combo consecutive c1 b1 a1", True),  # falling is the same combo
    (rows("5..", "4..", "3.."), "combo consecutive a1 a2 a3", True),
    (rows("5.4", "..3", "..2"), "combo consecutive c1 c2 c3 a3", False),  # 2,3,4 then 5 is not next to the 4
    (rows("43", "12"), "combo consecutive a1 b1 b2 a2", True),  # a path that doubles back: 1,2,3,4
    (rows("3.5"), "combo consecutive a1 c1", False),
    (rows("346"), "combo consecutive a1 b1 c1", False),  # steps of 1 only
    (rows("012345678"[:7]), "combo consecutive a1 b1 c1 d1 e1 f1 g1", True),  # 7 long
    (rows("4", "4", "4", "4", "4", "4", "4", "4"), "combo identical " + " ".join(f"a{r}" for r in range(1, 9)),
     True),  # the bonus: 8 cells
])
def test_combo_shapes(grid: dict, combo: str, ok: bool) -> None:
    s = started(2)
    clear(s, 0)
    fill(s, 0, grid)
    s = dice_for(s, [1, 2, 3, 4], "I")
    s = play(s, 0, "drop I r0 d 1,2,3,4" if "d1" not in grid and "g1" not in grid else "drop I r1 g 1,2,3,4")
    move = G.parse_move(combo)
    legal = [G.format_move(m) for m in G.legal_moves(s, 0)]
    if ok:
        canonical = G.format_move(G.normalise_move(s, 0, move))
        assert canonical in legal
        after = play(s, 0, combo)
        assert len(after.work[0].combos) == 1 and after.work[0].combos[0].size == len(move.cells)
    else:
        assert G.format_move(G.normalise_move(s, 0, move)) not in legal
        expect_illegal(G, s, 0, combo, "combo")


def test_no_repeat_of_type_and_size_no_reused_cells_and_one_bonus() -> None:
    s = started(2)
    clear(s, 0)
    fill(s, 0, rows("5555", "5555", "2223", "2224"))
    s.sheets[0].combos = [Combo(IDENTICAL, ((0, 0), (0, 1), (0, 2)))]  # 2s in a1 b1 c1
    s = dice_for(s, [1, 2, 3, 4], "I")
    s = play(s, 0, "drop I r1 g 1,2,3,4")
    expect_illegal(G, s, 0, "combo identical a2 b2 c2", "already")  # identical 3 again
    expect_illegal(G, s, 0, "combo identical a1 a2 b2 c2", "aren't")  # a1 is circled
    legal = G.legal_moves(s, 0)
    assert all((0, 0) not in m.cells for m in legal)
    assert any(m.kind == "combo" and len(m.cells) == 8 for m in legal)  # the bonus: the eight 5s
    s = play(s, 0, "combo identical a3 b3 c3 d3 a4 b4 c4 d4")
    assert s.work[0].score()["bonus"] == 8 and s.work[0].bonus_used
    assert not any(len(c.cells) == 8 for c in s.work[0].combos_available())


def test_combo_step_passes_itself_when_nothing_can_be_circled() -> None:
    s = started(2)
    clear(s, 0)
    s = dice_for(s, [1, 2, 4, 7], "I")
    s = play(s, 0, "drop I r0 a 1,2,4,7")
    assert G.step(s, 0) == "" and 0 not in G.to_act(s)


# --- letters and penalties -------------------------------------------------------------------------------------
def test_both_combos_of_a_size_circle_its_letter_for_two_players_in_one_turn() -> None:
    s = started(2)
    for p in (0, 1):
        clear(s, p)
        fill(s, p, rows("123", "777"))
        s.sheets[p].combos = [Combo(IDENTICAL, ((0, 0), (0, 1), (0, 2)))]
    s = dice_for(s, [1, 2, 3, 4], "I", seat=0)
    for p in (0, 1):
        s = play(s, p, "drop I r1 g 1,2,3,4", "combo consecutive a2 b2 c2")
        assert s.work[p].letters == ["A"]
    assert G.view(s, None)["blocks"][0]["circled_by"] == [0, 1]


def test_a_crossed_off_letter_is_never_circled() -> None:
    s = started(2)
    clear(s, 0)
    fill(s, 0, rows("123", "777"))
    s.sheets[0].combos = [Combo(IDENTICAL, ((0, 0), (0, 1), (0, 2)))]
    s.crossed = ["A"]
    s = play(dice_for(s, [1, 2, 3, 4], "I"), 0, "drop I r1 g 1,2,3,4", "combo consecutive a2 b2 c2")
    assert s.work[0].letters == []


def penalty_table(seats: int = 3) -> BlockState:
    """Seat 0 has circled A and C; nobody else has."""
    s = started(seats)
    for p in range(seats):
        clear(s, p)
    s.sheets[0].letters = ["A", "C"]
    s.blocks = ["I3", "T4", "L4", "P5", "L5"]
    return s


def test_a_star_drops_the_highest_active_block_on_the_unprotected() -> None:
    s = G.with_dice(penalty_table(), [1, 2, "*", 4, "T"])
    assert s.penalty == "A" and G.to_act(s) == {1, 2}
    assert [G.format_move(m) for m in G.legal_moves(s, 1)][:3] == ["penalty r0 a", "penalty r0 b", "penalty r0 c"]
    expect_illegal(G, s, 1, "drop T r0 a 1,2,4,4", "penalty")
    protected = "BLOCK A drops on the others: you circled A, so you are protected."
    assert G.text.idle_note(s, 0) == protected and G.view(s, 0)["mine"]["note"] == protected  # (what /hand shows)
    assert G.text.idle_note(s, 1) == "" and G.view(s, 1)["mine"]["note"] == ""
    s = play(s, 1, "penalty r1 c")
    assert grid_of(s, 1) == {"c1": X, "c2": X, "c3": X}
    assert G.view(s, None)["players"][1]["grid"][0][2] is None  # hidden until the turn resolves
    s, events = G.apply(s, 2, G.parse_move("penalty r0 e"))  # e1 f1 g1
    said = [e.text for e in events]
    assert "{p0} was protected from BLOCK A." in said, said
    assert s.crossed == ["A"] and s.turn == 2  # crossed off for everyone; the next turn began
    assert grid_of(s, 2, work=False) == {"e1": X, "f1": X, "g1": X}
    assert grid_of(s, 0, work=False) == {}  # seat 0 was protected, and nobody dropped their own shape
    assert G.view(s, None)["blocks"][0]["crossed"]


def test_no_star_no_penalty_and_next_time_the_next_letter() -> None:
    s = G.with_dice(penalty_table(), [1, 2, 3, 4, "T"])
    assert s.penalty == "" and G.to_act(s) == {0, 1, 2} and G.step(s, 1) == "drop"
    s = penalty_table()
    s.crossed = ["A"]
    s = G.with_dice(s, ["*", 2, 3, 4, "O"])
    assert s.penalty == "C" and G.to_act(s) == {1, 2}


def test_a_penalty_nobody_must_take_is_crossed_off_at_once() -> None:
    s = penalty_table(2)
    s.sheets[1].letters = ["A"]
    s = G.with_dice(s, [1, 2, 3, 4, "*"])
    assert s.crossed == ["A"] and s.turn == 2


def test_x_cells_complete_rows_but_are_never_numbers() -> None:
    s = penalty_table(2)
    fill(s, 1, rows("1234"))  # a1–d1; the I3 penalty fills e1–g1
    s = G.with_dice(s, [1, 2, "*", 4, "T"])
    s = play(s, 1, "penalty r0 e")
    assert s.sheets[1].full_rows() == [0] and G.scores(s)[1] == 2
    assert s.recent[1]["rows"] == [1]


# --- rows, the Game Over line, the end -------------------------------------------------------------------------
def test_a_row_scores_only_when_all_seven_cells_are_filled() -> None:
    sheet = Sheet()
    for c in range(6):
        sheet.grid[0][c] = 1
    assert sheet.score()["rows"] == 0
    sheet.grid[1][6] = 2  # above the hole, not in it
    assert sheet.score()["rows"] == 0
    sheet.grid[0][6] = X
    assert sheet.score()["rows"] == 2


def test_crossing_the_line_ends_the_game_after_the_turn_with_minus_five_per_row() -> None:
    s = started(2)
    clear(s, 0)
    clear(s, 1)
    fill(s, 0, {f"a{r}": 1 for r in range(1, 11)})  # column a up to row 10
    s = dice_for(s, [1, 2, 3, 4], "I")
    s = play(s, 0, "drop I r1 a 1,2,3,4", "pass")  # a11–a14, no combo
    assert s.phase == "play"  # the other seat still plays this turn
    s = dice_for_seat_1_and_drop(s)
    assert s.phase == "over" and G.to_act(s) == frozenset()
    breakdown = s.sheets[0].score()
    assert breakdown["beyond"] == -15  # rows 12, 13 and 14 hold a number
    result = G.result(s)
    assert result is not None and result.winners == {1}


def dice_for_seat_1_and_drop(s: BlockState) -> BlockState:
    for v in range(10):
        if G.step(s, 1) != "star":
            break
        s = play(s, 1, f"star {v}")
    move = G.legal_moves(s, 1)[0]
    s = play(s, 1, G.format_move(move))
    while G.step(s, 1):
        s = play(s, 1, "pass")
    return s


def test_x_cells_beyond_the_line_end_the_game_but_cost_nothing() -> None:
    s = penalty_table(2)
    fill(s, 1, {f"a{r}": 1 for r in range(1, 12)})
    s = G.with_dice(s, [1, 2, "*", 4, "T"])
    s = play(s, 1, "penalty r1 a")  # a12–a14, X only
    assert s.phase == "over" and s.crossed_line == [False, True]
    assert s.sheets[1].score()["beyond"] == 0


def test_no_room_for_the_drop_counts_as_crossing_the_line() -> None:
    s = started(2)
    clear(s, 0)
    fill(s, 0, {f"{c}{r}": 1 for c in "abcdefg" for r in range(1, 15 if c != "g" else 12)})
    s = G.with_dice(s, [1, 2, 3, 4, "I"])
    # A lying I needs four free columns and an upright one rows 12–15 of column g: nothing fits
    assert G.step(s, 0) in ("", "combo") and s.progress[0].stuck
    s = dice_for_seat_1_and_drop(s)
    while G.step(s, 0):
        s = play(s, 0, "pass")
    assert s.phase == "over" and s.crossed_line[0]


def test_the_rulebook_end_game_example_scores_54() -> None:
    """Player 2 of the rulebook: identical 3–7 (25) + their column bonus (10); consecutive 4 and 6 (10); 7
    completed rows (14); a number beyond the line (−5). Letters B and D circled; penalties A and C suffered."""
    sheet = Sheet()
    picture = rows(
        "0......",  # row 12: a number beyond the Game Over line
        "0......",
        "0......",
        "0......",
        "0......",  # row 8
        "9988776",  # row 7: full, no combo
        "012345X",  # consecutive 6: a6–f6
        "1234XXX",  # consecutive 4: a5–d5
        "5555555",  # identical 7
        "444444X",  # identical 6
        "33333XX",  # identical 5
        "1112222",  # identical 3 (1s) and identical 4 (2s)
    )
    for name, value in picture.items():
        r, c = parse_cell(name)
        sheet.grid[r][c] = value
    combos = [
        ("identical", "a1 b1 c1"), ("identical", "d1 e1 f1 g1"), ("identical", "a2 b2 c2 d2 e2"),
        ("identical", "a3 b3 c3 d3 e3 f3"), ("identical", "a4 b4 c4 d4 e4 f4 g4"),
        ("consecutive", "a5 b5 c5 d5"), ("consecutive", "a6 b6 c6 d6 e6 f6"),
    ]
    for kind, cells in combos:
        combo = Combo(kind, tuple(parse_cell(x) for x in cells.split()))
        assert sheet.is_combo(combo), (kind, cells)
        sheet.add_combo(combo)
        sheet.letters += sheet.new_letters(["A", "C"])
    assert sheet.letters == ["B", "D"]
    assert sheet.score() == {"identical": 25, "consecutive": 10, "bonus": 0, "columns": 10, "rows": 14,
                             "beyond": -5, "total": 54}
    assert sheet.has(IDENTICAL, 7) and not sheet.has(CONSECUTIVE, 3)


def test_ties_share_the_win() -> None:
    s = started(3)
    for p in range(3):
        clear(s, p)
    fill(s, 0, rows("1111111"))
    fill(s, 1, rows("2222222"))
    s.phase = "over"
    result = G.result(s)
    assert result is not None and result.winners == {0, 1} and result.ranks == (1, 1, 3)


# --- the solo mode ---------------------------------------------------------------------------------------------
def solo(seed: int = 1) -> BlockState:
    s = started(1, seed)
    s.blocks = ["I", "O", "T", "L", "S"]
    return s


def test_solo_turn_mandatory_slide_then_the_shape_die_tile_when_a_star_shows() -> None:
    s = G.with_dice(solo(), [1, "*", 3, 5, "L"])
    assert G.step(s, 0) == "slide" and len(G.legal_moves(s, 0)) == 5
    s = play(s, 0, "slide A")
    assert s.notches == [1, 0, 0, 1, 0]  # A by choice, then D (the L tile) by itself
    assert G.step(s, 0) == "star"


def test_the_turn_summary_pairs_each_value_with_its_cell_and_tells_the_automatic_slide() -> None:
    """The public summary of a turn: a drop's values each with the cell it fills (they fill the shape's cells in
    reading order, which sorted cells would not show), and in solo the shape die's tile sliding by itself."""
    s = G.with_dice(solo(), [1, "*", 3, 5, "L"])
    clear(s, 0)
    s = play(s, 0, "slide A", "star 2", "drop L r1 b 1,2,3,5")
    while G.to_act(s) and G.step(s, 0) in ("combo", "pass"):
        s, events = G.apply(s, 0, G.legal_moves(s, 0)[-1])
    (summary,) = [e.text for e in events if e.kind == "turn"]
    assert summary.startswith("{p0} slid tile A, then tile D by the shape die; dropped L at b2=1, c2=2, d2=3, b1=5"), \
        summary


def test_solo_star_on_the_shape_die_lets_the_player_pick_the_extra_tile() -> None:
    s = G.with_dice(solo(), [1, 2, 3, 5, "*"])
    s = play(s, 0, "slide B")
    assert G.step(s, 0) == "extra"
    s = play(s, 0, "slide B")
    assert s.notches == [0, 2, 0, 0, 0] and G.step(s, 0) == "drop"


def test_solo_no_star_no_extra_slide() -> None:
    s = play(G.with_dice(solo(), [1, 2, 3, 5, "T"]), 0, "slide E")
    assert s.notches == [0, 0, 0, 0, 1] and G.step(s, 0) == "drop"


def test_solo_a_tile_at_go_drops_at_once_unless_its_letter_is_circled() -> None:
    s = solo()
    s.notches = [3, 3, 0, 0, 0]
    s.sheets[0].letters = ["B"]
    s = G.with_dice(s, [1, 2, 3, 5, "I"])
    s = play(s, 0, "slide A")
    assert s.notches[0] == 4 and G.step(s, 0) == "penalty:A"  # A's I drops before anything else
    s = play(s, 0, "penalty r0 b")
    assert grid_of(s, 0) == {"a1": 1, "b1": X, "c1": X, "d1": X, "e1": X}
    assert G.step(s, 0) == "drop"
    s2 = solo()
    s2.notches = [0, 3, 0, 0, 0]
    s2.sheets[0].letters = ["B"]
    s2 = play(G.with_dice(s2, [1, 2, 3, 5, "I"]), 0, "slide B")
    assert s2.notches[1] == 4 and G.step(s2, 0) == "drop"  # protected: no penalty
    assert G.legal_moves(s2, 0) and all(m.kind == "drop" for m in G.legal_moves(s2, 0))
    expect_illegal(G, play(G.with_dice(s2, [1, 2, 3, 5, "I"]), 0, "slide A"), 0, "slide B", "Now you")


def test_solo_ends_after_the_turn_the_last_tile_reaches_go() -> None:
    s = solo()
    s.notches = [4, 4, 4, 4, 3]
    s = G.with_dice(s, [1, 2, 3, 5, "T"])
    assert [G.format_move(m) for m in G.legal_moves(s, 0)] == ["slide E"]
    s = play(s, 0, "slide E")  # S reaches GO!: its penalty drops, then the turn goes on
    assert G.step(s, 0) == "penalty:E"
    s = play(s, 0, G.format_move(G.legal_moves(s, 0)[0]))
    s = play(s, 0, G.format_move(G.legal_moves(s, 0)[0]))
    while G.step(s, 0):
        s = play(s, 0, "pass")
    assert s.phase == "over"
    result = G.result(s)
    assert result is not None and "rookie" in result.reason


@pytest.mark.parametrize(("score", "rank"), [(-5, "rookie"), (0, "rookie"), (29, "rookie"), (30, "stacker"),
                                             (39, "stacker"), (40, "architect"), (50, "master"), (59, "master"),
                                             (60, "legend"), (100, "legend")])
def test_solo_ladder(score: int, rank: str) -> None:
    assert G.ladder(score) == rank


# --- notation --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["drop L r1 c 1,2,4,7", "star 5", "combo identical b1 b2 c2", "pass",
                                  "penalty m3 g", "slide C", "write d1", "combo consecutive a1 a2 a3 a4 a5 a6 a7 a8"])
def test_notation_round_trips(text: str) -> None:
    assert G.format_move(G.parse_move(text)) == text


@pytest.mark.parametrize("text", ["drop Q r1 c 1,2,3,4", "drop L r9 c 1,2,3,4", "drop L r1 h 1,2,3,4",
                                  "drop L r1 c 1,2,3", "drop L r1 c 1,2,3,x", "combo odd a1 a2 a3",
                                  "combo identical a0 a1 a2", "combo identical a15 a1 a2", "slide F", "star x",
                                  "penalty r0", "write", "jump"])
def test_bad_notation_is_explained(text: str) -> None:
    with pytest.raises(NotationError) as info:
        G.parse_move(text)
    assert str(info.value)


def test_moves_are_refused_without_change_when_it_is_not_the_step() -> None:
    s = dice_for(started(2), [1, 2, 3, 4], "T")
    for text, words in [("combo identical a1 b1 c1", ("Now you", "drop")), ("slide A", ("Now you",)),
                        ("penalty r0 a", ("Now you",)), ("write a1", ("Now you",))]:
        expect_illegal(G, s, 0, text, *words, error=IllegalMoveError)


# --- listing combos ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(24))
def test_listed_combos_are_exactly_the_rule_s_combos_on_small_grids(seed: int) -> None:
    """Brute force over every cell subset of a random 3×4 corner (uncapped listing)."""
    rng = random.Random(seed)
    sheet = Sheet()
    for r in range(3):
        for c in range(4):
            if rng.random() < 0.85:
                sheet.grid[r][c] = rng.choice([1, 2, 3] if seed % 2 else [4, 4, 5])
    free = sheet.free_numbers()
    want = set()
    for k in range(3, 9):
        for cells in itertools.combinations(sorted(free), k):
            for kind in (IDENTICAL, CONSECUTIVE):
                combo = Combo(kind, cells)
                if sheet.is_combo(combo):
                    canonical = cells if kind == IDENTICAL else tuple(sorted(cells, key=free.__getitem__))
                    want.add((kind, canonical))
    got = [(c.kind, c.cells) for c in sheet.combos_available(cap=10**9)]
    assert len(got) == len(set(got)) and set(got) == want


def test_a_big_patch_of_equal_numbers_lists_a_bounded_menu_but_any_combo_can_be_typed() -> None:
    s = started(2)
    clear(s, 0)
    fill(s, 0, {f"{c}{r}": 5 for c in "abcdefg" for r in range(1, 10)})  # 63 fives
    s = dice_for(s, [1, 2, 3, 4], "I")
    s = play(s, 0, "drop I r0 a 1,2,3,4")  # a10–d10
    listed = [m for m in G.menu_moves(s, 0) if m.kind == "combo"]  # what a menu offers
    sizes = collections.Counter(len(m.cells) for m in listed if m.combo == IDENTICAL)
    assert sizes and max(sizes.values()) <= COMBO_CAP  # uncapped, size 7 alone would be hundreds of thousands
    corner = "combo identical g3 g4 g5 g6 g7 g8 g9"  # a column far from where the listing starts
    assert corner not in {G.format_move(m) for m in listed}
    # legal_moves tells the whole truth (the game kit's contract): every combo, the corner one included
    assert G.parse_move(corner) in G.legal_moves(s, 0)
    after = play(s, 0, corner)
    assert after.work[0].combos[-1].cells == tuple(parse_cell(x) for x in corner.split()[2:])
    expect_illegal(G, s, 0, "combo identical g3 g4 g5 g6 g7 g8 a10", "aren't")
