"""``python -m storage.copy``: an SQLite database moved into PostgreSQL (issue 26), on real SQLite files and the
session's throwaway PostgreSQL server (skipped, saying how to install it, where its binaries are missing). The source
is made through the table service (lobbies, games with moves, a bot's game, finished games with results and ratings,
a rematch, a tournament): after the copy every storage read answers the same on both sides, every table of SQLite's
schema holds the same rows, new tables and tournaments get fresh ids, and a game is played on the copy. Refusals
(a target that is not empty, a source at another schema version, a running bot's file) change nothing; a copy that
differs from its source is rolled back whole."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from storage import ACTIVE, CANCELLED, FINISHED, LOBBY, Database
from storage.copy import MIGRATIONS, CopyFailed, CopyRefused, copy, foreign_keys
from storage.db import _migrations
from storage.tournaments import CANCELLED as T_CANCELLED
from storage.tournaments import DONE, RUNNING, SIGNUP
from tables import TableService
from tests.pg import PgServer
from tests.tables.helpers import ALICE, BOB, CARL, DANA, lobby, read, service, whose_turn

GUILD, HALL = 7, 500
PEOPLE = (ALICE, BOB, CARL, DANA)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def target(pg_server: PgServer) -> Iterator[str]:
    """A new, empty PostgreSQL database (no table at all), dropped after the test."""
    url = pg_server.create(migrated=False)
    yield url
    pg_server.drop(url)


@pytest.fixture
def migrated_target(pg_server: PgServer) -> Iterator[str]:
    """A new PostgreSQL database with the migrated schema and no rows."""
    url = pg_server.create(migrated=True)
    yield url
    pg_server.drop(url)


async def play(svc: TableService, tid: int, moves: int) -> None:
    """The people at the table play ``moves`` of their first legal moves (the button path)."""
    for _ in range(moves):
        table, actor, move = await whose_turn(svc, tid)
        await svc.submit(actor, move, table_id=tid, version=table.version)


async def fill(path: Path) -> int:
    """A bot's database with some of everything, made through the table service; returns the id of a lobby that was
    deleted afterwards (the newest id SQLite's AUTOINCREMENT gave, no longer any table's)."""
    db = await Database.open(path)
    try:
        svc = service(db)
        await svc.settings(GUILD, ALICE, "12h", "skip", 48, True)
        await svc.rating_settings(GUILD, True, rate_bots=True)
        await db.set_notify(BOB.user_id, "dm", 1.0)
        await db.set_away(CARL.user_id, 2_000_000_000.0, 1.0)
        await lobby(svc, ALICE, BOB, channel=1001)  # a lobby
        cancelled = await lobby(svc, CARL, channel=1002)
        await svc.cancel(cancelled, CARL, by_table=True)
        running = await lobby(svc, ALICE, BOB, CARL, channel=1003)  # a game under way with moves
        await svc.start(running, ALICE)
        await play(svc, running, 6)
        with_bot = await lobby(svc, DANA, bots=1, channel=1004)  # a bot's moves
        await svc.start(with_bot, DANA)
        await play(svc, with_bot, 3)
        finished = await lobby(svc, BOB, ALICE, channel=1005)  # a finished, rated game, then its rematch
        await svc.start(finished, BOB)
        await play(svc, finished, 4)
        await svc.resign(1005, BOB)
        assert (await read(svc, finished)).status == FINISHED
        await svc.rematch(finished, ALICE, channel_id=1006)
        await svc.resign(1004, DANA)  # the bot wins: bots are rated on this server
        owed = await db.owed(running)
        assert owed is not None
        await db.delivered(running, owed.version, 5.0, board_message_id=77)  # some of the outbox delivered
        out = await svc.tournaments.create(guild_id=GUILD, channel_id=HALL, actor=ALICE, organiser=True,
                                           game_key="breaks", fmt="swiss", rounds=2)
        assert out.tournament_id is not None
        for p in PEOPLE:
            await svc.tournaments.join(out.tournament_id, p)
        await svc.tournaments.start(out.tournament_id, ALICE, organiser=True)
        owed_games = await svc.tournaments.owed_games(out.tournament_id)
        await svc.tournaments.open_game(owed_games[0][0], 2001)
        gone = await lobby(svc, DANA, channel=1007)
    finally:
        await db.close()
    with sqlite3.connect(path) as conn:  # the newest lobby deleted: its id is never given again
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("DELETE FROM outbox WHERE table_id = ?", (gone,))
        conn.execute("DELETE FROM tables WHERE id = ?", (gone,))
    conn.close()
    return gone


@pytest.fixture(scope="module")
def filled_source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The filled database, made once for the module (each test copies the file)."""
    path = tmp_path_factory.mktemp("source") / "blockhouse.db"
    out: list[int] = []
    thread = threading.Thread(target=lambda: out.append(asyncio.run(fill(path))))
    thread.start()
    thread.join()
    assert out, "the source was filled"
    return path, out[0]


@pytest.fixture
def source(filled_source: tuple[Path, int], tmp_path: Path) -> Path:
    path = tmp_path / "blockhouse.db"
    path.write_bytes(filled_source[0].read_bytes())
    return path


def sqlite_tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                            "'sqlite_%' ORDER BY name")]
    conn.close()
    return names


def sqlite_rows(path: Path, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
    conn.close()
    return sorted(rows, key=repr)


async def pg_rows(url: str, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(url)
    try:
        return sorted((tuple(r) for r in await conn.fetch(f"SELECT {', '.join(columns)} FROM {table}")), key=repr)
    finally:
        await conn.close()


async def pg_snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the target and its rows (schema_migrations without its times), and its foreign keys."""
    conn = await asyncpg.connect(url)
    try:
        tables = [r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
        out = {}
        for t in tables:
            sql = f"SELECT version, name FROM {t}" if t == MIGRATIONS else f"SELECT * FROM {t}"
            out[t] = sorted((tuple(r) for r in await conn.fetch(sql)), key=repr)
        if tables:
            out["(foreign keys)"] = [tuple(r) for r in await foreign_keys(conn)]
        return out
    finally:
        await conn.close()


async def reads(db: Database, ids: range) -> dict[str, Any]:
    """What storage's reads answer on a database (every table, its moves and results, the outbox, the players',
    the server's, the ratings and the tournaments)."""
    out: dict[str, Any] = {}
    for tid in ids:
        out[f"table {tid}"] = await db.get_table(tid)
        out[f"moves {tid}"] = await db.moves(tid)
        out[f"last moves {tid}"] = await db.moves(tid, 2)
        out[f"results {tid}"] = await db.records.results_of_table(tid)
        out[f"owed {tid}"] = await db.owed(tid)
        out[f"version {tid}"] = await db.version_of(tid)
        out[f"rematch {tid}"] = await db.rematch_of(tid)
        out[f"tournament {tid}"] = await db.tournaments.get(tid)
        out[f"tournament games {tid}"] = await db.tournaments.games(tid)
        out[f"tournament posts {tid}"] = await db.tournaments.posts_owed(tid)
    for channel in range(1000, 1010):
        out[f"channel {channel}"] = await db.table_here(channel, finished_ok=True)
    out["by status"] = await db.tables_with_status(LOBBY, ACTIVE, FINISHED, CANCELLED)
    out["undelivered"] = await db.undelivered()
    out["due"] = await db.due(3e9)
    out["reminders"] = await db.reminders_due(3e9)
    out["away"] = await db.away_until([p.user_id for p in PEOPLE], 10.0)
    out["guild"] = (await db.guild_settings(GUILD), await db.away_days(GUILD), await db.reminders_per_day(GUILD),
                    await db.organiser_role(GUILD), await db.records.rules(GUILD))
    out["rated games"] = await db.records.games_with_ratings(GUILD)
    out["ratings"] = await db.records.ratings(GUILD, "breaks")
    out["rated results"] = await db.records.rated_results(GUILD, "breaks")
    for p in PEOPLE:
        out[f"player {p.user_id}"] = (await db.tables_of_player(None, p.user_id),
                                      await db.records.results_of_user(p.user_id),
                                      await db.records.count_of_user(p.user_id, GUILD))
    out["tournaments"] = await db.tournaments.of_guild(GUILD, (SIGNUP, RUNNING, DONE, T_CANCELLED))
    out["all owed games"] = await db.tournaments.all_owed_games()
    return out


async def test_a_copy_answers_every_read_as_its_source_and_plays_on(source: Path, target: str,
                                                                    filled_source: tuple[Path, int],
                                                                    pg_server: PgServer) -> None:
    said: list[str] = []
    counts = await copy(source, target, batch=3, say=said.append)  # (batches of 3 rows: a table takes several)
    names = sqlite_tables(source)
    assert [c.table for c in counts] != sorted(names), "in the foreign keys' order, not by name"
    assert sorted(c.table for c in counts) == names and all(c.ok for c in counts)
    report = "\n".join(said)
    for c in counts:
        assert f"{c.table} " in report and f"{c.source:,}" in report
    # every table of SQLite's schema, counted and compared row by row here (not by the command's own check); each
    # holds rows in the source, so a table the copy left out (a new migration's) fails here: fill it in fill()
    for table in names:
        expected = sqlite_rows(source, table)
        assert expected, f"{table} has no row in the test's source: make fill() write some, so its copy is checked"
        columns = [r[1] for r in sqlite3.connect(source).execute(f"PRAGMA table_info({table})")]
        got = await pg_rows(target, table, columns)
        if table == MIGRATIONS:  # the migration's own rows: the same versions and names
            assert [r[:2] for r in got] == [r[:2] for r in expected]
        else:
            assert got == expected, table
    lite, pg = await Database.open(source), await Database.open(target)
    try:
        assert await pg.migrate() == len(_migrations()), "nothing left to migrate"
        template = pg_server.url(pg_server.TEMPLATE)  # the foreign keys the copy dropped are back, the same
        assert (await pg_snapshot(target))["(foreign keys)"] == (await pg_snapshot(template))["(foreign keys)"]
        assert len((await pg_snapshot(target))["(foreign keys)"]) >= 7
        gone = filled_source[1]
        ids = range(1, gone + 2)
        assert await reads(pg, ids) == await reads(lite, ids)
        # new rows get fresh ids on both, the same ones: past the deleted lobby's (SQLite's AUTOINCREMENT)
        for db in (lite, pg):
            svc = service(db)
            tid = await lobby(svc, ALICE, BOB, channel=3000)
            assert tid == gone + 1
            out = await svc.tournaments.create(guild_id=GUILD, channel_id=HALL + 1, actor=BOB, organiser=True,
                                               game_key="breaks", fmt="swiss", rounds=1)
            assert out.tournament_id == 2
        # a game played to its end on the copy, its results numbered after the copied ones
        svc = service(pg)
        tid = gone + 1
        await svc.start(tid, ALICE)
        await play(svc, tid, 5)
        await svc.resign(3000, BOB)
        row = await read(svc, tid)
        assert row.status == FINISHED and len(await pg.moves(tid)) == 5
        assert len(await pg.records.results_of_table(tid)) == 2
    finally:
        await lite.close()
        await pg.close()
    conn = await asyncpg.connect(target)
    try:
        seq = {r["table_id"]: r["seq"] for r in await conn.fetch("SELECT table_id, seq FROM results")}
    finally:
        await conn.close()
    assert seq[tid] == max(seq.values()) > max(s for t, s in seq.items() if t != tid)


async def test_a_target_with_the_migrated_schema_and_no_rows_is_accepted(source: Path, migrated_target: str) -> None:
    counts = await copy(source, migrated_target)
    assert all(c.ok for c in counts)
    assert {c.table: c.target for c in counts if c.copied} == {
        t: len(sqlite_rows(source, t)) for t in sqlite_tables(source) if t != MIGRATIONS}


async def test_a_target_that_holds_rows_is_refused_and_left_as_it_was(source: Path, migrated_target: str) -> None:
    db = await Database.open(migrated_target)
    await db.set_notify(ALICE.user_id, "both", 1.0)
    await db.close()
    before = await pg_snapshot(migrated_target)
    with pytest.raises(CopyRefused, match=r"already holds rows \(in players\)"):
        await copy(source, migrated_target)
    assert await pg_snapshot(migrated_target) == before


async def test_a_target_with_another_table_is_refused_and_not_migrated(source: Path, target: str) -> None:
    conn = await asyncpg.connect(target)
    await conn.execute("CREATE TABLE notes (body TEXT)")
    await conn.close()
    with pytest.raises(CopyRefused, match=r"tables that are not Blockhouse's \(notes\)"):
        await copy(source, target)
    assert await pg_snapshot(target) == {"notes": [], "(foreign keys)": []}


def migrated_up_to(path: Path, last: int) -> None:
    """An SQLite file as an older Blockhouse left it: the migrations up to ``last`` applied."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                 "applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
    for number, name, sql in _migrations()[:last]:
        conn.executescript(sql)
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (number, name))
    conn.commit()
    conn.close()


async def test_a_source_at_an_older_schema_is_refused_until_the_bot_migrated_it(tmp_path: Path, target: str) -> None:
    old = tmp_path / "old.db"
    migrated_up_to(old, len(_migrations()) - 1)
    with pytest.raises(CopyRefused, match="start the bot on it once"):
        await copy(old, target)
    assert await pg_snapshot(target) == {}, "the target untouched: not even migrated"
    await (await Database.open(old)).close()  # what starting the bot does first
    assert all(c.ok for c in await copy(old, target))


async def test_a_source_from_a_newer_blockhouse_is_refused(source: Path, target: str) -> None:
    with sqlite3.connect(source) as conn:
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (?, 'from_the_future.sql')",
                     (len(_migrations()) + 1,))
    conn.close()
    with pytest.raises(CopyRefused, match="newer Blockhouse"):
        await copy(source, target)
    assert await pg_snapshot(target) == {}


async def test_a_running_bots_file_is_refused_until_it_stops(source: Path, target: str) -> None:
    db = await Database.open(source)  # the bot, running: its writes sit in the write-ahead log
    try:
        await db.set_notify(DANA.user_id, "dm", 9.0)
        with pytest.raises(CopyRefused, match="the bot is running on it"):
            await copy(source, target)
        assert await pg_snapshot(target) == {}
    finally:
        await db.close()
    counts = {c.table: c for c in await copy(source, target)}
    assert counts["players"].target == len(sqlite_rows(source, "players")) == 3


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the lock is asked as Linux lays it out")
async def test_a_file_another_process_has_open_is_refused_even_before_it_writes(source: Path, target: str) -> None:
    bot = subprocess.Popen([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                            "c.execute('SELECT COUNT(*) FROM tables').fetchall(); print('open', flush=True); "
                            "sys.stdin.read()", str(source)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None and bot.stdout.readline() == "open\n"
        assert not Path(f"{source}-wal").stat().st_size, "nothing written: the log alone would not tell"
        with pytest.raises(CopyRefused, match=f"is open in process {bot.pid}"):
            await copy(source, target)
        assert await pg_snapshot(target) == {}
    finally:
        assert bot.stdin is not None
        bot.stdin.close()
        bot.wait()
    assert all(c.ok for c in await copy(source, target))


async def test_a_backup_made_while_the_bot_runs_is_copied_with_its_latest_writes(source: Path, tmp_path: Path,
                                                                                target: str) -> None:
    db = await Database.open(source)  # the bot, running
    try:
        await db.set_notify(DANA.user_id, "both", 9.0)
        backup = tmp_path / "backup.db"  # what `sqlite3 FILE ".backup backup.db"` does: SQLite's online backup
        live, kept = sqlite3.connect(source), sqlite3.connect(backup)
        live.backup(kept)
        live.close()
        kept.close()
        counts = {c.table: c for c in await copy(backup, target)}
    finally:
        await db.close()
    assert counts["players"].target == 3 and all(c.ok for c in counts.values())
    assert (DANA.user_id, "both") in [r[:2] for r in await pg_rows(target, "players", ["user_id", "notify"])]


async def test_a_source_with_a_dangling_foreign_key_is_refused(source: Path, target: str) -> None:
    with sqlite3.connect(source) as conn:  # (SQLite checks foreign keys only where a connection turns them on)
        conn.execute("INSERT INTO moves (table_id, ply, seat, notation, events, created_at) VALUES (999, 1, 0, 'x', "
                     "'[]', 1.0)")
    conn.close()
    with pytest.raises(CopyRefused, match=r"1 row\(s\) whose foreign key points at nothing \(moves row \d+ -> "
                                          r"tables\)"):
        await copy(source, target)
    assert await pg_snapshot(target) == {}


async def test_a_copy_that_differs_from_its_source_is_rolled_back_whole(source: Path, migrated_target: str) -> None:
    # PostgreSQL itself loses a move and changes a name on the way in (triggers fire during COPY)
    conn = await asyncpg.connect(migrated_target)
    await conn.execute("""
        CREATE FUNCTION lose_ply_two() RETURNS trigger AS $$
        BEGIN IF NEW.ply = 2 THEN RETURN NULL; END IF; RETURN NEW; END $$ LANGUAGE plpgsql;
        CREATE TRIGGER lose BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION lose_ply_two();
        CREATE FUNCTION rename() RETURNS trigger AS $$
        BEGIN NEW.name := NEW.name || '!'; RETURN NEW; END $$ LANGUAGE plpgsql;
        CREATE TRIGGER rename BEFORE INSERT ON seats FOR EACH ROW EXECUTE FUNCTION rename();
    """)
    await conn.close()
    before = await pg_snapshot(migrated_target)
    said: list[str] = []
    with pytest.raises(CopyFailed, match="differs from the source in moves, seats|differs from the source in seats, "
                                         "moves"):
        await copy(source, migrated_target, say=said.append)
    lines = {line.split()[0]: line for line in "\n".join(said).splitlines()}
    assert "DIFFERENT" in lines["moves"] and "DIFFERENT" in lines["seats"] and "DIFFERENT" not in lines["tables"]
    assert await pg_snapshot(migrated_target) == before, "nothing was committed"


async def test_a_value_postgresql_cannot_hold_exactly_stops_the_copy_naming_it(source: Path, target: str,
                                                                                pg_server: PgServer) -> None:
    with sqlite3.connect(source) as conn:  # SQLite keeps a fraction in an INTEGER column as it is
        conn.execute("UPDATE seats SET resigned = 1.5 WHERE rowid = (SELECT MIN(rowid) FROM seats)")
    conn.close()
    with pytest.raises(CopyFailed, match=r"seats\.resigned, row 1: 1\.5 \(float\) cannot be stored as int"):
        await copy(source, target)
    after, template = await pg_snapshot(target), await pg_snapshot(pg_server.url(pg_server.TEMPLATE))
    assert after == template, "the migrated schema with no rows, its foreign keys back: as a new copy accepts it"


async def test_a_text_postgresql_refuses_stops_the_copy_and_changes_nothing(source: Path, target: str,
                                                                           pg_server: PgServer) -> None:
    with sqlite3.connect(source) as conn:  # SQLite's text may hold a NUL character; PostgreSQL's may not
        conn.execute("UPDATE seats SET name = 'Al' || char(0) || 'ice' WHERE rowid = (SELECT MAX(rowid) FROM seats)")
    conn.close()
    with pytest.raises(CopyFailed, match=r"PostgreSQL refused row \d+ of seats"):
        await copy(source, target)
    assert await pg_snapshot(target) == await pg_snapshot(pg_server.url(pg_server.TEMPLATE))


def test_the_command_copies_prints_the_counts_and_refuses_a_second_copy(source: Path, target: str) -> None:
    def command() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "storage.copy", str(source), target], cwd=REPO,
                              capture_output=True, text=True, timeout=600)

    first = command()
    assert first.returncode == 0, first.stderr
    assert "every count and every table's digest is the same" in first.stdout
    lines = first.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("table "))
    rows = {line.split()[0]: line.split()[1:] for line in lines[header + 1:-1]}
    assert set(rows) == set(sqlite_tables(source))
    assert rows["moves"][:2] == [f"{len(sqlite_rows(source, 'moves')):,}"] * 2 and rows["moves"][2] == "same"
    second = command()
    assert second.returncode == 2 and "Refused, nothing changed: the target database already holds rows" in \
        second.stderr
