"""``/tournament``: create, start, standings, drop, cancel; the sign-up card's Join and Leave buttons; and the
delivery of what a tournament owes: each round's games opened in threads of their own (found again by name after a
restart, so a game never gets two threads), its card kept current, its pairings, standings and final posted once.
Thin: the table service decides everything."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.controls import DynamicView, TournamentButton
from cogs.present import message_kwargs
from tables import Actor, Outcome, Post, Refusal, TableService
from tables.tournaments import FORMATS, OpenedAlready

if TYPE_CHECKING:
    from cogs.client import Blockhouse
    from cogs.game import GameCog

log = logging.getLogger(__name__)
TICK = 30  # seconds between looks for what tournaments still owe (a game's end usually delivers it at once)


async def _organiser(interaction: discord.Interaction, service: TableService) -> bool:
    """Whether the member may run tournaments here (the service decides, from their permission and roles)."""
    perms = interaction.permissions
    return await service.tournaments.may_organise(interaction.guild_id, bool(perms and perms.manage_guild),
                                                  (r.id for r in getattr(interaction.user, "roles", [])))


def _titled(title: str) -> Callable[[discord.Message], bool]:
    """A message whose card has this title (a tournament's posts are named by tournament and round)."""
    return lambda m: bool(m.embeds) and m.embeds[0].title == title


def _actor(user: discord.abc.User) -> Actor:
    return Actor(user.id, user.display_name)


class TournamentCog(commands.Cog):
    """Tournaments: the commands, the card's buttons, and delivering what they owe."""

    group = app_commands.Group(name="tournament", description="Run a tournament in this server")

    def __init__(self, bot: Blockhouse, games: GameCog) -> None:
        self.bot = bot
        self.games = games
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def cog_load(self) -> None:
        self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    async def stop(self) -> None:
        """Before the bot closes: the tick is cancelled and awaited (a tick cut short loses nothing: each of its
        changes is one transaction, and what it owes is posted at the next start's first tick)."""
        task = self.tick.get_task()
        self.tick.cancel()
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    @tasks.loop(seconds=TICK)
    async def tick(self) -> None:
        """Sign-ups that close and rounds whose time is up (the games they end posted), then what is owed. Nothing
        raised here ends the loop (a task loop stops for good on an exception), and one tournament that fails keeps
        none of the others from being delivered: each failure is logged, and the next tick tries again."""
        for out in await self.games._ask_quietly(self.service.tournaments.expire()) or []:
            try:
                await self.games.deliver(None, out)
            except Exception:
                log.exception("could not post what tournament %s's deadline did", out.tournament_id)
        try:
            owed = await self.service.tournaments.owing()
        except Exception:
            log.exception("could not read what the tournaments owe; the next tick tries again")
            return
        for tid in sorted(owed):
            try:
                await self.settle(tid)
            except Exception:
                log.exception("could not deliver what tournament %s owes; the next tick tries again", tid)

    @tick.before_loop
    async def _before_tick(self) -> None:
        await self.bot.wait_until_ready()

    async def _as_organiser(self, interaction: discord.Interaction, ask: Callable[[bool], Awaitable[Outcome]],
                            tournament_id: int | None = None) -> Outcome | None:
        """Run a request that needs to know whether the member organises tournaments here, after deferring (the role
        is read from storage); ``tournament_id``: the tournament it names, which must be this server's."""
        async def work() -> Outcome:
            if tournament_id is not None:
                await self.service.tournaments.row_here(tournament_id, interaction.guild_id)
            return await ask(await _organiser(interaction, self.service))
        return await self.games._run(interaction, work())

    # --- commands ---------------------------------------------------------------------------------------
    @group.command(name="create", description="Open a tournament for sign-ups (Manage Server)")
    @app_commands.describe(game="Which game", format="swiss, roundrobin, elimination or arena (BLOCK solo)",
                           seats="Seats a table (Swiss: 2-6; the others: 2, the arena 1)",
                           rounds="Rounds (0: as many as the field needs)",
                           options="The game's options, and clock=24h timeout=bot rated=no", name="Its name")
    @app_commands.choices(format=[app_commands.Choice(name=f, value=f) for f in FORMATS])
    async def create(self, interaction: discord.Interaction, game: str, format: str, seats: int = 0,
                     rounds: int = 0, options: str | None = None, name: str | None = None) -> None:
        out = await self._as_organiser(interaction, lambda organiser: self.service.tournaments.create(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0, actor=_actor(interaction.user),
            organiser=organiser, game_key=game, fmt=format, seats=seats, rounds=rounds, options_text=options,
            name=name or ""))
        if out is not None and out.tournament_id is not None:
            await self.settle(out.tournament_id)

    @group.command(name="start", description="Start a tournament: round 1 is paired (its organiser)")
    async def start(self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]) -> None:
        out = await self._as_organiser(interaction, lambda organiser: self.service.tournaments.start(
            tournament, _actor(interaction.user), organiser), tournament)
        if out is not None:
            await self.settle(tournament)

    @group.command(name="standings", description="A tournament's standings and tie-breaks")
    async def standings(self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]) -> None:
        if not await self.games._defer(interaction):
            return

        async def standings() -> Post:
            await self.service.tournaments.row_here(tournament, interaction.guild_id)
            return await self.service.tournaments.standings(tournament)
        post = await self.games._ask(interaction, standings())
        if post is not None:
            post.content, post.mention_ids = "", []
            await interaction.followup.send(ephemeral=True, **message_kwargs(post))

    @group.command(name="drop", description="Leave a tournament (or, its organiser, drop a player)")
    async def drop(self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1],
                   member: discord.User | None = None) -> None:
        out = await self._as_organiser(interaction, lambda organiser: self.service.tournaments.drop(
            tournament, _actor(interaction.user), _actor(member or interaction.user), organiser), tournament)
        if out is not None:
            await self.settle(tournament)

    @group.command(name="report", description="Give a table's result: adjudicate or override (its organiser)")
    @app_commands.describe(table="The table's number in its round", places="Places by seat, e.g. 1,2 or 2,1,1",
                           round="The round (default: the current one)",
                           override="Replace a result the table already has")
    async def report(self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1],
                     table: app_commands.Range[int, 1], places: str,
                     round: app_commands.Range[int, 1] | None = None, override: bool = False) -> None:
        out = await self._as_organiser(interaction, lambda organiser: self.service.tournaments.report(
            tournament, _actor(interaction.user), organiser, table, places, round, override), tournament)
        if out is not None:
            await self.settle(tournament)

    @group.command(name="pause", description="Pause a tournament's round deadline and next round, or resume it")
    async def pause(self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]) -> None:
        out = await self._as_organiser(interaction, lambda organiser: self.service.tournaments.pause(
            tournament, _actor(interaction.user), organiser), tournament)
        if out is not None:
            await self.settle(tournament)

    @group.command(name="cancel", description="Cancel a tournament (its organiser)")
    async def cancel(self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]) -> None:
        out = await self._as_organiser(interaction, lambda organiser: self.service.tournaments.cancel(
            tournament, _actor(interaction.user), organiser), tournament)
        if out is not None:
            await self.settle(tournament)

    async def on_button(self, interaction: discord.Interaction, action: str, tournament_id: int) -> None:
        tournaments = self.service.tournaments
        ask = tournaments.join if action == "join" else tournaments.leave

        async def work() -> Outcome:
            await tournaments.row_here(tournament_id, interaction.guild_id)  # (a forged button names another's)
            return await ask(tournament_id, _actor(interaction.user))
        out = await self.games._run(interaction, work())
        if out is not None:
            await self.settle(tournament_id)

    # --- delivery ---------------------------------------------------------------------------------------
    async def settle(self, tournament_id: int) -> None:
        """Deliver what the tournament owes: its games opened in threads, then its posts in order; one delivery at a
        time per tournament (the tick and a game's end may ask at once)."""
        async with self._locks[tournament_id]:
            await self._settle(tournament_id)
        # a player who dropped out while their game was owed (or the process stopped between a drop and its
        # resignation) is resigned from it now; outside the lock, since a game it ends settles the tournament again
        for out in await self.games._ask_quietly(self.service.tournaments.resign_dropped(tournament_id)) or []:
            await self.games.deliver(None, out)

    async def _settle(self, tournament_id: int) -> None:
        tournaments = self.service.tournaments
        try:
            row = await tournaments.row(tournament_id)
        except Refusal:
            return
        channel = await self.games._channel(row.channel_id)
        if channel is None:
            return
        for owed, name in await tournaments.owed_games(tournament_id):
            if owed.table_id is not None:  # opened before the process stopped, not started: started in its thread
                thread_id = await tournaments.thread_of(owed)
            else:
                thread = await self._thread(channel, name)
                thread_id = thread.id if thread is not None else None
            if thread_id is None:
                break  # Discord refused: the game stays owed, tried again at the next tick
            try:
                out = await tournaments.open_game(owed, thread_id)
            except OpenedAlready:
                continue
            except Refusal as err:  # (a game that can't start: said in the log, tried again at the next tick)
                log.warning("tournament %s: round %s table %s could not start: %s", tournament_id, owed.round,
                            owed.number, err)
                continue
            await self.games.deliver(None, out)
        if await tournaments.owed_games(tournament_id):
            return  # a round's post waits for its games' threads
        for due, post in await tournaments.owed_posts(tournament_id):
            if due.kind == "card":
                if not await self._card(row.id, post):
                    return
            else:
                try:  # posted just before the process stopped, it is found among the latest messages (by its title,
                    # which names the tournament and the round)
                    there = await self.games._find(channel, _titled(post.title)) if due.kind != "replay" else None
                    if there is None:
                        await channel.send(**message_kwargs(post))
                except discord.HTTPException as err:
                    log.warning("tournament %s: could not post its %s: %s", tournament_id, due.kind, err)
                    return
            await tournaments.posted(due)

    async def _card(self, tournament_id: int, post: Any) -> bool:
        """The sign-up card edited in place (posted the first time), with Join and Leave while sign-ups are open."""
        row = await self.service.tournaments.row(tournament_id)
        view = DynamicView()
        for action in self.service.tournaments.buttons(row):
            view.add_item(TournamentButton(action, row.id))
        kwargs = {**message_kwargs(post), "view": view}
        channel = await self.games._channel(row.channel_id)
        if channel is None:
            return False
        try:
            if row.message_id is not None:
                message = cast(Any, channel).get_partial_message(row.message_id)
                kwargs.pop("files", None)
                kwargs.pop("file", None)
                await message.edit(**kwargs)
                return True
            message = await channel.send(**kwargs)
        except discord.HTTPException as err:
            log.warning("tournament %s: could not post its card: %s", tournament_id, err)
            return False
        await self.service.tournaments.card_posted(tournament_id, message.id)
        return True

    async def _thread(self, channel: Any, name: str) -> Any:
        """The thread named ``name`` in the tournament's channel: found among its threads (one made before a restart),
        else made."""
        for thread in getattr(channel, "threads", []):
            if thread.name == name:
                return thread
        try:
            return await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        except (discord.HTTPException, AttributeError) as err:
            log.warning("could not open a tournament thread %r: %s", name, err)
            return None
