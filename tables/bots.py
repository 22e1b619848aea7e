"""Bot seats: the table service's side of :mod:`bots`. Easy bots choose at once; medium and hard ones think in a
worker process (:mod:`bots.worker`) so that a search never blocks the event loop, with the table's per-move
budget. A bot's choice is seeded from the table, so replaying the same requests chooses the same moves.

A bot always moves: if the worker process dies (killed, out of memory) or hangs, a new one is started and asked
again; if that fails too, or the bot's code raises, the failure is logged and the bot plays a random legal move, so a
table never waits on a bot that cannot think. (The tables share the one worker: a position that crashes it makes the
bots waiting on it then use their retry too.)"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bots import DEFAULT_BUDGET_MS, LEVELS, choose, level_of
from bots.worker import think
from engine.base import Game
from engine.rng import Rng

BOT_LEVELS = LEVELS
log = logging.getLogger(__name__)


class Thinker:
    """Runs medium and hard bots in one worker process, started on first use and reused."""

    def __init__(self, budget_ms: float = DEFAULT_BUDGET_MS, iterations: int | None = None,
                 timeout_s: float | None = None) -> None:
        self.budget_ms = budget_ms
        self.iterations = iterations  # tests: a fixed search instead of a time budget
        self.timeout_s = timeout_s  # a worker silent this long is hung (default: 30 s and 5 times the budget)
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def move(self, game: Game, state: Any, seat: int, level: str, rng: Rng, in_catalog: bool) -> Any:
        """The bot's move. Games outside the default catalogue (tests' own) think in this process."""
        level = level_of(level)
        if level == "easy" or not in_catalog:
            return choose(game, state, seat, level, rng, budget_ms=self.budget_ms, iterations=self.iterations)
        seed = rng.next64()
        loop = asyncio.get_running_loop()
        timeout = self.timeout_s if self.timeout_s is not None else 30.0 + 5 * self.budget_ms / 1000
        for attempt in (1, 2):
            pool = self._executor()
            try:
                text = await asyncio.wait_for(loop.run_in_executor(pool, think, game, game.dump(state), seat,
                                                                   level, seed, self.budget_ms, self.iterations),
                                              timeout)
                return game.parse_move(text)
            except (BrokenProcessPool, TimeoutError) as err:  # the worker died or hangs: a new one is started for
                # the next try (and every table's bots, which share it)
                log.warning("the bots' worker process %s (a %s bot of %s, try %d); starting a new one",
                            "hangs" if isinstance(err, TimeoutError) else "died", level, game.key, attempt)
                if self._pool is pool:  # (not one another table's bot has started since)
                    self._pool = None
                    for process in list(pool._processes.values()):  # a hung worker is stopped (no public API
                        process.kill()  # for it before Python 3.14's kill_workers)
                    pool.shutdown(wait=False)  # (other tables' bots waiting on it get a break: they retry)
            except Exception:
                log.exception("a %s bot of %s failed to choose for seat %d", level, game.key, seat)
                break
        log.warning("a %s bot of %s plays a random legal move for seat %d instead", level, game.key, seat)
        return choose(game, state, seat, "easy", Rng(seed))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
