"""A throwaway PostgreSQL server for the tests (issue 26): ``initdb`` into a temporary folder, ``pg_ctl start``
listening on a unix socket in that folder only (no TCP port), durability off (a test database needs none), stopped
and removed at the end; databases made from a migrated template (``CREATE DATABASE … TEMPLATE``: ~0.1 s, where
migrating an empty one takes ~0.3 s) or empty, and dropped. The session's server is the ``pg_server`` fixture
(tests/conftest.py); where the server's binaries are missing it skips, saying how to install them
(:data:`HOW_TO_INSTALL`)."""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]

from storage import Database

HOW_TO_INSTALL = ("PostgreSQL's server binaries (initdb, pg_ctl, postgres) were not found on PATH nor in "
                  "/usr/lib/postgresql/*/bin: install them (Debian/Ubuntu: `apt-get install postgresql`; "
                  ".ci/run does it when it runs as root) to run tests/storage on PostgreSQL too")
RUN_AS = "postgres"  # the server refuses to run as root: as root, it runs as this user (else nobody)

T = TypeVar("T")


def server_binaries() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres: on PATH, or Debian's /usr/lib/postgresql/<version>/bin (the
    newest); None when there is none."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    def version(folder: str) -> tuple[int, ...]:  # 15, or 9.6 for the old ones
        return tuple(int(n) for n in folder.split("/")[-2].split(".") if n.isdigit())

    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version, reverse=True):
        if all(Path(folder, name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


def run_now(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end on an event loop of its own, in a thread (asyncio.run here would clear the loop
    pytest-asyncio set for the current test)."""
    out: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as err:  # (handed to the caller)
            errors.append(err)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]


class PgServer:
    """A PostgreSQL server of the session's, on a unix socket in its own folder, with a migrated template database."""

    USER = "blockhouse"
    TEMPLATE = "migrated"

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="blockhouse-pg-"))
        self.data = self.folder / "data"
        self._names = itertools.count(1)
        self._as: dict[str, Any] = {}
        if os.geteuid() == 0:  # the server will not run as root
            try:
                user = pwd.getpwnam(RUN_AS)
            except KeyError:
                user = pwd.getpwnam("nobody")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = {"user": user.pw_uid, "group": user.pw_gid}

    def _run(self, *args: str) -> None:
        subprocess.run([str(self.bin / args[0]), *args[1:]], check=True, cwd=self.folder, capture_output=True,
                       **self._as)

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", self.USER, "--auth=trust", "-E", "UTF8", "--no-locale",
                  "--no-sync")
        options = (f"-k {self.folder} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                   "-c full_page_writes=off -c shared_buffers=16MB -c max_connections=40")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "server.log"), "-w",
                  "start")

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{self.USER}@/{database}?host={self.folder}"

    async def _admin(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def make_template(self) -> None:
        """The template every test's database is copied from: every migration applied."""
        run_now(self._admin(f"CREATE DATABASE {self.TEMPLATE}"))

        async def migrate() -> None:
            await (await Database.open(self.url(self.TEMPLATE))).close()

        run_now(migrate())

    def create(self, migrated: bool = True) -> str:
        """A new database, migrated (a copy of the template) or empty; its URL."""
        name = f"test_{next(self._names)}"
        run_now(self._admin(f"CREATE DATABASE {name} TEMPLATE {self.TEMPLATE if migrated else 'template0'}"))
        return self.url(name)

    def drop(self, url: str) -> None:
        name = url.split("/")[3].split("?")[0]
        run_now(self._admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@contextmanager
def bench_server() -> Iterator[PgServer]:
    """A server started for a bench's run (``--postgresql``), stopped and removed after it; where the binaries are
    missing, :class:`SystemExit` saying how to install them."""
    binaries = server_binaries()
    if binaries is None:
        raise SystemExit(HOW_TO_INSTALL)
    server = PgServer(binaries)
    server.start()
    try:
        yield server
    finally:
        server.stop()
