"""Bloc by Bloc through Discord, offline (simcord): a two-player game (each player runs two factions) played to its
end, every action picked from the private menus or typed with /move as autocomplete offers it; the channel gets a
board per faction turn (a faction's later actions go on privately), not one per action."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import board_messages, last_board, pick_through_menu, to_act


async def test_a_two_player_game_to_the_end(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob = guild.add_member(simcord_env.create_user("alice")), guild.add_member(simcord_env.create_user("bob"))
    members = {alice.id: alice, bob.id: bob}
    await alice.slash(channel, "game new", game="blocbybloc", options="city=beginner")
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    thread = channel.threads[0]
    first = last_board(thread)
    assert first.attachments and first.attachments[0].filename.endswith(".png")
    assert "Faction Start" in (first.embeds[0].description or "") + (first.content or "") or to_act(first)
    kinds: set[str] = set()
    quiet = longest = 0  # actions in a row without a new board (a faction's turn going on privately)
    for turn in range(600):
        board = last_board(thread)
        if "Game over" in (board.content or ""):
            break
        player = members[to_act(board)[0]]
        boards = len(board_messages(thread))
        if turn % 3 == 2:  # a typist: the move exactly as autocomplete offers it
            choices = await player.autocomplete(thread, "move", "move", "")
            assert choices, "autocomplete offers the legal moves"
            pick = next((ch for ch in choices if ch["value"].startswith(("build", "move"))), choices[-1])
            kinds.add(pick["value"].split()[0])
            res = await player.slash(thread, "move", move=pick["value"])
            assert res.ephemeral and "Played" in (res.response.content or ""), res.response.content
        else:
            panel = (await player.click(board, label="My view")).response
            assert panel is not None and panel.ephemeral
            # the first entry at every level (move blocs, from the first district, to the first destination…), and
            # every third time the last one (End my actions)
            picked = await pick_through_menu(player, panel, pick=0 if turn % 3 else 99, max_levels=8, one_move=True)
            kinds.add(picked[0].split()[0].lower() if picked else "")
        quiet = 0 if len(board_messages(thread)) > boards else quiet + 1
        longest = max(longest, quiet)
        assert quiet <= 12, "a board at least once a faction turn (a turn has a handful of actions)"
    else:
        raise AssertionError("the game did not end")
    final = last_board(thread)
    assert any(f.name == "Result" for f in final.embeds[0].fields)
    assert "move" in kinds or "build" in kinds
    log = await alice.slash(thread, "log")
    assert "start" in (log.response.content or "").lower()
    hand = await bob.slash(thread, "hand")
    assert hand.ephemeral
    boards = len(board_messages(thread))
    assert longest >= 1, "a faction's later actions in its turn post no board of their own"
    for member in (alice, bob):  # a DM when a hand changes, not one per move
        dm = member.user.dm_channel
        dms = len(dm.history()) if dm is not None else 0
        assert dms < boards / 2, (member, dms, boards)
