"""`/resign` answers once (issue 9: a two-player resignation said "You resigned." twice)."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import last_board
from tests.cogs.test_game_flow import lobby_message, open_two_player_table


def private_texts(res: Any) -> list[str]:
    shown = [res.response.message if hasattr(res.response, "message") else res.response]
    shown += [f.message for f in res.followups]
    return [m.content or "" for m in shown if m is not None]


async def test_two_player_resign_answers_once(simcord_env: Any) -> None:
    _, thread, alice, bob = await open_two_player_table(simcord_env)
    res = await bob.slash(thread, "resign")
    assert [t for t in private_texts(res) if "resigned" in t.lower()] == ["You resigned."]
    assert "Game over" in last_board(thread).content


async def test_three_player_resign_answers_once_and_the_game_goes_on(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann, ben, cy = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "ben", "cy"))
    await ann.slash(channel, "game new", game="breaks")
    lobby = lobby_message(channel)
    await ben.click(lobby, label="Join")
    await cy.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    thread = channel.threads[0]
    res = await cy.slash(thread, "resign")
    assert [t for t in private_texts(res) if "resigned" in t.lower()] == ["You resigned."]
    board = last_board(thread)
    assert "Game over" not in (board.content or "") and "cy resigned" in (board.embeds[0].description or "")
