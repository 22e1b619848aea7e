"""The turn clock at scale: with 10,000 active games stored, what one scheduler tick costs, and what start-up costs
when deadlines passed while the bot was down.

A temporary SQLite file gets ``--games`` active tables with turn clocks (real started Breaks games, bulk-copied),
deadlines and reminders spread over the next week; ``--overdue`` of them are given deadlines in the past. Then:

* tick: what the clock's tick asks the database with nothing due, median of 200: the due time-outs and reminders
  claimed (``claim_due``, ``claim_reminders``: one statement each, issue 26), the threads to archive, and a page of
  owed boards (``undelivered``, this process's tables);
* start-up: open the database (migrations included) and play out every overdue turn (``TableService.expire``,
  a bot plays each late turn, stored in its own transaction) and send the due reminders.

Run from the repository root::

    python -m bench.clock                      # 10,000 games, 50 overdue
    python -m bench.clock --games 2000 --overdue 10
    python -m bench.clock --postgresql             # also on a throwaway PostgreSQL server (tests/pg.py), a copy
    python -m bench.clock --shards 0,2/4           # as the process of shards 0 and 2 of 4 (issue 26)

Targets (issue 12): tick under 5 ms, start-up under 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from storage import Database
from storage.shards import Shards
from tables import Actor, TableService
from tables.catalog import default_catalog

TICK_TARGET_MS, STARTUP_TARGET_S = 5.0, 2.0
WEEK = 7 * 24 * 3600.0


async def build(path: Path, games: int, overdue: int, now: float) -> None:
    """One real started game, then ``games`` copies of it with their own channels and deadlines."""
    db = await Database.open(path)
    svc = TableService(db, default_catalog(), clock=lambda: now, seeds=lambda: 5, render=False)
    out = await svc.open_lobby(guild_id=1, channel_id=1, host=Actor(1, "Ann"), game_key="breaks",
                               options_text="clock=24h")
    assert out.table_id is not None
    await svc.join(out.table_id, Actor(2, "Bo"))
    await svc.start(out.table_id, Actor(1, "Ann"))
    await db.close()
    rng = random.Random(1)
    con = sqlite3.connect(path)
    cols = [r[1] for r in con.execute("PRAGMA table_info(tables)")]
    template = dict(zip(cols, con.execute("SELECT * FROM tables WHERE id = ?", (out.table_id,)).fetchone(),
                        strict=True))
    seats = con.execute("SELECT * FROM seats WHERE table_id = ?", (out.table_id,)).fetchall()
    seat_cols = [r[1] for r in con.execute("PRAGMA table_info(seats)")]
    rows, seat_rows = [], []
    for i in range(2, games + 1):
        row = dict(template, id=i, channel_id=1000 + i, guild_id=(i << 22) | 1)  # (a guild each: on shard i % count)
        late = i <= overdue + 1
        row["deadline"] = now - rng.uniform(60, 3600) if late else now + rng.uniform(3600, WEEK)
        row["remind_at"] = now + rng.uniform(60, WEEK / 2)
        rows.append(tuple(row[c] for c in cols))
        seat_rows += [tuple(i if c == "table_id" else v for c, v in zip(seat_cols, s, strict=True)) for s in seats]
    con.executemany(f"INSERT INTO tables ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})", rows)
    con.executemany(f"INSERT INTO seats ({', '.join(seat_cols)}) VALUES ({', '.join('?' for _ in seat_cols)})",
                    seat_rows)
    con.execute("UPDATE tables SET deadline = ? WHERE id = ?", (now + WEEK, out.table_id))
    con.commit()
    con.close()


async def tick(db: Database, now: float) -> None:
    """What the clock's tick asks the database (cogs.game's clock loop: TurnClock.expire and remind, the threads to
    archive, the outbox's owed boards) when nothing is due."""
    await db.claim_due(now)
    await db.claim_reminders(now)
    await db.archives_due(now)
    await db.undelivered((now - 86_400, now - 60), limit=20, owned=True)


async def measure(where: str, now: float, shards: Shards | None) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    db = await Database.open(where)
    db.shards = shards
    svc = TableService(db, default_catalog(), clock=lambda: now, seeds=lambda: 5, render=False)
    played = await svc.expire()
    await svc.remind()
    startup = time.perf_counter() - t0
    ticks = []
    for _ in range(200):
        t = time.perf_counter()
        await tick(db, now)
        ticks.append((time.perf_counter() - t) * 1000)
    await db.close()
    return statistics.median(ticks), startup, len(played)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--overdue", type=int, default=50)
    parser.add_argument("--postgresql", action="store_true",
                        help="also on a throwaway PostgreSQL server (tests/pg.py): the same games, copied")
    parser.add_argument("--shards", default=None, metavar="IDS/COUNT",
                        help="as the process of these shards (e.g. 0,2/4): its tables only")
    args = parser.parse_args(argv)
    shards = None
    if args.shards:
        ids, _, count = args.shards.partition("/")
        shards = Shards.of([int(i) for i in ids.split(",")], int(count))
    now = 2_000_000_000.0
    results = []
    if args.postgresql:
        from tests.pg import HOW_TO_INSTALL, server_binaries
        if server_binaries() is None:
            print(HOW_TO_INSTALL)
            return 2
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as servers:
        path = Path(tmp) / "clock.db"
        asyncio.run(build(path, args.games, args.overdue, now))
        places = [("SQLite", str(path))]
        if args.postgresql:
            from storage.copy import copy
            from tests.pg import bench_server
            url = servers.enter_context(bench_server()).create(migrated=False)
            asyncio.run(copy(path, url, say=lambda _: None))  # (before the SQLite start-up plays the late turns)
            places.append(("PostgreSQL", url))
        for name, where in places:
            results.append((name, *asyncio.run(measure(where, now, shards))))
    print(f"{args.games} active games with turn clocks, {args.overdue} deadlines passed while down"
          + (f", as shards {args.shards}" if shards else ""))
    for name, ticked, startup, played in results:
        print(f"  {name}:")
        print(f"    {'PASS' if ticked < TICK_TARGET_MS else 'FAIL'}  scheduler tick (median of 200): {ticked:.3f} ms "
              f"(target < {TICK_TARGET_MS:g} ms)")
        print(f"    {'PASS' if startup < STARTUP_TARGET_S else 'FAIL'}  start-up with {played} late turns played out: "
              f"{startup:.2f} s (target < {STARTUP_TARGET_S:g} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
