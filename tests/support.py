"""Bots for tests, and the list of bots whose databases the conftest closes after each test.

A plain module (not the conftest) so that tests and the conftest share one list.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

from bot import Blockhouse, Settings
from tables.catalog import Catalog

OPEN_BOTS: list[Blockhouse] = []


def make_bot(db_path: Path, registry: Catalog | None = None, first_seed: int = 1,
             clock: Callable[[], float] | None = None) -> Blockhouse:
    """A fresh, unstarted bot on the given database file (a restart is a new bot on the same file).

    Game seeds count up from ``first_seed`` so every test run deals the same cards.
    """
    seeds = itertools.count(first_seed)
    bot = Blockhouse(Settings(token="test-token", database=str(db_path)), registry, seeds=lambda: next(seeds),
                     clock=clock)
    OPEN_BOTS.append(bot)
    return bot
