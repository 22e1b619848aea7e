"""The crash windows: the process stops between a commit and its post, or between a post and its mark, and what the
change owed reaches the channel exactly once after the restart (issue 27). ``GameCog.stop_at`` stops delivery at
that point as a kill would; the restart is a new bot on the same database file."""

from __future__ import annotations

from typing import Any

from cogs.game import GameCog
from tests.cogs.discord_helpers import board_messages, last_board, moves_made, to_act
from tests.cogs.test_game_flow import lobby_message, open_two_player_table, play_one, world
from tests.support import make_bot


def cog_of(env: Any) -> GameCog:
    cog = env.bot.get_cog("GameCog")
    assert isinstance(cog, GameCog)
    return cog


async def restart(env: Any, db_path: Any) -> None:
    """The process is gone (its database closed, nothing more posted) and a new one starts on the same file."""
    await env.bot.db.close()
    await env.restart_bot(make_bot(db_path))
    await env.settle()


def labels(message: Any) -> set[str]:
    return {c.label for row in message.components for c in getattr(row, "children", ()) if getattr(c, "label", None)}


async def play_until_a_board_is_owed(env: Any, thread: Any, members: dict[int, Any]) -> Any:
    """The player to act plays typed moves until one ends the turn (a Breaks draw goes on privately); returns them."""
    mover = members[to_act(last_board(thread))[0]]
    for _ in range(3):
        choices = await mover.autocomplete(thread, "move", "move", "")
        await mover.slash(thread, "move", move=choices[0]["value"])
        if await env.bot.db.undelivered():
            return mover
    raise AssertionError("no move owed a board")


async def test_a_board_posted_just_before_a_crash_is_not_posted_again(simcord_env: Any, db_path: Any) -> None:
    """Killed after the board reached the thread but before it was marked delivered: after the restart the thread
    shows that board once, and the next player is mentioned once."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}
    await play_one(members[to_act(last_board(thread))[0]], thread, last_board(thread), 0)
    boards = len(board_messages(thread))
    cog_of(simcord_env).stop_at = "posted"
    mover = await play_until_a_board_is_owed(simcord_env, thread, members)
    assert len(board_messages(thread)) == boards + 1, "the board reached the thread"
    nxt = to_act(last_board(thread))
    assert nxt and nxt != [mover.id]
    assert await simcord_env.bot.db.undelivered(), "and was not marked delivered"

    def mentions() -> int:
        return sum(1 for m in thread.history() if f"<@{nxt[0]}>" in (m.content or ""))

    before = mentions()
    await restart(simcord_env, db_path)
    assert len(board_messages(thread)) == boards + 1, "the board is not posted again"
    assert mentions() == before, "nor the next player mentioned again"
    assert await simcord_env.bot.db.undelivered() == [], "it is marked delivered now"
    # and the game goes on from that board's controls
    made = await moves_made(simcord_env.bot, thread)
    await play_one(members[nxt[0]], thread, last_board(thread), 1)
    assert await moves_made(simcord_env.bot, thread) == made + 1


async def test_a_board_committed_but_never_posted_is_posted_once_after_a_crash(simcord_env: Any,
                                                                               db_path: Any) -> None:
    """Killed between the commit and the post: the restart posts the board, once."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}
    boards = len(board_messages(thread))
    cog_of(simcord_env).stop_at = "committed"
    await play_until_a_board_is_owed(simcord_env, thread, members)
    assert len(board_messages(thread)) == boards
    await restart(simcord_env, db_path)
    assert len(board_messages(thread)) == boards + 1
    assert await simcord_env.bot.db.undelivered() == []


async def test_a_start_cut_short_by_a_crash_posts_its_first_board_and_closes_the_lobby(
        simcord_env: Any, db_path: Any) -> None:
    """Start is pressed and the process dies before anything is posted: after the restart the thread has the first
    board, the first player is mentioned, and the lobby card says the game is on (no Join or Start)."""
    _, channel, alice, bob = world(simcord_env)
    await alice.slash(channel, "game new", game="breaks")
    thread = channel.threads[0]
    await bob.click(lobby_message(channel), label="Join")
    cog_of(simcord_env).stop_at = "committed"
    await alice.click(lobby_message(channel), label="Start")
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert table is not None and table.status == "active", "the start was committed"
    assert board_messages(thread) == [], "and nothing was posted"
    assert "Start" in labels(lobby_message(channel))

    await restart(simcord_env, db_path)
    boards = board_messages(thread)
    assert len(boards) == 1, "the first board is posted"
    assert "Breaks begins!" in (boards[0].embeds[0].description or "")
    assert to_act(boards[0]) and set(to_act(boards[0])) <= {alice.id, bob.id}, "and names who plays first"
    lobby = lobby_message(channel)
    assert not {"Join", "Start"} & labels(lobby), "the lobby is closed"
    assert "In progress" in (lobby.embeds[0].description or "")
    assert await simcord_env.bot.db.undelivered() == []
    # the start is told once: a second restart posts nothing more
    await restart(simcord_env, db_path)
    assert len(board_messages(thread)) == 1


async def test_a_lobby_cut_short_by_a_crash_gets_its_card_after_the_restart(simcord_env: Any, db_path: Any) -> None:
    """Killed right after ``/game new`` stored the lobby: the placeholder message becomes the lobby card with its
    buttons after the restart, and the lobby works."""
    _, channel, alice, bob = world(simcord_env)
    cog_of(simcord_env).stop_at = "committed"
    await alice.slash(channel, "game new", game="blockers")
    placeholder = [m for m in channel.history() if m.embeds][-1]
    assert "opening a table" in (placeholder.embeds[0].title or "")

    await restart(simcord_env, db_path)
    lobby = lobby_message(channel)
    assert lobby.id == placeholder.id, "the placeholder became the lobby card"
    assert {"Join", "Start", "Cancel"} <= labels(lobby)
    assert await simcord_env.bot.db.undelivered() == []
    await bob.click(lobby, label="Join")
    assert "bob" in lobby_message(channel).embeds[0].fields[0].value


async def test_a_lobby_in_the_channel_cut_short_by_a_crash_is_posted_once(simcord_env: Any, db_path: Any) -> None:
    """``thread:false``: killed before the lobby message was posted; the restart posts it, once."""
    _, channel, alice, _ = world(simcord_env)
    cog_of(simcord_env).stop_at = "committed"
    await alice.slash(channel, "game new", game="breaks", thread=False)
    assert not [m for m in channel.history() if m.embeds]
    await restart(simcord_env, db_path)
    cards = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")]
    assert len(cards) == 1 and {"Join", "Start"} <= labels(cards[0])
    await restart(simcord_env, db_path)
    assert len([m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")]) == 1


async def test_a_cancel_notice_posted_just_before_a_crash_is_not_posted_again(simcord_env: Any, db_path: Any) -> None:
    """A notice has no buttons to carry a version: it is recognised by its card among the thread's latest messages."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    cog_of(simcord_env).stop_at = "posted"
    await alice.slash(thread, "game cancel")

    def notices() -> int:
        return sum(1 for m in thread.history() if m.embeds and m.embeds[0].description == "Game cancelled by alice.")

    assert notices() == 1 and await simcord_env.bot.db.undelivered()
    await restart(simcord_env, db_path)
    assert notices() == 1, "the notice is not posted again"
    assert await simcord_env.bot.db.undelivered() == []
    assert not {"Join", "Start"} & labels(lobby_message(channel))


async def test_a_start_whose_lobby_card_discord_refuses_keeps_only_the_card_owed(simcord_env: Any) -> None:
    """The first board is posted and its DMs sent; the lobby card's edit is refused. Only the card stays owed: `/board`
    shows the board again with the card put right, and nothing is posted twice by the clock's retries."""
    _, channel, alice, bob = world(simcord_env)
    await alice.slash(channel, "game new", game="breaks")
    thread = channel.threads[0]
    await bob.click(lobby_message(channel), label="Join")
    lobby = lobby_message(channel)
    simcord_env.inject_error("PATCH", "*", status=500, code=0, message="Internal Server Error", times=None)
    await alice.click(lobby, label="Start")
    simcord_env.backend.faults.clear()
    assert len(board_messages(thread)) == 1
    owed = await simcord_env.bot.db.undelivered()
    assert [(o.board, o.lobby) for o in owed] == [(False, True)], "the board was delivered, the card is owed"
    assert "Start" in labels(lobby_message(channel))
    await cog_of(simcord_env).redeliver()
    await simcord_env.settle()
    assert len(board_messages(thread)) == 1, "a retry posts no board"
    assert not {"Join", "Start"} & labels(lobby_message(channel)), "and puts the card right"
    assert await simcord_env.bot.db.undelivered() == []


async def test_the_newest_board_is_recorded_even_when_the_outbox_mark_fails(simcord_env: Any,
                                                                           monkeypatch: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}

    async def fails(*_: Any, **__: Any) -> None:
        raise RuntimeError("the database is busy")

    monkeypatch.setattr(simcord_env.bot.service, "delivered", fails)
    await play_until_a_board_is_owed(simcord_env, thread, members)
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert table is not None
    newest = await simcord_env.bot.db.swap_board_message(table.id, 0)  # (read it: put it back at once)
    await simcord_env.bot.db.swap_board_message(table.id, newest or 0)
    boards = board_messages(thread)
    assert newest == boards[-1].id
    assert not [c for b in boards[:-1] for row in b.components for c in getattr(row, "children", ())], \
        "only the newest board has controls"
