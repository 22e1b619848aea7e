"""tables.renderer: pictures drawn in worker processes, the same bytes as in this process; a dead worker is
replaced; a renderer that is not the platform's draws in a thread; the setting's values."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Sequence
from typing import Any

import pytest

from engine.rng import Rng
from tables import renderer
from tables.catalog import default_catalog
from tests.render.png_helpers import decode

CATALOG = default_catalog()
NAMES = ["Alice", "Bob", "Carmen"]


def some_views(key: str, seats: int, count: int) -> list[Any]:
    game = CATALOG.get(key)
    assert game is not None
    state = game.new_game(seats, {}, 3)
    rng = Rng(3)
    views = [game.view(state, None)]
    while len(views) < count and game.to_act(state):
        seat = min(game.to_act(state))
        game.fast_apply(state, seat, game.sample_move(state, seat, rng))
        views.append(game.view(state, None))
    return views


@pytest.fixture
def pool() -> Any:
    made = renderer.RenderPool(1)
    yield made
    made.close()


async def test_a_worker_draws_the_same_picture(pool: renderer.RenderPool) -> None:
    for key in ("breaks", "blockers"):
        entry = CATALOG.entry(key)
        for view in some_views(key, 3, 3):
            png = await renderer.render(key, entry.render, view, NAMES, pool=pool)
            assert png == entry.render(view, NAMES)
            decode(png)
    assert pool._pool is not None  # it did go to the pool


async def test_a_dead_worker_is_replaced_and_the_picture_drawn(pool: renderer.RenderPool) -> None:
    entry = CATALOG.entry("breaks")
    view = some_views("breaks", 2, 5)[-1]
    first = await pool.render("breaks", view, NAMES)
    executor = pool._pool
    assert executor is not None
    for pid in list(executor._processes):  # our own worker
        os.kill(pid, signal.SIGKILL)
    again = await pool.render("breaks", view, NAMES)
    assert again == first == entry.render(view, NAMES)
    assert pool._pool is not executor


async def test_a_renderer_of_its_own_draws_in_a_thread(pool: renderer.RenderPool) -> None:
    seen: list[int] = []

    def own(view: Any, names: Sequence[str]) -> bytes:
        seen.append(os.getpid())
        return b"picture"

    assert await renderer.render("breaks", own, {}, NAMES, pool=pool) == b"picture"
    assert await renderer.render("no-such-game", own, {}, NAMES, pool=pool) == b"picture"
    assert seen == [os.getpid()] * 2
    assert pool._pool is None  # never started


async def test_a_failing_picture_raises_in_the_caller(pool: renderer.RenderPool) -> None:
    with pytest.raises(KeyError):
        await pool.render("breaks", {"players": []}, NAMES)


async def test_warming_starts_every_worker_with_the_renderers_loaded() -> None:
    pool = renderer.RenderPool(2)
    try:
        await pool.warm()
        assert pool._pool is not None and len(pool._pool._processes) == 2
        answers = await asyncio.gather(*(asyncio.wrap_future(pool._pool.submit(renderer.renderers_loaded))
                                         for _ in range(6)))
        assert {pid for pid, _ in answers} <= set(pool._pool._processes) and os.getpid() not in dict(answers)
        assert all(loaded for _, loaded in answers), "each worker loaded every renderer as it started"
    finally:
        pool.close()


async def test_a_closed_pool_refuses(pool: renderer.RenderPool) -> None:
    pool.close()
    with pytest.raises(RuntimeError):
        await pool.render("breaks", some_views("breaks", 2, 1)[0], NAMES)


def test_the_setting() -> None:
    assert [renderer.worker_count({}, cpus) for cpus in (1, 2, 3, 4, 16)] == [0, 1, 1, 2, 2]  # unset: by the cores
    assert renderer.worker_count({renderer.WORKERS_SETTING: "2"}, 1) == 2
    assert renderer.worker_count({renderer.WORKERS_SETTING: " 0 "}, 2) == 0
    assert renderer.worker_count({renderer.WORKERS_SETTING: "two"}, 2) == 1  # (logged: the default is used)
    assert renderer.worker_count({renderer.WORKERS_SETTING: "-1"}, 4) == 2


def test_the_shared_pool_follows_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    renderer.shutdown()
    monkeypatch.setenv(renderer.WORKERS_SETTING, "0")
    assert renderer.shared() is None
    renderer.shutdown()
    monkeypatch.setenv(renderer.WORKERS_SETTING, "2")
    try:
        pool = renderer.shared()
        assert pool is not None and pool.workers == 2 and renderer.shared() is pool
        assert pool._pool is None  # started at the first picture, not before
    finally:
        renderer.shutdown()
    monkeypatch.setenv(renderer.WORKERS_SETTING, "0")
    assert renderer.shared() is None
