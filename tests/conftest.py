"""Shared fixtures: a real SQLite file per test and a real bot under simcord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from simcord.env import Env

from bot import Blockhouse
from tests.support import OPEN_BOTS, make_bot, scaled

SETTLE_S = 5.0  # simcord's own settle limit, for a quiet development machine


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


@pytest.fixture(autouse=True)
def _settle_limit_scaled_to_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """simcord's settle limit is a hang guard on the wall clock (5 s by default): a bot whose worker or renders run
    slowly on a busy machine failed "bot did not settle (timeout=5s)". Every environment made in a test (the
    ``simcord_env`` fixture's, and ``simcord.run``'s of a restart) gets the limit scaled by how slow this machine
    runs now; a test may still pass its own ``settle_timeout``."""
    defaults = Env.__init__.__kwdefaults__
    assert defaults is not None and "settle_timeout" in defaults, "simcord's Env takes settle_timeout"
    monkeypatch.setitem(defaults, "settle_timeout", scaled(SETTLE_S))
