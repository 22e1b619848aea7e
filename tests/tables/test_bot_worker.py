"""The bots' worker processes (tables/bots.py): tables think in parallel, one question per worker; a bot always
moves, even when its worker dies or hangs while it thinks; closing stops a worker mid-thought."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable
from typing import Any

import pytest

import tables.bots
from bench.worker_start import loaded_packages
from bots.worker import MIN_SHARE, budget_left
from engine.rng import Rng
from tables.bots import Thinker, ThinkerClosed, worker_count
from tables.catalog import default_catalog
from tests.support import scaled


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (checked at each turn of the event loop), with a hang guard."""
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0)

    try:
        await asyncio.wait_for(poll(), scaled(30))
    except TimeoutError:
        pytest.fail(f"never: {what}")


def running(pid: int | None) -> bool:
    """Whether process ``pid`` is there and not a zombie (its state in /proc; without /proc, whether it can be
    signalled)."""
    if pid is None:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def pids(thinker: Thinker, slot: int) -> list[int]:
    pool = thinker._pools[slot]
    return [] if pool is None else list(pool._processes or {})


@pytest.mark.own_bot_worker  # starts, kills and stops its own workers
async def test_tables_think_in_parallel_and_a_dead_worker_costs_only_its_bot() -> None:
    """Two workers: a first bot's worker loads only the engine and the bots; two hard bots asked at once think in
    one worker each; the first one's worker is killed mid-thought and that bot moves through a new worker, while
    the other answers from its own. A third bot, thinking when the workers are closed, is stopped at once (its
    budget is a minute) and says so instead of moving."""
    game = default_catalog().get("breakerblocks")
    assert game is not None
    thinker = Thinker(budget_ms=800, workers=2)  # a time budget: the workers are busy when one is killed
    try:
        states = [game.new_game(2, game.resolve_options({}), seed) for seed in (1, 2)]
        seats = [min(game.to_act(s)) for s in states]
        await thinker.move(game, states[0], seats[0], "medium", Rng(0), True)  # the first worker is up
        # a worker imports what thinking needs and nothing else: not the table service or the catalogue (which
        # pulled in every renderer, whose sprites took seconds to draw on a busy machine), not Pillow or discord.py
        loaded = await asyncio.get_running_loop().run_in_executor(thinker._executor(0), loaded_packages)
        assert loaded == ["bots", "engine"]
        await until(lambda: bool(pids(thinker, 1)), "the other worker started once the first bot had its answer")
        first, second = thinker._executor(0), None
        moves = [asyncio.create_task(thinker.move(game, s, seat, "hard", Rng(i), True))
                 for i, (s, seat) in enumerate(zip(states, seats, strict=True))]
        await until(lambda: all(thinker._busy) and bool(pids(thinker, 0) and pids(thinker, 1)), "both workers asked")
        second = thinker._pools[1]
        assert pids(thinker, 0) != pids(thinker, 1), "two processes think"
        for pid in pids(thinker, 0):
            os.kill(pid, signal.SIGKILL)
        done = await asyncio.wait_for(asyncio.gather(*moves), timeout=scaled(60))  # a hang guard
        for state, seat, move in zip(states, seats, done, strict=True):
            assert move in game.legal_moves(state, seat)
        assert first not in thinker._pools and thinker._pools[0] is not None, "a new worker in the dead one's place"
        assert second in thinker._pools, "the other worker was not touched"

        thinker.budget_ms = 60_000
        thinking = asyncio.create_task(thinker.move(game, states[1], seats[1], "hard", Rng(7), True))
        await until(lambda: thinker._busy[0], "the bot asked a worker")
        workers = [p for pool in thinker._pools if pool is not None for p in (pool._processes or {}).values()]
        thinker.close()
        with pytest.raises(ThinkerClosed):
            await asyncio.wait_for(thinking, scaled(30))  # (a minute's thinking, unless the worker was stopped)
        for worker in workers:
            worker.join(scaled(5))  # a hang guard
            # (by the process table, not is_alive(): the pool's own thread may reap the killed process between the
            # join's look and its bookkeeping, and is_alive() then keeps answering True for a process long gone)
            assert not running(worker.pid), "close() stopped every worker"
    finally:
        thinker.close()


@pytest.mark.own_bot_worker
async def test_a_hung_worker_is_stopped_and_the_bot_still_moves(caplog: pytest.LogCaptureFixture) -> None:
    """A worker silent past its timeout is taken as hung: it is stopped, a new one is asked, and when that one
    hangs too the bot plays a random legal move."""
    game = default_catalog().get("breakerblocks")
    assert game is not None
    thinker = Thinker(budget_ms=1500, workers=1)
    try:
        state = game.new_game(2, game.resolve_options({}), 3)
        seat = min(game.to_act(state))
        await thinker.move(game, state, seat, "medium", Rng(0), True)  # the worker is up
        first = thinker._pool
        assert first is not None
        workers = list(first._processes.values())
        thinker.timeout_s = 0.3  # a hard bot thinks 1.5 s of the wall clock, on any machine: longer than this bound
        with caplog.at_level(logging.WARNING, logger="tables.bots"):
            move = await thinker.move(game, state, seat, "hard", Rng(1), True)
        assert move in game.legal_moves(state, seat)
        said = [r.getMessage() for r in caplog.records]
        assert sum("hangs" in line for line in said) == 2, said  # each try timed out: neither waited for the answer
        assert any("plays a random legal move" in line for line in said), said
        assert thinker._pool is not first
        for worker in workers:
            worker.join(scaled(5))  # a hang guard
            assert not running(worker.pid), "the hung worker was stopped"
    finally:
        thinker.close()


async def test_a_bot_waits_for_the_first_free_worker_and_its_budget_counts_from_when_it_was_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With every worker busy a bot waits for the first to come free (first come, first served); its worker is told
    when the bot was asked, and takes the time since off the budget (at least MIN_SHARE of it): the budget is the
    bot's time to answer. No process here: the workers are stand-ins that answer when the test says, and the
    clock is the test's."""
    from concurrent.futures import Future

    now = [100.0]
    monkeypatch.setattr(tables.bots.time, "time", lambda: now[0])
    asked: list[tuple[int, float, float, Future[str]]] = []

    class Worker:
        def __init__(self, slot: int) -> None:
            self.slot = slot

        def submit(self, fn: Any, game: Any, state: Any, seat: int, level: str, seed: int, budget_ms: float,
                   iterations: int | None, asked_at: float) -> Future[str]:
            job: Future[str] = Future()
            asked.append((self.slot, budget_ms, asked_at, job))
            return job

    thinker = Thinker(budget_ms=1000, workers=2)
    monkeypatch.setattr(thinker, "_executor", lambda slot=0: Worker(slot))
    thinker._started = True  # (the stand-ins need no starting)
    game = default_catalog().get("breakerblocks")
    assert game is not None
    state = game.new_game(2, game.resolve_options({}), 1)
    seat = min(game.to_act(state))
    move = game.format_move(game.legal_moves(state, seat)[0])
    bots = []
    for i in range(4):
        bots.append(asyncio.create_task(thinker.move(game, state, seat, "hard", Rng(i), True)))
        await asyncio.sleep(0)  # (each bot asks in turn)
        now[0] += 0.1
    await until(lambda: len(asked) == 2, "two bots asked the two workers")
    assert [(slot, budget, at) for slot, budget, at, _ in asked] == [(0, 1000, 100.0), (1, 1000, 100.1)]
    asked[1][3].set_result(move)  # the second worker answers first: the third bot (asked at 100.2) gets it
    await until(lambda: len(asked) == 3, "the third bot asked the free worker")
    asked[0][3].set_result(move)
    await until(lambda: len(asked) == 4, "the fourth bot asked")
    assert [(slot, at) for slot, _, at, _ in asked[2:]] == [(1, pytest.approx(100.2)), (0, pytest.approx(100.3))]
    for _, _, _, job in asked[2:]:
        job.set_result(move)
    assert [game.format_move(m) for m in await asyncio.gather(*bots)] == [move] * 4
    assert thinker._busy == [False, False], "every worker free again"
    # what the worker thinks with: the budget less the time since the bot was asked, at least MIN_SHARE of it
    assert budget_left(1000, 100.0, 100.3) == pytest.approx(700)
    assert budget_left(1000, 100.0, 99.0) == 1000  # (a clock set back takes nothing off)
    assert budget_left(1000, 100.0, 105.0) == pytest.approx(1000 * MIN_SHARE)
    assert budget_left(1000, None, 105.0) == 1000


async def test_an_easy_bot_that_thinks_asks_a_worker_and_a_random_one_answers_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bloc by Bloc's easy bot values its moves as the medium bot does (bots.EASY), milliseconds a move that would
    hold the event loop: it is asked of a worker. Another game's easy bot picks at random, at once, in this process.
    The workers are stand-ins that record what they are asked."""
    from concurrent.futures import Future

    asked: list[tuple[str, str]] = []

    class Worker:
        def submit(self, fn: Any, game: Any, state: Any, seat: int, level: str, seed: int, budget_ms: float,
                   iterations: int | None, asked_at: float) -> Future[str]:
            asked.append((game.key, level))
            job: Future[str] = Future()
            job.set_result(game.format_move(game.search_moves(game.load(state), seat)[0]))
            return job

    thinker = Thinker(budget_ms=1000, workers=1)
    monkeypatch.setattr(thinker, "_executor", lambda slot=0: Worker())
    thinker._started = True
    for key, through_a_worker in (("blocbybloc", True), ("breaks", False)):
        game = default_catalog().get(key)
        assert game is not None
        state = game.new_game(3, game.resolve_options({}), 1)
        seat = min(game.to_act(state))
        move = await thinker.move(game, state, seat, "easy", Rng(2), True)
        assert game.format_move(move) in {game.format_move(m) for m in game.legal_moves(state, seat)}
        assert ((key, "easy") in asked) is through_a_worker, (key, asked)


def test_the_workers_setting() -> None:
    cores = tables.bots.cores()
    assert worker_count({}) == cores >= 1
    assert worker_count({"BLOCKHOUSE_BOT_WORKERS": " 3 "}) == 3
    assert worker_count({"BLOCKHOUSE_BOT_WORKERS": "0"}) == cores  # (logged: not a count of workers)
    assert worker_count({"BLOCKHOUSE_BOT_WORKERS": "two"}) == cores
    assert Thinker(workers=3).workers == 3
