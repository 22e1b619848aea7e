"""The turn clock at scale: with 10,000 active games stored, what one scheduler tick costs, and what start-up costs
when deadlines passed while the bot was down.

A temporary SQLite file gets ``--games`` active tables with turn clocks (real started Breaks games, bulk-copied),
deadlines and reminders spread over the next week; ``--overdue`` of them are given deadlines in the past. Then:

* tick: the scheduler's two indexed queries (due deadlines, due reminders) with nothing due, median of 200;
* start-up: open the database (migrations included) and play out every overdue turn (``TableService.expire``,
  a bot plays each late turn, stored in its own transaction) and send the due reminders.

Run from the repository root::

    python -m bench.clock                      # 10,000 games, 50 overdue
    python -m bench.clock --games 2000 --overdue 10

Targets (issue 12): tick under 5 ms, start-up under 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from storage import Database
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
        row = dict(template, id=i, channel_id=1000 + i)
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


async def measure(path: Path, now: float) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    db = await Database.open(path)
    svc = TableService(db, default_catalog(), clock=lambda: now, seeds=lambda: 5, render=False)
    played = await svc.expire()
    await svc.remind()
    startup = time.perf_counter() - t0
    ticks = []
    for _ in range(200):
        t = time.perf_counter()
        await db.due(now)
        await db.reminders_due(now)
        ticks.append((time.perf_counter() - t) * 1000)
    await db.close()
    return statistics.median(ticks), startup, len(played)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--overdue", type=int, default=50)
    args = parser.parse_args(argv)
    now = 2_000_000_000.0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "clock.db"
        asyncio.run(build(path, args.games, args.overdue, now))
        tick, startup, played = asyncio.run(measure(path, now))
    print(f"{args.games} active games with turn clocks, {args.overdue} deadlines passed while down")
    print(f"  {'PASS' if tick < TICK_TARGET_MS else 'FAIL'}  scheduler tick (median of 200): {tick:.3f} ms "
          f"(target < {TICK_TARGET_MS:g} ms)")
    print(f"  {'PASS' if startup < STARTUP_TARGET_S else 'FAIL'}  start-up with {played} late turns played out: "
          f"{startup:.2f} s (target < {STARTUP_TARGET_S:g} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
