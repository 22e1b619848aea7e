"""Board pictures drawn in worker processes, so that boards draw on every core.

A board is mostly Python (a few hundred small pastes and their lookups) around Pillow's and deflate's C code, so
two renders in two threads mostly take turns at the GIL: measured with ``python -m bench.render_speed --threads 2``,
two threads draw no faster than one, two processes close to twice as fast (figures in bench/README.md). With
``BLOCKHOUSE_RENDER_WORKERS`` = N (N ≥ 1; unset, one on a machine of two or three cores, see
:func:`default_workers`) the presenter sends each picture to a pool of N spawned worker processes: what goes there
is the game's key, the view (plain JSON data) and the names; what comes back is the PNG. The bot starts the pool as
it starts (:meth:`RenderPool.warm`: each worker imports the renderers; a worker loads a game's fonts and empty
tables on its first board of that game), starts it again if a worker dies (the picture is asked once more), and
shuts it down by :func:`shutdown` when it stops. 0 (the default on one core): pictures are drawn in a thread of
this process (``asyncio.to_thread``).

Only the platform's own renderers (those of :func:`tables.catalog.default_catalog`, which a worker finds by the
game's key) go to the pool; a catalogue with a renderer of its own (a test's) draws in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import cache
from typing import Any

from tables.catalog import Catalog, LazyRenderer, default_catalog
from tables.workers import cores, count_setting, map_large_blocks

WORKERS_SETTING = "BLOCKHOUSE_RENDER_WORKERS"
log = logging.getLogger(__name__)


def default_workers(cpus: int) -> int:
    """The pool's size when the setting is unset: none on one core (a worker would only take turns with the bot's
    own process), else one, two from four cores up.

    Measured with ``bench.load`` on 2 cores (Breaks, 200 tables, a quiet machine): one worker drew the pictures at
    88.9 moves a second, p95 from a move to its board 2.5 s, where threads managed 39.9 moves a second and 6.0 s.
    Threads lose more than the GIL's share: the bot's process spent 26.5 ms of CPU a move with the pictures in its
    threads, 7.5 ms (+ 9.9 ms in the worker) without. A worker holds 75–100 MB. A second worker lets a move's board
    and its private views draw at once where there are cores for both."""
    return 0 if cpus < 2 else 1 if cpus < 4 else 2


def worker_count(env: Mapping[str, str] | None = None, cpus: int | None = None) -> int:
    """How many processes draw pictures: ``BLOCKHOUSE_RENDER_WORKERS``, a whole number, 0 (threads of this process)
    or more; unset, :func:`default_workers` for this machine's cores."""
    return count_setting(WORKERS_SETTING, default_workers(cores() if cpus is None else cpus), 0, env)


@cache
def _catalog() -> Catalog:
    """The platform's games, once per process (in a worker: the renderers it draws with)."""
    return default_catalog()


def _lazy_renderers() -> list[LazyRenderer[Any]]:
    """The platform's renderers that import their module on first use."""
    found = (_catalog().entry(game.key).render for game in _catalog().all())
    return [render for render in found if isinstance(render, LazyRenderer)]


def load_renderers() -> None:
    """In a worker, as it starts (the pool's initializer): import every renderer of the platform (their modules and
    Pillow's), so that the first picture of a game waits for its own sprites at most; its malloc set as the bot's
    (:func:`tables.workers.map_large_blocks`: the PNGs it makes)."""
    map_large_blocks()
    for render in _lazy_renderers():
        render.load()


def renderers_loaded() -> tuple[int, bool]:
    """In a worker: its process id, and whether every renderer of the platform is loaded there."""
    return os.getpid(), all(render.loaded for render in _lazy_renderers())


def draw(key: str, view: Any, names: Sequence[str]) -> bytes:
    """In a worker: the picture of ``view`` by the platform's renderer of game ``key``."""
    return _catalog().entry(key).render(view, names)


def _platform_renderer(key: str, render: Callable[..., bytes]) -> bool:
    """Whether ``render`` is the platform's renderer of ``key`` (which a worker can find by the key alone)."""
    if key not in _catalog():
        return False
    load = getattr(render, "_load", None)
    return load is not None and load is getattr(_catalog().entry(key).render, "_load", None)


class RenderPool:
    """``workers`` spawned processes that draw pictures, started at the first one and again after a crash."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError("the render pool is shut down")
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=load_renderers)
            return self._pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Forget ``broken`` (a worker died) so that the next picture starts a new pool; a pool another picture
        already replaced is left alone."""
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    async def render(self, key: str, view: Any, names: Sequence[str]) -> bytes:
        """The PNG of ``view``, drawn by a worker; a pool whose worker died is started again and asked once more
        (a second failure is raised: the presenter posts the board without its picture)."""
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return await asyncio.wrap_future(pool.submit(draw, key, view, list(names)))
            except BrokenProcessPool:
                self._replace(pool)
                if attempt == 2:
                    raise
                log.warning("a render worker died: starting the render pool again")
        raise AssertionError("unreachable")

    async def warm(self) -> None:
        """Start every worker now, each loading the renderers as it starts (the bot does this at start, in the
        background, so that the first boards are not kept waiting for a process to start). Each question submitted
        while no worker is idle starts one more, up to :attr:`workers`."""
        pool = self._executor()
        await asyncio.gather(*(asyncio.wrap_future(pool.submit(os.getpid)) for _ in range(self.workers)))

    def close(self) -> None:
        """Stop the workers (a picture being drawn is abandoned: its request gets an error)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


_shared: RenderPool | None = None
_threads = False  # the setting, read once, said threads (not read again for every picture)
_shared_lock = threading.Lock()


async def warm() -> None:
    """Start the shared pool's workers, if pictures are drawn in processes (a failure is logged: the first picture
    starts the pool again)."""
    pool = shared()
    if pool is None:
        return
    try:
        await pool.warm()
    except Exception:
        log.warning("the render workers did not start; the first picture will try again", exc_info=True)


def shared() -> RenderPool | None:
    """The process's render pool, made at the first call from ``BLOCKHOUSE_RENDER_WORKERS`` (None for threads)."""
    global _shared, _threads
    with _shared_lock:
        if not _threads and (_shared is None or _shared._closed):
            count = worker_count()
            _shared = RenderPool(count) if count else None
            _threads = not count
        return _shared


def shutdown() -> None:
    """Stop the shared pool's workers (the bot is stopping); a later picture reads the setting again and would start
    a new pool."""
    global _shared, _threads
    with _shared_lock:
        pool, _shared, _threads = _shared, None, False
    if pool is not None:
        pool.close()


async def render(key: str, render: Callable[[Any, Sequence[str]], bytes], view: Any, names: Sequence[str],
                 pool: RenderPool | None = None) -> bytes:
    """The PNG of ``view`` by ``render``, the renderer of game ``key``: in ``pool`` (by default the shared one) when
    there is one and ``render`` is the platform's own, else in a thread of this process."""
    pool = pool if pool is not None else shared()
    if pool is not None and _platform_renderer(key, render):
        return await pool.render(key, view, names)
    return await asyncio.to_thread(render, view, names)
