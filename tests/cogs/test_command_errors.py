"""When a command of any cog fails, or is given what it can't take: the member is answered privately, the log says
which command, user and channel, and nothing is counted as our error that was not. Also removing or replacing a
player who has left the server, which Discord gives the bot as a user, not a member."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

from cogs.controls import REFUSED
from tests.cogs.discord_helpers import last_board
from tests.cogs.test_races import lobby_card


def said(res: Any) -> str:
    """Every word the member was answered with, each answer checked to be private."""
    shown = ([res.response] if res.response is not None else []) + list(res.followups)
    assert all(m.ephemeral for m in shown), "an answer everybody could see"
    return "\n".join(m.content or "" for m in shown)


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def a_game(env: Any) -> tuple[Any, Any, Any, Any, Any]:
    """A server with a moderator, and a game of Breaks between alice (the host) and bob in a thread of #games:
    (guild, thread, moderator, alice, bob)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("robert"), nick="bob")  # plays as "bob", the server's nickname
    await alice.slash(channel, "game new", game="breaks")
    await bob.click(lobby_card(channel), label="Join")
    await alice.click(lobby_card(channel), label="Start")
    return guild, channel.threads[0], mod, alice, bob


async def test_the_host_removes_a_player_who_has_left_the_server(simcord_env: Any,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    guild, thread, _mod, alice, bob = await a_game(simcord_env)
    guild.remove_member(bob)  # Discord then gives the bot the option as a user, with no member (nor nickname)
    with caplog.at_level(logging.INFO):
        res = await alice.slash(thread, "game kick", member=bob.user)
    assert "bob was removed from the game" in said(res) and not errors(caplog), said(res)
    board = last_board(thread)
    assert "bob was removed from the game by alice." in (board.embeds[0].description or ""), board.embeds[0].description


async def test_a_moderator_gives_the_seat_of_one_who_left_to_a_member_but_not_to_one_who_left(
        simcord_env: Any, caplog: pytest.LogCaptureFixture) -> None:
    guild, thread, mod, _alice, bob = await a_game(simcord_env)
    carl = guild.add_member(simcord_env.create_user("carl"))
    dave = guild.add_member(simcord_env.create_user("dave"))
    guild.remove_member(bob)
    guild.remove_member(dave)
    with caplog.at_level(logging.INFO):
        res = await mod.slash(thread, "game replace", member=bob.user, by=dave.user)
    assert "Name a member of this server." in said(res) and not errors(caplog), said(res)
    assert [type(e).__name__ for e in simcord_env.errors] == ["TransformerError"]  # (discord.py's, answered)
    assert "gave" not in (last_board(thread).embeds[0].description or "")
    res = await mod.slash(thread, "game replace", member=bob.user, by=carl)
    assert "mod gave bob's seat to carl." in said(res)


async def test_a_refused_answer_of_another_cogs_command_is_told_and_logged_with_its_context(
        simcord_env: Any, caplog: pytest.LogCaptureFixture) -> None:
    """/history's answer (a followup) refused once: the member still hears why, the warning names the command, the
    user and the channel, and it is not logged as an error of ours."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    simcord_env.inject_error("POST", "/webhooks/*", status=403, code=50013, message="Missing Permissions")
    with caplog.at_level(logging.INFO):
        res = await ann.slash(channel, "history")
    assert REFUSED in said(res)
    assert [type(e).__name__ for e in simcord_env.errors] == ["CommandInvokeError"]  # (the refusal, answered)
    (warning,) = [r.getMessage() for r in caplog.records if "Discord refused a call" in r.getMessage()]
    assert "/history" in warning and str(ann.id) in warning and str(channel.id) in warning
    assert not errors(caplog)


async def test_a_rematch_whose_thread_is_refused_opens_where_the_game_was_and_leaves_no_stray_message(
        simcord_env: Any) -> None:
    """Discord refuses the rematch's new thread (the bot may not create threads there): the rematch's lobby opens
    in the game's own thread, and the "opening a rematch…" message already sent to the channel is taken away."""
    guild, thread, _mod, alice, _bob = await a_game(simcord_env)
    channel = guild.channels["games"]
    await alice.slash(thread, "resign")
    before = [m.id for m in channel.history()]
    simcord_env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013,
                             message="Missing Permissions")
    await alice.click(last_board(thread), label="Rematch")
    assert [m.id for m in channel.history()] == before, [m.embeds[0].title for m in channel.history()
                                                          if m.id not in before and m.embeds]
    lobbies = await simcord_env.bot.db.tables_with_status("lobby")
    assert len(lobbies) == 1 and lobbies[0].channel_id == thread.id
    assert len(channel.threads) == 1


async def test_a_command_discord_still_offers_from_before_an_update_is_answered(
        simcord_env: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Discord may still send a command this version of the bot no longer has (its commands synced a moment later):
    the member is told to try again shortly, and it is a warning, not an error of ours."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    ann = guild.add_member(simcord_env.create_user("ann"))
    simcord_env.bot.tree.remove_command("rules")  # (simcord keeps the command as it was synced)
    with caplog.at_level(logging.INFO):
        res = await ann.slash(channel, "rules")
    assert "That command has just changed" in said(res)
    assert not errors(caplog) and any("out-of-date command 'rules'" in r.getMessage() for r in caplog.records)
    assert [type(e).__name__ for e in simcord_env.errors] == ["CommandNotFound"]
