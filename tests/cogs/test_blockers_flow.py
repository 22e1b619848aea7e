"""Blockers! through Discord: a 3-player game with private racks, offline (simcord)."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import board_messages, last_board, move_select, pick_through_menu, to_act


async def test_three_player_game_with_private_racks(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(simcord_env.create_user(name)) for name in ("ann", "ben", "cy")]
    ann, ben, cy = players
    await ann.slash(channel, "game new", game="blockers")
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await ben.click(lobby, label="Join")
    await cy.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    thread = channel.threads[0]

    # Every player's rack arrives privately; the public board never names a rack tile.
    for p in players:
        dms = [m for m in p.user.dm_channel.history() if m.embeds]
        assert dms and dms[-1].attachments and "Your rack: " in (dms[-1].attachments[0].description or "")
    by_id = {p.id: p for p in players}
    menu_depths: set[int] = set()
    for turn in range(200):
        board = last_board(thread)
        if "Game over" in (board.content or ""):
            break
        assert "Your rack" not in (board.attachments[0].description or "")
        player = by_id[to_act(board)[0]]
        if turn % 3 == 1:  # no typing: "My view", then the tile, (for a wild the row,) then the square
            panel = (await player.click(board, label="My view")).response
            assert panel is not None and panel.ephemeral
            picked = await pick_through_menu(player, panel, pick=turn % 11)
            assert last_board(thread).id != board.id, picked
            assert "Played" in (panel.message.content or "")  # the spent menu is replaced
            assert move_select(panel.message) is None
            menu_depths.add(len(picked))
            continue
        typed = "" if turn % 2 else "wild"
        choices = await player.autocomplete(thread, "move", "move", typed) or \
            await player.autocomplete(thread, "move", "move", "")
        assert choices
        res = await player.slash(thread, "move", move=choices[0]["value"])
        assert res.ephemeral and "Played" in res.response.content, res.response.content
    else:
        raise AssertionError("the game did not end")
    result = next(f for f in last_board(thread).embeds[0].fields if f.name == "Result")
    assert all(name in result.value for name in ("ann", "ben", "cy"))
    assert len(board_messages(thread)) > 60
    assert 2 in menu_depths  # tile then square (a wild adds the row: see tests/tables/test_menu.py)
    res = await ann.slash(thread, "hand")
    assert res.ephemeral and res.response.attachments

