"""Checks shared by the games' rule tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.base import Game, IllegalMoveError


def snapshot(game: Game, state: Any) -> Any:
    """A deep, detached copy of the dump (the dump itself may share lists with the state)."""
    return json.loads(json.dumps(game.dump(state)))


def expect_illegal(game: Game, state: Any, seat: int, text: str, *words: str,
                   error: type[Exception] = IllegalMoveError) -> str:
    """The move is rejected with a message naming ``words``, and the state is untouched."""
    before = snapshot(game, state)
    with pytest.raises(error) as info:
        game.apply(state, seat, game.parse_move(text))
    message = str(info.value)
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    assert snapshot(game, state) == before
    return message
