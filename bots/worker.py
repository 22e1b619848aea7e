"""The bot's thinking in a worker process (issue 13): a CPU-bound search in a thread would hold the GIL and starve
the bot's event loop, so the table service sends the game (its catalogue's ``Game`` object, which holds no state
and pickles as a reference to its class and its text's: about 100 bytes), its stored state and the seat here and
gets the move back as notation.

A worker imports only what thinking needs: :mod:`bots` and the rules of the games it is asked about (the game's
module is imported when its object is unpickled). It never imports the table service, the catalogue or a
renderer, so a fresh worker answers its first question quickly (``bench/worker_start.py`` measures it)."""

from __future__ import annotations

import os
import time
from typing import Any

from bots import choose
from engine.base import Game
from engine.rng import Rng

MIN_SHARE = 0.2  # a bot asked late (it waited for a worker, or for one to start) thinks this share at least
SEARCH_SHARE = 0.95  # of what is left, the search's: the rest loads the state and sends the move back


def budget_left(budget_ms: float, asked_at: float | None, now: float) -> float:
    """The budget a bot asked at ``asked_at`` has left at ``now`` (both on ``time.time``), at least MIN_SHARE of it."""
    if asked_at is None:
        return budget_ms
    late_ms = min(max(0.0, (now - asked_at) * 1000), budget_ms)
    return max(budget_ms - late_ms, budget_ms * MIN_SHARE)


def think(game: Game[Any, Any, Any], state: dict[str, Any], seat: int, level: str, seed: int, budget_ms: float,
          iterations: int | None, asked_at: float | None = None) -> str:
    """The move ``level`` plays for ``seat`` in the stored ``state`` of ``game``, as notation. ``asked_at`` (on
    ``time.time``) is when the table service asked the bot: the budget is the bot's time to answer, so the time
    it took to get here (waiting for a free worker, a worker starting, a busy machine) comes off it, and the
    search gets :data:`SEARCH_SHARE` of what is left."""
    if iterations is None:
        budget_ms = budget_left(budget_ms, asked_at, time.time()) * SEARCH_SHARE
    current = game.load(state)
    move = choose(game, current, seat, level, Rng(seed), budget_ms=budget_ms, iterations=iterations)
    return str(game.format_move(move))


def ready() -> int:
    """A worker started ahead of need answers this first (the import of the engine and the bots done), with its id."""
    return os.getpid()
