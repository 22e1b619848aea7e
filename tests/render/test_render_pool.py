"""tables.renderer: pictures drawn in worker processes, the same bytes as in this process; a dead worker is
replaced; a renderer that is not the platform's draws in a thread; the setting's values."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bench.render_pool import views
from tables import renderer
from tables.catalog import default_catalog
from tests.render.png_helpers import decode, shown

CATALOG = default_catalog()
NAMES = ["Alice", "Bob", "Carmen"]


def some_views(key: str, seats: int, count: int) -> list[Any]:
    """The public views of the first ``count`` positions of a seeded random game."""
    return views(key, seats, count, 3)


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
            assert shown(png) == shown(entry.render(view, NAMES))  # (as a player gets it: png_helpers.shown)
            decode(png)
    assert pool.pids() and os.getpid() not in pool.pids()  # it did go to the pool


async def test_many_pictures_at_once_each_to_its_asker(pool: renderer.RenderPool) -> None:
    """More questions than the socket holds at once, and answers larger than it: each comes back whole, to whoever
    asked it (the socket drains in the loop while the worker draws)."""
    views = [(key, view) for key in ("breaks", "blocbybloc", "blockers") for view in some_views(key, 3, 6)]
    pngs = await asyncio.gather(*(pool.render(key, view, NAMES) for key, view in views))
    assert [shown(p) for p in pngs] == [shown(CATALOG.entry(key).render(view, NAMES)) for key, view in views]
    big = "x" * 3_000_000  # a question and an answer of megabytes
    assert await pool.ask(str.upper, big) == big.upper()


async def test_a_dead_worker_is_replaced_and_the_picture_drawn(pool: renderer.RenderPool) -> None:
    entry = CATALOG.entry("breaks")
    view = some_views("breaks", 2, 5)[-1]
    first = await pool.render("breaks", view, NAMES)
    [pid] = pool.pids()
    os.kill(pid, signal.SIGKILL)
    again = await pool.render("breaks", view, NAMES)
    assert shown(again) == shown(first) == shown(entry.render(view, NAMES))
    assert pool.pids() != [pid] and len(pool.pids()) == 1


async def test_a_worker_killed_while_drawing_fails_its_pictures_once(pool: renderer.RenderPool) -> None:
    """Questions waiting on a worker that dies fail with WorkerDied (render asks them once more of a new one)."""
    await pool.warm()
    [pid] = pool.pids()
    slow = asyncio.ensure_future(pool.ask(time.sleep, 30))
    asking = asyncio.ensure_future(pool.ask(os.getpid))
    await asyncio.sleep(0)
    os.kill(pid, signal.SIGKILL)
    for answer in (slow, asking):
        with pytest.raises(renderer.WorkerDied):
            await answer
    assert await pool.ask(os.getpid) not in (pid, os.getpid())


class Picky(Exception):
    """An exception that pickles but does not unpickle (its ``__init__`` wants two arguments, its args hold one)."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(a)


def raise_picky() -> None:
    raise Picky("a", "b")


async def test_an_answer_that_does_not_unpickle_fails_its_own_asker_only(pool: renderer.RenderPool) -> None:
    """Every answer still goes to its own asker after one that could not be read."""
    picky = asyncio.ensure_future(pool.ask(raise_picky))
    second = asyncio.ensure_future(pool.ask(str, "B"))
    third = asyncio.ensure_future(pool.ask(str, "C"))
    with pytest.raises(RuntimeError, match="did not unpickle"):
        await picky
    assert [await second, await third] == ["B", "C"]


async def test_a_cancelled_asker_leaves_the_next_answers_to_their_askers(pool: renderer.RenderPool) -> None:
    slow = asyncio.ensure_future(pool.ask(time.sleep, 0.2))
    after = asyncio.ensure_future(pool.ask(str, "after"))
    await asyncio.sleep(0)
    slow.cancel()
    assert await after == "after"
    assert await pool.ask(str, "next") == "next"


def gate(path: str) -> str:
    """In a worker: wait until the test opens the named pipe ``path`` and writes a byte (a question that holds its
    worker until the test lets it go: no bet on time)."""
    with open(path, "rb") as pipe:
        return pipe.read(1).decode()


def let_go(path: str) -> None:
    with open(path, "wb") as pipe:
        pipe.write(b"x")


def note(path: str, word: str) -> str:
    """In a worker: ``word`` written down as drawn (a question whose drawing can be counted)."""
    with open(path, "a") as log:
        log.write(word + "\n")
    return word


async def test_a_cancelled_question_is_not_drawn(pool: renderer.RenderPool, tmp_path: Path) -> None:
    """An asker cancelled while its question waits behind another in the worker: the worker skips the question
    (the CPU is not spent on a picture no one wants), the others are answered each to its asker, and the worker goes
    on."""
    fifo, drawn = tmp_path / "gate", tmp_path / "drawn"
    os.mkfifo(fifo)
    await pool.warm()
    held = asyncio.ensure_future(pool.ask(gate, str(fifo)))
    asked = {word: asyncio.ensure_future(pool.ask(note, str(drawn), word)) for word in ("a", "b", "c", "d", "e")}
    await asyncio.sleep(0)  # (every question sent)
    for word in ("b", "d", "e"):
        asked[word].cancel()
        with pytest.raises(asyncio.CancelledError):
            await asked[word]  # (its worker told to skip it)
    await asyncio.to_thread(let_go, str(fifo))
    assert await held == "x"
    assert [await asked["a"], await asked["c"]] == ["a", "c"]
    assert await pool.ask(note, str(drawn), "f") == "f"
    assert drawn.read_text().split() == ["a", "c", "f"], "the cancelled questions were drawn"
    assert not pool._slots[0].waiting


async def test_a_cancelled_picture_is_cancelled_in_its_worker(pool: renderer.RenderPool, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for pictures: a move's task cancelled while its picture waits (:func:`tables.renderer.render`) sends
    the worker a "cancel" frame for that picture's question, and the next picture is its asker's."""
    fifo = tmp_path / "gate"
    os.mkfifo(fifo)
    await pool.warm()
    view = some_views("breaks", 2, 2)[-1]
    held = asyncio.ensure_future(pool.ask(gate, str(fifo)))
    await asyncio.sleep(0)
    [worker] = pool._slots
    sent: list[bytes] = []
    send = worker._send

    def spy(data: bytes) -> None:
        sent.append(bytes(data))
        send(data)

    monkeypatch.setattr(worker, "_send", spy)
    wanted = asyncio.ensure_future(renderer.render("breaks", CATALOG.entry("breaks").render, view, NAMES, pool=pool))
    unwanted = asyncio.ensure_future(pool.render("breaks", view, NAMES))
    await asyncio.sleep(0)
    unwanted.cancel()
    with pytest.raises(asyncio.CancelledError):
        await unwanted
    cancel = renderer._HEAD.unpack(sent[-1])
    assert len(sent) == 3 and cancel[0] == 0 and cancel[1] == renderer._HEAD.unpack_from(sent[1])[1]
    await asyncio.to_thread(let_go, str(fifo))
    assert await held == "x"
    assert await wanted == CATALOG.entry("breaks").render(view, NAMES)
    assert await pool.ask(renderer.renderers_loaded) == (pool.pids()[0], True)


async def test_a_loop_that_cannot_watch_sockets_draws_in_threads(pool: renderer.RenderPool,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' proactor loop has no add_reader: no worker is started, and pictures are drawn in threads."""
    loop = asyncio.get_running_loop()

    def no_readers(*args: Any) -> None:
        raise NotImplementedError

    monkeypatch.setattr(loop, "add_reader", no_readers)
    entry = CATALOG.entry("breaks")
    view = some_views("breaks", 2, 1)[0]
    drawn = await renderer.render("breaks", entry.render, view, NAMES, pool=pool)
    assert shown(drawn) == shown(entry.render(view, NAMES))
    assert pool.unsupported and pool.pids() == []


async def test_a_renderer_of_its_own_draws_in_a_thread(pool: renderer.RenderPool) -> None:
    seen: list[int] = []

    def own(view: Any, names: Sequence[str]) -> bytes:
        seen.append(os.getpid())
        return b"picture"

    assert await renderer.render("breaks", own, {}, NAMES, pool=pool) == b"picture"
    assert await renderer.render("no-such-game", own, {}, NAMES, pool=pool) == b"picture"
    assert seen == [os.getpid()] * 2
    assert pool.pids() == []  # never started


async def test_a_failing_picture_raises_in_the_caller(pool: renderer.RenderPool) -> None:
    with pytest.raises(KeyError):
        await pool.render("breaks", {"players": []}, NAMES)
    assert await pool.ask(os.getpid) != os.getpid()  # and the worker goes on


async def test_warming_starts_every_worker_with_the_renderers_loaded() -> None:
    pool = renderer.RenderPool(2)
    try:
        await pool.warm()
        assert len(pool.pids()) == 2 and os.getpid() not in pool.pids()
        answers = await asyncio.gather(*(pool.ask(renderer.renderers_loaded) for _ in range(6)))
        assert {pid for pid, _ in answers} == set(pool.pids()), "the questions shared among the workers"
        assert all(loaded for _, loaded in answers), "each worker loaded every renderer as it started"
    finally:
        pool.close()


async def test_a_closed_pool_refuses(pool: renderer.RenderPool) -> None:
    pool.close()
    with pytest.raises(RuntimeError):
        await pool.render("breaks", some_views("breaks", 2, 1)[0], NAMES)


async def test_closing_from_another_thread_answers_what_was_asked_then_stops_the_workers() -> None:
    """The bot closes the pool from a thread (``asyncio.to_thread(renderer.shutdown)``) while its loop runs: the
    pictures already asked are drawn and answered, then the workers end, and the pool refuses new pictures."""
    pool = renderer.RenderPool(2)
    pool.STOP_WITHIN = 600.0  # (the close waits for the answers: no bet on this machine's speed)
    await pool.warm()
    pids = pool.pids()
    views = some_views("breaks", 2, 4)
    drawing = [asyncio.ensure_future(pool.render("breaks", view, NAMES)) for view in views]
    await asyncio.sleep(0)
    await asyncio.to_thread(pool.close)
    assert await asyncio.gather(*drawing) == [CATALOG.entry("breaks").render(view, NAMES) for view in views]
    for pid in pids:
        assert not alive(pid)
    with pytest.raises(RuntimeError):
        await pool.ask(os.getpid)


async def test_a_picture_longer_than_the_close_allows_is_abandoned() -> None:
    """A question still unanswered when the close's time is up gets WorkerDied, and its worker is killed."""
    pool = renderer.RenderPool(1)
    pool.STOP_WITHIN = 0.2
    await pool.warm()
    pids = pool.pids()
    waiting = asyncio.ensure_future(pool.ask(time.sleep, 30))
    await asyncio.sleep(0)
    await asyncio.to_thread(pool.close)
    with pytest.raises(renderer.WorkerDied):
        await waiting
    for pid in pids:
        assert not alive(pid)
    with pytest.raises(RuntimeError):
        await pool.ask(os.getpid)


async def test_closing_on_the_loop_answers_what_was_asked_without_blocking_it(tmp_path: Path) -> None:
    """``aclose`` on the loop: the pictures already asked are answered first while the loop goes on (a question
    held in the worker is let go by the loop itself, through a thread, while the pool closes), then the workers end
    and the pool refuses new pictures."""
    pool = renderer.RenderPool(2)
    pool.STOP_WITHIN = 600.0  # (the close waits for the answers: no bet on this machine's speed)
    await pool.warm()
    pids = pool.pids()
    fifo = tmp_path / "gate"
    os.mkfifo(fifo)
    held = asyncio.ensure_future(pool.ask(gate, str(fifo)))
    view = some_views("breaks", 2, 3)[-1]
    drawing = asyncio.ensure_future(pool.render("breaks", view, NAMES))
    await asyncio.sleep(0)
    closing = asyncio.ensure_future(pool.aclose())
    await asyncio.sleep(0)
    assert not closing.done()
    with pytest.raises(RuntimeError):
        await pool.ask(os.getpid)  # (closed at once to new questions)
    await asyncio.to_thread(let_go, str(fifo))  # (the loop runs while the pool closes)
    assert await held == "x"
    assert await drawing == CATALOG.entry("breaks").render(view, NAMES)
    await closing
    for pid in pids:
        assert not alive(pid)


async def test_closing_on_the_loop_abandons_a_picture_longer_than_it_allows(tmp_path: Path) -> None:
    pool = renderer.RenderPool(1)
    pool.STOP_WITHIN = 0.2
    await pool.warm()
    pids = pool.pids()
    fifo = tmp_path / "gate"
    os.mkfifo(fifo)
    held = asyncio.ensure_future(pool.ask(gate, str(fifo)))  # (never let go)
    await asyncio.sleep(0)
    await pool.aclose()
    with pytest.raises(renderer.WorkerDied):
        await held
    for pid in pids:
        assert not alive(pid)


async def test_the_shared_pool_closes_on_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    renderer.shutdown()
    monkeypatch.setenv(renderer.WORKERS_SETTING, "1")
    pool = renderer.shared()
    assert pool is not None
    await pool.warm()
    [pid] = pool.pids()
    await renderer.ashutdown()
    assert renderer._shared is None and not alive(pid)
    await renderer.ashutdown()  # (nothing to close: nothing done)


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie, ended but not yet reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


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
        assert pool.pids() == []  # started at the first picture, not before
    finally:
        renderer.shutdown()
    monkeypatch.setenv(renderer.WORKERS_SETTING, "0")
    assert renderer.shared() is None
