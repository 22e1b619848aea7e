"""Bots (issue 13): every level plays only legal moves in every game; a time budget is respected. (That the hard
bot decides from its own seat's view only is tests/botplay/test_scramble_hidden.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from bots import LEVELS, choose
from engine.base import Game
from engine.rng import Rng
from tables.catalog import default_catalog

GAMES = [e.rules for e in default_catalog().entries()]


def positions(game: Game[Any, Any, Any], seats: int, seed: int, count: int = 6) -> list[Any]:
    """States along a random game (the first ones and some later)."""
    state = game.new_game(seats, {}, seed)
    rng = Rng(seed)
    out = []
    for ply in range(400):
        if game.is_over(state):
            break
        if ply % 7 == 0:
            out.append(state)
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.sample_move(state, seat, rng))
    return out[:count]


@pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])
@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_only_plays_legal_moves(game: Game[Any, Any, Any], level: str) -> None:
    for seed in (1, 2):
        for state in positions(game, game.min_players if game.min_players > 1 else 2, seed):
            seat = min(game.to_act(state))
            move = choose(game, state, seat, level, Rng(seed), iterations=15)
            assert move in game.legal_moves(state, seat)


@pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])
def test_the_hard_bot_is_reproducible(game: Game[Any, Any, Any]) -> None:
    """The same position and the same seed give the same move (tournaments replay exactly)."""
    for state in positions(game, game.min_players if game.min_players > 1 else 2, 5, count=3):
        seat = min(game.to_act(state))
        first = choose(game, state, seat, "hard", Rng(11), iterations=20)
        again = choose(game, state, seat, "hard", Rng(11), iterations=20)
        assert game.format_move(first) == game.format_move(again)


def test_every_search_profile_names_a_game_and_known_heuristics() -> None:
    from bots.heuristics import LEAVES
    from bots.mcts import PROFILES

    keys = {g.key for g in GAMES}
    for key, prof in PROFILES.items():
        assert key in keys
        assert not prof.leaf or prof.leaf in LEAVES


def test_the_hard_bot_keeps_to_its_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search stops at the first look at the clock past its deadline: one iteration past the budget at most,
    not a runaway search. The search's clock is a fake one that moves 1/64 s at each look, so what is checked is
    the search's own bookkeeping, however fast or busy the machine is."""
    import bots.mcts

    class Clock:
        now, reads = 0.0, 0

        def perf_counter(self) -> float:
            self.reads += 1
            assert self.reads < 1_000, "a runaway search"
            self.now += 1 / 64  # (exact in binary: no rounding at the deadline)
            return self.now

    clock = Clock()
    monkeypatch.setattr(bots.mcts, "time", clock)
    game = default_catalog().get("breakerblocks")  # a game whose hard bot searches until its deadline
    assert game is not None
    state = positions(game, 2, 4, count=2)[-1]
    seat = min(game.to_act(state))
    move = choose(game, state, seat, "hard", Rng(1), budget_ms=125)  # 8 looks
    assert move in game.legal_moves(state, seat)
    assert clock.reads == 1 + 8, "a look to set the deadline, then one before each iteration but the first, the "\
        "8th ending the search"


# --- the BLOCK turn planner (the hard bot's BLOCK) ------------------------------------------------------------

def _block_two_players(rows: dict[int, str], dice: list[Any]) -> Any:
    """A two-player BLOCK game after setup, seat 0's sheet holding ``rows`` (row index → seven characters, a digit,
    ``X`` or ``.`` for empty), the turn rolled as ``dice``."""
    game: Any = default_catalog().get("block")
    assert game is not None
    state = game.new_game(2, {}, 7)
    for seat in (0, 1):
        state, _ = game.apply(state, seat, game.parse_move("write g1" if seat == 0 else "write a1"))
    sheet = state.sheets[0]
    sheet.grid = [[None] * 7 for _ in range(14)]
    for r, text in rows.items():
        sheet.grid[r] = [None if ch == "." else ("X" if ch == "X" else int(ch)) for ch in text]
    return game, game.with_dice(state, dice)


@pytest.mark.parametrize(("rows", "biggest"), [
    ({0: "55..123", 1: "55....."}, 4),  # a patch of four 5s beats the run 1-2-3
    ({0: "12345.."}, 5),  # a run of five
    ({0: "333.777", 1: "3......"}, 4),
])
def test_the_block_planner_makes_the_biggest_combo(rows: dict[int, str], biggest: int) -> None:
    game, state = _block_two_players(rows, [1, 2, 1, 1, "I"])
    while game.step(state, 0) != "combo":
        state, _ = game.apply(state, 0, choose(game, state, 0, "hard", Rng(1)))
    best = max(len(m.cells) for m in game.legal_moves(state, 0) if m.kind == "combo")
    move = choose(game, state, 0, "hard", Rng(1))
    assert move.kind == "combo" and len(move.cells) == best >= biggest


def test_the_block_planner_chooses_a_star_value_that_makes_a_combo() -> None:
    """Three 6s on the floor and a ★: the planner's value lets the drop make a combo of four or more (the medium
    bot's one-move look cannot tell ★ values apart: a value alone changes no sheet)."""
    game, state = _block_two_players({0: "666...."}, [1, 3, 1, "*", "I"])
    assert game.step(state, 0) == "star"
    for _ in range(3):
        state, _ = game.apply(state, 0, choose(game, state, 0, "hard", Rng(2)))
        if game.step(state, 0) == "combo":
            break
    assert game.step(state, 0) == "combo"
    move = choose(game, state, 0, "hard", Rng(2))
    assert move.kind == "combo" and len(move.cells) >= 4


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_block_planner_stays_below_the_line_when_it_can(seed: int) -> None:
    """Along a game of planned drops, a drop never crosses the Game Over line while another drop would not."""
    game = default_catalog().get("block")
    assert game is not None
    state = game.new_game(2, {}, seed)
    rng = Rng(seed)
    while not game.is_over(state):
        seat = min(game.to_act(state))
        moves = game.legal_moves(state, seat)
        move = choose(game, state, seat, "hard" if seat == 0 else "medium", rng, iterations=5)
        if seat == 0 and move.kind == "drop" and any(_highest(game, state.work[0], m) < 11 for m in moves):
            assert _highest(game, state.work[0], move) < 11
        state, _ = game.apply(state, seat, move)


@pytest.mark.parametrize(("dice", "looks"), [(["*", "*", "*", "*", "*"], 3), ([1, 2, "*", "*", "*"], 1),
                                             ([4, 6, 5, 7, "*"], 5)])
def test_the_block_planner_answers_with_its_best_so_far_at_its_deadline(monkeypatch: pytest.MonkeyPatch,
                                                                        dice: list[Any], looks: int) -> None:
    """Live, the planner's ★ and drop searches look at their likeliest choices first and stop at the deadline with
    the best found so far (a legal move, one the whole search rates close); a search the deadline does not cut
    chooses what the untimed one does. The deadline here is a count of looks at it, not the clock, so the test
    checks the planner's bookkeeping however fast or busy the machine is."""
    import bots.blockplan
    from bots.deadline import Deadline

    looked = [0]

    class Looks(Deadline):
        cut: int | None = None

        def passed(self) -> bool:
            if self.at is None:  # (untimed: never)
                return False
            looked[0] += 1
            return self.cut is not None and looked[0] > self.cut

    game, state = _block_two_players({0: "12.34.5", 1: "5...6.."}, dice)
    seat = 0
    while game.step(state, seat) in ("star", "drop"):
        moves = game.search_moves(state, seat)
        untimed = bots.blockplan.plan(game, state, seat, moves, Rng(4), 1500, timed=False)
        for cut in (None, looks):
            looked[0] = 0
            monkeypatch.setattr(bots.blockplan, "Deadline", type("Cut", (Looks,), {"cut": cut}))
            move = bots.blockplan.plan(game, state, seat, moves, Rng(4), 1500, timed=True)
            assert move in moves
            if cut is None:
                assert move == untimed, "uncut: the untimed search's choice"
                full = looked[0]
            else:
                assert looked[0] == min(full, cut + 1), "the search stops at the first look past its deadline"
        state, _ = game.apply(state, seat, untimed)


def _highest(game: Any, sheet: Any, move: Any) -> int:
    from engine.block.shapes import oriented

    cells = sheet.landing(oriented(move.shape, move.orientation), move.column)
    assert cells is not None
    return max(r for r, _ in cells)


# --- Blockers!: the hard bot's leaf ----------------------------------------------------------------------------

def test_the_blockers_leaf_values_a_square_that_would_merge_two_groups() -> None:
    """Yellow's 1A and 3A with 2A empty (yellow's 2, A, sun and wild are all unplayed: one of them can join the
    groups) is worth more to yellow than the same groups with 2A taken by blue; the plain score can't tell."""
    from bots.heuristics import blockers_reach_value, blockers_value
    from engine.blockers.board import square_index

    game = default_catalog().get("blockers")
    assert game is not None
    base = game.new_game(2, {}, 1)
    open_gap, blocked = game.clone(base), game.clone(base)
    for state, blue in ((open_gap, "9I"), (blocked, "2A")):
        state.board = [None] * 81
        state.board[square_index("1A")] = "yellow:1"
        state.board[square_index("3A")] = "yellow:3"
        state.board[square_index(blue)] = "blue:" + ("9" if blue == "9I" else "2")
    assert blockers_value(game, open_gap, 0) == blockers_value(game, blocked, 0)
    assert blockers_reach_value(game, open_gap, 0) > blockers_reach_value(game, blocked, 0)
    assert blockers_reach_value(game, open_gap, 1) < blockers_reach_value(game, blocked, 1)


# --- Breaks: the hard bot's learned leaf and its draws ---------------------------------------------------------

def _breaks(mine: list[list[str]], theirs: list[list[str]], pile: list[str], stacks: int = 0) -> tuple[Any, Any]:
    """A two-player Breaks position: seat 0's and seat 1's slots, the draw pile, seat 0's stacks; seat 1 to act."""
    game: Any = default_catalog().get("breaks")
    assert game is not None
    state = game.new_game(2, {}, 1)
    state.slots = [[list(s) for s in mine], [list(s) for s in theirs]]
    state.draw = list(pile)
    state.discard = []
    state.stacks = [[["2C", "3C", "4C", "5C", "6C"]] * stacks, []]
    state.turn = 1
    return game, state


PILE = ["JH", "QH", "KH", "2S", "3S", "4D", "5D", "6C", "7C", "8S", "9D", "TC"]


@pytest.mark.parametrize(("better", "worse", "why"), [
    (dict(mine=[["2H", "3H"], ["9S"], []], theirs=[["4S"], ["8D"], ["7D"]], pile=PILE, stacks=1),
     dict(mine=[["2H", "3H"], ["9S"], []], theirs=[["4S"], ["8D"], ["7D"]], pile=PILE, stacks=0), "a stack more"),
    (dict(mine=[["2S", "3S", "4S", "5S"], ["9D"], ["7C"]], theirs=[["4C"], ["8D"], []], pile=PILE),
     dict(mine=[["2S", "3S", "4S", "5H"], ["9D"], ["7C"]], theirs=[["4C"], ["8D"], []], pile=PILE),
     "a four whose top no court card in the pile matches (5H: the pile holds the heart courts)"),
    (dict(mine=[["2S", "3S", "4S"], ["5S", "6S"], ["9D"]], theirs=[["4C"], ["8D"], ["7D"]], pile=PILE),
     dict(mine=[["2S", "3S", "4S"], ["5H", "6H"], ["9D"]], theirs=[["4C"], ["8D"], ["7D"]], pile=PILE),
     "two sequences that merge into a stack"),
])
def test_the_breaks_leaf_prefers_the_better_position(better: dict[str, Any], worse: dict[str, Any], why: str) -> None:
    from bots.breaks import learned_value

    game, good = _breaks(**better)
    _, bad = _breaks(**worse)
    assert learned_value(game, good, 0) > learned_value(game, bad, 0), why
    assert learned_value(game, good, 1) < learned_value(game, bad, 1), why


def test_breaks_draws_are_listed_from_the_piles_composition_only() -> None:
    """Every distinct card of the pile once, weighted by its count; a shuffled pile lists the same outcomes."""
    from bots.breaks import next_draws
    from engine.breaks.game import DRAW, PLACE

    game, state = _breaks([["2S"], ["9D"], []], [["4C"], ["8D"], []], ["KH", "3S", "KH", "7C"])
    outs = next_draws(game, state, 1, DRAW)
    assert outs is not None and abs(sum(w for w, _ in outs) - 1.0) < 1e-9
    assert sorted((s.pending, w) for w, s in outs) == [("3S", 0.25), ("7C", 0.25), ("KH", 0.5)]
    shuffled = game.clone(state)
    shuffled.draw.reverse()
    again = next_draws(game, shuffled, 1, DRAW)
    assert again is not None and sorted((s.pending, w) for w, s in again) == sorted((s.pending, w) for w, s in outs)
    assert next_draws(game, state, 1, PLACE[0]) is None


def test_the_breaks_leaf_counts_points_with_court_scoring() -> None:
    """With ``scoring=court`` a stack of Kings is worth more than two plain stacks: the leaf sees the points."""
    from bots.breaks import learned_value

    game, state = _breaks([["2H"], ["9S"], []], [["4S"], ["8D"], ["7D"]], PILE, stacks=2)
    state.options = dict(state.options, scoring="court")
    state.stacks[1] = [["KS", "KH", "KD", "KC", "QS"]]  # 1 + 4×3 + 2 = 15 points against 2
    assert game.scores(state) == [2, 15]
    assert learned_value(game, state, 1) > 0.5 > learned_value(game, state, 0)


def test_a_breaks_draw_from_an_empty_pile_lists_the_shuffled_discards() -> None:
    """An empty pile is refilled from the discards as the engine does (shuffled, one recycle spent): every discard
    can come next, and the rest of the new pile is in the shuffle's order, not the discards'."""
    from bots.breaks import next_draws
    from engine.breaks.game import DRAW

    game, state = _breaks([["2S"], ["9D"], []], [["4C"], ["8D"], []], [])
    state.discard = ["3S", "7C", "KH", "5D", "6C", "8S", "TC", "2D"]
    state.recycles_left = 1
    outs = next_draws(game, state, 1, DRAW)
    assert outs is not None and sorted(s.pending for _, s in outs) == sorted(state.discard)
    assert all(s.recycles_left == 0 and s.discard == [] for _, s in outs)
    refilled = game.clone(state)
    game.refill(refilled)
    assert refilled.draw != state.discard  # the shuffle moved them (this seed)
    after = next(s for _, s in outs if s.pending == refilled.draw[-1])
    assert after.draw == refilled.draw[:-1]
