"""BLOCK: simultaneous roll-and-write for 1–6 players, with the solo mode."""

from engine.block.game import Block

__all__ = ["Block"]
