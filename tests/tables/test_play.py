"""tables.play: moves, bots, resignations, the move menu, simultaneous picks, restarts: one versioned transaction per
request."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from engine.base import CANCEL
from engine.rng import Rng
from storage import ACTIVE, FINISHED, Database
from tables import Outcome, Refusal, StaleButton, TableService
from tables.catalog import default_catalog
from tables.menu import MAX_OPTIONS
from tables.outcome import AlreadyPlayed
from tests.tables.helpers import (
    ALICE,
    BOB,
    CARL,
    CH,
    STRANGER,
    actor_of,
    assert_replays,
    assert_unchanged,
    lobby,
    play_out,
    post_text,
    read,
    service,
    started,
    state_of,
    whose_turn,
)


async def test_submit_refusals_change_nothing(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    before, actor, _ = await whose_turn(svc, tid)
    other = BOB if actor is ALICE else ALICE
    cases = [
        (STRANGER, "draw", "You are not playing in this game."),
        (other, "draw", f"It is not your turn: waiting for {actor.name}."),
        (actor, "fly away", r"I don't understand `fly away`. Moves look like `draw`"),
        (actor, "place 9", "There is no slot 9"),
        (actor, "place 1", "Draw a card first"),
        (actor, "discard", "Draw a card first"),
    ]
    for who, text, message in cases:
        with pytest.raises(Refusal, match=message) as info:
            await svc.submit(who, text, channel_id=CH)
        assert type(info.value) is Refusal
        await assert_unchanged(svc, tid, before, 0)


async def test_two_concurrent_submits_apply_exactly_one(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    for _ in range(4):
        table, actor, move = await whose_turn(svc, tid)
        n = len(await svc.db.moves(tid))
        results = await asyncio.gather(svc.submit(actor, move, table_id=tid, version=table.version),
                                       svc.submit(actor, move, table_id=tid, version=table.version),
                                       return_exceptions=True)
        assert sum(isinstance(r, Outcome) for r in results) == 1, results
        assert sum(isinstance(r, Refusal) for r in results) == 1, results  # StaleButton is a Refusal
        moves = await svc.db.moves(tid)
        assert len(moves) == n + 1 and moves[-1].notation == move
        assert (await read(svc, tid)).version == table.version + 1


async def test_two_processes_submitting_at_once_apply_exactly_one(svc: TableService, db_file: Path) -> None:
    """Two services on two connections (as after a double deploy): the stored version decides."""
    tid, _ = await started(svc, ALICE, BOB)
    other_db = await Database.open(db_file)
    try:
        other = service(other_db)
        for _ in range(4):
            table, actor, move = await whose_turn(svc, tid)
            n = len(await svc.db.moves(tid))
            results = await asyncio.gather(svc.submit(actor, move, table_id=tid, version=table.version),
                                           other.submit(actor, move, table_id=tid, version=table.version),
                                           return_exceptions=True)
            assert sum(isinstance(r, Outcome) for r in results) == 1, results
            # the other is refused: a stale version if it read the table before the first committed, "already
            # played" if after (the same player's same move, just stored)
            assert sum(isinstance(r, StaleButton | AlreadyPlayed) for r in results) == 1, results
            assert len(await svc.db.moves(tid)) == n + 1
    finally:
        await other_db.close()
    await assert_replays(svc, tid)


async def test_bots_move_after_a_human_and_their_moves_are_logged(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, bots=2)
    table, actor, _ = await whose_turn(svc, tid)
    assert actor is ALICE  # the bots already played up to Alice's turn
    alice = table.seat_of(ALICE.user_id).seat  # type: ignore[union-attr]
    n = len(await svc.db.moves(tid))
    seen_bots = set()
    for _ in range(3):  # three full turns of Alice's: draw, then place/break/discard
        for _ in range(2):
            table, actor, move = await whose_turn(svc, tid)
            assert actor is ALICE
            out = await svc.submit(ALICE, move, table_id=tid, version=table.version)
        new = (await svc.db.moves(tid))[n:]
        n += len(new)
        assert [m.seat for m in new[:2]] == [alice, alice]
        bot_moves = new[2:]
        assert bot_moves and all(m.seat != alice for m in bot_moves)
        seen_bots |= {m.seat for m in bot_moves}
        (board,) = out.public
        for event in bot_moves[-1].events:  # the bots' events are on the board post
            assert f"• {event}" in board.description
        assert any(name in board.description for name in ("Bot 1", "Bot 2"))
        assert board.content == "<@1> — your turn."
    assert seen_bots == {0, 1, 2} - {alice}
    await assert_replays(svc, tid)


async def test_bot_play_is_reproducible_from_the_seed(tmp_path: Path) -> None:
    logs = []
    for i in range(2):
        other = await Database.open(tmp_path / f"repro{i}.db")
        try:
            svc = service(other)
            tid, _ = await started(svc, ALICE, bots=2)
            await play_out(svc, tid)
            logs.append([(m.seat, m.notation) for m in await svc.db.moves(tid)])
        finally:
            await other.close()
    assert logs[0] == logs[1]


@pytest.mark.parametrize("game", ["breaks", "highcard"])
async def test_a_whole_game_with_one_human_and_bots(hsvc: TableService, game: str) -> None:
    tid, _ = await started(hsvc, ALICE, bots=2, game=game)
    last: list[Outcome] = []
    table = await play_out(hsvc, tid, lambda out, before, after: last.append(out))
    assert table.status == FINISHED
    result = table.result
    assert result is not None
    engine_game, state = state_of(hsvc, table)
    engine_result = engine_game.result(state)
    assert engine_result is not None
    assert result["scores"] == list(engine_result.scores)
    assert result["ranks"] == list(engine_result.ranks)
    assert result["winners"] == sorted(engine_result.winners)
    assert result["resigned"] == []
    final = last[-1].public[0]
    assert final.content.startswith("🏁 Game over!") and final.controls is None and final.panel_table is None
    assert final.fields[0][0] == "Result"
    await assert_replays(hsvc, tid)
    with pytest.raises(Refusal, match="This game is over."):
        await hsvc.submit(ALICE, "draw", channel_id=CH)
    assert await hsvc.db.open_table_in(CH) is None


async def test_resign_in_a_two_player_game_ends_it(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    out = await svc.resign(CH, BOB)
    table = await read(svc, tid)
    alice, bob = table.seat_of(ALICE.user_id).seat, table.seat_of(BOB.user_id).seat  # type: ignore[union-attr]
    assert table.status == FINISHED and table.result is not None
    assert table.result["winners"] == [alice]
    assert table.result["ranks"][alice] == 1 and table.result["ranks"][bob] == 2
    assert table.result["resigned"] == [bob]
    assert table.result["reason"] == "the other player resigned"
    assert out.reply == "You resigned."
    (post,) = out.public
    assert post.content == "🏁 Game over! Winner: <@1>." and "Bob resigned." in post.description
    assert "Bob — 0 (resigned)" in post.fields[0][1]
    for who in (ALICE, BOB):
        with pytest.raises(Refusal, match="This game is over."):
            await svc.resign(CH, who)


async def test_resign_needs_a_started_game_and_a_player(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    with pytest.raises(Refusal, match="not started yet"):
        await svc.resign(CH, BOB)
    await svc.start(tid, ALICE)
    with pytest.raises(Refusal, match="not playing"):
        await svc.resign(CH, STRANGER)


async def test_resign_in_a_three_player_game_plays_the_seat_automatically(svc: TableService,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    tid, _ = await started(svc, ALICE, BOB, CARL)
    levels: list[tuple[int, str]] = []
    think = svc.thinker.move

    async def spy(game: Any, state: Any, seat: int, level: str, rng: Any, in_catalog: bool) -> Any:
        levels.append((seat, level))
        return await think(game, state, seat, level, rng, in_catalog)

    monkeypatch.setattr(svc.thinker, "move", spy)
    out = await svc.resign(CH, BOB)
    table = await read(svc, tid)
    bob = table.seat_of(BOB.user_id)
    assert bob is not None and bob.resigned == 1 and table.status == ACTIVE
    assert "Bob resigned. Their seat plays on automatically and ranks last." in out.public[0].description
    game, state = state_of(svc, table)
    assert bob.seat not in game.to_act(state)  # never waiting for a resigned seat
    resigned_at = len(await svc.db.moves(tid))
    with pytest.raises(Refusal, match="You are no longer playing in this game"):
        await svc.submit(BOB, "draw", channel_id=CH)
    hand = (await svc.hand(CH, BOB)).reply_post
    assert hand is not None and hand.description == "You resigned. A bot plays your seat." and hand.controls is None
    assert await svc.choices(CH, BOB) == []

    table = await play_out(svc, tid)
    assert table.status == FINISHED and table.result is not None
    later = (await svc.db.moves(tid))[resigned_at:]
    assert any(m.seat == bob.seat for m in later)  # the seat kept playing
    assert {level for seat, level in levels if seat == bob.seat} == {"medium"}, "sensibly, as a late turn is"
    svc.thinker.close()
    assert table.result["ranks"][bob.seat] == 3 and table.result["resigned"] == [bob.seat]
    assert bob.seat not in table.result["winners"]
    await assert_replays(svc, tid)


async def test_a_game_continues_after_a_restart(db_file: Path) -> None:
    first = await Database.open(db_file)
    try:
        svc = service(first)
        tid, _ = await started(svc, ALICE, BOB, bots=1)
        table, actor, move = await whose_turn(svc, tid)
        await svc.submit(actor, move, table_id=tid, version=table.version)
        stale_version = table.version
        before = await read(svc, tid)
        moves_before = await svc.db.moves(tid)
    finally:
        await first.close()

    second = await Database.open(db_file)
    try:
        svc = service(second)
        assert await read(svc, tid) == before
        assert await svc.db.moves(tid) == moves_before
        table, actor, move = await whose_turn(svc, tid)
        with pytest.raises(StaleButton):  # a button from before the restart
            await svc.submit(actor, move, table_id=tid, version=stale_version)
        await svc.submit(actor, move, channel_id=CH)  # typed: finds the table from the channel
        assert (await read(svc, tid)).version > before.version
        table = await play_out(svc, tid)
        assert table.status == FINISHED
        await assert_replays(svc, tid)
    finally:
        await second.close()


async def test_service_menu_walks_to_a_move_and_refuses_stale_or_foreign_requests(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB, CARL, game="blockers")
    table = await svc.db.get_table(tid)
    assert table is not None
    game = svc.game("blockers")
    state = game.load(table.state or {})
    (seat,) = game.to_act(state)
    mover = (ALICE, BOB, CARL)[seat]
    other = (ALICE, BOB, CARL)[(seat + 1) % 3]
    top = await svc.menu(tid, mover, table.version, ())
    assert top.trail == () and not top.node.leaf and len(top.node.children) <= MAX_OPTIONS
    step = top
    while not step.node.leaf:  # always the first entry: tile, (row,) square
        step = await svc.menu(tid, mover, table.version, (*step.path, 0))
        assert step.trail[-1] == step.node.label
    assert 2 <= len(step.path) <= 3
    assert step.node.choice is not None
    assert step.node.choice.notation == game.format_move(game.legal_moves(state, seat)[0])
    with pytest.raises(StaleButton):  # made in the lobby: everyone has been asked something new since
        await svc.menu(tid, mover, 1, ())
    with pytest.raises(StaleButton):
        await svc.menu(tid, mover, table.version, (99,))
    with pytest.raises(Refusal, match="not your turn"):
        await svc.menu(tid, other, table.version, ())


async def test_simultaneous_picks_stay_private_and_keep_each_seats_controls_current(bsvc: TableService) -> None:
    tid, _ = await started(bsvc, ALICE, BOB, CARL, game="block")
    table = await read(bsvc, tid)
    made_at = table.version
    # Setup: all three write at once. Alice's and Bob's picks only tell the channel who is done: no new board.
    out = await bsvc.submit(ALICE, "write a1", table_id=tid, version=made_at)
    assert [p.board for p in out.public] == [None] and "Alice" in post_text(out.public[0])
    assert "a1" not in post_text(out.public[0])
    # Bob's control was made before Alice's pick bumped the version; only Alice acted, so it still works.
    out = await bsvc.submit(BOB, "write c1", table_id=tid, version=made_at)
    assert (await read(bsvc, tid)).version == made_at + 2
    # Alice's own control from before her pick is stale now.
    with pytest.raises(StaleButton):
        await bsvc.submit(ALICE, "write b1", table_id=tid, version=made_at)
    # /log says that picks happened, not what they were, until the turn resolves.
    log = await bsvc.history(CH)
    assert "write" not in log and log.count("private pick") == 2
    out = await bsvc.submit(CARL, "write g1", table_id=tid, version=made_at)
    assert len(out.public) == 1 and out.public[0].mention_ids == [ALICE.user_id, BOB.user_id, CARL.user_id]
    assert "write a1" in await bsvc.history(CH)  # revealed with the new turn


async def test_a_pick_with_more_to_pick_answers_with_the_next_step_privately(bsvc: TableService) -> None:
    tid, _ = await started(bsvc, ALICE, BOB, game="block")
    for actor, cell in ((ALICE, "a1"), (BOB, "b1")):
        await bsvc.submit(actor, f"write {cell}", channel_id=CH)
    replies = 0
    for _ in range(60):  # a few turns: Alice and Bob play their first legal pick
        table = await read(bsvc, tid)
        if table.status != ACTIVE:
            break
        game, state = state_of(bsvc, table)
        for seat, actor in ((0, ALICE), (1, BOB)):
            if seat not in game.to_act(state):
                continue
            out = await bsvc.submit(actor, game.format_move(game.legal_moves(state, seat)[0]), channel_id=CH)
            after = game.load((await read(bsvc, tid)).state or {})
            if seat in game.to_act(after) and after.turn == state.turn:  # more to pick this turn: privately
                assert out.reply_post is not None and out.reply_post.controls is not None
                assert out.reply_post.description.startswith("Now ")
                assert {c.notation for c in out.reply_post.controls.choices} == {
                    game.format_move(m) for m in game.legal_moves(after, seat)}
                replies += 1
            else:
                assert out.reply_post is None
            break
    assert replies >= 3


async def test_preview_shows_the_pick_with_submit_and_changes_nothing(bsvc: TableService) -> None:
    tid, _ = await started(bsvc, ALICE, BOB, game="block")
    table = await read(bsvc, tid)
    post = await bsvc.preview(tid, ALICE, table.version, "write c1")
    assert post.controls is not None and [c.label for c in post.controls.choices] == ["Submit"]
    assert post.controls.choices[0].notation == "write c1" and "c1" in post.description
    assert await read(bsvc, tid) == table  # nothing stored
    step = await bsvc.menu(tid, ALICE, table.version, (2,))
    assert step.confirm and step.node.choice is not None and step.node.choice.notation == "write c1"
    with pytest.raises(Refusal):
        await bsvc.preview(tid, ALICE, table.version, "write c2")  # not a bottom-row cell
    await bsvc.submit(ALICE, "write a1", table_id=tid, version=table.version)
    with pytest.raises(StaleButton):
        await bsvc.preview(tid, ALICE, table.version, "write c1")  # Alice has picked since


async def test_a_move_the_game_cancels_is_answered_not_played(db: Database) -> None:
    """Bloc by Bloc checks a move again after the reaction roll it sets off, and cancels it when the police made it
    impossible ("nothing spent"): the mover is told it was not played, not "Played". Moves at random from a seeded
    generator, until one the engine would cancel is on offer (the engine decides as the service will: its dice are
    in the state)."""
    svc = TableService(db, default_catalog(), seeds=lambda: 30, render=False)
    tid, _ = await started(svc, ALICE, BOB, game="blocbybloc")
    rng = Rng(30)
    for _ in range(200):
        table = await read(svc, tid)
        game, state = state_of(svc, table)
        seat = min(game.to_act(state))
        moves = game.legal_moves(state, seat)
        doomed = next((m for m in moves if any(e.kind == CANCEL for e in game.apply(state, seat, m)[1])), None)
        if doomed is not None:
            text = game.format_move(doomed)
            out = await svc.submit(actor_of(table, seat), text, table_id=tid)
            assert not out.played
            said = game.text.describe_move(state, seat, doomed)
            assert out.reply == f"Not played: {said} is no longer possible after the police reaction: nothing spent."
            return
        await svc.submit(actor_of(table, seat), game.format_move(moves[rng.below(len(moves))]), table_id=tid)
    raise AssertionError("no cancelled move came up in 200 moves")
