"""Nothing lost between the database and Discord (issue 14, item 2): a committed move's board is owed in the
move's own transaction (the outbox) until it is posted, and a process that died between the commit and the post
posts it at the next start."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.game import GameCog
from tests.cogs.discord_helpers import board_messages, last_board, moves_made, to_act
from tests.cogs.test_game_flow import open_two_player_table, play_one
from tests.support import make_bot


async def test_a_board_lost_to_a_crash_after_the_commit_is_posted_at_the_next_start(
        simcord_env: Any, db_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}
    for turn in range(3):
        board = last_board(thread)
        await play_one(members[to_act(board)[0]], thread, board, turn)
    assert await simcord_env.bot.db.undelivered() == [], "every posted board is marked delivered"
    boards, made = len(board_messages(thread)), await moves_made(simcord_env.bot, thread)

    # The process dies right after the commit: the move is stored, nothing reaches the channel.
    async def died(self: GameCog, interaction: Any, out: Any) -> None:
        """deliver() of a process that is gone: nothing is posted, nothing marked delivered."""

    monkeypatch.setattr(GameCog, "deliver", died)
    mover = members[to_act(last_board(thread))[0]]
    for _ in range(3):  # typed moves until one ends the turn (a Breaks draw continues it privately)
        choices = await mover.autocomplete(thread, "move", "move", "")
        await mover.slash(thread, "move", move=choices[0]["value"])
        if await simcord_env.bot.db.undelivered():
            break
    monkeypatch.undo()
    assert await moves_made(simcord_env.bot, thread) > made, "the moves were committed"
    assert len(board_messages(thread)) == boards, "and never posted"
    owed = await simcord_env.bot.db.undelivered()
    assert len(owed) == 1

    old = simcord_env.bot
    await old.db.close()
    await simcord_env.restart_bot(make_bot(db_path))
    await simcord_env.settle()
    assert len(board_messages(thread)) == boards + 1, "the owed board is posted at start-up"
    reposted = last_board(thread)
    assert to_act(reposted) and to_act(reposted) != [mover.id], "and pings the player whose turn it is now"
    assert await simcord_env.bot.db.undelivered() == []
    # and the game goes on from it, with the reposted board's controls
    made = await moves_made(simcord_env.bot, thread)
    await play_one(members[to_act(reposted)[0]], thread, reposted, 4)
    assert await moves_made(simcord_env.bot, thread) == made + 1


async def test_when_discord_refuses_the_board_the_player_is_told_and_it_stays_owed(simcord_env: Any) -> None:
    """50013 (missing permission) on the game thread's posts: the move is kept, the mover is told the truth, /board
    does not claim 'Board posted.', and the board goes out once Discord accepts it."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}
    boards = len(board_messages(thread))
    simcord_env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                             message="Missing Permissions", times=None)
    mover = members[to_act(last_board(thread))[0]]
    told: list[str] = []
    for _ in range(3):  # typed moves until one ends the turn and so owes a board
        choices = await mover.autocomplete(thread, "move", "move", "")
        res = await mover.slash(thread, "move", move=choices[0]["value"])
        told += ([res.response.content] if res.response else []) + [f.content for f in res.followups]
        if await simcord_env.bot.db.undelivered():
            break
    assert await simcord_env.bot.db.undelivered(), "the board is owed"
    assert any("refused" in t and "saved" in t for t in told), told
    res = await mover.slash(thread, "board")
    texts = ([res.response.content] if res.response else []) + [f.content for f in res.followups]
    assert not any(t == "Board posted." for t in texts) and any("refused" in t for t in texts), texts
    simcord_env.backend.faults.clear()  # Discord accepts posts again
    res = await mover.slash(thread, "board")
    texts = ([res.response.content] if res.response else []) + [f.content for f in res.followups]
    assert "Board posted." in texts, texts
    assert len(board_messages(thread)) == boards + 1
    assert await simcord_env.bot.db.undelivered() == []


async def test_a_lobby_whose_message_discord_refuses_leaves_nothing_half_made(simcord_env: Any) -> None:
    """10008 while /game new edits its lobby message (or 50013 when it posts one in the channel): the person is told
    nothing was opened, and no unusable lobby is left blocking the channel (issue 14)."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))

    def said(res: Any) -> list[str]:
        return ([res.response.content] if res.response else []) + [f.content for f in res.followups]

    simcord_env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=404, code=10008,
                             message="Unknown Message", times=1)
    res = await alice.slash(channel, "game new", game="breaks")
    assert any("nothing was opened" in t for t in said(res)), said(res)
    assert await simcord_env.bot.db.tables_with_status("lobby") == []
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013,
                             message="Missing Permissions", times=1)
    res = await alice.slash(channel, "game new", game="breaks", thread=False)
    assert any("nothing was opened" in t for t in said(res)), said(res)
    assert await simcord_env.bot.db.open_table_in(channel.id) is None  # the channel is free
    res = await alice.slash(channel, "game new", game="breaks", thread=False)
    assert await simcord_env.bot.db.open_table_in(channel.id) is not None


async def test_archiving_a_finished_games_thread(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    await alice.slash(thread, "resign")
    cog = simcord_env.bot.get_cog("GameCog")
    assert isinstance(cog, GameCog)
    await cog._archive(thread.id)
    await simcord_env.settle()
    live = simcord_env.bot.get_channel(thread.id) or await simcord_env.bot.fetch_channel(thread.id)
    assert getattr(live, "archived", False)


async def alone_with_bots(env: Any, game: str, *levels: str) -> tuple[Any, Any]:
    """Alice opens ``game`` with bots of ``levels`` and starts it. Returns the game's thread and Alice."""
    from tests.cogs.test_bot_games import lobby

    channel = env.create_guild().create_text_channel("games")
    alice = channel.guild.add_member(env.create_user("alice"))
    await alice.slash(channel, "game new", game=game)
    for level in levels:
        await alice.click(lobby(channel), label=f"Add bot: {level}")
    await alice.click(lobby(channel), label="Start")
    return channel.threads[0], alice


async def refused(self: GameCog, channel_id: Any, post: Any, **_: Any) -> bool:
    return False  # Discord refused the board


async def test_a_board_owed_after_a_bots_reply_tells_the_persons_move_too(simcord_env: Any) -> None:
    """Alice's move is stored (unannounced) before the medium bot thinks, then the board with both moves is refused:
    the board posted later from the outbox tells Alice's move as well as the bot's."""
    thread, alice = await alone_with_bots(simcord_env, "blockers", "medium")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GameCog, "_post", refused)
        choices = await alice.autocomplete(thread, "move", "move", "")
        await alice.slash(thread, "move", move=choices[0]["value"])
    boards = len(board_messages(thread))
    await simcord_env.bot.get_cog("GameCog").redeliver()
    await simcord_env.settle()
    assert len(board_messages(thread)) == boards + 1
    told = last_board(thread).embeds[0].description or ""
    assert "alice played" in told and "Bot 1 (medium) played" in told, told
    simcord_env.bot.service.thinker.close()


async def test_a_board_owed_after_a_resignation_still_says_why_it_comes(simcord_env: Any) -> None:
    """Alice resigns and the bots play on; the board that says so is refused. Posted later from the outbox, it
    still opens with her resignation (which is in no move's events, so not in /log)."""
    simcord_env.bot.service.thinker.iterations = 20
    thread, alice = await alone_with_bots(simcord_env, "breaks", "medium", "easy")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GameCog, "_post", refused)
        await alice.slash(thread, "resign")
    assert await simcord_env.bot.db.undelivered(), "the board is owed"
    await simcord_env.bot.get_cog("GameCog").redeliver()
    await simcord_env.settle()
    told = last_board(thread).embeds[0].description or ""
    assert told.startswith("• alice resigned. Their seat plays on automatically"), told[:200]
    assert await simcord_env.bot.db.undelivered() == []
    simcord_env.bot.service.thinker.close()
