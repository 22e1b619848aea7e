"""The High Card test game honours the engine contract (engine/base.py), so service tests built on it mean something."""

from __future__ import annotations

import itertools
import json

import pytest

from engine.base import GameOverError, IllegalMoveError, NotationError, NotYourTurnError, OptionError
from engine.rng import Rng
from tests.tables.hidden_game import HighCard, HighCardState

GAME = HighCard()


def playout(seats: int, seed: int, cards: int = 3) -> list[HighCardState]:
    state = GAME.new_game(seats, {"cards": cards}, seed)
    states = [state]
    rng = Rng(seed)
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        states.append(state)
    return states


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("cards", [1, 2, 3])
def test_random_playouts_keep_the_contract(seats: int, cards: int) -> None:
    for seed in range(20):
        states = playout(seats, seed, cards)
        assert len(states) == seats * cards + 1
        dealt = [c for h in states[0].hands for c in h]
        assert len(set(dealt)) == len(dealt) == seats * cards and all(1 <= c <= 13 for c in dealt)
        for state in states:
            to_act = GAME.to_act(state)
            assert bool(to_act) is not GAME.is_over(state)
            for seat in range(seats):
                legal = GAME.legal_moves(state, seat)
                assert bool(legal) is (seat in to_act)
                for move in legal:
                    assert GAME.parse_move(GAME.format_move(move)) == move
                    assert GAME.text.describe_move(state, seat, move)
                mine = GAME.view(state, seat)
                assert mine["hand"] == list(state.hands[seat])
                others = {c for p in range(seats) if p != seat for c in state.hands[p]}
                assert not others & set(json.loads(json.dumps(mine))["hand"])
            data = GAME.dump(state)
            assert GAME.load(json.loads(json.dumps(data))) == state
            assert GAME.dump(GAME.load(data)) == data
            public = json.loads(json.dumps(GAME.view(state, None)))
            assert "hand" not in public and "hands" not in public
            assert public["hand_sizes"] == [len(h) for h in state.hands]
            assert public["played"] == [list(p) for p in state.played]
            assert GAME.text.alt_text(public, ["A", "B", "C"]).startswith("High Card.")
        final = states[-1]
        result = GAME.result(final)
        assert result is not None and GAME.text.status_line(final) == "Game over."
        totals = [sum(p) for p in final.played]
        assert list(result.scores) == totals
        assert result.winners == {p for p in range(seats) if totals[p] == max(totals)}
        assert sorted(c for p in final.played for c in p) == sorted(dealt)
        log = []
        for before, after in itertools.pairwise(states):
            (seat,) = GAME.to_act(before)
            (played,) = set(before.hands[seat]) - set(after.hands[seat])
            log.append((seat, GAME.format_move(played)))
        assert GAME.replay(seats, {"cards": cards}, seed, log) == final


def test_the_deal_is_seeded() -> None:
    assert GAME.new_game(3, {}, 5) == GAME.new_game(3, {}, 5)
    assert len({GAME.new_game(3, {}, seed).hands for seed in range(10)}) > 1


def test_errors() -> None:
    state = GAME.new_game(2, {}, 1)
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, state.hands[1][0])
    missing = next(c for c in range(1, 14) if c not in state.hands[0])
    with pytest.raises(IllegalMoveError, match=f"You don't hold a {missing}"):
        GAME.apply(state, 0, missing)
    for text in ("play", "play x", "draw", "play 14", "play 0"):
        with pytest.raises(NotationError):
            GAME.parse_move(text)
    assert GAME.parse_move("  PLAY   7 ") == 7 == GAME.parse_move("p 7")
    with pytest.raises(OptionError):
        GAME.resolve_options({"cards": 4})
    with pytest.raises(OptionError):
        GAME.new_game(4, {}, 1)
    with pytest.raises(ValueError):
        GAME.load({"format": 1, "game": "breaks"})
    final = playout(2, 3)[-1]
    with pytest.raises(GameOverError):
        GAME.apply(final, 0, 1)
    assert state.hands == GAME.new_game(2, {}, 1).hands  # apply never mutates
