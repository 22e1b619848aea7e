"""A DM that arrives where the player's seat already says DMs arrive writes nothing (most DMs: a move's private view
to its player); a failure is written and told once, and the next DM that arrives is written again."""

from __future__ import annotations

from typing import Any

from bench.dbcalls import on_hops
from tables import TableService
from tests.tables.helpers import ALICE, BOB, read, started


async def test_only_a_change_in_whether_dms_arrive_is_written(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    hops: list[Any] = []
    on_hops(svc.db, lambda fn, args: hops.append(fn))

    def taken() -> int:
        count = len(hops)
        hops.clear()
        return count

    assert await svc.dm_result(tid, BOB.user_id, True) is None
    assert taken() == 1, "the first DM of the process: it does not know the seat yet"
    for _ in range(3):
        assert await svc.dm_result(tid, BOB.user_id, True) is None
    assert taken() == 0, "the seat says so already: nothing to write"
    assert await svc.dm_result(tid, BOB.user_id, False) is not None, "a failure is told"
    assert taken() == 1
    assert [s.dm_open for s in (await read(svc, tid)).seats] == [True, False]
    taken()
    assert await svc.dm_result(tid, BOB.user_id, True) is None
    assert taken() == 1, "arriving again after a failure is written"
    assert [s.dm_open for s in (await read(svc, tid)).seats] == [True, True]
    taken()
    assert await svc.dm_result(tid, BOB.user_id, True) is None
    assert taken() == 0
    assert await svc.dm_result(tid, ALICE.user_id, True) is None
    assert taken() == 1, "each seat's own"
