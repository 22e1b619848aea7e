"""The bot's thinking in a worker process (issue 13): a CPU-bound search in a thread would hold the GIL and starve
the bot's event loop, so the table service sends the game (its catalogue's ``Game`` object, which holds no state
and pickles as a reference to its class and its text's: about 100 bytes), its stored state and the seat here and
gets the move back as notation.

A worker imports only what thinking needs: :mod:`bots` and the rules of the games it is asked about (the game's
module is imported when its object is unpickled). It never imports the table service, the catalogue or a
renderer, so a fresh worker answers its first question quickly (``bench/worker_start.py`` measures it)."""

from __future__ import annotations

from typing import Any

from bots import choose
from engine.base import Game
from engine.rng import Rng


def think(game: Game[Any, Any, Any], state: dict[str, Any], seat: int, level: str, seed: int, budget_ms: float,
          iterations: int | None) -> str:
    """The move ``level`` plays for ``seat`` in the stored ``state`` of ``game``, as notation."""
    current = game.load(state)
    move = choose(game, current, seat, level, Rng(seed), budget_ms=budget_ms, iterations=iterations)
    return str(game.format_move(move))
