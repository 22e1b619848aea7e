"""PostgreSQL as the second storage backend (issue 26), through asyncpg, behind the same calls storage's modules
make on aiosqlite: a :class:`PgConnection` answers ``execute`` (a cursor: ``fetchone``/``fetchall``/``rowcount``),
``execute_fetchall``, ``executemany`` and :func:`storage.sql.steps`'s change in one transaction, and its rows are
asyncpg's ``Record`` (by name and by index, as ``sqlite3.Row``).

Why asyncpg: the fastest of the well-kept async drivers (binary protocol, statements prepared and cached per
connection, written for asyncio rather than wrapping a blocking driver), with its own pool for the processes that
will need one. No ORM: storage's SQL is small, plain and already written.

**The SQL stays SQLite's** (storage's modules and the numbered migrations are the one source); each statement is
translated once for PostgreSQL and the translation cached (:func:`query_sql`, :func:`schema_sql`), so the SQLite
path runs exactly as before. The translation, word by word (each tested in tests/storage/test_pg_dialect.py):

* ``?`` placeholders become ``$1``, ``$2``… in order (outside quoted text);
* ``BEGIN IMMEDIATE`` becomes ``BEGIN``: PostgreSQL takes row locks as a transaction writes, and the versioned
  ``UPDATE … WHERE version = ?`` of a change waits for another transaction's update of the same row, then finds the
  version moved and changes nothing (:class:`~storage.db.StaleVersion`), as SQLite's writer lock made it do;
* ``INSERT OR IGNORE INTO …`` becomes ``INSERT INTO … ON CONFLICT DO NOTHING``;
* ``a IS NOT b`` (b not ``NULL``) becomes ``a IS DISTINCT FROM b``;
* SQLite's scalar ``MIN(a, b)`` / ``MAX(a, b)`` (two or more arguments) become ``LEAST`` / ``GREATEST``;
* ``LIMIT ?`` becomes ``LIMIT NULLIF(?, -1)`` (SQLite's ``LIMIT -1`` is "no limit"; PostgreSQL's is ``NULL``);
* a few whole fragments with no word-for-word equivalent (:data:`FRAGMENTS`): the JSON aggregates of the table read
  (``json_group_array``/``json_array``/``json()`` → ``json_agg``/``json_build_array``/``::json``; asyncpg hands
  ``json`` back as text, decoded as SQLite's), ``GROUP_CONCAT`` in row order, a boolean used as a number.

In the migrations (:func:`schema_sql`): ``INTEGER`` becomes ``BIGINT`` (Discord's ids are 64-bit), ``REAL`` becomes
``DOUBLE PRECISION`` (SQLite's REAL is 8 bytes; PostgreSQL's is 4), and an ``INTEGER PRIMARY KEY`` named ``id``
(SQLite's rowid, numbered when omitted; ``AUTOINCREMENT`` or not) a ``BIGINT`` identity. Booleans stay 0/1 numbers
on both. Errors: a constraint PostgreSQL refuses (asyncpg's ``IntegrityConstraintViolationError``: a unique index, a
foreign key, a check) is raised as :class:`Refused`, caught with ``sqlite3.IntegrityError``
(:data:`storage.db.REFUSED`). asyncpg is imported when a PostgreSQL database is first opened: an SQLite bot never
loads it (~4 MB and ~35 ms of CPU at start-up).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage.sql import Step

SCHEMES = ("postgresql://", "postgres://")
# Serialises what SQLite's single writer serialised and a row lock does not: the migrations, a game's end (its
# results are numbered after the last game's: MAX(seq) + 1; a tournament's round is paired once) and the rare
# multi-statement transactions of storage.records and storage.tournaments. An advisory lock held to the
# transaction's end (pg_advisory_xact_lock), keyed by this number.
WRITER_LOCK = 0x426C6F63  # "Bloc"
STATEMENT_CACHE = 512  # statements asyncpg keeps prepared per connection (storage has ~150 distinct ones)


class Refused(Exception):
    """PostgreSQL refused a change for a constraint (a unique index, a foreign key, a check): SQLite's
    ``IntegrityError``. The driver's own error is its ``__cause__``."""


def is_url(path: str) -> bool:
    """Whether a database setting names a PostgreSQL server (else it is an SQLite file)."""
    return path.startswith(SCHEMES)


_PASSWORD = re.compile(r"^(\w+://[^:/@?#]*):[^/?#]*@")


def shown(path: str) -> str:
    """A database setting as a log may show it: a URL's password masked."""
    return _PASSWORD.sub(r"\1:***@", path)


# --- translation ----------------------------------------------------------------------------------------------------

# Whole fragments of storage's SQL with no word-for-word equivalent, SQLite's → PostgreSQL's (each must occur in
# some statement: tests/storage/test_pg_dialect.py checks it, so a fragment changed on one side is noticed).
FRAGMENTS: dict[str, str] = {
    # storage.db.TABLES: a table's seats and untold moves as JSON arrays (json_agg of no rows is NULL: '[]')
    "(SELECT json_group_array(json_array(s.seat, s.user_id, s.name, s.bot, s.resigned, s.dm_open, s.acted_version, "
    "s.left_how, s.handed, COALESCE(p.notify, 'mention')))":
    "(SELECT COALESCE(json_agg(json_build_array(s.seat, s.user_id, s.name, s.bot, s.resigned, s.dm_open, "
    "s.acted_version, s.left_how, s.handed, COALESCE(p.notify, 'mention'))), '[]'::json)",
    "(SELECT json_group_array(json_array(m.ply, json(m.events))) FROM moves m":
    "(SELECT COALESCE(json_agg(json_build_array(m.ply, m.events::json)), '[]'::json) FROM moves m",
    # storage.db.Database.undelivered: the notes in the order they were owed (SQLite's scan is in rowid order)
    "GROUP_CONCAT(NULLIF(note, ''), ' ')": "string_agg(NULLIF(note, ''), ' ' ORDER BY id)",
    # storage.db._owe: a lobby card is owed unless the table is a tournament's (a comparison is 0/1 in SQLite)
    "? * (tournament_id IS NULL)": "? * (tournament_id IS NULL)::int",
}

_QUOTED = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"")  # a string literal or a quoted name: never rewritten
_QUOTED_OR_MARK = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\?")
_RETURNING = re.compile(r"\bRETURNING\b", re.IGNORECASE)
_UNTRANSLATED = re.compile(r"^\s*(INSERT\s+OR\s+(REPLACE|ABORT|FAIL|ROLLBACK)|REPLACE\s+INTO)\b", re.IGNORECASE)
_IS_NOT = re.compile(r"\bIS NOT (?!NULL\b)", re.IGNORECASE)
_OR_IGNORE = re.compile(r"^\s*INSERT OR IGNORE INTO\b", re.IGNORECASE)
_LIMIT = re.compile(r"\bLIMIT \?", re.IGNORECASE)
_MIN_MAX = re.compile(r"\b(MIN|MAX)\(", re.IGNORECASE)


def _outside_quotes(sql: str, rewrite: Callable[[str], str]) -> str:
    """``sql`` with ``rewrite`` applied to each stretch outside string literals and quoted names, in order."""
    out, at = [], 0
    for m in _QUOTED.finditer(sql):
        out += [rewrite(sql[at:m.start()]), m.group(0)]
        at = m.end()
    return "".join([*out, rewrite(sql[at:])])


def _scalar_min_max(sql: str) -> str:
    """SQLite's scalar ``MIN(a, b, …)``/``MAX(a, b, …)`` → ``LEAST``/``GREATEST`` (the one-argument aggregates
    stay)."""
    out, at = [], 0
    for m in _MIN_MAX.finditer(sql):
        if m.start() < at:
            continue
        depth, i, comma = 1, m.end(), False
        while i < len(sql) and depth:
            c = sql[i]
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == "," and depth == 1:
                comma = True
            elif c == "'":  # skip a quoted string
                i = sql.index("'", i + 1)
            i += 1
        if comma:
            out += [sql[at:m.start()], "LEAST(" if m.group(1).upper() == "MIN" else "GREATEST("]
            at = m.end()
    return "".join(out) + sql[at:]


@lru_cache(maxsize=4096)
def query_sql(sql: str) -> str:
    """A statement of storage's (SQLite's dialect) as PostgreSQL runs it; translated once per distinct text."""
    for sqlite_words, pg_words in FRAGMENTS.items():
        if sqlite_words in sql:
            sql = sql.replace(sqlite_words, pg_words)
    if sql.strip().upper() == "BEGIN IMMEDIATE":
        return "BEGIN"
    if _UNTRANSLATED.match(sql):
        raise ValueError(f"no PostgreSQL translation for {' '.join(sql.split()[:3])!r}: write the conflict as "
                         "INSERT … ON CONFLICT (…) DO UPDATE, which both databases run")
    if _OR_IGNORE.match(sql):
        sql = _OR_IGNORE.sub("INSERT INTO", sql)
        placed = False

        def before_returning(part: str) -> str:  # PostgreSQL's conflict clause comes before RETURNING
            nonlocal placed
            if placed:
                return part
            part, n = _RETURNING.subn("ON CONFLICT DO NOTHING RETURNING", part, count=1)
            placed = bool(n)
            return part

        sql = _outside_quotes(sql, before_returning)
        if not placed:
            sql += " ON CONFLICT DO NOTHING"
    sql = _outside_quotes(sql, lambda part: _LIMIT.sub("LIMIT NULLIF(?, -1)", _IS_NOT.sub("IS DISTINCT FROM ", part)))
    sql = _scalar_min_max(sql)
    number = 0

    def mark(m: re.Match[str]) -> str:
        nonlocal number
        if m.group(0) != "?":
            return m.group(0)
        number += 1
        return f"${number}"

    return _QUOTED_OR_MARK.sub(mark, sql)


_ROWID = re.compile(r"\bid\s+INTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b", re.IGNORECASE)
_INTEGER = re.compile(r"\bINTEGER\b", re.IGNORECASE)
_REAL = re.compile(r"\bREAL\b", re.IGNORECASE)


def schema_sql(statement: str) -> str:
    """A migration's statement (SQLite's words) as PostgreSQL runs it: 64-bit integers, 8-byte floats, the ``id``
    rowids as identities; then as :func:`query_sql` (its ``?``, if any)."""
    statement = _ROWID.sub("id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", statement)
    statement = _INTEGER.sub("BIGINT", statement)
    statement = _REAL.sub("DOUBLE PRECISION", statement)
    return query_sql(statement)


# --- the connection ---------------------------------------------------------------------------------------------

Record = Any  # asyncpg.Record: by name and by index (asyncpg ships no type information)


def _driver() -> Any:
    """asyncpg, imported when first needed."""
    import asyncpg  # type: ignore[import-untyped]

    return asyncpg


def _count(status: bytes | str | None) -> int:
    """The rows a statement changed or returned, from its command tag (``UPDATE 3``, ``INSERT 0 1``); -1 unknown."""
    if not status:
        return -1
    word = (status.decode() if isinstance(status, bytes) else status).rsplit(" ", 1)[-1]
    return int(word) if word.isdigit() else -1


class PgCursor:
    """What one statement gave: its rows (all fetched at once) and how many it changed."""

    def __init__(self, rows: list[Record], rowcount: int) -> None:
        self._rows = rows
        self._at = 0
        self.rowcount = rowcount
        self.lastrowid = None  # (storage reads new ids with RETURNING on both backends)

    async def fetchone(self) -> Record | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    async def fetchall(self) -> list[Record]:
        rows, self._at = self._rows[self._at:], len(self._rows)
        return rows

    async def close(self) -> None:
        self._rows = []


class _Executing:
    """``conn.execute(...)``: awaited, the cursor; or ``async with conn.execute(...) as cur`` (aiosqlite's two
    forms)."""

    def __init__(self, conn: PgConnection, sql: str, args: Sequence[Any]) -> None:
        self._conn, self._sql, self._args = conn, sql, args
        self._cursor: PgCursor | None = None

    def __await__(self) -> Any:
        return self._conn._cursor(self._sql, self._args).__await__()

    async def __aenter__(self) -> PgCursor:
        self._cursor = await self._conn._cursor(self._sql, self._args)
        return self._cursor

    async def __aexit__(self, kind: type[BaseException] | None, err: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self._cursor is not None:
            await self._cursor.close()


COMMAND_TIMEOUT = 30.0  # seconds a statement may take before it fails (a half-open connection hangs no request)
SERVER_SETTINGS = {
    "idle_in_transaction_session_timeout": "60000",  # ms: a session stuck inside a transaction lets its locks go
    "lock_timeout": "30000",  # ms: waiting for a row or the writer lock fails rather than hangs
}


async def _open(url: str) -> Any:
    """A new asyncpg connection to ``url``."""
    return await _driver().connect(url, statement_cache_size=STATEMENT_CACHE, command_timeout=COMMAND_TIMEOUT,
                                   server_settings=SERVER_SETTINGS)


class PgConnection:
    """One asyncpg connection that speaks as storage's aiosqlite connection does (see the module's docstring)."""

    def __init__(self, conn: Any, url: str = "") -> None:
        self.raw = conn  # an asyncpg.Connection
        self.url = url  # where to connect again when the server or the network dropped the connection
        self.in_tx = False  # a transaction was begun on ``raw`` and not yet ended
        self._refused: type[Exception] = _driver().IntegrityConstraintViolationError

    @classmethod
    async def connect(cls, url: str) -> PgConnection:
        return cls(await _open(url), url)

    async def _ready(self) -> None:
        """A connection the server or the network dropped (a restart, a failover, an idle timeout) is made again
        before the next statement, outside a transaction; inside one, the transaction is lost: raised (its request
        fails, the next one connects again)."""
        if not self.raw.is_closed():
            return
        if self.in_tx:
            self.in_tx = False
            raise _driver().InterfaceError("the connection to PostgreSQL was lost during a transaction")
        if not self.url:
            return
        self.raw = await _open(self.url)

    async def _run(self, sql: str, args: Sequence[Any]) -> tuple[list[Record], int]:
        """One statement (translated), in one round trip: its rows and the rows it changed. (asyncpg's public calls
        give either the rows or the command tag; its ``_execute`` gives both, as ``fetch`` and ``execute`` use it:
        pinned with asyncpg in requirements.txt.)"""
        await self._ready()
        query = query_sql(sql)
        try:
            rows, status, _ = await self.raw._execute(query, tuple(args), 0, None, return_status=True)
        except self._refused as err:
            raise Refused(str(err)) from err
        self._follow(query)
        return rows, _count(status)

    def _follow(self, query: str) -> None:
        """Whether a transaction is open now, after ``query`` ran."""
        word = query.lstrip()[:8].upper()
        if word.startswith("BEGIN"):
            self.in_tx = True
        elif word.startswith(("COMMIT", "ROLLBACK", "END")):
            self.in_tx = False

    async def _many(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """One statement for each row of arguments (asyncpg sends them in one go)."""
        await self._ready()
        try:
            await self.raw.executemany(query_sql(sql), [tuple(r) for r in rows])
        except self._refused as err:
            raise Refused(str(err)) from err

    async def _cursor(self, sql: str, args: Sequence[Any]) -> PgCursor:
        return PgCursor(*await self._run(sql, args))

    def execute(self, sql: str, args: Iterable[Any] = ()) -> _Executing:
        return _Executing(self, sql, tuple(args))

    async def execute_fetchall(self, sql: str, args: Iterable[Any] = ()) -> list[Record]:
        return (await self._run(sql, tuple(args)))[0]

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> PgCursor:
        await self._many(sql, rows)
        return PgCursor([], -1)

    def in_transaction(self) -> bool:
        return self.raw.is_in_transaction()

    async def rollback(self) -> None:
        self.in_tx = False
        if not self.raw.is_closed() and self.raw.is_in_transaction():
            await self.raw.execute("ROLLBACK")

    async def steps(self, todo: Sequence[Step], begin: bool, commit: bool) -> list[list[Record]]:
        """:func:`storage.sql.steps` on PostgreSQL: the same loop, each statement one round trip (asyncpg runs one
        statement per message exchange), the guards checked on the command tag's count."""
        if begin:
            await self._ready()
            await self.raw.execute("BEGIN")
            self.in_tx = True
        try:
            out: list[list[Record]] = []
            for step in todo:
                if step.many:
                    if step.args:
                        await self._many(step.sql, step.args)
                    out.append([])
                    continue
                rows, count = await self._run(step.sql, step.args)
                if not step.fetch:
                    rows = []
                if step.guard is not None and (len(rows) if step.fetch else count) != 1:
                    raise step.guard
                out.append(rows)
            if commit:
                await self.raw.execute("COMMIT")
                self.in_tx = False
        except BaseException:
            if begin or commit:
                self.in_tx = False
                if not self.raw.is_closed() and self.raw.is_in_transaction():
                    with contextlib.suppress(Exception):  # (the first error is the one to tell)
                        await self.raw.execute("ROLLBACK")
            raise
        return out

    async def close(self) -> None:
        """Close the connection; one the server or the network has dropped already is let go (nothing is left to
        close on its side)."""
        if self.raw.is_closed():
            return
        driver = _driver()
        try:
            await self.raw.close()
        except (OSError, driver.InterfaceError, driver.PostgresConnectionError):
            self.raw.terminate()

    def terminate(self) -> None:
        self.raw.terminate()

