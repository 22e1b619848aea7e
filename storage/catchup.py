"""Reads for the start-up catch-up and for quick answers, in small pieces that never hold the database for long.

At start-up the bot looks through every running table for a bot seat whose move was cut short (the process stopped
while it thought). With 10,000 running tables one query each, under the database's lock, kept every request waiting
for seconds; here the running tables are read a page at a time (keyset pagination by table id: each page starts after
the last id of the one before, so a page costs the same however far the scan has gone), each page one short hold of
the lock, and only the pages' tables with a seat a bot plays carry their state. Plain, standard SQL (no
``GROUP_CONCAT``): issue 26 runs the same statements on PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Database
from storage.shards import mine

PAGE = 100  # running tables looked at per hold of the database's lock (a few ms; tens on a loaded 2-core machine)


@dataclass(frozen=True)
class BotTable:
    """A running table with seats a bot plays (a bot's seat, or one whose player left): its state as stored (JSON
    text, decoded by the caller outside the database's lock)."""

    table_id: int
    game: str
    state: str
    auto: frozenset[int]


async def bot_tables(db: Database, after: int, page: int = PAGE) -> tuple[int | None, list[BotTable]]:
    """One page of the running tables of this process's shards (``db.shards``) whose id is above ``after``, at most
    ``page`` of them: (the last id the page looked at, None when no running table is left; those of its tables with
    a seat a bot plays). One hold of the lock for the page's ids, one for the states and seats of those with a
    bot."""
    ids_sql = f"SELECT id FROM tables WHERE status = 'active' AND id > ?{mine(db.shards)} ORDER BY id LIMIT ?"
    async with db._reading() as conn, conn.execute(ids_sql, (after, page)) as cur:
        ids = [r[0] for r in await cur.fetchall()]
    if not ids:
        return None, []
    marks = ",".join("?" for _ in ids)
    seats_sql = (f"SELECT table_id, seat FROM seats WHERE table_id IN ({marks}) "
                 "AND (bot IS NOT NULL OR resigned <> 0)")
    auto: dict[int, set[int]] = {}
    found: list[BotTable] = []
    async with db._reading() as conn:
        async with conn.execute(seats_sql, ids) as cur:
            for table_id, seat in await cur.fetchall():
                auto.setdefault(table_id, set()).add(seat)
        if auto:
            with_bots = sorted(auto)
            rows_sql = (f"SELECT id, game, state FROM tables WHERE id IN ({','.join('?' for _ in with_bots)}) "
                        "AND status = 'active' AND state IS NOT NULL ORDER BY id")
            async with conn.execute(rows_sql, with_bots) as cur:
                found = [BotTable(r[0], r[1], r[2], frozenset(auto[r[0]])) for r in await cur.fetchall()]
    return ids[-1], found


async def open_version(db: Database, channel_id: int) -> tuple[int, int, str] | None:
    """(table id, version, status) of the lobby or game in progress in this channel, without reading its state or
    seats (one row of the channel's index): whether what was worked out for it before still holds (None: there is
    none)."""
    sql = "SELECT id, version, status FROM tables WHERE channel_id = ? AND status IN ('lobby', 'active')"
    async with db._reading() as conn, conn.execute(sql, (channel_id,)) as cur:
        row = await cur.fetchone()
    return (row[0], row[1], row[2]) if row else None
