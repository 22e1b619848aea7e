"""BLOCK through Discord, offline (simcord): simultaneous private picks for three players, and a solo game."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import (
    board_messages,
    last_board,
    move_buttons,
    move_select,
    pick_through_menu,
    to_act,
)

LOBBY = "table #"


async def open_table(env: Any, names: tuple[str, ...]) -> tuple[Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in names]
    await players[0].slash(channel, "game new", game="block")
    lobby = [m for m in channel.history() if m.embeds and LOBBY in (m.embeds[0].title or "")][-1]
    for p in players[1:]:
        await p.click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    return channel.threads[0], players


async def take_turn_privately(player: Any, board: Any, pick: int) -> list[str]:
    """"My view", then the menus, one pick after another, until the player is done for this turn."""
    panel = (await player.click(board, label="My view")).response
    assert panel is not None and panel.ephemeral
    if move_select(panel.message) is None and not move_buttons(panel.message):
        return []
    return await pick_through_menu(player, panel, pick=pick, max_levels=40)


async def test_three_players_pick_at_once_and_see_each_other_only_when_the_turn_resolves(simcord_env: Any) -> None:
    thread, players = await open_table(simcord_env, ("ann", "ben", "cy"))
    by_id = {p.id: p for p in players}
    turns = 0
    for _ in range(60):
        board = last_board(thread)
        if "Game over" in (board.content or ""):
            break
        waiting = to_act(board)
        assert sorted(waiting) == sorted(p.id for p in players), "every player acts each turn"
        boards_before = len(board_messages(thread))
        for i, uid in enumerate(waiting):
            player = by_id[uid]
            if turns % 3 == 1 and i == 0:  # a typist: /move with autocomplete, pick after pick
                for _ in range(20):
                    choices = await player.autocomplete(thread, "move", "move", "")
                    if not choices:
                        break
                    res = await player.slash(thread, "move", move=choices[-1]["value"])
                    assert res.ephemeral and "Played" in res.response.content, res.response.content
                    if "Game over" in (last_board(thread).content or "") or len(board_messages(thread)) > \
                            boards_before:
                        break
            else:
                await take_turn_privately(player, board, pick=(turns + i) % 5)
            if i < len(waiting) - 1:
                # Not everyone is done: no new board, and the channel says who is done and who is thinking, in
                # one status message for the turn, edited as players finish (not a message per player).
                assert len(board_messages(thread)) == boards_before, [
                    (m.embeds[0].title, m.content, m.flags.ephemeral) for m in board_messages(thread)]
                history = list(thread.history())
                since_board = history[history.index(board_messages(thread)[-1]) + 1:]
                notes = [m for m in since_board if m.embeds and not m.attachments and not m.flags.ephemeral]
                assert len(notes) == 1, [m.embeds[0].description for m in notes]
                done = notes[0].embeds[0].description or ""
                assert all(by_id[u].user.name in done for u in waiting[:i + 1]), done
                assert not any(by_id[u].user.name in done for u in waiting[i + 1:]), done
                assert "Waiting for" in (notes[0].embeds[0].footer.text or "")
        assert len(board_messages(thread)) == boards_before + 1, "the turn resolved into one new board"
        turns += 1
    else:
        raise AssertionError("the game did not end")
    final = last_board(thread)
    result = next(f for f in final.embeds[0].fields if f.name == "Result")
    assert all(p.user.name in result.value for p in players)
    assert turns >= 3
    log = await players[0].slash(thread, "log")
    assert "drop " in log.response.content  # every pick is in the log once its turn resolved


async def test_back_from_a_preview_shows_the_players_own_view_and_menu_again(simcord_env: Any) -> None:
    thread, (ann, ben) = await open_table(simcord_env, ("ann", "ben"))
    panel = (await ann.click(last_board(thread), label="My view")).response
    assert panel is not None
    select = move_select(panel.message)
    assert select is not None  # write: seven cells
    await ann.select(panel.message, [select.options[3].value], custom_id=select.custom_id)
    shown = panel.message
    assert shown.attachments[0].filename == "preview.png" and "d1" in (shown.embeds[0].description or "")
    assert [b.label for b in move_buttons(shown)] == ["Submit"]
    back = next(c for row in shown.components for c in row.children if getattr(c, "label", "") == "Back")
    await ann.click(shown, custom_id=back.custom_id)
    again = panel.message
    assert again.attachments[0].filename == "board.png" and move_select(again) is not None
    assert not move_buttons(again)
    await pick_through_menu(ann, again, pick=6)  # g1, then Submit
    assert "Played: Write your number in g1." in (panel.message.content or "")


async def test_solo_game_to_the_end(simcord_env: Any) -> None:
    thread, (solo,) = await open_table(simcord_env, ("sol",))
    for turn in range(60):
        board = last_board(thread)
        if "Game over" in (board.content or ""):
            break
        assert to_act(board) == [solo.id]
        await take_turn_privately(solo, board, pick=turn % 4)
    else:
        raise AssertionError("the solo game did not end")
    result = next(f for f in last_board(thread).embeds[0].fields if f.name == "Result")
    assert "sol" in result.value
    assert any(rank in (last_board(thread).embeds[0].description or "") + result.value
               for rank in ("rookie", "stacker", "architect", "master", "legend"))
