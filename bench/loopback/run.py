"""The run: the double and its members in this process, ``python bot.py`` in another, and the figures.

The members are bench.load's (:class:`bench.load.Table`, :class:`bench.load.Seat`, :class:`bench.load.Load`):
they read the newest board of their table's thread, click its move buttons, walk its select menus, open "My view",
play ``/move`` with a notation exactly as autocomplete offered it, and start a new game when one ends (``/game new``,
Join, Start), waiting only for what the bot does (the double wakes them when the bot touches their channel). Here
they read the double's messages instead of simcord's, and send interactions over the double's gateway.
"""

from __future__ import annotations

import asyncio
import math
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import load as bl
from bench.loopback.double import TOKEN, Channel, Double, Guild, Interaction, Message, User
from storage import Database

ROOT = Path(__file__).resolve().parents[2]
TICKS = os.sysconf("SC_CLK_TCK")
KEEP_MESSAGES = 12


# --- CPU of a process and its children, from /proc ----------------------------------------------------------------
def proc_cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / TICKS


def children_of(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return kids
    for task in tasks:
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
    return kids


def process_name(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    text = " ".join(c.decode(errors="replace") for c in cmd if c)
    if "resource_tracker" in text:
        return "resource tracker"
    if "multiprocessing" in text or "spawn_main" in text:
        return "worker"
    return text[:40]


def own_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


# --- the members' view of the double -----------------------------------------------------------------------------
@dataclass(eq=False)
class Member:
    """A member as bench.load's members are: an id, a name, their guild."""

    user: User
    guild: Guild

    @property
    def id(self) -> int:
        return self.user.id


class Touched:
    """``traffic.touched[interaction id]``: the webhook calls made on its token (bench.load's meaning)."""

    def __init__(self, double: Double) -> None:
        self.double = double

    def __getitem__(self, iid: int) -> int:
        record = self.double.interactions.get(iid)
        return record.touched if record is not None else 0


class LoopTraffic(bl.Traffic):
    """bench.load's Traffic over the double: the members' waiting (``until``, woken when the bot touches a
    channel), what an interaction's answers showed (``shown``/``told``), and interactions sent (``emit``)."""

    def __init__(self, double: Double) -> None:  # noqa: D107 - bench.load's Traffic watches simcord instead
        self.double = double
        self.backend = double  # what bench.load's Table reads: .messages, .channels
        self.waiting = {}
        self.created = {}
        self.acked = {}
        self.touched = Touched(double)  # type: ignore[assignment]
        self.answers = {}
        self.late_acks = 0
        self.late_calls = 0
        self.router_s = self.parsed_s = 0.0
        self.clock_offset = None
        self.refusals: dict[int, str] = {}  # interaction id -> the words of its refusal
        double.on_touch = self.wake

    def acknowledged(self, record: Any) -> bool:
        return record.acked is not None

    @property
    def ack_seconds(self) -> float:  # the double's expiry (Discord's 3 s; tests set it long), and a margin
        return self.double.expiry_s + 0.5

    def shown(self, record: Any) -> list[Any]:
        out = []
        for mid in dict.fromkeys(reversed(record.answers)):
            message = self.double.messages.get(record.channel_id, {}).get(mid) if mid is not None else None
            if message is not None and not message.flags & bl.LOADING:
                out.append(message)
        return out

    def told(self, record: Any) -> str | None:
        verdict = super().told(record)
        if verdict == "refused" and record.id not in self.refusals:  # what the member was told instead, once each
            text = next((m.content for m in self.shown(record) if (m.content or "").strip()), "")
            self.refusals[record.id] = (text or "").strip()[:60]
        return verdict

    def emit(self, member: Any, channel_id: int, kind: int, data: dict[str, Any], source: Any = None) -> Any:
        record = self.double.interact(member.user, channel_id, kind, data, source)
        self.created[record.id] = time.perf_counter()
        return record

    def command_data(self, member: Any, channel_id: int, name: str, options: dict[str, Any],
                     focused: str | None = None) -> dict[str, Any]:
        return command_data(self.double, name, options, focused)

    def sync_clock(self) -> None:  # the double runs on the wall clock
        return None

    def wake(self, channel: int) -> None:
        """The members waiting on ``channel`` or on its parent (a board posted in a game's thread is what the
        members who started the game from the lobby's channel wait for)."""
        super().wake(channel)
        parent = getattr(self.double.channels.get(channel), "parent_id", None)
        if parent is not None:
            super().wake(parent)


def command_data(double: Double, name: str, options: dict[str, Any], focused: str | None = None
                 ) -> dict[str, Any]:
    """A slash command's (or its autocomplete's) interaction data, from the commands the bot synced."""
    parts = name.split()
    root = next((c for c in double.commands if c["name"] == parts[0] and c.get("type", 1) == 1), None)
    if root is None:
        raise LookupError(f"the bot synced no /{parts[0]}")
    node, path = root, []
    for sub in parts[1:]:
        node = next(o for o in node.get("options") or [] if o["name"] == sub and o["type"] in (1, 2))
        path.append(node)
    declared = {o["name"]: o for o in node.get("options") or [] if o["type"] not in (1, 2)}
    leaf = [{"name": k, "type": declared[k]["type"], "value": v} for k, v in options.items() if k != focused]
    if focused is not None:
        leaf.append({"name": focused, "type": declared[focused]["type"], "value": options[focused], "focused": True})
    nested: list[dict[str, Any]] = leaf
    for sub_node in reversed(path):
        nested = [{"name": sub_node["name"], "type": sub_node["type"], "options": nested}]
    return {"id": root["id"], "name": root["name"], "type": 1, "options": nested}


class LoopLoad(bl.Load):
    """bench.load's Load (the members' tally, the measured window, the moves told played) with the bot in another
    process: the window's snapshot reads that process's CPU and its children's from /proc."""

    def __init__(self, double: Double, traffic: LoopTraffic, game: str, players: int, seed: int,
                 options: str | None, slash_share: float, patience: float, think: float, bot_pid: Callable[[], int]
                 ) -> None:
        super().__init__(double, None, traffic, game, players, seed, options, slash_share, patience, think)  # type: ignore[arg-type]
        self.double = double
        self.loop_traffic = traffic
        self.bot_pid = bot_pid
        self.under_load = False  # the bot is stopped while the members play: moves stored, not yet told, are owed
        self.owed_tables: dict[int, int] = {}  # table id -> moves owed
        self.outbox_owed: list[int] = []  # tables whose outbox owes a post, after the bot stopped
        self.owed_samples: list[str] = []
        self.all_pids: Callable[[], list[int]] = lambda: [self.bot_pid()]
        """Every process serving the members (the bot processes, a database server): their CPU and their children's
        is summed as "all" (issue 26's several processes)."""

    def snapshot(self) -> dict[str, Any]:
        pid = self.bot_pid()
        return {"t": time.perf_counter(), "moves": self.tally.moves, "bot": proc_cpu_s(pid),
                "all": sum(proc_cpu_s(p) + sum(proc_cpu_s(k) for k in children_of(p)) for p in self.all_pids()),
                "children": {k: proc_cpu_s(k) for k in children_of(pid)}, "double": own_cpu_s(),
                "names": {k: process_name(k) for k in children_of(pid)},
                "late_acks": self.double.late_acks, "interactions": self.tally.interactions,
                "refused": self.tally.refused, "stuck": self.tally.stuck, "failed": self.tally.failed,
                "requests": self.double.requests}

    async def open_tables_in(self, guilds: Sequence[Guild], count: int, at_once: int = 8) -> list[LoopTable]:
        tables = []
        for i in range(count):
            guild = guilds[i % len(guilds)]
            channel = self.double.create_text_channel(guild, f"games-{i}")
            members = [Member(self.double.create_user(f"p{i}x{s}"), guild) for s in range(self.players)]
            tables.append(LoopTable(self, channel, members))
        return tables

    def prune(self) -> None:
        """Forget old messages and interactions (Discord keeps them; a long run in memory would not)."""
        self.retract()
        double = self.double
        for messages in double.messages.values():
            if len(messages) > KEEP_MESSAGES:
                for mid in list(messages)[:-KEEP_MESSAGES]:
                    del messages[mid]
        self.forget_interactions(double)


class LoopTable(bl.Table):
    """bench.load's Table; its first game is opened as every next one is (``/game new``, Join, Start)."""

    async def first_game(self) -> None:
        if not await self.next_game():
            raise RuntimeError(f"table in channel {self.channel.id}: the first game did not start")


# --- the bot process ---------------------------------------------------------------------------------------------
def _sigint_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass
class BotProcess:
    proc: subprocess.Popen[bytes]
    log: Path
    started: float

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self, sig: int = signal.SIGINT, timeout: float = 60.0) -> tuple[float, int | None]:
        """(seconds from the signal to the process gone, its exit code; None if it had to be killed)."""
        sent = time.perf_counter()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            code: int | None = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = None
        return time.perf_counter() - sent, code

    def log_counts(self) -> dict[str, int]:
        """ERROR and WARNING records and tracebacks in the bot's output (LOG_LEVEL=WARNING)."""
        try:
            lines = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return {}
        return {"errors": sum(" ERROR " in line for line in lines),
                "warnings": sum(" WARNING " in line for line in lines) - 1,  # less "talking to a Discord double"
                "tracebacks": sum(line.startswith("Traceback") for line in lines)}

    def tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def start_bot(double: Double, database: Path | str, folder: Path, name: str = "bot",
              extra: dict[str, str] | None = None) -> BotProcess:
    """``python bot.py`` pointed at the double, on ``database``; its output to ``folder/<name>.log``."""
    env = dict(os.environ)
    env.update({"DISCORD_TOKEN": TOKEN, "BLOCKHOUSE_DB": str(database), "BLOCKHOUSE_DISCORD_API": double.url,
                "BLOCKHOUSE_TEST_GUILD": "", "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1"})
    env.update(extra or {})
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        # (Ctrl-C reaches the bot as it would in a terminal: a bench started in the background, where the shell
        # hands its children SIGINT ignored, still stops its bot by SIGINT)
        proc = subprocess.Popen([sys.executable, str(ROOT / "bot.py")], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, preexec_fn=_sigint_as_in_a_terminal)
    return BotProcess(proc, log, time.perf_counter())


async def wait_for(check: Callable[[], bool], timeout: float, bot: BotProcess | None = None,
                   what: str = "the bot") -> None:
    """Poll ``check`` (the bot's connection and its command sync are not events the members watch)."""
    deadline = time.perf_counter() + timeout
    while not check():
        if bot is not None and bot.proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {bot.proc.returncode}:\n{bot.tail()}")
        if time.perf_counter() > deadline:
            raise TimeoutError(f"{what}: not ready after {timeout} s:\n{bot.tail() if bot else ''}")
        await asyncio.sleep(0.05)


# --- one run -------------------------------------------------------------------------------------------------------
async def run_loopback(game: str = "breaks", tables: int = 2, *, players: int = 2, seed: int = 1, warmup: int = 4,
                       measure: int = 20, options: str | None = None, slash_share: float = 0.2,
                       patience: float = 60.0, think: float = 0.0, folder: Path | None = None,
                       guilds: int = 1, stop_signal: int = signal.SIGINT, under_load: bool = False,
                       expiry_s: float = 3.0,
                       env: dict[str, str] | None = None, processes: int = 1, database_url: str | None = None,
                       kill_outage_s: float | None = None, server_pids: Callable[[], list[int]] | None = None
                       ) -> dict[str, Any]:
    """``processes`` > 1: that many bot processes, process ``i`` given shard ``i`` of ``processes``
    (``BLOCKHOUSE_SHARDS``), the guilds (at least one per process) spread over the shards, so the tables split
    between the processes as Discord would split them (issue 26); the CPU figures are the first process's.
    ``database_url``: the bots' database (an empty PostgreSQL database) instead of an SQLite file.
    ``kill_outage_s`` (with ``processes`` > 1): half way through the measured moves the last process is killed
    (SIGKILL), left dead that many seconds and started again, the members still playing (:func:`kill_and_restart`)."""
    with tempfile.TemporaryDirectory(prefix="bench-loopback-") as tmp:
        where = folder or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        database: Any = where / f"loopback-{game}-{tables}.db"
        database.unlink(missing_ok=True)
        if database_url is not None:
            database = database_url
        double = Double(expiry_s=expiry_s)
        await double.start()
        if processes > 1:
            made = [double.create_guild(f"guild {i}", shard=(i % processes, processes))
                    for i in range(max(guilds, processes))]
        else:
            made = [double.create_guild(f"guild {i}") for i in range(guilds)]
        others: list[BotProcess] = []
        traffic = LoopTraffic(double)
        bot: BotProcess | None = None
        load = LoopLoad(double, traffic, game, players, seed, options, slash_share, patience, think,
                        lambda: bot.pid if bot is not None else 0)
        load.under_load = under_load
        load.all_pids = lambda: ([b.pid for b in [bot, *others] if b is not None]
                                 + (server_pids() if server_pids else []))
        wall0 = time.perf_counter()
        stopped: tuple[float, int | None] = (math.nan, None)
        try:
            table_objs = await load.open_tables_in(made, tables)
            if processes > 1:
                shard = {"BLOCKHOUSE_SHARD_COUNT": str(processes)}
                bot = start_bot(double, database, where, extra={**(env or {}), **shard, "BLOCKHOUSE_SHARDS": "0"})
                # (the first migrates the database: the others start once it is connected)
                await wait_for(lambda: any(c.identified for c in double.connections), 120.0, bot)
                others = [start_bot(double, database, where, f"bot{i}",
                                    extra={**(env or {}), **shard, "BLOCKHOUSE_SHARDS": str(i)})
                          for i in range(1, processes)]
            else:
                bot = start_bot(double, database, where, extra=env)
            await wait_for(lambda: bool(double.commands) and
                           sum(c.identified for c in double.connections) >= processes, 120.0, bot)
            connected_s = time.perf_counter() - bot.started
            gate = asyncio.Semaphore(8)

            async def opened(table: LoopTable) -> None:
                async with gate:
                    await table.first_game()

            await asyncio.gather(*(opened(t) for t in table_objs))
            setup_s = time.perf_counter() - wall0
            load.window = bl.Window(warmup=load.tally.moves + warmup, measure=measure)
            stop = load.window.stop
            done = asyncio.Event()

            async def pruning() -> None:
                while not done.is_set():
                    try:
                        await asyncio.wait_for(done.wait(), 2.0)
                    except TimeoutError:
                        load.prune()

            pruner = asyncio.ensure_future(pruning())
            playing = asyncio.gather(*(t.play(stop) for t in table_objs))
            killing = None
            if kill_outage_s is not None and others:
                extra = {**(env or {}), "BLOCKHOUSE_SHARD_COUNT": str(processes),
                         "BLOCKHOUSE_SHARDS": str(processes - 1)}
                killing = asyncio.ensure_future(kill_and_restart(load, double, table_objs, others, processes,
                                                                 database, where, extra, kill_outage_s, measure))
            if under_load:  # stopped as the window closes, the members still playing; the double keeps serving
                await stop.wait()
                stopped = await asyncio.to_thread(bot.stop, stop_signal)
                playing.cancel()
            await asyncio.gather(playing, return_exceptions=under_load)
            if not load.window.closed:  # every table stuck: close what was measured
                if not load.window.open:
                    load.window.start = load.snapshot()
                load.close_window()
            done.set()
            await pruner
            load.retract(everything=True)
            killed = await killing if killing is not None else None
            if not under_load:
                stopped = await asyncio.to_thread(bot.stop, stop_signal)
            for other in others:
                await asyncio.to_thread(other.stop, stop_signal)
            result = await report(load, table_objs, database, game, tables, players, setup_s, connected_s)
            result["stop_s"] = round(stopped[0], 2)
            result["stopped_under_load"] = under_load
            result["exit_code"] = stopped[1]
            result["bot_log_tail"] = bot.tail(12)
            result["bot_log"] = bot.log_counts()
            if under_load:
                result["after_restart"] = await restart_and_check(load, double, database, where, env, patience)
            if processes > 1:
                result["by_shard"] = await by_shard(load, table_objs, database, double, processes, killed)
            if killed is not None:
                result["kill"] = killed
            result["double_errors"] = double.errors[:10]
            result["wall_s"] = round(time.perf_counter() - wall0, 1)
            return result
        finally:
            for running in [bot, *others]:
                if running is not None and running.proc.poll() is None:  # (off the loop: the double serves its
                    await asyncio.to_thread(running.stop, signal.SIGTERM, 30.0)  # close meanwhile)
            await double.stop()


def shard_tables(double: Double, tables: Sequence[LoopTable], processes: int) -> dict[int, list[LoopTable]]:
    """The tables by the shard (process) their guild falls on."""
    out: dict[int, list[LoopTable]] = {i: [] for i in range(processes)}
    for table in tables:
        out[double.shard_of(table.channel.guild_id or 0, processes)].append(table)
    return out


async def kill_and_restart(load: LoopLoad, double: Double, tables: Sequence[LoopTable], others: list[BotProcess],
                           processes: int, database: Path | str, folder: Path, extra: dict[str, str],
                           outage_s: float, measure: int) -> dict[str, Any]:
    """A quarter of the way through the measured moves, kill -9 the last process (``others[-1]``), leave it dead
    ``outage_s`` seconds while the members go on playing, start it again (its shard, the same database) and wait for
    its tables to move again: the moves told per second on the other processes' tables before the kill and while it
    was dead (they must not stall), the victim's while dead (0: nobody answers its guilds), and how long until its
    tables moved again (its members give up on an interaction after their patience, then look at the board again)."""
    shards = shard_tables(double, tables, processes)
    victim = processes - 1

    def told(shard: int) -> int:
        return sum(len(load.played.get(t, [])) for table in shards[shard] for t in table.tables)

    def others_told() -> int:
        return sum(told(s) for s in shards if s != victim)

    w = load.window
    assert w is not None
    while not w.open:
        await asyncio.sleep(0.05)
    t_open, open_told = time.perf_counter(), others_told()
    while load.tally.moves < w.warmup + measure // 4 and not w.closed:
        await asyncio.sleep(0.05)
    t_kill, before = time.perf_counter(), (others_told(), told(victim))
    killed_at = time.time()  # (the clock the bots stamp their moves with)
    others[-1].proc.kill()
    await asyncio.to_thread(others[-1].proc.wait)
    await asyncio.sleep(outage_s)  # the outage itself (a bench's scenario, not a test's wait)
    t_back, during = time.perf_counter(), (others_told(), told(victim))
    known = set(map(id, double.connections))
    others[-1] = start_bot(double, database, folder, f"bot{victim}-restart", extra)
    await wait_for(lambda: any(id(c) not in known and c.identified and c.shard == (victim, processes)
                               for c in double.connections), 120.0, others[-1], "the restarted process")
    t_ready = time.perf_counter()
    while told(victim) == during[1] and time.perf_counter() - t_ready < 4 * load.patience:
        await asyncio.sleep(0.05)
    t_moved = time.perf_counter()
    return {"outage_s": round(t_back - t_kill, 2),
            "others_moves_per_s_before": round((before[0] - open_told) / max(t_kill - t_open, 1e-9), 2),
            "others_moves_per_s_while_dead": round((during[0] - before[0]) / max(t_back - t_kill, 1e-9), 2),
            "victim_moves_while_dead": during[1] - before[1],
            "restart_connected_s": round(t_ready - t_back, 2),
            "victim_moved_again_after_s": round(t_moved - t_ready, 2),
            "victim_moved_again": told(victim) > during[1], "killed_at": killed_at, "victim": victim}


DYING_S = 10.0  # a move the killed process committed this long before the kill may still have been unanswered


async def by_shard(load: LoopLoad, tables: Sequence[LoopTable], database: Path | str, double: Double,
                   processes: int, killed: dict[str, Any] | None = None) -> dict[str, Any]:
    """After the run, per shard: moves told, stored, told-not-stored (lost), and stored-not-told split in two: on the
    killed process's tables, moves it committed in the :data:`DYING_S` seconds before the kill whose members were
    never answered (their boards are the outbox's to post: "died"), and every other one ("doubled": should be 0)."""
    out: dict[str, Any] = {}
    db = await Database.open(database)
    try:
        for shard, mine in shard_tables(double, tables, processes).items():
            told_n = stored_n = lost = died = doubled = 0
            for table in mine:
                for table_id in table.tables:
                    told, moves = await bl.told_and_stored(db, table_id, load.played)
                    stored: Counter[tuple[int | None, str]] = Counter((m.seat, m.notation) for m in moves)
                    told_n, stored_n = told_n + sum(told.values()), stored_n + sum(stored.values())
                    lost += sum((told - stored).values())
                    untold = stored - told
                    dying: Counter[tuple[int | None, str]] = Counter()
                    if killed is not None and shard == killed["victim"]:
                        dying = Counter((m.seat, m.notation) for m in moves
                                        if killed["killed_at"] - DYING_S <= m.created_at <= killed["killed_at"] + 1)
                    died += sum((untold & dying).values())
                    doubled += sum((untold - dying).values())
            out[f"shard {shard}"] = {"told": told_n, "stored": stored_n, "lost": lost,
                                     "committed_as_it_died": died, "doubled": doubled}
        out["outbox_owing_at_end"] = len(await db.undelivered())
    finally:
        await db.close()
    return out


def owing(database: Path) -> int:
    """Tables whose outbox still owes a post (storage's ``undelivered``), read from the file while the bot runs."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)) as con:
        return int(con.execute("SELECT COUNT(DISTINCT table_id) FROM outbox WHERE delivered_at IS NULL").fetchone()[0])


async def restart_and_check(load: LoopLoad, double: Double, database: Path, folder: Path,
                            env: dict[str, str] | None, patience: float) -> dict[str, Any]:
    """After a stop under load: what the bot's outbox owed when it stopped (public posts of committed changes not yet
    made) is posted once it starts again on its database: the outbox watched until it owes nothing."""
    at_stop = len(load.outbox_owed)
    bot = start_bot(double, database, folder, name="bot-restart", extra=env)
    try:
        await wait_for(lambda: any(c.identified for c in double.connections), 120.0, bot, "the restarted bot")
        restarted = time.perf_counter()
        left = at_stop
        while left and time.perf_counter() - restarted < patience:  # the bot's database, not an event of the double
            await asyncio.sleep(0.2)
            left = await asyncio.to_thread(owing, database)
        return {"moves_owed": sum(load.owed_tables.values()), "tables_owing_at_stop": at_stop,
                "still_owing": left, "delivered_within_s": round(time.perf_counter() - restarted, 2),
                "restart_connected_s": round(restarted - bot.started, 2), "log": bot.log_counts()}
    finally:
        await asyncio.to_thread(bot.stop, signal.SIGINT)


async def report(load: LoopLoad, tables: list[LoopTable], database: Path, game: str, count: int, players: int,
                 setup_s: float, connected_s: float) -> dict[str, Any]:
    """The lost/doubled check against the bot's database (after the bot stopped), then the figures."""
    for table_id, told_moves in load.played.items():
        load.played[table_id] = [m for i, m in enumerate(told_moves) if (table_id, i) not in load.retracted]
    return await figures(load, tables, database, game, count, players, setup_s, connected_s)


async def figures(load: LoopLoad, tables: list[LoopTable], database: Path, game: str, count: int, players: int,
                  setup_s: float, connected_s: float) -> dict[str, Any]:
    tally = load.tally
    owed = 0
    db = await Database.open(database)
    try:
        for table in tables:
            for table_id in table.tables:
                # by (seat, notation), as bench.load.check_moves: a move told to the wrong member is no match
                row = await db.get_table(table_id)
                seat_of = {s.user_id: s.seat for s in row.seats} if row is not None else {}
                log = [(m.seat, m.notation) for m in await db.moves(table_id)]
                told = Counter((seat_of.get(member), n) for member, n in load.played.get(table_id, []))
                tally.stored += len(log)
                while load.under_load and log and Counter(log)[log[-1]] > told[log[-1]]:
                    log.pop()  # the newest moves, committed as the bot stopped, their boards not come: owed
                    owed += 1
                    load.owed_tables[table_id] = load.owed_tables.get(table_id, 0) + 1
                    if len(load.owed_samples) < 3:
                        load.owed_samples.append(f"table {table_id}: stored {log[-2:]} + owed, told "
                                                 f"{load.played.get(table_id, [])[-3:]}")
                tally.compare(table_id, told, Counter(log))
        load.outbox_owed = [o.table_id for o in await db.undelivered()]
    finally:
        await db.close()
    w = load.window
    assert w is not None and w.start and w.end
    s, e = w.start, w.end
    moves = e["moves"] - s["moves"]
    span = e["t"] - s["t"]
    per = (lambda x: round(x / moves * 1000, 2)) if moves else (lambda x: math.nan)
    kids = {f"{pid} ({e['names'].get(pid, '?')})": per(e["children"][pid] - s["children"].get(pid, 0.0))
            for pid in e["children"]}
    never = sum(1 for iid, made in load.traffic.created.items()
                if made >= s["t"] and (r := load.double.interactions.get(iid)) is not None and r.acked is None)
    return {
        "game": game, "tables": count, "players": players, "think_s": load.think, "moves": moves,
        "seconds": round(span, 2), "setup_s": round(setup_s, 1), "connected_s": round(connected_s, 2),
        "moves_per_s": round(moves / span, 2) if span else math.nan,
        "answer_ms": {"n": len(tally.answer_s), "p50": round(bl.pct(tally.answer_s, 50) * 1000, 1),
                      "p95": round(bl.pct(tally.answer_s, 95) * 1000, 1),
                      "max": round(bl.pct(tally.answer_s, 100) * 1000, 1)},
        "move_to_board_ms": {"n": len(tally.board_s), "p50": round(bl.pct(tally.board_s, 50) * 1000, 1),
                             "p95": round(bl.pct(tally.board_s, 95) * 1000, 1)},
        "cpu_ms_per_move": {"bot": per(e["bot"] - s["bot"]), "children": kids, "all": per(e["all"] - s["all"]),
                            "double_and_members": per(e["double"] - s["double"])},
        "requests_per_move": round((e["requests"] - s["requests"]) / moves, 1) if moves else math.nan,
        "interactions": e["interactions"] - s["interactions"], "late_acks": e["late_acks"] - s["late_acks"],
        "late_acks_total": load.double.late_acks, "doubled_acks": load.double.doubled_acks, "never_acked": never,
        "refused": e["refused"] - s["refused"], "stuck": e["stuck"] - s["stuck"], "failed": e["failed"] - s["failed"],
        "lost": tally.lost, "doubled": tally.doubled, "moves_checked": tally.checked, "moves_stored": tally.stored,
        "cancelled": tally.cancelled, "owed": owed,
        "outbox_owing": len(load.outbox_owed),
        "mismatch_samples": tally.mismatch_samples + load.owed_samples,
        "refusals": Counter(load.loop_traffic.refusals.values()).most_common(5),
        "games": {"started": tally.games_started, "finished": tally.games_finished},
        "ways": {"buttons": tally.button_moves, "menu_picks": tally.menu_picks, "slash": tally.slash_moves,
                 "panels": tally.panels},
    }


__all__ = ["BotProcess", "Channel", "Double", "Interaction", "LoopLoad", "LoopTable", "LoopTraffic", "Member",
           "Message", "run_loopback", "start_bot"]
