"""Helpers for driving the bot through simcord like a person would."""

from __future__ import annotations

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


def custom_ids(message: discord.Message) -> list[str]:
    return [c.custom_id for row in message.components for c in row.children if getattr(c, "custom_id", None)]


def move_buttons(message: discord.Message) -> list[Any]:
    return [c for row in message.components for c in row.children
            if isinstance(c, discord.Button) and (c.custom_id or "").startswith("bh:mv:")]


def move_select(message: discord.Message) -> Any | None:
    for row in message.components:
        for c in row.children:
            if isinstance(c, discord.SelectMenu) and (c.custom_id or "").startswith("bh:pick:"):
                return c
    return None
