"""tables.core: lookups, stale controls, and the standings of a game (ranks, winners, what a tie and a cooperative
result are called)."""

from __future__ import annotations

import pytest

from storage import ACTIVE, FINISHED
from tables import Refusal, StaleButton, TableService
from tests.tables.helpers import (
    ALICE,
    BOB,
    CARL,
    CH,
    DANA,
    actor_of,
    assert_replays,
    assert_unchanged,
    play_out,
    read,
    started,
    state_of,
    whose_turn,
)


async def test_an_unknown_game_is_refused(svc: TableService) -> None:
    with pytest.raises(Refusal, match="There is no game called `chess`. Games: breaks."):
        await svc.open_lobby(guild_id=7, channel_id=CH, host=ALICE, game_key="chess")
    assert await svc.db.open_table_in(CH) is None


async def test_a_stale_version_is_a_stale_button(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    table, actor, move = await whose_turn(svc, tid)
    await svc.submit(actor, move, table_id=tid, version=table.version)
    after, actor2, move2 = await whose_turn(svc, tid)
    assert actor2 == actor  # Breaks: a draw, then its placement by the same player
    with pytest.raises(StaleButton, match="before your last move, and your turn goes on"):
        await svc.submit(actor2, move2, table_id=tid, version=table.version)
    await assert_unchanged(svc, tid, after, 1)
    await svc.submit(actor2, move2, table_id=tid)  # the turn ends: the other player's old button is from before
    other = BOB if actor == ALICE else ALICE
    with pytest.raises(StaleButton, match="earlier position"):
        await svc.submit(other, move, table_id=tid, version=table.version)


async def test_a_stale_control_of_a_turn_that_ended_is_not_called_the_same_turn(svc: TableService) -> None:
    """BLOCK: Bob's pick ends the setup turn and the next turn begins, Bob to act again: a control made before his
    pick is from an earlier position, not from a turn that goes on."""
    tid, _ = await started(svc, ALICE, BOB, game="block")
    await svc.submit(ALICE, "write a1", table_id=tid)
    before = await read(svc, tid)
    await svc.submit(BOB, "write b1", table_id=tid)
    game, state = state_of(svc, await read(svc, tid))
    assert game.to_act(state) == {0, 1}, "a new turn: both to pick"
    with pytest.raises(StaleButton, match="earlier position"):
        await svc.submit(BOB, "write c1", table_id=tid, version=before.version)


async def test_a_solo_game_given_up_has_no_winner(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, game="block")
    await svc.resign(CH, ALICE)
    table = await read(svc, tid)
    assert table.result is not None and table.result["winners"] == [] and table.result["reason"] == \
        "the player resigned"


async def test_the_earliest_resignation_ranks_lowest(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB, CARL, DANA)
    await svc.resign(CH, CARL)
    await svc.resign(CH, DANA)  # two people are left, so the game goes on
    table = await read(svc, tid)
    assert table.status == ACTIVE
    carl, dana = table.seat_of(CARL.user_id), table.seat_of(DANA.user_id)
    assert carl is not None and dana is not None and (carl.resigned, dana.resigned) == (1, 2)
    table = await play_out(svc, tid)
    assert table.result is not None
    assert table.result["ranks"][carl.seat] == 4 and table.result["ranks"][dana.seat] == 3
    assert table.result["resigned"] == sorted([carl.seat, dana.seat])
    await assert_replays(svc, tid)


async def test_a_tie_is_called_what_the_games_rules_call_it(svc: TableService) -> None:
    """Breaker Blocks' rules call a tie a draw ("otherwise the game is a draw"), not a shared win: both players
    end every turn, no circuit is controlled, and the round limit scores the game."""
    tid, _ = await started(svc, ALICE, BOB, game="breakerblocks", options="max_rounds=20")
    table = await read(svc, tid)
    while table.status != FINISHED:
        game, state = state_of(svc, table)
        (seat,) = game.to_act(state)
        out = await svc.submit(actor_of(table, seat), "end", table_id=tid)
        table = await read(svc, tid)
    assert table.result is not None and table.result["winners"] == [0, 1]
    (board,) = out.public
    assert board.content == "🏁 Game over! Draw: <@1>, <@2>."


@pytest.mark.parametrize(("goal", "verdict"), [(10, "Everyone won together!"), (60, "Everyone lost.")])
async def test_a_cooperative_game_is_won_or_lost_by_everyone(hsvc: TableService, goal: int, verdict: str) -> None:
    """Three cards each, 1–13: two players always reach 10 together and never 60."""
    tid, _ = await started(hsvc, ALICE, BOB, game="highcard", options=f"goal={goal}")
    for _ in range(6):
        table = await read(hsvc, tid)
        game, state = state_of(hsvc, table)
        (seat,) = game.to_act(state)
        out = await hsvc.submit(actor_of(table, seat), f"play {state.hands[seat][0]}", table_id=tid)
    table = await read(hsvc, tid)
    assert table.status == FINISHED and table.result is not None
    assert table.result["cooperative"] is True
    assert table.result["winners"] == ([0, 1] if goal == 10 else [])
    assert table.result["ranks"] == [1, 1]
    (board,) = out.public
    assert board.content == f"🏁 Game over! {verdict}"
    assert "goal" in dict(board.fields)["Result"]
