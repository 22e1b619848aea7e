"""Slash commands and component callbacks for every game.

Thin by design: parse what the user gave, call the table service, send what it returns.
Every interaction is acknowledged first (defer), so slow work (rendering, storage) never
misses Discord's three-second window; refusals are answered privately.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import rest
from cogs.controls import (
    OOPS,
    DynamicView,
    LookButton,
    board_stamp,
    describe,
    expired,
    last_word,
    note_expired,
    run_control,
)
from cogs.present import (
    edit_kwargs,
    for_edit,
    lobby_kwargs,
    log_kwargs,
    menu_view,
    message_kwargs,
    preview_kwargs,
    quick_rules_kwargs,
    rules_embeds,
)
from cogs.rest import Posted
from engine.base import GameError
from engine.text import players
from tables import Actor, Outcome, Post, Refusal, StaleButton, TableService
from tables.lobby import CLOCKS, ON_TIMEOUT
from tables.menu import decode_path, encode_path
from tables.outcome import PREVIEW_FILE
from tables.presenter import LookBack
from tables.quick import QuickChoices, resume_bots

if TYPE_CHECKING:
    from cogs.client import Blockhouse

log = logging.getLogger(__name__)

T = TypeVar("T")

CLOCK_TICK = 30  # seconds between looks for turns whose clock ran out
LATE_BATCH = 10  # late turns played out (and their boards posted) before the clock looks for more
LATE_PER_TICK = 100  # late turns played out at most per tick (a restart after a long stop catches up over ticks)
AUTOCOMPLETE_WITHIN = 2.0  # seconds after a keystroke past which /move's autocomplete answers from what is known
AUTOCOMPLETE_LEAST = 0.2  # seconds it waits for the database at least, however old the keystroke looks
BOARD_LOOKBACK = 20  # messages looked at for a board that may have been posted just before the process stopped
OWED_SETTLED = 60.0  # a board owed this long was refused (not being posted right now): the clock's tick retries it
NOT_POSTED = ("Your action is saved, but Discord refused my message in this channel (a missing permission?), so the "
              "board is not posted yet; I'll post it as soon as I can. `/board` tries again.")
REPLAY_NOT_POSTED = ("Discord refused the replay in this channel (may I attach files here? an animation over the "
                     "upload limit?): nothing was posted. `/replay` tries again.")
UNKNOWN_CONTROL = "That control is out of date or not one of mine: use the newest board, or `/hand`."
RESTARTING = "I am restarting: nothing was done. Try again in a moment."


def actor_of(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    perms = interaction.permissions
    return Actor(user_id=user.id, name=user.display_name, can_manage=bool(perms and perms.manage_channels))


def _on_board(interaction: discord.Interaction) -> bool:
    """Whether a control was clicked on a public board (not a private menu, not a DM): its moves are the ones of
    the seat the board asks, and nobody else's."""
    message = interaction.message
    return message is not None and not message.flags.ephemeral and interaction.guild_id is not None


class GameCog(commands.Cog):
    """Lobbies, moves and information commands for all games."""

    game_group = app_commands.Group(name="game", description="Open or cancel a game")

    stop_at: str | None = None
    """For tests of the crash windows: delivery stops at this point as if the process had died there: 'committed'
    (the change is stored, nothing posted) or 'posted' (posted, not yet marked delivered)."""

    def __init__(self, bot: Blockhouse) -> None:
        self.bot = bot
        self.requests: set[asyncio.Task[Any]] = set()  # the tasks answering interactions, until they are done
        self.catching_up: asyncio.Task[None] | None = None  # the start-up catch-up, running in the background
        self._quick: QuickChoices | None = None

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def cog_load(self) -> None:
        self.turn_clock.start()

    async def cog_unload(self) -> None:
        self.turn_clock.cancel()

    @tasks.loop(seconds=CLOCK_TICK)
    async def turn_clock(self) -> None:
        """Turns whose clock ran out are played out as their table says (a deadline missed while the bot was
        down is handled at the first tick after start-up, once), a few at a time, each few posted before the next
        are played: requests go on meanwhile, and a restart after a long stop posts its first late turns soon."""
        played = 0
        while played < LATE_PER_TICK:
            batch = await self._ask_quietly(self.service.turn_clock.expire_some(LATE_BATCH))
            if batch is None:
                break
            looked, outs = batch
            for out in outs:
                await self._deliver_quietly(out, "the timed-out turn")
            played += looked
            if looked < LATE_BATCH or not outs:  # none left (or only turns that wait: a vacation, no clock)
                break
        for out in await self._ask_quietly(self.service.remind()) or []:
            await self._deliver_quietly(out, "the reminder")
        for _, channel_id in await self._ask_quietly(self.service.archives_due()) or []:
            await self._archive(channel_id)
        await self.redeliver(settled=OWED_SETTLED)

    async def _archive(self, channel_id: int) -> None:
        """Archive a finished game's thread (a channel is left as it is); a rematch posted there reopens it."""
        channel = await self._channel(channel_id)
        if isinstance(channel, discord.Thread) and not channel.archived:
            try:
                await channel.edit(archived=True)
            except discord.HTTPException as err:
                log.info("could not archive thread %s: %s", channel_id, err)

    @turn_clock.before_loop
    async def _before_clock(self) -> None:
        await self.bot.wait_until_ready()

    # --- plumbing ---------------------------------------------------------------------
    async def _run(self, interaction: discord.Interaction, work: Awaitable[Outcome], *,
                   component: bool = False) -> Outcome | None:
        """Defer, run a service call, deliver its outcome; refusals answered privately."""
        if not interaction.response.is_done() and not await self._defer(interaction, private=not component):
            if inspect.iscoroutine(work):
                work.close()  # never started: nothing was done
            return None
        out = await self._ask(interaction, work)
        if out is not None:
            await self.deliver(interaction, out)
        return out

    async def _defer(self, interaction: discord.Interaction, *, private: bool = True) -> bool:
        """Acknowledge the interaction before any work (Discord wants an answer within 3 s): privately "thinking"
        for a command, a silent update for a click on a public message. False when Discord refused the answer
        (after discord.py's retries): then nothing is done, and the player, shown "This interaction failed",
        can try again. While the bot closes nothing new is taken: the player is told so."""
        if self.bot.closing:
            try:
                await interaction.response.send_message(RESTARTING, ephemeral=True)
            except (discord.HTTPException, aiohttp.ClientError, RuntimeError) as err:  # (the connection closing too)
                log.info("could not say we are restarting to user %s: %r", interaction.user.id, err)
            return False
        self._working()  # before the acknowledgement goes out: the bot's close, if it begins meanwhile, waits for it
        try:
            if private:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
        except discord.HTTPException as err:
            if expired(err):  # answered after Discord's 3 s: counted and logged once
                note_expired(interaction)
                return False
            log.warning("Discord refused the answer to %s of user %s in channel %s; nothing done: %s",
                        describe(interaction), interaction.user.id, interaction.channel_id, err)
            return False
        return True

    def _working(self) -> None:
        """The current task answers an interaction: the bot's close lets it finish (or cancels it) before the
        database closes."""
        task = asyncio.current_task()
        if task is not None and task not in self.requests:
            self.requests.add(task)
            task.add_done_callback(self.requests.discard)

    @property
    def quick(self) -> QuickChoices:
        if self._quick is None or self._quick.service is not self.service:
            self._quick = QuickChoices(self.service)
        return self._quick

    async def _ask(self, interaction: discord.Interaction, work: Awaitable[T]) -> T | None:
        """Await a service call; a refusal is answered privately, an unexpected error logged. None on failure."""
        try:
            return await work
        except (Refusal, GameError) as err:
            await self._private(interaction, str(err))
            if isinstance(err, StaleButton):
                await self._offer_panel(interaction)
        except Exception:
            log.exception("error in %s by user %s in channel %s", describe(interaction), interaction.user.id,
                          interaction.channel_id)
            await self._private(interaction, OOPS)
        return None

    async def _private(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        try:
            await rest.followup(interaction, text[:2000] if text else None, ephemeral=True, **kwargs)
            return
        except discord.HTTPException as err:  # e.g. 10015: the interaction's token expired or the webhook is gone
            log.warning("could not answer %s of user %s privately: %s", describe(interaction), interaction.user.id,
                        err)
        if not text or interaction.type is discord.InteractionType.component:
            return  # a click's answer is its deferred update; a picture-only message has no words to fall back on
        try:  # the other way to answer: put the words in the "thinking…" message (a rate limit or a server error
            # refuses one call, not usually the next)
            await interaction.edit_original_response(content=text[:2000])
        except discord.HTTPException as err:
            log.warning("could not answer %s of user %s by editing either: %s", describe(interaction),
                        interaction.user.id, err)

    async def _offer_panel(self, interaction: discord.Interaction) -> None:
        try:
            out = await self.service.hand(interaction.channel_id, actor_of(interaction))
        except (Refusal, GameError):
            return
        if out.reply_post:
            await self._private(interaction, "Here is the current position:",
                                **_without_content(message_kwargs(out.reply_post, ephemeral=True)))

    async def deliver(self, interaction: discord.Interaction | None, out: Outcome, refused: str = NOT_POSTED
                      ) -> bool:
        """Post an outcome: lobby edit, public posts, DMs, then the private reply. False when a public post could
        not be made (the person who acted is told so, truthfully; what it owes stays in the outbox). Once the posts
        and the lobby card are made, the outbox is told: what a change owed is delivered."""
        if self.stop_at == "committed":
            return False
        shown = await self._edit_lobby(interaction, out) if out.lobby is not None else None
        boards: list[tuple[int, Posted]] = []  # (table, message) of each board posted
        posted = True
        for post in out.public:
            made = await self._post(out.channel_id, post, owed=out.owed)
            posted = posted and made is not False
            board_of = post.panel_table or post.rematch_table
            if isinstance(made, Posted) and board_of is not None:
                boards.append((board_of, made))
        if self.stop_at == "posted":
            return posted
        # what was posted is delivered (the board, the lobby card: a part that failed stays owed alone), and the newest
        # board recorded, in one write
        newest = boards[-1][1] if posted and boards else None
        recorded = False
        if out.outbox is not None and (posted or shown):
            try:
                previous = await self.service.delivered(*out.outbox, newest.id if newest else None, board=posted,
                                                        lobby=bool(shown))
                recorded = True
                if newest is not None:
                    await self._retire(newest.channel, previous)
            except Exception:
                log.exception("could not mark what table %s owed as delivered", out.outbox[0])
        if not recorded:  # the newest board is recorded all the same: only it keeps live controls
            for table_id, message in boards:
                await self._retire_board(message.channel, table_id, message.id)
        for dm in out.dms:
            await self._dm(out.channel_id, dm.table_id, dm.user_id, dm.post)
        ended = [p.rematch_table for p in out.public if p.rematch_table is not None]
        if ended and posted:  # a tournament's game ended: its result may have paired the next round
            await self._tournament_of(ended[-1])
        if interaction is None:
            return posted
        if not posted:
            await self._private(interaction, refused)
        if out.reply_post is not None:
            await self._private(interaction, out.reply or "",
                                **_without_content(message_kwargs(out.reply_post, ephemeral=True)))
        elif out.reply and interaction.response.type is not discord.InteractionResponseType.deferred_message_update:
            await self._private(interaction, out.reply)  # (a click answered by its silent update has no words)
        return posted

    async def _tournament_of(self, table_id: int) -> None:
        """What a finished game's tournament owes (the next round's games and posts), delivered now."""
        tournament_id = await self._ask_quietly(self.service.tournaments.of_table(table_id))
        cog = self.bot.get_cog("TournamentCog")
        if tournament_id is not None and cog is not None:
            await cast(Any, cog).settle(tournament_id)

    async def _channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone", channel_id)
                return None
        return channel  # type: ignore[return-value]

    async def _post(self, channel_id: int | None, post: Post, owed: bool = False) -> Posted | bool:
        """Post (or edit, for a turn's status) in the channel: the message posted, True for a status edited, False
        when it could not be posted. ``owed``: posted again from the outbox, so a board already in the channel
        (posted just before the process stopped) is taken as posted (and returned) rather than posted twice. A
        board's controls replace the previous board's once the outcome is delivered (:meth:`deliver`)."""
        channel = await self._channel(channel_id)
        if channel is None or channel_id is None:
            return False
        if post.status_of is not None and await self._edit_status(channel, post):
            return True
        board_of = post.panel_table or post.rematch_table
        if owed and board_of is not None and post.version is not None:
            there = await self._find(channel, lambda m: any(
                (stamp := board_stamp(i)) is not None and stamp[0] == board_of and stamp[1] >= (post.version or 0)
                for i in _component_ids(m)))
            if there is not None:
                log.info("table %s: its board of version %s is already in the channel", board_of, post.version)
                return Posted(there.channel, there.id)
        elif owed:  # a notice (a game cancelled): the same card among the latest messages
            there = await self._find(channel, lambda m: bool(m.embeds) and m.embeds[0].title == (post.title or None)
                                     and m.embeds[0].description == (post.description or None))
            if there is not None:
                return Posted(there.channel, there.id)
        try:
            message = Posted(channel, await rest.post(self.bot, channel_id, **message_kwargs(post)))
        except discord.HTTPException as err:  # what a move owes stays in the outbox and is posted later
            log.warning("could not post to channel %s: %s", channel_id, err)
            return False
        if post.status_of is not None:
            await self._ask_quietly(self.service.status_posted(*post.status_of, message.id))
        return message

    async def _find(self, channel: discord.abc.Messageable, wanted: Callable[[discord.Message], bool]
                    ) -> discord.Message | None:
        """The newest of the bot's latest messages in the channel that is ``wanted``; None when there is none (or the
        channel can't be read: then the caller posts, and a message shown twice beats one lost)."""
        me = self.bot.user
        try:
            async for message in channel.history(limit=BOARD_LOOKBACK):
                if me is not None and message.author.id == me.id and wanted(message):
                    return message
        except discord.HTTPException as err:
            log.info("could not read the latest messages of channel %s: %s", getattr(channel, "id", "?"), err)
        return None

    def begin_catch_up(self) -> None:
        """Start the catch-up (:meth:`catch_up`) in the background, unless it is running: requests are answered
        meanwhile. (``on_ready`` comes again after a reconnection: then it looks again.)"""
        if self.catching_up is None or self.catching_up.done():
            self.catching_up = asyncio.get_running_loop().create_task(self.catch_up(), name="blockhouse-catch-up")

    async def catch_up(self) -> None:
        """At start-up: the boards owed, then the bots whose move was cut short, found a page of running tables at a
        time (each page one short hold of the database), each table's move posted as soon as it is played."""
        await self.redeliver()
        moves = resume_bots(self.service, pause=self._requests_first)
        try:
            while (out := await self._ask_quietly(anext(moves, None))) is not None:
                await self._deliver_quietly(out, "the resumed bot move")
        finally:
            await moves.aclose()

    async def _requests_first(self) -> None:
        """Let the requests being answered now finish first (not those that come meanwhile: under a steady load the
        catch-up still goes on, a page between two waves of requests)."""
        me = asyncio.current_task()
        running = [t for t in self.requests if t is not me and not t.done()]
        if running:
            await asyncio.wait(running)

    async def _deliver_quietly(self, out: Outcome, what: str) -> None:
        try:
            await self.deliver(None, out)
        except Exception:
            log.exception("could not post %s of table %s", what, out.table_id)

    async def stop(self, grace: float) -> None:
        """Before the bot closes: the catch-up and the turn clock's loop are cancelled and awaited, then the requests
        being answered get ``grace`` seconds to finish and the rest are cancelled and awaited. Cancelling loses
        nothing: a change is one transaction (rolled back if cut short), and what a committed change owes stays in
        the outbox until it is posted, after the restart if need be. (The tournaments' tick is their cog's to stop.)"""
        background = [t for t in [self.catching_up, self.turn_clock.get_task()] if t is not None]
        self.turn_clock.cancel()
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        if self._quick is not None:
            await self._quick.close()  # /move's choices still worked out for a keystroke answered already
        # (every request counts itself before its first await, right after it found the bot not closing: none joins)
        me = asyncio.current_task()
        running = [t for t in self.requests if t is not me and not t.done()]
        if running and grace > 0:
            _, late = await asyncio.wait(running, timeout=grace)
            running = list(late)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    async def redeliver(self, settled: float | None = None) -> None:
        """Post the boards committed moves still owe (the outbox): at start-up, those of moves committed before
        the process died; on the clock's ticks, those Discord refused (owed for ``settled`` seconds or more). A page
        of tables at a time: each page's boards are posted before the next page is read."""
        pages = self.service.outbox.undelivered_pages(settled)
        try:
            while (outcomes := await self._ask_quietly(anext(pages, None))) is not None:
                for out in outcomes:
                    try:
                        await self.deliver(None, out)
                    except Exception:
                        log.exception("could not deliver the owed board of table %s", out.table_id)
        finally:
            await pages.aclose()

    async def _edit_status(self, channel: discord.abc.Messageable, post: Post) -> bool:
        """Edit the turn's status message in place; False when there is none (or it is gone): post a new one."""
        assert post.status_of is not None
        existing = await self._ask_quietly(self.service.status_message(*post.status_of))
        if existing is None or not isinstance(channel, (discord.TextChannel, discord.Thread)):
            return False
        try:
            await rest.edit(self.bot, channel.id, existing, **message_kwargs(post))
        except discord.HTTPException as err:
            log.info("could not edit status message %s: %s", existing, err)
            return False
        return True

    async def _retire_board(self, channel: discord.abc.Messageable, table_id: int, newest: int) -> None:
        """Record the table's newest board, and take the controls off the previous one."""
        await self._retire(channel, await self._ask_quietly(self.service.board_posted(table_id, newest)))

    async def _retire(self, channel: discord.abc.Messageable, previous: int | None) -> None:
        """Take the controls off a table's previous board, so that only the newest board has live buttons."""
        if previous is None or not isinstance(channel, (discord.TextChannel, discord.Thread)):
            return
        try:
            await rest.edit(self.bot, channel.id, previous, view=None)
        except discord.HTTPException as err:  # gone, or too old to edit: its buttons answer "from an earlier position"
            log.info("could not take the controls off board message %s: %s", previous, err)

    async def _ask_quietly(self, work: Awaitable[T]) -> T | None:
        try:
            return await work
        except Exception:
            log.exception("bookkeeping after a post failed")
            return None

    async def _dm(self, channel_id: int | None, table_id: int, user_id: int, post: Post) -> None:
        try:
            # the DM channel, kept by discord.py once opened: no user lookup (the bot has no member cache, so
            # get_user finds nobody and fetch_user was a REST call for every DM)
            channel = await self.bot.create_dm(discord.Object(user_id))
            await rest.post(self.bot, channel.id, **message_kwargs(post, ephemeral=True))
            delivered = True
        except discord.HTTPException:
            delivered = False
        notice = await self.service.dm_result(table_id, user_id, delivered)
        if notice is not None:
            await self._post(channel_id, notice)

    async def _edit_lobby(self, interaction: discord.Interaction | None, out: Outcome) -> bool:
        """Make the lobby message read like ``out.lobby`` (posting it where it has none yet). False when Discord
        refused: the card stays owed. A lobby message that is gone has nothing left to show: True."""
        assert out.lobby is not None
        card = out.lobby
        kwargs = lobby_kwargs(card)
        if card.message_id is None:  # a lobby opened without a message yet (a rematch): post it
            channel = await self._channel(card.channel_id)
            if channel is None:
                return False
            # posted just before the process stopped, it is found there rather than posted twice
            marker = f":{card.table_id}"
            there = await self._find(channel, lambda m: any(
                i.startswith("bh:lobby:") and i.endswith(marker) for i in _component_ids(m))) if out.owed else None
            try:
                if there is not None:
                    await there.edit(**kwargs)
                    message = there
                else:
                    message = await channel.send(**kwargs)
            except discord.HTTPException:
                log.exception("could not post the lobby of table %s", card.table_id)
                return False
            await self.service.set_lobby_message(card.table_id, card.channel_id, message.id)
            return True
        try:
            if (interaction is not None and interaction.message is not None
                    and interaction.message.id == card.message_id):
                await rest.edit_original(interaction, **kwargs)
                return True
            channel = await self._channel(card.message_channel_id)
            if isinstance(channel, (discord.TextChannel, discord.Thread)):
                await rest.edit(self.bot, channel.id, card.message_id, **kwargs)
        except discord.NotFound:
            log.info("the lobby message of table %s is gone", card.table_id)
        except discord.HTTPException:
            log.warning("could not update the lobby message of table %s", card.table_id)
            return False
        return True

    # --- components -------------------------------------------------------------------
    async def on_lobby_button(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        actor = actor_of(interaction)  # its permissions are the interaction channel's: checked to be the table's
        calls = {
            "join": lambda: self.service.join(table_id, actor),
            "leave": lambda: self.service.leave(table_id, actor),
            "bot": lambda: self.service.add_bot(table_id, actor, "easy"),
            "botmedium": lambda: self.service.add_bot(table_id, actor, "medium"),
            "bothard": lambda: self.service.add_bot(table_id, actor, "hard"),
            "unbot": lambda: self.service.remove_bot(table_id, actor),
            "start": lambda: self.service.start(table_id, actor),
            "cancel": lambda: self.service.cancel(table_id, actor, by_table=True),
        }

        async def checked() -> Outcome:
            await self.service.check_control_channel(table_id, interaction.channel_id)
            return await calls[action]()

        await self._run(interaction, checked(), component=True)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click on a control of ours is run here, from its custom id (discord.py dispatches none of them:
        ``DynamicView.is_dispatchable``), also when the id is no longer on the message (a second click landing after
        the first one took the buttons off), so the player hears what happened ("the game has started", "that button
        is from an earlier position"). An id of ours that matches no control (forged, or from a version that made
        other ids) gets a private answer instead of Discord's "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, Any] = interaction.data or {}
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str) or not custom_id.startswith("bh:"):
            return
        control = run_control(interaction, custom_id)
        if control is not None:
            await control
            return
        log.info("unknown control %r from user %s in channel %s", custom_id[:100], interaction.user.id,
                 interaction.channel_id)
        if not interaction.response.is_done():
            await last_word(interaction, UNKNOWN_CONTROL)

    async def on_move_control(self, interaction: discord.Interaction, table_id: int, version: int,
                              notation: str) -> None:
        out = await self._run(interaction, self.service.submit(actor_of(interaction), notation, table_id=table_id,
                                                               version=version, public=_on_board(interaction)),
                              component=True)
        if out is not None:
            await self._spent(interaction, out)

    async def _spent(self, interaction: discord.Interaction, out: Outcome) -> None:
        """A move played from a private menu, a preview or a DM: that message's controls are spent."""
        message = interaction.message
        if message is not None and (message.flags.ephemeral or interaction.guild_id is None):
            # The spent private menu (or preview, or the DM it came in) goes, and its card says what is true now;
            # its picture stays.
            await rest.edit_original(interaction, content=("✅ " if out.played else "↩️ ") + out.reply, view=None,
                                                     embed=played_embed(message, out.played))

    async def on_step(self, interaction: discord.Interaction, table_id: int, version: int, path: str,
                      notation: str | None = None) -> None:
        """A pick in the move menu: play the move it names (``notation``), or show the next level privately.

        In a private (ephemeral) message the menu moves in place; from a public board it opens privately.
        """
        if not await self._defer(interaction, private=False):
            return
        actor = actor_of(interaction)
        # one request: the next level, or the move picked with its preview, or played
        step = await self._ask(interaction, self.service.pick(table_id, actor, version, decode_path(path),
                                                              notation=notation, public=_on_board(interaction)))
        if step is None:
            return
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        if step.played is not None:
            await self.deliver(interaction, step.played)
            await self._spent(interaction, step.played)
            return
        if step.preview is not None:  # show the result first; Submit plays it
            kwargs = preview_kwargs(step.preview, table_id, version, encode_path(step.path[:-1]))
            if private:
                await rest.edit_original(interaction, **for_edit(kwargs))
            else:
                await self._private(interaction, "", **_without_content(kwargs))
            return
        view = menu_view(step)
        if private and message is not None and any(a.filename == PREVIEW_FILE for a in message.attachments):
            # back from a preview: the player's own view again, with the menu
            out = await self._ask(interaction, self.service.hand(None, actor, table_id=table_id))
            if out is None or out.reply_post is None:
                return
            await rest.edit_original(interaction, **{**edit_kwargs(out.reply_post), "view": view})
        elif private:
            await rest.edit_original(interaction, view=view)
        else:
            await self._private(interaction, " › ".join(step.trail) or "Your move:", view=view)

    async def on_rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """A rematch of a game played in a thread opens in a new thread of the same channel (the old one is
        archived in time); a game played in a channel has its rematch there."""
        if not await self._defer(interaction, private=False):
            return
        actor = actor_of(interaction)
        thread = interaction.channel
        parent = thread.parent if isinstance(thread, discord.Thread) else None
        if not isinstance(parent, discord.TextChannel):
            await self._run(interaction, self.service.rematch(table_id, actor), component=True)
            return
        old = await self._ask(interaction, self.service.check_rematch(table_id, actor))
        if old is None:
            return
        game = self.service.game(old.game)
        message = None
        try:
            message = await parent.send(embed=discord.Embed(title=f"{game.name}: opening a rematch…"))
            room = await message.create_thread(name=f"{game.name} · {actor.name} (rematch)"[:100],
                                               auto_archive_duration=10080)
        except discord.HTTPException as err:  # no new thread: the rematch opens where the game was
            log.warning("could not open a rematch thread in channel %s: %s", parent.id, err)
            if message is not None:  # (no "opening a rematch…" left behind in the channel)
                with contextlib.suppress(discord.HTTPException):
                    await message.delete()
            await self._run(interaction, self.service.rematch(table_id, actor), component=True)
            return
        out = await self._ask(interaction, self.service.rematch(table_id, actor, channel_id=room.id,
                                                                lobby_channel_id=parent.id,
                                                                lobby_message_id=message.id))
        if out is None:  # refused after all (another click won the race): take the empty thread away
            for gone in (room, message):
                with contextlib.suppress(discord.HTTPException):
                    await gone.delete()
            return
        await self.deliver(interaction, out)
        await self._post(interaction.channel_id, Post(description=f"Rematch: {room.mention}", colour=0x2B7A78))

    async def on_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        if not await self._defer(interaction):
            return
        await self._run(interaction, self.service.hand(None, actor_of(interaction), table_id=table_id))

    # --- /game ------------------------------------------------------------------------
    async def _game_autocomplete(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[str]]:
        cur = current.lower()
        return [app_commands.Choice(name=f"{g.name} ({players(g.min_players, g.max_players)})", value=g.key)
                for g in self.service.registry.all() if cur in g.key or cur in g.name.lower()][:25]

    async def _options_autocomplete(self, interaction: discord.Interaction, current: str
                                    ) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None) or await self.service.game_here(interaction.channel_id or 0)
        game = self.service.registry.get(key or "")
        if game is None:
            return []
        head, _, last = current.rpartition(" ")
        prefix = (head + " ") if head else ""
        out = []
        offered = [(spec.name, [_opt_text(v) for v in spec.choices]) for spec in game.options]
        offered.append(("rated", ["yes", "no"]))  # the table's own: whether its result moves the server's ratings
        for name, values in offered:
            for value in values:
                text = f"{name}={value}"
                if text.startswith(last.lower()) and name + "=" not in head and len(prefix + text) <= 100:
                    # (a choice's value is what the box then holds: one over Discord's 100 would be cut mid-option)
                    hint = game.text.option_hint(name, value)  # e.g. a scenario's name and goal
                    offered_here = text + (f" — {hint}" if hint else "")
                    shown = prefix + offered_here
                    if len(shown) > 100:  # the options typed before give way first (the player knows them)
                        shown = next((s for s in ("… " + offered_here, offered_here) if len(s) <= 100),
                                     shown[:99] + "…")
                    out.append(app_commands.Choice(name=shown, value=prefix + text))
        return out[:25]

    @game_group.command(name="new", description="Open a lobby for a new game")
    @app_commands.describe(game="Which game", options="Options such as `decks=2 jokers=yes` (see /rules)",
                           thread="Play in a new thread (default: yes, in text channels)")
    async def game_new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                       thread: bool = True) -> None:
        if not await self._defer(interaction):
            return
        actor = actor_of(interaction)
        channel = interaction.channel
        use_thread = thread and isinstance(channel, discord.TextChannel)
        try:
            if not use_thread:
                await self._open_here(interaction, actor, game, options)
                return
            await self.service.check_new(None, game, options)  # validate before making a thread
            assert isinstance(channel, discord.TextChannel)
            game_obj = self.service.game(game)
            message = None
            try:
                message = await channel.send(embed=discord.Embed(title=f"{game_obj.name}: opening a table…"))
                room = await message.create_thread(name=f"{game_obj.name} · {actor.name}"[:100],
                                                   auto_archive_duration=10080)
            except discord.HTTPException as err:
                log.warning("could not open a thread in channel %s: %s", channel.id, err)
                if message is not None:
                    await message.delete()
                await self._open_here(interaction, actor, game, options,
                                      note="I couldn't open a thread here, so the game is in this channel.")
                return
            out = await self.service.open_lobby(
                guild_id=interaction.guild_id, channel_id=room.id, host=actor, game_key=game, options_text=options,
                lobby_channel_id=channel.id, lobby_message_id=message.id)
            assert out.lobby is not None and out.table_id is not None and out.outbox is not None
            if self.stop_at == "committed":
                return
            try:
                await message.edit(**lobby_kwargs(out.lobby))
            except discord.HTTPException as err:  # e.g. 10008: the message is gone; leave nothing half-made
                await self._abandon(interaction, out.table_id, actor, err)
                return
            await self._ask_quietly(self.service.delivered(*out.outbox))
            try:  # a greeting in the new thread: the lobby works without it
                await room.send(f"{interaction.user.mention} opened this {game_obj.name} table. Join with the "
                                f"buttons on the lobby message; the game is played here.",
                                allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as err:
                log.warning("could not greet in thread %s: %s", room.id, err)
            await self._private(interaction, f"Your table is open: {room.mention}")
        except (Refusal, GameError) as err:
            await self._private(interaction, str(err))
        except Exception:
            log.exception("error opening a lobby in channel %s", interaction.channel_id)
            await self._private(interaction, OOPS)

    async def _open_here(self, interaction: discord.Interaction, actor: Actor, game: str, options: str | None,
                         note: str = "") -> None:
        channel = interaction.channel
        assert channel is not None and interaction.channel_id is not None
        out = await self.service.open_lobby(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                            host=actor, game_key=game, options_text=options)
        assert out.lobby is not None and out.table_id is not None and out.outbox is not None
        if self.stop_at == "committed":
            return
        try:
            message = await channel.send(**lobby_kwargs(out.lobby))  # type: ignore[union-attr]
        except discord.HTTPException as err:
            await self._abandon(interaction, out.table_id, actor, err)
            return
        await self.service.set_lobby_message(out.table_id, channel.id, message.id)
        await self._ask_quietly(self.service.delivered(*out.outbox))
        await self._private(interaction, note or "Lobby opened.")

    async def _abandon(self, interaction: discord.Interaction, table_id: int, actor: Actor,
                       err: discord.HTTPException) -> None:
        """The lobby message could not be posted: cancel the lobby so that it blocks nothing, and say so."""
        log.warning("lobby %s abandoned: Discord refused its message (%s)", table_id, err)
        out = await self._ask_quietly(self.service.cancel(table_id, actor, by_table=True))
        if out is not None and out.outbox is not None:  # the lobby was never shown: its cancellation owes nothing
            await self._ask_quietly(self.service.delivered(*out.outbox))
        await self._private(interaction, "Discord refused my lobby message here, so nothing was opened. "
                                         "Check my permissions in this channel and try again.")

    game_new.autocomplete("game")(_game_autocomplete)
    game_new.autocomplete("options")(_options_autocomplete)

    @game_group.command(name="options", description="Change the lobby's options before the start (host)")
    @app_commands.describe(options="Options such as `decks=2 jokers=yes`; the others keep their values")
    async def game_options(self, interaction: discord.Interaction, options: str) -> None:
        await self._run(interaction, self.service.set_options(interaction.channel_id or 0, actor_of(interaction),
                                                              options))

    game_options.autocomplete("options")(_options_autocomplete)

    @game_group.command(name="cancel", description="Cancel the lobby or game here (host or channel managers)")
    async def game_cancel(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.cancel(interaction.channel_id or 0, actor_of(interaction)))

    # --- playing ----------------------------------------------------------------------

    @game_group.command(name="kick", description="Remove a player from the game here; a bot keeps their seat")
    @app_commands.describe(member="The player to remove (host or moderators)")
    async def kick(self, interaction: discord.Interaction, member: discord.User) -> None:  # (also one who left)
        await self._run(interaction, self.service.kick(interaction.channel_id or 0, actor_of(interaction),
                                                       Actor(member.id, member.display_name)))

    @game_group.command(name="replace", description="Give a player's seat to another member or a bot (moderators)")
    @app_commands.describe(member="The player whose seat changes hands", by="Who takes it (leave empty for a bot)")
    async def replace(self, interaction: discord.Interaction, member: discord.User,  # (also one who left)
                      by: discord.Member | None = None) -> None:
        new = Actor(by.id, by.display_name) if by is not None else None
        await self._run(interaction, self.service.replace(interaction.channel_id or 0, actor_of(interaction),
                                                          Actor(member.id, member.display_name), new))

    @game_group.command(name="pause", description="Pause the turn clock of the game here (host or moderators)")
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.pause_clock(interaction.channel_id or 0, actor_of(interaction), True))

    @game_group.command(name="resume", description="Restart the paused turn clock of the game here")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.pause_clock(interaction.channel_id or 0, actor_of(interaction),
                                                              False))
    @app_commands.command(name="move", description="Play a move (start typing to see your legal moves)")
    @app_commands.describe(move="Your move, e.g. `draw`, `place 2`, `merge 1 onto 2`")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await self._run(interaction, self.service.submit(actor_of(interaction), move,
                                                          channel_id=interaction.channel_id or 0))

    @move.autocomplete("move")
    async def _move_autocomplete(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[str]]:
        if self.bot.closing:
            return []
        self._working()
        # Discord wants the answer within 3 s of the keystroke: past AUTOCOMPLETE_WITHIN the answer is what is known.
        # (The keystroke's age is read against Discord's clock, in its id: a clock behind Discord's never waits
        # longer than AUTOCOMPLETE_WITHIN, one far ahead still gives the database AUTOCOMPLETE_LEAST.)
        age = max((discord.utils.utcnow() - interaction.created_at).total_seconds(), 0.0)
        within = max(AUTOCOMPLETE_WITHIN - age, AUTOCOMPLETE_LEAST)
        try:  # from the choices worked out at this position before, if any (every keystroke asks)
            choices = await self.quick.choices(interaction.channel_id or 0, actor_of(interaction), current,
                                               within=within)
        except Exception:
            log.exception("autocomplete failed in channel %s", interaction.channel_id)
            return []
        return [app_commands.Choice(name=f"{c.notation} — {c.label}"[:100], value=c.notation[:100])
                for c in choices[:25]]

    @app_commands.command(name="resign", description="Resign from the game here")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.resign(interaction.channel_id or 0, actor_of(interaction)))

    @app_commands.command(name="settings", description="This server's defaults for games (Manage Server to change)")
    @app_commands.describe(clock="Default turn clock of new lobbies", timeout="What a late turn does",
                           archive_hours="Hours before a finished game's thread is archived (1-168)",
                           reminders="Turn reminders a player gets at most each day (0-20)",
                           away_days="The longest /away vacation (0-60 days)",
                           organiser="A role whose members may run tournaments (name it again to clear it)")
    @app_commands.choices(
        clock=[app_commands.Choice(name=c, value=c) for c in CLOCKS],
        timeout=[app_commands.Choice(name=t, value=t) for t in ON_TIMEOUT])
    async def settings(self, interaction: discord.Interaction, clock: str | None = None, timeout: str | None = None,
                       archive_hours: int | None = None, reminders: int | None = None,
                       away_days: int | None = None, organiser: discord.Role | None = None) -> None:
        perms = interaction.permissions
        await self._run(interaction, self.service.settings(interaction.guild_id, actor_of(interaction), clock,
                                                           timeout, archive_hours,
                                                           bool(perms and perms.manage_guild), reminders, away_days,
                                                           organiser.id if organiser else None))

    @app_commands.command(name="notify", description="How you are told it is your turn: mention, DM or both")
    @app_commands.describe(mode="mention (default), dm, or both")
    @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in ("mention", "dm", "both")])
    async def notify(self, interaction: discord.Interaction, mode: str) -> None:
        await self._run(interaction, self.service.set_notify(actor_of(interaction), mode))

    @app_commands.command(name="away", description="A vacation: stop your turn clocks for some days (0 to return)")
    @app_commands.describe(days="How many days (up to the server's limit, 14 unless set; 0 ends your vacation)")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60]) -> None:
        await self._run(interaction, self.service.set_away(actor_of(interaction), days, interaction.guild_id))

    @app_commands.command(name="undo", description="Take back your last move while it is still your turn")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.undo(interaction.channel_id or 0, actor_of(interaction)))

    @app_commands.command(name="replay", description="The finished game here, animated, with its move log as a file")
    @app_commands.describe(table="A finished game's table number, as /history shows it (shown only to you)")
    async def replay(self, interaction: discord.Interaction, table: app_commands.Range[int, 1] | None = None) -> None:
        if not await self._defer(interaction):
            return
        out = await self._ask(interaction, self.service.replay(interaction.channel_id or 0, table,
                                                               interaction.guild_id, interaction.user.id))
        if out is not None and table is not None:
            await self.deliver(interaction, out)
            return
        # nothing is owed if Discord refuses it: the caller is told so, and may ask again
        if out is not None and await self.deliver(interaction, out, refused=REPLAY_NOT_POSTED):
            await self._private(interaction, "Replay posted.")

    @app_commands.command(name="mygames", description="Your games in every server (and DMs): which wait for you")
    async def mygames(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.my_games(interaction.guild_id, actor_of(interaction)))

    @app_commands.command(name="hand", description="Your private view of the game here (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self._run(interaction, self.service.hand(interaction.channel_id, actor_of(interaction)))

    # --- information ------------------------------------------------------------------
    @app_commands.command(name="board", description="Post the current board here, or look back at an earlier one")
    @app_commands.describe(move="Look back, privately, at the board as it was at this position (1 is the start)")
    async def board(self, interaction: discord.Interaction, move: app_commands.Range[int, 1] | None = None) -> None:
        if not await self._defer(interaction):
            return
        if move is not None:
            shown = await self._ask(interaction, self.service.presenter.look_back(
                move, channel_id=interaction.channel_id or 0))
            if shown is not None:
                await interaction.followup.send(ephemeral=True, **look_kwargs(shown))
            return
        out = await self._ask(interaction, self.service.board(interaction.channel_id or 0))
        if out is not None and await self.deliver(interaction, out):
            await self._private(interaction, "Board posted." if out.public else "Here it is.")

    async def on_look(self, interaction: discord.Interaction, table_id: int, position: int | None) -> None:
        """A step button on a private look back: the same message shows that position (None: the latest)."""
        if not await self._defer(interaction, private=False):
            return
        shown = await self._ask(interaction, self.service.presenter.look_back(position, table_id=table_id,
                                                                              guild_id=interaction.guild_id))
        if shown is not None:
            await interaction.edit_original_response(**for_edit(look_kwargs(shown)))

    @app_commands.command(name="status", description="Players, scores and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        await self._text(interaction, self.service.status(interaction.channel_id or 0))

    @app_commands.command(name="log", description="Every move of the game here, page by page (newest first shown)")
    @app_commands.describe(page="Which page: 1 is the oldest (default: the newest)",
                           count="Only the latest moves, this many (1–50)")
    async def log_cmd(self, interaction: discord.Interaction, page: app_commands.Range[int, 1] | None = None,
                      count: app_commands.Range[int, 1, 50] | None = None) -> None:
        if not await self._defer(interaction):
            return
        shown = await self._ask(interaction, self.service.log_page(channel_id=interaction.channel_id or 0, page=page,
                                                                   last=count))
        if shown is not None:
            await interaction.followup.send(ephemeral=True, **log_kwargs(shown))

    async def on_log_page(self, interaction: discord.Interaction, table_id: int, page: int) -> None:
        """A page button on a private /log message: the same message shows that page."""
        if not await self._defer(interaction, private=False):
            return
        shown = await self._ask(interaction, self.service.log_page(table_id=table_id, page=page))
        if shown is not None:
            await interaction.edit_original_response(**log_kwargs(shown))

    async def _text(self, interaction: discord.Interaction, work: Awaitable[str]) -> None:
        async def wrap() -> Outcome:
            return Outcome(reply=await work)
        await self._run(interaction, wrap())

    @app_commands.command(name="rules", description="How to play a game")
    @app_commands.describe(game="Which game (default: the one here)")
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if not await self._defer(interaction):
            return
        key = game
        if key is None:
            key = await self.service.game_here(interaction.channel_id or 0)
        if key is None:
            names = ", ".join(f"`{g.key}`" for g in self.service.registry.all())
            await self._private(interaction, f"Which game? Try `/rules game:` with one of {names}.")
            return
        known = self.service.registry.get(key)
        path = self.service.registry.entry(key).rules_page if known is not None else None
        if known is None or path is None or not path.exists():
            await self._private(interaction, f"I have no rules for `{key}`.")
            return
        await interaction.followup.send(**quick_rules_kwargs(key, known.name, path.read_text(encoding="utf-8")),
                                        ephemeral=True)

    async def on_full_rules(self, interaction: discord.Interaction, key: str) -> None:
        """The whole rules page of ``key``, privately (after /rules' one-screen summary)."""
        if not await self._defer(interaction):
            return
        known = self.service.registry.get(key)
        path = self.service.registry.entry(key).rules_page if known is not None else None
        if known is None or path is None or not path.exists():
            await self._private(interaction, f"I have no rules for `{key}`.")
            return
        for embed in rules_embeds(known.name, path.read_text(encoding="utf-8")):
            await interaction.followup.send(embed=embed, ephemeral=True)

    rules.autocomplete("game")(_game_autocomplete)

    @app_commands.command(name="help", description="What this bot does and its commands")
    async def help(self, interaction: discord.Interaction) -> None:
        games = ", ".join(f"{g.name} ({players(g.min_players, g.max_players)})" for g in self.service.registry.all())
        text = (
            f"**Blockhouse** runs turn-based tabletop games in this server. Games: {games}.\n"
            "`/game new` open a lobby (in a new thread) · `/game options` change its options · "
            "`/game cancel` cancel it\n"
            "`/move` play a move (autocomplete lists yours) — or use the buttons under the board\n"
            "`/hand` your private view · `/mygames` your games everywhere · "
            "`/board` repost the board (`move:` looks back) · "
            "`/undo` take back your last move · `/replay` a finished game, animated · `/status` scores and turn · "
            "`/log` every move, page by page\n`/rules` how to play · `/resign` leave a game in progress\n"
            "`/notify` how your turn is announced · `/away` a vacation: your turn clocks wait\n"
            "`/profile` games, wins and ratings · `/history` past games · `/leaderboard` the best players · "
            "`/ratings help` how ratings work · `/tournament standings` a tournament's table · "
            "`/tournament drop` leave one\n"
            "Hosts and moderators: `/game kick` remove a player (a bot keeps the seat) · `/game replace` give a "
            "seat to someone else · `/game pause` and `/game resume` the turn clock · `/settings` the server's "
            "defaults · `/ratings settings` what is rated · `/ratings rebuild` ratings from the results · "
            "`/tournament create`, `/tournament start`, `/tournament report` (a result), `/tournament pause` and "
            "`/tournament cancel` run a tournament"
        )
        await interaction.response.send_message(text, ephemeral=True)


def look_kwargs(shown: LookBack) -> dict[str, Any]:
    """A look back, privately: its board and buttons to the start, the position before, the one after and the
    latest (each names the position it shows: a click after a restart needs nothing else)."""
    assert shown.reply_post is not None and shown.table_id is not None
    kwargs = message_kwargs(shown.reply_post, ephemeral=True)
    view = DynamicView()
    at, last, table = shown.position, shown.positions, shown.table_id
    view.add_item(LookButton(table, 1, "first", disabled=at == 1))
    view.add_item(LookButton(table, max(1, at - 1), "back", disabled=at == 1))
    view.add_item(LookButton(table, min(last, at + 1), "fwd", disabled=at == last))
    view.add_item(LookButton(table, last, "last", disabled=at == last))
    kwargs["view"] = view
    return kwargs


def played_embed(message: discord.Message, played: bool = True) -> discord.Embed | None:
    """The card of a private menu or preview once its move is played (or, ``played`` false, cancelled by the game):
    it no longer asks for a move (nor says "nothing is played until you submit"). A menu that had no card (a second
    level, opened on its own) gets none; the card speaks of a picture only if it has one."""
    if not message.embeds:
        return None
    before = message.embeds[0]
    title = before.title or ""
    picture = bool(before.image and before.image.url)
    done = "Played" if played else "Not played"
    embed = discord.Embed(title=title.replace("Preview", done).replace("Your view", done) or None,
                          colour=before.colour)
    if picture:
        embed.description = ("The picture shows your pick." if title.startswith("Preview")
                             else "The picture shows the position before your move.")
        embed.set_image(url=before.image.url)
    return embed if embed.title or picture else None


def _component_ids(message: discord.Message | None) -> set[str]:
    ids: set[str] = set()
    for row in message.components if message is not None else ():
        for child in getattr(row, "children", (row,)):
            custom_id = getattr(child, "custom_id", None)
            if custom_id:
                ids.add(custom_id)
    return ids


def _opt_text(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _without_content(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if k != "content"}
