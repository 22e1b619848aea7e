"""The loopback double gives a channel's history as Discord does (newest first, ``limit``, ``before``, ``after``): after
a restart the bot looks there for a board posted just before its process died, so that it does not post it twice.
(Without it, every such board came again, and the bench's members took the repeated board of the same position for
the answer to a click the dead process never played.)"""

from __future__ import annotations

import discord
import pytest
from discord.http import handle_message_parameters

from bench.loopback.double import EPHEMERAL, TOKEN, Double


async def test_history_newest_first_with_limit_before_and_after(monkeypatch: pytest.MonkeyPatch) -> None:
    double = Double()
    url = await double.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{url}/api/v10")
    channel = double.create_text_channel(double.create_guild("g"), "games")
    http = discord.http.HTTPClient(discord.utils.MISSING)
    try:
        await http.static_login(TOKEN)
        sent = []
        for i in range(5):
            with handle_message_parameters(content=f"board {i}") as params:
                sent.append(int((await http.send_message(channel.id, params=params))["id"]))
        newest = await http.logs_from(channel.id, 3)
        assert [int(m["id"]) for m in newest] == sent[:1:-1]  # boards 4, 3, 2
        assert [m["content"] for m in await http.logs_from(channel.id, 50, before=sent[2])] == ["board 1", "board 0"]
        assert [m["content"] for m in await http.logs_from(channel.id, 2, after=sent[1])] == ["board 3", "board 2"]
        double.messages[channel.id][sent[3]].flags |= EPHEMERAL  # an answer only its member sees: not in the history
        assert [m["content"] for m in await http.logs_from(channel.id, 3)] == ["board 4", "board 2", "board 1"]
        with pytest.raises(discord.HTTPException):
            await http.logs_from(channel.id, 3, around=sent[2])  # (discord.py's history never sends it)
    finally:
        await http.close()
        await double.stop()
