"""What committed changes still owe is read a page of tables at a time (Outbox.undelivered_pages): a page is read
when the one before has been taken, so after a long stop the boards of thousands of tables are not drawn and held at
once; what the caller delivers meanwhile is not read again, and a table whose owed board can't be made keeps none
of the others from theirs."""

from __future__ import annotations

from typing import Any

from tables import TableService
from tests.tables.helpers import ALICE, BOB, lobby


async def owing(svc: TableService, count: int) -> list[int]:
    """``count`` started games (each owes its first board: nothing was posted)."""
    ids = []
    for i in range(count):
        tid = await lobby(svc, ALICE, BOB, channel=500 + i)
        await svc.start(tid, ALICE)
        ids.append(tid)
    return ids


async def test_owed_boards_come_a_page_at_a_time(svc: TableService) -> None:
    ids = await owing(svc, 5)
    reads: list[int] = []
    read = svc.db.undelivered

    async def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(kwargs.get("after", 0))
        return await read(*args, **kwargs)

    svc.db.undelivered = counted  # type: ignore[method-assign]
    seen: list[list[int | None]] = []
    async for page in svc.outbox.undelivered_pages(page=2):
        seen.append([out.table_id for out in page])
        assert len(reads) == len(seen), "the next page is not read before this one is taken"
        assert all(out.owed and out.public for out in page)
        for out in page:  # delivered before the next page is read
            assert out.outbox is not None
            await svc.delivered(*out.outbox, None)
    assert seen == [ids[:2], ids[2:4], ids[4:]]
    assert reads == [0, ids[1], ids[3]], "each page after the last table of the one before"
    assert await svc.db.undelivered() == []
    assert await svc.undelivered() == [], "(every page at once: nothing left)"


async def test_a_table_that_cant_be_shown_keeps_none_of_the_others(svc: TableService) -> None:
    ids = await owing(svc, 3)
    await svc.db._conn.execute("UPDATE tables SET game = 'gone' WHERE id = ?", (ids[0],))
    pages = [[out.table_id for out in page] async for page in svc.outbox.undelivered_pages(page=1)]
    assert pages == [[ids[1]], [ids[2]]]
