"""Breaker Blocks through Discord, offline (simcord): a whole game against a bot, every move picked from menus."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import board_messages, last_board, lobby_of_one, pick_through_menu


async def test_a_whole_game_against_a_bot_through_the_menus(simcord_env: Any) -> None:
    channel, alice = await lobby_of_one(simcord_env, game="breakerblocks", options="max_rounds=20")
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await alice.click(lobby, label="Add bot: easy")
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]
    picked: list[list[str]] = []
    for turn in range(200):
        board = last_board(thread)
        embed = board.embeds[0]
        text = (board.content or "") + (embed.description or "") + " ".join(f"{f.name} {f.value}" for f in embed.fields)
        if "Game over" in text:
            break
        assert "action" in text, "the board says how many actions are left"
        panel = (await alice.click(board, label="My view")).response
        assert panel is not None and panel.ephemeral
        before = len(board_messages(thread))
        picked.append(await pick_through_menu(alice, panel, pick=turn % 4, max_levels=16))
        assert len(board_messages(thread)) == before + 1, "one board per turn: her turn and the bot's answer"
    else:
        raise AssertionError("the game did not end")
    final = last_board(thread)
    assert any(f.name == "Result" for f in final.embeds[0].fields)
    labels = [label for turn in picked for label in turn]
    assert any(label.startswith("Play ") for label in labels) and "Submit" in labels  # placing is previewed
    assert any(label == "Draw a block" for label in labels)
