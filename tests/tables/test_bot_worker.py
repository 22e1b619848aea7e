"""The bots' worker process (tables/bots.py): a bot always moves, even when its worker dies while it thinks."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import tables.bots
from bench.worker_start import loaded_packages
from engine.rng import Rng
from tables.bots import Thinker
from tables.catalog import default_catalog
from tests.support import scaled

pytestmark = pytest.mark.own_bot_worker  # each test here starts, kills and stops its own


async def test_two_bots_thinking_when_the_worker_dies_both_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tables' hard bots wait on the one worker when it is killed: each gets a legal move, through a new
    worker, and neither retry shuts down the worker the other has just started."""
    game = default_catalog().get("breakerblocks")
    assert game is not None
    pools: list[ProcessPoolExecutor] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            pools.append(self)

    monkeypatch.setattr(tables.bots, "ProcessPoolExecutor", Counted)
    thinker = Thinker(budget_ms=800)  # a time budget: the worker is busy when it is killed
    try:
        states = [game.new_game(2, game.resolve_options({}), seed) for seed in (1, 2)]
        seats = [min(game.to_act(s)) for s in states]
        await thinker.move(game, states[0], seats[0], "medium", Rng(0), True)  # the worker is up
        pool = thinker._pool
        assert pool is not None
        first = [pid for pid in pool._processes]
        moves = [asyncio.create_task(thinker.move(game, s, seat, "hard", Rng(i), True))
                 for i, (s, seat) in enumerate(zip(states, seats, strict=True))]
        await asyncio.sleep(0.5)  # (not a wait for anything: killed before or while it thinks, the worker fails
        for pid in first:  # both moves alike, which is what this test is about)
            os.kill(pid, signal.SIGKILL)
        done = await asyncio.wait_for(asyncio.gather(*moves), timeout=scaled(60))  # a hang guard
        for state, seat, move in zip(states, seats, done, strict=True):
            assert move in game.legal_moves(state, seat)
        assert thinker._pool is not None and thinker._pool is not pool, "a new worker serves the bots"
        assert len(pools) == 2, "one new worker for both: neither retry shut down the one the other started"
        assert await thinker.move(game, states[0], seats[0], "medium", Rng(5), True) in game.legal_moves(
            states[0], seats[0])
    finally:
        thinker.close()


async def test_a_hung_worker_is_stopped_and_the_bot_still_moves(caplog: pytest.LogCaptureFixture) -> None:
    """A worker silent past its timeout is taken as hung: it is stopped, a new one is asked, and when that one
    hangs too the bot plays a random legal move."""
    game = default_catalog().get("breakerblocks")
    assert game is not None
    thinker = Thinker(budget_ms=1500)
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
            assert not worker.is_alive(), "the hung worker was stopped"
    finally:
        thinker.close()


async def test_a_worker_loads_only_the_engine_and_the_bots() -> None:
    """A bot's worker imports what thinking needs and nothing else: not the table service or the catalogue (which
    pulled in every renderer, whose sprites took seconds to draw on a busy machine), not Pillow, not discord.py."""
    game = default_catalog().get("blockers")
    assert game is not None
    thinker = Thinker(budget_ms=50)
    try:
        state = game.new_game(2, game.resolve_options({}), 4)
        seat = min(game.to_act(state))
        assert await thinker.move(game, state, seat, "medium", Rng(0), True) in game.legal_moves(state, seat)
        loaded = await asyncio.get_running_loop().run_in_executor(thinker._executor(), loaded_packages)
        assert loaded == ["bots", "engine"]
    finally:
        thinker.close()
