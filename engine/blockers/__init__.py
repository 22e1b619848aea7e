"""Blockers! (2–5 players, tiles on a 9×9 board)."""

from engine.blockers.game import PASS, Blockers, BlockersState, Move

__all__ = ["PASS", "Blockers", "BlockersState", "Move"]
