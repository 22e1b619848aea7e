"""storage.db against real SQLite files and a real PostgreSQL server (tests/storage/conftest.py: each test runs on
both): migrations, WAL, the one-open-table rule and versioned writes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from community.records import SeatFacts
from storage import ACTIVE, CANCELLED, FINISHED, LOBBY, ChannelBusy, Database, Owed, StaleVersion, TableRow
from storage.catchup import bot_tables
from storage.db import REFUSED, _migrations
from storage.postgres import is_url, query_sql
from storage.records import PLAYER_OF_SEAT
from storage.sql import run
from tests.pg import run_now

CHANNEL = 500
STATE = {"format": 1, "pos": "start"}


@pytest.fixture
def path(new_place: Callable[..., str]) -> str:
    """The test's database: an SQLite file (migrated as it is opened), or a PostgreSQL database copied from a
    migrated one (the tests of the migrations themselves start from an empty one)."""
    return new_place(migrated=True)


@pytest.fixture
async def db(path: str) -> AsyncIterator[Database]:
    database = await Database.open(path)
    yield database
    await database.close()


async def new_table(db: Database, channel: int = CHANNEL, host: int = 1) -> int:
    return await db.create_table(guild_id=9, channel_id=channel, game="breaks", options={"decks": 1},
                                 host_id=host, host_name="Alice", now=1.0)


async def table(db: Database, table_id: int) -> TableRow:
    row = await db.get_table(table_id)
    assert row is not None
    return row


async def active_table(db: Database) -> int:
    """A started table with two seats, at version 2."""
    tid = await new_table(db)
    await db.set_seats(tid, 0, [(1, "Alice", None), (2, "Bob", None)], 2.0)
    await db.start(tid, 1, 77, STATE, 3.0)
    return tid


def raw(path: str, sql: str, args: tuple = ()) -> list[tuple]:
    """Read the database with a connection of its own, outside storage (the plain sqlite3 module; asyncpg on
    PostgreSQL, the statement translated as storage's are): what is really committed."""
    if is_url(path):
        async def fetch() -> list[tuple]:
            conn = await asyncpg.connect(path)
            try:
                return [tuple(r) for r in await conn.fetch(query_sql(sql), *args)]
            finally:
                await conn.close()

        return run_now(fetch())
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


# --- migrations --------------------------------------------------------------------------------------------------


SCHEMA_NAMES = {"sqlite": "SELECT name FROM sqlite_master",
                "postgresql": "SELECT tablename FROM pg_tables WHERE schemaname = 'public' UNION "
                              "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"}


async def test_migrations_apply_on_a_fresh_file_and_record_the_version(new_place: Callable[..., str],
                                                                     backend: str) -> None:
    path = new_place()
    db = await Database.open(path)
    try:
        assert is_url(path) or Path(path).exists()
        latest = len(_migrations())
        assert latest >= 1
        versions = raw(path, "SELECT version, name FROM schema_migrations ORDER BY version")
        assert [v for v, _ in versions] == list(range(1, latest + 1))
        assert versions[0][1] == "0001_tables.sql"
        names = {r[0] for r in raw(path, SCHEMA_NAMES[backend])}
        assert {"tables", "seats", "moves", "tables_one_open_per_channel", "seats_one_per_user"} <= names
        assert await db.migrate() == latest  # idempotent on an up-to-date database
    finally:
        await db.close()


async def test_reopening_does_not_reapply_and_keeps_data(path: str) -> None:
    db = await Database.open(path)
    try:
        tid = await new_table(db)
    finally:
        await db.close()
    applied_before = raw(path, "SELECT version, applied_at FROM schema_migrations")

    db = await Database.open(path)
    try:
        assert raw(path, "SELECT version, applied_at FROM schema_migrations") == applied_before
        row = await table(db, tid)
        assert (row.game, row.status, row.options, row.host_id) == ("breaks", LOBBY, {"decks": 1}, 1)
        assert [(s.seat, s.user_id, s.name) for s in row.seats] == [(0, 1, "Alice")]
    finally:
        await db.close()


async def test_processes_opening_a_fresh_file_at_once_all_succeed(new_place: Callable[..., str], backend: str
                                                                  ) -> None:
    """Switching a fresh file to WAL and migrating it race when several processes start together (on PostgreSQL:
    migrating an empty database, under the writer lock)."""
    for _ in range(10 if backend == "sqlite" else 3):
        path = new_place()
        opened = await asyncio.gather(*(Database.open(path) for _ in range(3)), return_exceptions=True)
        try:
            assert all(isinstance(db, Database) for db in opened), opened
            assert raw(path, "SELECT COUNT(*) FROM schema_migrations") == [(len(_migrations()),)]
            tid = await new_table(opened[0])  # type: ignore[arg-type]
            assert (await table(opened[2], tid)).game == "breaks"  # type: ignore[arg-type]
        finally:
            for db in opened:
                if isinstance(db, Database):
                    await db.close()


async def test_journal_mode_is_wal(db: Database, path: str, backend: str) -> None:
    if backend == "postgresql":
        assert await db.journal_mode() == "postgresql"
        return
    assert (await db.journal_mode()).lower() == "wal"
    assert raw(path, "PRAGMA journal_mode") == [("wal",)]  # persistent: a plain connection sees it too


# --- one open table per channel ----------------------------------------------------------------------------------


async def test_only_one_lobby_or_active_table_per_channel(db: Database) -> None:
    tid = await new_table(db)
    with pytest.raises(ChannelBusy):
        await new_table(db)
    await db.start(tid, 0, 1, STATE, 2.0)  # active also blocks
    with pytest.raises(ChannelBusy):
        await new_table(db, host=2)
    other = await new_table(db, channel=CHANNEL + 1)  # another channel is free
    assert (await table(db, other)).status == LOBBY
    assert [t.id for t in await db.tables_with_status(LOBBY, ACTIVE)] == [tid, other]
    assert (await db.open_table_in(CHANNEL)).id == tid  # type: ignore[union-attr]


@pytest.mark.parametrize("close", ["finish", "cancel"])
async def test_a_new_table_is_allowed_after_finish_or_cancel(db: Database, close: str) -> None:
    tid = await active_table(db)
    if close == "finish":
        await db.record_moves(tid, 2, [(1, 0, "draw", [])], STATE, 4.0, result={"winners": [0]})
        expected = FINISHED
    else:
        await db.cancel(tid, 2, 4.0)
        expected = CANCELLED
    assert (await table(db, tid)).status == expected
    assert await db.open_table_in(CHANNEL) is None
    again = await new_table(db)
    assert again != tid
    assert (await db.open_table_in(CHANNEL)).id == again  # type: ignore[union-attr]
    assert (await db.latest_table_in(CHANNEL)).id == again  # type: ignore[union-attr]
    with pytest.raises(ChannelBusy):
        await new_table(db)


async def test_a_refused_create_leaves_no_seat_behind(db: Database, path: str) -> None:
    await new_table(db)
    with pytest.raises(ChannelBusy):
        await new_table(db, host=2)
    assert raw(path, "SELECT COUNT(*) FROM tables") == [(1,)]
    assert raw(path, "SELECT COUNT(*) FROM seats") == [(1,)]


# --- versioned writes --------------------------------------------------------------------------------------------


async def test_set_seats_bumps_the_version_and_a_stale_one_changes_nothing(db: Database) -> None:
    tid = await new_table(db)
    assert (await table(db, tid)).version == 0
    await db.set_seats(tid, 0, [(1, "Alice", None), (None, "Bot 1", "random")], 2.0)
    row = await table(db, tid)
    assert row.version == 1 and row.updated_at == 2.0
    assert [(s.user_id, s.name, s.bot, s.is_bot) for s in row.seats] == [(1, "Alice", None, False),
                                                                       (None, "Bot 1", "random", True)]
    await db.set_seats(tid, 1, [(1, "Alice", None), (2, "Bob", None)], 3.0, host_id=2)
    row = await table(db, tid)
    assert (row.version, row.host_id) == (2, 2)

    before = await table(db, tid)
    with pytest.raises(StaleVersion):
        await db.set_seats(tid, 1, [(3, "Carl", None)], 4.0, host_id=3)
    assert await table(db, tid) == before


async def test_start_bumps_the_version_and_a_stale_one_changes_nothing(db: Database) -> None:
    tid = await new_table(db)
    await db.set_seats(tid, 0, [(1, "Alice", None), (2, "Bob", None)], 2.0)
    before = await table(db, tid)
    with pytest.raises(StaleVersion):
        await db.start(tid, 0, 77, STATE, 3.0)
    assert await table(db, tid) == before

    await db.start(tid, 1, 77, STATE, 3.0)
    row = await table(db, tid)
    assert (row.status, row.seed, row.state, row.version) == (ACTIVE, 77, STATE, 2)


async def test_record_moves_bumps_the_version_and_a_stale_one_changes_nothing(db: Database) -> None:
    tid = await active_table(db)
    await db.record_moves(tid, 2, [(1, 0, "draw", ["Alice drew 5♣."]), (2, 0, "place 1", ["placed"])],
                          {"format": 1, "pos": "after two"}, 4.0)
    row = await table(db, tid)
    assert (row.version, row.state, row.status, row.result) == (3, {"format": 1, "pos": "after two"}, ACTIVE, None)
    before_moves = await db.moves(tid)
    assert [(m.ply, m.seat, m.notation, m.events) for m in before_moves] == [
        (1, 0, "draw", ["Alice drew 5♣."]), (2, 0, "place 1", ["placed"])]
    # seat 0 acted, leaving the table at version 3; seat 1 was last asked something new at the start (version 2)
    assert [s.acted_version for s in row.seats] == [3, 2]

    with pytest.raises(StaleVersion):
        await db.record_moves(tid, 2, [(3, 1, "draw", [])], {"format": 1, "pos": "stale"}, 5.0,
                              result={"winners": [1]})
    assert await table(db, tid) == row
    assert await db.moves(tid) == before_moves


async def test_resign_and_cancel_refuse_a_stale_version(db: Database) -> None:
    tid = await active_table(db)
    before = await table(db, tid)
    with pytest.raises(StaleVersion):
        await db.resign(tid, 1, 0, 4.0)
    with pytest.raises(StaleVersion):
        await db.cancel(tid, 1, 4.0)
    assert await table(db, tid) == before


async def test_unknown_table_is_stale(db: Database) -> None:
    with pytest.raises(StaleVersion):
        await db.record_moves(12345, 0, [], STATE, 1.0)
    assert await db.get_table(12345) is None


async def test_record_moves_is_atomic_when_a_later_insert_fails(db: Database, path: str) -> None:
    tid = await active_table(db)
    await db.record_moves(tid, 2, [(1, 0, "draw", [])], {"format": 1, "pos": "one"}, 4.0)
    before = await table(db, tid)
    # The first new move is fine, the second repeats ply 2: the whole transaction must vanish.
    with pytest.raises(REFUSED):
        await db.record_moves(tid, 3, [(2, 0, "place 1", []), (2, 1, "draw", [])], {"format": 1, "pos": "two"},
                              5.0, result={"winners": [0]})
    assert await table(db, tid) == before
    assert [m.ply for m in await db.moves(tid)] == [1]
    assert raw(path, "SELECT version, status FROM tables WHERE id = ?", (tid,)) == [(3, ACTIVE)]
    # A ply already on disk is refused the same way.
    with pytest.raises(REFUSED):
        await db.record_moves(tid, 3, [(1, 1, "draw", [])], {"format": 1, "pos": "dup"}, 6.0)
    assert await table(db, tid) == before
    # And the connection is still usable afterwards (no transaction left open).
    await db.record_moves(tid, 3, [(2, 0, "place 1", [])], {"format": 1, "pos": "two"}, 7.0)
    assert [m.ply for m in await db.moves(tid)] == [1, 2]


async def test_moves_last_n_returns_the_newest_in_order(db: Database) -> None:
    tid = await active_table(db)
    await db.record_moves(tid, 2, [(p, p % 2, f"m{p}", [f"e{p}"]) for p in range(1, 8)], STATE, 4.0)
    assert [m.ply for m in await db.moves(tid)] == [1, 2, 3, 4, 5, 6, 7]
    assert [m.notation for m in await db.moves(tid, last=3)] == ["m5", "m6", "m7"]
    assert [m.ply for m in await db.moves(tid, last=1)] == [7]
    assert [m.ply for m in await db.moves(tid, last=50)] == [1, 2, 3, 4, 5, 6, 7]
    assert await db.moves(tid, last=0) == []
    other = await new_table(db, channel=CHANNEL + 1)
    assert await db.moves(other) == []


async def test_resign_records_the_order_of_resignations(db: Database) -> None:
    tid = await new_table(db)
    await db.set_seats(tid, 0, [(1, "A", None), (2, "B", None), (3, "C", None), (4, "D", None)], 2.0)
    await db.start(tid, 1, 5, STATE, 3.0)
    await db.resign(tid, 2, 2, 4.0)
    await db.resign(tid, 3, 0, 5.0)
    row = await table(db, tid)
    assert [s.resigned for s in row.seats] == [2, 0, 1, 0]
    assert (row.status, row.version) == (ACTIVE, 4)
    await db.resign(tid, 4, 3, 6.0, result={"winners": [1]})
    row = await table(db, tid)
    assert [s.resigned for s in row.seats] == [2, 0, 1, 3]
    assert (row.status, row.result) == (FINISHED, {"winners": [1]})


async def test_dm_open_and_lobby_message_are_not_versioned(db: Database) -> None:
    tid = await active_table(db)
    await db.set_dm_open(tid, 2, False)
    await db.set_lobby_message(tid, 600, 700)
    row = await table(db, tid)
    assert [s.dm_open for s in row.seats] == [True, False]
    assert (row.lobby_channel_id, row.lobby_message_id, row.version) == (600, 700, 2)


async def test_a_second_connection_sees_committed_data_and_a_restart_keeps_it(path: str) -> None:
    db = await Database.open(path)
    other = await Database.open(path)
    try:
        tid = await active_table(db)
        await db.record_moves(tid, 2, [(1, 0, "draw", ["e"])], {"format": 1, "pos": "x"}, 4.0)
        assert await table(other, tid) == await table(db, tid)
        assert await other.moves(tid) == await db.moves(tid)
        await other.record_moves(tid, 3, [(2, 0, "place 1", [])], {"format": 1, "pos": "y"}, 5.0)
        row = await table(db, tid)  # and the first connection sees the second one's commit
        assert (row.version, row.state) == (4, {"format": 1, "pos": "y"})
    finally:
        await other.close()
        await db.close()
    reopened = await Database.open(path)  # a restart
    try:
        assert [m.notation for m in await reopened.moves(tid)] == ["draw", "place 1"]
        assert (await table(reopened, tid)).version == 4
    finally:
        await reopened.close()


async def test_games_ending_at_once_on_two_connections_are_numbered_one_after_the_other(db: Database, path: str
                                                                                       ) -> None:
    """A game's end numbers its results after the last game's (MAX(seq) + 1), read in its own transaction: two games
    ending at the same moment through two connections (two processes) get two numbers, never the same one (SQLite's
    single writer; PostgreSQL's writer lock, where a row lock would not do: the games are different rows)."""
    other = await Database.open(path)
    try:
        for round_ in range(3):
            ids = []
            for n in range(2):
                tid = await new_table(db, channel=CHANNEL + 10 * round_ + n)
                await db.set_seats(tid, 0, [(1, "Alice", None), (2, "Bob", None)], 2.0)
                await db.start(tid, 1, 77, STATE, 3.0)
                ids.append(tid)
            ended = await asyncio.gather(*(conn.record_moves(tid, 2, [(1, 0, "draw", [])], STATE, 4.0,
                                                             result={"winners": [0]})
                                           for conn, tid in zip((db, other), ids, strict=True)))
            assert [t.status for t in ended] == [FINISHED, FINISHED]
        seqs = raw(path, "SELECT table_id, MIN(seq), MAX(seq), COUNT(*) FROM results GROUP BY table_id ORDER BY 2")
        assert [(low, high, seats) for _, low, high, seats in seqs] == [(n, n, 2) for n in range(1, 7)]
    finally:
        await other.close()


async def test_closing_a_connection_the_server_dropped_is_quiet(db: Database, path: str, backend: str) -> None:
    """A shutdown after the server went away (restarted, or the network dropped it) closes without an error."""
    if backend == "postgresql":
        other = await Database.open(path)
        pid = (await other._conn.execute_fetchall("SELECT pg_backend_pid() AS pid"))[0]["pid"]
        assert raw(path, "SELECT pg_terminate_backend(?)", (pid,)) == [(True,)]
        await other.close()
    await db.close()
    await db.close()  # twice: harmless


async def test_a_connection_the_server_dropped_is_made_again_for_the_next_request(db: Database, path: str,
                                                                                    backend: str) -> None:
    """PostgreSQL restarted, failed over, or an idle connection cut: the request that finds the connection gone fails,
    and the next one connects again (a move committed before is there); SQLite has no server to lose."""
    tid = await active_table(db)
    before = await table(db, tid)
    if backend == "postgresql":
        pid = (await db._conn.execute_fetchall("SELECT pg_backend_pid() AS pid"))[0]["pid"]
        assert raw(path, "SELECT pg_terminate_backend(?)", (pid,)) == [(True,)]
        with contextlib.suppress(Exception):  # (the request that finds it gone, if the driver had not noticed yet)
            await db.get_table(tid)
    again = await table(db, tid)
    assert (again.version, again.state) == (before.version, before.state)
    played = await db.record_moves(tid, again.version, [(1, 0, "draw", ["Ann drew."])], STATE, 2.0)
    assert played.version == again.version + 1
    if backend == "postgresql":
        assert (await db._conn.execute_fetchall("SELECT pg_backend_pid() AS pid"))[0]["pid"] != pid


async def test_threads_due_to_archive_are_claimed_by_one_connection_only(db: Database, path: str) -> None:
    """Two processes asking at once which threads are due to be archived: each thread goes to one of them."""
    ids = [await new_table(db, channel=CHANNEL + 10 + i) for i in range(3)]
    for tid in ids:
        await db.archive_later(tid, 0.0)
    other = await Database.open(path)
    try:
        got = await asyncio.gather(db.archives_due(1e12), other.archives_due(1e12))
        claimed = [tid for answer in got for tid, _ in answer]
        assert sorted(claimed) == sorted(ids), got  # each once
        assert await db.archives_due(1e12) == [] and await other.archives_due(1e12) == []
    finally:
        await other.close()


async def test_concurrent_writers_with_the_same_version_exactly_one_wins(db: Database, path: str) -> None:
    tid = await active_table(db)
    other = await Database.open(path)
    try:
        for round_ in range(5):
            version = (await table(db, tid)).version
            ply = round_ + 1
            results = await asyncio.gather(
                db.record_moves(tid, version, [(ply, 0, "a", [])], {"format": 1, "by": "a"}, 10.0 + round_),
                other.record_moves(tid, version, [(ply, 1, "b", [])], {"format": 1, "by": "b"}, 10.0 + round_),
                return_exceptions=True,
            )
            ok = [r for r in results if isinstance(r, TableRow)]  # a write returns the table's new row
            stale = [r for r in results if isinstance(r, StaleVersion)]
            assert (len(ok), len(stale)) == (1, 1), results
            row = await table(other, tid)
            assert row.version == version + 1 and ok[0] == row
            winner = "a" if isinstance(results[0], TableRow) else "b"
            assert row.state == {"format": 1, "by": winner}
            moves = await db.moves(tid)
            assert [m.ply for m in moves] == list(range(1, ply + 1))
            assert moves[-1].notation == winner
    finally:
        await other.close()


async def test_the_outbox_owes_a_board_with_the_moves_or_not_at_all(db: Database) -> None:
    tid = await active_table(db)
    await db.delivered(tid, 2, 3.5)  # the start's board and lobby card went out
    await db.record_moves(tid, 2, [(1, 0, "draw", [])], STATE, 4.0, outbox=False)  # a turn going on: nothing owed
    assert await db.undelivered() == []
    await db.record_moves(tid, 3, [(2, 0, "place 1", [])], STATE, 5.0, outbox=True)
    await db.record_moves(tid, 4, [(3, 1, "draw", []), (4, 1, "discard", [])], STATE, 6.0, outbox=True,
                          note="Ann resigned.")
    assert await db.undelivered() == [Owed(tid, 5, 2, 4, "Ann resigned.")]  # one board per table: the newest, covering
    # both, with the note of either
    with pytest.raises(StaleVersion):  # a stale write owes nothing either
        await db.record_moves(tid, 4, [(5, 0, "draw", [])], STATE, 7.0, outbox=True)
    assert await db.undelivered() == [Owed(tid, 5, 2, 4, "Ann resigned.")]
    await db.delivered(tid, 4, 8.0)  # the board of version 4 went out: version 5's is still owed
    assert await db.undelivered() == [Owed(tid, 5, 3, 4, "Ann resigned.")]
    await db.delivered(tid, 5, 9.0)
    assert await db.undelivered() == []


async def test_every_change_that_owes_a_post_owes_it_in_its_own_transaction(db: Database) -> None:
    """Not only moves: opening a lobby, its seats, the start, a resignation and a cancellation each write what they
    owe (the lobby card, a board and its note) with the change, so a crash right after the commit loses none."""
    tid = await new_table(db)
    assert await db.undelivered() == [Owed(tid, 0, 1, 0, "", board=False, lobby=True)]  # the new lobby's card
    await db.delivered(tid, 0, 1.5)
    await db.set_seats(tid, 0, [(1, "Alice", None), (2, "Bob", None)], 2.0)
    assert await db.undelivered() == [Owed(tid, 1, 1, 0, "", board=False, lobby=True)]
    await db.start(tid, 1, 77, STATE, 3.0, deadline=100.0, note="Breaks begins!")
    assert await db.undelivered() == [Owed(tid, 2, 1, 0, "Breaks begins!", board=True, lobby=True)]
    assert (await db.get_table(tid)).deadline == 100.0, "the first turn's clock starts with the game"
    await db.delivered(tid, 2, 3.5)
    await db.resign(tid, 2, 0, 4.0, note="Alice resigned.")
    assert await db.undelivered() == [Owed(tid, 3, 1, 0, "Alice resigned.")]
    with pytest.raises(StaleVersion):  # a stale change owes nothing
        await db.cancel(tid, 2, 5.0, note="Game cancelled by Bob.")
    await db.cancel(tid, 3, 5.0, note="Game cancelled by Bob.")
    assert await db.undelivered() == [Owed(tid, 4, 1, 0, "Alice resigned. Game cancelled by Bob.", board=True,
                                           lobby=True)]


async def test_delivering_a_board_records_it_as_the_newest_in_the_same_write(db: Database) -> None:
    """A click costs the move's commit and one more write: the board owed is delivered and becomes the table's newest
    board, and the board it replaces is returned (its controls go)."""
    tid = await active_table(db)
    assert await db.delivered(tid, 2, 3.5, board_message_id=111) is None  # the first board replaces none
    await db.record_moves(tid, 2, [(1, 0, "draw", [])], STATE, 4.0, outbox=True)
    assert await db.delivered(tid, 3, 5.0, board_message_id=222) == 111
    assert await db.undelivered() == []
    assert await db.swap_board_message(tid, 333) == 222


async def test_a_part_not_posted_stays_owed_alone(db: Database) -> None:
    """A start owes its board and the lobby card: the board posted and the card refused, only the card stays owed (so
    a retry edits the card, and neither posts nor DMs the board again); once the card is shown, nothing is owed."""
    tid = await new_table(db)
    await db.delivered(tid, 0, 1.5)
    await db.set_seats(tid, 0, [(1, "Alice", None), (2, "Bob", None)], 2.0)
    await db.start(tid, 1, 77, STATE, 3.0, note="Breaks begins!")
    await db.delivered(tid, 2, 4.0, board=True, lobby=False)
    assert await db.undelivered() == [Owed(tid, 2, 1, 0, "Breaks begins!", board=False, lobby=True)]
    assert await db.owed(tid) == Owed(tid, 2, 1, 0, "Breaks begins!", board=False, lobby=True)
    await db.delivered(tid, 2, 5.0, board=False, lobby=True)
    assert await db.undelivered() == [] and await db.owed(tid) is None


async def test_several_players_leave_in_one_write_in_their_order(db: Database) -> None:
    tid = await new_table(db)
    await db.set_seats(tid, 0, [(1, "A", None), (2, "B", None), (3, "C", None)], 2.0)
    await db.start(tid, 1, 5, STATE, 3.0)
    row = await db.resign(tid, 2, [2, 0], 4.0, how="forfeit", note="A and C ran out of time.")
    assert row.version == 3
    assert [(s.resigned, s.left) for s in row.seats] == [(2, "forfeit"), (0, ""), (1, "forfeit")]


# --- round trips (issue 28): a table in one read, a change in one hop ----------------------------------------------
class Hops:
    """Counts the calls to the connection's thread (every aiosqlite call is one: a round trip). On PostgreSQL each
    statement is a round trip of its own (storage.postgres): nothing is counted there, the rest of the test runs."""

    def __init__(self, db: Database) -> None:
        self.count = 0
        self.counted = not db.postgres
        if not self.counted:
            return
        conn: Any = db._conn
        real = conn._execute

        async def counted(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.count += 1
            return await real(fn, *args, **kwargs)

        conn._execute = counted  # type: ignore[method-assign]

    def take(self) -> int:
        count, self.count = self.count, 0
        return count

    def expect(self, hops: int, why: str = "") -> None:
        """The calls since the last look were ``hops`` (on SQLite)."""
        count = self.take()
        assert count == hops or not self.counted, why or f"{count} hops, not {hops}"


async def test_a_table_is_read_in_one_round_trip_with_its_seats_last_ply_and_untold_moves(db: Database) -> None:
    tid = await active_table(db)
    await db.set_notify(2, "dm", 3.5)
    hops = Hops(db)
    row = await table(db, tid)
    hops.expect(1)
    assert [(s.seat, s.user_id, s.name, s.notify) for s in row.seats] == [(0, 1, "Alice", "mention"),
                                                                          (1, 2, "Bob", "dm")]
    assert (row.last_ply, row.untold) == (0, ())
    # a draw stored without its board (the turn goes on privately), then the placing that ends the turn
    row = await db.record_moves(tid, 2, [(1, 0, "draw", ["Alice drew 5♣.", "(face down)"])], STATE, 4.0,
                                announce=False)
    hops.expect(1, "a move's write and the row it returns: one round trip")
    assert (row.last_ply, row.announced_ply, row.untold) == (1, 0, ("Alice drew 5♣.", "(face down)"))
    assert row == await table(db, tid)
    hops.take()
    row = await db.record_moves(tid, 3, [(2, 0, "place 1", ["placed"])], STATE, 5.0, outbox=True)
    hops.expect(1)
    assert (row.last_ply, row.announced_ply, row.untold) == (2, 2, ())
    owed = await db.owed(tid)
    assert owed is not None and (owed.first_ply, owed.last_ply) == (1, 2), "the board owes the draw too"
    assert [m.events for m in await db.moves(tid, plies=(1, 2))] == [["Alice drew 5♣.", "(face down)"], ["placed"]]
    assert [m.ply for m in await db.moves(tid, plies=(2, 5))] == [2]


async def test_a_stale_change_sent_in_one_round_trip_is_rolled_back_whole(db: Database, path: str) -> None:
    tid = await active_table(db)
    await db.record_moves(tid, 2, [(1, 0, "draw", [])], STATE, 4.0)
    before = await table(db, tid)
    hops = Hops(db)
    with pytest.raises(StaleVersion):  # the outbox row is written before the versioned update: it goes too
        await db.record_moves(tid, 2, [(2, 1, "draw", [])], STATE, 5.0, outbox=True, asked=[0, 1])
    hops.expect(1)
    assert await table(db, tid) == before
    assert raw(path, "SELECT COUNT(*) FROM outbox WHERE table_id = ? AND version = 4", (tid,)) == [(0,)]
    assert await db.undelivered() == [Owed(tid, 2, 1, 0, "", True, True)]  # (the start's, only)
    # and the connection is left outside any transaction: the next change commits
    row = await db.record_moves(tid, 3, [(2, 1, "draw", [])], STATE, 6.0)
    assert row.version == 4 and row.last_ply == 2


async def test_the_table_of_a_channel_open_or_else_the_newest(db: Database) -> None:
    assert await db.table_here(CHANNEL, finished_ok=True) is None
    assert await db.table_id_here(CHANNEL, finished_ok=True) is None
    first = await active_table(db)
    await db.cancel(first, 2, 4.0)
    assert await db.table_here(CHANNEL) is None and await db.table_id_here(CHANNEL) is None
    assert (await db.table_here(CHANNEL, finished_ok=True)).id == first  # type: ignore[union-attr]
    second = await new_table(db)
    assert await db.table_id_here(CHANNEL) == second == await db.table_id_here(CHANNEL, finished_ok=True)
    assert (await db.table_here(CHANNEL, finished_ok=True)).id == second  # type: ignore[union-attr]
    assert await db.table_id_here(CHANNEL + 1, finished_ok=True) is None


async def test_a_dm_that_fails_is_recorded_once_and_says_so(db: Database) -> None:
    tid = await active_table(db)
    hops = Hops(db)
    assert await db.set_dm_open(tid, 2, True) is False, "it was open already"
    assert await db.set_dm_open(tid, 2, False) is True
    assert await db.set_dm_open(tid, 2, False) is False
    assert await db.set_dm_open(tid, 99, False) is False, "not a player of this table"
    hops.expect(4)
    assert [s.dm_open for s in (await table(db, tid)).seats] == [True, False]


async def test_delivering_is_one_round_trip(db: Database) -> None:
    tid = await active_table(db)
    hops = Hops(db)
    assert await db.delivered(tid, 2, 5.0, 900) is None
    assert await db.delivered(tid, 2, 6.0, 901) == 900
    hops.expect(2)
    assert await db.undelivered() == []


async def test_a_seats_rating_key_in_sql_is_the_one_seat_facts_make(db: Database, path: str) -> None:
    """The game's end reads its players' ratings with the change that ends it, by the key SeatFacts.player makes."""
    tid = await new_table(db)
    await db.set_seats(tid, 0, [(1234567890123456789, "Alice", None), (None, "Bot", "hard"), (None, "Old bot", None)],
                       2.0)
    got = raw(path, f"SELECT {PLAYER_OF_SEAT}, user_id, bot FROM seats WHERE table_id = ? ORDER BY seat", (tid,))
    assert [key for key, _, _ in got] == [SeatFacts(user, bot, False).player for _, user, bot in got]
    assert [key for key, _, _ in got] == ["1234567890123456789", "bot:hard", "bot:medium"]


async def test_tables_are_read_in_batches_by_id(db: Database) -> None:
    """A long walk over the tables (start-up) reads them a batch at a time, each in one read."""
    ids = []
    for n in range(5):
        tid = await new_table(db, channel=CHANNEL + n)
        seats: list[tuple[int | None, str, str | None]] = (
            [(1, "Alice", None), (None, "Bot", "easy")] if n % 2 else [(1, "Alice", None), (2, "Bob", None)])
        await db.set_seats(tid, 0, seats, 2.0)
        await db.start(tid, 1, 77, STATE, 3.0)
        ids.append(tid)
    await db.resign(ids[4], 2, 1, 4.0)  # a seat its player left is played by a bot too
    assert [t.id for t in await db.tables_with_status(ACTIVE, after=ids[1], limit=2)] == ids[2:4]
    assert [t.id for t in await db.tables_with_status(ACTIVE, after=ids[3])] == ids[4:]
    assert [t.table_id for t in (await bot_tables(db, 0))[1]] == [ids[1], ids[3], ids[4]]
    assert [(t.table_id, t.auto) for t in (await bot_tables(db, ids[1], 2))[1]] == [(ids[3], {1})]
    assert (await bot_tables(db, ids[1], 2))[0] == ids[3], "a page ends at the last running table it looked at"
    await db.cancel(ids[3], 2, 5.0)
    assert [t.table_id for t in (await bot_tables(db, ids[1]))[1]] == [ids[4]]


async def test_reminders_are_counted_per_day_up_to_the_cap_in_one_statement(db: Database, path: str) -> None:
    assert [await db.take_reminder(7, 100, 2, 1.0) for _ in range(3)] == [True, True, False]
    assert raw(path, "SELECT reminder_day, reminders_sent FROM players WHERE user_id = 7") == [(100, 2)]
    assert await db.take_reminder(7, 101, 2, 2.0), "a new day starts again"
    assert raw(path, "SELECT reminder_day, reminders_sent FROM players WHERE user_id = 7") == [(101, 1)]
    assert not await db.take_reminder(8, 100, 0, 1.0), "a cap of none reminds nobody"
    assert raw(path, "SELECT COUNT(*) FROM players WHERE user_id = 8") == [(0,)]
    await db.set_notify(9, "dm", 1.0)  # a player's row made by another setting
    assert [await db.take_reminder(9, 100, 1, 2.0) for _ in range(2)] == [True, False]
    assert raw(path, "SELECT notify FROM players WHERE user_id = 9") == [("dm",)], "the count keeps their setting"


async def test_stored_beginner_cities_lose_the_overpass_their_games_never_had(path: str) -> None:
    """Migration 0028: Bloc by Bloc's ``city=beginner`` with ``overpass=yes`` is refused now, and stored tables and
    tournaments with it get what their games played (no Overpass); a random city's Overpass and other games stay."""
    from storage.tournaments import TournamentStore

    bbb = {"difficulty": "hard", "city": "beginner", "beginner": False, "overpass": True, "mode": "coop",
           "scenario": "none"}
    db = await Database.open(path)
    try:
        made = {}
        for channel, (game, options) in enumerate([("blocbybloc", bbb), ("blocbybloc", {**bbb, "city": "random"}),
                                                   ("elsewhere", bbb)], start=1):
            made[channel] = await db.create_table(guild_id=9, channel_id=channel, game=game, options=options,
                                                  host_id=1, host_name="Alice", now=1.0)
        cup = await TournamentStore(db).create(guild_id=9, channel_id=9, name="Cup", game="blocbybloc", options=bbb,
                                               organiser=(1, "Alice"), state={}, now=1.0, turn_seconds=None,
                                               on_timeout="bot", rated=True)
        async with db.transaction() as conn:  # back to before 0028, as an older Blockhouse left the database
            await run(conn, "DELETE FROM schema_migrations WHERE version = ?", (28,))
    finally:
        await db.close()
    db = await Database.open(path)  # what starting the bot does: 0028 applied
    try:
        assert (await table(db, made[1])).options == {**bbb, "overpass": False}
        assert (await table(db, made[2])).options["overpass"] is True, "a random city keeps its Overpass"
        assert (await table(db, made[3])).options == bbb, "another game's options are its own"
        (stored,) = raw(path, "SELECT options FROM tournaments WHERE id = ?", (cup,))
        assert json.loads(stored[0]) == {**bbb, "overpass": False}
    finally:
        await db.close()
