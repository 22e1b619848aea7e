"""Shared fixtures: a real SQLite file per test and a real bot under simcord."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import inspect
import os
import pickle
import shutil
import threading
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from simcord.backend import errors as simcord_errors
from simcord.backend.ops.commands import CommandsMixin
from simcord.env import Env

import tables.bots
from cogs.client import Blockhouse
from render.common import recording_on
from storage import Database
from storage.postgres import is_url
from tables.bots import Thinker
from tables.catalog import LazyRenderer
from tests.pg import HOW_TO_INSTALL, PgServer, server_binaries
from tests.support import OPEN_BOTS, make_bot, scaled

# Pictures are drawn in threads in the tests (each test's bot would otherwise start worker processes, and the memo
# below reuses boards drawn in this process); tests/render/test_render_pool.py and
# tests/cogs/test_render_workers_live.py draw in worker processes.
os.environ.setdefault("BLOCKHOUSE_RENDER_WORKERS", "0")

SETTLE_S = 5.0  # simcord's own settle limit, for a quiet development machine


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's throwaway PostgreSQL server (tests/pg.py), started when a test first asks for it; skips that
    test, saying how to install them, where the server's binaries are missing."""
    bin_dir = server_binaries()
    if bin_dir is None:
        pytest.skip(HOW_TO_INSTALL)
    server = PgServer(bin_dir)
    try:
        server.start()
        server.make_template()
        yield server
    finally:
        server.stop()


TEST_DB = os.environ.get("BLOCKHOUSE_TEST_DB", "").strip() or "both"
"""Where the tests' databases are (issue 26): ``both`` (the default) runs every service and Discord test
(:data:`ON_BOTH`) with a database twice, ``[sqlite]`` and ``[postgresql]``, the rest on SQLite; ``sqlite`` runs the
whole suite on SQLite files; ``postgresql`` puts the whole suite's databases on the server. tests/storage runs on both
backends in every case (its own parameters). The PostgreSQL variants skip, saying how to install it, where its
server is missing."""
if TEST_DB not in ("both", "sqlite", "postgresql"):
    raise pytest.UsageError(f"BLOCKHOUSE_TEST_DB must be both, sqlite or postgresql, not {TEST_DB!r}")
ON_POSTGRESQL = TEST_DB == "postgresql"  # the whole suite's databases on the server
ON_BOTH = ("tests/tables/", "tests/cogs/")  # under TEST_DB=both: each test on each backend


# Tests that stay on SQLite under BLOCKHOUSE_TEST_DB=postgresql, and why (node id, or its start)
HOPS = "it counts the hops to aiosqlite's thread (bench.dbcalls.on_hops): SQLite's measure of a move's round trips"
FILE = "it edits or reads the SQLite file itself with the sqlite3 module, behind the bot's back"
SQLITE_ONLY = {
    "tests/tables/test_round_trips.py::": HOPS,
    "tests/tables/test_dm_arrivals.py::test_only_a_change_in_whether_dms_arrive_is_written": HOPS,
    "tests/cogs/test_startup.py::test_requests_are_answered_while_the_catch_up_runs": FILE,
    "tests/cogs/test_startup.py::test_a_stop_during_the_catch_up_is_clean_and_the_next_start_posts_the_move": FILE,
    "tests/cogs/test_startup.py::test_a_stop_during_a_request_lets_it_finish": FILE,
    "tests/cogs/test_startup.py::test_a_stop_waits_for_a_request_whose_acknowledgement_is_under_way": FILE,
    "tests/cogs/test_startup.py::test_a_click_a_command_and_an_autocomplete_at_on_ready_do_not_wait_for_the_catch_up":
        FILE,
}


def _relative(path: Path) -> str:
    return path.relative_to(Path(__file__).parent.parent).as_posix()


WITH_DATABASE = {"db_path", "db_file", "tmp_path"}
"""A test whose fixtures reach one of these may open a database (the bot's file, the service tests' file, or one of
its own in its temporary folder); the others (menus, words, layouts) run once."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Under ``BLOCKHOUSE_TEST_DB=both`` (the default), each test of :data:`ON_BOTH` that may open a database
    (:data:`WITH_DATABASE`) runs on SQLite and on PostgreSQL (a parameter ``backend``, read by
    :func:`_databases_on_postgresql`)."""
    if (TEST_DB == "both" and _relative(metafunc.definition.path).startswith(ON_BOTH)
            and WITH_DATABASE & set(metafunc.fixturenames)):
        metafunc.fixturenames.append("backend")
        metafunc.parametrize("backend", ["sqlite", "postgresql"])


def _on_postgresql(node: pytest.Item | pytest.FixtureRequest) -> bool:
    """Whether this test's databases are on the PostgreSQL server (not counting tests/storage's own parameters)."""
    spec = getattr(node, "callspec", None)
    return ON_POSTGRESQL or (spec is not None and spec.params.get("backend") == "postgresql")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On PostgreSQL, the tests of SQLite itself (:data:`SQLITE_ONLY`) are skipped, saying why."""
    for item in items:
        if not _on_postgresql(item):
            continue
        why = next((why for start, why in SQLITE_ONLY.items() if item.nodeid.startswith(start)), None)
        if why is not None:
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {why}"))


@pytest.fixture(autouse=True)
def _databases_on_postgresql(request: pytest.FixtureRequest) -> Iterator[None]:
    """On PostgreSQL (:data:`TEST_DB`), every database a test opens by an SQLite path (its fixtures', a bot's,
    a restart's) is a PostgreSQL database of the session's server instead: one per path, copied from the migrated
    template when first opened, the same one when opened again, dropped after the test. tests/storage, which runs on
    both backends anyway, is left as it is. (Issue 26: the service and Discord tests on PostgreSQL.)"""
    if not _on_postgresql(request.node) or "tests/storage/" in str(request.node.path).replace(os.sep, "/"):
        yield
        return
    server: PgServer = request.getfixturevalue("pg_server")
    made: dict[str, str] = {}
    real = Database.open.__func__  # type: ignore[attr-defined]

    async def open_on_server(cls: type[Database], path: str | Path) -> Database:
        where = str(path)
        if where == ":memory:" or is_url(where):
            return await real(cls, where)  # type: ignore[no-any-return]
        if where not in made:
            made[where] = server.create(migrated=True)
        return await real(cls, made[where])  # type: ignore[no-any-return]

    patch = pytest.MonkeyPatch()  # (its own: a test's monkeypatch.undo() must not put the files back)
    patch.setattr(Database, "open", classmethod(open_on_server))
    try:
        yield
    finally:
        patch.undo()
        for url in made.values():
            server.drop(url)


@pytest.fixture(scope="session")
def _migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file with every migration applied, made once per session (tests/storage checks the migrations
    themselves)."""
    path = tmp_path_factory.mktemp("template") / "migrated.db"

    async def migrate() -> None:
        await (await Database.open(path)).close()

    # (in a thread of its own: asyncio.run would clear the event loop pytest-asyncio set for the current test)
    thread = threading.Thread(target=asyncio.run, args=(migrate(),))
    thread.start()
    thread.join()
    assert path.exists() and not Path(f"{path}-wal").exists(), "closed and checkpointed"
    return path


@pytest.fixture
def db_path(tmp_path: Path, _migrated_database: Path) -> Path:
    """A test's own database file, a copy of the migrated one: the bot opens it as at any later start (migrating a
    new file per test cost ~25 ms of CPU and ~60 ms of disk syncs)."""
    path = tmp_path / "blockhouse.db"
    shutil.copyfile(_migrated_database, path)
    return path


@pytest.fixture
def simcord_bot(db_path: Path) -> Blockhouse:
    return make_bot(db_path)


@pytest_asyncio.fixture(autouse=True)
async def _close_databases(_databases_on_postgresql: None) -> AsyncIterator[None]:
    """simcord detaches bots without closing them: close their databases before the event loop ends (and before the
    PostgreSQL databases they are on, if any, are dropped)."""
    yield
    while OPEN_BOTS:
        bot = OPEN_BOTS.pop()
        if bot.db is not None:
            await bot.db.close()


@pytest.fixture(autouse=True)
def _collector_as_it_was() -> Iterator[None]:
    """A test that runs a bench's or the bot's entry point (``cogs.client.tune_process``) leaves the garbage collector
    as it found it: the other tests run with Python's own thresholds."""
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)


@pytest.fixture(scope="session", autouse=True)
def _settle_limit_scaled_to_the_machine() -> Iterator[None]:
    """simcord's settle limit is a hang guard on the wall clock (5 s by default): a bot whose worker or renders run
    slowly on a busy machine failed "bot did not settle (timeout=5s)". Every environment made in a test (the
    ``simcord_env`` fixture's, and ``simcord.run``'s of a restart) gets the limit scaled by how slow this machine
    runs at that moment; a test may still pass its own ``settle_timeout``."""
    original = Env.__init__
    assert "settle_timeout" in inspect.signature(original).parameters, "simcord's Env takes settle_timeout"

    def scaled_init(self: Env, bot: Any, **options: Any) -> None:
        options.setdefault("settle_timeout", scaled(SETTLE_S))
        original(self, bot, **options)

    Env.__init__ = scaled_init  # type: ignore[method-assign]
    try:
        yield
    finally:
        Env.__init__ = original  # type: ignore[method-assign]


@pytest.fixture(scope="session", autouse=True)
def _followups_only_after_an_answer() -> Iterator[None]:
    """Discord makes an interaction's webhook (its followups, its original message) valid only once the interaction
    has been answered or deferred: before that, each call is refused "Unknown Webhook" (10015), and the member sees
    "The application did not respond". simcord accepts those calls within the first 3 seconds; here it refuses them
    as Discord does, so that a command that sends a followup without deferring first fails its test."""
    original = CommandsMixin.interaction_by_token

    def answered_first(self: Any, token: str) -> Any:
        record = original(self, token)
        if not record.responded:
            raise simcord_errors.unknown_webhook()
        return record

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CommandsMixin, "interaction_by_token", answered_first)
        yield


RENDER_MEMO_BYTES = 96 * 2**20  # the PNGs the memo below keeps, at most


@pytest.fixture(scope="session", autouse=True)
def _each_board_drawn_once() -> Iterator[None]:
    """The catalogue's renderers are pure (tests/render check it: the same view and names give the same bytes), and
    the tests through Discord and the table service draw the same boards again and again (every test's game is
    dealt from the same seeds): about 40% of their renders repeat one already made. Through the catalogue, each
    distinct board is drawn once per session and its bytes reused, the same bytes the renderer gives. Tests of a
    renderer itself call it directly and always draw."""
    memo: dict[bytes, bytes] = {}
    kept = [0]
    lock = threading.Lock()  # renders run in threads (asyncio.to_thread)
    drawing = LazyRenderer.__call__

    def remembered(self: LazyRenderer[Any], view: Mapping[str, Any], names: Sequence[str]) -> bytes:
        if recording_on():  # a test reading the texts drawn (render.common.recording) sees the board drawn
            return drawing(self, view, names)
        key = hashlib.blake2b(pickle.dumps((self._load.__qualname__, view, list(names)))).digest()
        with lock:
            png = memo.get(key)
        if png is None:
            png = drawing(self, view, names)
            with lock:
                memo[key] = png
                kept[0] += len(png)
                while kept[0] > RENDER_MEMO_BYTES:  # the oldest go first
                    kept[0] -= len(memo.pop(next(iter(memo))))
        return png

    LazyRenderer.__call__ = remembered  # type: ignore[method-assign]
    try:
        yield
    finally:
        LazyRenderer.__call__ = drawing  # type: ignore[method-assign]


@pytest.fixture(scope="session")
def _shared_bot_worker() -> Iterator[list[Any]]:
    """The one bots' worker process the session's table services share (see ``_one_bot_worker``), shut down and
    reaped at the end, so its CPU is counted with the suite's."""
    shared: list[Any] = []
    yield shared
    for pool in shared:
        pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(autouse=True)
def _one_bot_worker(request: pytest.FixtureRequest, _shared_bot_worker: list[Any],
                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table service starts its own bots' worker processes on its first medium or hard bot, and some 35 tests
    each started one (a spawn imports the engine and the bots: ~0.3 CPU-s apiece). Here they share one process per
    session, whichever of its workers a service asks (two bots thinking at once queue for it); a test that kills
    it gets a new one, as the bot would. Tests of the workers' own life (``@pytest.mark.own_bot_worker``) start and
    stop their own."""
    if request.node.get_closest_marker("own_bot_worker"):
        return
    shared = _shared_bot_worker

    def executor(self: Thinker, slot: int = 0) -> Any:
        pool = self._pools[slot]
        if pool is None or pool._broken or pool._shutdown_thread:  # (another slot's bot replaced it)
            usable = [p for p in shared if not p._broken and not p._shutdown_thread]
            if not usable:
                shared.append(tables.bots.ProcessPoolExecutor(
                    max_workers=1, mp_context=tables.bots.multiprocessing.get_context("spawn")))
                usable = shared[-1:]
            self._pools[slot] = usable[0]
        return self._pools[slot]

    def close(self: Thinker) -> None:
        self._pools = [None] * self.workers  # (the session's, shut down at its end)

    monkeypatch.setattr(Thinker, "_executor", executor)
    monkeypatch.setattr(Thinker, "close", close)
