"""Turn clocks through Discord with a controllable clock (issue 12): a late turn is played by a bot and the board
says so; a reminder is sent once; a deadline that passed while the bot was down is handled after the restart; a
spectator never gets hidden information."""

from __future__ import annotations

import re
from typing import Any

from cogs.game import GameCog
from tests.cogs.discord_helpers import board_messages, last_board, to_act
from tests.support import make_bot


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def tick(env: Any) -> None:
    """One run of the cog's clock loop, as its 30-second timer would."""
    cog = env.bot.get_cog("GameCog")
    assert isinstance(cog, GameCog)
    await cog.turn_clock.coro(cog)
    await env.settle()


async def open_clocked(env: Any, options: str) -> tuple[Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob = guild.add_member(env.create_user("alice")), guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "game new", game="breaks", options=options)
    card = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    assert "turn clock 1h" in " ".join(f.value for f in card.embeds[0].fields)
    await bob.click(card, label="Join")
    await alice.click(card, label="Start")
    return channel.threads[0], alice, bob


async def test_a_late_turn_is_played_and_a_reminder_sent_once(db_path: Any, simcord_env: Any) -> None:
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    thread, alice, bob = await open_clocked(simcord_env, "clock=1h timeout=bot")
    late = to_act(last_board(thread))[0]
    boards = len(board_messages(thread))
    clock.now += 1801  # half time: one reminder mentioning the late player
    await tick(simcord_env)
    await tick(simcord_env)
    reminders = [m for m in thread.history() if "left for your turn" in (m.content or "")]
    assert len(reminders) == 1 and f"<@{late}>" in reminders[0].content
    clock.now += 1800  # past the deadline: a bot plays the turn, and the board says so
    await tick(simcord_env)
    assert len(board_messages(thread)) == boards + 1
    board = last_board(thread)
    assert "ran out of time: a bot played for them" in (board.embeds[0].description or "")
    assert to_act(board) and to_act(board)[0] != late


async def test_a_deadline_that_passed_while_the_bot_was_down_is_handled_after_the_restart(
        db_path: Any, simcord_env: Any) -> None:
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    thread, alice, bob = await open_clocked(simcord_env, "clock=1h")
    boards = len(board_messages(thread))
    old = simcord_env.bot
    await old.db.close()
    clock.now += 5 * 3600  # down for five hours
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    await tick(simcord_env)
    assert len(board_messages(thread)) == boards + 1
    assert "ran out of time" in (last_board(thread).embeds[0].description or "")
    await tick(simcord_env)
    assert len(board_messages(thread)) == boards + 1  # once


async def test_a_spectator_sees_the_public_board_only(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob = guild.add_member(simcord_env.create_user("alice")), guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    await alice.slash(channel, "game new", game="blockers")
    card = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await bob.click(card, label="Join")
    await alice.click(card, label="Start")
    thread = channel.threads[0]
    res = await carol.slash(thread, "hand")
    assert res.ephemeral and "not playing" in res.response.content
    res = await carol.click(last_board(thread), label="My view")
    texts = [f.content for f in res.followups] + ([res.response.content] if res.response else [])
    assert any("not playing" in t for t in texts), texts
    for message in board_messages(thread):  # the public boards never carry a rack
        assert all("your rack" not in (a.description or "").lower() for a in message.attachments)


async def test_pause_away_undo_and_each_timeout_policy_through_discord(db_path: Any, simcord_env: Any) -> None:
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob = guild.add_member(simcord_env.create_user("alice")), guild.add_member(simcord_env.create_user("bob"))
    members = {alice.id: alice, bob.id: bob}

    def said(res: Any) -> str:
        return " ".join(([res.response.content] if res.response else []) + [f.content for f in res.followups])

    async def open_game(options: str, game: str = "breakerblocks") -> Any:
        await alice.slash(channel, "game new", game=game, options=options)
        card = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
        await bob.click(card, label="Join")
        await alice.click(card, label="Start")
        return channel.threads[-1]

    # skip: the late player's turn is ended with the game's default move
    thread = await open_game("clock=1h timeout=skip")
    late = members[to_act(last_board(thread))[0]]
    await late.slash(thread, "move", move="draw 3")
    res = await late.slash(thread, "undo")
    assert "Took back `draw 3`" in said(res)
    res = await late.slash(thread, "game pause")  # not the host or a moderator, unless it is the host
    clock.now += 10 * 3600
    if late is alice:  # the host paused: nothing happens while paused
        await tick(simcord_env)
        assert "ran out of time" not in (last_board(thread).embeds[0].description or "")
        await alice.slash(thread, "game resume")
        clock.now += 2 * 3600
    else:
        assert "host or a moderator" in said(res)
    await tick(simcord_env)
    assert "the turn was skipped" in (last_board(thread).embeds[0].description or "")
    await alice.slash(thread, "resign")

    # forfeit, with the next player away first
    thread = await open_game("clock=1h timeout=forfeit")
    late = members[to_act(last_board(thread))[0]]
    assert "Away for" in said(await late.slash(thread, "away", days=1.0))
    clock.now += 2 * 3600
    await tick(simcord_env)
    assert "forfeited" not in (last_board(thread).embeds[0].description or "")  # away: the clock waits
    assert "Welcome back" in said(await late.slash(thread, "away", days=0.0))
    clock.now += 2 * 86400
    await tick(simcord_env)
    final = last_board(thread)
    assert "forfeited" in (final.embeds[0].description or "") and "Game over" in (final.content or "")
    assert "a bot keeps their seat" not in (final.embeds[0].description or ""), "the game is over: no seat goes on"


def said(res: Any) -> str:
    return " ".join(([res.response.content or ""] if res.response else []) + [f.content or "" for f in res.followups])


async def test_a_paused_clock_stays_paused_through_moves(db_path: Any, simcord_env: Any) -> None:
    """The host pauses; a turn is played anyway: the next turn does not start a clock of its own, nothing times out
    while paused, and resuming gives the new turn its whole time."""
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    thread, alice, bob = await open_clocked(simcord_env, "clock=1h timeout=bot")
    members = {alice.id: alice, bob.id: bob}
    assert said(await alice.slash(thread, "game pause")) == "Done."
    first = members[to_act(last_board(thread))[0]]
    await first.slash(thread, "move", move="draw")
    await first.slash(thread, "move", move="discard")
    second = to_act(last_board(thread))[0]
    assert second != first.id
    clock.now += 5 * 3600
    await tick(simcord_env)
    assert "ran out of time" not in (last_board(thread).embeds[0].description or "")
    assert to_act(last_board(thread)) == [second]
    await alice.slash(thread, "game resume")
    resumed = [m for m in thread.history() if m.embeds and "restarted the turn clock" in
               (m.embeds[0].description or "")]
    assert resumed and "1h left" in resumed[-1].embeds[0].description
    clock.now += 3599
    await tick(simcord_env)
    assert "ran out of time" not in (last_board(thread).embeds[0].description or "")
    clock.now += 2
    await tick(simcord_env)
    assert "ran out of time" in (last_board(thread).embeds[0].description or "")


async def test_a_dm_only_player_whose_dms_fail_is_mentioned_instead(db_path: Any, simcord_env: Any) -> None:
    """bob asked for DMs only (/notify dm), but his DMs are closed: once a DM to him has failed, his turns and
    reminders mention him in the game's channel, and his private view says so."""
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    bob_user = simcord_env.create_user("bob")
    alice, bob = guild.add_member(simcord_env.create_user("alice")), guild.add_member(bob_user)
    await bob.slash(channel, "notify", mode="dm")
    simcord_env.inject_error("POST", f"/channels/{bob_user.dm_channel.id}/messages", status=403, code=50007,
                             message="Cannot send messages to this user", times=None)
    await alice.slash(channel, "game new", game="blockers", options="clock=1h")
    card = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await bob.click(card, label="Join")
    await alice.click(card, label="Start")
    thread = channel.threads[0]
    members = {alice.id: alice, bob.id: bob}
    def playing(board: Any) -> list[int]:  # from the board's "To play" field (a DM-only player is not mentioned)
        field = next(f for f in board.embeds[0].fields if f.name == "To play")
        return [int(x) for x in re.findall(r"<@(\d+)>", field.value)]

    for _ in range(3):  # until it is bob's turn again (his rack's DM has failed by then)
        board = last_board(thread)
        mover = members[playing(board)[0]]
        if mover is bob and len(board_messages(thread)) > 1:
            break
        choices = await mover.autocomplete(thread, "move", "move", "")
        await mover.slash(thread, "move", move=choices[0]["value"])
    board = last_board(thread)
    assert playing(board) == [bob.id] and f"<@{bob.id}>" in (board.content or ""), board.content
    clock.now += 1801
    await tick(simcord_env)
    reminders = [m for m in thread.history() if "left for your turn" in (m.content or "")]
    assert reminders and f"<@{bob.id}>" in reminders[-1].content
    choices = await bob.autocomplete(thread, "move", "move", "")
    await bob.slash(thread, "move", move=choices[0]["value"])
    assert playing(last_board(thread)) == [alice.id]
    view = await bob.slash(thread, "hand")
    assert "You will be mentioned in the game's channel" in (view.response.embeds[0].description or "")


async def test_away_stops_reminders_and_coming_back_restarts_the_turns_time(db_path: Any, simcord_env: Any) -> None:
    """A player to act goes away: no reminder pings them while away (the deadline it gave would be untrue), and
    back early, their turn has the clock's time from then, not the rest of the vacation."""
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    thread, alice, bob = await open_clocked(simcord_env, "clock=1h timeout=bot")
    members = {alice.id: alice, bob.id: bob}
    late = members[to_act(last_board(thread))[0]]
    assert "Away for" in said(await late.slash(thread, "away", days=2.0))
    for step in (1801, 1801, 86400):  # half time, the deadline (moved past the vacation), a day later
        clock.now += step
        await tick(simcord_env)
    assert not [m for m in thread.history() if "left for your turn" in (m.content or "")]
    assert "ran out of time" not in (last_board(thread).embeds[0].description or "")
    assert "Welcome back" in said(await late.slash(thread, "away", days=0.0))
    clock.now += 3601  # the turn's hour from coming back
    await tick(simcord_env)
    assert "ran out of time" in (last_board(thread).embeds[0].description or "")
