"""Fixtures of the table-service tests: a real SQLite file and services over it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database
from tables import TableService
from tables.catalog import Catalog, default_catalog
from tests.tables.helpers import service
from tests.tables.hidden_game import HighCard


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
async def db(db_file: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_file)
    yield database
    await database.close()


@pytest.fixture
def svc(db: Database) -> TableService:
    return service(db)


@pytest.fixture
def hsvc(db: Database) -> TableService:
    """A service whose registry also has the hidden-information test game."""
    return service(db, Catalog([default_catalog().entry("breaks"), HighCard()]))


@pytest.fixture
def bsvc(db: Database) -> TableService:
    return service(db, Catalog([default_catalog().entry("block")]))
