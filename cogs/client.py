"""The bot: the Discord client, its settings from the environment, and ``main`` (what ``python bot.py`` runs).

It lives here rather than in bot.py so that bot.py imports nothing: a bots' worker process imports the main module
of the process that spawns it, and a worker that imported discord.py and the table service would take seconds to
start instead of a fraction of one."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from cogs.community import CommunityCog
from cogs.controls import HANDLING, ExpiredAutocomplete, command_failed
from cogs.game import GameCog
from cogs.tournaments import TournamentCog
from storage import Database
from storage.postgres import is_url, shown
from storage.shards import ShardError, Shards, parse_ids
from tables import TableService, renderer
from tables.catalog import Catalog, default_catalog
from tables.workers import map_large_blocks

log = logging.getLogger("blockhouse")

ROOT = Path(__file__).resolve().parent.parent  # the repository: bot.py, .env and data/ are here
DEFAULT_DB = "data/blockhouse.db"
GC_THRESHOLDS = (20_000, 20, 20)
"""The collector's thresholds in the bot's process (Python's are 700, 10, 10): a move makes many short-lived objects
(events parsed, messages built, a state loaded), and collecting the youngest every 700 of them showed in the bot's CPU
per move (bench/README.md, "The bot's own CPU (session 16)")."""
REQUEST_GRACE = 1.0  # seconds the requests being answered get to finish when the bot closes; the rest are cancelled


class ConfigError(Exception):
    """The environment is missing something the bot needs; the message says what."""


@dataclass(frozen=True)
class Settings:
    token: str
    test_guild: int | None = None
    database: str = DEFAULT_DB
    log_level: str = "INFO"
    discord_api: str | None = None
    """Benches and tests only: the address of a Discord double (``BLOCKHOUSE_DISCORD_API=http://127.0.0.1:PORT``)
    whose REST routes are under ``/api/v10`` and whose gateway is ``/gateway`` (``bench.loopback``)."""
    shards: Shards | None = None
    """The gateway shards this process connects and whose guilds' tables it owns (``BLOCKHOUSE_SHARDS`` out of
    ``BLOCKHOUSE_SHARD_COUNT``; :mod:`storage.shards`); None: one connection, every table (no shard settings)."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Create a bot in the Discord Developer Portal, put its token in a "
                ".env file next to bot.py (copy .env.example), and run again. "
                "See README.md, section 'Create the Discord application'.")
        guild = env.get("BLOCKHOUSE_TEST_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"BLOCKHOUSE_TEST_GUILD must be a server id (digits), not {guild!r}.")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}.")
        api = env.get("BLOCKHOUSE_DISCORD_API", "").strip().rstrip("/")
        if api and not api.startswith(("http://", "https://")):
            raise ConfigError(f"BLOCKHOUSE_DISCORD_API must be an http:// or https:// address, not {api!r}.")
        return cls(token=token, test_guild=int(guild) if guild else None,
                   database=env.get("BLOCKHOUSE_DB", "").strip() or DEFAULT_DB, log_level=level,
                   discord_api=api or None, shards=shards_from(env))


def shards_from(env: dict[str, str]) -> Shards | None:
    """``BLOCKHOUSE_SHARDS`` (``0-3``, ``0,2,5``, ``4``) and ``BLOCKHOUSE_SHARD_COUNT`` (``8``), both or neither."""
    ids_text = env.get("BLOCKHOUSE_SHARDS", "").strip()
    count_text = env.get("BLOCKHOUSE_SHARD_COUNT", "").strip()
    if not ids_text and not count_text:
        return None
    if not ids_text or not count_text:
        given, missing = ("BLOCKHOUSE_SHARDS", "BLOCKHOUSE_SHARD_COUNT") if ids_text else \
            ("BLOCKHOUSE_SHARD_COUNT", "BLOCKHOUSE_SHARDS")
        raise ConfigError(f"{given} is set but {missing} is not: set both (e.g. BLOCKHOUSE_SHARDS=0-3 and "
                          "BLOCKHOUSE_SHARD_COUNT=8: this process runs shards 0 to 3 of 8), or neither (one process "
                          "runs everything).")
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"BLOCKHOUSE_SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}.")
    try:
        return Shards.of(parse_ids(ids_text), int(count_text))
    except ShardError as err:
        raise ConfigError(f"BLOCKHOUSE_SHARDS={ids_text!r} with BLOCKHOUSE_SHARD_COUNT={count_text}: {err}. "
                          "Give shard ids from 0 to the count minus one, as a list (0,2,5), a range (0-3) or one "
                          "id (4).") from err


class Tree(app_commands.CommandTree):
    """The command tree: it notes which interaction the current task handles (``cogs.controls.HANDLING``), so that an
    autocomplete discord.py answers too late is told with its command and how late."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        HANDLING.set(interaction)
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        """Every cog's commands alike: logged with their context, and the member told (``command_failed``)."""
        await command_failed(interaction, error)


class Blockhouse(commands.Bot):
    """The bot: storage and the table service are opened in ``setup_hook``."""

    service: TableService
    expired_interactions: int
    """Interactions Discord had already expired when they were answered (each logged once as a warning)."""
    closing: bool
    """The bot is closing: interactions are refused before any work."""

    def __init__(self, settings: Settings, registry: Catalog | None = None, *, sync: bool = True,
                 seeds: Callable[[], int] | None = None, clock: Callable[[], float] | None = None) -> None:
        # Blockhouse has no voice: without PyNaCl/davey discord.py would warn twice at every start.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # Only the servers' channels and threads: slash commands and components reach a bot whatever its intents,
        # and Blockhouse needs no message events (it reads its own boards back over REST), so Discord sends it none
        # (each board posted or edited would come back as one to parse and cache) and discord.py keeps no message
        # cache. Ready 0.5 s after the gateway's last server arrives (discord.py waits 2 s by default).
        # Given shards (BLOCKHOUSE_SHARDS), the bot is an AutoShardedBot (ShardedBlockhouse) connecting those;
        # without, a plain Bot's one connection, started as before
        sharding: dict[str, Any] = {} if settings.shards is None or not isinstance(self, discord.AutoShardedClient) \
            else {"shard_ids": list(settings.shards.ids), "shard_count": settings.shards.count}
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True),
                         max_messages=None, help_command=None, guild_ready_timeout=0.5, tree_cls=Tree, **sharding)
        self.settings = settings
        self.registry = registry or default_catalog()
        self.sync_commands = sync
        self.seeds = seeds  # where game seeds come from (default: the OS's randomness)
        self.clock = clock  # the service's clock (default: the wall clock); tests move it
        self.db: Database | None = None
        self._warming: asyncio.Task[None] | None = None
        self.expired_interactions = 0
        self.closing = False
        self.request_grace = REQUEST_GRACE
        self._expired_filter = ExpiredAutocomplete()

    async def setup_hook(self) -> None:
        logging.getLogger("discord.app_commands.tree").addFilter(self._expired_filter)
        path = database_path(self.settings)
        self.db = await Database.open(path)
        log.info("database opened: %s (journal mode %s)", shown(path), await self.db.journal_mode())
        if self.settings.shards is not None:
            # what runs from a timer or at start-up takes only the tables of this process's shards' guilds
            self.db.shards = self.settings.shards
            log.info("shards %s of %d: this process owns their guilds' tables",
                     ",".join(map(str, self.settings.shards.ids)), self.settings.shards.count)
        self.service = TableService(self.db, self.registry)
        if self.seeds is not None:
            self.service.seeds = self.seeds
        if self.clock is not None:
            self.service.clock = self.clock
        games = GameCog(self)
        await self.add_cog(games)
        await self.add_cog(CommunityCog(self, games))
        await self.add_cog(TournamentCog(self, games))
        # the render workers start beside the connection to Discord, not at the first board (a spawned worker takes
        # ~0.5 s to import Pillow and the renderers)
        self._warming = asyncio.create_task(renderer.warm(), name="render workers warming")
        if self.sync_commands:
            if self.settings.test_guild:
                guild = discord.Object(self.settings.test_guild)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("synced %d commands to test guild %s", len(synced), self.settings.test_guild)
            else:
                synced = await self.tree.sync()
                log.info("synced %d global commands (they may take a while to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info("logged in as %s (id %s) in %d servers", self.user, self.user and self.user.id, len(self.guilds))
        cog = self.get_cog("GameCog")
        if isinstance(cog, GameCog) and not self.closing:
            # boards owed by moves committed before a crash, then bots cut short while thinking: in the background,
            # a page of tables at a time, while requests are answered
            cog.begin_catch_up()

    async def close(self) -> None:
        """Close in order, losing nothing: take no new interaction; cancel the catch-up and the clocks' loops; let
        the requests being answered finish (``request_grace`` seconds) or cancel them; close the connection to
        Discord; stop the bots' workers without waiting for a search, then the render workers; close the database
        last. A change cut short is rolled back, and what a committed change owes is posted after the restart (the
        outbox)."""
        self.closing = True
        tournaments = self.get_cog("TournamentCog")
        if isinstance(tournaments, TournamentCog):
            await tournaments.stop()
        cog = self.get_cog("GameCog")
        if isinstance(cog, GameCog):
            await cog.stop(self.request_grace)
        await super().close()
        service = getattr(self, "service", None)  # made in setup_hook, which a failed login never reaches
        if service is not None:
            service.thinker.close()
        if self._warming is not None:
            self._warming.cancel()
            await asyncio.gather(self._warming, return_exceptions=True)
        await renderer.ashutdown()  # the render workers, if pictures are drawn in processes (without blocking the loop)
        if self.db is not None:
            await self.db.close()
            self.db = None
        logging.getLogger("discord.app_commands.tree").removeFilter(self._expired_filter)


class ShardedBlockhouse(Blockhouse, commands.AutoShardedBot):
    """The bot given shards (``BLOCKHOUSE_SHARDS`` of ``BLOCKHOUSE_SHARD_COUNT``): discord.py's
    ``AutoShardedBot`` connecting those shards only (``shard_ids``, ``shard_count``), one gateway connection each,
    with everything else Blockhouse's."""

    def __init__(self, settings: Settings, registry: Catalog | None = None, *, sync: bool = True,
                 seeds: Callable[[], int] | None = None, clock: Callable[[], float] | None = None) -> None:
        if settings.shards is None:
            raise ConfigError("a sharded bot needs BLOCKHOUSE_SHARDS and BLOCKHOUSE_SHARD_COUNT")
        super().__init__(settings, registry, sync=sync, seeds=seeds, clock=clock)


def bot_for(settings: Settings) -> Blockhouse:
    """The bot the settings call for: :class:`ShardedBlockhouse` given shards, else :class:`Blockhouse`."""
    return Blockhouse(settings) if settings.shards is None else ShardedBlockhouse(settings)


def database_path(settings: Settings) -> str:
    """Where the database is: ``BLOCKHOUSE_DB``, a file relative to the repository unless absolute, or a PostgreSQL
    server's ``postgresql://`` URL."""
    path = settings.database
    return path if path == ":memory:" or is_url(path) or Path(path).is_absolute() else str(ROOT / path)


def tune_process() -> None:
    """The bot's process set as it runs: the collector's thresholds (:data:`GC_THRESHOLDS`) and glibc's malloc
    (:func:`tables.workers.map_large_blocks`); by ``main``, and by the benches that measure the bot as it runs."""
    gc.set_threshold(*GC_THRESHOLDS)
    map_large_blocks()


async def serve(bot: Blockhouse, token: str) -> None:
    """Run ``bot`` until it closes. SIGTERM (what a service manager or ``docker stop`` sends) closes it in order, as
    Ctrl-C does, rather than ending the process where it stands: the requests being answered finish, the database
    closes last."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not closing:
            log.info("SIGTERM: closing")
            closing.append(loop.create_task(bot.close(), name="blockhouse close on SIGTERM"))

    with contextlib.suppress(NotImplementedError, RuntimeError):  # (no signal handlers on this platform or thread)
        loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        async with bot:
            await bot.start(token)
    finally:
        await asyncio.gather(*closing, return_exceptions=True)


def main() -> int:
    try:
        from dotenv import load_dotenv
    except ImportError:  # pragma: no cover - python-dotenv is in requirements.txt
        pass
    else:
        load_dotenv(ROOT / ".env")
    try:
        settings = Settings.from_env()
    except ConfigError as err:
        print(f"blockhouse: {err}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log.info("database: %s", shown(database_path(settings)))  # before connecting (even when Discord is unreachable)
    if settings.discord_api:  # a Discord double (benches, tests): its REST routes, and its gateway for the websocket
        discord.http.Route.BASE = f"{settings.discord_api}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
            "ws" + settings.discord_api.removeprefix("http") + "/gateway")
        log.warning("talking to a Discord double at %s, not to Discord", settings.discord_api)
    tune_process()
    bot = bot_for(settings)
    try:
        asyncio.run(serve(bot, settings.token))
    except KeyboardInterrupt:  # Ctrl-C: the bot closed in order on its way out (asyncio.run cancelled serve)
        pass
    except discord.LoginFailure:
        print("blockhouse: Discord rejected DISCORD_TOKEN. Copy the token again from the Developer Portal "
              "(Bot → Reset Token) into .env. See README.md.", file=sys.stderr)
        return 2
    except (aiohttp.ClientConnectionError, OSError) as err:
        print(f"blockhouse: can't reach Discord ({err.__class__.__name__}: {err}). Check the network and try "
              "again.", file=sys.stderr)
        return 1
    return 0

