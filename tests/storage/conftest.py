"""tests/storage on both backends: each test that takes ``backend`` (or a fixture built on it) runs against an SQLite
file and against the session's throwaway PostgreSQL server (``pg_server``, tests/pg.py), never a mock; each test's
PostgreSQL database is made for it (from a migrated template, or empty) and dropped after it. Where the server's
binaries are missing, the PostgreSQL variants are skipped, saying how to install them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.pg import PgServer

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def new_place(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[..., str]]:
    """Makes a new database on the test's backend and gives where it is (an SQLite file's path, a PostgreSQL URL):
    ``new_place()`` an empty one, ``new_place(migrated=True)`` one with every migration applied already."""
    made: list[str] = []
    server: PgServer | None = request.getfixturevalue("pg_server") if backend == "postgresql" else None

    def make(migrated: bool = False) -> str:
        if server is None:
            path = tmp_path / "data" / f"blockhouse{len(made) or ''}.db"
            made.append(str(path))
            return str(path)
        made.append(server.create(migrated))
        return made[-1]

    yield make
    if server is not None:
        for url in made:
            server.drop(url)
