"""Turn clocks (issue 12): a lobby sets how long a turn may take and what happens then; late turns are played out
from the deadlines the database finds by its index, and restarted when a board hands the turn on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from storage import FINISHED, Database
from tables import Actor, Refusal, TableService
from tables.catalog import default_catalog

ALICE, BOB = Actor(1, "Alice"), Actor(2, "Bob")
CH = 500
HOUR = 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "clock.db")
    yield database
    await database.close()


async def table_with_clock(db: Database, clock: Clock, options: str, game: str = "breaks") -> tuple[TableService, int]:
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key=game, options_text=options)
    assert out.table_id is not None
    await svc.join(out.table_id, BOB)
    await svc.start(out.table_id, ALICE)
    return svc, out.table_id


async def loaded(svc: TableService, db: Database, tid: int) -> tuple[Any, Any, Any]:
    """The table, its game and its state as stored."""
    table = await db.get_table(tid)
    assert table is not None
    game = svc.game(table.game)
    return table, game, game.load(table.state or {})


async def first_player(svc: TableService, db: Database, tid: int) -> tuple[int, Actor, Actor]:
    """The seat to act in a two-player Breaks table, its player and the other one."""
    table = await db.get_table(tid)
    assert table is not None
    game = svc.game("breaks")
    seat = min(game.to_act(game.load(table.state or {})))
    me = ALICE if table.seats[seat].user_id == ALICE.user_id else BOB
    return seat, me, BOB if me is ALICE else ALICE


async def test_the_lobby_sets_the_clock_and_refuses_unknown_settings(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=6h timeout=skip decks=2")
    table = await db.get_table(tid)
    assert table is not None and table.turn_seconds == 6 * HOUR and table.on_timeout == "skip"
    assert table.options["decks"] == 2 and "clock" not in table.options
    assert table.deadline == clock.now + 6 * HOUR
    for bad in ("clock=5h", "timeout=sleep"):
        with pytest.raises(Refusal):
            await svc.open_lobby(guild_id=1, channel_id=CH + 1, host=ALICE, game_key="breaks", options_text=bad)


async def test_a_late_turn_is_played_by_a_bot_and_the_clock_restarts(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=1h timeout=bot")
    before = await db.get_table(tid)
    assert before is not None
    clock.now += HOUR - 1
    assert await svc.expire() == [] and await db.due(clock.now) == []  # not yet
    clock.now += 2
    assert await db.due(clock.now) == [tid]
    outs = await svc.expire()
    assert len(outs) == 1 and outs[0].public
    assert "ran out of time: a bot played for them" in outs[0].public[0].description
    after = await db.get_table(tid)
    assert after is not None and after.version > before.version
    moves = await db.moves(tid)
    assert moves and all(m.seat == moves[0].seat for m in moves)  # only the late seat's turn was played
    assert after.deadline == clock.now + HOUR  # the next player's clock
    assert await svc.expire() == []  # handled once


async def test_a_late_player_forfeits_and_the_game_ends_for_two(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=30m timeout=forfeit")
    clock.now += 1801
    outs = await svc.expire()
    assert len(outs) == 1 and "forfeited" in outs[0].public[0].description
    table = await db.get_table(tid)
    assert table is not None and table.status == FINISHED and table.result is not None
    assert table.result["reason"] == "the other player ran out of time"  # (nobody "left")
    assert await db.due(clock.now + 10 * HOUR) == []  # a finished game has no clock


async def test_simultaneous_picks_time_out_only_for_those_still_picking(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=1h", game="block")
    table, game, state = await loaded(svc, db, tid)
    alice_seat = table.seat_of(ALICE.user_id)
    assert alice_seat is not None
    move = game.legal_moves(state, alice_seat.seat)[0]
    await svc.submit(ALICE, game.format_move(move), table_id=tid)  # Alice picks; Bob does not
    clock.now += HOUR + 1
    outs = await svc.expire()
    assert len(outs) == 1 and "Bob ran out of time" in outs[0].public[0].description
    moves = await db.moves(tid)
    assert {m.seat for m in moves[1:]} == {1 - alice_seat.seat}  # the bot picked for Bob only


async def test_reminders_at_half_time_and_near_the_end_then_none(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=24h")
    _, late, _ = await first_player(svc, db, tid)
    who = late.user_id
    clock.now += 11 * HOUR
    assert await svc.remind() == []
    clock.now += 1 * HOUR + 1  # half time
    outs = await svc.remind()
    assert len(outs) == 1 and outs[0].public[0].mention_ids == [who]
    assert "12h left" in outs[0].public[0].content and "a bot plays the turn" in outs[0].public[0].content
    assert await svc.remind() == []  # once
    clock.now += 9 * HOUR + 36 * 60  # a tenth of the time left
    outs = await svc.remind()
    assert len(outs) == 1 and "2.4h left" in outs[0].public[0].content
    clock.now += HOUR
    assert await svc.remind() == []  # no more before the deadline


async def test_pause_keeps_the_time_left_and_resume_gives_it_back(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=1h")
    clock.now += 600
    with pytest.raises(Refusal, match="host or a moderator"):
        await svc.pause_clock(CH, BOB, True)
    out = await svc.pause_clock(CH, ALICE, True)
    assert "paused" in out.public[0].description and "50m left" in out.public[0].description
    clock.now += 10 * HOUR  # paused: nothing happens
    assert await svc.expire() == [] and await svc.remind() == []
    with pytest.raises(Refusal, match="already paused"):
        await svc.pause_clock(CH, ALICE, True)
    await svc.pause_clock(CH, Actor(9, "Mod", can_manage=True), False)
    table = await db.get_table(tid)
    assert table is not None and table.deadline == clock.now + 3000 and table.paused_left is None
    clock.now += 3001
    assert len(await svc.expire()) == 1


async def test_a_player_who_chose_dm_hears_of_their_turn_by_dm_not_a_mention(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=24h")
    first, me, other = await first_player(svc, db, tid)
    game = svc.game("breaks")
    await svc.set_notify(other, "dm")
    with pytest.raises(Refusal):
        await svc.set_notify(other, "pigeon")
    out = None
    for _ in range(4):  # the mover plays until the turn passes (a Breaks draw goes on privately)
        table = await db.get_table(tid)
        assert table is not None
        state = game.load(table.state or {})
        if min(game.to_act(state)) != first:
            break
        out = await svc.submit(me, game.format_move(game.legal_moves(state, first)[0]), table_id=tid)
    assert out is not None and out.public
    board = out.public[0]
    assert f"<@{other.user_id}>" not in board.content and other.user_id not in board.mention_ids
    turn = [dm for dm in out.dms if dm.user_id == other.user_id]
    assert turn and "It's your turn in **Breaks**" in turn[0].post.description
    clock.now += 12 * 3600 + 1
    reminders = await svc.remind()
    assert len(reminders) == 1 and not reminders[0].public and reminders[0].dms[0].user_id == other.user_id
    await svc.set_notify(other, "both")
    clock.now += 10 * 3600
    reminders = await svc.remind()
    assert reminders[0].public and reminders[0].dms


async def test_away_stops_the_clock_of_games_waiting_for_you(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=1h")
    _, late, _ = await first_player(svc, db, tid)
    with pytest.raises(Refusal):
        await svc.set_away(late, 30)
    await svc.set_away(late, 2)
    clock.now += 2 * HOUR
    assert await svc.expire() == []  # away: nothing played for them
    table = await db.get_table(tid)
    assert table is not None and table.deadline == clock.now - 2 * HOUR + 2 * 86400 + HOUR
    await svc.set_away(late, 1)  # the vacation shortened: the turn's hour runs from its new end
    table = await db.get_table(tid)
    assert table is not None and table.deadline == clock.now + 86400 + HOUR
    clock.now += HOUR
    await svc.set_away(late, 0)  # back early: the turn's hour from now, not the rest of the vacation
    table = await db.get_table(tid)
    assert table is not None and table.deadline == clock.now + HOUR
    clock.now += HOUR - 1
    assert await svc.expire() == []
    clock.now += 2
    assert len(await svc.expire()) == 1


async def test_a_finished_games_thread_is_due_for_archiving_a_day_later_once(db: Database) -> None:
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=30m timeout=forfeit")
    clock.now += 1801
    await svc.expire()  # the late player forfeits: the two-player game is over
    assert await svc.archives_due() == []
    clock.now += 24 * HOUR + 1
    assert await svc.archives_due() == [(tid, CH)]
    assert await svc.archives_due() == []  # once


async def test_server_settings_give_new_lobbies_a_clock_and_set_the_archive_delay(db: Database) -> None:
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    with pytest.raises(Refusal, match="Manage Server"):
        await svc.settings(1, ALICE, "24h", None, None, can_manage_server=False)
    shown = await svc.settings(1, ALICE, None, None, None, can_manage_server=False)  # anyone may read them
    assert "turn clock **24h**, then **bot**" in shown.reply and "24 h" in shown.reply  # a new server's defaults
    fresh = await svc.open_lobby(guild_id=9, channel_id=CH + 9, host=ALICE, game_key="breaks")
    assert fresh.table_id is not None and fresh.lobby is not None
    table = await db.get_table(fresh.table_id)  # no game waits for ever unless someone chose it
    assert table is not None and table.turn_seconds == 24 * HOUR and table.on_timeout == "bot"
    assert "turn clock 24h, then a bot plays the turn" in (fresh.lobby.post.description or "") + " ".join(
        v for _, v in fresh.lobby.post.fields)
    out = await svc.settings(1, ALICE, "6h", "forfeit", 2, can_manage_server=True)
    assert "6h" in out.reply and "forfeit" in out.reply and "2 h" in out.reply
    lobby = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="breaks")
    assert lobby.table_id is not None
    table = await db.get_table(lobby.table_id)
    assert table is not None and table.turn_seconds == 6 * HOUR and table.on_timeout == "forfeit"
    other = await svc.open_lobby(guild_id=1, channel_id=CH + 1, host=ALICE, game_key="breaks",
                                 options_text="clock=off")  # a lobby's own setting wins
    assert other.table_id is not None
    table = await db.get_table(other.table_id)
    assert table is not None and table.turn_seconds is None


async def test_reminders_stop_at_the_servers_daily_cap_per_player(db: Database) -> None:
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    await svc.settings(1, ALICE, None, None, None, can_manage_server=True, reminders=1)
    reminded = []
    for i in range(3):  # three games, all waiting for someone, reminded at the same half time
        out = await svc.open_lobby(guild_id=1, channel_id=CH + 10 + i, host=ALICE, game_key="breaks",
                                   options_text="clock=1h")
        assert out.table_id is not None
        await svc.join(out.table_id, BOB)
        await svc.start(out.table_id, ALICE)
    clock.now += 1801
    for out in await svc.remind():
        reminded += [*(p.mention_ids for p in out.public), *([d.user_id] for d in out.dms)]
    per_player = {u: sum(u in ids for ids in reminded) for u in (ALICE.user_id, BOB.user_id)}
    assert all(n <= 1 for n in per_player.values()) and sum(per_player.values()) >= 1


async def test_skip_plays_the_games_default_move(db: Database) -> None:
    """Breaker Blocks' turn decision has a default (`end`): a late turn is ended, nothing drawn or played."""
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=1h timeout=skip", game="breakerblocks")
    clock.now += HOUR + 1
    outs = await svc.expire()
    assert len(outs) == 1 and "the turn was skipped" in outs[0].public[0].description
    assert [m.notation for m in await db.moves(tid)] == ["end"]


async def test_the_servers_vacation_limit(db: Database) -> None:
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    await svc.set_away(ALICE, 14, guild_id=1)
    await svc.settings(1, ALICE, None, None, None, can_manage_server=True, away_days=3)
    with pytest.raises(Refusal, match="0 to 3 days"):
        await svc.set_away(ALICE, 4, guild_id=1)
    await svc.set_away(ALICE, 3, guild_id=1)


async def test_an_answer_owed_outside_ones_turn_takes_its_default_after_12_hours_without_a_clock(db: Database
                                                                                                   ) -> None:
    """Bloc by Bloc on a table without a turn clock: the Start placements (answers outside a turn, asked of both
    players at once: a player's second faction after the first) wait 12 hours, then take their defaults; the
    factions' own turns then have no deadline."""
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "city=beginner clock=off", game="blocbybloc")
    table = await db.get_table(tid)
    assert table is not None and table.turn_seconds is None
    assert table.deadline == clock.now + 12 * HOUR
    game = svc.game("blocbybloc")
    for _ in range(2):  # both players' first faction's Start, then their second's
        clock.now += 12 * HOUR + 1
        outs = await svc.expire()
        assert len(outs) == 1 and "did not answer in time: the default was taken" in outs[0].public[0].description
    table = await db.get_table(tid)
    assert table is not None
    state = game.load(table.state or {})
    assert state.phase == "sunset" and not state.pending
    assert table.deadline is None, "a faction's own turn waits for its player"
    assert [m.notation.split()[0] for m in await db.moves(tid)] == ["start"] * 4


async def three_sharing(db: Database, clock: Clock, options: str, students_next: bool = False
                        ) -> tuple[TableService, int, Any, Actor, Actor]:
    """A 3-player Bloc by Bloc table (its own clock options): the Workers act, sharing a district with the Students
    (tests.cogs.test_blocbybloc_trades.sharing); (service, table, state, the Workers' player, the Students')."""
    from tests.cogs.test_blocbybloc_trades import seed_with_workers_and_students, sharing

    carol = Actor(3, "Carol")
    svc = TableService(db, default_catalog(), clock=clock, seeds=seed_with_workers_and_students, render=False)
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="blocbybloc",
                               options_text=f"city=beginner {options}")
    assert out.table_id is not None
    tid = out.table_id
    await svc.join(tid, BOB)
    await svc.join(tid, carol)
    await svc.start(tid, ALICE)
    game = svc.game("blocbybloc")
    table = await db.get_table(tid)
    assert table is not None
    state = sharing(game.load(table.state or {}))
    if students_next:
        w, s = state.order.index(0), state.order.index(1)
        state.order[(w + 1) % 3], state.order[s] = state.order[s], state.order[(w + 1) % 3]
    await db.record_moves(tid, table.version, [], game.dump(state), clock.now, deadline=clock.now + HOUR)
    people = {p.user_id: p for p in (ALICE, BOB, carol)}
    return (svc, tid, state, people[table.seats[state.controller[0]].user_id or 0],
            people[table.seats[state.controller[1]].user_id or 0])


@pytest.mark.parametrize("policy", ["skip", "bot", "forfeit"])
async def test_a_late_trade_answer_is_declined_and_never_plays_the_answering_seats_turn(db: Database,
                                                                                         policy: str) -> None:
    """Bloc by Bloc, 3 players: the Workers offer the Students a trade and both are late. Whatever the policy, the
    offer is declined (its default: play part D2) and the Students neither forfeit nor have a bot answer; the late
    Workers' turn goes as the policy says; the Students' own turn, next, is theirs to play."""
    clock = Clock()
    svc, tid, state, workers, _ = await three_sharing(db, clock, f"clock=1h timeout={policy}", students_next=True)
    game = svc.game("blocbybloc")
    await svc.submit(workers, "offer S molotov1 for 1", table_id=tid)
    clock.now += HOUR + 1
    outs = await svc.expire()
    assert len(outs) == 1 and f"{workers.name} ran out of time" in outs[0].public[0].description
    rows = await db.moves(tid)
    moves = [m.notation for m in rows]
    late = moves[moves.index("offer S molotov1 for 1") + 1:]
    assert late[0] == "decline 1", "an unanswered offer is declined, whatever the policy"
    table = await db.get_table(tid)
    assert table is not None
    students = table.seats[state.controller[1]]
    assert not students.resigned, "owing an answer is not owing a turn"
    if policy == "skip":
        assert late == ["decline 1", "end"]
    if policy == "forfeit":
        assert table.seats[state.controller[0]].resigned
    after = game.load(table.state or {})
    assert not after.offers and after.faction_now() == 1 and after.dice, "the Students' turn waits for them"
    assert all(m.seat != students.seat for m in rows[moves.index("offer S molotov1 for 1") + 2:])
    svc.thinker.close()


async def test_answers_wait_the_tables_own_time(db: Database) -> None:
    """`answers=1h`: the Start placements (answers outside a turn) wait an hour, not the 12-hour default; the
    setting shows on the lobby and is refused with a clear message when it is not a duration."""
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    with pytest.raises(Refusal, match="`answers` is one of 30m, 1h"):
        await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="blocbybloc", options_text="answers=2d")
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="blocbybloc",
                               options_text="city=beginner answers=1h clock=off")
    assert out.table_id is not None and out.lobby is not None
    assert "answers wait 1h" in (out.lobby.post.description or "") + " ".join(v for _, v in out.lobby.post.fields)
    await svc.join(out.table_id, BOB)
    await svc.start(out.table_id, ALICE)
    table = await db.get_table(out.table_id)
    assert table is not None and table.answer_seconds == HOUR and table.turn_seconds is None
    assert table.deadline == clock.now + HOUR
    clock.now += HOUR + 1
    outs = await svc.expire()
    assert len(outs) == 1 and "did not answer in time: the default was taken" in outs[0].public[0].description


async def test_a_move_beside_the_turn_leaves_the_turns_clock_running(db: Database) -> None:
    """The Students give the acting Workers a card 40 minutes into a one-hour turn: the Workers do not get a new
    hour; nor does their own next action, which goes on with the same turn (one board per faction turn: the clock
    restarts when a board hands the turn on)."""
    clock = Clock()
    svc, tid, _, workers, students = await three_sharing(db, clock, "clock=1h")
    due = clock.now + HOUR
    clock.now += 40 * 60
    await svc.submit(students, "give W banner from S", table_id=tid)
    table = await db.get_table(tid)
    assert table is not None and table.deadline == due
    await svc.submit(workers, "move 1 B5 A5 1", table_id=tid)
    table = await db.get_table(tid)
    assert table is not None and table.deadline == due


@pytest.mark.parametrize("policy", ["bot", "skip"])
async def test_a_late_simultaneous_turn_is_played_and_the_next_one_left_to_its_player(db: Database,
                                                                                     policy: str) -> None:
    """BLOCK with three: Alice and Bob pick turn 1, Carol does not. The clock plays Carol's late turn 1 only (a
    bot: BLOCK's picks have no default, so `skip` falls back to one, and says so); turn 2 is hers to pick, with
    its own clock."""
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    carol = Actor(3, "Carol")
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="block",
                               options_text=f"clock=30m timeout={policy}")
    assert out.table_id is not None
    tid = out.table_id
    for member in (BOB, carol):
        await svc.join(tid, member)
    await svc.start(tid, ALICE)
    people = {1: ALICE, 2: BOB, 3: carol}
    game = svc.game("block")

    async def pick_all(who: list[int]) -> Any:
        """These seats' picks of the turn under way (not the next one's, once it resolves)."""
        table = await db.get_table(tid)
        assert table is not None
        state = game.load(table.state or {})
        turn = state.turn
        for seat in who:
            while seat in game.to_act(state) and state.turn == turn:
                move = game.legal_moves(state, seat)[0]
                await svc.submit(people[table.seats[seat].user_id or 0], game.format_move(move), table_id=tid)
                table = await db.get_table(tid)
                assert table is not None
                state = game.load(table.state or {})
        return state

    state = await pick_all([0, 1, 2])  # the setup turn: everyone writes
    turn = state.turn
    await pick_all([0, 1])  # Carol does not pick
    clock.now += 1801
    (late,) = await svc.expire()
    table = await db.get_table(tid)
    assert table is not None
    state = game.load(table.state or {})
    assert state.turn == turn + 1 and game.to_act(state) == {0, 1, 2}, "turn 2 is everyone's, Carol's too"
    assert table.deadline == clock.now + 1800
    board = late.public[0]
    assert "Carol ran out of time: a bot played for them." in (board.description or "")
    assert f"<@{carol.user_id}>" in (board.content or "")


async def workers_and_students(db: Database, clock: Clock) -> tuple[TableService, int, Actor, Actor, Any]:
    """A Bloc by Bloc table of three with a 1-hour clock where the Workers act and share C3 with the Students
    (tests.cogs.test_blocbybloc_trades.sharing): (service, table, the Workers' player, the Students', state)."""
    from tests.cogs.test_blocbybloc_trades import G, S, W, seed_with_workers_and_students, sharing

    svc = TableService(db, default_catalog(), clock=clock, seeds=seed_with_workers_and_students, render=False)
    carol = Actor(3, "Carol")
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="blocbybloc",
                               options_text="city=beginner clock=1h")
    assert out.table_id is not None
    for member in (BOB, carol):
        await svc.join(out.table_id, member)
    await svc.start(out.table_id, ALICE)
    table = await db.get_table(out.table_id)
    assert table is not None
    state = sharing(G.load(table.state or {}))
    await db.record_moves(table.id, table.version, [], G.dump(state), clock.now)
    people = {1: ALICE, 2: BOB, 3: carol}
    return (svc, table.id, people[table.seats[state.controller[W]].user_id or 0],
            people[table.seats[state.controller[S]].user_id or 0], state)


async def test_a_trade_answer_and_the_turn_it_runs_beside_are_reminded_each_of_their_own(db: Database) -> None:
    clock = Clock()
    svc, tid, workers, students, _ = await workers_and_students(db, clock)
    await svc.submit(workers, "offer S molotov1 for 1", table_id=tid)
    clock.now += 1801
    (out,) = await svc.remind()
    said = {p.content for p in out.public}
    assert said == {f"<@{workers.user_id}> — ⏰ 30m left for your turn in Bloc by Bloc; then a bot plays the turn.",
                    f"<@{students.user_id}> — ⏰ 30m left for your choice in Bloc by Bloc; then its default is "
                    "taken."}, said


async def test_a_lobby_says_a_bot_plays_a_turn_the_game_cannot_skip(db: Database) -> None:
    """timeout=skip plays the game's default move; Blockers! has none, so the lobby says a bot plays the turn."""
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key="blockers",
                               options_text="clock=1h timeout=skip")
    assert out.lobby is not None
    card = " ".join([out.lobby.post.description or ""] + [v for _, v in out.lobby.post.fields])
    assert "turn clock 1h, then a bot plays the turn" in card, card


async def test_a_reminder_of_an_owed_choice_says_its_default_is_taken(db: Database) -> None:
    """The Students owe stop-or-allow on the Workers' loot: their reminder speaks of a choice whose default is
    taken, not of their turn played by a bot."""
    from tests.cogs.test_blocbybloc_trades import G, S, _cell

    clock = Clock()
    svc, tid, workers, _, state = await workers_and_students(db, clock)
    state.dice = [6, 6]
    state.blocs[_cell("C3")][S] = 3
    table = await db.get_table(tid)
    assert table is not None
    await db.record_moves(tid, table.version, [], G.dump(state), clock.now)
    await svc.submit(workers, "loot 6 C3", table_id=tid)
    clock.now += 1801
    (reminder,) = await svc.remind()
    assert reminder.public[0].content.endswith("⏰ 30m left for your choice in Bloc by Bloc; then its default is "
                                               "taken."), reminder.public[0].content


async def test_a_late_player_alone_at_the_table_loses_one_turn_to_the_clock_not_all(db: Database) -> None:
    """Blockers: Bob has taken his final turn and sits out, Alice plays on alone (one turn after another). Her
    clock running out plays one turn for her; the next is hers, with its own clock."""
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=30m timeout=bot", game="blockers")
    table, game, state = await loaded(svc, db, tid)
    (me,) = game.to_act(state)
    state.finished = list(state.colours(1 - me))  # the other seat has sat out
    mine = state.colours(me)[0]
    state.piles[mine] = state.piles[mine][-3:]  # three tiles left to draw: four turns left, all hers
    await db.record_moves(tid, table.version, [], game.dump(state), clock.now)
    clock.now += 1801
    await svc.expire()
    table = await db.get_table(tid)
    assert table is not None
    after = game.load(table.state or {})
    assert after.ply == state.ply + 1 and game.to_act(after) == {me} and table.deadline == clock.now + 1800


async def test_a_late_final_merge_round_is_played_to_its_done(db: Database) -> None:
    """Breaks' final merge round: the seat at the head of the queue merges as often as it likes, then says
    `done`, all one turn. A late player's round is played through to its `done` (not one merge, then a fresh
    clock for each next one)."""
    from engine.breaks.game import FINAL

    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=30m timeout=bot", game="breaks")
    table, game, state = await loaded(svc, db, tid)
    (me,) = game.to_act(state)
    state.phase, state.pending = FINAL, None
    state.slots[me] = [["2H"], ["3H"], ["4H"]]  # merges in a row are possible
    state.slots[1 - me] = [[], [], []]
    state.final_queue = [me, 1 - me]
    await db.record_moves(tid, table.version, [], game.dump(state), clock.now)
    clock.now += 1801
    await svc.expire()
    table, game, after = await loaded(svc, db, tid)
    assert [m.notation for m in await db.moves(tid)][-1] == "done"
    assert me not in game.to_act(after)


@pytest.mark.parametrize("key", [e.key for e in default_catalog().entries()])
def test_a_game_is_skippable_when_its_turns_have_a_default_move(key: str) -> None:
    """Game.skippable (what a lobby's timeout=skip is said to do) agrees with the game's turns: the first decision
    on the clock of a turn, in a game played a few moves in, has a default move exactly when it is skippable."""
    game = default_catalog().get(key)
    assert game is not None
    state = game.new_game(game.min_players, game.resolve_options({}), 3)
    for _ in range(400):
        turns = [d for d in game.decisions(state) if d.clock == "turn" and not d.followup]
        if turns:
            assert (turns[0].default is not None) is game.skippable, turns[0]
            return
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.legal_moves(state, seat)[0])
    raise AssertionError("no turn came up")


async def test_a_turn_the_clock_finishes_says_which_moves_were_the_players(db: Database) -> None:
    """Breaker Blocks: the late player drew with their first action and let the clock run out on the second. The
    board tells both moves; its note says the first was theirs and a bot played the rest."""
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=30m timeout=bot", game="breakerblocks")
    _, game, state = await loaded(svc, db, tid)
    (me,) = game.to_act(state)
    table = await db.get_table(tid)
    assert table is not None
    late = ALICE if table.seats[me].user_id == ALICE.user_id else BOB
    await svc.submit(late, "draw 3", table_id=tid)
    clock.now += 1801
    (out,) = await svc.expire()
    note = (out.public[0].description or "").splitlines()[0]
    assert note == f"• ⏰ {late.name} ran out of time: a bot played the rest of the turn (1 move of it was theirs).", \
        note


async def test_a_late_turns_bot_stores_nothing_before_the_turn_is_played(db: Database,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Breaker Blocks' turn is two actions: the medium bot plays both for the late player, and nothing of the turn is
    stored before it is played (a crash while the bot thinks leaves the turn late, and none of it the player's)."""
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=1h timeout=bot", game="breakerblocks")
    stored: list[int] = []
    think = svc.thinker.move

    async def spy(*args: Any, **kwargs: Any) -> Any:
        stored.append(len(await db.moves(tid)))
        return await think(*args, **kwargs)

    monkeypatch.setattr(svc.thinker, "move", spy)
    clock.now += HOUR + 1
    (out,) = await svc.expire()
    assert len(stored) >= 2, "the bot played the turn's actions"
    assert set(stored) == {0}, "nothing was stored while it thought"
    assert "a bot played for them" in out.public[0].description
    svc.thinker.close()


async def test_players_late_together_forfeit_in_one_write(db: Database) -> None:
    """BLOCK: both players are late; both forfeit at once, and the game's end says so in one board."""
    clock = Clock()
    svc, tid = await table_with_clock(db, clock, "clock=1h timeout=forfeit", game="block")
    before = await db.get_table(tid)
    assert before is not None
    await db.delivered(tid, before.version, clock.now)  # the start's board went out
    clock.now += HOUR + 1
    (out,) = await svc.expire()
    table = await db.get_table(tid)
    assert table is not None and table.version == before.version + 1, "one write"
    assert [s.left for s in table.seats] == ["forfeit", "forfeit"] and table.status == FINISHED
    note = "⏰ Alice, Bob ran out of time and forfeited: the game is over."
    assert note in out.public[0].description
    assert [o.note for o in await db.undelivered()] == [note]


async def test_a_server_that_set_only_other_things_keeps_the_default_clock(db: Database) -> None:
    """Naming an organiser role (or changing the rating rules) writes the server's settings row: its lobbies still
    get the 24 h default clock, which only /settings clock: changes (a review found it read as 'no clock')."""
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    await db.set_organiser_role(5, 777, clock.now)
    assert (await db.guild_settings(5))[0] == 24 * HOUR
    await svc.settings(5, ALICE, "off", None, None, can_manage_server=True)
    assert (await db.guild_settings(5))[0] is None  # chosen: none
    await db.set_organiser_role(5, None, clock.now)
    assert (await db.guild_settings(5))[0] is None  # and kept
