"""Shared fixtures: a real SQLite file per test and a real bot under simcord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import Blockhouse
from tests.support import OPEN_BOTS, make_bot


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "blockhouse.db"


@pytest.fixture
def simcord_bot(db_path: Path) -> Blockhouse:
    return make_bot(db_path)


@pytest_asyncio.fixture(autouse=True)
async def _close_databases() -> AsyncIterator[None]:
    """simcord detaches bots without closing them: close their databases before the event loop ends."""
    yield
    while OPEN_BOTS:
        bot = OPEN_BOTS.pop()
        if bot.db is not None:
            await bot.db.close()
