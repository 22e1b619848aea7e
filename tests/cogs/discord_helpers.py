"""Helpers for driving the bot through simcord like a person would."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord

MENTION = re.compile(r"<@(\d+)>")


def board_messages(channel: Any) -> list[discord.Message]:
    """Messages in the channel that carry a board (an embed whose title names a table)."""
    return [m for m in channel.history() if m.embeds and (m.embeds[0].title or "").find("table #") >= 0
            and m.attachments]


def last_board(channel: Any) -> discord.Message:
    boards = board_messages(channel)
    assert boards, "no board was posted"
    return boards[-1]


def to_act(message: discord.Message) -> list[int]:
    return [int(x) for x in MENTION.findall(message.content or "")]


async def lobby_of_one(env: Any, game: str = "breaks", options: str | None = None) -> tuple[Any, Any]:
    """A server with a #games channel where alice opens a lobby: (channel, alice)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "game new", game=game, **({"options": options} if options else {}))
    return channel, alice


async def against_a_bot(env: Any, options: str | None = None) -> tuple[Any, Any]:
    """alice against one bot in Breaks, started: (the game's thread, alice)."""
    channel, alice = await lobby_of_one(env, options=options)
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await alice.click(lobby, label="Add bot: easy")
    await alice.click(lobby, label="Start")
    return channel.threads[0], alice


async def moves_made(bot: Any, channel: Any) -> int:
    """How many moves the game in ``channel`` has recorded (what was applied, whatever was posted)."""
    table = await bot.db.latest_table_in(channel.id)
    return len(await bot.db.moves(table.id)) if table is not None else 0


def components(message: discord.Message) -> list[Any]:
    """Every component on the message, row by row."""
    return [c for row in message.components for c in getattr(row, "children", ())]


def custom_ids(message: discord.Message) -> list[str]:
    return [c.custom_id for c in components(message) if getattr(c, "custom_id", None)]


def move_buttons(message: discord.Message) -> list[Any]:
    return [c for c in components(message)
            if isinstance(c, discord.Button) and (c.custom_id or "").startswith("bh:mv:")]


def move_select(message: discord.Message) -> Any | None:
    """The move menu's select on a message (a level of :mod:`tables.menu`), if any."""
    for c in components(message):
        if isinstance(c, discord.SelectMenu) and (c.custom_id or "").startswith("bh:step:"):
            return c
    return None


def submit_button(message: discord.Message) -> Any | None:
    """The Submit button of a previewed pick, if the message shows one."""
    return next((b for b in move_buttons(message) if b.label == "Submit"), None)


async def pick_through_menu(member: Any, message: Any, pick: int = 0, max_levels: int = 8,
                            one_move: bool = False) -> list[str]:
    """Pick option ``pick`` (or the last, if fewer) at each level of the move menu on ``message`` until a
    move is played. A public board's menu continues in a private message; a private one changes in place.
    ``one_move``: stop once a move is played, even if the player's next choices come with the answer (a turn of
    several actions). Returns the labels picked."""
    picked: list[str] = []
    msg = message.message if hasattr(message, "message") and not isinstance(message, discord.Message) else message
    for _ in range(max_levels):
        select = move_select(msg)
        buttons = move_buttons(msg)
        assert select is not None or buttons, "no move menu on the message"
        if select is None:  # a few moves: buttons
            button = buttons[min(pick, len(buttons) - 1)]
            picked.append(button.label or "")
            res = await member.click(msg, custom_id=button.custom_id)
            select_id = button.custom_id
        else:
            option = select.options[min(pick, len(select.options) - 1)]
            picked.append(option.label)
            res = await member.select(msg, [option.value], custom_id=select.custom_id)
            select_id = select.custom_id
        shown = [f.message for f in res.followups if f.ephemeral]
        if msg.flags.ephemeral and res.response is not None:
            shown.insert(0, res.response.message)  # the private menu, changed in place
        preview = next((m for m in shown if submit_button(m) is not None), None)
        if preview is not None:  # a preview of the pick: submit it
            picked.append("Submit")
            res = await member.click(preview, custom_id=submit_button(preview).custom_id)
            shown = [f.message for f in res.followups if f.ephemeral]
        nxt = next((m for m in shown if (move_select(m) is not None and move_select(m).custom_id != select_id)
                    or any(b.custom_id != select_id and b.label != "Submit" for b in move_buttons(m))), None)
        played = any("Played" in (m.content or "") for m in shown)
        if nxt is None or (one_move and played):
            return picked
        msg = nxt
    raise AssertionError(f"the menu went deeper than {max_levels} levels: {picked}")


class Gate:
    """Holds whatever passes it until opened; while held, simcord sees a declared wait for outside input
    (``reason``: what the test stands for, e.g. a saturated machine)."""

    def __init__(self, env: Any, reason: str = "held by the test") -> None:
        self.env = env
        self.reason = reason
        self.opened = asyncio.Event()
        self.waiting = 0

    async def wait(self) -> None:
        self.waiting += 1
        await self.env.external_wait(self.opened.wait(), reason=self.reason)
