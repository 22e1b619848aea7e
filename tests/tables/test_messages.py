"""What the bot says is true at the moment it says it (issue 8, "Say what is true now")."""

from __future__ import annotations

import pytest

from storage import FINISHED
from tables import Refusal, TableService
from tests.tables.test_table_service import ALICE, BOB, CH, play_out, read, started


async def test_the_lobby_card_after_start_points_to_the_game_not_to_buttons(svc: TableService) -> None:
    _, out = await started(svc, ALICE, BOB)
    assert out.lobby is not None and not out.lobby.open
    text = out.lobby.post.description + out.lobby.post.footer
    assert "below" not in text and f"<#{CH}>" in text and "closed" in out.lobby.post.footer


async def test_the_result_board_lists_scores_once_and_offers_no_move(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    finals = []
    await play_out(svc, tid, lambda out, before, after: finals.extend(out.public))
    assert (await read(svc, tid)).status == FINISHED
    board = finals[-1]
    names = [name for name, _ in board.fields]
    assert "Result" in names and "Scores" not in names
    assert "/move" not in board.footer and board.controls is None


async def test_a_seat_done_for_the_turn_is_told_so(bsvc: TableService) -> None:
    tid, _ = await started(bsvc, ALICE, BOB, game="block")
    await bsvc.submit(ALICE, "write a1", table_id=tid)
    with pytest.raises(Refusal, match=r"^You are done for this turn: waiting for Bob\.$"):
        await bsvc.submit(ALICE, "write b1", table_id=tid)
