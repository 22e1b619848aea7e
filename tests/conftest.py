"""Shared fixtures: a real SQLite file per test and a real bot under simcord."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import Blockhouse, Settings
from engine import Registry


def make_bot(db_path: Path, registry: Registry | None = None, first_seed: int = 1) -> Blockhouse:
    """A fresh, unstarted bot on the given database file (a restart is a new bot on the same file).

    Game seeds count up from ``first_seed`` so every test run deals the same cards.
    """
    seeds = itertools.count(first_seed)
    bot = Blockhouse(Settings(token="test-token", database=str(db_path)), registry, seeds=lambda: next(seeds))
    OPEN_BOTS.append(bot)
    return bot


OPEN_BOTS: list[Blockhouse] = []


@pytest_asyncio.fixture(autouse=True)
async def _close_databases() -> AsyncIterator[None]:
    """simcord detaches bots without closing them: close their databases before the event loop ends."""
    yield
    while OPEN_BOTS:
        bot = OPEN_BOTS.pop()
        if bot.db is not None:
            await bot.db.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "blockhouse.db"


@pytest.fixture
def simcord_bot(db_path: Path) -> Blockhouse:
    return make_bot(db_path)
