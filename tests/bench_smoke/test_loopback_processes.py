"""Issue 26 end to end: two real ``python bot.py`` processes, given shard 0 and shard 1 of 2
(``BLOCKHOUSE_SHARDS``), over one database (an SQLite file in WAL mode; a database of the throwaway PostgreSQL
server), against the loopback Discord double, which sends each guild's events to its shard's connection. Each
process answers its own guilds' tables, and every move the members were told was played is stored once. No timing
is asserted (the members wait for what the bots do, with generous patience)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.loopback.run import run_loopback
from tests.pg import PgServer


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_two_bot_processes_split_the_guilds_and_lose_nothing(tmp_path: Path, backend: str,
                                                                   request: pytest.FixtureRequest) -> None:
    url = None
    server: PgServer | None = request.getfixturevalue("pg_server") if backend == "postgresql" else None
    if server is not None:
        url = server.create(migrated=False)  # the first process migrates it
    try:
        report = await run_loopback("breaks", 4, players=2, seed=3, warmup=2, measure=12, slash_share=0.3,
                                    patience=120.0, folder=tmp_path, guilds=2, processes=2, database_url=url,
                                    expiry_s=600.0)  # (Discord's 3 s is no test of this machine's speed)
    finally:
        if server is not None and url is not None:
            server.drop(url)
    tail = report["bot_log_tail"]
    assert report["moves"] >= 12, tail
    assert report["lost"] == 0 and report["doubled"] == 0, report["mismatch_samples"]
    assert report["stuck"] == 0 and report["never_acked"] == 0 and report["doubled_acks"] == 0, tail
    assert report["double_errors"] == [], report["double_errors"]
    shards = report["by_shard"]
    for shard in ("shard 0", "shard 1"):  # each process played its own guilds' tables
        assert shards[shard]["told"] > 0 and shards[shard]["lost"] == 0, shards
        assert shards[shard]["stored"] == shards[shard]["told"], shards
    assert shards["outbox_owing_at_end"] == 0
    assert report["exit_code"] == 0 and report["bot_log"] == {"errors": 0, "warnings": 0, "tracebacks": 0}, tail
