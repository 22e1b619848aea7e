"""Board pictures drawn in worker processes, so that boards draw on every core.

A board is mostly Python (a few hundred small pastes and their lookups) around Pillow's and deflate's C code, so
two renders in two threads mostly take turns at the GIL: measured with ``python -m bench.render_speed --threads 2``,
two threads draw no faster than one, two processes close to twice as fast (figures in bench/README.md). With
``BLOCKHOUSE_RENDER_WORKERS`` = N (N ≥ 1; unset, one on a machine of two or three cores, see
:func:`default_workers`) the presenter sends each picture to a pool of N spawned worker processes: what goes there
is the game's key, the view (plain JSON data) and the names, pickled over a socket that the event loop reads and
writes itself; what comes back is the PNG. The bot starts the pool as it starts (:meth:`RenderPool.warm`: each worker
imports the renderers; a worker loads a game's fonts and empty tables on its first board of that game), starts a
worker again in place of one that died (its pictures are asked once more), and shuts it down by :func:`shutdown`
when it stops. 0 (the default on one core): pictures are drawn in a thread of
this process (``asyncio.to_thread``).

Only the platform's own renderers (those of :func:`tables.catalog.default_catalog`, which a worker finds by the
game's key) go to the pool; a catalogue with a renderer of its own (a test's) draws in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
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


class WorkerDied(RuntimeError):
    """A render worker ended with pictures asked of it (killed, or it crashed): they are asked once more."""


# Each frame, either way, is a head (the length of its pickled bytes, and the number of the question it is about)
# and those bytes. From the bot: a question, ``(function, args)`` pickled; or, with no bytes (length 0), "cancel
# question n": its asker no longer wants it. From a worker: the answer to question n, ``(True, result)`` or
# ``(False, exception)``.
_HEAD = struct.Struct("!IQ")
_CHUNK = 1 << 18  # bytes read from a socket at most at once


def _frames(buffer: bytearray) -> Iterator[tuple[int, int, int]]:
    """The whole frames at the start of ``buffer``, in order: (the question's number, where its bytes start, where they
    end); the caller then deletes ``buffer[:end]`` of the last one (what is left is a frame not yet whole)."""
    at = 0
    while len(buffer) - at >= _HEAD.size:
        size, number = _HEAD.unpack_from(buffer, at)
        if len(buffer) - at - _HEAD.size < size:
            return
        start, at = at + _HEAD.size, at + _HEAD.size + size
        yield number, start, at


class _Questions:
    """A worker's end of the socket: the questions asked and not yet answered, in order, less those cancelled."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.waiting: dict[int, bytes] = {}  # question number -> its pickled (function, args), oldest first
        self._in = bytearray()
        self._chunk = memoryview(bytearray(_CHUNK))  # (read into: no new buffer of its size for each read)
        self.closed = False  # the bot closed its end

    def _take(self, flags: int = 0) -> None:
        """Read what the socket holds (``flags``: ``MSG_DONTWAIT``, without waiting) and take the frames come whole."""
        got = self.sock.recv_into(self._chunk, 0, flags)
        if not got:
            self.closed = True
            return
        self._in += self._chunk[:got]
        end = 0
        for number, start, end in _frames(self._in):
            if end > start:
                self.waiting[number] = bytes(memoryview(self._in)[start:end])
            else:  # cancelled (not there if it was answered already)
                self.waiting.pop(number, None)
        del self._in[:end]

    def next(self) -> tuple[int, bytes] | None:
        """The oldest question still wanted (None: the bot closed its end). What has already come is read first,
        without waiting, so that a question cancelled meanwhile is not answered; with nothing waiting, this waits."""
        while not self.closed:
            try:  # (everything already on the socket)
                self._take(socket.MSG_DONTWAIT)
                continue
            except BlockingIOError:
                pass
            except OSError:
                self.closed = True
                break
            if self.waiting:
                number = next(iter(self.waiting))
                return number, self.waiting.pop(number)
            try:
                self._take()
            except OSError:
                self.closed = True
        return None


def _serve(sock: socket.socket) -> None:
    """A worker's life: load the renderers, then answer each question as it comes, in order, until the bot's end of
    the socket closes; a question cancelled before the worker comes to it is skipped (it is not answered)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the bot stops its workers itself
    load_renderers()
    questions = _Questions(sock)
    while (question := questions.next()) is not None:
        number, body = question
        try:
            function, args = pickle.loads(body)
            answer: tuple[bool, Any] = (True, function(*args))
        except Exception as err:  # the caller's to raise
            answer = (False, err)
        try:
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # (an exception that does not pickle)
            data = pickle.dumps((False, RuntimeError(f"{type(err).__name__}: {err}")), pickle.HIGHEST_PROTOCOL)
        try:
            sock.sendall(_HEAD.pack(len(data), number) + data)
        except OSError:
            return  # the bot is gone


class _Worker:
    """One worker process and the bot's end of its socket, read and written from the event loop without a thread:
    questions go out in order (what the socket does not take at once waits for it to drain), each with its number,
    and each answer comes back with the number of its question. A question whose asker is cancelled (its move's task,
    the bot closing) is cancelled in the worker too (a frame "cancel n"): the worker skips it if it has not begun it,
    and an answer that comes for it all the same is dropped unread."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        ours, theirs = socket.socketpair()
        ours.setblocking(False)
        self.sock = ours
        self.fd = ours.fileno()
        self.waiting: dict[int, asyncio.Future[Any]] = {}  # by question number, oldest first
        self._numbers = itertools.count()
        self._out = bytearray()
        self._in = bytearray()
        self._chunk = memoryview(bytearray(_CHUNK))
        self.gone = False
        self.idle = threading.Event()  # set while no question waits (a closing pool waits for it from a thread)
        self.idle.set()
        try:  # (before the process starts: a loop that cannot watch a socket, Windows' proactor, starts none)
            loop.add_reader(self.fd, self._readable)
            self.process = multiprocessing.get_context("spawn").Process(
                target=_serve, args=(theirs,), name="blockhouse render worker", daemon=True)
            self.process.start()
        except BaseException:
            with contextlib.suppress(Exception):
                loop.remove_reader(self.fd)
            ours.close()
            raise
        finally:
            theirs.close()

    def ask(self, function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[int, asyncio.Future[Any]]:
        """Send a question (in the loop's thread): its number and its answer's future."""
        body = pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL)
        number = next(self._numbers)
        answer: asyncio.Future[Any] = self.loop.create_future()
        self.waiting[number] = answer
        self.idle.clear()
        self._send(_HEAD.pack(len(body), number) + body)
        return number, answer

    async def answer(self, function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """The answer to a question; the asker cancelled while it waits, the worker is told to skip it."""
        number, answer = self.ask(function, args)
        try:
            return await answer
        except asyncio.CancelledError:
            self.cancel(number)
            raise

    def cancel(self, number: int) -> None:
        """Question ``number`` is no longer wanted: forgotten here, and the worker told to skip it (one frame, only
        when a question is cancelled: nothing is added to a picture that is answered)."""
        answer = self.waiting.pop(number, None)
        if answer is None:
            return
        answer.cancel()
        if not self.waiting:
            self.idle.set()
        if not self.gone:
            self._send(_HEAD.pack(0, number))

    def _send(self, data: bytes) -> None:
        if self._out:  # (still draining: after what waits)
            self._out += data
            return
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._end(WorkerDied("the render worker's socket is closed"))
            return
        if sent < len(data):
            self._out += data[sent:]
            self.loop.add_writer(self.fd, self._writable)

    def _writable(self) -> None:
        try:
            sent = self.sock.send(self._out)
        except BlockingIOError:
            return
        except OSError:
            self._end(WorkerDied("the render worker's socket is closed"))
            return
        del self._out[:sent]
        if not self._out:
            self.loop.remove_writer(self.fd)

    def _readable(self) -> None:
        try:
            got = self.sock.recv_into(self._chunk)
        except BlockingIOError:
            return
        except OSError:
            got = 0
        if not got:
            self._end(WorkerDied("a render worker died"))
            return
        self._in += self._chunk[:got]
        end = 0
        for number, start, end in _frames(self._in):
            # (taken first: an answer that does not unpickle is still this question's; none, its asker cancelled it)
            answer = self.waiting.pop(number, None)
            if answer is None or answer.done():
                continue  # (not even unpickled)
            try:
                ok, value = pickle.loads(bytes(memoryview(self._in)[start:end]))
            except Exception as err:
                ok, value = False, RuntimeError(f"a render worker's answer did not unpickle: {err!r}")
            if ok:
                answer.set_result(value)
            else:
                answer.set_exception(value)
        del self._in[:end]
        if not self.waiting:
            self.idle.set()

    def _end(self, error: BaseException) -> None:
        """In the loop's thread: let go of the socket and fail every question still waiting."""
        if self.gone:
            return
        self.gone = True
        if not self.loop.is_closed():
            self.loop.remove_reader(self.fd)
            self.loop.remove_writer(self.fd)
        self.sock.close()
        waiting, self.waiting = self.waiting, {}
        for answer in waiting.values():
            if not answer.done() and not self.loop.is_closed():  # (a closed loop's futures wait for no one)
                answer.set_exception(error)
        self.idle.set()

    def stop(self) -> None:
        """From any thread: the worker is told to stop (its socket shut: it ends after the picture it draws); the
        socket is let go of at once in the loop's thread or when the loop is not running, else by the loop next."""
        closed = WorkerDied("the render pool is shut down")
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        if self.loop.is_closed() or not self.loop.is_running() or _in_thread_of(self.loop):
            self._end(closed)
        else:
            try:
                self.loop.call_soon_threadsafe(self._end, closed)
            except RuntimeError:  # (closed meanwhile)
                self._end(closed)

    def join(self, timeout: float) -> None:
        """Wait for the process to end (``timeout`` seconds, then kill it)."""
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()


async def _ended(process: multiprocessing.process.BaseProcess, timeout: float) -> None:
    """Wait, without blocking the loop, for ``process`` to end (its sentinel readable), ``timeout`` seconds, then kill
    it; it is reaped either way."""
    loop = asyncio.get_running_loop()
    ended = loop.create_future()
    sentinel = process.sentinel

    def readable() -> None:
        if not ended.done():
            ended.set_result(None)

    loop.add_reader(sentinel, readable)
    try:
        await asyncio.wait_for(ended, timeout)
    except TimeoutError:
        process.kill()
    finally:
        loop.remove_reader(sentinel)
    if process.is_alive():  # (killed just now: it ends at once; reaped in a thread, not on the loop)
        await asyncio.to_thread(process.join)


def _in_thread_of(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class RenderPool:
    """``workers`` spawned processes that draw pictures, started at the first one, and one again in place of a worker
    that died. The bot's end of each worker is a socket read and written by the event loop itself: no thread of the
    bot's process carries a picture (``concurrent.futures``' pool took a manager thread and a feeder thread, ~1 ms of
    the bot's CPU a move in Breaks, its GIL switches included; bench/README.md)."""

    STOP_WITHIN = 1.0  # seconds a closing pool gives the pictures asked before it abandons them and kills the workers

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._slots: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        self.unsupported = False  # the event loop cannot watch a worker's socket: pictures are drawn in threads

    def _live(self) -> list[_Worker]:
        """The workers, in this loop's thread: started up to :attr:`workers`, a dead one replaced; workers made for
        another event loop (a test's, now closed) are stopped and new ones made."""
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._closed:
                raise RuntimeError("the render pool is shut down")
            old = [w for w in self._slots if w.gone or w.loop is not loop]
            self._slots = [w for w in self._slots if w not in old]
            while len(self._slots) < self.workers:
                self._slots.append(_Worker(loop))
            live = list(self._slots)
        for worker in old:
            try:
                worker.stop()
            finally:
                if worker.process.is_alive():
                    worker.process.kill()
                worker.process.join(0)  # (reaped now if it ended; else by multiprocessing later)
        return live

    async def ask(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the least busy worker (a module-level function: it goes by its name)."""
        worker = min(self._live(), key=lambda w: len(w.waiting))
        return await worker.answer(function, args)

    async def render(self, key: str, view: Any, names: Sequence[str]) -> bytes:
        """The PNG of ``view``, drawn by a worker; a worker that died is replaced and the picture asked once more
        (a second failure is raised: the presenter posts the board without its picture)."""
        for attempt in (1, 2):
            try:
                return await self.ask(draw, key, view, list(names))  # type: ignore[no-any-return]
            except WorkerDied:
                if self._closed or attempt == 2:
                    raise
                log.warning("a render worker died: starting another")
        raise AssertionError("unreachable")

    async def warm(self) -> None:
        """Start every worker now and wait until each has loaded the renderers (the bot does this at start, in the
        background, so that the first boards are not kept waiting for a process to start)."""
        await asyncio.gather(*(worker.answer(os.getpid, ()) for worker in self._live()))

    def pids(self) -> list[int]:
        """The workers' process ids (those started)."""
        with self._lock:
            return [w.process.pid for w in self._slots if w.process.pid is not None]

    def _close(self) -> list[_Worker]:
        with self._lock:
            self._closed = True
            slots, self._slots = self._slots, []
        return slots

    async def aclose(self) -> None:
        """Stop the workers, on the event loop without blocking it (code on the loop; :meth:`close` is for other
        threads): the pictures already asked are drawn and answered first, for up to :attr:`STOP_WITHIN` seconds in
        all; a picture still waiting then is abandoned (its asker gets :class:`WorkerDied`), and a worker that has not
        ended by then is killed."""
        loop = asyncio.get_running_loop()
        slots = self._close()
        deadline = loop.time() + self.STOP_WITHIN
        try:
            for worker in slots:
                left = max(0.0, deadline - loop.time())
                if worker.loop is loop:
                    if worker.waiting and left:
                        await asyncio.wait(list(worker.waiting.values()), timeout=left)
                elif worker.loop.is_running():  # (another loop's, running in another thread)
                    await asyncio.to_thread(worker.idle.wait, left)
                worker.stop()
            await asyncio.gather(*(_ended(w.process, max(0.1, deadline - loop.time())) for w in slots))
        finally:  # (cancelled meanwhile: stopped and killed at once)
            for worker in slots:
                worker.stop()
                if worker.process.is_alive():
                    worker.process.kill()

    def close(self) -> None:
        """Stop the workers, from any thread. Called from another thread than the running loop's (the bot, as it
        stops), the pictures already asked are drawn and answered first, for up to :attr:`STOP_WITHIN` seconds in all;
        a picture still waiting then is abandoned (its asker gets :class:`WorkerDied`), and a worker that has not
        ended is killed. On the loop's own thread this waits for no picture but still for the workers to end (up to
        :attr:`STOP_WITHIN`, the picture each draws): code on the loop awaits :meth:`aclose` instead."""
        slots = self._close()
        deadline = time.monotonic() + self.STOP_WITHIN
        for worker in slots:
            if worker.loop.is_running() and not _in_thread_of(worker.loop):
                worker.idle.wait(max(0.0, deadline - time.monotonic()))
            worker.stop()
        for worker in slots:
            worker.join(max(0.1, deadline - time.monotonic()))


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


def _forget_shared() -> RenderPool | None:
    global _shared, _threads
    with _shared_lock:
        pool, _shared, _threads = _shared, None, False
    return pool


def shutdown() -> None:
    """Stop the shared pool's workers (the bot is stopping), from a thread other than the event loop's (see
    :func:`ashutdown`); a later picture reads the setting again and would start a new pool."""
    pool = _forget_shared()
    if pool is not None:
        pool.close()


async def ashutdown() -> None:
    """:func:`shutdown` on the event loop, without blocking it (:meth:`RenderPool.aclose`)."""
    pool = _forget_shared()
    if pool is not None:
        await pool.aclose()


async def render(key: str, render: Callable[[Any, Sequence[str]], bytes], view: Any, names: Sequence[str],
                 pool: RenderPool | None = None) -> bytes:
    """The PNG of ``view`` by ``render``, the renderer of game ``key``: in ``pool`` (by default the shared one) when
    there is one and ``render`` is the platform's own, else in a thread of this process."""
    pool = pool if pool is not None else shared()
    if pool is not None and not pool.unsupported and _platform_renderer(key, render):
        try:
            return await pool.render(key, view, names)
        except NotImplementedError:  # an event loop that cannot watch a socket (Windows' proactor)
            pool.unsupported = True
            log.warning("this event loop cannot watch the render workers' sockets: pictures are drawn in threads")
    return await asyncio.to_thread(render, view, names)
