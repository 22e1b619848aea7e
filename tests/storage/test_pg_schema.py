"""One set of migrations for both backends: every migration applied to an empty PostgreSQL database gives the schema
SQLite gets from the same files (tables, columns with their type's kind and NOT NULL, primary keys, unique
constraints and indexes, the other indexes, partial or not), and a restart finds nothing left to apply."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from storage import Database
from storage.db import _migrations
from tests.pg import PgServer

KINDS = {"INTEGER": "integer", "BIGINT": "integer", "REAL": "float", "DOUBLE PRECISION": "float", "TEXT": "text"}

Schema = dict[str, dict[str, Any]]


def sqlite_schema(path: Path) -> Schema:
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                             "'sqlite_%' ORDER BY name")]
        out: Schema = {}
        for table in tables:
            info = conn.execute(f"PRAGMA table_info({table})").fetchall()  # cid, name, type, notnull, dflt, pk
            key = tuple(r[1] for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
            columns = {r[1]: (KINDS[r[2].upper()], bool(r[3]) or r[1] in key) for r in info}
            unique, indexes = set(), set()
            for _, name, is_unique, origin, partial in conn.execute(f"PRAGMA index_list({table})"):
                cols = tuple(r[2] for r in conn.execute(f"PRAGMA index_info({name})"))
                if origin == "pk":
                    continue
                if origin == "u":  # a UNIQUE constraint's own index (unnamed)
                    unique.add((cols, bool(partial)))
                else:
                    indexes.add((name, cols, bool(is_unique), bool(partial)))
            out[table] = {"columns": columns, "primary key": key, "unique": unique, "indexes": indexes}
        return out
    finally:
        conn.close()


async def pg_schema(url: str) -> Schema:
    conn = await asyncpg.connect(url)
    try:
        out: Schema = {}
        tables = [r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                                                 "ORDER BY tablename")]
        for table in tables:
            columns = {r["column_name"]: (KINDS[r["data_type"].upper()], r["is_nullable"] == "NO") for r in
                       await conn.fetch("SELECT column_name, data_type, is_nullable FROM information_schema.columns "
                                        "WHERE table_schema = 'public' AND table_name = $1", table)}
            key: tuple[str, ...] = ()
            unique, indexes = set(), set()
            rows = await conn.fetch(
                "SELECT c.relname AS name, i.indisprimary AS pk, i.indisunique AS is_unique, "
                "i.indpred IS NOT NULL AS partial, "
                "EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) AS constraint_index, "
                "ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY AS k(num, n) JOIN pg_attribute a ON "
                "a.attrelid = i.indrelid AND a.attnum = k.num ORDER BY k.n) AS cols "
                "FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass", table)
            for r in rows:
                cols = tuple(r["cols"])
                if r["pk"]:
                    key = cols
                elif r["constraint_index"]:
                    unique.add((cols, r["partial"]))
                else:
                    indexes.add((r["name"], cols, r["is_unique"], r["partial"]))
            out[table] = {"columns": columns, "primary key": key, "unique": unique, "indexes": indexes}
        return out
    finally:
        await conn.close()


async def test_migrations_give_postgresql_the_schema_they_give_sqlite(pg_server: PgServer, tmp_path: Path) -> None:
    lite = tmp_path / "schema.db"
    await (await Database.open(lite)).close()
    url = pg_server.create(migrated=False)
    try:
        db = await Database.open(url)
        try:
            assert await db.migrate() == len(_migrations()), "a second run applies nothing"
        finally:
            await db.close()
        expected, got = sqlite_schema(lite), await pg_schema(url)
    finally:
        pg_server.drop(url)
    assert sorted(got) == sorted(expected)
    for table in expected:
        assert got[table] == expected[table], table
    # what matters most, said plainly: Discord's ids are 64-bit, times are 8-byte floats
    assert expected["tables"]["columns"]["channel_id"] == ("integer", True)
    assert {"tables_one_open_per_channel", "seats_one_per_user", "tables_one_rematch"} <= {
        name for t in got.values() for name, _, is_unique, partial in t["indexes"] if is_unique and partial}


async def test_the_columns_hold_64_bit_ids_and_8_byte_times(pg_server: PgServer) -> None:
    url = pg_server.create(migrated=True)
    try:
        conn = await asyncpg.connect(url)
        try:
            types = {(r["table_name"], r["column_name"]): r["data_type"] for r in await conn.fetch(
                "SELECT table_name, column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = 'public'")}
        finally:
            await conn.close()
    finally:
        pg_server.drop(url)
    assert types[("tables", "channel_id")] == types[("seats", "user_id")] == "bigint"
    assert types[("tables", "updated_at")] == types[("moves", "created_at")] == "double precision"
    assert not {t for t in types.values() if t in ("integer", "real", "smallint")}, "no 4-byte column"
