"""Only the newest board has live controls (issue 8): posting a board takes the buttons off the one before,
across a restart too (the newest board's message is stored with the table)."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import board_messages, components, last_board
from tests.cogs.test_game_flow import open_two_player_table, play_one


async def test_each_new_board_takes_the_controls_off_the_previous_one(simcord_env: Any) -> None:
    _, thread, alice, bob = await open_two_player_table(simcord_env)
    members = {alice.id: alice, bob.id: bob}
    for turn in range(6):
        board = last_board(thread)
        mover = members[int((board.content or "").split("<@")[1].split(">")[0])]
        await play_one(mover, thread, board, turn)
    boards = board_messages(thread)
    assert len(boards) >= 4
    assert components(boards[-1]), "the newest board keeps its controls"
    for old in boards[:-1]:
        assert not components(old), f"an old board still has controls: {old.content!r}"
