"""Shared fixtures: a real SQLite file per test and a real bot under simcord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import Blockhouse, Settings


def make_bot(db_path: Path) -> Blockhouse:
    """A fresh, unstarted bot on the given database file (a restart is a new bot on the same file)."""
    return Blockhouse(Settings(token="test-token", database=str(db_path)))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "blockhouse.db"


@pytest.fixture
def simcord_bot(db_path: Path) -> Blockhouse:
    return make_bot(db_path)
