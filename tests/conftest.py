"""Shared fixtures: a real SQLite file per test and a real bot under simcord."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot import Blockhouse, Settings
from engine import Registry


def make_bot(db_path: Path, registry: Registry | None = None, first_seed: int = 1) -> Blockhouse:
    """A fresh, unstarted bot on the given database file (a restart is a new bot on the same file).

    Game seeds count up from ``first_seed`` so every test run deals the same cards.
    """
    seeds = itertools.count(first_seed)
    return Blockhouse(Settings(token="test-token", database=str(db_path)), registry, seeds=lambda: next(seeds))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "blockhouse.db"


@pytest.fixture
def simcord_bot(db_path: Path) -> Blockhouse:
    return make_bot(db_path)
