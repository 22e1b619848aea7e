"""Posts and edits whose answer the bot does not read.

discord.py builds a whole :class:`discord.Message` (its author, embeds, attachments, every component) from Discord's
answer to each message it sends or edits, and the bot reads at most the new message's id: on a busy evening that
was about 6 % of the bot's CPU per move (bench/README.md, "discord.py's answers left unread"). These make the very
same requests through discord.py's own HTTP layer (``handle_message_parameters``, the bot's HTTP client, the
interaction webhook adapter: its rate limits, retries and errors included) and read only the id.

They lean on discord.py's internals as of 2.7 (requirements.txt pins the version): every offline test of the cogs
goes through them, so an upgrade that changes those internals fails there first."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context


@dataclass(frozen=True)
class Posted:
    """A message the bot posted (or found already posted): where, and its id."""

    channel: discord.abc.Messageable
    id: int


async def post(client: discord.Client, channel_id: int, **kwargs: Any) -> int:
    """``channel.send(**kwargs)``: the new message's id. An argument other than the content left out when it is
    ``None``, as ``send`` does."""
    given = {key: value for key, value in kwargs.items() if value is not None or key == "content"}
    with handle_message_parameters(nonce=secrets.randbits(64), previous_allowed_mentions=client.allowed_mentions,
                                   **given) as params:
        data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])


async def edit(client: discord.Client, channel_id: int, message_id: int, **kwargs: Any) -> None:
    """``channel.get_partial_message(message_id).edit(**kwargs)``: ``None`` removes (``view=None``: the controls)."""
    mentions = client.allowed_mentions if "content" in kwargs else None
    with handle_message_parameters(previous_allowed_mentions=mentions, **kwargs) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def edit_original(interaction: discord.Interaction, **kwargs: Any) -> None:
    """``interaction.edit_original_response(**kwargs)``: the answer to the interaction, edited."""
    http = interaction.client.http
    with handle_message_parameters(previous_allowed_mentions=interaction.client.allowed_mentions,
                                   **kwargs) as params:
        await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files)


async def followup(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False,
                   **kwargs: Any) -> None:
    """``interaction.followup.send(content, ephemeral=..., **kwargs)``: another message answering the interaction
    (through the interaction's webhook: the application's id and the interaction's token). An argument ``None`` is
    left out, the content too, as ``send`` does."""
    http = interaction.client.http
    given = {key: value for key, value in kwargs.items() if value is not None}
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else discord.utils.MISSING
    text = discord.utils.MISSING if content is None else content
    with handle_message_parameters(content=text, flags=flags, previous_allowed_mentions=interaction.client.
                                   allowed_mentions, **given) as params:
        await async_context.get().execute_webhook(
            interaction.application_id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files,
            thread_id=None, wait=True, with_components="view" in given)
