"""tables.outbox: the bookkeeping of what was posted where (whether a player's DMs arrive)."""

from __future__ import annotations

from tables import TableService
from tests.tables.helpers import ALICE, BOB, STRANGER, read, started


async def test_dm_result_warns_only_the_first_time_dms_fail(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    assert await svc.dm_result(tid, STRANGER.user_id, False) is None
    assert await svc.dm_result(tid, BOB.user_id, True) is None  # already open: nothing to say
    notice = await svc.dm_result(tid, BOB.user_id, False)
    assert notice is not None and notice.mention_ids == [BOB.user_id] and notice.content == "<@2>"
    assert "/hand" in notice.description
    assert [s.dm_open for s in (await read(svc, tid)).seats] == [True, False]
    assert await svc.dm_result(tid, BOB.user_id, False) is None  # already known
    assert await svc.dm_result(tid, BOB.user_id, True) is None  # delivered again
    assert [s.dm_open for s in (await read(svc, tid)).seats] == [True, True]
    assert await svc.dm_result(tid, BOB.user_id, False) is not None  # a new failure is news again
