"""A move is a handful of database round trips (issue 28): each call to the database's thread is counted while
people play whole games of Breaks through the table service, by ``/move`` (the channel) and by button, and the
bookkeeping the Discord layer does after each (the outbox marked delivered, the DMs' fate). The count is of calls,
not of time: it does not depend on the machine's speed. ``python -m bench.dbcalls`` lists every call by origin."""

from __future__ import annotations

from typing import Any

import pytest

from bench.dbcalls import on_hops
from storage import ACTIVE, Database
from tables import Outcome, TableService
from tests.tables.helpers import ALICE, BOB, CARL, CH, read, started, whose_turn

MAX_ROUND_TRIPS = 8  # per move, the bookkeeping after it included


class Hops:
    """Counts the calls to the connection's thread (every aiosqlite call is one round trip)."""

    def __init__(self, db: Database) -> None:
        self.count = 0
        on_hops(db, self._seen)

    def _seen(self, fn: Any, args: tuple[Any, ...]) -> None:
        self.count += 1

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


async def bookkeeping(svc: TableService, out: Outcome, message_id: int) -> None:
    """What GameCog.deliver records once the posts are made: the outbox delivered with the new board, each DM."""
    if out.outbox is not None:
        await svc.delivered(*out.outbox, message_id if out.public else None, lobby=out.lobby is not None)
    for dm in out.dms:
        await svc.dm_result(dm.table_id, dm.user_id, True)


@pytest.mark.parametrize(("bots", "typed"), [(0, True), (0, False), (1, True)])
async def test_every_move_of_a_game_is_a_handful_of_round_trips(svc: TableService, bots: int, typed: bool) -> None:
    people = (ALICE, BOB) if not bots else (ALICE, CARL)
    tid, out = await started(svc, *people, bots=bots)
    await bookkeeping(svc, out, 1)
    hops = Hops(svc.db)
    counts = []
    for n in range(400):
        table = await read(svc, tid)
        if table.status != ACTIVE:
            break
        _, actor, move = await whose_turn(svc, tid)
        hops.take()
        if typed:  # /move: the table is found by its channel
            out = await svc.submit(actor, move, channel_id=CH)
        else:  # a button: it names the table and its version
            out = await svc.submit(actor, move, table_id=tid, version=table.version)
        await bookkeeping(svc, out, 100 + n)
        counts.append(hops.take())
    assert (await read(svc, tid)).status != ACTIVE, "the game was played to its end"
    assert len(counts) > 20
    assert max(counts) <= MAX_ROUND_TRIPS, [(n, c) for n, c in enumerate(counts) if c > MAX_ROUND_TRIPS]
    assert not await svc.db.undelivered(), "and every board was marked delivered"
