"""Gateway shards across processes (issue 26), on both backends: a process owns the tables of its shards' guilds
(what its clock, outbox and start-up catch-up take on), and what two processes with overlapping shards both select
is claimed in the database, so that a due time-out, a reminder and an owed board each happen once. Two
``Database``/``TableService`` pairs over one database stand for two processes (two connections: on PostgreSQL two
server sessions, on SQLite two connections to one file), run concurrently; nothing waits for time."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from storage import Database, TableRow
from storage.catchup import bot_tables
from storage.shards import Shards
from storage.sql import Step
from tables import Actor, Outcome, TableService
from tables.catalog import default_catalog
from tables.quick import resume_bots

HOUR = 3600.0
COUNT = 4  # shards


def guild_on(shard: int, n: int = 1) -> int:
    """A guild id Discord sends to ``shard`` of :data:`COUNT` (``(id >> 22) % count``)."""
    return ((shard + COUNT * n) << 22) | 0x2A


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


Opened = Callable[..., Any]


@pytest.fixture
async def place(new_place: Callable[..., str]) -> str:
    return new_place(migrated=True)


@pytest.fixture
async def opened() -> AsyncIterator[Opened]:
    """Opens a database (another process's connection to the same place), closed after the test."""
    dbs: list[Database] = []

    async def open_(where: str, shards: Shards | None = None) -> Database:
        db = await Database.open(where)
        db.shards = shards
        dbs.append(db)
        return db

    yield open_
    for db in dbs:
        await db.close()


def service(db: Database, clock: Clock) -> TableService:
    return TableService(db, default_catalog(), clock=clock, seeds=lambda: 11, render=False)


async def started(svc: TableService, guild_id: int | None, channel: int, options: str = "clock=1h",
                  bot: bool = False) -> int:
    """A started two-seat Breaks table in ``guild_id``'s ``channel``, its players its own (each player's daily
    reminders are counted: tables sharing players would run into the cap)."""
    host, other = Actor(channel * 10, "Host"), Actor(channel * 10 + 1, "Guest")
    out = await svc.open_lobby(guild_id=guild_id, channel_id=channel, host=host, game_key="breaks",
                               options_text=options)
    assert out.table_id is not None
    if bot:
        await svc.add_bot(out.table_id, host)
    else:
        await svc.join(out.table_id, other)
    await svc.start(out.table_id, host)
    return out.table_id


async def test_a_process_owns_the_tables_of_its_shards_guilds(place: str, opened: Opened) -> None:
    clock = Clock()
    everyone = service(await opened(place), clock)
    tables = {shard: await started(everyone, guild_on(shard), 100 + shard) for shard in range(COUNT)}
    dm = await started(everyone, None, 200)  # a table without a guild falls on shard 0, as DMs do
    mine = await opened(place, Shards.of([0, 2], COUNT))
    assert {o.table_id for o in await mine.undelivered(owned=True)} == {tables[0], tables[2], dm}, \
        "the boards owed: its own tables'"
    assert {o.table_id for o in await mine.undelivered()} == {*tables.values(), dm}, "(unasked, every table's)"
    clock.now += HOUR + 1
    assert sorted(await mine.claim_due(clock.now)) == sorted([tables[0], tables[2], dm])
    other = await opened(place, Shards.of([1, 3], COUNT))
    assert sorted(await other.claim_due(clock.now)) == sorted([tables[1], tables[3]])
    one_process = await opened(place)  # no shard settings: every table, as before
    clock.now += 1
    assert await one_process.claim_due(clock.now) == [], "each claimed already (for the lease)"
    assert sorted(await one_process.due(clock.now)) == sorted([*tables.values(), dm]), "(still due: unplayed)"


async def test_the_catch_up_looks_only_at_its_own_shards_bots(place: str, opened: Opened) -> None:
    clock = Clock()
    everyone = service(await opened(place), clock)
    tables = {shard: await started(everyone, guild_on(shard), 300 + shard, bot=True) for shard in range(COUNT)}
    mine = await opened(place, Shards.of([3], COUNT))
    seen: list[int] = []
    after: int | None = 0
    while after is not None:
        after, found = await bot_tables(mine, after, page=2)
        seen += [b.table_id for b in found]
    assert seen == [tables[3]]


async def cut_short(db: Database, table_id: int) -> None:
    """The seat to act becomes a bot's, as when the process stopped while its bot thought (the bot is to move at
    the next start)."""
    svc = service(db, Clock())
    table = await db.get_table(table_id)
    assert table is not None and table.state is not None
    game = svc.game(table.game)
    seat = min(game.to_act(game.load(table.state)))
    await db._write([Step("UPDATE seats SET user_id = NULL, bot = 'easy', name = 'Bot' WHERE table_id = ? AND "
                          "seat = ?", (table_id, seat))])


async def a_bot_cut_short(place: str, opened: Opened, clock: Clock, channel: int) -> tuple[int, TableRow]:
    """A game in a guild of shard 1 whose seat to act is a bot's that had not moved when the process stopped: its
    table and its row then."""
    first = service(await opened(place), clock)
    table_id = await started(first, guild_on(1), channel)
    before = await first.db.get_table(table_id)
    assert before is not None
    await cut_short(first.db, table_id)
    return table_id, before


async def test_a_bot_move_cut_short_is_chosen_again_by_the_process_owning_the_table(place: str,
                                                                                    opened: Opened) -> None:
    clock = Clock()
    table_id, before = await a_bot_cut_short(place, opened, clock, 400)
    # after the restart: the process of shards 0 and 2 does not touch it; the one of shard 1 plays the bot's move
    not_owner = service(await opened(place, Shards.of([0, 2], COUNT)), clock)
    assert [out async for out in resume_bots(not_owner)] == []
    owner = service(await opened(place, Shards.of([1], COUNT)), clock)
    outs = [out async for out in resume_bots(owner)]
    assert [o.table_id for o in outs] == [table_id] and outs[0].public, "its move, told"
    after = await owner.db.get_table(table_id)
    assert after is not None and after.version > before.version and after.last_ply > before.last_ply
    assert [out async for out in resume_bots(owner)] == [], "played once: nothing left to resume"


async def test_two_processes_resuming_one_bot_play_its_move_once_and_the_loser_says_nothing(
        place: str, opened: Opened, caplog: pytest.LogCaptureFixture) -> None:
    """Overlapping shards after a restart: both processes find the bot's move cut short and resume it at once; the
    move is stored once, told once, and the process that lost the version check logs no error."""
    clock = Clock()
    table_id, before = await a_bot_cut_short(place, opened, clock, 450)
    a, b = await two_processes(place, opened, clock)
    with caplog.at_level("INFO"):
        outs = await both(collect(resume_bots(a)), collect(resume_bots(b)))
    assert [o.table_id for o in outs] == [table_id], "told once"
    after = await a.db.get_table(table_id)
    assert after is not None and after.last_ply == before.last_ply + 1, "stored once"
    assert not [r for r in caplog.records if r.levelno >= 40], "the loser logs no error"


async def test_a_tournaments_deadline_handled_by_two_processes_is_handled_once_and_the_loser_says_nothing(
        place: str, opened: Opened, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    a, b = await two_processes(place, opened, clock)
    made = await a.tournaments.create(guild_id=guild_on(1), channel_id=960, actor=Actor(1, "P1"), organiser=True,
                                      game_key="breaks", fmt="swiss", options_text="signup=1h")
    assert made.tournament_id is not None
    for user in range(1, 5):
        await a.tournaments.join(made.tournament_id, Actor(user, f"P{user}"))
    clock.now += 3700  # sign-ups close: both processes' ticks see it at once
    with caplog.at_level("INFO"):
        outs = await both(a.tournaments.expire(), b.tournaments.expire())
    assert [o.tournament_id for o in outs] == [made.tournament_id], "closed once, told once"
    assert (await a.tournaments.row(made.tournament_id)).status == "running"
    assert len(await a.tournaments.owed_games(made.tournament_id)) == 2, "paired once"
    assert not [r for r in caplog.records if r.levelno >= 40], "the loser logs no error"


async def collect(outs: AsyncIterator[Outcome]) -> list[Outcome]:
    return [out async for out in outs]


def ids(outs: list[Outcome]) -> list[int]:
    """The tables of the outcomes, in order."""
    return sorted(o.table_id or 0 for o in outs)


async def both(a: Any, b: Any) -> list[Any]:
    """Two processes' calls at once; their results together."""
    first, second = await asyncio.gather(a, b)
    return [*first, *second]


async def two_processes(place: str, opened: Opened, clock: Clock) -> tuple[TableService, TableService]:
    """Two processes whose shards overlap (1 and 2 are both's: a mistaken configuration, or a re-shard while the
    old processes still run)."""
    a = service(await opened(place, Shards.of([0, 1, 2], COUNT)), clock)
    b = service(await opened(place, Shards.of([1, 2, 3], COUNT)), clock)
    return a, b


async def test_overlapping_processes_fire_each_due_reminder_and_timeout_once(place: str, opened: Opened) -> None:
    clock = Clock()
    a, b = await two_processes(place, opened, clock)
    tables = [await started(a, guild_on(1 + i % 2, i), 500 + i) for i in range(6)]  # all on the shared shards
    before = {t: await a.db.get_table(t) for t in tables}
    clock.now += 0.5 * HOUR + 1  # half time: the reminders
    reminders = await both(a.remind(), b.remind())
    assert sorted(o.table_id for o in reminders) == sorted(tables), "each table's reminder once"
    assert all("left for your turn" in (o.public[0].content or "") for o in reminders)
    assert await both(a.remind(), b.remind()) == [], "and not again"
    clock.now += 0.5 * HOUR  # the deadlines
    outs = await both(a.turn_clock.expire(), b.turn_clock.expire())
    assert sorted(o.table_id for o in outs) == sorted(tables), "each time-out once"
    assert all("ran out of time" in (o.public[0].description or "") for o in outs)
    for t in tables:
        row = await b.db.get_table(t)
        old = before[t]
        assert row is not None and old is not None and row.version > old.version
        moves = await b.db.moves(t)
        assert len({m.seat for m in moves}) == 1, "one turn played, by one process"
        assert row.deadline == clock.now + HOUR, "the next player's clock runs"
    assert await both(a.turn_clock.expire(), b.turn_clock.expire()) == []


async def test_a_claim_of_a_process_that_died_runs_out(place: str, opened: Opened) -> None:
    clock = Clock()
    a, b = await two_processes(place, opened, clock)
    table_id = await started(a, guild_on(2), 600)
    clock.now += 0.5 * HOUR + 1
    claimed, _ = await a.db.claim_reminders(clock.now)  # a claims the reminder, then dies before sending it
    assert claimed == [table_id]
    assert await b.remind() == [], "claimed: b leaves it"
    clock.now += a.db.lease  # the lease ran out: b sends it (the deadline has not passed)
    assert [o.table_id for o in await b.remind()] == [table_id]
    clock.now = (await b.db.get_table(table_id)).deadline + 1  # type: ignore[union-attr]
    assert await a.db.claim_due(clock.now) == [table_id]  # a claims the time-out, then dies
    assert await b.turn_clock.expire() == []
    clock.now += a.db.lease
    outs = await b.turn_clock.expire()
    assert [o.table_id for o in outs] == [table_id] and "ran out of time" in outs[0].public[0].description


async def test_two_time_outs_of_one_turn_leave_one_and_the_loser_says_nothing(place: str, opened: Opened) -> None:
    clock = Clock()
    a, b = await two_processes(place, opened, clock)
    a.db.lease = b.db.lease = 0.0  # no claim holds: both processes take the same late turn
    tables = [await started(a, guild_on(1, i), 700 + i) for i in range(4)]
    clock.now += HOUR + 1
    outs = await both(a.turn_clock.expire(), b.turn_clock.expire())
    assert sorted(o.table_id for o in outs) == sorted(tables), "the version check kept one time-out of each"
    for t in tables:
        assert len({m.seat for m in await a.db.moves(t)}) == 1


async def post_owed(svc: TableService) -> list[Outcome]:
    """A start-up sweep as the bot makes it (cogs.game's redeliver): each page's boards posted, and marked delivered,
    before the next page is read."""
    posted = []
    async for page in svc.outbox.undelivered_pages():
        for out in page:
            assert out.outbox is not None
            await svc.outbox.delivered(*out.outbox)
        posted += page
    return posted


async def test_overlapping_processes_post_each_owed_board_once(place: str, opened: Opened) -> None:
    clock = Clock()
    a, b = await two_processes(place, opened, clock)
    tables = [await started(a, guild_on(1 + i % 2, i), 800 + i) for i in range(5)]
    theirs = await started(a, guild_on(0), 900)  # a's alone
    posted = await both(post_owed(a), post_owed(b))  # both start up: the start-up sweep
    assert sorted(o.table_id for o in posted) == sorted([*tables, theirs]), "each table's owed board once"
    assert all(o.owed for o in posted)


async def test_an_owed_board_refused_is_tried_again_at_the_next_tick_not_after_the_lease(place: str,
                                                                                        opened: Opened) -> None:
    """A sweep lets go of its claims once its page is delivered or refused: Discord refusing the board, the next
    tick's sweep (of either process) tries it again, not the claim's lease later."""
    clock = Clock()
    a, b = await two_processes(place, opened, clock)
    table = await started(a, guild_on(1), 950)
    assert [o.table_id for o in await a.outbox.undelivered()] == [table]  # posted, and refused: still owed
    clock.now += 61
    assert [o.table_id for o in await b.outbox.undelivered(settled=60)] == [table], "tried again at once"
    clock.now += 61
    assert [o.table_id for o in await a.outbox.undelivered(settled=60)] == [table], "and again"


async def test_a_process_closing_in_order_lets_go_of_its_claims(place: str, opened: Opened) -> None:
    """A process stopped in order (a deploy's restart) lets go of what it claimed and did not finish: its restart,
    or another process, takes it at once rather than after the lease."""
    clock = Clock()
    a, b = await two_processes(place, opened, clock)
    tables = sorted([await started(a, guild_on(1), 960), await started(a, guild_on(2), 961)])
    clock.now += HOUR + 1
    assert sorted(await a.db.claim_due(clock.now)) == tables  # claimed, then a stops before timing them out
    assert await a.db.claim_owed(tables, clock.now) == set(tables)
    assert await b.turn_clock.expire() == [] and await b.outbox.undelivered() == [], "a's claims hold"
    await a.db.close()
    assert ids(await b.turn_clock.expire()) == tables, "let go: b times them out now"
    assert ids(await b.outbox.undelivered()) == tables, "and posts what they owe"
    clock.now += 0.5 * HOUR + 1  # the next turns' reminders
    c = service(await opened(place, Shards.of([1, 2], COUNT)), clock)
    claimed, _ = await c.db.claim_reminders(clock.now)
    assert claimed == tables
    assert await b.remind() == []
    await c.db.close()
    assert ids(await b.remind()) == tables, "due again from when c claimed them"
    assert await b.remind() == []
