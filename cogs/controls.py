"""Persistent message components.

Each is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries everything needed to
act (table id, table version, move notation), so buttons keep working after a restart
and a button from an earlier position is recognised as stale. Callbacks only parse the id
and hand over to the game cog; no game logic lives here.
"""

from __future__ import annotations

import contextvars
import logging
import re
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from tables.menu import MenuNode

if TYPE_CHECKING:
    from cogs.game import GameCog

LOBBY_ACTIONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
    "cancel": ("Cancel", discord.ButtonStyle.danger),
    "bot": ("Add bot: easy", discord.ButtonStyle.secondary),
    "botmedium": ("Add bot: medium", discord.ButtonStyle.secondary),
    "bothard": ("Add bot: hard", discord.ButtonStyle.secondary),
    "unbot": ("Remove bot", discord.ButtonStyle.secondary),
}
LOBBY_ROWS = {"join": 0, "leave": 0, "start": 0, "cancel": 0, "bot": 1, "botmedium": 1, "bothard": 1, "unbot": 1}
ACTIONS = "|".join(LOBBY_ACTIONS)
# Numbers in ids are bounded (a table id, a version or a page fits SQLite's integers with room to spare): an id
# with a larger or malformed number matches no template and is answered as an unknown control (cogs.game).
ID, VERSION, PAGE, PATH = r"[1-9][0-9]{0,11}", r"[0-9]{1,12}", r"[1-9][0-9]{0,5}", r"[0-9.]{0,60}"
SNOWFLAKE = r"[1-9][0-9]{0,19}"  # a Discord id (a member's, a server's)


log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's code when an interaction is answered too late (after 3 s unanswered)
HANDLING: contextvars.ContextVar[discord.Interaction | None] = contextvars.ContextVar("blockhouse_interaction",
                                                                                      default=None)
"""The interaction the current task handles (set by the bot's command tree for commands and autocompletes): a
failure discord.py logs itself (an autocomplete answered too late) is told with its command and how late."""


def expired(err: BaseException) -> bool:
    """Whether Discord refused an answer because the interaction had expired ("Unknown interaction")."""
    return isinstance(err, discord.NotFound) and err.code == UNKNOWN_INTERACTION


def note_expired(interaction: discord.Interaction | None, what: str | None = None) -> None:
    """An interaction Discord had already expired when it was answered (the machine too busy to answer within 3 s):
    one warning with the command and how late, and the bot's count (``Blockhouse.expired_interactions``, which the
    load bench reads). Never a traceback: nothing was done that needs undoing (a command or click is refused before
    any work when its acknowledgement fails; an autocomplete's list was only a suggestion)."""
    late = None
    client = None
    if interaction is not None:
        client = interaction.client
        late = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        what = describe(interaction)
    count = getattr(client, "expired_interactions", None)
    if isinstance(count, int) and client is not None:
        client.expired_interactions = count + 1  # type: ignore[attr-defined]
    log.warning("%s expired before it was answered (%s after it was made; Discord waits 3 s)", what or "an interaction",
                f"{late:.1f} s" if late is not None else "how long unknown")


def describe(interaction: discord.Interaction) -> str:
    """The command (and whether it was an autocomplete) or the control an interaction is for, for the log."""
    if interaction.command is not None:
        name = f"/{interaction.command.qualified_name}"
        return f"{name} autocomplete" if interaction.type is discord.InteractionType.autocomplete else name
    data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
    return f"component {str(data.get('custom_id', '?'))[:100]}"


class ExpiredAutocomplete(logging.Filter):
    """discord.py answers an autocomplete with what its callback returns and, when Discord refuses the answer because
    the interaction expired, logs the error with a full traceback (``CommandTree._call``): that record becomes a
    counted warning (:func:`note_expired`) instead. Any other record passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        err = record.exc_info[1] if record.exc_info else None
        if err is None or not expired(err):
            return True
        note_expired(HANDLING.get(), "an autocomplete")
        return False


class DynamicView(discord.ui.View):
    """The layout of a message's controls, every one a :class:`discord.ui.DynamicItem` dispatched by its custom id.

    Nothing needs the view object once the message is sent, so it never times out. discord.py gives a private
    (ephemeral) message's view a 15-minute timer otherwise: a task per answer that holds the view in memory and
    does nothing when it fires (a busy evening's thousands of answers keep thousands of such timers).
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        """Ignored: see the class."""

    def is_dispatchable(self) -> bool:
        """False, so that discord.py keeps no record of a sent view and looks for no item of it on a click: every
        click on a control of ours is run by ``GameCog.on_interaction`` from its custom id alone
        (:func:`run_control`). discord.py would otherwise rebuild the clicked message's whole view to find the item
        (``View.from_message``) and run it in a task of its own, on every click."""
        return False


async def _guard(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """Run a control's handler. Discord refusing one of its calls (a 429 or 500 after discord.py's retries, a
    token that expired, a message that is gone) is logged as a warning: the handlers leave nothing half-done
    when a call fails, and what a committed move owes stays in the outbox. Anything else is a defect: logged with
    its context and answered privately when Discord still takes an answer."""
    data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
    what = str(data.get("custom_id", "?"))[:100]
    try:
        await work
    except discord.HTTPException as err:
        if expired(err):
            note_expired(interaction)
            return
        log.warning("Discord refused a call while handling %r of user %s in channel %s: %s", what,
                    interaction.user.id, interaction.channel_id, err)
        await last_word(interaction, REFUSED)
    except Exception:
        log.exception("error handling %r of user %s in channel %s", what, interaction.user.id,
                      interaction.channel_id)
        await last_word(interaction, OOPS)


async def last_word(interaction: discord.Interaction, text: str) -> None:
    """A last private word after a failure, if Discord still takes one."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as err:
        if expired(err):
            note_expired(interaction)
            return
        log.warning("could not answer user %s after a failure: %s", interaction.user.id, err)


async def command_failed(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """A slash command of any cog that raised (the command tree's ``on_error``): logged with its command, user and
    channel, and the member answered privately. An option Discord gave in a form the command can't take (a user who
    is not a member here, say) is the member's to fix, not an error of ours."""
    original = getattr(error, "original", error)
    if expired(original):
        note_expired(interaction)
        return
    if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        # (Discord still offers a command as it was before this version of the bot synced its own)
        data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
        log.warning("an out-of-date command %r from user %s in channel %s: %s", data.get("name"), interaction.user.id,
                    interaction.channel_id, error)
        await last_word(interaction, "That command has just changed. Discord shows the new one within a minute or "
                                     "two (reopening the app helps): please try it again then.")
        return
    if isinstance(error, app_commands.TransformerError):
        log.info("%s: option %r of user %s in channel %s not usable: %s", describe(interaction), error.value,
                 interaction.user.id, interaction.channel_id, error)
        whom = " Name a member of this server." if error.type in (
            discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable) else ""
        await last_word(interaction, f"I can't use `{error.value}` for that option here.{whom}")
        return
    if isinstance(original, discord.HTTPException):
        # Discord refused one of the command's calls (its answer, after discord.py's own retries): the handlers
        # leave nothing half-done when a call fails, and a committed move's board stays owed
        log.warning("Discord refused a call of command %s for user %s in channel %s: %s", describe(interaction),
                    interaction.user.id, interaction.channel_id, original)
    else:
        log.error("command %s failed for user %s in channel %s (server %s)", describe(interaction),
                  interaction.user.id, interaction.channel_id, interaction.guild_id, exc_info=error)
    await last_word(interaction, REFUSED if isinstance(original, discord.HTTPException) else OOPS)


OOPS = "Something went wrong on my side; the error has been logged. `/board` shows the game as it stands."
REFUSED = ("Discord refused one of my messages just now. Anything you played is saved: `/board` shows the game as "
           "it stands.")


def _cog(interaction: discord.Interaction) -> GameCog:
    cog = cast(Any, interaction.client).get_cog("GameCog")
    if cog is None:  # pragma: no cover - the cog is always loaded with the bot
        raise RuntimeError("GameCog is not loaded")
    return cast("GameCog", cog)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=rf"bh:lobby:(?P<action>{ACTIONS}):(?P<table>{ID})"):
    def __init__(self, table_id: int, action: str) -> None:
        label, style = LOBBY_ACTIONS[action]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"bh:lobby:{action}:{table_id}",
                                           row=LOBBY_ROWS[action]))
        self.table_id = table_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LobbyButton:
        action = match["action"] if match["action"] in LOBBY_ACTIONS else "join"
        return cls(int(match["table"]), action)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_lobby_button(interaction, self.table_id, self.action))


class MoveButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"bh:mv:(?P<table>{ID}):(?P<version>{VERSION}):(?P<move>.{{1,80}})"):
    def __init__(self, table_id: int, version: int, notation: str, label: str = "", *, primary: bool = False,
                 row: int | None = None) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=(label or notation)[:80], style=style, row=row,
                                           custom_id=f"bh:mv:{table_id}:{version}:{notation}"[:100]))
        self.table_id = table_id
        self.version = version
        self.notation = notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> MoveButton:
        return cls(int(match["table"]), int(match["version"]), match["move"], getattr(item, "label", None) or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_move_control(interaction, self.table_id, self.version,
                                                                   self.notation))


class StepSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=rf"bh:step:(?P<table>{ID}):(?P<version>{VERSION}):(?P<path>{PATH})"):
    """One level of the move menu (:mod:`tables.menu`): picking an entry opens the next level or plays
    the move. The id holds the path of indexes to this level, for the table version it was made for; an entry that
    is a move carries its notation (``m:…``), so the move played is the one whose label was picked even if the
    menu has changed since (a decision beside the main line stays open while others move)."""

    def __init__(self, table_id: int, version: int, path: str = "", node: MenuNode | None = None,
                 placeholder: str = "Choose your move…") -> None:
        options = [discord.SelectOption(label=child.label[:100], value=_value(i, child),
                                        description=None if child.leaf else f"{child.moves} choices")
                   for i, child in enumerate(node.children)] if node is not None else []
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"bh:step:{table_id}:{version}:{path}", placeholder=placeholder[:150],
            options=options or [discord.SelectOption(label="…", value="0")], min_values=1, max_values=1)
        super().__init__(select)
        self.table_id = table_id
        self.version = version
        self.path = path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> StepSelect:
        return cls(int(match["table"]), int(match["version"]), match["path"])

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}  # type: ignore[assignment]
        values = self.item.values or list(data.get("values", []))
        value = str(values[0]) if values else ""
        if value.startswith("m:") and len(value) > 2:  # a move: played by its notation
            await _guard(interaction, _cog(interaction).on_step(interaction, self.table_id, self.version, self.path,
                                                                notation=value[2:]))
            return
        picked = value if value.isdigit() else ""
        path = f"{self.path}.{picked}" if self.path and picked else (self.path or picked)
        await _guard(interaction, _cog(interaction).on_step(interaction, self.table_id, self.version, path))


def _value(index: int, node: MenuNode) -> str:
    """A select option's value: ``m:`` and the notation of a move (if it fits Discord's 100 characters), else the
    entry's index."""
    if node.choice is not None and len(node.choice.notation) <= 98:
        return "m:" + node.choice.notation
    return str(index)


class StepBack(discord.ui.DynamicItem[discord.ui.Button],
               template=rf"bh:back:(?P<table>{ID}):(?P<version>{VERSION}):(?P<path>{PATH})"):
    """Goes up one level of the move menu."""

    def __init__(self, table_id: int, version: int, path: str = "") -> None:
        super().__init__(discord.ui.Button(label="Back", emoji="⬅️", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bh:back:{table_id}:{version}:{path}"))
        self.table_id = table_id
        self.version = version
        self.path = path

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> StepBack:
        return cls(int(match["table"]), int(match["version"]), match["path"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_step(interaction, self.table_id, self.version, self.path))


BOARD_STAMP = rf"(?::(?P<version>{VERSION}))?"  # the table version a board shows, on its "My view" or "Rematch"
# button: a board posted just before a crash is recognised in the channel (cogs.game); ids without it still work


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"bh:panel:(?P<table>{ID}){BOARD_STAMP}"):
    """Re-issues the clicker's private view and choices (ephemeral messages expire)."""

    def __init__(self, table_id: int, row: int | None = None, version: int | None = None) -> None:
        super().__init__(discord.ui.Button(label="My view", emoji="👁️", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bh:panel:{table_id}{_stamp(version)}", row=row))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PanelButton:
        return cls(int(match["table"]), version=_version(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_panel(interaction, self.table_id))


class RematchButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=rf"bh:rematch:(?P<table>{ID}){BOARD_STAMP}"):
    """Opens a new lobby with the same game, options and bots (players of the old game only)."""

    def __init__(self, table_id: int, version: int | None = None) -> None:
        super().__init__(discord.ui.Button(label="Rematch", emoji="🔁", style=discord.ButtonStyle.primary,
                                           custom_id=f"bh:rematch:{table_id}{_stamp(version)}"))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RematchButton:
        return cls(int(match["table"]), version=_version(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_rematch(interaction, self.table_id))


def _stamp(version: int | None) -> str:
    return "" if version is None else f":{version}"


def _version(match: re.Match[str]) -> int | None:
    return None if match["version"] is None else int(match["version"])


def board_stamp(custom_id: str) -> tuple[int, int] | None:
    """(table, version) of a board's stamped "My view" or "Rematch" button; None for any other id."""
    for item in (PanelButton, RematchButton):
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None and match["version"] is not None:
            return int(match["table"]), int(match["version"])
    return None


LOG_BUTTONS = {"first": ("⏮️", "Oldest"), "prev": ("◀️", "Older"), "next": ("▶️", "Newer"), "last": ("⏭️", "Newest")}


class LogButton(discord.ui.DynamicItem[discord.ui.Button],
                template=rf"bh:log:(?P<table>{ID}):(?P<page>{PAGE}):(?P<tag>first|prev|next|last)"):
    """Turns the private /log message to another page (the page number it shows; ``tag`` keeps ids distinct)."""

    def __init__(self, table_id: int, page: int, tag: str, *, disabled: bool = False) -> None:
        emoji, label = LOG_BUTTONS[tag]
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"bh:log:{table_id}:{page}:{tag}"))
        self.table_id = table_id
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LogButton:
        return cls(int(match["table"]), int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_log_page(interaction, self.table_id, self.page))


class RulesButton(discord.ui.DynamicItem[discord.ui.Button], template=r"bh:rules:(?P<game>[a-z0-9_]{1,40})"):
    """Under /rules' one-screen summary: the game's full rules, privately."""

    def __init__(self, game: str) -> None:
        super().__init__(discord.ui.Button(label="Full rules", emoji="📖", style=discord.ButtonStyle.secondary,
                                           custom_id=f"bh:rules:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RulesButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_full_rules(interaction, self.game))


HISTORY_BUTTONS = {"first": ("⏮️", "Newest"), "prev": ("◀️", "Newer"), "next": ("▶️", "Older"),
                   "last": ("⏭️", "Oldest")}  # past games come newest first: page 1 is the newest


class HistoryButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=rf"bh:hist:(?P<user>{SNOWFLAKE}):(?P<guild>0|{SNOWFLAKE}):(?P<game>[a-z0-9_]{{0,40}}):(?P<page>{PAGE}):"
                             r"(?P<tag>first|prev|next|last)"):
    """Turns a private /history message to another page of the member's past games (``guild`` 0: every server)."""

    def __init__(self, user_id: int, guild_id: int | None, game: str, page: int, tag: str, *,
                 disabled: bool = False) -> None:
        emoji, label = HISTORY_BUTTONS[tag]
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=discord.ButtonStyle.secondary,
                                           disabled=disabled,
                                           custom_id=f"bh:hist:{user_id}:{guild_id or 0}:{game}:{page}:{tag}"))
        self.user_id, self.guild_id, self.game, self.page = user_id, guild_id, game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HistoryButton:
        return cls(int(match["user"]), int(match["guild"]) or None, match["game"], int(match["page"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = cast(Any, interaction.client).get_cog("CommunityCog")
        await _guard(interaction, cog.on_history_page(interaction, self.user_id, self.guild_id, self.game, self.page))


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button],
                       template=rf"bh:tour:(?P<action>join|leave):(?P<tournament>{ID})"):
    """Join or Leave under a tournament's sign-up card."""

    def __init__(self, action: str, tournament_id: int) -> None:
        style = discord.ButtonStyle.success if action == "join" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=action.title(), style=style,
                                           custom_id=f"bh:tour:{action}:{tournament_id}"))
        self.action, self.tournament_id = action, tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> TournamentButton:
        return cls(match["action"], int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = cast(Any, interaction.client).get_cog("TournamentCog")
        await _guard(interaction, cog.on_button(interaction, self.action, self.tournament_id))


LOOK_BUTTONS = {"first": ("⏮️", "Start"), "back": ("◀️", "Back"), "fwd": ("▶️", "Forward"), "last": ("⏭️", "Latest")}


class LookButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"bh:look:(?P<table>{ID}):(?P<position>{PAGE}):(?P<tag>first|back|fwd|last)"):
    """Steps a private look back (``/board move:``) to another public position of the game: the one it names (from
    1, the start; ``tag`` keeps the ids of one message distinct). Anyone may look: only public boards show."""

    def __init__(self, table_id: int, position: int, tag: str, *, disabled: bool = False) -> None:
        emoji, label = LOOK_BUTTONS[tag]
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"bh:look:{table_id}:{position}:{tag}"))
        self.table_id = table_id
        self.position = position
        self.latest = tag == "last"  # the latest position when clicked (a game going on has had more since)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LookButton:
        return cls(int(match["table"]), int(match["position"]), match["tag"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _guard(interaction, _cog(interaction).on_look(interaction, self.table_id,
                                                                None if self.latest else self.position))


DYNAMIC_ITEMS = (LobbyButton, MoveButton, StepSelect, StepBack, PanelButton, RematchButton, LogButton, RulesButton,
                 HistoryButton, TournamentButton, LookButton)


def run_control(interaction: discord.Interaction, custom_id: str) -> Awaitable[None] | None:
    """The control ``custom_id`` names, built from the id alone and run (awaitable); None when the id is not one of
    the bot's controls, well formed (it matches no template)."""
    for factory in DYNAMIC_ITEMS:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return _run_item(factory, interaction, match)
    return None


async def _run_item(factory: type[discord.ui.DynamicItem[Any]], interaction: discord.Interaction,
                    match: re.Match[str]) -> None:
    item = await factory.from_custom_id(interaction, None, match)  # type: ignore[arg-type]
    await item.callback(interaction)
