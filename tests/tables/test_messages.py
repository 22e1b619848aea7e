"""What the bot says is true at the moment it says it (issue 8, "Say what is true now")."""

from __future__ import annotations

import pytest

from storage import FINISHED
from tables import Refusal, TableService
from tests.tables.helpers import ALICE, BOB, CH, play_out, read, started


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


async def test_one_board_per_breaks_turn_and_the_draw_goes_on_privately(svc: TableService) -> None:
    """A draw posts no board: the drawer gets the card and its choices privately, and the board that ends the
    turn lists the draw too (issue 8: 137 board posts in a 2-player game, the drawer pinged for their own draw)."""
    from tests.tables.helpers import whose_turn

    tid, _ = await started(svc, ALICE, BOB)
    boards = turns = 0
    for _ in range(400):
        table = await read(svc, tid)
        if table.status == FINISHED:
            break
        _, actor, move = await whose_turn(svc, tid)
        out = await svc.submit(actor, move, table_id=tid)
        if move == "draw":
            assert out.public == [] and out.reply_post is not None
            assert out.reply_post.description.startswith("You drew ") and out.reply_post.controls is not None
            _, same, placement = await whose_turn(svc, tid)
            assert same == actor
            out = await svc.submit(actor, placement, table_id=tid)
            (board,) = out.public
            assert f"{actor.name} drew" in board.description, "the turn's board tells of the draw too"
        else:
            assert len(out.public) == 1
        boards += len(out.public)
        turns += 1
    else:
        raise AssertionError("the game did not end")
    assert boards == turns and turns > 20
    moves = len(await svc.db.moves(tid))
    assert moves > boards, f"{moves} moves, {boards} boards: fewer boards than moves"
