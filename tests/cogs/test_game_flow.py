"""Breaks end to end through real discord.py code, offline (simcord)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
import pytest
from PIL import Image

from cogs.game import REPLAY_NOT_POSTED, GameCog
from tests.cogs.discord_helpers import (
    board_messages,
    custom_ids,
    last_board,
    move_buttons,
    move_select,
    moves_made,
    pick_through_menu,
    to_act,
)
from tests.support import OPEN_BOTS, make_bot

MAX_TURNS = 600


def world(env: Any) -> tuple[Any, Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    return guild, channel, alice, bob


def lobby_message(channel: Any) -> discord.Message:
    lobbies = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")]
    assert lobbies, "no lobby message"
    return lobbies[-1]


async def open_two_player_table(env: Any) -> tuple[Any, Any, Any, Any]:
    """Alice opens Breaks in #games, Bob joins, Alice starts. Returns channel, thread, alice, bob."""
    _, channel, alice, bob = world(env)
    res = await alice.slash(channel, "game new", game="breaks")
    assert res.ephemeral
    assert "Your table is open" in res.response.content
    lobby = lobby_message(channel)
    assert {"Join", "Leave", "Add bot: easy", "Add bot: medium", "Add bot: hard", "Start", "Cancel"} <= {
        c.label for row in lobby.components for c in row.children}
    assert len(channel.threads) == 1
    thread = channel.threads[0]
    await bob.click(lobby, label="Join")
    lobby = lobby_message(channel)
    assert "bob" in lobby.embeds[0].fields[0].value
    await alice.click(lobby, label="Start")
    return channel, thread, alice, bob


async def play_one(member: Any, thread: Any, board: discord.Message, turn: int) -> None:
    """Play the first legal move, alternating buttons, the select menu and /move with autocomplete."""
    buttons = move_buttons(board)
    select = move_select(board)
    if turn % 3 == 2 or (not buttons and select is None):
        choices = await member.autocomplete(thread, "move", "move", "")
        assert choices, "autocomplete offered no legal move"
        res = await member.slash(thread, "move", move=choices[0]["value"])
        assert res.ephemeral and "Played" in res.response.content
    elif buttons:
        await member.click(board, custom_id=buttons[0].custom_id)
    else:
        assert select is not None
        await pick_through_menu(member, board)
        assert last_board(thread).id != board.id, "the menu played no move"


async def use_first_control(member: Any, board: discord.Message) -> Any:
    """Click the first move button, or pick the first option of the move menu."""
    buttons = move_buttons(board)
    if buttons:
        return await member.click(board, custom_id=buttons[0].custom_id)
    select = move_select(board)
    assert select is not None, "the board offers no move control"
    assert all(o.description is None for o in select.options), "a grouped menu: use pick_through_menu"
    return await member.select(board, [select.options[0].value], custom_id=select.custom_id)


async def play_to_the_end(thread: Any, members: dict[int, Any], max_turns: int = MAX_TURNS) -> discord.Message:
    for turn in range(max_turns):
        board = last_board(thread)
        if "Game over" in (board.content or ""):
            return board
        acting = to_act(board)
        assert len(acting) == 1, board.content
        await play_one(members[acting[0]], thread, board, turn)
    raise AssertionError("the game did not end")


async def test_full_game_from_lobby_to_result(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    first = board_messages(thread)[0]
    # The first board: an image with alt text, an embed naming whose turn it is, and a mention.
    att = first.attachments[0]
    assert att.filename == "board.png"
    assert att.description and att.description.startswith("Breaks.") and "alice" in att.description
    png = Image.open(io.BytesIO(await att.read()))
    assert 400 <= png.width <= 1200 and png.height > 0  # laid out for a phone's 400 px and a desktop
    assert first.embeds[0].image.url == "attachment://board.png"
    assert any(f.name == "To play" for f in first.embeds[0].fields)
    assert len(to_act(first)) == 1
    assert any(cid.startswith("bh:panel:") for cid in custom_ids(first))

    final = await play_to_the_end(thread, {alice.id: alice, bob.id: bob})
    embed = final.embeds[0]
    result = next(f for f in embed.fields if f.name == "Result")
    assert "alice" in result.value and "bob" in result.value
    assert not move_buttons(final) and move_select(final) is None
    # Every move produced a new board message (no edits of old ones).
    assert len(board_messages(thread)) > 10
    # After the end: status, log and board still answer; moves are refused.
    status = await alice.slash(thread, "status")
    assert "finished" in status.response.content
    log = await bob.slash(thread, "log", count=5)
    assert log.ephemeral and log.response.content.count("\n") == 4
    late = await alice.slash(thread, "move", move="draw")
    assert late.ephemeral and "over" in late.response.content.lower()
    # The private menus and answers of a whole game left no view timer behind: their controls are dispatched by
    # custom id, and discord.py would otherwise keep a 15-minute timer per private message.
    timers = [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
    assert not timers, f"{len(timers)} private views still timed"
    # ...and discord.py kept no view nor dynamic item to run a click itself (GameCog.on_interaction runs them all: a
    # view it kept would run a click a second time)
    store = simcord_env.bot._connection._view_store
    assert not store._views and not store._dynamic_items and not store._synced_message_views


async def test_one_person_against_a_bot_seat_then_a_rematch(simcord_env: Any) -> None:
    _, channel, alice, bob = world(simcord_env)
    await alice.slash(channel, "game new", game="breaks", thread=False)
    lobby = lobby_message(channel)
    await alice.click(lobby, label="Add bot: easy")
    await alice.click(lobby_message(channel), label="Start")
    final = await play_to_the_end(channel, {alice.id: alice})
    result = next(f for f in final.embeds[0].fields if f.name == "Result")
    assert "Bot 1" in result.value

    # The result offers a rematch: only players of that game may open it; it keeps the bot seat.
    res = await bob.click(final, label="Rematch")
    assert res.followups and "Only the players" in res.followups[0].content
    await alice.click(final, label="Rematch")
    lobby = lobby_message(channel)
    assert lobby.id != final.id and "Rematch of table #1" in (lobby.embeds[0].description or "")
    assert "Bot 1" in lobby.embeds[0].fields[0].value
    await alice.click(lobby, label="Start")
    assert "table #2" in (last_board(channel).embeds[0].title or "")
    res = await alice.click(final, label="Rematch")
    assert res.followups and "already a new lobby or game" in res.followups[0].content


async def test_restart_in_the_middle_then_finish(simcord_env: Any, db_path: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}
    for turn in range(6):
        board = last_board(thread)
        await play_one(members[to_act(board)[0]], thread, board, turn)
    before = await moves_made(simcord_env.bot, thread)
    # The old process goes away (its database connection with it) and a new one starts on the same file.
    old = simcord_env.bot
    await old.db.close()
    await simcord_env.restart_bot(make_bot(db_path))
    assert simcord_env.bot is not old
    # The controls on the board posted before the restart still work.
    board = last_board(thread)
    await use_first_control(members[to_act(board)[0]], board)
    assert await moves_made(simcord_env.bot, thread) == before + 1
    final = await play_to_the_end(thread, members)
    assert "Game over" in final.content


async def _keep_old_controls(self: Any, *args: Any) -> None:
    """GameCog._retire when Discord refuses to edit the old board."""


async def test_refusals_are_private_and_change_nothing(simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    carol = simcord_env.guild.add_member(simcord_env.create_user("carol"))
    board = last_board(thread)
    members = {alice.id: alice, bob.id: bob}
    actor_id = to_act(board)[0]
    waiting = bob if actor_id == alice.id else alice
    count = len(board_messages(thread))

    res = await carol.slash(thread, "move", move="draw")
    assert res.ephemeral and "not playing" in res.response.content
    res = await waiting.slash(thread, "move", move="draw")
    assert res.ephemeral and "not your turn" in res.response.content.lower()
    res = await members[actor_id].slash(thread, "move", move="fly away")
    assert res.ephemeral and "don't understand" in res.response.content
    res = await members[actor_id].slash(thread, "move", move="place 2")
    assert res.ephemeral and "draw a card first" in res.response.content.lower()
    # A non-player using the current turn's controls is refused privately.
    res = await use_first_control(carol, board)
    assert res.followups and res.followups[0].ephemeral and "not playing" in res.followups[0].content
    assert len(board_messages(thread)) == count  # nothing was posted

    # A stale control (from an earlier turn) is refused and nothing is applied. The bot takes the controls off
    # a board when the next one is posted, unless Discord refuses the edit (a board older than its edit window):
    # model that board here.
    monkeypatch.setattr(GameCog, "_retire", _keep_old_controls)
    made = await moves_made(simcord_env.bot, thread)
    await use_first_control(members[actor_id], board)
    assert await moves_made(simcord_env.bot, thread) == made + 1
    res = await use_first_control(members[actor_id], board)
    assert res.followups and "Already played" in res.followups[0].content  # the same move, tapped again
    assert await moves_made(simcord_env.bot, thread) == made + 1


async def test_unknown_game_and_bad_options(simcord_env: Any) -> None:
    _, channel, alice, _ = world(simcord_env)
    res = await alice.slash(channel, "game new", game="chess")
    assert res.ephemeral and "no game called `chess`" in res.response.content
    res = await alice.slash(channel, "game new", game="breaks", options="decks=7")
    assert res.ephemeral and "decks" in res.response.content and "1, 2" in res.response.content
    res = await alice.slash(channel, "game new", game="breaks", options="nonsense")
    assert res.ephemeral and "decks=2" in res.response.content
    assert channel.threads == []  # nothing was opened
    res = await alice.slash(channel, "move", move="draw")
    assert res.ephemeral and "no game here" in res.response.content.lower()


async def test_two_simultaneous_clicks_apply_one_move(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    board = last_board(thread)
    actor = alice if to_act(board)[0] == alice.id else bob
    made = await moves_made(simcord_env.bot, thread)
    # Deliver two clicks before the bot runs either (simcord serialises actors; its settle step is
    # switched off for the first click so both interactions are in flight at once).
    real_settle = simcord_env._settle_internal

    async def no_settle(**_: Any) -> None:
        return None

    simcord_env._settle_internal = no_settle
    try:
        first = await use_first_control(actor, board)
        second = await use_first_control(actor, board)
    finally:
        simcord_env._settle_internal = real_settle
    await simcord_env.settle()
    assert await moves_made(simcord_env.bot, thread) == made + 1
    refusals = [f.content for r in (first, second) for f in r.followups]
    assert any("Already played" in text or "got there first" in text for text in refusals)


async def test_cancel_by_host_or_manager_only(simcord_env: Any) -> None:
    guild, channel, alice, bob = world(simcord_env)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    await alice.slash(channel, "game new", game="breaks")
    thread = channel.threads[0]
    res = await bob.slash(thread, "game cancel")
    assert res.ephemeral and "Only the host" in res.response.content
    res = await mod.slash(thread, "game cancel")
    assert res.ephemeral and "cancelled" in res.response.content.lower()
    lobby = lobby_message(channel)
    assert lobby.components == [] or not any(row.children for row in lobby.components)
    assert "Cancelled" in (lobby.embeds[0].description or "")


@pytest.mark.parametrize("command", ["help", "rules"])
async def test_help_and_rules(simcord_env: Any, command: str) -> None:
    _, channel, alice, _ = world(simcord_env)
    res = await alice.slash(channel, command, **({"game": "breaks"} if command == "rules" else {}))
    assert res.ephemeral
    text = res.response.content or ""
    text += " ".join((e.title or "") + (e.description or "") for e in res.response.embeds)
    assert "Breaks" in text


async def test_help_names_every_command_and_the_readme_lists_them(simcord_env: Any) -> None:
    """/help is "this list, in Discord" (README): every command the bot registers is in it, and in the README's
    command table."""
    from pathlib import Path

    _, channel, alice, _ = world(simcord_env)
    text = (await alice.slash(channel, "help")).response.content or ""
    assert len(text) <= 2000
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = "\n".join(line for line in readme.splitlines() if line.startswith("| `/"))
    names = [c.qualified_name for c in simcord_env.bot.tree.walk_commands()
             if not isinstance(c, discord.app_commands.Group)]
    assert len(names) > 15
    for name in names:
        assert f"`/{name}" in text or name == "help", f"/help leaves out /{name}"
        assert f"`/{name}" in table, f"the README's command table leaves out /{name}"


@pytest.mark.parametrize("game", ["breaks", "blockers", "block"])
async def test_rules_open_with_one_screen_and_the_full_rules_behind_a_button(simcord_env: Any, game: str) -> None:
    _, channel, alice, _ = world(simcord_env)
    res = await alice.slash(channel, "rules", game=game)
    assert res.ephemeral
    first = res.response.embeds if res.response.embeds else []
    assert len(first) == 1 and "how to play" in (first[0].title or "")
    summary = first[0].description or ""
    assert "**Goal:**" in summary or "**Everyone plays at once:**" in summary
    assert len(summary) < 2000, "one screen on a phone"
    assert "**Notation**" not in summary  # the full rules' later sections are not in the summary
    message = res.response.message
    button = next(c for row in message.components for c in getattr(row, "children", ()) if c.label == "Full rules")
    full = await alice.click(message, custom_id=button.custom_id)
    sent = ([full.response] if full.response else []) + full.followups
    assert sent and all(m.ephemeral for m in sent)
    texts = [e.description or "" for m in sent for e in m.embeds]
    assert any("**Notation**" in t for t in texts) and any("**In one screen**" in t for t in texts)


async def test_commands_sync_to_the_test_guild_when_set(db_path: Any) -> None:
    import simcord

    from cogs.client import Blockhouse, Settings

    bot = Blockhouse(Settings(token="t", database=str(db_path), test_guild=4242))
    OPEN_BOTS.append(bot)  # closed after the test like every other bot
    async with simcord.run(bot) as env:
        home = env.create_guild(id=4242)
        other = env.create_guild()
        alice = home.add_member(env.create_user("alice"))
        bob = other.add_member(env.create_user("bob"))
        assert "game new" in alice.available_commands(home.create_text_channel("games"))
        assert "game new" not in bob.available_commands(other.create_text_channel("games"))


async def test_resign_in_a_two_player_game_ends_it(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    res = await bob.slash(thread, "resign")
    assert res.ephemeral and "resigned" in res.response.content.lower()
    final = last_board(thread)
    assert "Game over" in final.content and f"<@{alice.id}>" in final.content
    result = next(f for f in final.embeds[0].fields if f.name == "Result")
    assert result.value.splitlines()[0].startswith("1. alice") and "bob" in result.value and "resigned" in result.value
    res = await alice.slash(thread, "resign")
    assert res.ephemeral and "over" in res.response.content.lower()


async def test_hand_and_my_view_are_private(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    board = last_board(thread)
    public_before = len(thread.history())
    res = await alice.slash(thread, "hand")
    assert res.ephemeral and res.response.attachments and res.response.embeds[0].title.startswith("Your view")
    res = await bob.click(board, custom_id=next(c for c in custom_ids(board) if c.startswith("bh:panel:")))
    assert res.ephemeral and res.response.attachments
    assert len(thread.history()) == public_before  # nothing public was posted


async def test_lobby_buttons_survive_a_restart(simcord_env: Any, db_path: Any) -> None:
    _, channel, alice, bob = world(simcord_env)
    await alice.slash(channel, "game new", game="breaks")
    lobby = lobby_message(channel)
    old = simcord_env.bot
    await old.db.close()
    await simcord_env.restart_bot(make_bot(db_path, first_seed=50))
    await bob.click(lobby, label="Join")
    await alice.click(lobby_message(channel), label="Start")
    thread = channel.threads[0]
    assert len(to_act(last_board(thread))) == 1


async def test_without_thread_permission_the_game_opens_in_the_channel(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel(
        "no-threads", overwrites={guild.me: discord.PermissionOverwrite(create_public_threads=False)})
    alice = guild.add_member(simcord_env.create_user("alice"))
    res = await alice.slash(channel, "game new", game="breaks")
    assert res.ephemeral and "in this channel" in res.response.content
    assert channel.threads == []
    lobbies = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")]
    assert len(lobbies) == 1 and lobbies[0].components
    assert not [m for m in channel.history() if m.embeds and "opening a table" in (m.embeds[0].title or "")]
    res = await alice.slash(channel, "game new", game="breaks")
    assert res.ephemeral and "already has a game" in res.response.content


async def test_mygames_lists_my_games_here_those_waiting_for_me_first(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    other = simcord_env.guild.create_text_channel("more-games")
    await alice.slash(other, "game new", game="blockers")  # a lobby
    waiting_for = to_act(last_board(thread))[0]
    me, them = (alice, bob) if waiting_for == alice.id else (bob, alice)
    res = await me.slash(channel, "mygames")
    assert res.ephemeral
    embed = res.response.embeds[0]
    text = embed.description or ""
    if me is alice:
        assert text.splitlines()[0].startswith("• **Breaks**: your turn") and "Blockers! lobby" in text
    else:
        assert text.startswith("• **Breaks**: your turn") and "Blockers!" not in text
    assert f"<#{thread.id}>" in text and "waiting for you" in (embed.title or "")
    res = await them.slash(channel, "mygames")
    assert f"waiting for {me.user.name}" in (res.response.embeds[0].description or "")
    carol = simcord_env.guild.add_member(simcord_env.create_user("carol"))
    res = await carol.slash(channel, "mygames")
    assert "no games in progress" in res.response.content


async def test_replay_answers_the_one_who_asked_and_posts_the_animation(simcord_env: Any) -> None:
    """/replay posts the animation in the channel and tells the person who asked (their deferred answer is filled
    in, or Discord shows "The application did not respond")."""
    from tests.cogs.discord_helpers import against_a_bot

    thread, alice = await against_a_bot(simcord_env)
    await alice.slash(thread, "resign")
    res = await alice.slash(thread, "replay")
    assert res.ephemeral and res.response is not None and res.response.content == "Replay posted."
    posted = thread.history()[-1]
    assert posted.attachments and posted.attachments[0].filename.endswith(".gif")
    # Discord refuses the post (no Attach Files here, say): the asker is told that, and nothing else
    simcord_env.inject_error("POST", f"/channels/{thread.id}/messages", status=403, code=50013,
                             message="Missing Permissions", times=None)
    res = await alice.slash(thread, "replay")
    said = [res.response.content if res.response else ""] + [f.content or "" for f in res.followups]
    assert [s for s in said if s] == [REPLAY_NOT_POSTED], said
