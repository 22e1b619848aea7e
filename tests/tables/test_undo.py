"""/undo under Board Game Arena's policy (issue 12): your own last move, while it is still your turn, never across
another player's move, never once chance or hidden information came into it. Each case, on real SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database
from tables import Actor, Refusal, TableService
from tables.catalog import default_catalog

ALICE, BOB = Actor(1, "Alice"), Actor(2, "Bob")
CH = 800


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    db = await Database.open(tmp_path / "undo.db")
    yield TableService(db, default_catalog(), clock=lambda: 1.0, seeds=lambda: 3, render=False)
    await db.close()


async def started(svc: TableService, game: str, options: str | None = None) -> int:
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key=game, options_text=options)
    assert out.table_id is not None
    await svc.join(out.table_id, BOB)
    await svc.start(out.table_id, ALICE)
    return out.table_id


async def mover(svc: TableService, tid: int) -> tuple[Actor, Actor]:
    table = await svc.db.get_table(tid)
    assert table is not None
    game = svc.game(table.game)
    seat = min(game.to_act(game.load(table.state or {})))
    return (ALICE, BOB) if table.seats[seat].user_id == ALICE.user_id else (BOB, ALICE)


async def test_breaker_blocks_an_open_action_is_taken_back_while_it_is_your_turn(svc: TableService) -> None:
    tid = await started(svc, "breakerblocks")
    me, other = await mover(svc, tid)
    before = await svc.db.get_table(tid)
    await svc.submit(me, "draw 3", channel_id=CH)
    out = await svc.undo(CH, me)
    assert "Took back `draw 3`" in out.reply and out.reply_post is not None and out.reply_post.controls is not None
    after = await svc.db.get_table(tid)
    assert after is not None and before is not None
    assert after.state == before.state and after.version == before.version + 2  # the move and its undo
    assert await svc.db.moves(tid) == []
    with pytest.raises(Refusal, match="your own last move"):
        await svc.undo(CH, me)  # nothing of yours left to take back
    await svc.submit(me, "draw 3", channel_id=CH)
    with pytest.raises(Refusal, match="your own last move"):
        await svc.undo(CH, other)  # not theirs
    await svc.submit(me, "end", channel_id=CH)
    with pytest.raises(Refusal):
        await svc.undo(CH, me)  # the turn is over


async def test_a_random_draw_is_never_taken_back(svc: TableService) -> None:
    tid = await started(svc, "breakerblocks", "blind=yes")
    me, _ = await mover(svc, tid)
    await svc.submit(me, "draw module", channel_id=CH)
    with pytest.raises(Refusal, match="drew on chance"):
        await svc.undo(CH, me)


async def test_a_card_drawn_from_the_face_down_pile_is_never_taken_back(svc: TableService) -> None:
    tid = await started(svc, "breaks")
    me, _ = await mover(svc, tid)
    await svc.submit(me, "draw", channel_id=CH)
    with pytest.raises(Refusal, match="drew on chance"):
        await svc.undo(CH, me)
    assert len(await svc.db.moves(tid)) == 1


async def test_a_block_pick_is_taken_back_until_the_turn_resolves(svc: TableService) -> None:
    tid = await started(svc, "block")
    game = svc.game("block")
    undone = refused = 0
    for _ in range(60):
        table = await svc.db.get_table(tid)
        assert table is not None
        state = game.load(table.state or {})
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        actor = ALICE if table.seats[seat].user_id == ALICE.user_id else BOB
        move = game.format_move(game.legal_moves(state, seat)[0])
        await svc.submit(actor, move, channel_id=CH)
        after = await svc.db.get_table(tid)
        assert after is not None
        later = game.load(after.state or {})
        same_turn = game.revealed_ply(later) == game.revealed_ply(state)
        if seat in game.to_act(later) and same_turn and not undone:  # more to pick this turn: take it back once
            out = await svc.undo(CH, actor)
            assert f"Took back `{move}`" in out.reply
            again = await svc.db.get_table(tid)
            assert again is not None and again.state == table.state
            undone += 1
        elif not refused and (seat not in game.to_act(later) or not same_turn):
            with pytest.raises(Refusal):  # done for the turn, or the turn resolved (new dice): the picks stand
                await svc.undo(CH, actor)
            refused += 1
        if undone and refused:
            return
    pytest.fail("no pick to take back and none refused")


async def test_hidden_information_games_refuse(svc: TableService) -> None:
    tid = await started(svc, "blockers")
    me, _ = await mover(svc, tid)
    table = await svc.db.get_table(tid)
    assert table is not None
    game = svc.game("blockers")
    state = game.load(table.state or {})
    seat = min(game.to_act(state))
    await svc.submit(me, game.format_move(game.legal_moves(state, seat)[0]), channel_id=CH)
    with pytest.raises(Refusal):
        await svc.undo(CH, me)


# --- /game kick and /game replace (issue 12) --------------------------------------------------------------------
CAROL = Actor(3, "Carol")
MOD = Actor(9, "Mod", can_manage=True)


async def three_players(svc: TableService) -> int:
    """Alice (host), Bob and Carol at a Breaks table, started."""
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="breaks")
    assert out.table_id is not None
    for member in (BOB, CAROL):
        await svc.join(out.table_id, member)
    await svc.start(out.table_id, ALICE)
    return out.table_id


async def test_kick_lets_a_bot_play_the_seat_and_only_the_host_or_a_moderator_may(svc: TableService) -> None:
    tid = await three_players(svc)
    with pytest.raises(Refusal, match="host or a moderator"):
        await svc.kick(CH, BOB, CAROL)
    res = await svc.kick(CH, ALICE, CAROL)
    assert "Carol was removed" in res.reply
    told = " ".join(p.description for p in res.public)
    assert "Carol was removed from the game by Alice." in told and "resigned" not in told, told
    table = await svc.db.get_table(tid)
    assert table is not None and table.status == "active"
    carol = table.seat_of(CAROL.user_id)
    assert carol is not None and carol.resigned
    with pytest.raises(Refusal, match="Carol isn't playing"):
        await svc.kick(CH, ALICE, CAROL)  # once is enough, and the refusal is about Carol
    with pytest.raises(Refusal, match="no longer playing in this game"):
        await svc.resign(CH, CAROL)
    hand = (await svc.hand(CH, CAROL)).reply_post
    assert hand is not None and hand.description == "You were removed from this game. A bot plays your seat."
    assert "Carol (removed)" in await svc.status(CH)
    # the game ends (Bob leaves too); a rematch invites who was still playing, not who was removed
    await svc.resign(CH, BOB)
    table = await svc.db.get_table(tid)
    assert table is not None and table.status == "finished"
    assert table.result is not None and table.result["left"] == ["", "resigned", "removed"]
    status = await svc.status(CH)
    assert "Bob — 0 (resigned)" in status and "Carol — 0 (removed)" in status, status
    rematch = await svc.rematch(tid, ALICE)
    assert rematch.lobby is not None
    assert rematch.lobby.post.mention_ids == [BOB.user_id], rematch.lobby.post.content


async def test_a_kick_that_leaves_one_player_ends_the_game_and_says_so(svc: TableService) -> None:
    tid = await started(svc, "breaks")
    out = await svc.kick(CH, ALICE, BOB)
    assert out.reply == "Bob was removed from the game; the game is over."
    table = await svc.db.get_table(tid)
    assert table is not None and table.status == "finished" and table.result is not None
    assert table.result["winners"] == [0] and table.result["reason"] == "the other player was removed"


async def test_a_seat_whose_player_was_removed_is_playable_by_the_member_given_it(svc: TableService) -> None:
    tid = await three_players(svc)
    await svc.kick(CH, ALICE, CAROL)
    dave = Actor(4, "Dave")
    await svc.replace(CH, MOD, CAROL, dave)
    table = await svc.db.get_table(tid)
    assert table is not None
    seat = table.seat_of(dave.user_id)
    assert seat is not None and not seat.resigned and seat.left_how == "" and not seat.is_bot
    hand = (await svc.hand(CH, dave)).reply_post
    assert hand is not None and "no longer playing" not in (hand.description or "") and \
        "resigned" not in (hand.description or "")


async def test_a_member_given_a_seat_that_is_to_act_gets_the_turns_whole_time(tmp_path: Path) -> None:
    """55 minutes into a 1-hour turn, a moderator gives the seat to Carol: her turn starts with the hour, not with
    the 5 minutes left (the board that hands her the turn mentions her)."""
    now = [1000.0]
    db = await Database.open(tmp_path / "replace.db")
    try:
        svc = TableService(db, default_catalog(), clock=lambda: now[0], seeds=lambda: 3, render=False)
        tid = await started(svc, "breaks", "clock=1h")
        late, _ = await mover(svc, tid)
        now[0] += 55 * 60
        await svc.replace(CH, MOD, late, CAROL)
        table = await svc.db.get_table(tid)
        assert table is not None and table.deadline == now[0] + 3600
    finally:
        await db.close()


async def test_replace_gives_a_seat_to_another_member_or_a_bot(svc: TableService) -> None:
    tid = await started(svc, "breaks")
    with pytest.raises(Refusal, match="moderator"):
        await svc.replace(CH, ALICE, BOB, CAROL)
    out = await svc.replace(CH, MOD, BOB, CAROL)
    assert "gave Bob's seat to Carol" in out.reply and out.public
    table = await svc.db.get_table(tid)
    assert table is not None and table.seat_of(BOB.user_id) is None and table.seat_of(CAROL.user_id) is not None
    with pytest.raises(Refusal, match="already has a seat"):
        await svc.replace(CH, MOD, ALICE, CAROL)
    await svc.replace(CH, MOD, CAROL, None)  # a bot now plays it, at once if it is its turn
    table = await svc.db.get_table(tid)
    assert table is not None and any(s.is_bot for s in table.seats)
    game = svc.game("breaks")
    state = game.load(table.state or {})
    bot_seat = next(s.seat for s in table.seats if s.is_bot)
    assert bot_seat not in game.to_act(state) or game.is_over(state)
