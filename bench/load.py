"""The bot under load, through discord.py's real code path (issue 28).

The real bot (:class:`cogs.client.Blockhouse`: its cogs, the real :class:`~tables.TableService`, a real SQLite file
in a temporary folder, opened as the bot opens it) runs against simcord's offline Discord double, with ``--tables``
concurrent tables of one ``--game``. Every seat is a simulated member who moves as fast as answers come: the member
reads the newest board (who is mentioned), then plays the way a person does: a move button, the move menu (one
select at a time, Submit under a preview), or ``/move`` with a notation exactly as autocomplete offered it, and the
"My view" button when the board's controls are not theirs (a private decision, several seats to act). So each move
travels interaction → defer/answer → service → database → render → board post. A finished game is followed by a new
one in the same channel (``/game new``, Join, Start), as the members would.

How the double is driven: simcord's member verbs (``click``, ``select``, ``slash``) wait until the whole bot is idle,
one verb at a time, which serialises every table. The bench therefore builds the same INTERACTION_CREATE payloads as
those verbs (simcord's own ``base_payload`` and command options) and emits them without waiting; a member waits for
what it needs by watching simcord's REST router (every call the bot makes to "Discord" passes through it). The setup
(lobbies, joins, starts of the first games) uses the ordinary verbs. simcord's clock is made to follow the wall clock
during the load, so its interaction expiry (an initial answer later than 3 s after the interaction is refused with
10062 Unknown Interaction, as Discord does) applies to real time; the virtual timers due are run every 0.5 s (simcord
runs them only in its settle), so views time out and the turn-clock loop ticks as live. The measured window runs on
the plain event loop (:class:`PlainLoop`): simcord's loop instrumentation (its wrapped ``call_soon``/``create_task``/
timers and its virtual ``time.monotonic``, about 1 ms of CPU per move a live bot does not spend) is lifted for the
window and put back after it, what the bot left running then handed to simcord (``--simcord-window`` keeps it on).

Per run it prints: moves/s; p50/p95 latency from a member's interaction to what the member waits for next (the new
board, or the private answer: the next menu level, a preview, the rest of a turn), and for the interactions that
played a move, to the next board; CPU per move of this process (getrusage over the measured window, all threads)
with the part simcord's REST double and the bench's members cost measured (this thread's CPU time inside simcord's
router, the members' own code) and subtracted for the bot's own figure, and the CPU of any child processes
(``/proc/<pid>/stat`` of the children: bot workers, render pools); database calls per move (every call queued to
aiosqlite's thread, counted by wrapping the connection: storage/ is not changed); interactions acknowledged after 3 s
(refused by simcord's expiry), interactions never acknowledged, refusals, ERROR log records (tracebacks) and WARNING
records; RSS after warm-up, at the end, and its growth per 1,000 moves; event-loop lag (a 10 ms sleep's overshoot)
p50/p99/max; and the lost/doubled check, from the database after the run (:func:`check_moves`): each game's stored
move log, by seat, against the moves its members were told of ("Played", or "Not played" for a move the game stored
and then cancelled), and the boards the outbox still owes once the bot has settled (none).

``--startup`` instead generates a database of stored games (``--stored``, ``--running`` of them running), starts the
bot on it, and times from ``on_ready`` to the first answered interaction (a member's "My view" click on a running
table, sent the moment ``on_ready`` runs), how long the start-up catch-up takes, and how long it holds the database
(the longest single hold of the database lock and the total).

Run from the repository root (``nice`` it: it takes a core)::

    python -m bench.load                                  # Breaks at 1, 20 and 200 tables
    python -m bench.load --game blockers --tables 1,20
    python -m bench.load --tables 20 --moves 1000 --json /tmp/load.json
    python -m bench.load --startup --stored 10000 --running 10000 [--postgresql]

Measurements, not tests: it always exits 0 unless the bench itself breaks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import math
import os
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import simcord
from simcord import _dpy_internals as sc_internals
from simcord import _runtime as sc_runtime
from simcord import _settlement as sc_settlement
from simcord import actors as sc_actors
from simcord import interactions as sc_interactions
from simcord.backend import serializers as sc_serializers
from simcord.backend.errors import BackendError
from simcord.http import router as sc_router

from bench.dbcalls import on_hops
from cogs.client import Blockhouse, Settings, tune_process
from cogs.controls import board_stamp
from storage import Database, MoveRow
from tables import Actor, TableService
from tables.catalog import default_catalog

GAMES = ("breaks", "blockers", "block", "breakerblocks", "blocbybloc")
DEFAULT_PLAYERS = {"breaks": 2, "blockers": 3, "block": 2, "breakerblocks": 2, "blocbybloc": 3}
MENTION = re.compile(r"<@(\d+)>")
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE = 2, 3, 4
BUTTON, STRING_SELECT = 2, 3
EPHEMERAL, LOADING = 1 << 6, 1 << 7
# A move the game stored and then cancelled (tables.play: the mover's answer "Not played: <why>", the spent private
# menu "↩️ Not played: <why>"): its attempt is a stored move, its roll and what came of it stand
CANCELLED = ("Not played:", "↩️ Not played:")
LAG_INTERVAL = 0.010  # the loop-lag probe's sleep
ACK_SECONDS = 3.5  # a member whose interaction has no answer by then was shown "This interaction failed" (after 3 s;
# simcord refuses a later first answer, as Discord does)
KEEP_MESSAGES = 12  # messages kept per channel in simcord's store (older ones are pruned: Discord keeps them, a
# long run in memory would not; the bot only edits the newest board and the previous one)
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")


# --- measuring ---------------------------------------------------------------------------------------------------
def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


def cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def children_cpu_s() -> dict[int, float]:
    """CPU seconds of each live child process of this one (bot workers, render pools)."""
    out: dict[int, float] = {}
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for pid in map(int, kids):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            out[pid] = (int(fields[11]) + int(fields[12])) / TICKS
    return out


def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))]


def slope_per_1000(points: Sequence[tuple[int, float]]) -> float:
    """Least-squares growth of RSS (MB) per 1,000 moves."""
    if len(points) < 3:
        return math.nan
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return 1000 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den if den else math.nan


class LogCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.errors = 0
        self.warnings = 0
        self.tracebacks = 0
        self.samples: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.errors += 1
        else:
            self.warnings += 1
        if record.exc_info:
            self.tracebacks += 1
        if len(self.samples) < 8:
            self.samples.append(f"{record.levelname} {record.name}: {record.getMessage()[:200]}")


@dataclass
class DbStats:
    calls: int = 0
    holding: bool = False
    held_from: float = 0.0
    holds: list[tuple[float, float]] = field(default_factory=list)  # (start, seconds), while ``record`` is on
    record: bool = False


def instrument(db: Database, stats: DbStats) -> None:
    """Count every round trip to the database (:func:`bench.dbcalls.on_hops`) and time each hold of the database
    lock, on this instance only (storage/ is unchanged)."""
    def seen(fn: Any, args: tuple[Any, ...]) -> None:
        stats.calls += 1

    on_hops(db, seen)
    lock: Any = db._lock
    take, give = lock.acquire, lock.release

    async def acquire() -> bool:
        got = await take()
        stats.held_from = time.perf_counter()
        return bool(got)

    def release() -> None:
        if stats.record:
            stats.holds.append((stats.held_from, time.perf_counter() - stats.held_from))
        give()

    lock.acquire, lock.release = acquire, release


class BenchBot(Blockhouse):
    """The real bot; the bench only wraps its database connection once it is open, and notes when it is ready."""

    db_stats: DbStats
    ready_at: float | None = None
    caught_up_at: float | None = None
    calls_at_ready = calls_at_catch_up = 0
    warm_first = False  # the load: setup_hook waits for the render workers to start (start-up: as live, not)
    on_ready_probe: Callable[[], None] | None = None

    async def setup_hook(self) -> None:
        await super().setup_hook()
        assert self.db is not None
        instrument(self.db, self.db_stats)
        warming = getattr(self, "_warming", None)  # the render workers starting (BLOCKHOUSE_RENDER_WORKERS)
        if self.warm_first and isinstance(warming, asyncio.Task):
            # before the load, not in simcord's fixed 5 s start-up settle (a busy host's pool took longer)
            await asyncio.wait([warming])

    async def on_ready(self) -> None:
        self.ready_at = time.perf_counter()
        self.calls_at_ready = self.db_stats.calls
        if self.on_ready_probe is not None:
            self.on_ready_probe()
        await super().on_ready()
        background = getattr(self.get_cog("GameCog"), "catching_up", None)  # the catch-up, if it runs apart
        if isinstance(background, asyncio.Task) and not background.done():
            background.add_done_callback(self._caught_up)
        else:
            self._caught_up()

    def _caught_up(self, _: Any = None) -> None:
        self.caught_up_at = time.perf_counter()
        self.calls_at_catch_up = self.db_stats.calls


def make_bot(path: Path | str, seed: int) -> BenchBot:
    tune_process()  # as bot.py's main sets it
    seeds = itertools.count(seed * 1000 + 1)
    bot = BenchBot(Settings(token="bench-token", database=str(path)), seeds=lambda: next(seeds))
    bot.db_stats = DbStats()
    return bot


# --- the double's traffic ------------------------------------------------------------------------------------------
def _wake_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Traffic:
    """Watches simcord's REST router: wakes the members waiting on a channel, notes when each interaction was
    acknowledged and answered, counts refused (expired) answers, and times the router itself (simcord's cost).

    simcord's cost is this thread's CPU inside the router and in delivering the interactions the members make (its
    payloads built, deep-copied and gated by intents), less the time discord.py's gateway parsers take on what
    they are fed (INTERACTION_CREATE, the MESSAGE_CREATE of the bot's own posts…): parsing is the bot's work live
    too (live it also decodes the gateway's JSON, which simcord's in-process delivery skips)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.backend = env.backend
        self.waiting: dict[int, list[asyncio.Future[None]]] = {}
        self.created: dict[int, float] = {}  # interaction id -> when the member sent it
        self.acked: dict[int, float] = {}
        self.touched: Counter[int] = Counter()  # interaction id -> webhook calls on its token (answers, edits)
        self.answers: dict[int, list[int | None]] = {}  # interaction id -> the messages its answers made or edited
        self.late_acks = 0  # initial answers refused by simcord's 3 s expiry (10062)
        self.late_calls = 0  # later calls on an expired token refused
        self.router_s = 0.0  # CPU seconds of this thread inside the router (and building interactions)
        self.parsed_s = 0.0  # CPU seconds in discord.py's gateway parsers (the bot's)
        self._parsers: dict[str, Any] = {}  # the bot's own parsers, while they are timed
        self._timed: dict[str, Any] | None = None  # the parser table they are timed in (its ConnectionState's)
        self.clock_offset: float | None = None  # virtual = perf_counter() + offset, once the load starts
        self._dispatch = sc_router.dispatch

    def install(self) -> None:
        sc_router.dispatch = self.dispatch
        self._timed = self.env.bot._connection.parsers
        self._parsers = dict(self._timed)
        for event, parser in self._parsers.items():
            self._timed[event] = partial(self._parse, parser)

    def uninstall(self) -> None:
        sc_router.dispatch = self._dispatch
        if self._timed is not None:
            self._timed.update(self._parsers)
            self._timed, self._parsers = None, {}

    def _parse(self, parser: Callable[[Any], None], data: Any) -> None:
        cpu = time.thread_time()
        try:
            parser(data)
        finally:
            self.parsed_s += time.thread_time() - cpu

    def sync_clock(self) -> None:
        if self.clock_offset is not None:
            clock = self.backend.clock
            clock.elapsed = max(clock.elapsed, time.perf_counter() + self.clock_offset)

    def fire_due_timers(self) -> None:
        """Run the bot's timers that are due by simcord's clock (which follows the wall clock during the load):
        simcord fires them only inside its settle, which the load never reaches. So discord.py's views time out
        and the bot's turn-clock loop ticks as they would live."""
        loop = asyncio.get_running_loop()
        self.sync_clock()
        state = self.env._settlement_state()
        sc_settlement._run_due_virtual_callbacks(state, loop.time() + 0.02)

    def follow_wall_clock(self) -> None:
        self.clock_offset = self.backend.clock.elapsed - time.perf_counter()

    def dispatch(self, backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        self.sync_clock()
        cpu = time.thread_time()  # the router runs on this thread: its CPU, not the wall time (a busy host)
        parsed = self.parsed_s
        parts = path.split("/")
        channel = interaction = None
        try:
            if parts[1] == "channels" and len(parts) > 2 and parts[2].isdigit():
                channel = int(parts[2])
            elif parts[1] == "interactions" and len(parts) > 2:
                interaction = int(parts[2])
            elif parts[1] == "webhooks" and len(parts) > 3:
                interaction = self.backend.interaction_tokens.get(parts[3])
            try:
                result = self._dispatch(backend, method, path, **kwargs)
            except BackendError as err:
                if err.code in (10062, 10015) and interaction is not None:
                    if parts[1] == "interactions":
                        self.late_acks += 1
                    else:
                        self.late_calls += 1
                raise
            if interaction is not None and parts[1] == "webhooks":  # which message answered it
                answered = self.answers.setdefault(interaction, [])
                if parts[-1] == "@original":
                    record = self.backend.interactions.get(interaction)
                    answered.append(record.message_id if record is not None else None)
                elif parts[-1].isdigit() and parts[-2] == "messages":
                    answered.append(int(parts[-1]))
                elif isinstance(result, dict) and str(result.get("id", "")).isdigit():
                    answered.append(int(result["id"]))
            return result
        finally:
            if interaction is not None:
                record = self.backend.interactions.get(interaction)
                if record is not None:
                    channel = record.channel_id
                    if parts[1] == "interactions":
                        self.acked.setdefault(interaction, time.perf_counter())
                    else:
                        self.touched[interaction] += 1
            if channel is not None:
                self.wake(channel)
            self.router_s += time.thread_time() - cpu - (self.parsed_s - parsed)

    def acknowledged(self, record: Any) -> bool:
        """Whether simcord took the bot's first answer to the interaction (one after its 3 s is refused, as Discord
        refuses it: not an answer)."""
        return bool(record.responded)

    @property
    def ack_seconds(self) -> float:
        """How long a member waits for the first answer before Discord shows "This interaction failed"."""
        return ACK_SECONDS

    def shown(self, record: Any) -> list[Any]:
        """The messages the bot's answers to ``record`` made or edited (its followups, its response), newest first."""
        out = []
        for mid in dict.fromkeys(reversed(self.answers.get(record.id, []))):
            message = self.backend.messages.get(record.channel_id, {}).get(mid) if mid is not None else None
            if message is not None and not message.flags & LOADING:
                out.append(message)
        return out

    def told(self, record: Any) -> str | None:
        """What the interaction's own answers said of the move: "played" ("Played: …", the spent menu's "✅ Played:
        …"), "cancelled" ("Not played: …", the spent menu's "↩️ Not played: …": the move was stored, and the game
        then cancelled it after the roll it set off, nothing spent: Bloc by Bloc's police reaction), "refused"
        (any other words: nothing stored), or None (no words: a click on the public board, answered by the next
        board)."""
        verdict = None
        for message in self.shown(record):
            text = (message.content or "").strip()
            if text.startswith(("Played", "✅")):
                return "played"
            if text.startswith(CANCELLED):
                return "cancelled"
            if text and not text.startswith("Here is the current position"):
                verdict = "refused"
        return verdict

    def wake(self, channel: int) -> None:
        for waiter in self.waiting.pop(channel, ()):
            if not waiter.done():
                waiter.set_result(None)

    async def until(self, channels: Sequence[int], found: Callable[[], Any], timeout: float) -> Any:
        """``found()`` once it is true (checked whenever the bot touches one of ``channels``), or None after
        ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = time.perf_counter() + timeout
        while True:
            result = found()
            if result:
                return result
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            waiter: asyncio.Future[None] = loop.create_future()
            for channel in channels:
                self.waiting.setdefault(channel, []).append(waiter)
            timer = loop.call_later(left, _wake_up, waiter)
            await waiter
            timer.cancel()

    def emit(self, member: Any, channel_id: int, kind: int, data: dict[str, Any], source: Any = None) -> Any:
        """One interaction from ``member``, as simcord's verbs build it, without waiting for the bot to settle."""
        self.sync_clock()
        started, cpu = time.perf_counter(), time.thread_time()
        record, payload = sc_interactions.base_payload(self.backend, type=kind, channel_id=channel_id,
                                                       guild_id=member.guild.id, user_id=member.id, data=data)
        if source is not None:
            payload["message"] = dict(sc_serializers.message_payload(self.backend, source))
            record.source_message_id = source.id
        self.created[record.id] = started
        parsed = self.parsed_s
        self.backend.emit("INTERACTION_CREATE", payload)  # simcord copies and gates it; discord.py parses it
        self.router_s += time.thread_time() - cpu - (self.parsed_s - parsed)
        return record

    def command_data(self, member: Any, channel_id: int, name: str, options: dict[str, Any],
                     focused: str | None = None) -> dict[str, Any]:
        return command_data(member, channel_id, name, options, focused)


def command_data(member: Any, channel_id: int, name: str, options: dict[str, Any],
                 focused: str | None = None) -> dict[str, Any]:
    """A slash command's (or its autocomplete's) data, as simcord's ``slash``/``autocomplete`` build it."""
    parts = name.split()
    root = sc_actors._resolve_visible_command(member, channel_id, parts[0], 1)
    leaf, nesting = sc_interactions.walk_to_subcommand(root, parts[1:])
    filled = {k: v for k, v in options.items() if k != focused}
    leaf_options, resolved = sc_interactions.build_options(member, name, leaf, filled, partial=focused is not None,
                                                           channel_id=channel_id)
    if focused is not None:
        declared = {o["name"]: o for o in leaf.get("options") or []}
        leaf_options.append({"name": focused, "type": declared[focused]["type"], "value": options[focused],
                             "focused": True})
    data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": root.get("type", 1),
                            "options": sc_interactions.nest_options(root, nesting, leaf_options)}
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return data


# --- the plain loop during the measured window ------------------------------------------------------------------
LOOP_HOOKS = ("create_task", "call_soon", "call_later", "call_at", "call_soon_threadsafe", "run_in_executor")


class PlainLoop:
    """simcord's event-loop instrumentation lifted for the measured window, so that the bot's CPU is the bot's.

    simcord wraps the loop's ``create_task``/``call_soon``/``call_later``/``call_at``/``call_soon_threadsafe``/
    ``run_in_executor`` (every task step and callback the bot schedules is recorded, with a context copy, for its
    settle), replaces ``time.monotonic`` (which ``loop.time()`` calls on every turn of the loop) by a virtual clock
    looked up through a context variable, and hooks the executors' ``submit``: about 1 ms of CPU per move that a live
    bot does not spend. During the window the bench needs none of it: it emits interactions without settling, its
    members wait on the REST router, simcord's clock follows the wall clock (``Traffic.sync_clock``; interaction
    expiry is judged on it), and the virtual timers set before the window still fire from ``fire_due_timers``
    (``discord.utils.utcnow`` stays simcord's: snowflakes and the expiry note agree with the virtual clock). So
    :meth:`lift` restores the loop's own methods, the real ``time.monotonic`` and the executors' ``submit`` (what
    the bot schedules then runs on the plain loop in real time, as live), and :meth:`restore` puts simcord's back.
    Once the members have stopped, :meth:`adopt` hands simcord what the bot started meanwhile and is still running
    (its tasks, and its pending timers as virtual timers of simcord's, so that the final settle, the lost/doubled
    check and the shutdown see them as they would have)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.hooks: dict[str, Any] = {}
        self.submits: dict[type, Any] = {}
        self.monotonic: Any = None
        self.runtime: Any = None
        self.before: set[asyncio.Task[Any]] = set()
        self.lifted = False

    def lift(self) -> None:
        env, loop = self.env, self.env._loop
        if self.lifted or loop is None or env._runtime is None:
            return
        self.runtime = env._runtime
        own = vars(loop)
        for name in LOOP_HOOKS:
            if name in own:
                self.hooks[name] = own[name]
                original = getattr(self.runtime, name)
                if getattr(original, "__func__", None) is getattr(type(loop), name, None):
                    del own[name]  # the class's method again
                else:
                    own[name] = original
        if time.monotonic is sc_internals._clock_monotonic:
            self.monotonic = time.monotonic
            time.monotonic = sc_internals._REAL_MONOTONIC
        for executor_type, (original, observed) in sc_runtime._EXECUTOR_SUBMITS.items():
            if executor_type.submit is observed:  # type: ignore[attr-defined]
                executor_type.submit = original  # type: ignore[attr-defined]
                self.submits[executor_type] = observed
        self.before = asyncio.all_tasks(loop)
        self.lifted = True

    def restore(self) -> None:
        """simcord's instrumentation back (while the same bot is attached)."""
        if not self.lifted:
            return
        self.lifted = False
        attached = self.env._runtime is self.runtime and self.env._loop is not None
        if attached:
            for name, hook in self.hooks.items():
                setattr(self.env._loop, name, hook)
        if self.monotonic is not None and time.monotonic is sc_internals._REAL_MONOTONIC:
            time.monotonic = self.monotonic
        for executor_type, observed in self.submits.items():
            if sc_runtime._EXECUTOR_SUBMITS.get(executor_type, (None, None))[1] is observed:
                executor_type.submit = observed  # type: ignore[attr-defined]
        self.hooks, self.submits, self.monotonic = {}, {}, None

    def adopt(self) -> tuple[int, int]:
        """After :meth:`restore`, with the members stopped: the bot's tasks started in the window that still run are
        tracked by simcord, and its timers still pending on the plain loop become simcord's virtual timers too (each
        fires once: by the real clock as it was set, or by simcord's clock, whichever comes first). (tasks, timers)"""
        env, loop = self.env, self.env._loop
        if loop is None or env._runtime is not self.runtime:
            return 0, 0
        me = asyncio.current_task()
        work = env._work
        tasks = 0
        for task in asyncio.all_tasks(loop) - self.before:
            if task is me or task is env._real_advance_task or task.done() or task in work.tasks:
                continue
            work.track_task(task, env._generation, sc_internals.task_label(task.get_coro()), loop, env._record_error)
            tasks += 1
        timers = 0
        scope = (env, env._generation)
        for handle in list(loop._scheduled):  # type: ignore[attr-defined]
            context = handle._context
            if (handle.cancelled() or context is None or context.get(sc_runtime._BOT_SCOPE) != scope
                    or getattr(handle._callback, "__qualname__", "").startswith("Env._schedule_timer")):
                continue  # not the bot's, or simcord's own fallback for a virtual timer
            self._virtual(handle)
            timers += 1
        self.before = set()
        return tasks, timers

    def _virtual(self, handle: asyncio.TimerHandle) -> None:
        env, loop = self.env, self.env._loop
        callback, args = handle._callback, handle._args  # type: ignore[attr-defined]
        when = env._virtual_time + max(handle.when() - loop.time(), 0.000001)
        virtual: list[asyncio.TimerHandle] = []

        def real(*given: Any) -> None:  # the plain loop's timer fired first
            if virtual:
                virtual[0].cancel()
            callback(*given)

        def simulated(*given: Any) -> None:  # simcord's clock reached it first
            virtual[0].cancel()  # spent (simcord forgets a cancelled timer)
            if handle.cancelled() or not getattr(handle, "_scheduled", False):
                return  # cancelled by its owner, or already run
            handle.cancel()
            callback(*given)

        for made in (real, simulated):
            made.__simcord_original_callback__ = callback  # type: ignore[attr-defined]
        handle._callback = real  # type: ignore[attr-defined]
        timer = asyncio.TimerHandle(when, simulated, args, loop, context=handle._context)  # type: ignore[attr-defined]
        virtual.append(timer)
        label = getattr(callback, "__qualname__", type(callback).__name__)
        env._work.callbacks.append(sc_runtime._CallbackRecord(timer, when, label))


# --- what a member reads ---------------------------------------------------------------------------------------
def controls(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", ())]


def is_board(message: Any) -> bool:
    return (not message.flags & EPHEMERAL and bool(message.attachments) and bool(message.embeds)
            and "table #" in (message.embeds[0].get("title") or ""))


def board_version(message: Any) -> tuple[int, int] | None:
    """The (table, version) a board shows (its stamped My view or Rematch button), None when it has none."""
    stamps = (board_stamp(str(c.get("custom_id", ""))) for c in controls(message))
    return next((stamp for stamp in stamps if stamp is not None), None)


def move_controls(message: Any) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    comps = controls(message)
    buttons = [c for c in comps if c.get("type") == BUTTON and str(c.get("custom_id", "")).startswith("bh:mv:")
               and not c.get("disabled")]
    select = next((c for c in comps if c.get("type") == STRING_SELECT
                   and str(c.get("custom_id", "")).startswith("bh:step:") and not c.get("disabled")), None)
    return buttons, select


def panel_button(message: Any) -> dict[str, Any] | None:
    return next((c for c in controls(message) if str(c.get("custom_id", "")).startswith("bh:panel:")), None)


@dataclass
class Tally:
    moves: int = 0  # moves the members were told of (played, or stored and cancelled by the game), all of them
    interactions: int = 0
    answer_s: list[float] = field(default_factory=list)  # interaction -> what the member waits for
    board_s: list[float] = field(default_factory=list)  # an interaction that played a move -> the next board
    refused: int = 0  # answered with a refusal (stale control, not your turn...)
    cancelled: int = 0  # stored, and answered "Not played": the game cancelled the move after the roll it set off
    stuck: int = 0  # no answer within the bench's patience
    failed: int = 0  # not acknowledged within Discord's 3 s: shown "This interaction failed", given up
    panels: int = 0
    slash_moves: int = 0
    menu_picks: int = 0
    button_moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    lost: int = 0
    doubled: int = 0
    checked: int = 0  # moves the members were told of
    stored: int = 0  # moves in the games' stored logs
    mismatch_samples: list[str] = field(default_factory=list)

    def compare(self, table_id: int, told: Counter[Any], stored: Counter[Any]) -> None:
        """One game's moves its members were told of against those stored (as notations, or (seat, notation)
        pairs): lost (told, not stored) and doubled (stored, not told), counted, the first few mismatches kept as
        samples."""
        lost, doubled = told - stored, stored - told
        self.checked += sum(told.values())
        self.lost += sum(lost.values())
        self.doubled += sum(doubled.values())
        if (lost or doubled) and len(self.mismatch_samples) < 5:
            self.mismatch_samples.append(f"table {table_id}: told-not-stored {dict(lost)} "
                                         f"stored-not-told {dict(doubled)}")


@dataclass
class Window:
    """The measured window: opened after the warm-up moves, closed after the measured ones."""

    warmup: int
    measure: int
    open: bool = False
    closed: bool = False
    start: dict[str, Any] = field(default_factory=dict)
    end: dict[str, Any] = field(default_factory=dict)
    rss: list[tuple[int, float]] = field(default_factory=list)
    lag: list[float] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)


class Load:
    """N tables of one game, their members, and the measured window."""

    def __init__(self, env: Any, bot: BenchBot, traffic: Traffic, game: str, players: int, seed: int,
                 options: str | None, slash_share: float, patience: float, think: float = 0.0) -> None:
        self.env, self.bot, self.traffic, self.game = env, bot, traffic, game
        self.players, self.options, self.slash_share, self.patience = players, options, slash_share, patience
        self.think = think  # mean seconds a member takes before each interaction of a turn (0: none)
        self.rng = random.Random(seed)
        self.tally = Tally()
        self.window: Window | None = None
        # table id -> (member id, notation) of the moves the members were told of: played, or not played after all
        self.played: dict[int, list[tuple[int, str]]] = {}
        self.by_board: list[tuple[int, int, Any]] = []  # (table, index in played, interaction) told by a board
        self.retracted: set[tuple[int, int]] = set()
        self.driver_s = 0.0  # CPU of the members' own code (choosing, reading), in the window
        self.plain: PlainLoop | None = None  # simcord's loop instrumentation lifted during the window

    # the measured window
    def snapshot(self) -> dict[str, Any]:
        return {"t": time.perf_counter(), "cpu": cpu_s(), "moves": self.tally.moves, "db": self.bot.db_stats.calls,
                "router": self.traffic.router_s, "driver": self.driver_s, "children": children_cpu_s(),
                "rss": rss_mb(), "late_acks": self.traffic.late_acks, "late_calls": self.traffic.late_calls,
                "interactions": self.tally.interactions, "refused": self.tally.refused, "stuck": self.tally.stuck,
                "failed": self.tally.failed,
                "errors": LOG.errors, "warnings": LOG.warnings, "tracebacks": LOG.tracebacks}

    def counted_move(self) -> None:
        self.tally.moves += 1
        w = self.window
        if w is None:
            return
        if not w.open and self.tally.moves >= w.warmup:
            w.open = True
            if self.plain is not None:
                self.plain.lift()
            w.start = self.snapshot()
        elif w.open and not w.closed:
            done = self.tally.moves - w.start["moves"]
            if done % 50 == 0:
                w.rss.append((done, rss_mb()))
            if done >= w.measure:
                self.close_window()

    def close_window(self) -> None:
        w = self.window
        assert w is not None
        w.closed = True
        w.end = self.snapshot()
        w.stop.set()
        if self.plain is not None:
            self.plain.restore()

    def in_window(self) -> bool:
        return self.window is not None and self.window.open and not self.window.closed

    # setup through simcord's verbs (serialised, settled)
    async def open_tables(self, guild: Any, count: int) -> list[Table]:
        tables = []
        for i in range(count):
            channel = guild.create_text_channel(f"games-{i}")
            members = [guild.add_member(self.env.create_user(f"p{i}x{s}")) for s in range(self.players)]
            table = Table(self, channel, members)
            await table.first_game()
            tables.append(table)
        return tables

    async def lag_probe(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            started = time.perf_counter()
            await asyncio.sleep(LAG_INTERVAL)
            self.traffic.sync_clock()
            if self.in_window():
                assert self.window is not None
                self.window.lag.append(time.perf_counter() - started - LAG_INTERVAL)

    def retract(self, everything: bool = False) -> None:
        """Moves the members took as played because the next board came, whose interaction was then refused after
        all: taken back (the member was told). Checked before simcord's old messages are pruned; a board move older
        than 20 s is settled."""
        now, keep = time.perf_counter(), []
        for entry in self.by_board:
            table_id, index, record = entry
            if self.traffic.told(record) == "refused":
                self.retracted.add((table_id, index))
                self.tally.refused += 1
            elif not everything and now - self.traffic.created.get(record.id, now) < 20:
                keep.append(entry)
        self.by_board = keep

    def prune(self) -> None:
        """Forget what simcord keeps that Discord would keep on its servers: old messages (and their image bytes),
        the transcript and request log, answered interactions older than a minute."""
        self.retract()
        backend = self.traffic.backend
        for messages in backend.messages.values():
            if len(messages) > KEEP_MESSAGES:
                for mid in list(messages)[:-KEEP_MESSAGES]:
                    for att in messages.pop(mid).attachments:
                        backend.cdn._blobs.pop(att.get("url"), None)
        backend.transcript.clear()
        backend.http_requests.clear()
        self.forget_interactions(backend)

    def forget_interactions(self, double: Any, after: float = 60.0) -> None:
        """Interactions made more than ``after`` seconds ago, out of ``double``'s books (its interactions and their
        tokens) and the traffic's."""
        now = time.perf_counter()
        books = [b for b in (getattr(self.traffic, name, None) for name in ("created", "acked", "touched", "answers"))
                 if isinstance(b, dict)]
        for iid, made in list(self.traffic.created.items()):
            if now - made > after:
                record = double.interactions.pop(iid, None)
                if record is not None:
                    double.interaction_tokens.pop(record.token, None)
                for book in books:
                    book.pop(iid, None)


class Table:
    """One channel: its members play game after game in its threads."""

    def __init__(self, load: Load, channel: Any, members: list[Any]) -> None:
        self.load, self.channel, self.members = load, channel, members
        self.by_id = {m.id: m for m in members}
        self.thread_id: int | None = None
        self.table_id: int | None = None
        self.tables: list[int] = []

    @property
    def traffic(self) -> Traffic:
        return self.load.traffic

    def messages(self, channel_id: int) -> list[Any]:
        return list(self.traffic.backend.messages.get(channel_id, {}).values())

    def newest_board(self) -> Any:
        if self.thread_id is None:
            return None
        for message in reversed(self.traffic.backend.messages.get(self.thread_id, {}).values()):
            if is_board(message):
                return message
        return None

    async def first_game(self) -> None:
        """The first game through simcord's verbs: /game new, Join, Start (each waits until the bot is idle)."""
        host = self.members[0]
        await host.slash(self.channel, "game new", game=self.load.game,
                         **({"options": self.load.options} if self.load.options else {}))
        lobby = self._lobby()
        card = simcord.ResponseMessage(self.load.env, lobby)
        for member in self.members[1:]:
            await member.click(card, custom_id=self._lobby_id(lobby, "join"))
        await host.click(card, custom_id=self._lobby_id(lobby, "start"))
        self._found_thread()

    def _lobby(self) -> Any:
        lobbies = [m for m in self.messages(self.channel.id) if self._lobby_id(m, "join")]
        assert lobbies, "no lobby card was posted"
        return lobbies[-1]

    @staticmethod
    def _lobby_id(message: Any, action: str) -> str | None:
        return next((c["custom_id"] for c in controls(message)
                     if str(c.get("custom_id", "")).startswith(f"bh:lobby:{action}:")), None)

    def _found_thread(self) -> None:
        backend = self.traffic.backend
        threads = [c for c in backend.channels.values() if getattr(c, "parent_id", None) == self.channel.id]
        assert threads, "the game opened no thread"
        newest = max(threads, key=lambda c: c.id)
        self.thread_id = newest.id
        board = self.newest_board()
        assert board is not None, "the game posted no board"
        self.table_id = int(board.embeds[0]["title"].rsplit("#", 1)[1].split()[0])
        self.tables.append(self.table_id)
        self.load.played.setdefault(self.table_id, [])
        self.load.tally.games_started += 1

    async def next_game(self) -> bool:
        """A new game in the channel, by raw interactions: /game new, each Join, Start."""
        host = self.members[0]
        mark = max((m.id for m in self.messages(self.channel.id)), default=0)
        opts: dict[str, Any] = {"game": self.load.game}
        if self.load.options:
            opts["options"] = self.load.options
        self.traffic.emit(host, self.channel.id, APPLICATION_COMMAND,
                          self.traffic.command_data(host, self.channel.id, "game new", opts))
        lobby = await self.traffic.until(
            [self.channel.id], lambda: next((m for m in reversed(self.messages(self.channel.id))
                                             if m.id > mark and self._lobby_id(m, "join")), None), self.load.patience)
        if lobby is None:
            return False
        for member in self.members[1:]:
            record = self.traffic.emit(member, self.channel.id, MESSAGE_COMPONENT,
                                       {"custom_id": self._lobby_id(lobby, "join"), "component_type": BUTTON},
                                       source=lobby)
            if not await self.traffic.until([self.channel.id], partial(self._joined, record), self.load.patience):
                return False
        self.traffic.emit(host, self.channel.id, MESSAGE_COMPONENT,
                          {"custom_id": self._lobby_id(lobby, "start"), "component_type": BUTTON}, source=lobby)

        def started() -> bool:
            threads = [c for c in self.traffic.backend.channels.values()
                       if getattr(c, "parent_id", None) == self.channel.id and c.id >= lobby.id]
            return any(is_board(m) for t in threads for m in self.messages(t.id))

        if not await self.traffic.until([self.channel.id], started, self.load.patience):
            return False
        self._found_thread()
        return True

    def _joined(self, record: Any) -> bool:
        return self.traffic.touched[record.id] > 0

    def _moved_on(self, board: Any) -> bool:
        newest = self.newest_board()
        return newest is not None and newest.id != board.id

    def channels(self) -> list[int]:
        return [self.channel.id] + ([self.thread_id] if self.thread_id is not None else [])

    async def play(self, stop: asyncio.Event) -> None:
        """Play until ``stop``: each board's mentioned members act; a finished game is followed by a new one."""
        load = self.load
        stalls = 0
        while not stop.is_set():
            board = self.newest_board()
            if board is None or "Game over" in (board.content or ""):
                load.tally.games_finished += board is not None
                if not await self.next_game():
                    load.tally.stuck += 1
                    return
                continue
            acting = [self.by_id[int(u)] for u in MENTION.findall(board.content or "") if int(u) in self.by_id]
            if stalls:  # nobody was asked on the board, or the question was private (a DM): everybody looks
                acting = list(self.members)
            await asyncio.gather(*(Seat(self, m).turn(board, sole=len(acting) == 1 and not stalls)
                                   for m in dict.fromkeys(acting)))
            newer = await self.traffic.until(self.channels(), partial(self._moved_on, board), self._patience())
            stalls = 0 if newer else stalls + 1
            if stalls > 3:
                load.tally.stuck += 1
                return

    def _patience(self) -> float:
        recent = self.load.tally.answer_s[-200:]
        return max(5.0, 4 * pct(recent, 95)) if recent else self.load.patience


class Seat:
    """One member's turn: from the board (or their private view) to the move played, the way a person does it."""

    def __init__(self, table: Table, member: Any) -> None:
        self.table, self.member = table, member
        self.load = table.load
        self.traffic = table.traffic
        self.last: Any = None  # the member's last interaction

    def _answer(self, record: Any, board_id: int, expect_choices: bool = False) -> Any:
        """What the member waits for after ``record``: for a click on the public board, the next board (or the
        private answer that comes instead); otherwise the interaction's own answer (the next level, a preview, the
        rest of a turn, "Played", a refusal)."""
        if expect_choices:
            return ("choices", record.autocomplete_choices) if record.autocomplete_choices is not None else None
        board = self.table.newest_board()
        moved_on = board is not None and board.id != board_id and not self._same_position(board, board_id)
        on_board = record.source_message_id == board_id
        shown = self.traffic.shown(record)
        for message in shown:
            buttons, select = move_controls(message)
            if buttons or select is not None:
                return ("controls", message)
        if moved_on and (on_board or self.traffic.told(record) is not None):
            return ("board", board)
        texts = [m for m in shown if m.content or m.embeds]
        return ("text", texts[0]) if texts else None

    def _same_position(self, board: Any, board_id: int) -> bool:
        """A newer board of the same table and version as the board ``board_id``: the same position posted again (a
        board whose delivery a killed process had not recorded, posted after the restart where the channel's history
        could not be read), not the move the member's click made."""
        stamp = board_version(board)
        if stamp is None:
            return False
        old = next((m for ch in self.table.channels() for m in self.table.messages(ch) if m.id == board_id), None)
        return old is not None and board_version(old) == stamp

    async def _send(self, kind: int, data: dict[str, Any], source: Any, board_id: int,
                    expect_choices: bool = False) -> Any:
        load = self.load
        if load.think:  # a person reads what came and decides: an exponential wait, not counted in the answer's time
            await asyncio.sleep(load.rng.expovariate(1 / load.think))
        started = time.perf_counter()
        record = self.last = self.traffic.emit(self.member, self.table.thread_id or 0, kind, data, source=source)
        load.tally.interactions += 1
        channels, answer_of = self.table.channels(), partial(self._answer, record, board_id, expect_choices)
        first = min(self.traffic.ack_seconds, load.patience)
        answer = await self.traffic.until(channels, answer_of, first)
        if answer is None and not self.traffic.acknowledged(record):
            # no answer in Discord's 3 s: the member is shown "This interaction failed" and gives up on it (the bot's
            # process may have died with it: the member looks at the newest board again, as a person does)
            load.tally.failed += 1
            return None
        if answer is None:
            answer = await self.traffic.until(channels, answer_of, load.patience - first)
        if load.in_window():
            load.tally.answer_s.append(time.perf_counter() - started)
            if answer is not None and answer[0] == "board":
                load.tally.board_s.append(time.perf_counter() - started)
        if answer is None:
            load.tally.stuck += 1
        return answer

    def _played(self, notation: str, unconfirmed: Any = None) -> None:
        table_id = self.table.table_id
        assert table_id is not None
        self.load.played[table_id].append((self.member.id, notation))
        if unconfirmed is not None:  # told by the board alone: a refusal arriving later takes it back (at the end)
            self.load.by_board.append((table_id, len(self.load.played[table_id]) - 1, unconfirmed))
        self.load.counted_move()

    async def turn(self, board: Any, sole: bool) -> None:
        load = self.load
        rng = load.rng
        message = board
        buttons, select = move_controls(board)
        mine = sole and (buttons or select is not None)
        if mine and rng.random() < load.slash_share:  # /move, with the notation exactly as autocomplete offers it
            thread = self.table.thread_id or 0
            answer = await self._send(AUTOCOMPLETE, self.traffic.command_data(self.member, thread, "move",
                                                                              {"move": ""}, focused="move"),
                                      None, board.id, expect_choices=True)
            if answer is None or not answer[1]:
                return
            notation = rng.choice(answer[1])["value"]
            load.tally.slash_moves += 1
            answer = await self._send(APPLICATION_COMMAND, self.traffic.command_data(self.member, thread, "move",
                                                                                    {"move": notation}),
                                      None, board.id)
            if not await self._after(answer, notation, self.last):
                return
            message = answer[1]
        elif not mine:  # the board's controls are not this member's: their private view
            panel = panel_button(board)
            if panel is None:
                return
            load.tally.panels += 1
            answer = await self._send(MESSAGE_COMPONENT, {"custom_id": panel["custom_id"], "component_type": BUTTON},
                                      board, board.id)
            if answer is None or answer[0] != "controls":
                return
            message = answer[1]
        for _ in range(40):  # a turn's steps: menu levels, a preview's Submit, the rest of a turn
            cpu = time.thread_time()
            buttons, select = move_controls(message)
            submit = [b for b in buttons if b.get("label") == "Submit"]
            if submit:
                pick, data = submit[0], None
            elif select is not None and (not buttons or rng.random() < 0.5):
                pick = None
                option = rng.choice(select["options"])
                data = {"custom_id": select["custom_id"], "component_type": STRING_SELECT, "values": [option["value"]]}
                notation = option["value"][2:] if option["value"].startswith("m:") else None
                load.tally.menu_picks += 1
            elif buttons:
                pick, data = rng.choice(buttons), None
            else:
                return
            if pick is not None:
                data = {"custom_id": pick["custom_id"], "component_type": BUTTON}
                notation = pick["custom_id"].split(":", 4)[4]
                load.tally.button_moves += 1
            if load.in_window():
                load.driver_s += time.thread_time() - cpu
            assert data is not None
            answer = await self._send(MESSAGE_COMPONENT, data, message, board.id)
            if notation is not None and not await self._after(answer, notation, self.last):
                return
            if answer is None or answer[0] != "controls":
                return
            message = answer[1]

    async def _after(self, answer: Any, notation: str, record: Any) -> bool:
        """Note a stored move the member was told of: its answer says "Played", or "Not played" (stored, then
        cancelled by the game: the member was told so), or, for a click on the public board, the next board came
        and no refusal; whether the turn goes on (the answer holds more controls)."""
        if answer is None:
            return False
        told = self.traffic.told(record)
        if told in ("played", "cancelled") or (told is None and answer[0] == "board"):
            self._played(notation, record if told is None else None)
            self.load.tally.cancelled += told == "cancelled"
        elif told == "refused":
            self.load.tally.refused += 1
            return False
        return answer[0] == "controls"


# --- one run -----------------------------------------------------------------------------------------------------
LOG = LogCount()


async def run_load(game: str, tables: int, *, players: int, seed: int, warmup: int, measure: int,
                   options: str | None, slash_share: float, patience: float, folder: Path,
                   template: Path, plain: bool = True, think: float = 0.0) -> dict[str, Any]:
    path = folder / f"load-{game}-{tables}.db"
    shutil.copyfile(template, path)
    bot = make_bot(path, seed)
    bot.warm_first = True
    wall0 = time.perf_counter()
    async with simcord.run(bot, check_errors=False, settle_timeout=max(60.0, patience)) as env:
        traffic = Traffic(env)
        traffic.install()
        load: Load | None = None
        try:
            load = Load(env, bot, traffic, game, players, seed, options, slash_share, patience, think)
            if plain:
                load.plain = PlainLoop(env)
            guild = env.create_guild()
            table_objs = await load.open_tables(guild, tables)
            setup_s = time.perf_counter() - wall0
            load.window = Window(warmup=load.tally.moves + warmup, measure=measure)
            traffic.follow_wall_clock()
            stop = load.window.stop
            lag_stop = asyncio.Event()
            lagging = asyncio.ensure_future(load.lag_probe(lag_stop))

            async def pruning() -> None:
                ticks = 0
                while not lag_stop.is_set():
                    await asyncio.sleep(0.5)
                    traffic.fire_due_timers()
                    ticks += 1
                    if ticks % 4 == 0:
                        load.prune()

            pruner = asyncio.ensure_future(pruning())
            players_done = asyncio.gather(*(t.play(stop) for t in table_objs))
            await players_done
            if not load.window.closed:  # every table stuck: close what was measured
                if not load.window.open:
                    load.window.start = load.snapshot()
                load.close_window()
            lag_stop.set()
            await asyncio.gather(lagging, pruner)
            adopted = load.plain.adopt() if load.plain is not None else (0, 0)
            traffic.clock_offset = None
            settled = time.perf_counter()
            await env.settle()
            settle_s = time.perf_counter() - settled
            result = await check_and_report(load, table_objs, game, tables, players, setup_s)
            result["settle_after_s"] = round(settle_s, 2)
            result["wall_s"] = round(time.perf_counter() - wall0, 1)
            result["env_errors"] = len(env.errors)
            result["loop"] = "simcord's instrumented loop" if load.plain is None else "plain"
            result["adopted_after_window"] = {"tasks": adopted[0], "timers": adopted[1]}
            return result
        finally:
            if load is not None and load.plain is not None:
                load.plain.restore()
            traffic.uninstall()
            await close_bot(bot)


async def close_bot(bot: Blockhouse) -> None:
    """What simcord's detach leaves open: the bots' workers and the database."""
    service = getattr(bot, "service", None)
    if service is not None:
        service.thinker.close()
    if bot.db is not None:
        await bot.db.close()
        bot.db = None


async def check_and_report(load: Load, tables: list[Table], game: str, count: int, players: int,
                           setup_s: float) -> dict[str, Any]:
    """The lost/doubled check against the database, then the figures."""
    bot, tally = load.bot, load.tally
    assert bot.db is not None
    load.retract(everything=True)
    for table_id, told_moves in load.played.items():
        load.played[table_id] = [m for i, m in enumerate(told_moves) if (table_id, i) not in load.retracted]
    await check_moves(bot.db, [t for table in tables for t in table.tables], load.played, tally)
    owed = [o.table_id for o in await bot.db.undelivered()]
    w = load.window
    assert w is not None and w.start and w.end
    s, e = w.start, w.end
    moves = e["moves"] - s["moves"]
    span = e["t"] - s["t"]
    cpu = e["cpu"] - s["cpu"]
    double = e["router"] - s["router"]
    members = e["driver"] - s["driver"]
    kids = {pid: e["children"][pid] - s["children"].get(pid, 0.0) for pid in e["children"]}
    per = (lambda x: x / moves * 1000) if moves else (lambda x: math.nan)
    return {
        "game": game, "tables": count, "players": players, "think_s": load.think, "moves": moves,
        "seconds": round(span, 2),
        "setup_s": round(setup_s, 1),
        "moves_per_s": round(moves / span, 2) if span else math.nan,
        "answer_ms": {"n": len(tally.answer_s), "p50": round(pct(tally.answer_s, 50) * 1000, 1),
                      "p95": round(pct(tally.answer_s, 95) * 1000, 1),
                      "max": round(pct(tally.answer_s, 100) * 1000, 1)},
        "move_to_board_ms": {"n": len(tally.board_s), "p50": round(pct(tally.board_s, 50) * 1000, 1),
                             "p95": round(pct(tally.board_s, 95) * 1000, 1)},
        "cpu_ms_per_move": {"process": round(per(cpu), 2), "simcord_router": round(per(double), 2),
                            "bench_members": round(per(members), 2), "bot": round(per(cpu - double - members), 2),
                            "children": {str(pid): round(per(v), 2) for pid, v in kids.items()}},
        "db_calls_per_move": round((e["db"] - s["db"]) / moves, 1) if moves else math.nan,
        "interactions": e["interactions"] - s["interactions"],
        "late_acks": e["late_acks"] - s["late_acks"], "late_calls": e["late_calls"] - s["late_calls"],
        "refused": e["refused"] - s["refused"], "stuck": e["stuck"] - s["stuck"], "failed": e["failed"] - s["failed"],
        "log_errors": e["errors"] - s["errors"], "log_warnings": e["warnings"] - s["warnings"],
        "tracebacks": e["tracebacks"] - s["tracebacks"],
        "never_acked": sum(1 for iid, made in load.traffic.created.items()
                           if iid not in load.traffic.acked and made >= s["t"]),
        "rss_mb": {"after_warmup": round(s["rss"], 1), "end": round(e["rss"], 1),
                   "growth_per_1000_moves": round(slope_per_1000(w.rss), 2)},
        "loop_lag_ms": {"p50": round(pct(w.lag, 50) * 1000, 2), "p99": round(pct(w.lag, 99) * 1000, 2),
                        "max": round(pct(w.lag, 100) * 1000, 2)},
        "lost": tally.lost, "doubled": tally.doubled, "moves_checked": tally.checked, "moves_stored": tally.stored,
        "cancelled": tally.cancelled, "owed_after_settle": len(owed), "owed_tables": owed[:5],
        "mismatch_samples": tally.mismatch_samples,
        "games": {"started": tally.games_started, "finished": tally.games_finished},
        "ways": {"buttons": tally.button_moves, "menu_picks": tally.menu_picks, "slash": tally.slash_moves,
                 "panels": tally.panels},
        "log_samples": LOG.samples[:5],
    }


async def check_moves(db: Database, table_ids: Sequence[int], played: dict[int, list[tuple[int, str]]],
                      tally: Tally) -> None:
    """The lost/doubled check, from the database once the bot has settled: each game's stored move log, as (seat,
    notation) pairs, against the moves its members were told of (the member's seat read from the stored table),
    as multisets: told-not-stored = lost, stored-not-told = doubled. A move the member was told of is one its
    answer called played, or not played after all (stored, then cancelled by the game: Bloc by Bloc's police
    reaction), or, for a click on the public board, one the next board followed with no refusal."""
    for table_id in table_ids:
        told, moves = await told_and_stored(db, table_id, played)
        stored = Counter((m.seat, m.notation) for m in moves)
        tally.stored += sum(stored.values())
        tally.compare(table_id, told, stored)


async def told_and_stored(db: Database, table_id: int, played: dict[int, list[tuple[int, str]]]
                          ) -> tuple[Counter[tuple[int | None, str]], list[MoveRow]]:
    """A game's moves its members were told of, as (seat, notation) (the member's seat read from the stored table),
    and its stored move log."""
    row = await db.get_table(table_id)
    seat_of = {s.user_id: s.seat for s in row.seats} if row is not None else {}
    told = Counter((seat_of.get(member), notation) for member, notation in played.get(table_id, ()))
    return told, await db.moves(table_id)


# --- start-up ----------------------------------------------------------------------------------------------------
async def build_stored(path: Path, stored: int, running: int, seed: int) -> None:
    """``stored`` games: real started Breaks games (a few moves in; one against an easy bot, one between two
    people), bulk-copied, ``running`` of them active and the rest finished."""
    db = await Database.open(path)
    svc = TableService(db, default_catalog(), seeds=lambda: seed, render=False)
    templates = []
    for channel, bot in ((1, False), (2, True)):
        out = await svc.open_lobby(guild_id=1, channel_id=channel, host=Actor(1, "Ann"), game_key="breaks",
                                   options_text=None)
        assert out.table_id is not None
        if bot:
            await svc.add_bot(out.table_id, Actor(1, "Ann"), "easy")
        else:
            await svc.join(out.table_id, Actor(2, "Bo"))
        await svc.start(out.table_id, Actor(1, "Ann"))
        templates.append(out.table_id)
    await db.close()
    con = sqlite3.connect(path)
    cols = [r[1] for r in con.execute("PRAGMA table_info(tables)")]
    seat_cols = [r[1] for r in con.execute("PRAGMA table_info(seats)")]
    rows, seat_rows = [], []
    rng = random.Random(seed)
    next_id = max(templates) + 1
    for i in range(stored):
        template_id = templates[i % 2]
        template = dict(zip(cols, con.execute("SELECT * FROM tables WHERE id = ?", (template_id,)).fetchone(),
                            strict=True))
        row = dict(template, id=next_id, channel_id=10_000 + next_id)
        if i >= running:
            row["status"] = "finished"
        row["deadline"] = None
        rows.append(tuple(row[c] for c in cols))
        for seat in con.execute("SELECT * FROM seats WHERE table_id = ?", (template_id,)):
            s = dict(zip(seat_cols, seat, strict=True))
            s["table_id"] = next_id
            if "id" in s:
                s["id"] = None
            seat_rows.append(tuple(s[c] for c in seat_cols))
        next_id += 1
    rng.shuffle(rows)
    con.executemany(f"INSERT INTO tables ({','.join(cols)}) VALUES ({','.join('?' * len(cols))})", rows)
    con.executemany(f"INSERT INTO seats ({','.join(seat_cols)}) VALUES ({','.join('?' * len(seat_cols))})",
                    seat_rows)
    con.commit()
    con.close()


async def run_startup(stored: int, running: int, seed: int, folder: Path, template: Path,
                      postgresql: bool = False) -> dict[str, Any]:
    """Start the bot on a database of ``stored`` games and time the first answered interaction after on_ready;
    ``postgresql``: the database, made as on SQLite, copied into a throwaway PostgreSQL server (tests/pg.py) by the
    bot's own copy command (``storage.copy``), and the restarted bot on it."""
    path = folder / "startup.db"
    shutil.copyfile(template, path)
    servers = contextlib.ExitStack()
    # first a running game of the members' own, in a channel simcord knows, whose "My view" is clicked at on_ready;
    # then the stored games are added to the database and the bot restarted on it
    bot = make_bot(path, seed)
    env = simcord.Env(bot, check_errors=False, settle_timeout=120.0)
    first: dict[str, Any] = {}
    await env.start()
    try:
        traffic = Traffic(env)
        traffic.install()
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        members = [guild.add_member(env.create_user(f"s{i}")) for i in range(2)]
        await members[0].slash(channel, "game new", game="breaks")
        lobby = [m for m in traffic.backend.messages[channel.id].values() if Table._lobby_id(m, "join")][-1]
        card = simcord.ResponseMessage(env, lobby)
        await members[1].click(card, custom_id=Table._lobby_id(lobby, "join"))
        await members[0].click(card, custom_id=Table._lobby_id(lobby, "start"))
        thread = max((c for c in traffic.backend.channels.values() if getattr(c, "parent_id", None) == channel.id),
                     key=lambda c: c.id)
        await close_bot(bot)
        built = time.perf_counter()
        await build_stored(path, stored, running, seed)
        build_s = time.perf_counter() - built
        where: Path | str = path
        if postgresql:
            from storage.copy import copy
            from tests.pg import bench_server
            where = servers.enter_context(bench_server()).create(migrated=False)
            await copy(path, where, say=lambda _: None)
        board = [m for m in traffic.backend.messages[thread.id].values() if is_board(m)][-1]
        panel = panel_button(board)
        assert panel is not None
        loop = asyncio.get_running_loop()
        bot2 = make_bot(where, seed + 1)
        bot2.db_stats.record = True

        def probe() -> None:
            record = traffic.emit(members[0], thread.id, MESSAGE_COMPONENT,
                                  {"custom_id": panel["custom_id"], "component_type": BUTTON}, source=board)
            first["record"] = record

        bot2.on_ready_probe = probe
        started = time.perf_counter()
        cpu0 = cpu_s()
        async def first_answer() -> float | None:  # when the answer comes, not when restart_bot returns
            found = await traffic.until(
                [thread.id], lambda: "record" in first and traffic.touched[first["record"].id] > 0, 120.0)
            return time.perf_counter() if found else None

        waiter = loop.create_task(first_answer())
        note = ""
        try:
            await env.restart_bot(bot2)  # (it returns once the new bot is idle: its catch-up done)
        except TimeoutError:  # simcord gives a starting bot 5 s (fixed) to settle: a catch-up longer than that
            note = "simcord's 5 s start-up settle ran out during the catch-up"
        answered_at = await waiter
        while bot2.caught_up_at is None and time.perf_counter() - started < 300:
            await asyncio.sleep(0.05)
        record = first.get("record")
        holds = [h for h in bot2.db_stats.holds if bot2.ready_at is not None and h[0] >= bot2.ready_at]
        catch_up = [h for h in holds if bot2.caught_up_at is not None and h[0] <= bot2.caught_up_at]
        ready = bot2.ready_at or math.nan
        result = {
            "database": "postgresql" if postgresql else "sqlite",
            "stored": stored, "running": running, "build_s": round(build_s, 1),
            "start_to_ready_s": round(ready - started, 3),
            "ready_to_first_ack_s": round(traffic.acked.get(record.id, math.nan) - ready, 3) if record else None,
            "ready_to_first_answer_s": round(answered_at - ready, 3) if answered_at is not None else None,
            "catch_up_s": round((bot2.caught_up_at or math.nan) - ready, 3),
            "catch_up_db_hold_max_ms": round(max((h[1] for h in catch_up), default=0.0) * 1000, 1),
            "catch_up_db_hold_total_ms": round(sum(h[1] for h in catch_up) * 1000, 1),
            "catch_up_db_calls": bot2.calls_at_catch_up - bot2.calls_at_ready,
            "start_cpu_s": round(cpu_s() - cpu0, 2),
            "log_errors": LOG.errors, "log_samples": LOG.samples[:5], "note": note,
        }
        traffic.uninstall()
        return result
    finally:
        await env.shutdown()
        for made in (bot, locals().get("bot2")):
            if isinstance(made, Blockhouse):
                await close_bot(made)
        servers.close()  # (the PostgreSQL server, if any, once the bot on it has closed)


# --- the command line ------------------------------------------------------------------------------------------
async def migrated(folder: Path) -> Path:
    path = folder / "migrated.db"
    await (await Database.open(path)).close()
    return path


def show(r: dict[str, Any]) -> None:
    if "stored" in r:
        print(f"start-up on {r['database']}, {r['stored']:,} stored games ({r['running']:,} running): on_ready "
              f"{r['start_to_ready_s']} s "
              f"after start; first answer {r['ready_to_first_answer_s']} s after on_ready "
              f"(acknowledged at {r['ready_to_first_ack_s']} s); catch-up {r['catch_up_s']} s, holding the "
              f"database {r['catch_up_db_hold_total_ms']} ms in all, {r['catch_up_db_hold_max_ms']} ms at most "
              f"at once; errors logged {r['log_errors']} {r['note']}")
        return
    c = r["cpu_ms_per_move"]
    kids = ", ".join(f"{pid}: {v} ms" for pid, v in c["children"].items()) or "none"
    think = f", members thinking {r['think_s']} s on average" if r.get("think_s") else ""
    print(f"{r['game']} × {r['tables']} table(s) of {r['players']}{think}: {r['moves']} moves in {r['seconds']} s = "
          f"{r['moves_per_s']} moves/s (setup {r['setup_s']} s, run {r.get('wall_s')} s, settled after it in "
          f"{r.get('settle_after_s')} s)\n"
          f"  answer p50/p95/max {r['answer_ms']['p50']}/{r['answer_ms']['p95']}/{r['answer_ms']['max']} ms "
          f"(n={r['answer_ms']['n']}); move → board p50/p95 {r['move_to_board_ms']['p50']}/"
          f"{r['move_to_board_ms']['p95']} ms (n={r['move_to_board_ms']['n']})\n"
          f"  CPU/move: process {c['process']} ms = bot {c['bot']} + simcord REST double {c['simcord_router']} + "
          f"bench members {c['bench_members']}; children: {kids}; loop: {r.get('loop')}, adopted after the window "
          f"{r.get('adopted_after_window')}\n"
          f"  database calls/move {r['db_calls_per_move']}; interactions {r['interactions']}: acked after 3 s "
          f"{r['late_acks']} (later calls refused {r['late_calls']}), never acked {r['never_acked']}, refused "
          f"{r['refused']}, stuck {r['stuck']}, shown as failed {r['failed']}; log ERROR {r['log_errors']} "
          f"(tracebacks {r['tracebacks']}), WARNING {r['log_warnings']}\n"
          f"  RSS {r['rss_mb']['after_warmup']} → {r['rss_mb']['end']} MB, {r['rss_mb']['growth_per_1000_moves']} "
          f"MB per 1,000 moves; loop lag p50/p99/max {r['loop_lag_ms']['p50']}/{r['loop_lag_ms']['p99']}/"
          f"{r['loop_lag_ms']['max']} ms\n"
          f"  lost {r['lost']}, doubled {r['doubled']}: {r['moves_checked']} moves told against {r['moves_stored']} "
          f"stored, by seat ({r['cancelled']} of them told \"Not played\": stored, then cancelled by the game); "
          f"boards still owed after the settle {r['owed_after_settle']} ({r['games']['started']} games, "
          f"{r['games']['finished']} finished; ways {r['ways']})")
    for sample in r["mismatch_samples"] + r["log_samples"]:
        print("   ", sample)


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.load", description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--game", default="breaks", help="breaks, blockers, block, breakerblocks, blocbybloc, or all")
    p.add_argument("--tables", default="1,20,200", help="concurrent tables (channels), comma-separated")
    p.add_argument("--players", type=int, default=None, help="seats per table (default: per game)")
    p.add_argument("--options", default=None, help="the lobby's options, as /game new takes them")
    p.add_argument("--moves", type=int, default=None, help="measured moves per run (default 300 + 3 per table)")
    p.add_argument("--warmup", type=int, default=None, help="uncounted moves first (default 20 + 2 per table)")
    p.add_argument("--slash", type=float, default=0.2, help="share of turns played with /move (default 0.2)")
    p.add_argument("--patience", type=float, default=60.0, help="seconds a member waits before giving up")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a member thinks before each interaction (exponential; default 0: none)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--simcord-window", action="store_true",
                   help="keep simcord's event-loop instrumentation during the measured window (the bench before it "
                        "was lifted; for comparison: its ~1 ms per move is then counted as the bot's)")
    p.add_argument("--startup", action="store_true", help="measure start-up on a generated database instead")
    p.add_argument("--stored", type=int, default=10_000, help="--startup: stored games")
    p.add_argument("--running", type=int, default=None, help="--startup: how many of them run (default all)")
    p.add_argument("--postgresql", action="store_true",
                   help="--startup: the database copied into a throwaway PostgreSQL server (tests/pg.py)")
    p.add_argument("--json", type=Path, default=None, metavar="OUT")
    return p.parse_args(argv)


async def amain(args: argparse.Namespace) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        folder = Path(tmp)
        template = await migrated(folder)
        if args.startup:
            r = await run_startup(args.stored, args.stored if args.running is None else args.running, args.seed,
                                  folder, template, postgresql=args.postgresql)
            show(r)
            return [r]
        games = GAMES if args.game == "all" else tuple(args.game.split(","))
        for game in games:
            for count in (int(x) for x in args.tables.split(",")):
                players = args.players or DEFAULT_PLAYERS[game]
                warmup, measure = window_of(args, count)
                r = await run_load(game, count, players=players, seed=args.seed, warmup=warmup, measure=measure,
                                   options=args.options, slash_share=args.slash, patience=args.patience,
                                   folder=folder, template=template, plain=not args.simcord_window,
                                   think=args.think)
                show(r)
                sys.stdout.flush()
                results.append(r)
    return results


def window_of(args: argparse.Namespace, tables: int) -> tuple[int, int]:
    """(uncounted moves first, measured moves) of a run at ``tables``: ``--warmup`` and ``--moves``, else 20 + 2 and
    300 + 3 per table."""
    warmup = args.warmup if args.warmup is not None else 20 + 2 * tables
    return warmup, args.moves if args.moves is not None else 300 + 3 * tables


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    root = logging.getLogger()
    root.addHandler(LOG)
    root.setLevel(logging.WARNING)
    return run_bench("bench.load", amain(args), args.json)


def run_bench(name: str, runs: Coroutine[Any, Any, list[dict[str, Any]]], out: Path | None) -> int:
    """Say what is measured where, run ``runs`` (each run's figures printed as it ends), and write them to ``out``."""
    print(f"{name} at commit {commit()}, python {sys.version.split()[0]}, pid {os.getpid()}, nice {os.nice(0)}, "
          f"cpus {os.cpu_count()}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    results = asyncio.run(runs)
    if out is not None:
        out.write_text(json.dumps({"commit": commit(), "results": results}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
