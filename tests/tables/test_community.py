"""Community play through the table service, on a real SQLite file: what a finished game leaves behind (results,
ratings, in the transaction that ends it), who is rated, profiles, past games, leaderboards and the rebuild."""

from __future__ import annotations

import pytest

from community.ratings import NEW, Skill
from storage import Database
from tables import Actor, Outcome, Post, Refusal, TableService
from tests.tables.helpers import ALICE, BOB, CARL, CH, DANA, MODERATOR, lobby, play_out, post_text, read

GUILD = 7


async def resigned_game(svc: TableService, order: tuple[Actor, ...], *, game: str = "breaks",
                        options: str | None = None, channel: int = CH) -> int:
    """A game of ``order``'s players that ends by resignations: the last of them wins, the first to resign is last."""
    tid = await lobby(svc, *order, game=game, options=options, channel=channel)
    await svc.start(tid, order[0])
    for quitter in order[:-1]:
        table = await read(svc, tid)
        if table.status != "active":
            break
        await svc.resign(table.channel_id, quitter)
    assert (await read(svc, tid)).status == "finished"
    return tid


async def skills(db: Database, game: str = "breaks") -> dict[str, tuple[Skill, int]]:
    return {r.player: (r.skill, r.games) for r in await db.records.ratings(GUILD, game)}


async def test_a_finished_game_leaves_its_results_and_moves_ratings_at_once(svc: TableService) -> None:
    tid = await resigned_game(svc, (CARL, BOB, ALICE))
    results = await svc.db.records.results_of_table(tid)
    assert [(r.name, r.place, r.outcome, r.left_how, r.rated) for r in results] == [
        ("Carl", 3, "loss", "resigned", True), ("Bob", 2, "loss", "resigned", True), ("Alice", 1, "win", "", True)]
    rated = await skills(svc.db)
    assert rated["1"][0].mu > NEW.mu > rated["3"][0].mu and rated["2"][1] == 1
    assert results[2].skill_before == NEW and results[2].skill_after == rated["1"][0]
    assert (await read(svc, tid)).finished_at is not None


async def test_the_last_board_says_what_the_game_did_to_the_ratings(svc: TableService) -> None:
    tid = await lobby(svc, BOB, ALICE)
    await svc.start(tid, BOB)
    out = await svc.resign(CH, BOB)
    text = post_text(out.public[0])
    after = (await skills(svc.db))["1"][0].shown
    assert f"Alice **{after:,}** (+{after - NEW.shown})" in text
    assert "Bob **" in text and "(−" in text


async def test_a_natural_end_is_rated_with_the_turns_each_player_took(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    await svc.start(tid, ALICE)
    table = await play_out(svc, tid)
    results = await svc.db.records.results_of_table(tid)
    assert [r.place for r in results] == table.result["ranks"]
    assert all(r.rated and r.turns > 0 and r.turn_seconds > 0 for r in results)
    assert len(await svc.db.records.results_of_table(tid)) == 2  # written once
    assert "s a turn on average" in post_text(reply(await svc.profile(GUILD, "Home", ALICE)))  # (the clock ticks 1 s)


async def test_a_game_with_a_bot_is_unrated_unless_the_server_rates_bots(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, bots=1)
    assert "Unrated: a bot has a seat" in post_text(await read_card(svc, tid))
    await svc.start(tid, ALICE)
    out = await svc.resign(CH, ALICE)
    assert "Unrated: a bot has a seat" in post_text(out.public[0])
    assert await skills(svc.db) == {}
    await svc.rating_settings(GUILD, True, rate_bots=True)
    tid = await lobby(svc, ALICE, bots=1)
    assert "Rated: the result moves" in post_text(await read_card(svc, tid))
    await svc.start(tid, ALICE)
    await svc.resign(CH, ALICE)
    rated = await skills(svc.db)
    assert set(rated) == {"1", "bot:easy"} and rated["bot:easy"][0].mu > NEW.mu


def reply(out: Outcome) -> Post:
    assert out.reply_post is not None
    return out.reply_post


async def read_card(svc: TableService, tid: int) -> Post:
    return svc.presenter.lobby_card(await svc.core.table(tid)).post


async def test_the_host_makes_a_table_unrated(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, options="rated=no")
    assert "Unrated: the host made this table unrated" in post_text(await read_card(svc, tid))
    out = await svc.set_options(CH, ALICE, "rated=yes")
    assert "Rated: the result moves" in post_text(out.lobby.post)
    out = await svc.set_options(CH, ALICE, "rated=no")
    assert "rated=no" in out.reply
    with pytest.raises(Refusal, match="`rated` is `yes`"):
        await svc.set_options(CH, ALICE, "rated=maybe")
    await svc.start(tid, ALICE)
    await svc.resign(CH, ALICE)
    assert [r.rated for r in await svc.db.records.results_of_table(tid)] == [False, False]
    assert await skills(svc.db) == {}


async def test_a_seat_handed_to_a_bot_unrates_the_game_or_rates_those_who_stayed(svc: TableService) -> None:
    async def handed_game(channel: int) -> int:
        tid = await lobby(svc, ALICE, BOB, CARL, channel=channel)
        await svc.start(tid, ALICE)
        await svc.replace(channel, MODERATOR, CARL, None)
        await svc.resign(channel, ALICE)
        await svc.resign(channel, BOB)
        assert (await read(svc, tid)).status == "finished"
        return tid

    tid = await handed_game(CH)
    results = await svc.db.records.results_of_table(tid)
    assert not any(r.rated for r in results) and "handed to a bot" in results[0].unrated_why
    await svc.rating_settings(GUILD, True, rate_handed="stayed")
    tid = await handed_game(CH + 1)
    assert [r.rated for r in await svc.db.records.results_of_table(tid)] == [True, True, False]
    assert set(await skills(svc.db)) == {"1", "2"}


async def test_a_cooperative_game_is_kept_per_faction_not_rated(svc: TableService) -> None:
    tid = await resigned_game(svc, (ALICE, BOB), game="blocbybloc", options="difficulty=easy")
    results = await svc.db.records.results_of_table(tid)
    assert all(r.cooperative and not r.rated and r.outcome == "loss" for r in results)
    factions = {"Workers", "Students", "Neighbors", "Prisoners"}
    assert set(" and ".join(r.role for r in results).split(" and ")) == factions  # two factions each
    assert "difficulty=easy" in results[0].setup
    out = await svc.profile(GUILD, "Home", ALICE)
    assert "Together: won 0 of 1" in post_text(reply(out)) and "2 players, easy: 0/1" in post_text(reply(out))


async def test_a_cancelled_game_leaves_nothing(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    await svc.start(tid, ALICE)
    await svc.cancel(CH, ALICE)
    assert await svc.db.records.results_of_table(tid) == []


async def test_a_rebuild_gives_the_same_numbers(svc: TableService) -> None:
    players = (ALICE, BOB, CARL, DANA)
    for i in range(6):
        order = tuple(players[(i + k) % 4] for k in range(2 + i % 3))
        await resigned_game(svc, order, channel=CH + i)
    before = await skills(svc.db)
    results_before = [await svc.db.records.results_of_table(t) for t in range(1, 7)]
    with pytest.raises(Refusal, match="Manage Server"):
        await svc.rebuild_ratings(GUILD, False)
    async with svc.db.transaction() as conn:  # the rating rows are only a cache: spoil them
        await (await conn.execute("UPDATE ratings SET mu = 0, games = 99")).close()
    out = await svc.rebuild_ratings(GUILD, True)
    assert out.reply == "Ratings rebuilt from 6 rated games: 4 players rated."
    assert await skills(svc.db) == before
    await svc.rating_settings(GUILD, True, rate_bots=True)  # a bot level holding two seats: one identity, one game
    tid = await lobby(svc, ALICE, bots=2, channel=CH + 20)
    await svc.start(tid, ALICE)
    await svc.resign(CH + 20, ALICE)
    before = await skills(svc.db)
    assert before["bot:easy"][1] == 1
    await svc.rebuild_ratings(GUILD, True)
    assert await skills(svc.db) == before
    assert [await svc.db.records.results_of_table(t) for t in range(1, 7)] == results_before


async def test_a_profile_tells_games_wins_places_rating_and_opponents(svc: TableService) -> None:
    for i in range(3):
        await resigned_game(svc, (BOB, ALICE), channel=CH + i)
    await resigned_game(svc, (ALICE, BOB), channel=CH + 3)
    out = await svc.profile(GUILD, "Home", ALICE)
    text = post_text(reply(out))
    assert "**Breaks** · rating **" in text
    assert "4 games · 3 wins (75%) · 1st ×3, 2nd ×1 · best streak 3" in text
    assert "Often plays Bob (4 games, above them 3)" in text
    assert (await svc.profile(GUILD, "Home", DANA)).reply == "Dana has no finished games in this server yet."
    with pytest.raises(Refusal, match="belong to a server"):
        await svc.profile(None, "", ALICE)


async def test_past_games_page_newest_first_with_links_and_replays(svc: TableService) -> None:
    for i in range(10):
        await resigned_game(svc, (BOB, ALICE) if i % 2 else (ALICE, BOB), channel=CH + i)
    page = await svc.past_games(GUILD, ALICE)
    assert (page.page, page.pages) == (1, 2)
    lines = page.post.description.split("\n")
    assert lines[0].startswith("**Breaks** <t:") and "won · with Bob · rating" in lines[0]
    assert " · lost (resigned) · with Bob · rating" in page.post.description, "two players: a loss, not 2nd of 2"
    assert f"[thread](https://discord.com/channels/{GUILD}/{CH + 9})" in lines[1] and "`/replay table:10`" in lines[1]
    last = await svc.past_games(GUILD, ALICE, page=9)
    assert (last.page, last.post.description.count("/replay")) == (2, 2)
    assert "`/replay table:1`" in last.post.description
    assert "No finished games of BLOCK" in (await svc.past_games(GUILD, ALICE, "block")).post.description
    with pytest.raises(Refusal, match="no game called"):
        await svc.past_games(GUILD, ALICE, "chess")
    everywhere = await svc.past_games(None, ALICE)
    assert everywhere.post.footer.endswith("10 games · newest first")


async def test_a_replay_by_number_for_the_one_who_asks(svc: TableService) -> None:
    tid = await resigned_game(svc, (BOB, ALICE))
    out = await svc.replay(5555, tid, GUILD, ALICE.user_id)
    assert out.reply_post is not None and not out.public
    with pytest.raises(Refusal, match="no table #"):
        await svc.replay(5555, tid, GUILD + 1, ALICE.user_id)
    with pytest.raises(Refusal, match="of yours"):
        await svc.replay(5555, tid, None, DANA.user_id)
    assert (await svc.replay(5555, tid, None, BOB.user_id)).reply_post is not None


async def test_leaderboards_rank_by_rating_with_enough_games(svc: TableService) -> None:
    for i in range(6):  # Alice wins every game (6), Carl loses every one he plays (5), Bob plays 3
        await resigned_game(svc, (CARL, BOB, ALICE) if i % 2 else (CARL, ALICE) if i % 3 else (BOB, ALICE),
                            channel=CH + i)
    out = await svc.leaderboard(GUILD, "Home", "breaks", "all", DANA)
    text = post_text(reply(out))
    lines = [line for line in out.reply_post.description.split("\n") if line.startswith("`")]
    assert [line.split("**")[1] for line in lines] == ["Alice", "Carl"]  # those with 5 rated games
    assert "You are not listed yet: 0 of the 5 rated games needed in all time." in text
    out = await svc.leaderboard(GUILD, "Home", "Breaks", "week", CARL)
    names = [line.split("**")[1] for line in out.reply_post.description.split("\n") if line.startswith("`")]
    assert names == ["Alice", "Bob", "Carl"] and "← you" in out.reply_post.description.split("\n")[2]
    with pytest.raises(Refusal, match="`period`"):
        await svc.leaderboard(GUILD, "Home", "breaks", "year", DANA)
    empty = await svc.leaderboard(GUILD, "Home", "blockers", "all", DANA)
    assert "No one has 5 rated games in all time yet." in empty.reply_post.description


async def test_only_a_manager_changes_the_rating_rules(svc: TableService) -> None:
    out = await svc.rating_settings(GUILD, False)
    assert "Games against bots **are not rated**" in out.reply
    with pytest.raises(Refusal, match="Manage Server"):
        await svc.rating_settings(GUILD, False, rate_bots=True)
    with pytest.raises(Refusal, match="`handed` is"):
        await svc.rating_settings(GUILD, True, rate_handed="sometimes")
    out = await svc.rating_settings(GUILD, True, rate_handed="stayed")
    assert "rated for the people who stayed" in out.reply


async def test_outside_a_server_only_your_own_games_are_listed(svc: TableService) -> None:
    await resigned_game(svc, (BOB, ALICE))
    assert (await svc.past_games(None, ALICE, asker_id=ALICE.user_id)).post.footer.startswith("Page 1 of 1 · 1 game")
    with pytest.raises(Refusal, match="only your own games"):
        await svc.past_games(None, ALICE, asker_id=BOB.user_id)
    assert "1 game" in (await svc.past_games(GUILD, ALICE, asker_id=BOB.user_id)).post.footer  # in the server: yes


async def test_a_solo_game_is_kept_as_a_score_not_as_wins(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, game="block")
    await svc.start(tid, ALICE)
    await svc.resign(CH, ALICE)
    text = post_text(reply(await svc.profile(GUILD, "Home", ALICE)))
    assert "**BLOCK** · no rated games" in text and "1 game · all solo" in text and "wins" not in text
    assert "Solo: best score" in text
    (line, _) = (await svc.past_games(GUILD, ALICE, "block")).post.description.split("\n")
    assert " · scored " in line and line.endswith(" · solo") or " · solo · rating" in line, line
