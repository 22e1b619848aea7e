"""Hidden information through Discord: private views by DM, /hand as the fallback when DMs are closed.

Breaks has no hidden hands, so this uses High Card, the small hidden-hand game the service tests use.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
import simcord
from PIL import Image, ImageDraw

from tables.catalog import Catalog, GameEntry, default_catalog
from tests.cogs.discord_helpers import last_board, to_act
from tests.support import make_bot
from tests.tables.hidden_game import HighCard


def text_renderer(view: Mapping[str, Any], names: Sequence[str]) -> bytes:
    """A plain picture of the view, enough for a test game."""
    img = Image.new("RGB", (480, 270), "white")
    ImageDraw.Draw(img).text((10, 10), repr(dict(view))[:300], fill="black")
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def simcord_bot(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    return make_bot(db_path, Catalog([default_catalog().entry("breaks"), GameEntry(HighCard(), text_renderer)]))


def dm_messages(member: Any) -> list[Any]:
    return [m for m in member.user.dm_channel.history() if m.embeds]


async def test_closed_dms_do_not_stop_the_game(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    simcord_env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007,
                             message="Cannot send messages to this user", times=None)

    await alice.slash(channel, "game new", game="highcard", thread=False)
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")

    # Alice got her private view by DM: her hand, as an image with the hand in words.
    dms = dm_messages(alice)
    assert dms and dms[-1].embeds[0].title.startswith("Your view")
    assert dms[-1].attachments and dms[-1].attachments[0].description.startswith("Your hand:")
    # Bob's DM failed: the channel says so once, and the public board never shows a hand.
    notices = [m for m in channel.history() if m.embeds and "direct messages" in (m.embeds[0].description or "")]
    assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].content
    assert "hand" not in (last_board(channel).attachments[0].description or "").lower().replace("in hand", "")

    members = {alice.id: alice, bob.id: bob}
    for _ in range(20):
        board = last_board(channel)
        if "Game over" in (board.content or ""):
            break
        player = members[to_act(board)[0]]
        if player is bob:
            res = await bob.slash(channel, "hand")  # the fallback: his hand, privately
            assert res.ephemeral and res.response.attachments[0].description.startswith("Your hand:")
        choices = await player.autocomplete(channel, "move", "move", "")
        await player.slash(channel, "move", move=choices[0]["value"])
    assert "Game over" in (last_board(channel).content or "")
    notices = [m for m in channel.history() if m.embeds and "direct messages" in (m.embeds[0].description or "")]
    assert len(notices) == 1  # said once, not on every move
    assert len(dm_messages(alice)) >= 3  # her view changed with every card she played
