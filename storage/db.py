"""Storage for tables, seats and move logs: SQLite (aiosqlite, WAL) by default, or PostgreSQL (asyncpg) when the
database setting is a ``postgresql://`` URL (:mod:`storage.postgres`); one set of numbered migrations for both.

Every change to a table runs in one ``BEGIN IMMEDIATE`` transaction and is guarded by the
table's ``version``: a write names the version it was computed from, and if another write
got there first nothing is changed and :class:`StaleVersion` is raised. So two clicks on
the same button never apply two moves, and a crash never leaves half a move behind.

A move is a handful of round trips to the database's thread: a table is read in one statement
(:data:`TABLES`), and a change is sent in one hop, its statements and its version check together
(:func:`storage.sql.steps`); a game's end takes two.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Collection, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import aiosqlite

from storage.postgres import WRITER_LOCK, PgConnection, Refused, is_url, schema_sql
from storage.records import RecordStore, settle_reads, settle_writes
from storage.shards import Shards, mine
from storage.sql import Connection, Step, rollback, run, steps
from storage.tournaments import TournamentStore, record_game

log = logging.getLogger(__name__)

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
OPEN_STATUSES = (LOBBY, ACTIVE)

DEFAULT_CLOCK = 24 * 3600  # a new server's turn clock, until /settings says otherwise (clock=off: none)
# what makes a table's time-out or reminder due: one condition for the reads (due, reminders_due) and the clock's
# claims of them (claim_due, claim_reminders), so that what the tests read as due is what the clock takes
DEADLINE_DUE = "deadline IS NOT NULL AND status = 'active' AND deadline <= ?"
REMINDER_DUE = "remind_at IS NOT NULL AND status = 'active' AND remind_at <= ?"
CLAIM_LEASE = 300.0  # seconds a claim of the clock's or the outbox's holds (a process that died lets go then)
ARCHIVE_HOURS = 24  # a finished game's thread is archived this long after its end, unless the server set otherwise
# (the same default as guild_settings.archive_hours's, migration 0012)


class StorageError(Exception):
    """A storage rule was broken (not a player's mistake)."""


class StaleVersion(StorageError):
    """The table changed since the caller read it; nothing was written."""


class ChannelBusy(StorageError):
    """The channel already has a lobby or a game in progress."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    bot: str | None
    resigned: int
    dm_open: bool
    acted_version: int = 0  # the table version from which this seat's controls are current: after its latest
    # move, or after what it is asked changed (a new decision); other seats' moves leave its controls good
    left_how: str = ""  # how the player left: 'resigned', 'removed' (kicked) or 'forfeit' (out of time); '' playing
    handed: bool = False  # a person's seat given to a bot during the game (/game replace without a member)
    notify: str = "mention"  # how the seat's player wants to hear of their turn (/notify), read with the table

    @property
    def left(self) -> str:
        """How the player left, if they did ('' while they play); a seat that left before the way was kept (migration
        0018) resigned."""
        return self.left_how or ("resigned" if self.resigned else "")

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


@dataclass(frozen=True)
class TableRow:
    id: int
    guild_id: int | None
    channel_id: int
    lobby_channel_id: int | None
    lobby_message_id: int | None
    game: str
    options: dict[str, Any]
    status: str
    host_id: int
    seed: int | None
    state_text: str | None  # the game's state as stored (JSON): read as :attr:`state` when first asked
    version: int
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    seats: tuple[SeatRow, ...]
    announced_ply: int = 0  # the last ply a board has told the channel about
    turn_seconds: int | None = None  # the turn clock (None: no clock)
    on_timeout: str = "bot"  # bot | skip | forfeit
    deadline: float | None = None  # when the seats to act run out of time
    remind_at: float | None = None  # when the next reminder of the turn clock is due
    paused_left: float | None = None  # a paused clock: the time the turn had left when it was paused
    answer_seconds: int | None = None  # how long an answer outside one's turn waits (None: the turn clock, or 12 h)
    rated: bool = True  # the host's choice (rated=no makes the table unrated); the server's rules decide the rest
    started_at: float | None = None
    finished_at: float | None = None
    tournament_id: int | None = None  # the tournament this game is a round's game of
    archive_at: float | None = None  # when a finished game's thread is due to be archived (set as it ends)
    last_ply: int = 0  # the ply of the last stored move (0: none yet)
    untold: tuple[str, ...] = ()  # the events of the stored moves no board has told yet (after announced_ply)

    @cached_property
    def state(self) -> dict[str, Any] | None:
        """The game's state as stored, decoded when first read: a request at a position already worked out
        (``tables.core.Situations``, by version) never decodes it, nor does a change's own answer."""
        return json.loads(self.state_text) if self.state_text else None

    def seat_of(self, user_id: int) -> SeatRow | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None


class Owed(NamedTuple):
    """What a table still owes its channel (the outbox rows not yet delivered, merged): the newest version owed,
    the moves the board must tell (``first_ply``..``last_ply``; an empty range when none), the notes on why it
    comes, and whether a board and/or the lobby card is owed."""

    table_id: int
    version: int
    first_ply: int
    last_ply: int
    note: str
    board: bool = True
    lobby: bool = False


@dataclass(frozen=True)
class MoveRow:
    ply: int
    seat: int
    notation: str
    events: list[str]
    created_at: float
    unnamed: bool = False  # it answered a question whose asking is secret: shown without its player while running


# One table with everything a request reads of it, in one statement: its seats (with each player's /notify mode),
# the ply of its last move, and the events of the moves no board has told yet. (Issue 26's PostgreSQL: json_agg and
# json_build_array in place of json_group_array and json_array.)
TABLES = (
    "SELECT t.*, "
    "(SELECT json_group_array(json_array(s.seat, s.user_id, s.name, s.bot, s.resigned, s.dm_open, s.acted_version, "
    "s.left_how, s.handed, COALESCE(p.notify, 'mention'))) "
    "FROM seats s LEFT JOIN players p ON p.user_id = s.user_id WHERE s.table_id = t.id) AS seat_rows, "
    "(SELECT COALESCE(MAX(m.ply), 0) FROM moves m WHERE m.table_id = t.id) AS last_ply, "
    "(SELECT json_group_array(json_array(m.ply, json(m.events))) FROM moves m "
    "WHERE m.table_id = t.id AND m.ply > t.announced_ply) AS untold "
    "FROM tables t"
)


_loads = json.loads
_set = object.__setattr__
_new = object.__new__
# the column names of TABLES, as sqlite3.Row.keys() lists them, → each column's index (one entry per schema)
_COLUMNS: dict[tuple[str, ...], dict[str, int]] = {}


def _frozen(cls: type[Any], fields: dict[str, Any]) -> Any:
    """An instance of the frozen dataclass ``cls`` whose attributes are ``fields`` (every field, in the fields'
    order, as ``cls(**fields)`` sets them one by one through ``object.__setattr__``)."""
    obj = _new(cls)
    _set(obj, "__dict__", fields)
    return obj


def _table_row(row: sqlite3.Row) -> TableRow:
    """A :data:`TABLES` row as a :class:`TableRow` (seats in seat order, untold events in ply order). Built as
    ``TableRow(...)`` and ``SeatRow(...)`` would build them, the same fields in the same order, without their
    ``__init__`` (one ``object.__setattr__`` per field) and with the columns taken by index rather than by name:
    a request reads its table once or twice, and this was half the CPU of a read (35 -> ~15 us)."""
    names = tuple(row.keys())
    at = _COLUMNS.get(names)
    if at is None:
        at = _COLUMNS[names] = {name: i for i, name in reversed(list(enumerate(names)))}  # (first of a name)
    v = tuple(row)
    seats = tuple(_frozen(SeatRow, {"seat": seat, "user_id": user_id, "name": name, "bot": bot,
                                    "resigned": resigned, "dm_open": bool(dm_open), "acted_version": acted,
                                    "left_how": left_how or "", "handed": bool(handed), "notify": notify})
                  for seat, user_id, name, bot, resigned, dm_open, acted, left_how, handed, notify
                  in sorted(_loads(v[at["seat_rows"]])))
    untold = tuple(e for _, events in sorted(_loads(v[at["untold"]])) for e in events)
    result = v[at["result"]]
    return _frozen(TableRow, {
        "id": v[at["id"]], "guild_id": v[at["guild_id"]], "channel_id": v[at["channel_id"]],
        "lobby_channel_id": v[at["lobby_channel_id"]], "lobby_message_id": v[at["lobby_message_id"]],
        "game": v[at["game"]], "options": _loads(v[at["options"]]), "status": v[at["status"]],
        "host_id": v[at["host_id"]], "seed": v[at["seed"]], "state_text": v[at["state"]],
        "version": v[at["version"]], "result": _loads(result) if result else None,
        "created_at": v[at["created_at"]], "updated_at": v[at["updated_at"]], "seats": seats,
        "announced_ply": v[at["announced_ply"]], "turn_seconds": v[at["turn_seconds"]],
        "on_timeout": v[at["on_timeout"]], "deadline": v[at["deadline"]], "remind_at": v[at["remind_at"]],
        "paused_left": v[at["paused_left"]], "answer_seconds": v[at["answer_seconds"]],
        "rated": bool(v[at["rated"]]), "started_at": v[at["started_at"]], "finished_at": v[at["finished_at"]],
        "tournament_id": v[at["tournament_id"]], "archive_at": v[at["archive_at"]], "last_ply": v[at["last_ply"]],
        "untold": untold,
    })


# a constraint refused (here: one open table per channel), on either backend
REFUSED = (sqlite3.IntegrityError, Refused)


def _migrations() -> list[tuple[int, str, str]]:
    """(number, name, sql) for every ``NNNN_name.sql`` in storage/migrations, in order."""
    out = []
    for entry in resources.files("storage.migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            out.append((int(name[:4]), name, entry.read_text(encoding="utf-8")))
    out.sort()
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(numbers) + 1)):
        raise StorageError(f"migrations must be numbered 1..n without gaps, found {numbers}")
    return out


class Database:
    """One connection (aiosqlite's, or asyncpg's behind :class:`~storage.postgres.PgConnection`); open with
    :meth:`open`, which applies migrations."""

    def __init__(self, conn: Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        self.postgres = isinstance(conn, PgConnection)
        # One connection serves every coroutine: the lock keeps one coroutine's reads out of
        # another's open transaction.
        self._lock = asyncio.Lock()
        self._closed = False
        self.records = RecordStore(self)  # results and ratings
        self.tournaments = TournamentStore(self)
        self.shards: Shards | None = None
        """The gateway shards this process runs (:mod:`storage.shards`): what runs from a timer or at start-up (the
        clock's time-outs and reminders, owed boards, the catch-up, archives, tournaments' deadlines) selects only the
        tables of their guilds. None: every table (one process)."""
        self.lease = CLAIM_LEASE
        # the claims this connection made that may still hold, by kind: each lease's end -> when it was claimed (let
        # go when the process closes in order: its restart, or another process, need not wait for the lease)
        self._held: dict[str, dict[float, float]] = {"clock": {}, "remind": {}, "owed": {}}

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """The database at ``path``: an SQLite file (made with its folder if new), or the PostgreSQL server and
        database a ``postgresql://`` URL names; migrated."""
        path = str(path)
        if is_url(path):
            pg = await PgConnection.connect(path)
            try:
                db = cls(pg, path)
                await db.migrate()
            except BaseException:
                pg.terminate()
                raise
            return db
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await _set_wal(conn)
            await run(conn, "PRAGMA synchronous=NORMAL")
            await run(conn, "PRAGMA foreign_keys=ON")
            await run(conn, "PRAGMA busy_timeout=5000")
            db = cls(conn, path)
            await db.migrate()
        except BaseException:
            await conn.close()  # an open connection's worker thread would keep the process alive
            raise
        return db

    async def close(self) -> None:
        """Close the connection, after letting go of the claims it still holds (:meth:`release_claims`); closing
        twice is harmless."""
        if self._closed:
            return
        self._closed = True
        try:
            if any(self._held.values()):
                await self.release_claims()
        except Exception:  # (a claim not let go holds until its lease runs out: later, not lost)
            log.warning("the clock's claims could not be let go on closing", exc_info=True)
        finally:
            await self._close()

    async def _close(self) -> None:
        if isinstance(self._conn, PgConnection):
            try:
                await self._conn.close()
            except BaseException:
                self._conn.terminate()
                raise
            return
        try:
            await self._conn.close()
        finally:
            # If close() was cancelled part-way (a shutdown that cancels pending work), still stop
            # aiosqlite's worker thread, which would otherwise keep the process from exiting.
            self._conn.stop()

    async def migrate(self) -> int:
        """Apply pending migrations; returns the schema version. (On PostgreSQL, each migration's statements in
        PostgreSQL's words, :func:`storage.postgres.schema_sql`, under the writer lock: processes starting together
        apply each migration once.)"""
        table = ("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                 "applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
        dialect = schema_sql if self.postgres else str
        if self.postgres:
            async with self.transaction() as conn:
                await run(conn, dialect(table))
        else:
            await run(self._conn, table)
        current = 0
        for number, name, sql in _migrations():
            # Read the version inside the write transaction: another process opening the same file at the
            # same moment may have applied this migration since we looked.
            async with self.transaction() as conn:
                async with conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
                    row = await cur.fetchone()
                current = row[0] if row else 0
                if number <= current:
                    continue
                for statement in _split_sql(sql):
                    await run(conn, dialect(statement))
                await run(conn, "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (number, name))
            current = number
        return current

    async def journal_mode(self) -> str:
        """SQLite's journal mode ('wal'); 'postgresql' on a PostgreSQL server (whose log is its own)."""
        if self.postgres:
            return "postgresql"
        async with self._reading() as conn, conn.execute("PRAGMA journal_mode") as cur:
            row = await cur.fetchone()
        return str(row[0]) if row else ""

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A transaction of several statements with Python between them: SQLite's ``BEGIN IMMEDIATE`` (one writer at
        a time); on PostgreSQL, ``BEGIN`` and the writer lock (:data:`storage.postgres.WRITER_LOCK`), since the rare
        callers (records, tournaments, migrations) read and then write as if no one else wrote in between."""
        async with self._lock:
            await run(self._conn, "BEGIN IMMEDIATE")
            try:
                if self.postgres:
                    await run(self._conn, "SELECT pg_advisory_xact_lock(?)", (WRITER_LOCK,))
                yield self._conn
            except BaseException:
                await rollback(self._conn)  # (none to roll back on a connection PostgreSQL dropped: the error stands)
                raise
            else:
                await run(self._conn, "COMMIT")

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield self._conn

    # --- reads ------------------------------------------------------------------------
    # A table is read in one statement (one round trip): its row, its seats (with how each seat's player wants to
    # hear of their turn), its last ply and the events no board has told yet, aggregated in subqueries.
    async def get_table(self, table_id: int) -> TableRow | None:
        return await self._one(f"{TABLES} WHERE t.id = ?", (table_id,))

    async def version_of(self, table_id: int) -> int | None:
        """The table's version alone (None: no such table): whether it changed, without reading its state."""
        async with self._reading() as conn:
            rows = await conn.execute_fetchall("SELECT version FROM tables WHERE id = ?", (table_id,))
        return next((r["version"] for r in rows), None)

    async def _one(self, sql: str, args: tuple[Any, ...]) -> TableRow | None:
        return next(iter(await self._many(sql, args)), None)

    async def _many(self, sql: str, args: Sequence[Any]) -> list[TableRow]:
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql, tuple(args))
        return [_table_row(r) for r in rows]

    async def open_table_in(self, channel_id: int) -> TableRow | None:
        """The lobby or game in progress in this channel or thread, if any."""
        return await self._one(f"{TABLES} WHERE t.channel_id = ? AND t.status IN ('lobby', 'active')", (channel_id,))

    async def latest_table_in(self, channel_id: int) -> TableRow | None:
        """The newest table in this channel, whatever its status."""
        return await self._one(f"{TABLES} WHERE t.channel_id = ? ORDER BY t.id DESC LIMIT 1", (channel_id,))

    async def table_here(self, channel_id: int, *, finished_ok: bool = False) -> TableRow | None:
        """The lobby or game in progress in this channel, or (``finished_ok``) else its newest table, in one read."""
        if not finished_ok:
            return await self.open_table_in(channel_id)
        return await self._one(f"{TABLES} WHERE t.id = COALESCE((SELECT id FROM tables WHERE channel_id = ? AND "
                               "status IN ('lobby', 'active')), (SELECT MAX(id) FROM tables WHERE channel_id = ?))",
                               (channel_id, channel_id))

    async def table_id_here(self, channel_id: int, *, finished_ok: bool = False) -> int | None:
        """The id alone of :meth:`table_here`'s table (a request that reads the table itself once it holds the
        table's lock)."""
        sql = "SELECT id FROM tables WHERE channel_id = ? AND status IN ('lobby', 'active')"
        if finished_ok:
            sql = f"SELECT COALESCE(({sql}), (SELECT MAX(id) FROM tables WHERE channel_id = ?)) AS id"
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql, (channel_id, channel_id) if finished_ok else (channel_id,))
        return next((r["id"] for r in rows if r["id"] is not None), None)

    async def tables_with_status(self, *statuses: str, after: int = 0, limit: int = -1) -> list[TableRow]:
        """The tables with one of ``statuses``, in id order, in one read; ``after`` and ``limit``: a batch of them
        (those after the table ``after``, at most ``limit``), so that a long walk never holds the database long."""
        marks = ",".join("?" for _ in statuses)
        return await self._many(f"{TABLES} WHERE t.status IN ({marks}) AND t.id > ? ORDER BY t.id LIMIT ?",
                                (*statuses, after, limit))

    async def tables_of_player(self, guild_id: int | None, user_id: int) -> list[TableRow]:
        """The lobbies and games in progress in ``guild_id`` (None: anywhere) where ``user_id`` holds a seat (not
        resigned)."""
        sql = (f"{TABLES} WHERE t.id IN (SELECT table_id FROM seats WHERE user_id = ? AND resigned = 0) "
               f"{'AND t.guild_id = ? ' if guild_id is not None else ''}AND t.status IN ('lobby', 'active') "
               "ORDER BY t.updated_at DESC")
        return await self._many(sql, (user_id, guild_id) if guild_id is not None else (user_id,))

    async def moves(self, table_id: int, last: int | None = None, *, plies: tuple[int, int] | None = None
                    ) -> list[MoveRow]:
        """The move log in order; only the ``last`` N moves when given, or those of ``plies`` (first, last)."""
        args: tuple[int, ...]
        if plies is not None:
            sql = "SELECT * FROM moves WHERE table_id = ? AND ply BETWEEN ? AND ? ORDER BY ply"
            args = (table_id, *plies)
        elif last is None:
            sql, args = "SELECT * FROM moves WHERE table_id = ? ORDER BY ply", (table_id,)
        else:
            sql = "SELECT * FROM (SELECT * FROM moves WHERE table_id = ? ORDER BY ply DESC LIMIT ?) AS m ORDER BY ply"
            args = (table_id, last)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql, args)
        return [MoveRow(r["ply"], r["seat"], r["notation"], json.loads(r["events"]), r["created_at"],
                        bool(r["unnamed"])) for r in rows]

    async def _write(self, todo: Sequence[Step]) -> list[list[Any]]:
        """A change without Python between its statements, in one transaction sent in one hop (:func:`steps`). A
        change of one plain statement is a transaction by itself (no ``BEGIN`` and ``COMMIT`` around it: on a
        server's database, they would be round trips of their own)."""
        alone = len(todo) == 1 and not todo[0].many and todo[0].guard is None
        async with self._lock:  # (no other transaction is open on the connection while it is held)
            return await steps(self._conn, todo, begin=not alone, commit=not alone)

    async def _change(self, table_id: int, todo: Sequence[Step], ended: float | None = None) -> TableRow:
        """Run ``todo`` and return the table's new row, in one transaction: one hop, unless the change ends the game
        (``ended``: when), whose results, ratings and tournament report are written in the same transaction."""
        new_row = Step(f"{TABLES} WHERE t.id = ?", (table_id,), fetch=True)
        if ended is None:
            return _table_row((await self._write([*todo, new_row]))[-1][0])
        # The change, what the game's results and ratings are worked out from, and whether it is a tournament's
        # game in one hop; the results, the ratings, when its thread is archived and the new row in a second one,
        # which commits (a tournament's game reports to its tournament in between).
        reads = settle_reads(table_id)
        if self.postgres:  # game ends one at a time, as on SQLite: results numbered in order, a round paired once
            todo = [Step("SELECT pg_advisory_xact_lock(?)", (WRITER_LOCK,), fetch=True), *todo]
        async with self._lock:
            conn = self._conn
            try:
                found = await steps(conn, [*todo, *reads, Step("SELECT 1 FROM tournament_tables WHERE table_id = ?",
                                                                (table_id,), fetch=True)], commit=False)
                if found[-1]:
                    await record_game(conn, table_id, ended)
                writes = settle_writes(found[len(todo):len(todo) + len(reads)], table_id, ended)
                archive = _archive_later(table_id, ended)
                return _table_row((await steps(conn, [*writes, archive, new_row], begin=False))[-1][0])
            except BaseException:
                await rollback(conn)
                raise

    # --- writes -----------------------------------------------------------------------
    async def create_table(self, *, guild_id: int | None, channel_id: int, game: str, options: dict[str, Any],
                           host_id: int, host_name: str, now: float, lobby_channel_id: int | None = None,
                           lobby_message_id: int | None = None, clock: tuple[int | None, str] | None = None,
                           answer_seconds: int | None = None, rated: bool = True,
                           tournament: tuple[int, int, int, int] | None = None,
                           seats: Sequence[tuple[int | None, str, str | None]] = ()) -> int:
        """A new lobby with the host in seat 0, its turn clock (``(seconds, on_timeout)``), answer time and whether
        the host wants it rated, and its lobby card owed (the outbox) until the card is posted; raises
        :class:`ChannelBusy`. ``tournament``: the (tournament, round, table, game) this table opens, claimed in the
        same transaction (:class:`StaleVersion` when it was opened already); ``seats``: every seat's (user, name, bot)
        at once (the host's alone by default)."""
        seconds, policy = clock or (None, "bot")
        insert = Step("INSERT INTO tables (guild_id, channel_id, lobby_channel_id, lobby_message_id, game, options, "
                      "status, host_id, created_at, updated_at, turn_seconds, on_timeout, answer_seconds, rated) "
                      "VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                      (guild_id, channel_id, lobby_channel_id, lobby_message_id, game, json.dumps(options), host_id,
                       now, now, seconds, policy, answer_seconds, int(rated)), fetch=True)
        try:
            async with self._lock:  # two hops in one transaction: the table (its id), then its seats and the rest
                conn = self._conn
                try:
                    table_id: int = (await steps(conn, [insert], commit=False))[0][0]["id"]
                    todo = [Step("INSERT INTO seats (table_id, seat, user_id, name, bot) VALUES (?, ?, ?, ?, ?)",
                                 [(table_id, i, uid, name, bot) for i, (uid, name, bot) in
                                  enumerate(seats or [(host_id, host_name, None)])], many=True)]
                    if tournament is not None:
                        todo += [Step("UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND round = ? "
                                      "AND number = ? AND game = ? AND table_id IS NULL", (table_id, *tournament),
                                      guard=StaleVersion(f"tournament game {tournament} is open already")),
                                 Step("UPDATE tables SET tournament_id = ? WHERE id = ?", (tournament[0], table_id))]
                    else:
                        todo.append(_owe(table_id, 0, now, board=False, lobby=True))
                    await steps(conn, todo, begin=False)
                except BaseException:
                    await rollback(conn)
                    raise
        except REFUSED as err:
            raise ChannelBusy("this channel already has a lobby or a game in progress") from err
        return table_id

    @staticmethod
    def _bump(table_id: int, version: int, now: float, sets: str = "", args: Iterable[Any] = ()) -> Step:
        """The versioned update every change of a table makes: the version check folded into the ``UPDATE`` (no row
        changed: :class:`StaleVersion`, and the whole transaction is rolled back)."""
        sql = f"UPDATE tables SET version = version + 1, updated_at = ?{', ' + sets if sets else ''} " \
              "WHERE id = ? AND version = ?"
        return Step(sql, (now, *args, table_id, version),
                    guard=StaleVersion(f"table {table_id} is no longer at version {version}"))

    async def set_seats(self, table_id: int, version: int, seats: list[tuple[int | None, str, str | None]],
                        now: float, host_id: int | None = None) -> TableRow:
        """Replace the lobby's seats with ``(user_id, name, bot)`` rows, in order (the lobby card owed); returns the
        new row."""
        return await self._change(table_id, [
            _owe(table_id, version + 1, now, board=False, lobby=True),
            self._bump(table_id, version, now) if host_id is None else
            self._bump(table_id, version, now, "host_id = ?", (host_id,)),
            Step("DELETE FROM seats WHERE table_id = ?", (table_id,)),
            Step("INSERT INTO seats (table_id, seat, user_id, name, bot) VALUES (?, ?, ?, ?, ?)",
                 [(table_id, i, uid, name, bot) for i, (uid, name, bot) in enumerate(seats)], many=True),
        ])

    async def replace_seat(self, table_id: int, version: int, seat: int, user_id: int | None, name: str,
                           bot: str | None, now: float, deadline: float | bool = False,
                           paused_left: float | bool = False, note: str = "") -> TableRow:
        """Give a seat of a game in progress to another person (or a bot); returns the new row. ``deadline`` or
        ``paused_left`` (unless False): the seat's turn starts again on the clock, running or paused. A board that
        opens with ``note`` is owed."""
        sets, args = "", list[Any]()
        if deadline is not False:
            sets, args = "deadline = ?, remind_at = ?", [deadline, _first_reminder(deadline, now)]
        elif paused_left is not False:
            sets, args = "paused_left = ?", [paused_left]
        todo = [_owe(table_id, version + 1, now, note=note), self._bump(table_id, version, now, sets, args)]
        if bot is not None:  # a person's seat handed to a bot: the rating rules want to know
            todo.append(Step("UPDATE seats SET handed = 1 WHERE table_id = ? AND seat = ? AND user_id IS NOT NULL",
                             (table_id, seat)))
        # a person given a seat plays it (even one whose player had left: it is theirs now); (the casts say the
        # parameters' type, which PostgreSQL must know)
        todo.append(Step("UPDATE seats SET user_id = ?, name = ?, bot = ?, dm_open = 1, "
                         "resigned = CASE WHEN CAST(? AS BIGINT) IS NULL THEN resigned ELSE 0 END, "
                         "left_how = CASE WHEN CAST(? AS BIGINT) IS NULL THEN left_how ELSE '' END "
                         "WHERE table_id = ? AND seat = ?",
                         (user_id, name, bot, user_id, user_id, table_id, seat)))
        return await self._change(table_id, todo)

    async def start(self, table_id: int, version: int, seed: int, state: dict[str, Any], now: float,
                    deadline: float | None = None, note: str = "") -> TableRow:
        """The lobby becomes a game: its first state, its first turn's ``deadline``, and what the start owes (the
        first board, opening with ``note``, and the lobby card saying the game is on), in one transaction."""
        return await self._change(table_id, [
            _owe(table_id, version + 1, now, note=note, lobby=True),
            self._bump(table_id, version, now, "status = 'active', seed = ?, state = ?, deadline = ?, remind_at = ?, "
                       "started_at = ?", (seed, json.dumps(state), deadline, _first_reminder(deadline, now), now)),
            # everyone is asked something new: controls made before the start are stale
            Step("UPDATE seats SET acted_version = ? WHERE table_id = ?", (version + 1, table_id)),
        ])

    async def record_moves(self, table_id: int, version: int, moves: list[tuple[int, int, str, list[str]]],
                           state: dict[str, Any], now: float, result: dict[str, Any] | None = None,
                           announce: bool = True, outbox: bool = False,
                           deadline: float | None | bool = False, asked: Sequence[int] = (), note: str = "",
                           paused_left: float | None | bool = False, unnamed: Collection[int] = ()) -> TableRow:
        """Store ``(ply, seat, notation, events)`` moves and the new state in one transaction; returns the new row.
        One round trip (its statements sent together), unless the game ends (its results and ratings are worked
        out in the same transaction).

        ``announce``: a board tells the channel about these moves (``announced_ply`` moves up to the last).
        ``outbox``: that board must be posted: an outbox row in the same transaction says so until it is, with the
        board's ``note`` (why it comes: a resignation, a clock run out).
        ``deadline``: the new turn deadline (None clears it; False keeps it); ``paused_left``: the same for a paused
        clock's time left. ``asked``: seats whose decision changed (their controls from before are stale, like those
        of the seats that moved)."""
        last = max((m[0] for m in moves), default=None)
        sets, args = "state = ?", list[Any]([json.dumps(state)])
        if result is not None:
            sets, args = sets + ", status = 'finished', result = ?", args + [json.dumps(result)]
        if announce and last is not None:
            sets, args = sets + ", announced_ply = ?", args + [last]
        if deadline is not False:
            sets, args = sets + ", deadline = ?, remind_at = ?", args + [deadline, _first_reminder(deadline, now)]
        if paused_left is not False:
            sets, args = sets + ", paused_left = ?", args + [paused_left]
        todo = []
        if outbox and last is not None:  # the board owes every move not told yet: also those stored unannounced
            # before (a person's move, stored before a bot thought), so the range starts after the last one told
            todo.append(_owe(table_id, version + 1, now, note=note, plies=(min(m[0] for m in moves), last)))
        todo.append(self._bump(table_id, version, now, sets, args))
        todo.append(Step("INSERT INTO moves (table_id, ply, seat, notation, events, created_at, unnamed) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(table_id, ply, seat, text, json.dumps(events), now, int(ply in unnamed))
                          for ply, seat, text, events in moves], many=True))
        acted = sorted({m[1] for m in moves} | set(asked))
        if acted:
            todo.append(Step(f"UPDATE seats SET acted_version = ? WHERE table_id = ? AND seat IN "
                             f"({','.join('?' for _ in acted)})", (version + 1, table_id, *acted)))
        # the game's results and ratings, in the transaction that ends it
        return await self._change(table_id, todo, ended=now if result is not None else None)

    async def undo_move(self, table_id: int, version: int, ply: int, state: dict[str, Any], now: float) -> TableRow:
        """Take back the move ``ply`` (the last): delete it and store the state before it, in one versioned
        transaction; returns the new row."""
        return await self._change(table_id, [
            self._bump(table_id, version, now, "state = ?, announced_ply = MIN(announced_ply, ?)",
                       (json.dumps(state), ply - 1)),
            Step("DELETE FROM moves WHERE table_id = ? AND ply = ?", (table_id, ply)),
        ])

    async def set_notify(self, user_id: int, notify: str, now: float) -> None:
        await self._write([Step("INSERT INTO players (user_id, notify, updated_at) VALUES (?, ?, ?) ON CONFLICT "
                                "(user_id) DO UPDATE SET notify = excluded.notify, updated_at = excluded.updated_at",
                                (user_id, notify, now))])

    async def set_away(self, user_id: int, until: float | None, now: float) -> None:
        await self._write([Step("INSERT INTO players (user_id, away_until, updated_at) VALUES (?, ?, ?) "
                                "ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until, "
                                "updated_at = excluded.updated_at", (user_id, until, now))])

    async def away_until(self, user_ids: list[int], now: float) -> dict[int, float]:
        """The players of ``user_ids`` on vacation now, with when it ends."""
        if not user_ids:
            return {}
        marks = ",".join("?" for _ in user_ids)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT user_id, away_until FROM players WHERE user_id IN ({marks}) AND away_until > ?",
                [*user_ids, now])
        return {r["user_id"]: r["away_until"] for r in rows}

    async def postpone(self, table_id: int, deadline: float, now: float) -> None:
        """Move a turn deadline (a player to act is away), with its reminders."""
        await self._write([Step("UPDATE tables SET deadline = ?, remind_at = ? WHERE id = ?",
                                (deadline, _first_reminder(deadline, now), table_id))])

    async def set_clock(self, table_id: int, turn_seconds: int | None, on_timeout: str) -> None:
        """A lobby's turn clock (not versioned: it changes no game state)."""
        await self._write([Step("UPDATE tables SET turn_seconds = ?, on_timeout = ? WHERE id = ?",
                                (turn_seconds, on_timeout, table_id))])

    async def set_answer_clock(self, table_id: int, seconds: int | None) -> None:
        """How long a lobby's answers owed outside one's turn wait (not versioned: it changes no game state)."""
        await self._write([Step("UPDATE tables SET answer_seconds = ? WHERE id = ?", (seconds, table_id))])

    async def reminders_due(self, now: float, limit: int = 100) -> list[int]:
        """Games whose next turn-clock reminder is due (an indexed query; a read: the clock claims them,
        :meth:`claim_reminders`)."""
        sql = f"SELECT id FROM tables WHERE {REMINDER_DUE} ORDER BY remind_at LIMIT ?"
        async with self._reading() as conn:
            return [r["id"] for r in await conn.execute_fetchall(sql, (now, limit))]

    def _hold(self, kind: str, until: float, now: float) -> None:
        """Note a claim of ``kind`` made at ``now`` until ``until`` (those whose lease has run out are forgotten)."""
        held = self._held[kind]
        for old in [u for u in held if u <= now]:
            del held[old]
        held[until] = now

    async def release_claims(self) -> None:
        """Let go of the claims this connection made whose lease has not run out, in one write (the bot closing in
        order: what its tick or sweep claimed and did not finish is free at once for its restart or another process).
        A time-out claim ends; an owed board's claim ends; a reminder claimed is due again from when it was
        claimed (one whose reminder was sent has moved on: its ``remind_at`` is no longer the claim's)."""
        clock, owed, remind = (sorted(self._held[k].items()) for k in ("clock", "owed", "remind"))
        todo = []
        if clock:
            todo.append(Step(f"UPDATE tables SET clock_until = NULL WHERE clock_until IN "
                             f"({','.join('?' for _ in clock)})", [u for u, _ in clock]))
        if owed:
            todo.append(Step(f"UPDATE tables SET owed_until = NULL WHERE owed_until IN "
                             f"({','.join('?' for _ in owed)})", [u for u, _ in owed]))
        todo += [Step("UPDATE tables SET remind_at = ? WHERE remind_at = ?", (at, until)) for until, at in remind]
        if todo:
            await self._write(todo)
        for held in self._held.values():
            held.clear()

    async def claim_reminders(self, now: float, limit: int = 100) -> tuple[list[int], float]:
        """:meth:`reminders_due` for the clock's tick: this process's tables (:attr:`shards`) whose reminder is due,
        claimed in one statement by moving their ``remind_at`` to the lease's end (returned with the ids): another
        process finds them not due; the reminder, once sent, sets the next one; a process that dies holding the
        claim lets go when the lease runs out (the reminder comes that late, or not at all once the deadline has
        passed). A table whose ``remind_at`` is no longer the claim's when it is read was changed by a move: the
        claim is void."""
        until = now + self.lease
        rows = (await self._write([Step(
            "UPDATE tables SET remind_at = ? WHERE remind_at IS NOT NULL AND remind_at <= ? AND id IN "
            f"(SELECT id FROM tables WHERE {REMINDER_DUE}{mine(self.shards)} ORDER BY remind_at LIMIT ?) RETURNING id",
            (until, now, now, limit), fetch=True)]))[0]
        if rows:
            self._hold("remind", until, now)
        return sorted(r["id"] for r in rows), until

    async def claim_owed(self, table_ids: Sequence[int], now: float) -> set[int]:
        """Of ``table_ids``, those whose owed boards this process now posts: still owed, and claimed by no other
        process (the claim lasts :attr:`lease` seconds; posting marks the rows delivered, and a process that dies
        meanwhile lets go when it runs out). One statement."""
        if not table_ids:
            return set()
        marks = ",".join("?" for _ in table_ids)
        rows = (await self._write([Step(
            f"UPDATE tables SET owed_until = ? WHERE id IN ({marks}) AND (owed_until IS NULL OR owed_until <= ?) "
            f"AND id IN (SELECT table_id FROM outbox WHERE delivered_at IS NULL AND table_id IN ({marks})) "
            "RETURNING id", (now + self.lease, *table_ids, now, *table_ids), fetch=True)]))[0]
        if rows:
            self._hold("owed", now + self.lease, now)
        return {r["id"] for r in rows}

    async def release_owed(self, table_ids: Sequence[int], now: float) -> None:
        """Let go of this process's claims (:meth:`claim_owed` at ``now``) on ``table_ids``' owed boards once their
        page is delivered, or refused: a board the table owes later (one Discord refuses) is the next sweep's at once,
        not after the lease. One statement; a claim made since by another process is not this one's."""
        if table_ids:
            marks = ",".join("?" for _ in table_ids)
            await self._write([Step(f"UPDATE tables SET owed_until = NULL WHERE id IN ({marks}) AND owed_until = ?",
                                    (*table_ids, now + self.lease))])

    async def set_remind_at(self, table_id: int, remind_at: float | None) -> None:
        await self._write([Step("UPDATE tables SET remind_at = ? WHERE id = ?", (remind_at, table_id))])

    async def pause_clock(self, table_id: int, now: float) -> TableRow:
        """Stop the turn clock, keeping the time left; returns the new row."""
        return await self._change(table_id, [
            Step("UPDATE tables SET paused_left = MAX(0, deadline - ?), deadline = NULL, remind_at = NULL "
                 "WHERE id = ? AND deadline IS NOT NULL", (now, table_id))])

    async def resume_clock(self, table_id: int, now: float) -> TableRow:
        """Start a paused turn clock again with the time it had left (its reminder half way, as
        :func:`_first_reminder` puts it); returns the new row."""
        return await self._change(table_id, [
            Step("UPDATE tables SET deadline = ? + paused_left, remind_at = ? + paused_left / 2.0, paused_left = NULL "
                 "WHERE id = ? AND paused_left IS NOT NULL", (now, now, table_id)),
        ])

    async def _guild_number(self, guild_id: int | None, column: str, default: int) -> int:
        """One of a server's numeric settings (``column`` is ours, never user text), or its default."""
        if guild_id is None:
            return default
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(f"SELECT {column} FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return next((r[column] for r in rows), default)

    async def away_days(self, guild_id: int | None) -> int:
        return await self._guild_number(guild_id, "away_days", 14)

    async def set_away_days(self, guild_id: int, days: int, now: float) -> None:
        await self._write([Step("INSERT INTO guild_settings (guild_id, away_days, updated_at) VALUES (?, ?, ?) "
                                "ON CONFLICT (guild_id) DO UPDATE SET away_days = excluded.away_days, "
                                "updated_at = excluded.updated_at", (guild_id, days, now))])

    async def reminders_per_day(self, guild_id: int | None) -> int:
        return await self._guild_number(guild_id, "reminders_per_day", 3)

    async def take_reminder(self, user_id: int, day: int, cap: int, now: float) -> bool:
        """Count one reminder for ``user_id`` on ``day``; False (and nothing counted) when the cap is reached. One
        statement: the count goes up only while under the cap (a new day starts again at one)."""
        if cap <= 0:
            return False
        rows = await self._write([Step(
            "INSERT INTO players (user_id, reminder_day, reminders_sent, updated_at) VALUES (?, ?, 1, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET reminders_sent = CASE WHEN players.reminder_day = "
            "excluded.reminder_day THEN players.reminders_sent + 1 ELSE 1 END, reminder_day = excluded.reminder_day "
            "WHERE players.reminder_day IS NOT excluded.reminder_day OR players.reminders_sent < ? RETURNING user_id",
            (user_id, day, now, cap), fetch=True)])
        return bool(rows[0])

    async def guild_settings(self, guild_id: int | None) -> tuple[int | None, str, int]:
        """A server's (default turn clock, timeout policy, archive hours); the defaults when it set none: a day's
        turn clock, then a bot plays the turn, so that no game waits for ever unless someone chose that."""
        if guild_id is None:
            return DEFAULT_CLOCK, "bot", ARCHIVE_HOURS
        async with self._reading() as conn:
            rows = await conn.execute_fetchall("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        row = next(iter(rows), None)
        if row is None:
            return DEFAULT_CLOCK, "bot", ARCHIVE_HOURS
        clock = row["clock_seconds"] if row["clock_set"] else DEFAULT_CLOCK  # a row another setting made
        return clock, row["on_timeout"], row["archive_hours"]

    async def set_guild_settings(self, guild_id: int, clock_seconds: int | None, on_timeout: str,
                                 archive_hours: int, now: float, reminders_per_day: int = 3) -> None:
        await self._write([Step("INSERT INTO guild_settings (guild_id, clock_seconds, clock_set, on_timeout, "
                                "archive_hours, reminders_per_day, updated_at) VALUES (?, ?, 1, ?, ?, ?, ?) "
                                "ON CONFLICT (guild_id) DO UPDATE "
                                "SET clock_seconds = excluded.clock_seconds, clock_set = 1, "
                                "on_timeout = excluded.on_timeout, archive_hours = excluded.archive_hours, "
                                "reminders_per_day = excluded.reminders_per_day, updated_at = excluded.updated_at",
                                (guild_id, clock_seconds, on_timeout, archive_hours, reminders_per_day, now))])

    async def organiser_role(self, guild_id: int | None) -> int | None:
        """The role whose members may run tournaments in a server (besides Manage Server), if it named one."""
        if guild_id is None:
            return None
        async with self._reading() as conn:
            rows = await conn.execute_fetchall("SELECT organiser_role FROM guild_settings WHERE guild_id = ?",
                                               (guild_id,))
        return next((r["organiser_role"] for r in rows), None)

    async def set_organiser_role(self, guild_id: int, role_id: int | None, now: float) -> None:
        await self._write([Step("INSERT INTO guild_settings (guild_id, organiser_role, updated_at) VALUES (?, ?, ?) "
                                "ON CONFLICT (guild_id) DO UPDATE SET organiser_role = excluded.organiser_role, "
                                "updated_at = excluded.updated_at", (guild_id, role_id, now))])

    async def rematch_of(self, table_id: int) -> int | None:
        """The rematch lobby or game opened for finished table ``table_id``, if any (not cancelled)."""
        async with self._reading() as conn:
            rows = await conn.execute_fetchall("SELECT id FROM tables WHERE rematch_of = ? AND status != 'cancelled'",
                                               (table_id,))
        return next((r["id"] for r in rows), None)

    async def set_rematch_of(self, table_id: int, old_id: int) -> None:
        await self._write([Step("UPDATE tables SET rematch_of = ? WHERE id = ?", (old_id, table_id))])

    async def archive_later(self, table_id: int, now: float) -> None:
        """A finished game's thread is archived after its server's archive hours (:data:`ARCHIVE_HOURS` unless set),
        in one write."""
        await self._write([_archive_later(table_id, now)])

    async def archives_due(self, now: float, limit: int = 100) -> list[tuple[int, int]]:
        """(table, channel) of finished games whose thread is due to be archived, and clears them."""
        # one statement, which claims what it returns: two processes never both archive a thread (PostgreSQL checks
        # archive_at again on each row it locks)
        found = (await self._write([
            Step("UPDATE tables SET archive_at = NULL WHERE archive_at IS NOT NULL AND archive_at <= ? AND id IN "
                 f"(SELECT id FROM tables WHERE archive_at IS NOT NULL AND archive_at <= ?{mine(self.shards)} "
                 "ORDER BY archive_at LIMIT ?) RETURNING id, channel_id", (now, now, limit), fetch=True),
        ]))[0]
        return sorted((r["id"], r["channel_id"]) for r in found)

    async def due(self, now: float, limit: int = 100) -> list[int]:
        """Games whose turn deadline has passed, the most overdue first (an indexed query; a read: the clock claims
        them, :meth:`claim_due`)."""
        sql = f"SELECT id FROM tables WHERE {DEADLINE_DUE} ORDER BY deadline LIMIT ?"
        async with self._reading() as conn:
            return [r["id"] for r in await conn.execute_fetchall(sql, (now, limit))]

    async def claim_due(self, now: float, limit: int = 100) -> list[int]:
        """:meth:`due` for the clock's tick: this process's tables (:attr:`shards`) whose deadline has passed and
        that no other process is timing out, each claimed for :attr:`lease` seconds, in one statement (most overdue
        first). The claim names the deadline it was made for: the time-out moves the deadline and so ends the claim
        without a write of its own; a process that dies holding one lets go when the lease runs out. (PostgreSQL
        checks the conditions again on each row it locks: of two processes claiming at once, one gets the row.)"""
        free = "(clock_until IS NULL OR clock_until <= ? OR clock_claim IS NOT deadline)"
        rows = (await self._write([Step(
            f"UPDATE tables SET clock_claim = deadline, clock_until = ? WHERE {DEADLINE_DUE} AND {free} AND id IN "
            f"(SELECT id FROM tables WHERE {DEADLINE_DUE} AND {free}{mine(self.shards)} ORDER BY deadline LIMIT ?) "
            "RETURNING id, deadline", (now + self.lease, now, now, now, now, limit), fetch=True)]))[0]
        if rows:
            self._hold("clock", now + self.lease, now)
        return [r["id"] for r in sorted(rows, key=lambda r: (r["deadline"], r["id"]))]

    async def delivered(self, table_id: int, version: int, now: float, board_message_id: int | None = None, *,
                        board: bool = True, lobby: bool = True) -> int | None:
        """What ``table_id`` owed at ``version`` is posted: it covers every older undelivered row too. ``board``
        and ``lobby`` say which parts were posted: a row owing the other part too stays owed for that part alone.
        With ``board_message_id``, that is the table's newest board now (as :meth:`swap_board_message`, in the
        same write): the one it replaces is returned. One round trip."""
        # a row is delivered once neither part is owed any more (SET's expressions read the row as it was; the
        # comparisons and the cast say the parameters' types, which PostgreSQL must know)
        todo = [Step("UPDATE outbox SET board = CASE WHEN ? = 1 THEN 0 ELSE board END, "
                     "lobby = CASE WHEN ? = 1 THEN 0 ELSE lobby END, "
                     "delivered_at = CASE WHEN (? = 1 OR board = 0) AND (? = 1 OR lobby = 0) "
                     "THEN CAST(? AS DOUBLE PRECISION) END "
                     "WHERE table_id = ? AND version <= ? AND delivered_at IS NULL",
                     (int(board), int(lobby), int(board), int(lobby), now, table_id, version))]
        if board_message_id is not None:
            todo += _swap_board(table_id, board_message_id)
        rows = await self._write(todo)
        return _board_before(rows[1]) if board_message_id is not None else None

    async def owed(self, table_id: int) -> Owed | None:
        """What one table still owes (as :meth:`undelivered`), if anything."""
        return next(iter(await self.undelivered(table_id=table_id)), None)

    async def undelivered(self, between: tuple[float, float] | None = None, *, table_id: int | None = None,
                          after: int = 0, limit: int = -1, owned: bool = False) -> list[Owed]:
        """What is still owed, one :class:`Owed` per table in table order, over its rows: the newest version, the
        moves to tell, the notes, and whether a board or the lobby card is owed. With ``between=(oldest, newest)``,
        only tables whose latest owed row was committed in that time span; with ``table_id``, that table only;
        ``after`` and ``limit``: a page of them (the tables after table ``after``, at most ``limit``); ``owned``: only
        the tables of this process's shards (:attr:`shards`)."""
        owner = mine(self.shards, "t.guild_id") if owned else ""
        sql = ("SELECT table_id, MAX(version) AS version, MIN(first_ply) AS first_ply, MAX(last_ply) AS last_ply, "
               "GROUP_CONCAT(NULLIF(note, ''), ' ') AS notes, MAX(board) AS board, MAX(lobby) AS lobby "
               "FROM outbox WHERE delivered_at IS NULL AND table_id > ? "
               + (f"AND EXISTS (SELECT 1 FROM tables t WHERE t.id = outbox.table_id{owner}) " if owner else "")
               + ("AND table_id = ? " if table_id is not None else "") + "GROUP BY table_id "
               + ("HAVING MAX(created_at) BETWEEN ? AND ? " if between is not None else "")
               + "ORDER BY table_id LIMIT ?")
        args = (after,) + ((table_id,) if table_id is not None else ()) + (between or ()) + (limit,)
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(sql, args)
        return [Owed(r["table_id"], r["version"], r["first_ply"], r["last_ply"], r["notes"] or "", bool(r["board"]),
                     bool(r["lobby"])) for r in rows]

    async def resign(self, table_id: int, version: int, seat: int | Sequence[int], now: float,
                     result: dict[str, Any] | None = None, how: str = "resigned", note: str | None = None) -> TableRow:
        """A player leaves a game in progress (``how``: 'resigned', 'removed' or 'forfeit'), or several at once in
        this order (players whose clock ran out together); ``result``: it ends. ``note``: a board that opens with
        it is owed (None: the caller owes it with a later write)."""
        seats = [seat] if isinstance(seat, int) else list(seat)
        todo = [] if note is None else [_owe(table_id, version + 1, now, note=note)]
        if result is None:
            todo.append(self._bump(table_id, version, now))
        else:
            todo.append(self._bump(table_id, version, now, "status = 'finished', result = ?", (json.dumps(result),)))
        todo += [Step("UPDATE seats SET left_how = ?, resigned = 1 + (SELECT MAX(resigned) FROM seats WHERE "
                      "table_id = ?) WHERE table_id = ? AND seat = ?", (how, table_id, table_id, one))
                 for one in seats]
        return await self._change(table_id, todo, ended=now if result is not None else None)

    async def end_game(self, table_id: int, version: int, result: dict[str, Any], now: float, note: str) -> TableRow:
        """A game in progress ends as it stands (its tournament's round ran out of time): its ``result``, its results
        and ratings, its tournament's report, and a board opening with ``note`` owed, in one transaction."""
        return await self._change(table_id, [
            _owe(table_id, version + 1, now, note=note),
            self._bump(table_id, version, now, "status = 'finished', result = ?", (json.dumps(result),)),
        ], ended=now)

    async def set_options(self, table_id: int, version: int, options: dict[str, Any], now: float,
                          clock: tuple[int | None, str] | None = None, answer_seconds: int | None = None,
                          rated: bool | None = None) -> TableRow:
        """New resolved options for a lobby, and its turn clock (``(seconds, on_timeout)``) and answer time unless
        None (the lobby card owed); returns the new row."""
        sets, args = "options = ?", list[Any]([json.dumps(options)])
        if clock is not None:
            sets, args = sets + ", turn_seconds = ?, on_timeout = ?", [*args, *clock]
        if answer_seconds is not None:
            sets, args = sets + ", answer_seconds = ?", [*args, answer_seconds]
        if rated is not None:
            sets, args = sets + ", rated = ?", [*args, int(rated)]
        return await self._change(table_id, [_owe(table_id, version + 1, now, board=False, lobby=True),
                                             self._bump(table_id, version, now, sets, args)])

    async def cancel(self, table_id: int, version: int, now: float, note: str = "") -> TableRow:
        """The lobby or game is cancelled: its notice (``note``) and lobby card are owed; returns the new row."""
        return await self._change(table_id, [_owe(table_id, version + 1, now, note=note, lobby=True),
                                             self._bump(table_id, version, now, "status = 'cancelled'")])

    async def set_lobby_message(self, table_id: int, channel_id: int, message_id: int) -> None:
        await self._write([Step("UPDATE tables SET lobby_channel_id = ?, lobby_message_id = ? WHERE id = ?",
                                (channel_id, message_id, table_id))])

    async def swap_board_message(self, table_id: int, message_id: int) -> int | None:
        """Record the table's newest board message; returns the one it replaces (not versioned: no game state)."""
        return _board_before((await self._write(_swap_board(table_id, message_id)))[0])

    async def status_message(self, table_id: int, turn: int) -> int | None:
        """The table's status message for ``turn``, if one was posted (None for another turn's)."""
        async with self._reading() as conn:
            rows = await conn.execute_fetchall("SELECT status_message_id FROM tables WHERE id = ? AND status_turn = ?",
                                               (table_id, turn))
        return next((r["status_message_id"] for r in rows), None)

    async def set_status_message(self, table_id: int, turn: int, message_id: int) -> None:
        """Record the status message of ``turn`` (not versioned: it changes no game state)."""
        await self._write([Step("UPDATE tables SET status_message_id = ?, status_turn = ? WHERE id = ?",
                                (message_id, turn, table_id))])

    async def set_dm_open(self, table_id: int, user_id: int, is_open: bool) -> bool:
        """Remember whether DMs reach a player (not versioned: it changes no game state); True when that changed
        (a seat of the player's said otherwise), in one round trip."""
        rows = await self._write([Step("UPDATE seats SET dm_open = ? WHERE table_id = ? AND user_id = ? AND "
                                       "dm_open != ? RETURNING seat", (int(is_open), table_id, user_id, int(is_open)),
                                       fetch=True)])
        return bool(rows[0])


def _archive_later(table_id: int, now: float) -> Step:
    """The table's thread is due to be archived after its server's archive hours (24 unless set)."""
    return Step("UPDATE tables SET archive_at = ? + 3600.0 * COALESCE((SELECT g.archive_hours FROM guild_settings g "
                "WHERE g.guild_id = tables.guild_id), ?) WHERE id = ?", (now, ARCHIVE_HOURS, table_id))


def _swap_board(table_id: int, message_id: int) -> list[Step]:
    """The table's newest board message is ``message_id``: the one it replaces is read first (:func:`_board_before`
    of the first step's rows)."""
    return [Step("SELECT board_message_id FROM tables WHERE id = ?", (table_id,), fetch=True),
            Step("UPDATE tables SET board_message_id = ? WHERE id = ?", (message_id, table_id))]


def _board_before(rows: Sequence[Any]) -> int | None:
    return next((r["board_message_id"] for r in rows), None)


def _owe(table_id: int, version: int, now: float, *, note: str = "", board: bool = True, lobby: bool = False,
         plies: tuple[int, int] | None = None) -> Step:
    """An outbox row, in the caller's transaction: the table at ``version`` owes its channel a board telling the
    moves ``plies`` (first, last) and every earlier one not told yet, opening with ``note`` (``board``), and/or its
    lobby card (``lobby``), until :meth:`Database.delivered` says they are posted. (Before the table's update: it
    reads the ply the table's last board told.)"""
    first, last = plies or (None, None)
    return Step("INSERT INTO outbox (table_id, version, first_ply, last_ply, created_at, note, board, lobby) "
                "SELECT id, ?, MIN(announced_ply + 1, COALESCE(?, announced_ply + 1)), COALESCE(?, announced_ply), "
                "?, ?, ?, ? * (tournament_id IS NULL) FROM tables WHERE id = ?",  # (a tournament's game: no lobby card)
                (version, first, last, now, note, int(board), int(lobby), table_id))


def _first_reminder(deadline: float | None, now: float) -> float | None:
    """Half way to ``deadline`` (None without one)."""
    return None if deadline is None else now + (deadline - now) / 2


def next_reminder(deadline: float, now: float) -> float | None:
    """After the half-time reminder, one more near the end (a tenth of the time left, at least 5 minutes before
    the deadline); None when that moment has passed too."""
    at = deadline - max(300.0, (deadline - now) / 5)
    return at if at > now else None


async def _set_wal(conn: aiosqlite.Connection, attempts: int = 100) -> None:
    """Switch to WAL. SQLite answers "database is locked" at once, without the busy handler, while another
    connection is switching the same fresh file, so retry for a few seconds."""
    for attempt in range(attempts):
        try:
            await run(conn, "PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or attempt == attempts - 1:
                raise
            await asyncio.sleep(0.05)


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (our migrations keep ';' out of strings and comments)."""
    lines = [line.split("--", 1)[0] for line in script.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
