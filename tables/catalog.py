"""The one registration of every game: its rules, its renderer, its rules page and its benchmark target.

Adding a game touches its own engine package, its renderer and one entry here; ``tests/test_catalog.py`` proves
that every entry is complete and that the catalogue, the rules pages and the benchmarks agree. The table
service, the cogs, the bots and the benchmarks find games only here, by key.

Importing this module imports the games' rules and nothing else: each renderer is attached lazily
(:class:`LazyRenderer`) and imported on its first render, so a process that never draws (a bot's worker, a
benchmark of the rules) never loads Pillow's fonts or a renderer. The type checker still holds each renderer to
its game's view type, through the loader's return type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from engine.base import Game
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.view import BlocView
from engine.block import Block
from engine.block.view import BlockView
from engine.blockers import Blockers
from engine.blockers.view import BlockersView
from engine.breakerblocks import BreakerBlocks
from engine.breakerblocks.view import BreakerView
from engine.breaks import Breaks
from engine.breaks.view import BreaksView

V = TypeVar("V", bound=Mapping[str, Any])
Renderer = Callable[[V, Sequence[str]], bytes]  # a view (``Game.view``) and seat names → PNG bytes
DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"


@dataclass(frozen=True)
class GameEntry(Generic[V]):
    """Everything the platform needs of one game. The type checker holds the renderer to the game's view type:
    ``GameEntry(Breaks(), render.blockers.render)`` does not type-check, and neither does
    ``GameEntry(Breaks(), LazyRenderer(load_blockers))`` where ``load_blockers`` returns ``Renderer[BlockersView]``."""

    rules: Game[Any, Any, V]
    render: Renderer[V]
    rules_page: Path | None = None  # the rules for players (/rules); None for games made only for tests
    playout_target: int | None = None  # plies per second the search API must reach (bench/playouts.py)

    @property
    def key(self) -> str:
        return self.rules.key


class Catalog:
    """Games by key, with their entries. Tests build their own catalogue with extra games."""

    def __init__(self, entries: Iterable[GameEntry[Any] | Game[Any, Any, Any]] = ()) -> None:
        self._entries: dict[str, GameEntry[Any]] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: GameEntry[Any] | Game[Any, Any, Any]) -> None:
        """Register an entry (a bare Game gets a renderer that refuses to draw, for engine-only tests)."""
        if isinstance(entry, Game):
            entry = GameEntry(entry, _no_picture(entry.key))
        if entry.key in self._entries:
            raise ValueError(f"duplicate game key {entry.key!r}")
        self._entries[entry.key] = entry

    def get(self, key: str) -> Game[Any, Any, Any] | None:
        entry = self._entries.get(key)
        return entry.rules if entry else None

    def entry(self, key: str) -> GameEntry[Any]:
        """The entry of ``key``; ``KeyError`` for an unknown game."""
        try:
            return self._entries[key]
        except KeyError:
            raise KeyError(f"no game {key!r}") from None

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def all(self) -> list[Game[Any, Any, Any]]:
        return [e.rules for e in self._entries.values()]

    def entries(self) -> list[GameEntry[Any]]:
        return list(self._entries.values())


class LazyRenderer(Generic[V]):
    """A renderer imported on its first call: ``load`` imports the renderer's module and returns its ``render``.
    Until a board is drawn, the renderer's module (and Pillow's fonts) are not loaded at all."""

    def __init__(self, load: Callable[[], Renderer[V]]) -> None:
        self._load = load
        self._render: Renderer[V] | None = None

    def load(self) -> Renderer[V]:
        """The renderer, its module imported if it was not yet (two threads may both load: they get the same
        function)."""
        if self._render is None:
            self._render = self._load()
        return self._render

    @property
    def loaded(self) -> bool:
        """Whether the renderer's module was imported."""
        return self._render is not None

    def __call__(self, view: V, names: Sequence[str]) -> bytes:
        return self.load()(view, names)


def _no_picture(key: str) -> Renderer[Any]:
    def refuse(view: Mapping[str, Any], names: Sequence[str]) -> bytes:
        raise LookupError(f"no renderer registered for game {key!r}")
    return refuse


# Each game's renderer, imported on first use. The return types are what hold each renderer to its game's view.
def _breaks() -> Renderer[BreaksView]:
    from render.breaks import render
    return render


def _blockers() -> Renderer[BlockersView]:
    from render.blockers import render
    return render


def _block() -> Renderer[BlockView]:
    from render.block import render
    return render


def _breakerblocks() -> Renderer[BreakerView]:
    from render.breakerblocks import render
    return render


def _blocbybloc() -> Renderer[BlocView]:
    from render.blocbybloc import render
    return render


def default_catalog() -> Catalog:
    """Every game the bot offers."""
    return Catalog([
        GameEntry(Breaks(), LazyRenderer(_breaks), DOCS / "breaks.md", playout_target=100_000),
        GameEntry(Blockers(), LazyRenderer(_blockers), DOCS / "blockers.md", playout_target=20_000),
        GameEntry(Block(), LazyRenderer(_block), DOCS / "block.md", playout_target=5_000),
        GameEntry(BreakerBlocks(), LazyRenderer(_breakerblocks), DOCS / "breakerblocks.md", playout_target=20_000),
        GameEntry(BlocByBloc(), LazyRenderer(_blocbybloc), DOCS / "blocbybloc.md", playout_target=2_000),
    ])
