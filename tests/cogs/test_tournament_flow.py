"""A tournament through Discord, as members run it: the organiser creates it, members join with the card's button,
the organiser starts it, each game opens in its own thread with its players' board, the games are played (here ended
by /resign in their threads), and the channel gets each round's pairings, the standings and the final (simcord, the
real bot, a real SQLite file)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction, _visible_message

from tests.cogs.discord_helpers import last_board
from tests.support import make_bot


def card(channel: Any) -> discord.Message:
    cards = [m for m in channel.history() if m.embeds and "tournament #" in (m.embeds[0].title or "")]
    assert cards, "no tournament card"
    return cards[-1]


def posts(channel: Any, words: str) -> list[discord.Message]:
    return [m for m in channel.history() if m.embeds and words in (m.embeds[0].title or "")]


async def forged_join(member: Any, message: discord.Message, tid: int) -> Any:
    """A click on a Join button the card does not show (as a modified client could send it): simcord's click finds a
    component on the message, so this goes through its interaction dispatch with the id."""
    return await _component_interaction(member, _visible_message(member, message),
                                        {"custom_id": f"bh:tour:join:{tid}",
                                         "component_type": discord.ComponentType.button.value})


def hall_of_four(env: Any) -> tuple[Any, Any, list[Any]]:
    """A server with a #tournaments channel, an admin (Manage Server) and four members: (channel, admin, members)."""
    guild = env.create_guild()
    hall = guild.create_text_channel("tournaments")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    return hall, admin, [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cy", "dee")]


def answer(res: Any) -> str:
    message = res.response.message if hasattr(res.response, "message") else res.response
    return (message.content or "") if message is not None else ""


async def test_a_swiss_tournament_of_four_through_discord(simcord_env: Any) -> None:
    hall, admin, members = hall_of_four(simcord_env)

    res = await members[0].slash(hall, "tournament create", game="breaks", format="swiss", rounds=2)
    assert "Only members with Manage Server" in answer(res)
    res = await admin.slash(hall, "tournament create", game="breaks", format="swiss", rounds=2, name="Cup")
    assert "Tournament #1 is open for sign-ups." in answer(res)
    for m in members:
        await m.click(card(hall), label="Join")
    res = await members[0].click(card(hall), label="Join")
    assert any("already joined" in (f.content or "") for f in res.followups) or "already joined" in answer(res)
    assert "Players (4)" in card(hall).embeds[0].fields[0].name

    res = await members[0].slash(hall, "tournament start", tournament=1)
    assert "Only the tournament's organiser" in answer(res)
    await admin.slash(hall, "tournament start", tournament=1)
    for rnd in (1, 2):
        threads = [t for t in hall.threads if f"round {rnd} " in t.name]
        assert len(threads) == 2, [t.name for t in hall.threads]
        (pairings,) = posts(hall, f"Cup · round {rnd}")
        assert pairings.content.count("<@") == 4 and all(f"<#{t.id}>" in pairings.embeds[0].description
                                                         for t in threads)
        for thread in threads:
            board = last_board(thread)
            assert "begins!" in (board.embeds[0].description or "")
            line = next(x for x in (pairings.embeds[0].description or "").split("\n") if f"<#{thread.id}>" in x)
            seats = [m for m in members if f"<@{m.id}>" in line]
            assert len(seats) == 2
            await seats[1].slash(thread, "resign")  # the second seat resigns: the first wins
            assert "Game over" in (last_board(thread).content or "")
        assert posts(hall, f"Cup · standings after round {rnd}")
    (final,) = posts(hall, "Cup · final standings")
    assert final.content.startswith("🏆 <@") and " wins Cup!" in final.content
    assert "` 1.`" in (final.embeds[0].description or "") and "2 pts" in (final.embeds[0].description or "")
    res = await members[2].slash(hall, "tournament standings", tournament=1)
    assert res.ephemeral


async def test_a_restart_between_a_rounds_end_and_the_next_rounds_threads(simcord_env: Any, db_path: Any) -> None:
    """The round's last game ends while the process stops before the next round's threads are made: after the
    restart, the card's buttons still work and the owed games open once (the clock's tick delivers them)."""
    hall, admin, members = hall_of_four(simcord_env)
    await admin.slash(hall, "tournament create", game="breaks", format="swiss", rounds=2, name="Cup")
    for m in members[:3]:
        await m.click(card(hall), label="Join")
    await simcord_env.restart_bot(make_bot(db_path))
    await members[3].click(card(hall), label="Join")  # the card's button, made before the restart
    await admin.slash(hall, "tournament start", tournament=1)
    cog = simcord_env.bot.get_cog("TournamentCog")
    real_settle = cog.settle

    async def dies_before_delivering(tournament_id: int) -> None:  # the process stops after the commit
        return None

    cog.settle = dies_before_delivering
    (pairings,) = posts(hall, "Cup · round 1")
    for thread in [t for t in hall.threads if "round 1 " in t.name]:
        line = next(x for x in (pairings.embeds[0].description or "").split("\n") if f"<#{thread.id}>" in x)
        await next(m for m in members if f"<@{m.id}>" in line.split(" v ")[1]).slash(thread, "resign")
    assert not [t for t in hall.threads if "round 2 " in t.name] and not posts(hall, "Cup · round 2")
    cog.settle = real_settle
    await simcord_env.restart_bot(make_bot(db_path))
    await simcord_env.bot.get_cog("TournamentCog").tick()  # the first tick after the start
    await simcord_env.bot.get_cog("TournamentCog").tick()  # and another: nothing is opened or posted twice
    assert len([t for t in hall.threads if "round 2 " in t.name]) == 2
    assert len(posts(hall, "Cup · round 2")) == 1 and len(posts(hall, "Cup · standings after round 1")) == 1


async def test_two_deliveries_at_once_open_each_game_once(simcord_env: Any) -> None:
    """The clock's tick and a game's end may deliver a tournament at the same moment: one waits for the other, so no
    game gets two threads and no post comes twice."""
    hall, admin, members = hall_of_four(simcord_env)
    await admin.slash(hall, "tournament create", game="breaks", format="swiss", rounds=2, name="Cup")
    for m in members:
        await m.click(card(hall), label="Join")
    cog = simcord_env.bot.get_cog("TournamentCog")
    real_settle = cog.settle

    async def stopped(tournament_id: int) -> None:  # the start is stored; nothing delivered yet
        return None

    cog.settle = stopped
    await admin.slash(hall, "tournament start", tournament=1)
    cog.settle = real_settle
    assert not hall.threads
    await asyncio.gather(cog.settle(1), cog.settle(1), cog.tick())
    assert len([t for t in hall.threads if "round 1 " in t.name]) == 2
    assert len(posts(hall, "Cup · round 1")) == 1


async def test_a_tournament_that_fails_to_deliver_keeps_no_other_from_its_games(
        simcord_env: Any, caplog: pytest.LogCaptureFixture) -> None:
    """The clock's tick delivers what every tournament owes. One whose delivery raises (here its stored state
    damaged) is logged with its id, the others are delivered all the same, and the tick itself never raises: a task
    loop that raises stops for good, and with it every sign-up and round deadline until a restart."""
    hall, admin, members = hall_of_four(simcord_env)
    other = hall.guild.create_text_channel("league")
    cog = simcord_env.bot.get_cog("TournamentCog")
    real_settle = cog.settle

    async def stopped(tournament_id: int) -> None:  # stored; nothing delivered yet
        return None

    for channel, name in ((hall, "Cup"), (other, "League")):
        await admin.slash(channel, "tournament create", game="breaks", format="swiss", rounds=2, name=name)
        for m in members:
            await m.click(card(channel), label="Join")
        cog.settle = stopped
        await admin.slash(channel, "tournament start", tournament=1 if name == "Cup" else 2)
        cog.settle = real_settle
    assert not hall.threads and not other.threads
    async with simcord_env.bot.service.db.transaction() as conn:
        await (await conn.execute("UPDATE tournaments SET state = '{' WHERE id = 1")).close()
    with caplog.at_level(logging.ERROR):
        await cog.tick()
    assert len([t for t in other.threads if "round 1 " in t.name]) == 2
    assert len(posts(other, "League · round 1")) == 1
    assert not hall.threads
    assert any("tournament 1 owes" in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)


async def test_the_servers_organiser_role_runs_tournaments(simcord_env: Any) -> None:
    """/settings organiser: names a role; its members create tournaments without Manage Server, others can't."""
    hall, admin, members = hall_of_four(simcord_env)
    hosts = hall.guild.create_role("Hosts")
    host = hall.guild.add_member(simcord_env.create_user("host"), roles=[hosts])
    res = await host.slash(hall, "tournament create", game="breaks", format="swiss", rounds=2)
    assert "Only members with Manage Server, or the server's organiser role" in answer(res)
    await admin.slash(hall, "settings", organiser=hosts)
    res = await host.slash(hall, "tournament create", game="breaks", format="swiss", rounds=2, name="Cup")
    assert "Tournament #1 is open for sign-ups." in answer(res)
    res = await members[0].slash(hall, "tournament create", game="breaks", format="swiss", rounds=2)
    assert "Only members with Manage Server, or the server's organiser role" in answer(res)


async def test_a_tournament_belongs_to_its_server(simcord_env: Any) -> None:
    """Tournaments are numbered across servers: another server's organiser names #1 and is told there is none
    there, for every command and for a Join forged with its id; #1 is unchanged."""
    hall, admin, members = hall_of_four(simcord_env)
    await admin.slash(hall, "tournament create", game="breaks", format="swiss", rounds=2, name="Cup")
    for m in members[:2]:
        await m.click(card(hall), label="Join")
    other_hall, other_admin, others = hall_of_four(simcord_env)
    store = simcord_env.bot.service.tournaments
    before = await store.row(1)
    for command, kwargs in (("tournament start", {}), ("tournament cancel", {}), ("tournament pause", {}),
                            ("tournament standings", {}), ("tournament drop", {"member": others[0]}),
                            ("tournament report", {"table": 1, "places": "1,2"})):
        res = await other_admin.slash(other_hall, command, tournament=1, **kwargs)
        assert "There is no tournament #1 in this server." in answer(res) + " ".join(
            f.content or "" for f in res.followups), command
    # a Join forged with #1's id, on the card of the other server's own tournament (#2)
    await other_admin.slash(other_hall, "tournament create", game="breaks", format="swiss", rounds=2, name="League")
    res = await forged_join(others[0], card(other_hall), 1)
    shown = ([res.response] if res.response is not None else []) + list(res.followups)
    assert "There is no tournament #1 in this server." in " ".join(m.content or "" for m in shown), shown
    after = await store.row(1)
    assert (after.version, after.status) == (before.version, before.status)


async def test_a_player_who_drops_before_their_game_opens_is_resigned_from_it(simcord_env: Any) -> None:
    """An arena's late joiner drops out before their game's thread is made (here: deliveries held back): the tick
    then opens the game and resigns them from it at once, so the round does not wait on a game nobody plays."""
    hall, admin, members = hall_of_four(simcord_env)
    await admin.slash(hall, "tournament create", game="block", format="arena", name="Cup")
    for m in members[:2]:
        await m.click(card(hall), label="Join")
    await admin.slash(hall, "tournament start", tournament=1)
    cog = simcord_env.bot.get_cog("TournamentCog")
    real_settle = cog.settle

    async def stopped(tournament_id: int) -> None:
        return None

    cog.settle = stopped
    late = members[2]
    res = await late.click(card(hall), label="Join")
    assert "Your game of this round opens in its thread." in " ".join(
        m.content or "" for m in [res.response, *res.followups] if m is not None)
    await late.slash(hall, "tournament drop", tournament=1)
    cog.settle = real_settle
    await cog.tick()
    (thread,) = [t for t in hall.threads if t.name.endswith("round 1 table 3")]
    board = last_board(thread)
    assert "Game over" in (board.content or ""), board.content
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert table is not None and table.seats[0].resigned
