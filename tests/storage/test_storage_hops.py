"""storage.db sends a change or read of one hop at once: hops sent back to back queue in the connection's thread
together (none waits for the one before to come back to the event loop), while work of several hops on the
connection (a transaction) has it alone: no other hop is sent until that work is done, so none runs inside it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bench.dbcalls import on_hops
from storage import Database
from storage.sql import run


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "hops.db")
    yield database
    await database.close()


async def new_table(db: Database, channel: int) -> int:
    return await db.create_table(guild_id=9, channel_id=channel, game="breaks", options={}, host_id=1,
                                 host_name="Alice", now=1.0)


async def test_one_hop_reads_and_writes_are_sent_together(db: Database) -> None:
    ids = [await new_table(db, 600 + i) for i in range(4)]
    sent: list[Any] = []
    on_hops(db, lambda fn, args: sent.append(fn))
    reads = [asyncio.ensure_future(db.get_table(tid)) for tid in ids]
    writes = [asyncio.ensure_future(db.set_lobby_message(tid, 1, 100 + tid)) for tid in ids]
    await asyncio.sleep(0)  # every request takes its first step
    assert len(sent) == 8, "all sent at once, none waiting for another's answer"
    rows = await asyncio.gather(*reads)
    await asyncio.gather(*writes)
    assert [r.id for r in rows if r is not None] == ids
    assert [(await db.get_table(tid)).lobby_message_id for tid in ids] == [100 + tid for tid in ids]  # type: ignore[union-attr]


async def test_nothing_is_sent_inside_a_transaction_of_several_hops(db: Database) -> None:
    tid = await new_table(db, 700)
    inside, finish = asyncio.Event(), asyncio.Event()

    async def transaction() -> None:
        async with db.transaction() as conn:
            await run(conn, "UPDATE tables SET lobby_message_id = 42 WHERE id = ?", (tid,))
            inside.set()
            await finish.wait()
            await run(conn, "UPDATE tables SET lobby_message_id = 43 WHERE id = ?", (tid,))

    writer = asyncio.ensure_future(transaction())
    await inside.wait()
    sent: list[Any] = []
    on_hops(db, lambda fn, args: sent.append(fn))
    read = asyncio.ensure_future(db.get_table(tid))
    write = asyncio.ensure_future(db.set_lobby_message(tid, 1, 44))
    for _ in range(5):
        await asyncio.sleep(0)
    assert sent == [] and not read.done() and not write.done(), "they wait for the transaction"
    finish.set()
    row = await read
    await asyncio.gather(writer, write)
    assert row is not None and row.lobby_message_id in (43, 44), "read after the commit, not inside the transaction"
    assert (await db.get_table(tid)).lobby_message_id == 44  # type: ignore[union-attr]
