"""Only the newest board has live controls, across restarts too (the newest board's message is stored with the
table); the host manages the lobby with its buttons and /game options (issue 8)."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import board_messages, components, last_board, lobby_of_one
from tests.cogs.test_game_flow import open_two_player_table, to_act


async def test_each_new_board_takes_the_controls_off_the_previous_one(simcord_env: Any) -> None:
    _, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}
    for _ in range(12):  # six turns: a draw and its placement each, by /move as offered
        mover = members[to_act(last_board(thread))[0]]
        choices = await mover.autocomplete(thread, "move", "move", "")
        await mover.slash(thread, "move", move=choices[0]["value"])
    boards = board_messages(thread)
    assert len(boards) >= 4
    assert components(boards[-1]), "the newest board keeps its controls"
    for old in boards[:-1]:
        assert not components(old), f"an old board still has controls: {old.content!r}"


async def test_the_host_removes_a_bot_from_the_lobby_with_its_button(simcord_env: Any) -> None:
    from tests.cogs.test_game_flow import lobby_message

    channel, alice = await lobby_of_one(simcord_env)
    lobby = lobby_message(channel)
    await alice.click(lobby, label="Add bot: easy")
    assert "Bot 1" in (lobby_message(channel).embeds[0].fields[0].value or "")
    await alice.click(lobby_message(channel), label="Remove bot")
    assert "Bot 1" not in (lobby_message(channel).embeds[0].fields[0].value or "")
    res = await alice.slash(channel.threads[0], "game options", options="decks=2")
    assert res.ephemeral and "decks=2" in res.response.content
    assert "decks=2" in (lobby_message(channel).embeds[0].fields[1].value or "")


async def test_game_options_autocompletes_the_options_of_the_game_here(simcord_env: Any) -> None:
    from tests.cogs.test_game_flow import lobby_message

    channel, alice = await lobby_of_one(simcord_env)
    assert lobby_message(channel)
    offered = await alice.autocomplete(channel.threads[0], "game options", "options", "dec")
    assert [c["value"] for c in offered] == ["decks=1", "decks=2"]
