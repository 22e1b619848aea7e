"""bench.load --startup runs end to end on each backend: the bot restarted on a database of stored running games
(copied into a throwaway PostgreSQL server by storage.copy for the second), a member's click answered after
on_ready, the catch-up done, nothing logged as an error. No timing is asserted: the figures are the bench's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.load import run_startup
from tests.pg import HOW_TO_INSTALL, server_binaries


@pytest.mark.parametrize("postgresql", [False, True], ids=["sqlite", "postgresql"])
async def test_start_up_on_stored_games_answers_the_first_click(tmp_path: Path, _migrated_database: Path,
                                                                 postgresql: bool) -> None:
    if postgresql and server_binaries() is None:
        pytest.skip(HOW_TO_INSTALL)
    report = await run_startup(40, 30, 3, tmp_path, _migrated_database, postgresql=postgresql)
    assert report["database"] == ("postgresql" if postgresql else "sqlite")
    assert report["ready_to_first_answer_s"] is not None, report
    assert report["catch_up_db_calls"] > 0 and report["log_errors"] == 0, report
