"""Bot seats: the table service's side of :mod:`bots`. Easy bots that pick at random choose at once; medium and
hard ones, and easy ones that think (Bloc by Bloc's: :func:`bots.thinks`), think in worker processes
(:mod:`bots.worker`) so that a search or a heuristic never blocks the event loop, with the table's per-move
budget. A bot's choice is seeded from the table, so replaying the same requests chooses the same moves.

Tables think in parallel: :class:`Thinker` keeps ``BLOCKHOUSE_BOT_WORKERS`` worker processes (default: one per
core), all started once the first question is answered, and gives each question to a free one; when every worker is
busy, the question waits for the first to come free. The budget is the bot's time to answer, from when it is asked:
a bot that waited for a worker (or for one to start) thinks for what is left of its budget (at least
:data:`bots.worker.MIN_SHARE` of it), so three tables of hard bots on two workers still answer about within their
budget.

A bot always moves: if its worker process dies (killed, out of memory) or hangs, that worker is stopped, a new one
is started in its place and the bot asks again; if that fails too, or the bot's code raises, the failure is logged
and the bot plays a random legal move, so a table never waits on a bot that cannot think. A worker serves one
question at a time, so a position that crashes or hangs a worker costs only the bot that asked it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import deque
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bots import DEFAULT_BUDGET_MS, LEVELS, choose, level_of, random_move, thinks
from bots.worker import ready, think
from engine.base import Game
from engine.rng import Rng
from tables.workers import cores, count_setting

BOT_LEVELS = LEVELS
WORKERS_SETTING = "BLOCKHOUSE_BOT_WORKERS"
log = logging.getLogger(__name__)


class ThinkerClosed(RuntimeError):
    """The bots' workers were shut down (the bot is stopping) while this bot was thinking or waiting for one: its
    move is not played (the table's position was stored before it thought; the next start lets the bot choose
    again)."""


def worker_count(env: Mapping[str, str] | None = None) -> int:
    """How many worker processes think at once: ``BLOCKHOUSE_BOT_WORKERS`` (a whole number, at least 1), else one
    per core."""
    return count_setting(WORKERS_SETTING, cores(), 1, env)


def _spawn() -> ProcessPoolExecutor:
    """One worker process (started by the executor at its first question)."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


class Thinker:
    """Runs the bots that think (medium, hard, and easy where :func:`bots.thinks`) in worker processes, each started
    on first use and reused."""

    def __init__(self, budget_ms: float = DEFAULT_BUDGET_MS, iterations: int | None = None,
                 timeout_s: float | None = None, workers: int | None = None) -> None:
        self.budget_ms = budget_ms
        self.iterations = iterations  # tests: a fixed search instead of a time budget
        self.timeout_s = timeout_s  # a worker silent this long is hung (default: 30 s and 5 times the budget)
        self.workers = max(1, workers if workers is not None else worker_count())
        self._pools: list[ProcessPoolExecutor | None] = [None] * self.workers  # a worker process each
        self._busy = [False] * self.workers  # a question is on its way to the worker or being answered
        self._waiting: deque[asyncio.Future[int]] = deque()  # bots waiting for a free worker, first come first
        self._generation = 0  # close() counts up: a bot thinking then gets ThinkerClosed, not a new worker
        self._started = False  # every worker started (once the first question is answered)

    @property
    def _pool(self) -> ProcessPoolExecutor | None:
        """The first worker (the one a bot asks when no other table's bot is thinking)."""
        return self._pools[0]

    def _executor(self, slot: int = 0) -> ProcessPoolExecutor:
        pool = self._pools[slot]
        if pool is None:
            pool = self._pools[slot] = _spawn()
        return pool

    def _start_all(self) -> None:
        """Once a first bot has its answer every worker starts, so that the first time several tables think at
        once none waits for a worker to start (about 0.2 s on a quiet machine, seconds on a saturated one); not
        before, so that they do not slow down the first worker's start."""
        if self._started:
            return
        self._started = True
        for slot in range(self.workers):
            if self._pools[slot] is None:
                with contextlib.suppress(BrokenProcessPool, RuntimeError):
                    self._executor(slot).submit(ready)

    # --- who thinks where ---------------------------------------------------------------------------------------
    async def _take(self) -> int:
        """A free worker's slot, kept until :meth:`_give_back`: the first free one, else the first to come free."""
        for slot, busy in enumerate(self._busy):
            if not busy:
                self._busy[slot] = True
                return slot
        waiter: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                self._give_back(waiter.result())  # handed a worker just as it was cancelled: pass it on
            raise
        finally:
            if waiter in self._waiting:
                self._waiting.remove(waiter)

    def _give_back(self, slot: int) -> None:
        """The worker in ``slot`` is free: to the first bot waiting for one, else kept free."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if waiter.done():
                continue
            try:
                waiter.set_result(slot)
                return
            except RuntimeError:  # (its event loop is closed)
                continue
        self._busy[slot] = False

    def _free_when_done(self, slot: int, job: Future[str], loop: asyncio.AbstractEventLoop) -> None:
        """The slot comes free when the worker has answered (or died), not when the bot stops waiting: a bot
        cancelled while its worker thinks leaves the worker busy until it is done."""
        def done(_: Future[str]) -> None:
            try:
                loop.call_soon_threadsafe(self._give_back, slot)
            except RuntimeError:  # (the event loop is closed: nobody waits on it)
                self._busy[slot] = False

        job.add_done_callback(done)

    def _replace(self, slot: int, pool: ProcessPoolExecutor) -> None:
        """The worker in ``slot`` died or hangs: it is stopped and forgotten (a new one starts at the next question)."""
        if self._pools[slot] is pool:
            self._pools[slot] = None
        _stop(pool)

    # --- the bot's move -------------------------------------------------------------------------------------------
    async def move(self, game: Game, state: Any, seat: int, level: str, rng: Rng, in_catalog: bool) -> Any:
        """The bot's move. Games outside the default catalogue (tests' own) think in this process."""
        level = level_of(level)
        if not thinks(game.key, level) or not in_catalog:
            return choose(game, state, seat, level, rng, budget_ms=self.budget_ms, iterations=self.iterations)
        seed = rng.next64()
        asked = time.time()  # (the worker takes off its budget the time since: the budget is the time to answer)
        loop = asyncio.get_running_loop()
        timeout = self.timeout_s if self.timeout_s is not None else 30.0 + 5 * self.budget_ms / 1000
        generation = self._generation
        stored = game.dump(state)
        for attempt in (1, 2):
            slot = await self._take()
            if generation != self._generation:
                self._give_back(slot)
                raise ThinkerClosed("the bots' workers were shut down")
            pool = self._executor(slot)
            try:
                job = pool.submit(think, game, stored, seat, level, seed, self.budget_ms, self.iterations, asked)
            except (BrokenProcessPool, RuntimeError) as err:  # it died while idle (or was shut down)
                job = Future()
                job.set_exception(BrokenProcessPool(f"the worker cannot take a question: {err}"))
            except BaseException:
                self._give_back(slot)
                raise
            self._free_when_done(slot, job, loop)
            try:
                text = await asyncio.wait_for(asyncio.wrap_future(job), timeout)
                self._start_all()
                return game.parse_move(text)
            except asyncio.CancelledError:
                if job.cancelled() and generation != self._generation:  # (close() dropped the question unasked)
                    raise ThinkerClosed("the bots' workers were shut down") from None
                raise
            except (BrokenProcessPool, TimeoutError) as err:  # the worker died or hangs: a new one in its place
                if generation != self._generation:
                    raise ThinkerClosed("the bots' workers were shut down") from err
                log.warning("a bots' worker process %s (a %s bot of %s, try %d); starting a new one",
                            "hangs" if isinstance(err, TimeoutError) else "died", level, game.key, attempt)
                self._replace(slot, pool)
            except Exception:
                log.exception("a %s bot of %s failed to choose for seat %d", level, game.key, seat)
                break
        log.warning("a %s bot of %s plays a random legal move for seat %d instead", level, game.key, seat)
        return random_move(game, state, seat, Rng(seed))

    def close(self) -> None:
        """Stop every worker at once, thinking or not (what they were thinking is not waited for: a bot waiting on
        one gets :class:`ThinkerClosed`). A later question starts new workers."""
        self._generation += 1
        self._started = False
        pools = [pool for pool in self._pools if pool is not None]
        self._pools = [None] * self.workers
        for pool in pools:
            _stop(pool)
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                with contextlib.suppress(RuntimeError):  # (its event loop is closed)
                    waiter.set_exception(ThinkerClosed("the bots' workers were shut down"))


def _stop(pool: ProcessPoolExecutor) -> None:
    """Shut a worker down without waiting for it: its process is killed (no public API for it before Python
    3.14's ``kill_workers``), so a hung or busy worker does not hold up the bot's exit."""
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
