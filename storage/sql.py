"""Statements run inside a caller's transaction, each cursor closed at once (an open cursor blocks COMMIT): the one
way storage's modules (tables, results, tournaments) execute SQL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import aiosqlite


async def run(conn: aiosqlite.Connection, sql: str, args: Iterable[Any] = ()) -> int:
    """Execute one statement; returns the rows it changed."""
    cur = await conn.execute(sql, tuple(args))
    try:
        return cur.rowcount
    finally:
        await cur.close()


async def run_many(conn: aiosqlite.Connection, sql: str, rows: Iterable[Iterable[Any]]) -> None:
    """Execute one statement for each row of arguments."""
    cur = await conn.executemany(sql, [tuple(r) for r in rows])
    await cur.close()
