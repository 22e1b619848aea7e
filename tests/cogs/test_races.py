"""Racing clicks (issue 14, item 1): two clicks on the same control at the same instant, or the second after the
first has done its work (a double tap, a late click); each is answered, one is applied. Per control kind: move
button, a pick in the move menu (select), a preview's Submit, lobby Join / Start / Cancel, rematch."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction, _visible_message

from bench.races import held
from tests.cogs.discord_helpers import board_messages, last_board, move_select, moves_made, submit_button, to_act
from tests.cogs.test_forged_controls import forge
from tests.cogs.test_game_flow import open_two_player_table, use_first_control, world

Click = Callable[[], Awaitable[Any]]


async def race(env: Any, clicks: list[Click], together: bool) -> list[Any]:
    """Run the clicks at once (all in flight before the bot handles any) or one after another."""
    if together:
        return await held(env, clicks)
    return [await click() for click in clicks]


def answered(result: Any) -> bool:
    return bool(result.acknowledged and (result.followups or result.response is not None))


def lobby_card(channel: Any) -> Any:
    return [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]


def button_id(message: Any, label: str) -> str:
    return next(c.custom_id for row in message.components for c in getattr(row, "children", ()) if c.label == label)


@pytest.mark.parametrize("together", [True, False], ids=["same instant", "one after the other"])
async def test_a_move_button_clicked_twice_plays_once(simcord_env: Any, together: bool) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    board = last_board(thread)
    actor = alice if to_act(board)[0] == alice.id else bob
    made = await moves_made(simcord_env.bot, thread)
    results = await race(simcord_env, [lambda: use_first_control(actor, board)] * 2, together)
    assert all(answered(r) for r in results)
    assert await moves_made(simcord_env.bot, thread) == made + 1


@pytest.mark.parametrize("together", [True, False], ids=["same instant", "one after the other"])
@pytest.mark.parametrize("labels", [("Start", "Start"), ("Start", "Join"), ("Cancel", "Start"), ("Join", "Join")])
async def test_lobby_buttons_racing_each_other(simcord_env: Any, together: bool, labels: tuple[str, str]) -> None:
    guild, channel, alice, bob = world(simcord_env)
    await alice.slash(channel, "game new", game="breaks")
    card = lobby_card(channel)
    await alice.click(card, label="Add bot: easy")
    card = lobby_card(channel)
    ids = {label: button_id(card, label) for label in ("Start", "Join", "Cancel")}
    who = {"Start": alice, "Cancel": alice, "Join": bob}
    def click(label: str) -> Click:
        return lambda: forge(who[label], card, ids[label])

    clicks = [click(label) for label in labels]
    results = await race(simcord_env, clicks, together)
    assert all(answered(r) for r in results), [r for r in results if not answered(r)]
    table = await simcord_env.bot.db.latest_table_in(channel.threads[0].id)
    assert table is not None
    if "Cancel" in labels:
        assert table.status in ("cancelled", "active")
    if labels == ("Join", "Join"):
        assert [s.user_id for s in table.seats].count(bob.id) == 1
    if labels[0] == "Start":  # the game started, and exactly once
        assert table.status == "active"
        thread = channel.threads[0]
        begun = [b for b in board_messages(thread) if "Breaks begins!" in (b.embeds[0].description or "")]
        assert len(begun) == 1, "one board tells of the start"
        game = simcord_env.bot.service.game("breaks")
        moves = await simcord_env.bot.db.moves(table.id)
        assert [m.ply for m in moves] == list(range(1, len(moves) + 1))
        assert table.seed is not None
        dealt = game.replay(len(table.seats), table.options, table.seed, [(m.seat, m.notation) for m in moves])
        assert game.dump(dealt) == table.state, "the stored game is the one dealt at the start, with its moves since"


async def test_rematch_clicked_twice_opens_one_lobby(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    await alice.slash(thread, "resign")
    final = last_board(thread)
    rematch = button_id(final, "Rematch")
    results = await race(simcord_env, [lambda: forge(alice, final, rematch), lambda: forge(bob, final, rematch)],
                         together=True)
    assert all(answered(r) for r in results)
    lobbies = await simcord_env.bot.db.tables_with_status("lobby")
    assert len(lobbies) == 1 and lobbies[0].channel_id != thread.id  # one rematch, in a new thread
    assert lobbies[0].channel_id in {t.id for t in channel.threads}
    assert len(channel.threads) == 2, "the losing click's empty thread is gone"


async def forge_select(member: Any, message: Any, custom_id: str, value: str) -> Any:
    """A pick in a select as a client sends it (also from a message whose menu has just been replaced)."""
    return await _component_interaction(member, _visible_message(member, message),
                                        {"custom_id": custom_id, "values": [value],
                                         "component_type": discord.ComponentType.string_select.value})


async def two_player_table(env: Any, game: str) -> tuple[Any, dict[int, Any]]:
    guild, channel, alice, bob = world(env)
    await alice.slash(channel, "game new", game=game)
    await bob.click(lobby_card(channel), label="Join")
    await alice.click(lobby_card(channel), label="Start")
    return channel.threads[0], {alice.id: alice, bob.id: bob}


@pytest.mark.parametrize("together", [True, False], ids=["same instant", "one after the other"])
async def test_a_menu_pick_that_plays_a_move_raced(simcord_env: Any, together: bool) -> None:
    """Blockers!: the private menu's second level names whole moves; the same pick sent twice plays once, and
    both picks are answered (the second: "Already played")."""
    thread, members = await two_player_table(simcord_env, "blockers")
    board = last_board(thread)
    player = members[to_act(board)[0]]
    panel = (await player.click(board, label="My view")).response
    first = move_select(panel.message)
    await player.select(panel.message, [first.options[0].value], custom_id=first.custom_id)
    leaf = move_select(panel.message)
    assert leaf is not None and leaf.options[0].description is None, "a level of whole moves"
    made = await moves_made(simcord_env.bot, thread)
    pick = leaf.options[0].value
    seen = panel.message  # a late second tap is sent from the message as it was when tapped
    results = await race(simcord_env, [lambda: forge_select(player, seen, leaf.custom_id, pick)] * 2, together)
    assert all(answered(r) or r.acknowledged for r in results)
    assert await moves_made(simcord_env.bot, thread) == made + 1
    said = [r.response.message.content if r.response else "" for r in results] + \
        [f.content for r in results for f in r.followups]
    assert any("Played" in (t or "") for t in said), said
    assert any((t or "") == "Already played: your first pick played it." for t in said), said


@pytest.mark.parametrize("together", [True, False], ids=["same instant", "one after the other"])
async def test_a_previews_submit_raced(simcord_env: Any, together: bool) -> None:
    """BLOCK: a pick shows a preview with Submit; Submit tapped twice records one pick."""
    thread, members = await two_player_table(simcord_env, "block")
    board = last_board(thread)
    player = next(iter(members.values()))
    panel = (await player.click(board, label="My view")).response
    select = move_select(panel.message)
    await player.select(panel.message, [select.options[0].value], custom_id=select.custom_id)
    submit = submit_button(panel.message)
    assert submit is not None, "the pick is previewed"
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    seen = panel.message
    results = await race(simcord_env, [lambda: forge(player, seen, submit.custom_id)] * 2, together)
    assert all(r.acknowledged for r in results)
    after = await simcord_env.bot.db.latest_table_in(thread.id)
    assert after.version == table.version + 1, "one pick recorded"
    assert "Played" in (panel.message.content or "")
    told = [f.content for r in results for f in r.followups if f.ephemeral]
    assert any((t or "").startswith("Already played: ") for t in told), told
