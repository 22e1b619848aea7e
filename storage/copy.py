"""Move an existing SQLite database into PostgreSQL (issue 26), checked::

    python -m storage.copy data/blockhouse.db postgresql://user:password@host/blockhouse

The bot must be stopped first (or copy from a backup: ``sqlite3 data/blockhouse.db ".backup copy.db"``): a row it
wrote after the copy began would stay behind in the file. The SQLite file is opened read-only and read in one read
transaction (one consistent snapshot).

What it does, in order; each refusal changes nothing (exit status 2):

1. **The source** must be a Blockhouse database at exactly this code's schema version (every numbered migration
   applied, none unknown; else: start the bot on it once, which migrates it, stop it, copy again), with no foreign
   key left dangling (``PRAGMA foreign_key_check``), open in no other process (on Linux: the lock every connection
   holds on its ``-shm`` file) and with no unflushed write-ahead log (a bot's that did not stop cleanly).
2. **The target** must be empty: no table in its schema, or only Blockhouse's tables with no row in them (the
   migrated schema alone, e.g. a copy that failed before); an unknown table or any row is refused, saying which.
3. It is migrated (:meth:`storage.db.Database.open`), then every table of the source's schema (read from
   ``sqlite_master``, so a new migration's table is copied too; its columns by name) is copied in an order the
   foreign keys accept, **in one PostgreSQL transaction**: the tables locked and checked empty again; their foreign
   keys dropped, then added again after the copy (checked then, at once: checked row by row, they made the copy of
   the moves ~3x slower); each table filled by one binary ``COPY`` (asyncpg's ``copy_records_to_table``) fed in
   batches of :data:`BATCH` rows read from SQLite, each value as the PostgreSQL column's type wants it (SQLite is
   loosely typed: an integral REAL in an INTEGER column becomes an integer, an INTEGER in a REAL column a float;
   anything that cannot be converted exactly stops the copy, naming its table, column and row).
   ``schema_migrations`` is the migration's own (its versions checked equal to the source's), not copied.
4. Each identity (an ``id INTEGER PRIMARY KEY``: tables, tournaments, outbox) is set past the largest id copied, and
   past the largest SQLite's AUTOINCREMENT ever gave (``sqlite_sequence``): the next new table gets a fresh id.
5. **Checked before the commit**: per table, the rows on both sides are counted and digested (an order-free sum of
   a hash of each whole row, as SQLite gave it converted and as PostgreSQL gives it back): any difference rolls the
   whole copy back (exit status 1). The counts are printed; exit status 0 when every one matches.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from storage.db import Database, _migrations
from storage.postgres import is_url, shown

BATCH = 5000  # rows read from SQLite at a time (one COPY per table is fed batch by batch)
MIGRATIONS = "schema_migrations"  # the migration's own table: checked, not copied
DIGEST_MOD = 2 ** 128

# The Python type asyncpg's binary COPY wants for each PostgreSQL column type the migrations make (storage.postgres:
# INTEGER -> BIGINT, REAL -> DOUBLE PRECISION, TEXT stays), and SQLite's typeof() of a value that needs no conversion.
# (asyncpg 0.32 takes an int for a double, refuses a str for a number and an int or bytes for a text, and stores a
# float 1.5 given for a BIGINT as 1, silently: every value not of its column's kind goes through _converter, which
# converts only what is exact and stops the copy on the rest.)
KINDS: dict[str, tuple[type, str]] = {
    "bigint": (int, "integer"), "integer": (int, "integer"), "smallint": (int, "integer"),
    "double precision": (float, "real"), "real": (float, "real"),
    "text": (str, "text"), "character varying": (str, "text"),
}


class CopyRefused(Exception):
    """The copy was refused before anything changed (the reason is the message)."""


class CopyFailed(Exception):
    """The copy stopped part-way: everything it wrote was rolled back (the reason is the message)."""


@dataclass(frozen=True)
class Count:
    """One table's rows on each side and whether their digests agree."""

    table: str
    source: int
    target: int
    same_rows: bool
    copied: bool = True  # False: schema_migrations (the migration's own rows, versions compared)

    @property
    def ok(self) -> bool:
        return self.source == self.target and self.same_rows


def _q(name: str) -> str:
    """An SQL identifier, quoted (the same on both backends)."""
    return '"' + name.replace('"', '""') + '"'


def _row_hash(row: Sequence[Any]) -> int:
    return int.from_bytes(hashlib.blake2b(repr(tuple(row)).encode(), digest_size=16).digest(), "little")


# --- the source --------------------------------------------------------------------------------------------------

@dataclass
class Source:
    """The SQLite file, read-only, in one read transaction; its tables, columns, foreign keys and versions."""

    path: Path
    conn: sqlite3.Connection
    tables: list[str]  # in an order the foreign keys accept (a table after those it references)
    columns: dict[str, list[str]]
    versions: list[int]
    autoincrement: dict[str, int]  # sqlite_sequence: the largest id each AUTOINCREMENT table ever gave

    @classmethod
    def open(cls, path: Path) -> Source:
        if not path.is_file():
            raise CopyRefused(f"{path}: no such file")
        holder = _holder(path)
        if holder is not None:
            raise CopyRefused(
                f"{path} is open in process {holder} (the bot?): stop it and copy again, or copy from a backup made "
                f'while it runs: sqlite3 {path} ".backup copy.db"')
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise CopyRefused(
                f"{path} has a write-ahead log that is not empty ({wal.name}): the bot is running on it, or stopped "
                "without closing it. Stop the bot (a clean stop empties the log) and copy again, or copy from a "
                f'backup made while it runs: sqlite3 {path} ".backup copy.db"')
        conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, isolation_level=None)
        try:
            conn.execute("BEGIN")  # one snapshot for every read (taken at the first one)
            names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT "
                                                "LIKE 'sqlite_%' ORDER BY name")]
            if MIGRATIONS not in names:
                raise CopyRefused(f"{path} is not a Blockhouse database (it has no {MIGRATIONS} table)")
            versions = [r[0] for r in conn.execute(f"SELECT version FROM {MIGRATIONS} ORDER BY version")]
            columns = {t: [r[1] for r in conn.execute(f"PRAGMA table_info({_q(t)})")] for t in names}
            refs = {t: {r[2] for r in conn.execute(f"PRAGMA foreign_key_list({_q(t)})")} - {t} for t in names}
            dangling = conn.execute("PRAGMA foreign_key_check").fetchall()
            auto = dict(conn.execute("SELECT name, seq FROM sqlite_sequence").fetchall()) if conn.execute(
                "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").fetchone() else {}
        except sqlite3.DatabaseError as err:
            conn.close()
            raise CopyRefused(f"{path}: {err}") from err
        except BaseException:
            conn.close()
            raise
        if dangling:
            conn.close()
            shown_rows = ", ".join(f"{t} row {rowid} -> {parent}" for t, rowid, parent, _ in dangling[:5])
            raise CopyRefused(f"{path} has {len(dangling)} row(s) whose foreign key points at nothing ({shown_rows}"
                              f"{', ...' if len(dangling) > 5 else ''}): PostgreSQL would refuse them")
        return cls(path, conn, _in_key_order(refs), columns, versions, auto)

    def count(self, table: str) -> int:
        return int(self.conn.execute(f"SELECT COUNT(*) FROM {_q(table)}").fetchone()[0])

    def odd_columns(self, table: str, columns: Sequence[str], kinds: dict[str, tuple[type, str]]) -> list[str]:
        """The columns holding some value not of the SQLite type their PostgreSQL type wants as it is (those need
        converting, value by value; the others are passed as SQLite gives them)."""
        checks = ", ".join(f"SUM(typeof({_q(c)}) NOT IN ('null', '{kinds[c][1]}'))" for c in columns)
        sums = self.conn.execute(f"SELECT {checks} FROM {_q(table)}").fetchone()
        return [c for c, n in zip(columns, sums, strict=True) if n]

    def close(self) -> None:
        self.conn.close()


SHM_DMS = 128  # the byte of a WAL database's -shm file every connection holds a read lock on (SQLite's os_unix.c)


def _holder(path: Path) -> int | None:
    """The id of another process that has the SQLite file open (in WAL mode, every connection holds a POSIX read
    lock on a byte of the ``-shm`` file: ``F_GETLK`` names a process holding it); None when none does, or where this
    cannot be asked (not Linux, no ``-shm`` file, not readable)."""
    if not sys.platform.startswith("linux"):
        return None
    import fcntl
    import struct

    try:
        fd = os.open(f"{path}-shm", os.O_RDONLY)
    except OSError:
        return None
    try:
        asked = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, SHM_DMS, 1, 0)  # Linux's struct flock
        kind, _, _, _, pid = struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, asked))
    except OSError:
        return None
    finally:
        os.close(fd)
    return None if kind == fcntl.F_UNLCK else int(pid)


def _in_key_order(refs: dict[str, set[str]]) -> list[str]:
    """The tables ordered so that each comes after the tables its foreign keys reference (by name among equals)."""
    done: list[str] = []
    left = dict(refs)
    while left:
        ready = sorted(t for t, parents in left.items() if not (parents & set(left)))
        if not ready:
            raise CopyRefused(f"the foreign keys of {sorted(left)} form a cycle: no copy order exists")
        done += ready
        for t in ready:
            del left[t]
    return done


def _converter(kind: type, table: str, column: str) -> Callable[[Any, int], Any]:
    """A value of ``column`` as its PostgreSQL type wants it (``at``: the row's number, for the error)."""

    def wrong(value: Any, at: int) -> CopyFailed:
        return CopyFailed(f"{table}.{column}, row {at + 1}: {value!r} ({type(value).__name__}) cannot be stored as "
                          f"{kind.__name__} exactly")

    def convert(value: Any, at: int) -> Any:
        if value is None or type(value) is kind:
            return value
        if kind is int and isinstance(value, float) and value.is_integer():
            return int(value)
        if kind is float and isinstance(value, int):
            return float(value)
        raise wrong(value, at)

    return convert


# --- the target --------------------------------------------------------------------------------------------------

def _driver() -> Any:
    import asyncpg  # type: ignore[import-untyped]

    return asyncpg


async def _target_tables(conn: Any) -> list[str]:
    return [r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                           "ORDER BY tablename")]


async def _nonempty(conn: Any, tables: Iterable[str]) -> list[str]:
    return [t for t in tables if t != MIGRATIONS and await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {_q(t)})")]


async def check_target(url: str, source: Source) -> None:
    """Refuse a target that is not empty: a table the source does not have, a row in one, or a migration this code
    does not know."""
    try:
        conn = await _driver().connect(url)
    except (OSError, _driver().PostgresError) as err:
        raise CopyRefused(f"cannot connect to {shown(url)}: {err}") from err
    try:
        found = await _target_tables(conn)
        unknown = sorted(set(found) - set(source.tables))
        if unknown:
            raise CopyRefused(f"the target database holds tables that are not Blockhouse's ({', '.join(unknown)}): "
                              "copy into a new, empty database")
        full = await _nonempty(conn, found)
        if full:
            raise CopyRefused(f"the target database already holds rows (in {', '.join(full)}): copy into a new, "
                              "empty database (or drop this one's tables first)")
        if MIGRATIONS in found:
            versions = [r[0] for r in await conn.fetch(f"SELECT version FROM {MIGRATIONS} ORDER BY version")]
            if not set(versions) <= set(source.versions):
                raise CopyRefused(f"the target database was migrated by another Blockhouse (schema versions "
                                  f"{versions}): copy into a new, empty database")
    finally:
        await conn.close()


async def foreign_keys(conn: Any) -> list[Any]:
    """The foreign keys of the target's tables: each one's name (``conname``), table (``tab``, as SQL names it)
    and definition (``def``, as ``ALTER TABLE … ADD CONSTRAINT`` takes it)."""
    return list(await conn.fetch(
        "SELECT c.conname, c.conrelid::regclass::text AS tab, pg_get_constraintdef(c.oid) AS def "
        "FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace "
        "ORDER BY c.conrelid::regclass::text, c.conname"))


async def _columns(conn: Any, table: str) -> dict[str, str]:
    return {r[0]: r[1] for r in await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND "
        "table_name = $1", table)}


async def _identities(conn: Any, table: str) -> list[str]:
    return [r[0] for r in await conn.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND "
        "table_name = $1 AND is_identity = 'YES'", table)]


async def _target_digest(conn: Any, table: str, columns: Sequence[str], batch: int) -> tuple[int, int]:
    """(rows, digest) of a table as PostgreSQL gives it back."""
    rows, digest = 0, 0
    names = ", ".join(_q(c) for c in columns)
    async for row in conn.cursor(f"SELECT {names} FROM {_q(table)}", prefetch=batch):
        rows += 1
        digest += _row_hash(row)
    return rows, digest % DIGEST_MOD


# --- the copy ----------------------------------------------------------------------------------------------------

async def copy(source_path: str | Path, url: str, *, batch: int = BATCH,
               say: Callable[[str], None] = lambda line: None) -> list[Count]:
    """Copy the SQLite file ``source_path`` into the empty PostgreSQL database ``url`` (see the module's docstring);
    the counts per table, every one matching. Raises :class:`CopyRefused` (nothing changed) or :class:`CopyFailed`
    (nothing copied: the transaction was rolled back; the target may hold the migrated schema, which a new copy
    accepts)."""
    if not is_url(url):
        raise CopyRefused(f"the target must be a postgresql:// URL, not {url!r}")
    code = [n for n, _, _ in _migrations()]
    source = Source.open(Path(source_path))
    try:
        if source.versions != code:
            have, want = max(source.versions, default=0), max(code)
            if set(source.versions) - set(code):
                why = (f"it was migrated by a newer Blockhouse (schema version {have}; this code knows up to {want}): "
                       "copy with that version's code")
            else:
                why = (f"its schema is at version {have}, this code's is at {want}: start the bot on it once (it "
                       "migrates the file), stop it, then copy again")
            raise CopyRefused(f"{source.path} is not at this code's schema version: {why}")
        await check_target(url, source)
        say(f"Copying {source.path} (schema version {max(code)}) into {shown(url)}")
        try:
            await (await Database.open(url)).close()  # migrated: the schema PostgreSQL's way (storage.postgres)
        except (OSError, _driver().PostgresError) as err:
            raise CopyFailed(f"migrating the target database failed: {err}") from err
        started = time.monotonic()
        counts = await _copy(source, url, batch, say)
    finally:
        source.close()
    rows = sum(c.source for c in counts if c.copied)
    say(f"Copied {rows:,} rows of {sum(c.copied for c in counts)} tables in {time.monotonic() - started:.1f} s: every "
        "count and every table's digest is the same on both sides.")
    return counts


async def _copy(source: Source, url: str, batch: int, say: Callable[[str], None]) -> list[Count]:
    conn = await _driver().connect(url)
    try:
        found = set(await _target_tables(conn))
        missing = [t for t in source.tables if t not in found]
        if missing:
            raise CopyFailed(f"the migrated target has no table {', '.join(missing)}: the migrations did not make "
                             "the schema SQLite has")
        counts: list[Count] = []
        async with conn.transaction():
            # nothing else writes while the copy runs (a bot started on the target waits), and it is still empty
            await conn.execute(f"LOCK TABLE {', '.join(_q(t) for t in source.tables)} IN EXCLUSIVE MODE")
            full = await _nonempty(conn, source.tables)
            if full:
                raise CopyFailed(f"the target database got rows meanwhile (in {', '.join(full)}): is a bot running "
                                 "on it?")
            # the foreign keys checked once at the end, not row by row (PostgreSQL's advice for a bulk load: a
            # constraint's trigger per row made the copy of the moves 3x slower); the source has none dangling
            keys = await foreign_keys(conn)
            for key in keys:
                await conn.execute(f"ALTER TABLE {key['tab']} DROP CONSTRAINT {_q(key['conname'])}")
            digests: dict[str, tuple[int, int]] = {}
            for table in source.tables:
                if table == MIGRATIONS:
                    continue
                began = time.monotonic()
                digests[table] = await _copy_table(conn, source, table, batch)
                say(f"  {table}: {digests[table][0]:,} rows copied in {time.monotonic() - began:.1f} s")
            began = time.monotonic()
            try:
                for key in keys:
                    await conn.execute(f"ALTER TABLE {key['tab']} ADD CONSTRAINT {_q(key['conname'])} {key['def']}")
            except _driver().PostgresError as err:
                raise CopyFailed(f"a foreign key does not hold in the copy: {err}") from err
            say(f"  {len(keys)} foreign keys checked in {time.monotonic() - began:.1f} s")
            began = time.monotonic()
            for table in source.tables:
                counts.append(await _check(conn, source, table, digests.get(table), batch))
            say(f"  every table read back and checked in {time.monotonic() - began:.1f} s")
            say(_report(counts))
            wrong = [c.table for c in counts if not c.ok]
            if wrong:
                raise CopyFailed(f"the copy differs from the source in {', '.join(wrong)}: rolled back, nothing "
                                 "was copied")
            for table in source.tables:
                for column in await _identities(conn, table):
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(COALESCE(MAX({_q(column)}), 0), "
                        f"$3::bigint) + 1, false) FROM {_q(table)}", _q(table), column,
                        source.autoincrement.get(table, 0))
        return counts
    finally:
        await conn.close()


async def _copy_table(conn: Any, source: Source, table: str, batch: int) -> tuple[int, int]:
    """One table, by one binary COPY fed ``batch`` rows at a time; (rows, digest) of what was sent."""
    columns = source.columns[table]
    types = await _columns(conn, table)
    if set(types) != set(columns):
        raise CopyFailed(f"{table}'s columns differ: SQLite has {sorted(columns)}, PostgreSQL {sorted(types)}")
    kinds = {}
    for c in columns:
        if types[c] not in KINDS:
            raise CopyFailed(f"{table}.{c} is a PostgreSQL {types[c]}: the copy knows no conversion to it")
        kinds[c] = KINDS[types[c]]
    odd = source.odd_columns(table, columns, kinds) if columns else []
    converters = [(i, _converter(kinds[c][0], table, c)) for i, c in enumerate(columns) if c in odd]
    sent = [0, 0]  # rows, digest

    async def records() -> AsyncIterator[tuple[Any, ...]]:
        cur = source.conn.execute(f"SELECT {', '.join(_q(c) for c in columns)} FROM {_q(table)}")
        try:
            while True:
                rows = cur.fetchmany(batch)
                if not rows:
                    return
                for row in rows:
                    if converters:
                        values = list(row)
                        for i, convert in converters:
                            values[i] = convert(values[i], sent[0])
                        row = tuple(values)
                    sent[0] += 1
                    sent[1] += _row_hash(row)
                    yield row
        finally:
            cur.close()

    try:
        await conn.copy_records_to_table(table, records=records(), columns=columns)
    except _driver().PostgresError as err:
        raise CopyFailed(f"PostgreSQL refused row {sent[0]} of {table} (or one of the rows before it, sent with "
                         f"it): {err}") from err
    except sqlite3.Error as err:
        raise CopyFailed(f"SQLite could not read a row of {table} (row {sent[0] + 1} or one of the {batch - 1:,} "
                         f"after it): {err}") from err
    return sent[0], sent[1] % DIGEST_MOD


async def _check(conn: Any, source: Source, table: str, sent: tuple[int, int] | None, batch: int) -> Count:
    """One table's rows on both sides: counted, and digested (schema_migrations: its versions compared)."""
    if table == MIGRATIONS:
        versions = [r[0] for r in await conn.fetch(f"SELECT version FROM {MIGRATIONS} ORDER BY version")]
        return Count(table, len(source.versions), len(versions), versions == source.versions, copied=False)
    assert sent is not None
    count = source.count(table)
    rows, digest = await _target_digest(conn, table, source.columns[table], batch)
    return Count(table, count, rows, count == sent[0] and (rows, digest) == sent)


def _report(counts: Sequence[Count]) -> str:
    width = max(len(c.table) for c in counts)
    lines = [f"{'table':<{width}}  {'SQLite':>10}  {'PostgreSQL':>10}  rows"]
    for c in counts:
        verdict = ("same" if c.copied else "same versions (migrated, not copied)") if c.ok else "DIFFERENT"
        lines.append(f"{c.table:<{width}}  {c.source:>10,}  {c.target:>10,}  {verdict}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage.copy",
        description="Copy a stopped bot's SQLite database into an empty PostgreSQL database, in one transaction, "
                    "then check every table's rows on both sides (counts and digests). Exit status: 0 copied and "
                    "checked, 1 the copy failed or differed (rolled back), 2 refused (nothing changed).")
    parser.add_argument("source", help="the SQLite file (e.g. data/blockhouse.db), the bot stopped")
    parser.add_argument("target", help="the PostgreSQL database, postgresql://user:password@host:port/name")
    parser.add_argument("--batch", type=int, default=BATCH, help=f"rows read from SQLite at a time ({BATCH})")
    args = parser.parse_args(argv)
    try:
        asyncio.run(copy(args.source, args.target, batch=max(1, args.batch), say=print))
    except CopyRefused as err:
        print(f"Refused, nothing changed: {err}", file=sys.stderr)
        return 2
    except CopyFailed as err:
        print(f"Failed: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
