"""Database calls per move, counted: every hop to aiosqlite's thread and every SQL statement a move makes, by kind
and by origin (issue 28: "a move is a handful of database round trips").

Plays games through the real :class:`~tables.service.TableService` on a real SQLite file (WAL), with moves chosen
at random from the ones the service offers (``choices``, as ``/move``'s autocomplete does), each sent as ``/move``
sends it (``submit`` by channel); after each move it does the bookkeeping ``cogs.game.GameCog.deliver`` does with
the outcome (the turn's status message, ``delivered`` with the new board, ``dm_result`` for every DM), so a move
is counted from the request to the outbox marked delivered. The autocomplete that chose the move is counted apart.

* **calls**: every ``await`` that hops to aiosqlite's thread (an ``execute``, a ``fetchone``, a cursor's
  ``close``...): the cost that issue 28 measured at ~51 per move;
* **statements** (round trips): every SQL statement sent, ``BEGIN`` and ``COMMIT`` included: what one
  ``asyncpg`` round trip each would be on PostgreSQL.

Scenarios: Breaks with 2 and with 4 people, Breaks with one person against a bot (easy, in this process; medium,
in the bots' worker: it stores the person's move before it thinks), and Bloc by Bloc with 4 people. Run from the
repository root::

    python -m bench.dbcalls                      # the table, for 2 games of each scenario
    python -m bench.dbcalls --games 1 --origins  # and every call of one move of each, with where it comes from

The CPU column is this process's CPU time (all its threads: the database's too) per move, with pictures off, taken
without ``--origins`` (whose tracebacks cost CPU per call).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.rng import Rng
from storage import Database
from tables import renderer
from tables.bots import Thinker
from tables.catalog import default_catalog
from tables.outcome import Actor, Outcome
from tables.service import TableService

ROOT = Path(__file__).resolve().parent.parent
OURS = ("storage/", "tables/", "cogs/")  # the frames an origin is told by


@dataclass(frozen=True)
class Call:
    kind: str  # execute, fetchone, close, executemany, run_steps (a change's statements in one hop)...
    sql: str  # the (first) statement's first words ('' for a call that sends none)
    origin: str  # the project's frames that made it, innermost first
    statements: int  # the SQL statements it sent (BEGIN and COMMIT included)


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    people: int
    bot: str | None = None  # a bot seat's level (one bot seat after the people)
    options: str | None = None
    moves: int = 60  # at most this many moves of a game are counted (Bloc by Bloc's games are long)


SCENARIOS = (
    Scenario("Breaks 2p", "breaks", 2),
    Scenario("Breaks 4p", "breaks", 4),
    Scenario("Breaks 1p + easy bot", "breaks", 1, bot="easy"),
    Scenario("Breaks 1p + medium bot", "breaks", 1, bot="medium"),
    Scenario("Bloc by Bloc 4p", "blocbybloc", 4, moves=40),
)


def on_hops(db: Database, seen: Callable[[Any, tuple[Any, ...]], None]) -> None:
    """Call ``seen(fn, args)`` for every call queued to ``db``'s aiosqlite thread (the connection's ``_execute``, which
    every Connection and Cursor method goes through: one round trip each), or on PostgreSQL for every statement sent
    to the server (``PgConnection._run``, a round trip each: ``args`` is the statement and its parameters), on this
    instance only (storage/ is unchanged)."""
    conn: Any = db._conn
    if db.postgres:
        send = conn._run

        async def sent(sql: str, args: Any) -> Any:
            seen(send, (sql, args))
            return await send(sql, args)

        conn._run = sent
        return
    real = conn._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        seen(fn, args)
        return await real(fn, *args, **kwargs)

    conn._execute = counted


class Recorder:
    """Counts the hops to one aiosqlite connection's thread (its ``_execute``, which every Connection and Cursor
    method goes through), with each call's statement and where it came from."""

    def __init__(self, db: Database, origins: bool) -> None:
        self.calls: list[Call] = []
        self.on = False

        def seen(fn: Any, args: tuple[Any, ...]) -> None:
            if self.on:
                self.calls.append(_call(fn, args, origins))

        on_hops(db, seen)

    def take(self) -> list[Call]:
        calls, self.calls = self.calls, []
        return calls


def _call(fn: Any, args: tuple[Any, ...], origins: bool) -> Call:
    """One call, with where it came from when ``origins`` (a traceback: it costs CPU, so the CPU figures are
    taken without it)."""
    kind = getattr(fn, "__name__", str(fn)).lstrip("_")
    origin = _origin() if origins else ""
    if kind == "run_steps":  # storage.sql.steps: (connection, steps, BEGIN first, COMMIT last)
        words = [s.sql.split()[0] for s in args[1] if s.args or not s.many]
        words = ["BEGIN"] * bool(args[2]) + words + ["COMMIT"] * bool(args[3])
        return Call(kind, "; ".join(words), origin, len(words))
    sql = " ".join(str(args[0]).split()[:4]) if args and isinstance(args[0], str) else ""
    return Call(kind, sql, origin, 1 if sql else 0)


def _origin() -> str:
    frames = [f for f in traceback.extract_stack()[:-3] if any(part in f.filename for part in OURS)]
    return " < ".join(f"{Path(f.filename).relative_to(ROOT)}:{f.name}" for f in reversed(frames[-4:]))


def statements(calls: Sequence[Call]) -> int:
    return sum(c.statements for c in calls)


@dataclass
class Tally:
    calls: list[int] = field(default_factory=list)  # per move
    statements: list[int] = field(default_factory=list)
    complete: list[int] = field(default_factory=list)  # the autocomplete before each move
    cpu_ms: list[float] = field(default_factory=list)  # this process's CPU time per move (all its threads)
    kinds: Counter[str] = field(default_factory=Counter)
    origins: Counter[str] = field(default_factory=Counter)
    example: list[Call] = field(default_factory=list)  # every call of one move that ended a turn (a board)


async def deliver(service: TableService, out: Outcome, message_ids: Any) -> None:
    """The bookkeeping ``GameCog.deliver`` does with what a request says to post (no Discord here: every post
    succeeds, every DM arrives)."""
    posted = None
    for post in out.public:
        if post.status_of is not None:
            if await service.status_message(*post.status_of) is None:
                await service.status_posted(*post.status_of, next(message_ids))
            continue
        if post.panel_table or post.rematch_table:
            posted = next(message_ids)
    if out.outbox is not None:
        await service.delivered(*out.outbox, posted, board=True, lobby=out.lobby is not None)
    elif posted is not None and out.table_id is not None:
        await service.board_posted(out.table_id, posted)
    for dm in out.dms:
        await service.dm_result(dm.table_id, dm.user_id, True)
    ended = [p.rematch_table for p in out.public if p.rematch_table is not None]
    if ended:  # the cog looks up a finished game's tournament
        await service.core.table(ended[-1])


async def play(service: TableService, recorder: Recorder, scenario: Scenario, channel: int, rng: Rng,
               tally: Tally) -> None:
    """One game of ``scenario`` (at most ``scenario.moves`` moves), each move counted."""
    people = [Actor(channel * 10 + i, f"Player {i + 1}") for i in range(scenario.people)]
    ids = iter(range(channel * 100_000, channel * 100_000 + 90_000))
    out = await service.open_lobby(guild_id=1, channel_id=channel, host=people[0], game_key=scenario.game,
                                   options_text=scenario.options)
    assert out.table_id is not None
    table_id = out.table_id
    for actor in people[1:]:
        await service.join(table_id, actor)
    if scenario.bot is not None:
        await service.add_bot(table_id, people[0], scenario.bot)
    await deliver(service, await service.start(table_id, people[0]), ids)
    for _ in range(scenario.moves):
        table = await service.db.get_table(table_id)
        assert table is not None
        if table.status != "active":
            break
        sit = service.core.situation(table, service.game(table.game))
        seat = min(s for s in sit.to_act if table.seats[s].user_id is not None)
        actor = next(p for p in people if p.user_id == table.seats[seat].user_id)
        recorder.on = True
        choices = await service.choices(channel, actor)
        tally.complete.append(len(recorder.take()))
        cpu = time.process_time()
        out = await service.submit(actor, rng.choice(choices).notation, channel_id=channel)
        await deliver(service, out, ids)
        tally.cpu_ms.append((time.process_time() - cpu) * 1000)
        recorder.on = False
        calls = recorder.take()
        tally.calls.append(len(calls))
        tally.statements.append(statements(calls))
        tally.kinds.update(c.kind for c in calls)
        tally.origins.update(f"{c.kind:<15} {c.sql:<28} {c.origin}" for c in calls)
        if not tally.example and out.outbox is not None:
            tally.example = calls


async def run(games: int, seed: int, scenarios: Sequence[Scenario], origins: bool = False) -> dict[str, Tally]:
    rng = Rng(seed)
    out: dict[str, Tally] = {}
    with tempfile.TemporaryDirectory(prefix="blockhouse-dbcalls-") as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        service = TableService(db, default_catalog(), seeds=lambda: rng.next64() >> 1, render=False)
        service.thinker = Thinker(budget_ms=20)  # a medium bot that answers quickly: its calls are what count
        recorder = Recorder(db, origins)
        try:
            channel = 1000
            for scenario in scenarios:
                tally = out[scenario.name] = Tally()
                for _ in range(games):
                    channel += 1
                    await play(service, recorder, scenario, channel, rng, tally)
        finally:
            service.thinker.close()
            await db.close()
    return out


def _stats(values: Sequence[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):>5.1f} {statistics.mean(values):>6.1f} {max(values):>5.0f}"


def format_text(tallies: dict[str, Tally], origins: bool) -> str:
    lines = ["Database calls per move (median, mean, max), through TableService and the cog's bookkeeping; CPU: this "
             "process's (all its threads), pictures off" + (", inflated by --origins' tracebacks" if origins else "")
             + ":", "",
             f"{'scenario':<24} {'moves':>5}  {'calls':^17}  {'statements':^17}  {'autocomplete':^17}  "
             f"{'CPU ms':^17}"]
    for name, t in tallies.items():
        lines.append(f"{name:<24} {len(t.calls):>5}  {_stats(t.calls):>17}  {_stats(t.statements):>17}  "
                     f"{_stats(t.complete):>17}  {_stats(t.cpu_ms):>17}")
    lines.append("")
    for name, t in tallies.items():
        moves = max(1, len(t.calls))
        kinds = ", ".join(f"{k} {n / moves:.1f}" for k, n in t.kinds.most_common())
        lines.append(f"{name}: per move: {kinds}")
    if origins:
        for name, t in tallies.items():
            moves = max(1, len(t.calls))
            lines += ["", f"== {name}: calls per move by kind, statement and origin (innermost frame first)"]
            lines += [f"  {n / moves:5.2f}  {what}" for what, n in t.origins.most_common()]
            lines += ["", f"== {name}: every call of one move that ended a turn"]
            lines += [f"  {c.kind:<15} {c.sql:<28} {c.origin}" for c in t.example]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    # pictures drawn in this process's threads, as this bench has always measured (the bot's default on two cores
    # or more is a render worker process, which bench.load measures)
    os.environ.setdefault(renderer.WORKERS_SETTING, "0")
    p = argparse.ArgumentParser(prog="python -m bench.dbcalls", description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--games", type=int, default=2, help="games of each scenario (default %(default)s)")
    p.add_argument("--seed", type=int, default=20261127, help="seed of deals and moves (default %(default)s)")
    p.add_argument("--origins", action="store_true", help="also list each call by origin, and one move's calls")
    p.add_argument("--only", default=None, help="only the scenarios whose name contains this")
    args = p.parse_args(argv)
    chosen = [s for s in SCENARIOS if args.only is None or args.only.lower() in s.name.lower()]
    print(format_text(asyncio.run(run(args.games, args.seed, chosen, args.origins)), args.origins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
