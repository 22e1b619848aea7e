"""Tournaments through the table service on a real SQLite file: sign-ups, a round's games opened once each, a game's
end reported in its own transaction, the next round paired exactly once, drops, the final; Swiss for two and for
four seats, single elimination and the BLOCK solo arena."""

from __future__ import annotations

import pytest

from storage.tournaments import OwedGame
from tables import Actor, Refusal, TableService
from tests.tables.helpers import ALICE, BOB, CARL, DANA, EVE, read

GUILD, HALL = 7, 500
FRED, GINA, HANK = Actor(6, "Fred"), Actor(7, "Gina"), Actor(8, "Hank")
EIGHT = (ALICE, BOB, CARL, DANA, EVE, FRED, GINA, HANK)
BY_ID = {a.user_id: a for a in EIGHT}


async def create(svc: TableService, game: str = "breaks", fmt: str = "swiss", seats: int = 0, rounds: int = 0,
                 players: tuple[Actor, ...] = (ALICE, BOB, CARL, DANA), options: str | None = None) -> int:
    out = await svc.tournaments.create(guild_id=GUILD, channel_id=HALL, actor=ALICE, organiser=True, game_key=game,
                                       fmt=fmt, seats=seats, rounds=rounds, options_text=options)
    assert out.tournament_id is not None
    tid = out.tournament_id
    for p in players:
        await svc.tournaments.join(tid, p)
    return tid


async def open_round(svc: TableService, tid: int, channel: list[int]) -> list[int]:
    """Open every game the tournament owes, each in a new channel; returns their table ids."""
    tables = []
    for owed, name in await svc.tournaments.owed_games(tid):
        assert name.startswith(f"{svc.game((await svc.tournaments.row(tid)).game).name} · T{tid} round")
        channel[0] += 1
        out = await svc.tournaments.open_game(owed, channel[0])
        assert out.public and "begins!" in out.public[0].description
        assert out.table_id is not None
        tables.append(out.table_id)
    return tables


async def finish(svc: TableService, table_id: int, winner_seat: int = 0) -> None:
    """The game ends by resignations: every other player resigns, the last first... so the winner is ``winner_seat``
    and the others rank in reverse order of seat."""
    table = await read(svc, table_id)
    for seat in sorted((s for s in table.seats if s.seat != winner_seat), key=lambda s: -s.seat):
        if (await read(svc, table_id)).status != "active":
            break
        assert seat.user_id is not None
        await svc.resign(table.channel_id, BY_ID[seat.user_id])
    assert (await read(svc, table_id)).status == "finished"


async def kinds(svc: TableService, tid: int) -> list[str]:
    return [f"{o.kind}{o.round or ''}" for o in await svc.db.tournaments.posts_owed(tid)]


async def test_a_two_seat_swiss_runs_round_by_round_to_its_final(svc: TableService) -> None:
    tid = await create(svc, rounds=2)
    with pytest.raises(Refusal, match="already joined"):
        await svc.tournaments.join(tid, BOB)
    with pytest.raises(Refusal, match="Only the tournament's organiser"):
        await svc.tournaments.start(tid, BOB, organiser=False)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    with pytest.raises(Refusal, match="already started"):
        await svc.tournaments.start(tid, ALICE, organiser=True)
    channel = [2000]
    first = await open_round(svc, tid, channel)
    assert len(first) == 2 and await svc.tournaments.owed_games(tid) == []
    for table_id in first:
        assert (await read(svc, table_id)).status == "active"
    await finish(svc, first[0])
    assert await kinds(svc, tid) == ["card", "card", "card", "card", "card", "card", "round1"]
    await finish(svc, first[1])  # the round is complete: its standings and the next round, in the same write
    assert (await kinds(svc, tid))[-2:] == ["standings1", "round2"]
    games = await svc.db.tournaments.games(tid)
    assert [(g.round, g.number) for g in games] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    second = await open_round(svc, tid, channel)
    winners_of_round_1 = {(await read(svc, t)).seats[0].user_id for t in first}
    r2 = [await read(svc, t) for t in second]
    assert {s.user_id for s in r2[0].seats} == winners_of_round_1, "the two winners meet"
    for t in second:
        await finish(svc, t)
    assert (await kinds(svc, tid))[-2:] == ["standings2", "final"]
    row = await svc.tournaments.row(tid)
    assert row.status == "finished"
    final = await svc.tournaments.standings(tid, final=True)
    champion = r2[0].seats[0].user_id
    assert final.content.startswith(f"🏆 <@{champion}> wins") and final.mention_ids == [champion]
    assert final.description.startswith(f"` 1.` **{BY_ID[champion or 0].name}** · 2 pts")


async def test_a_game_opens_once(svc: TableService) -> None:
    tid = await create(svc)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    (owed, _), _ = await svc.tournaments.owed_games(tid)
    await svc.tournaments.open_game(owed, 3001)
    with pytest.raises(Refusal, match="open already"):
        await svc.tournaments.open_game(owed, 3002)
    assert await svc.db.open_table_in(3002) is None


async def test_a_four_seat_swiss_of_eight(svc: TableService) -> None:
    tid = await create(svc, game="blockers", seats=4, rounds=2, players=EIGHT)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    channel = [4000]
    tables = await open_round(svc, tid, channel)
    assert [len((await read(svc, t)).seats) for t in tables] == [4, 4]
    for t in tables:
        await finish(svc, t)
    second = await open_round(svc, tid, channel)
    firsts = {(await read(svc, t)).seats[0].user_id for t in tables}
    assert firsts <= {s.user_id for s in (await read(svc, second[0])).seats}, "the leaders sit together"
    for t in second:
        await finish(svc, t)
    assert (await svc.tournaments.row(tid)).status == "finished"
    text = (await svc.tournaments.standings(tid, final=True)).description
    assert text.count("`") == 16 and "pts" in text


async def test_a_drop_resigns_a_running_game_and_is_not_paired_again(svc: TableService) -> None:
    tid = await create(svc, rounds=2)
    early = await svc.tournaments.standings(tid)  # nobody ranked before a round is played
    assert early.description == "No round has been played yet." and early.board is None
    out = await svc.tournaments.drop(tid, BOB, BOB, organiser=False)  # before the start: leaving the sign-ups
    assert out.reply == "You left Breaks Swiss."
    assert BOB.user_id not in (await svc.tournaments.row(tid)).tournament.players
    await svc.tournaments.join(tid, BOB)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    channel = [5000]
    tables = await open_round(svc, tid, channel)
    dropping = (await read(svc, tables[0])).seats[1]
    assert dropping.user_id is not None
    quitter = BY_ID[dropping.user_id]
    with pytest.raises(Refusal, match="organiser"):
        await svc.tournaments.drop(tid, CARL if quitter != CARL else DANA, quitter, organiser=False)
    out = await svc.tournaments.drop(tid, quitter, quitter, organiser=False)
    assert "dropped out" in out.reply and (await read(svc, tables[0])).status == "finished"
    await finish(svc, tables[1])
    second = await open_round(svc, tid, channel)
    seated = {s.user_id for t in second for s in (await read(svc, t)).seats}
    assert quitter.user_id not in seated and len(seated) == 2  # three left: two play, one has the bye
    assert "Bye (counts as a win)" in (await svc.tournaments.round_post(tid, 2)).description
    standings = (await svc.tournaments.standings(tid)).description
    assert f"**{quitter.name}** (dropped)" in standings


async def test_a_single_elimination_of_four(svc: TableService) -> None:
    tid = await create(svc, fmt="elimination")
    await svc.tournaments.start(tid, ALICE, organiser=True)
    channel = [6000]
    semis = await open_round(svc, tid, channel)
    assert len(semis) == 2
    for t in semis:
        await finish(svc, t, winner_seat=1)
    (final,) = await open_round(svc, tid, channel)
    finalists = {(await read(svc, t)).seats[1].user_id for t in semis}
    assert {s.user_id for s in (await read(svc, final)).seats} == finalists
    await finish(svc, final)
    row = await svc.tournaments.row(tid)
    assert row.status == "finished" and row.tournament.winners() == ((await read(svc, final)).seats[0].user_id,)


async def test_a_solo_arena_deals_everyone_the_same_game(svc: TableService) -> None:
    tid = await create(svc, game="block", fmt="arena", players=(ALICE, BOB, CARL))
    await svc.tournaments.start(tid, ALICE, organiser=True)
    tables = await open_round(svc, tid, [7000])
    seeds = {(await read(svc, t)).seed for t in tables}
    assert len(tables) == 3 and len(seeds) == 1
    for t in tables:
        await finish(svc, t, winner_seat=-1)  # a solo player who resigns ends with the score they have
    row = await svc.tournaments.row(tid)
    assert row.status == "finished" and len(row.tournament.winners()) == 3  # the same score: a shared first place


async def test_an_arenas_late_joiner_plays_the_open_rounds_deal(svc: TableService) -> None:
    """A late joiner of a running arena gets a table of the open round, its game owed and opened like the others',
    with the same deal; the round (here the arena's only one) ends once every game has, the late one included."""
    tid = await create(svc, game="block", fmt="arena", players=(ALICE, BOB))
    card = svc.tournaments.card(await svc.tournaments.row(tid)).description or ""
    assert " · 1 round\n" in card and "turn clock 24h, then a bot plays the turn" in card, card
    await svc.tournaments.start(tid, ALICE, organiser=True)
    tables = await open_round(svc, tid, [7100])
    out = await svc.tournaments.join(tid, CARL)
    assert "Your game of this round opens in its thread." in (out.reply or "")
    (late,) = await open_round(svc, tid, [7200])
    assert (await read(svc, late)).seed == (await read(svc, tables[0])).seed, "the same deal"
    for t in tables:
        await finish(svc, t, winner_seat=-1)
    assert (await svc.tournaments.row(tid)).status == "running", "the late joiner's game still counts"
    await finish(svc, late, winner_seat=-1)
    row = await svc.tournaments.row(tid)
    assert row.status == "finished" and len(row.tournament.players) == 3
    post = await svc.tournaments.standings(tid, final=True)  # ranked by score: no tie-breaks it never uses
    lines = (post.description or "").split("\n")
    assert len(lines) == 3 and all(" · score " in x and "Buchholz" not in x for x in lines), lines
    assert post.footer == "Ranked by score (each round, everyone plays the same deal); equal scores share a place."


async def test_an_arenas_round_whose_time_is_up_takes_no_late_joiner(svc: TableService) -> None:
    at(svc, 3_000_000)
    tid = await create(svc, game="block", fmt="arena", players=(ALICE, BOB), options="round=1h")
    await svc.tournaments.start(tid, ALICE, organiser=True)
    at(svc, 3_000_000 + 3700)  # the deadline passed; the tick has not ended the round yet
    with pytest.raises(Refusal, match="This round's time is up"):
        await svc.tournaments.join(tid, CARL)
    assert CARL.user_id not in (await svc.tournaments.row(tid)).tournament.players


async def test_who_may_create_and_what_they_may_ask(svc: TableService) -> None:
    async def make(**kw: object) -> None:
        args = {"guild_id": GUILD, "channel_id": HALL, "actor": ALICE, "organiser": True, "game_key": "breaks",
                "fmt": "swiss", **kw}
        await svc.tournaments.create(**args)  # type: ignore[arg-type]

    with pytest.raises(Refusal, match="Manage Server, or the server's organiser role"):
        await make(organiser=False)
    with pytest.raises(Refusal, match="belong to a server"):
        await make(guild_id=None)
    with pytest.raises(Refusal, match="`format` is one of"):
        await make(fmt="ladder")
    with pytest.raises(Refusal, match="two-seat games"):
        await make(fmt="elimination", seats=3)
    with pytest.raises(Refusal, match="seats 2–4 players"):
        await make(seats=6)
    with pytest.raises(Refusal, match="no game called"):
        await make(game_key="chess")


def test_owed_games_are_plain_values() -> None:
    assert OwedGame(1, 2, 3, 1, None).table_id is None


def at(svc: TableService, when: float) -> None:
    """The service's clock jumps to ``when`` (and runs on a second a call from there)."""
    ticks = iter(range(int(when), int(when) + 10_000))
    svc.clock = lambda: float(next(ticks))


async def test_a_rounds_deadline_ends_its_games_as_they_stand(svc: TableService) -> None:
    at(svc, 1_000_000)
    tid = await create(svc, rounds=2, options="round=1h")
    await svc.tournaments.start(tid, ALICE, organiser=True)
    tables = await open_round(svc, tid, [8000])
    await finish(svc, tables[0])
    assert await svc.tournaments.expire() == []  # not yet
    at(svc, 1_000_000 + 3700)
    outs = await svc.tournaments.expire()
    assert len(outs) == 1 and "this game ends as it stands" in outs[0].public[0].description
    late = await read(svc, tables[1])
    assert late.status == "finished" and "round's time ran out" in late.result["reason"]
    assert len(await svc.tournaments.owed_games(tid)) == 2, "the next round is paired"
    assert await svc.tournaments.expire() == []  # the new round has its own deadline


async def test_sign_ups_close_and_it_starts_or_is_cancelled(svc: TableService) -> None:
    at(svc, 2_000_000)
    full = await create(svc, options="signup=1h")
    alone = await create(svc, options="signup=1h", players=(ALICE,))
    card = svc.tournaments.card(await svc.tournaments.row(full))
    assert "sign-ups close <t:" in card.description
    at(svc, 2_000_000 + 3700)
    await svc.tournaments.expire()
    assert (await svc.tournaments.row(full)).status == "running" and len(await svc.tournaments.owed_games(full)) == 2
    assert (await svc.tournaments.row(alone)).status == "cancelled"
    said = {o.kind: p.description for o, p in await svc.tournaments.owed_posts(alone)}
    assert said["unfilled"] == "Sign-ups closed with too few players to pair a round, so this tournament was " \
        "cancelled."
    assert await svc.tournaments.expire() == []
    await svc.tournaments.cancel(full, ALICE, organiser=True)  # by its organiser: said so
    said = {o.kind: p.description for o, p in await svc.tournaments.owed_posts(full)}
    assert said["cancelled"] == "This tournament was cancelled by an organiser."
    assert (await svc.tournaments.row(full)).status == "cancelled"


async def test_the_organiser_reports_and_overrides_a_result(svc: TableService) -> None:
    tid = await create(svc, rounds=2)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    tables = await open_round(svc, tid, [9000])
    with pytest.raises(Refusal, match="organiser"):
        await svc.tournaments.report(tid, BOB, False, 1, "2,1")
    with pytest.raises(Refusal, match="Places look like"):
        await svc.tournaments.report(tid, ALICE, True, 1, "first")
    with pytest.raises(Refusal, match="no round 5"):
        await svc.tournaments.report(tid, ALICE, True, 1, "1,2", round_number=5)
    out = await svc.tournaments.report(tid, ALICE, True, 1, "2,1")
    assert out.reply == "Round 1, table 1: result recorded (2,1)."
    await finish(svc, tables[0])  # the game ends after all: the organiser's result stands
    row = await svc.tournaments.row(tid)
    assert row.tournament.rounds[0].table(1).result.places == (2, 1)
    with pytest.raises(Refusal, match=r"already has a result \(2,1\); add `override:True`"):
        await svc.tournaments.report(tid, ALICE, True, 1, "1,2")
    out = await svc.tournaments.report(tid, ALICE, True, 1, "1,2", override=True)
    assert "overridden" in out.reply
    await svc.tournaments.report(tid, ALICE, True, 2, "1,2")  # the round is complete: the next is paired
    assert len(await svc.tournaments.owed_games(tid)) == 2


async def test_a_pause_holds_the_deadline_and_the_next_round(svc: TableService) -> None:
    at(svc, 3_000_000)
    tid = await create(svc, rounds=2, options="round=1h")
    await svc.tournaments.start(tid, ALICE, organiser=True)
    tables = await open_round(svc, tid, [9500])
    out = await svc.tournaments.pause(tid, ALICE, True)
    assert "is paused" in out.reply and "Paused by the organiser" in \
        svc.tournaments.card(await svc.tournaments.row(tid)).description
    for t in tables:
        await finish(svc, t)
    assert await svc.tournaments.owed_games(tid) == [], "no new round while paused"
    at(svc, 3_000_000 + 7200)
    assert await svc.tournaments.expire() == []
    out = await svc.tournaments.pause(tid, ALICE, True)
    assert "resumes. The next round is paired." in out.reply
    assert len(await svc.tournaments.owed_games(tid)) == 2
    row = await svc.tournaments.row(tid)
    assert row.round_deadline is not None and row.round_deadline > 3_000_000 + 7200 + 3000


async def test_a_servers_organiser_role(svc: TableService) -> None:
    may = svc.tournaments.may_organise
    assert not await may(GUILD, False, [55]) and await may(GUILD, True, [])  # no role set: Manage Server only
    out = await svc.settings(GUILD, ALICE, None, None, None, True, organiser_role=55)
    assert "<@&55> role" in out.reply and await svc.db.organiser_role(GUILD) == 55
    assert await may(GUILD, False, [12, 55]) and not await may(GUILD, False, [12]) and await may(GUILD, True, [])
    assert not await may(GUILD + 1, False, [55]), "another server's role is its own"
    with pytest.raises(Refusal, match="Manage Server"):
        await svc.settings(GUILD, BOB, None, None, None, False, organiser_role=56)
    out = await svc.settings(GUILD, ALICE, None, None, None, True, organiser_role=55)
    assert "names a role" in out.reply and await svc.db.organiser_role(GUILD) is None
    assert not await may(GUILD, False, [55])


async def test_late_joiners_start_with_zero_or_half_a_point_or_are_refused(svc: TableService) -> None:
    for late, points in (("zero", 0.0), ("half", 0.5)):
        tid = await create(svc, rounds=3, options=f"late={late}")
        assert "late joiners welcome" in svc.tournaments.card(await svc.tournaments.row(tid)).description
        await svc.tournaments.start(tid, ALICE, organiser=True)
        out = await svc.tournaments.join(tid, EVE)
        assert out.reply.endswith("You play from the next round.")
        await svc.tournaments.join(tid, FRED)  # (six in round 2: nobody has a bye)
        for t in await open_round(svc, tid, [10_000 + tid * 100]):
            await finish(svc, t)
        row = await svc.tournaments.row(tid)
        eve = next(s for s in row.tournament.standings() if s.player == EVE.user_id)
        assert eve.points == points and eve.games == 0
    tid = await create(svc, options="late=no")
    await svc.tournaments.start(tid, ALICE, organiser=True)
    with pytest.raises(Refusal, match="takes no late players"):
        await svc.tournaments.join(tid, EVE)
    with pytest.raises(Refusal, match="`late` is `zero`"):
        await create(svc, options="late=maybe")


async def test_a_game_stopped_by_the_deadline_is_ranked_as_it_stands(svc: TableService) -> None:
    """The places come from the game's own ranking of the position (Blockers!: the lowest score first), not a
    draw of everyone."""
    at(svc, 4_000_000)
    tid = await create(svc, game="blockers", seats=2, rounds=1, options="round=1h")
    await svc.tournaments.start(tid, ALICE, organiser=True)
    first, second = await open_round(svc, tid, [11_000])
    await finish(svc, second)
    for _ in range(40):  # real moves until the scores differ
        table = await read(svc, first)
        game, state = svc.game(table.game), svc.game(table.game).load(table.state or {})
        scores = game.scores(state)
        if len(set(scores)) > 1:
            break
        (seat,) = game.to_act(state)
        move = game.format_move(game.legal_moves(state, seat)[0])
        await svc.submit(BY_ID[table.seats[seat].user_id or 0], move, table_id=first, version=table.version)
    expected = game.ranks_now(state)
    assert sorted(expected) == [1, 2], "the test reached a position where the scores differ"
    at(svc, 4_000_000 + 3700)
    await svc.tournaments.expire()
    ended = await read(svc, first)
    assert ended.status == "finished" and tuple(ended.result["ranks"]) == expected
    row = await svc.tournaments.row(tid)
    assert row.tournament.rounds[0].table(1).result.places == expected


async def test_its_games_get_the_servers_turn_clock_unless_it_sets_its_own(svc: TableService) -> None:
    """A tournament created without ``clock=`` gives its games the server's default turn clock, as a lobby does (a
    day, then a bot plays, on a server that set none), so that no game of a round waits for ever; ``clock=off`` or
    the server's ``/settings clock:off`` means none."""
    async def clock_of(options: str | None) -> tuple[int | None, str]:
        tid = await create(svc, options=options)
        await svc.tournaments.start(tid, ALICE, organiser=True)
        tables = [await read(svc, t) for t in await open_round(svc, tid, [9000 + 10 * tid])]
        assert len({(t.turn_seconds, t.on_timeout) for t in tables}) == 1
        pairings = await svc.tournaments.round_post(tid, 1)
        footer = pairings.footer or ""
        assert ("Turn clock:" in footer) == (tables[0].turn_seconds is not None), footer
        return tables[0].turn_seconds, tables[0].on_timeout

    assert await clock_of(None) == (24 * 3600, "bot")
    assert await clock_of("clock=6h timeout=skip") == (6 * 3600, "skip")
    assert await clock_of("clock=off") == (None, "bot")
    await svc.settings(GUILD, ALICE, "1h", "forfeit", None, True)
    assert await clock_of(None) == (3600, "forfeit")
    await svc.settings(GUILD, ALICE, "off", None, None, True)
    assert await clock_of(None) == (None, "bot")  # (no clock: no turn runs out)


async def test_a_tournament_game_has_no_host_to_cancel_or_kick(svc: TableService) -> None:
    tid = await create(svc)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    (first, _) = await open_round(svc, tid, [12_000])
    table = await read(svc, first)
    seat0, seat1 = (BY_ID[s.user_id or 0] for s in table.seats)
    with pytest.raises(Refusal, match="tournament's game: it can't be cancelled"):
        await svc.cancel(table.channel_id, seat0)
    with pytest.raises(Refusal, match="Only the host or a moderator"):
        await svc.kick(table.channel_id, seat0, seat1)
    with pytest.raises(Refusal, match="Only the host or a moderator"):
        await svc.pause_clock(table.channel_id, seat0, True)
    assert (await read(svc, first)).status == "active"


async def test_a_game_opened_but_not_started_is_started_later(svc: TableService) -> None:
    """The process stopped between the write that opens a game (its table, seats and claim) and its start: the game
    is still owed, and starts in the thread it was opened in."""
    tid = await create(svc)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    (owed, _), _ = await svc.tournaments.owed_games(tid)
    row = await svc.tournaments.row(tid)
    seats = row.tournament.rounds[0].table(owed.number).seats
    table_id = await svc.db.create_table(guild_id=GUILD, channel_id=13_001, game="breaks", options=row.options,
                                         host_id=seats[0], host_name="x", now=svc.clock(),
                                         tournament=(tid, owed.round, owed.number, owed.game),
                                         seats=[(p, BY_ID[p].name, None) for p in seats])
    (again, _), _ = await svc.tournaments.owed_games(tid)
    assert again.table_id == table_id
    out = await svc.tournaments.open_game(again, 99_999)  # (the thread it was opened in is kept)
    table = await read(svc, table_id)
    assert table.status == "active" and table.channel_id == 13_001 and out.public
    assert [s.user_id for s in table.seats] == list(seats)
    assert len(await svc.tournaments.owed_games(tid)) == 1


async def test_a_drop_whose_resignation_was_cut_short_is_finished_later(svc: TableService) -> None:
    tid = await create(svc, rounds=2)
    await svc.tournaments.start(tid, ALICE, organiser=True)
    tables = await open_round(svc, tid, [14_000])
    quitter = BY_ID[(await read(svc, tables[0])).seats[1].user_id or 0]
    row = await svc.tournaments.row(tid)
    t = row.tournament
    t.drop(quitter.user_id)
    await svc.db.tournaments.change(row, t, svc.clock())  # the drop is stored; the process stops before the resign
    assert (await read(svc, tables[0])).status == "active"
    outs = await svc.tournaments.resign_dropped(tid)
    assert len(outs) == 1 and (await read(svc, tables[0])).status == "finished"
    assert await svc.tournaments.resign_dropped(tid) == []


async def test_names_and_games_a_tournament_refuses(svc: TableService) -> None:
    args = {"guild_id": GUILD, "channel_id": HALL, "actor": ALICE, "organiser": True, "fmt": "swiss"}
    with pytest.raises(Refusal, match="played together against the game"):
        await svc.tournaments.create(game_key="blocbybloc", **args)  # type: ignore[arg-type]
    with pytest.raises(Refusal, match="at most 80 characters"):
        await svc.tournaments.create(game_key="breaks", name="x" * 81, **args)  # type: ignore[arg-type]


def test_a_brackets_matches_follow_its_slots() -> None:
    """The bracket picture joins match k of a round to matches 2k and 2k+1 of the one before: a round's matches come
    in slot order (byes where they fall, not after the tables), each naming its players upper slot first, the
    winner's index counted the same way."""
    from community.tournament import Format, Settings
    from tables.tournaments import _bracket_round
    from tests.community.test_tournament import pair, seeded

    t = seeded(Settings(Format.ELIMINATION), 6)
    first = pair(t)
    assert first.slots == (1, None, 4, 5, 2, None, 3, 6) and [x.seats for x in first.tables] == [(4, 5), (6, 3)]
    t.report(1, [2, 1])  # 5 beats 4
    t.report(2, [1, 2])  # 6 (seated first) beats 3
    name = "P{}".format
    assert _bracket_round(first, name) == [
        {"players": ["P1", None], "winner": 0}, {"players": ["P4", "P5"], "winner": 1},
        {"players": ["P2", None], "winner": 0}, {"players": ["P3", "P6"], "winner": 1}]
    second = pair(t)
    assert second.slots == (1, 5, 2, 6)
    assert [m["players"] for m in _bracket_round(second, name)] == [["P1", "P5"], ["P2", "P6"]]
