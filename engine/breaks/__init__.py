"""Breaks (2–4 players, cards)."""

from engine.breaks.game import Breaks, BreaksState, Move

__all__ = ["Breaks", "BreaksState", "Move"]
