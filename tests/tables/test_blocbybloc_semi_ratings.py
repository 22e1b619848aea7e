"""A semi-cooperative Bloc by Bloc game is rated like any game between people: its winners above its losers, whether it
is cooperative read from the game's result (a fully cooperative Bloc by Bloc game stays unrated, kept per faction).
Through the table service on a real SQLite file: the results, the ratings, the profile and the rebuild."""

from __future__ import annotations

from community.ratings import NEW
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.model import BlocState
from tables import Actor, TableService
from tests.cogs.test_blocbybloc_semi import NIHILIST, SECTARIAN, VANGUARDIST, holder, prepared, seed_dealing
from tests.tables.helpers import ALICE, BOB, CARL, CH, lobby, post_text, read

G = BlocByBloc()
GUILD = 7


async def semi_game_won_alone(svc: TableService, channel: int, players: tuple[Actor, ...]) -> tuple[int, int]:
    """A 3-player semi-cooperative game, prepared one Sunrise from the Nihilist's lone win and played to its end
    through the service: (table, the winning seat)."""
    tid = await lobby(svc, *players[:2], game="blocbybloc", channel=channel)
    words = svc.core.rated_words(await read(svc, tid))
    assert words.startswith("Unrated: a cooperative game"), words
    await svc.set_options(channel, players[0], "mode=semi")  # (a lobby of two may take semi: the start needs 3)
    for p in players[2:]:
        await svc.join(tid, p)
    words = svc.core.rated_words(await read(svc, tid))
    assert words.startswith("Rated:"), words  # as the lobby card says it
    await svc.start(tid, players[0], seed=seed_dealing(NIHILIST, without=(VANGUARDIST, SECTARIAN)))
    table = await read(svc, tid)
    assert table.state is not None
    state: BlocState = G.load(table.state)
    lone = holder(state, NIHILIST)
    state = prepared(state, {lone: NIHILIST})
    await svc.db.record_moves(tid, table.version, [], G.dump(state), 0.0)
    for _ in range(40):
        table = await read(svc, tid)
        if table.status != "active":
            return tid, state.controller[lone]
        assert table.state is not None
        state = G.load(table.state)
        seat = min(G.to_act(state))
        moves = [G.format_move(m) for m in G.legal_moves(state, seat)]
        pick = "end" if "end" in moves else next((m for m in moves if m.startswith("pass")), moves[-1])
        await svc.submit(players[seat], pick, table_id=tid, version=table.version)
    raise AssertionError("the game did not end")


async def test_a_lone_win_is_rated_the_winner_above_the_others(svc: TableService) -> None:
    people = (ALICE, BOB, CARL)
    tid, winner = await semi_game_won_alone(svc, CH, people)
    table = await read(svc, tid)
    assert table.result is not None and not table.result.get("cooperative")
    results = await svc.db.records.results_of_table(tid)
    assert [(r.seat, r.place, r.outcome, r.rated, r.cooperative) for r in results] == [
        (s, 1 if s == winner else 2, "win" if s == winner else "loss", True, False) for s in range(3)]
    skills = {r.player: r.skill for r in await svc.db.records.ratings(GUILD, "blocbybloc")}
    won = str(people[winner].user_id)
    assert skills[won].mu > NEW.mu and all(skills[str(p.user_id)].mu < NEW.mu for p in people if p.user_id != int(won))
    losers = [skills[str(p.user_id)] for p in people if str(p.user_id) != won]
    assert losers[0] == losers[1], "the losers share second place"
    assert all(r.role for r in results), "each seat's faction is kept"
    profile = post_text((await svc.profile(GUILD, "Home", people[winner])).reply_post)  # type: ignore[arg-type]
    assert "Semi-cooperative: won 1 of 1 (1 as the only winner)" in profile and "Together:" not in profile
    before = {r.player: r.skill for r in await svc.db.records.ratings(GUILD, "blocbybloc")}
    await svc.rebuild_ratings(GUILD, True)
    assert {r.player: r.skill for r in await svc.db.records.ratings(GUILD, "blocbybloc")} == before


async def test_a_fully_cooperative_game_of_the_same_table_stays_unrated(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, CARL, game="blocbybloc")
    await svc.start(tid, ALICE)
    for p in (ALICE, BOB):
        await svc.resign(CH, p)
    table = await read(svc, tid)
    assert table.status == "finished" and table.result is not None and table.result.get("cooperative")
    assert all(not r.rated and r.cooperative for r in await svc.db.records.results_of_table(tid))
    assert await svc.db.records.ratings(GUILD, "blocbybloc") == []
    words = (await svc.rating_settings(GUILD, False)).reply or ""
    assert "semi-cooperative games are rated" in words.lower()
