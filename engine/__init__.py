"""Pure game rules behind one contract (see :mod:`engine.base`).

Each game is a package here. The games are registered, with their renderers and rules pages, in one place:
:mod:`tables.catalog`. The engine itself names no list of games.
"""

from __future__ import annotations

from engine.base import Game

__all__ = ["Game"]
