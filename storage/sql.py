"""Statements run inside a caller's transaction, each cursor closed at once (an open cursor blocks COMMIT): the one
way storage's modules (tables, results, tournaments) execute SQL, on SQLite (aiosqlite) or PostgreSQL
(:class:`storage.postgres.PgConnection`, which answers the same calls).

A change that needs no Python between its statements is a list of :class:`Step`: :func:`steps` sends them to the
database's thread in one hop (one round trip), inside ``BEGIN IMMEDIATE`` … ``COMMIT`` when asked, each step's rows
fetched and its guard checked there (a versioned ``UPDATE`` that changed no row raises the step's error, and the
whole transaction is rolled back). Every statement is plain SQL; the only Python in the thread is that loop."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import aiosqlite

from storage.postgres import PgConnection

# A connection storage's modules execute on: SQLite's, or PostgreSQL's speaking as it does
Connection = aiosqlite.Connection | PgConnection


async def run(conn: Connection, sql: str, args: Iterable[Any] = ()) -> int:
    """Execute one statement; returns the rows it changed."""
    cur = await conn.execute(sql, tuple(args))
    try:
        return cur.rowcount
    finally:
        await cur.close()


async def run_many(conn: Connection, sql: str, rows: Iterable[Iterable[Any]]) -> None:
    """Execute one statement for each row of arguments."""
    cur = await conn.executemany(sql, [tuple(r) for r in rows])
    await cur.close()


class Step(NamedTuple):
    """One statement of a change sent in one hop (:func:`steps`). ``many``: ``args`` is a list of argument rows
    (one ``executemany``; none: skipped). ``fetch``: its rows are returned. ``guard``: raised unless the statement
    changed (or, fetching, returned) exactly one row: a version check."""

    sql: str
    args: Sequence[Any] = ()
    many: bool = False
    fetch: bool = False
    guard: Exception | None = None


async def steps(conn: Connection, todo: Sequence[Step], *, begin: bool = True, commit: bool = True
                ) -> list[list[Any]]:
    """Run ``todo`` in the database's thread in one hop; each step's fetched rows (``[]`` for the others), in order.
    ``begin``: first ``BEGIN IMMEDIATE``; ``commit``: then ``COMMIT``. A transaction this hop opens or closes is
    rolled back whole on any error (a guard's included); one left open (``commit=False``) is the caller's to end
    (:func:`rollback` on an error). On PostgreSQL, the same loop with each statement a round trip
    (:meth:`storage.postgres.PgConnection.steps`)."""
    if isinstance(conn, PgConnection):
        return await conn.steps(todo, begin, commit)
    # aiosqlite has no public call for "run this in the connection's thread" (every Connection and Cursor method is
    # one such call): its own _execute is that call, pinned with aiosqlite in requirements.txt
    return await conn._execute(_run_steps, conn._conn, list(todo), begin, commit)  # type: ignore


async def rollback(conn: Connection) -> None:
    """Roll back the open transaction, if one is open (in one hop)."""
    if isinstance(conn, PgConnection):
        return await conn.rollback()
    await conn._execute(_rollback, conn._conn)


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        db.execute("ROLLBACK")


def _run_steps(db: sqlite3.Connection, todo: list[Step], begin: bool, commit: bool) -> list[list[sqlite3.Row]]:
    if begin:
        db.execute("BEGIN IMMEDIATE")
    try:
        out: list[list[sqlite3.Row]] = []
        for step in todo:
            if step.many and not step.args:
                out.append([])
                continue
            cur = db.executemany(step.sql, step.args) if step.many else db.execute(step.sql, tuple(step.args))
            try:
                rows = cur.fetchall() if step.fetch else []
                if step.guard is not None and (len(rows) if step.fetch else cur.rowcount) != 1:
                    raise step.guard
            finally:
                cur.close()
            out.append(rows)
        if commit:
            db.execute("COMMIT")
    except BaseException:
        if (begin or commit) and db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return out
