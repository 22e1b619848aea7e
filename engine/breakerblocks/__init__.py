"""Breaker Blocks: circuits, command modules and physical blocking (two players)."""

from engine.breakerblocks.game import BreakerBlocks

__all__ = ["BreakerBlocks"]
