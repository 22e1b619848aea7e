"""The game kit (issue 9), checked generically for every registered game.

Declared turns and typed decisions agree with ``to_act``; ``apply`` is the base class's template (no game
overrides the checks); ``is_legal`` agrees with ``legal_moves``; the search API (``clone``, ``fast_apply``,
``sample_move``, ``determinize``) gives the same states as the checked path and never lets a seat learn what it
cannot see.
"""

from __future__ import annotations

import collections
import json
from typing import Any

import pytest

from engine.base import Decision, Game, Result, Turns
from engine.block import Block
from engine.breaks import Breaks
from engine.rng import Rng
from tables.catalog import default_catalog

GAMES = default_catalog().all()
game_param = pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])


def positions(game: Game, seats: int, seed: int, limit: int = 400, every: int = 1) -> list[Any]:
    """States along one random game (every ``every``-th ply), the final one included."""
    state = game.new_game(seats, {}, seed)
    rng = Rng(seed * 17 + seats)
    out = [state]
    for ply in range(limit):
        if game.is_over(state):
            break
        acting = sorted(game.to_act(state))
        seat = acting[rng.below(len(acting))]
        state, _ = game.apply(state, seat, game.sample_move(state, seat, rng))
        if ply % every == 0:
            out.append(state)
    return out


def seat_counts(game: Game) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def dumped(game: Game, state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


@game_param
def test_no_game_overrides_the_checks(game: Game) -> None:
    assert type(game).apply is Game.apply, "apply is the base template: a game implements perform"
    assert type(game).checked_move is Game.checked_move
    assert isinstance(game.turns, Turns)


@game_param
def test_decisions_say_who_acts_and_what_they_decide(game: Game) -> None:
    for seats in seat_counts(game):
        for state in positions(game, seats, seed=seats, every=3):
            owed = game.decisions(state)
            assert all(isinstance(d, Decision) for d in owed)
            owers = [d.seat for d in owed]
            assert len(set(owers)) == len(owers), "a seat owes one decision at a time"
            main = [d.seat for d in owed if not (d.alongside or d.optional)]
            beside = [d for d in owed if d.alongside or d.optional]
            assert owed[:len(main)] == tuple(d for d in owed if d.seat in main), "the main line comes first"
            expected = set(main) | {d.seat for d in beside if not d.optional}
            assert game.to_act(state) == expected
            assert game.may_act(state) == expected | {d.seat for d in beside}
            if game.turns is Turns.SEQUENTIAL:
                assert len(main) <= 1
            assert bool(owed) is not game.is_over(state)
            for d in owed:
                assert d.kind and d.prompt
                assert d.clock in (("none",) if d.optional else ("turn", "decision"))
                assert not (d.optional and d.default is not None), "nothing waits for an optional decision"
                assert game.decision(state, d.seat) == d
                legal = game.legal_moves(state, d.seat)
                assert legal, "a decision has choices"
                if d.default is not None:
                    assert game.parse_move(d.default) in legal
                searched = game.search_moves(state, d.seat)
                assert searched and set(searched) <= set(legal)
            for seat in range(game.seat_count(state)):
                if seat not in owers:
                    assert not game.legal_moves(state, seat), "a seat with nothing to decide has no moves"
            assert 0 <= game.revealed_ply(state) <= game.ply(state)


@game_param
def test_is_legal_agrees_with_legal_moves(game: Game) -> None:
    rng = Rng(5)
    for seats in (game.min_players, game.max_players):
        history = positions(game, seats, seed=11, every=2)
        for i, state in enumerate(history):
            for seat in range(seats):
                legal = game.legal_moves(state, seat)
                for move in legal[:: max(1, len(legal) // 20)]:
                    assert game.is_legal(state, seat, game.normalise_move(state, seat, move))
                # moves legal elsewhere in the game are legal here exactly when they are listed here
                other = history[rng.below(len(history))]
                for move in game.legal_moves(other, seat)[:20]:
                    try:
                        normal = game.normalise_move(state, seat, move)
                    except Exception:  # noqa: BLE001 - a short form that can't be completed here is illegal
                        assert move not in legal
                        continue
                    assert game.is_legal(state, seat, normal) is (normal in legal), (i, seat, move)


@game_param
def test_fast_apply_makes_the_same_state_as_apply(game: Game) -> None:
    for seats in seat_counts(game):
        state = game.new_game(seats, {}, 21)
        rng = Rng(seats)
        for _ in range(3000):
            if game.is_over(state):
                break
            acting = sorted(game.to_act(state))
            seat = acting[rng.below(len(acting))]
            move = game.sample_move(state, seat, rng)
            before = dumped(game, state)
            fast = game.clone(state)
            assert dumped(game, fast) == before, "clone is exact"
            game.fast_apply(fast, seat, move)
            state, _ = game.apply(state, seat, move)
            assert dumped(game, fast) == dumped(game, state)
        assert game.is_over(state)


@game_param
def test_sample_move_draws_every_legal_move_evenly(game: Game) -> None:
    rng = Rng(3)
    checked = 0
    for state in positions(game, game.max_players, seed=4, every=5):
        for seat in sorted(game.to_act(state)):
            legal = game.legal_moves(state, seat)
            if game.key == "blocbybloc":  # draws among the menu: trade offers of several cards number 2^cards
                legal = game.menu_moves(state, seat)
            if not 2 <= len(legal) <= 60:
                continue
            draws = collections.Counter(game.sample_move(state, seat, rng) for _ in range(40 * len(legal)))
            assert set(draws) == set(legal)
            assert min(draws.values()) >= 12 and max(draws.values()) <= 80  # expected 40 each (sd about 6)
            checked += 1
    assert checked


@game_param
def test_determinize_keeps_the_seats_view_and_plays_legally_to_the_end(game: Game) -> None:
    for seats in seat_counts(game):
        for i, state in enumerate(positions(game, seats, seed=30 + seats, every=7)[:12]):
            for seat in range(seats):
                samples = [game.determinize(state, seat, Rng(k)) for k in range(3)]
                for det in samples:
                    assert game.view(det, seat) == game.view(state, seat), "the seat sees exactly what it saw"
                    assert game.to_act(det) == game.to_act(state)
                if not game.is_over(state):
                    assert len({dumped(game, d) for d in samples}) == 3, "the hidden future is drawn afresh"
                if seat == i % seats:  # one seat's determinization a position, in turn, is played to the end
                    play_to_end(game, samples[0], Rng(seat))


def play_to_end(game: Game, state: Any, rng: Rng) -> None:
    for _ in range(20000):
        if game.is_over(state):
            return
        acting = sorted(game.to_act(state))
        seat = acting[rng.below(len(acting))]
        state, _ = game.apply(state, seat, game.sample_move(state, seat, rng))  # checked: raises if illegal
    raise AssertionError("no end")


def test_breaks_determinize_reshuffles_the_draw_pile_only() -> None:
    game = Breaks()
    state = game.new_game(3, {}, 8)
    orders = {tuple(game.determinize(state, 0, Rng(k)).draw) for k in range(5)}
    assert len(orders) == 5 and all(sorted(o) == sorted(state.draw) for o in orders)


def test_block_determinize_resamples_other_seats_secret_picks() -> None:
    game = Block()
    state = game.new_game(3, {}, 2)
    for seat, cell in ((1, "a1"), (2, "g1")):
        state, _ = game.apply(state, seat, game.parse_move(f"write {cell}"))
    # seats 1 and 2 are done with secret picks; seat 0 still picks
    seen = {tuple(game.determinize(state, 0, Rng(k)).work[1].grid[0]) for k in range(20)}
    assert len(seen) > 1, "seat 1's secret cell is drawn afresh"
    for k in range(5):
        det = game.determinize(state, 0, Rng(k))
        assert not det.progress[1].steps and not det.progress[2].steps  # they are still done
        assert det.work[0].grid == state.work[0].grid  # seat 0's own picks are kept


def test_results_for_every_kind_of_game() -> None:
    competitive = Result(scores=(3.0, 5.0), ranks=(2, 1), winners=frozenset({1}), reason="most points")
    assert not competitive.draw and competitive.outcome(1) == "win" and competitive.outcome(0) == "loss"
    shared = Result(scores=(5.0, 5.0), ranks=(1, 1), winners=frozenset({0, 1}))
    assert shared.draw and shared.outcome(0) == "shared win"
    lost = Result(scores=(0.0, 0.0, 0.0), ranks=(1, 1, 1), winners=frozenset(), cooperative=True, reason="the clock")
    assert not lost.draw and [lost.outcome(p) for p in range(3)] == ["loss"] * 3
    assert lost.to_json()["cooperative"] is True and lost.to_json()["winners"] == []
    won = Result(scores=(9.0, 9.0), ranks=(1, 1), winners=frozenset({0, 1}), cooperative=True)
    assert not won.draw and won.outcome(0) == won.outcome(1) == "win"
    solo = Result(scores=(47.0,), ranks=(1,), winners=frozenset({0}), rung="architect")
    assert solo.to_json()["rung"] == "architect"


def test_block_solo_result_names_its_rung() -> None:
    game = Block()
    state = game.new_game(1, {}, 1)
    rng = Rng(1)
    while not game.is_over(state):
        state, _ = game.apply(state, 0, game.sample_move(state, 0, rng))
    result = game.result(state)
    assert result is not None and result.rung == game.ladder(int(result.scores[0]))


@game_param
def test_a_game_that_declares_nothing_hidden_shows_every_seat_the_public_view(game: Game) -> None:
    """private_info skips the view comparison when hidden_information is False: that must be the truth."""
    if game.hidden_information:
        return
    for state in positions(game, game.max_players, seed=8, every=5):
        public = {k: v for k, v in game.view(state, None).items() if k != "viewer"}
        for seat in range(game.max_players):
            assert {k: v for k, v in game.view(state, seat).items() if k != "viewer"} == public
            assert game.private_info(state, seat) == {}
