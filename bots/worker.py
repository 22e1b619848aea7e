"""The bot's thinking in a worker process (issue 13): a CPU-bound search in a thread would hold the GIL and starve
the bot's event loop, so the table service sends the game's key, its stored state and the seat here and gets the
move back as notation. Loaded once per worker process; pure (the catalogue's games only)."""

from __future__ import annotations

from functools import cache
from typing import Any

from bots import choose
from engine.rng import Rng


@cache
def _games() -> dict[str, Any]:
    from tables.catalog import default_catalog  # the worker's own copy of the catalogue

    return {g.key: g for g in default_catalog().all()}


def think(key: str, state: dict[str, Any], seat: int, level: str, seed: int, budget_ms: float,
          iterations: int | None) -> str:
    """The move ``level`` plays for ``seat`` in the stored ``state`` of game ``key``, as notation."""
    game = _games()[key]
    current = game.load(state)
    move = choose(game, current, seat, level, Rng(seed), budget_ms=budget_ms, iterations=iterations)
    return str(game.format_move(move))
