"""Bots (issue 13): every level plays only legal moves in every game; the hard bot decides from its own seat's
view only (scrambling what it cannot see changes nothing); a time budget is respected."""

from __future__ import annotations

import time
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


@pytest.mark.parametrize("game", [g for g in GAMES if g.hidden_information], ids=lambda g: g.key)
def test_the_hard_bot_uses_only_its_own_view(game: Game[Any, Any, Any]) -> None:
    """Other seats' hands, deck orders and future dice resampled (a state its seat cannot tell from the real one):
    the same move."""
    checked = 0
    for state in positions(game, 2, 3, count=4):
        seat = min(game.to_act(state))
        scrambled = game.determinize(state, seat, Rng(99))
        assert game.view(scrambled, seat) == game.view(state, seat), "the seat sees the same position"
        real = choose(game, state, seat, "hard", Rng(5), iterations=40)
        other = choose(game, scrambled, seat, "hard", Rng(5), iterations=40)
        assert game.format_move(real) == game.format_move(other)
        checked += 1
    assert checked


def test_the_hard_bot_keeps_to_its_time_budget() -> None:
    game = default_catalog().get("blockers")
    assert game is not None
    state = positions(game, 2, 4, count=2)[-1]
    seat = min(game.to_act(state))
    start = time.perf_counter()
    move = choose(game, state, seat, "hard", Rng(1), budget_ms=150)
    assert time.perf_counter() - start < 1.5, "one iteration past the budget at most, not a runaway search"
    assert move in game.legal_moves(state, seat)
