"""Pure game rules behind one contract (see :mod:`engine.base`), and the registry of games.

The Discord layer and the table service look games up here by key; they never import a
game module directly.
"""

from __future__ import annotations

from engine.base import Game
from engine.block import Block
from engine.blockers import Blockers
from engine.breaks import Breaks


class Registry:
    """Games by key. Tests may build their own registry with extra games."""

    def __init__(self, games: list[Game] | None = None) -> None:
        self._games: dict[str, Game] = {}
        for game in games or []:
            self.add(game)

    def add(self, game: Game) -> None:
        if game.key in self._games:
            raise ValueError(f"duplicate game key {game.key!r}")
        self._games[game.key] = game

    def get(self, key: str) -> Game | None:
        return self._games.get(key)

    def __contains__(self, key: object) -> bool:
        return key in self._games

    def all(self) -> list[Game]:
        return list(self._games.values())


def default_registry() -> Registry:
    return Registry([Breaks(), Blockers(), Block()])


__all__ = ["Game", "Registry", "default_registry"]
