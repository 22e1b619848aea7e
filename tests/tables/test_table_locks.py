"""A table's lock is one while requests hold it or wait for it, and is not kept once they are done (a bot that runs
for months serves ever more tables)."""

from __future__ import annotations

import asyncio

from tables import TableService
from tables.core import TableLocks
from tests.tables.helpers import ALICE, BOB, started, whose_turn


async def test_one_lock_while_used_none_kept_after() -> None:
    locks = TableLocks()
    order: list[str] = []
    release = asyncio.Event()
    entered = asyncio.Event()

    async def request(name: str, hold: bool) -> None:
        async with locks[7]:
            order.append(f"{name} in")
            entered.set()
            if hold:
                await release.wait()
            order.append(f"{name} out")

    first = asyncio.create_task(request("a", True))
    await entered.wait()
    second = asyncio.create_task(request("b", False))
    for _ in range(3):
        await asyncio.sleep(0)
    assert order == ["a in"], "the second request waits for the same lock"
    assert len(locks) == 1 and locks[7].locked()
    release.set()
    await asyncio.gather(first, second)
    assert order == ["a in", "a out", "b in", "b out"]
    assert len(locks) == 0, "nobody holds or waits for it: not kept"


async def test_the_service_keeps_no_lock_after_its_requests(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    for _ in range(3):
        _, actor, move = await whose_turn(svc, tid)
        await svc.submit(actor, move, table_id=tid)
    assert len(svc.core.locks) == 0
