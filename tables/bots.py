"""Bot seats. A bot chooses among the engine's legal moves with a seeded RNG, so a bot's
play is reproducible. Stronger levels plug in here by name."""

from __future__ import annotations

from typing import Any

from engine.base import Game
from engine.rng import Rng

BOT_LEVELS = ("random",)


def choose_move(game: Game, state: Any, seat: int, level: str, rng: Rng) -> Any:
    """A legal move for ``seat``; raises ``ValueError`` if it has none or the level is unknown."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    moves = game.legal_moves(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    return rng.choice(moves)
