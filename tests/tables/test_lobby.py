"""tables.lobby: opening a table, seats and bots, options, start, cancel."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import ACTIVE, CANCELLED, LOBBY, Database
from tables import Actor, Refusal, StaleButton, TableService
from tables.catalog import default_catalog
from tests.tables.helpers import (
    ALICE,
    BOB,
    CARL,
    CH,
    DANA,
    EVE,
    MODERATOR,
    STRANGER,
    assert_unchanged,
    lobby,
    post_text,
    read,
    started,
)


async def test_open_lobby_seats_the_host(svc: TableService) -> None:
    out = await svc.open_lobby(guild_id=7, channel_id=CH, host=ALICE, game_key="breaks", options_text="decks=2")
    assert out.lobby is not None and out.lobby.open and out.table_id == out.lobby.table_id
    assert "Alice — host" in post_text(out.lobby.post) and "decks=2" in post_text(out.lobby.post)
    table = await read(svc, out.table_id)  # type: ignore[arg-type]
    assert (table.status, table.host_id, table.options["decks"]) == (LOBBY, ALICE.user_id, 2)
    assert [(s.user_id, s.name) for s in table.seats] == [(1, "Alice")]


async def test_join_and_double_join_is_refused(svc: TableService) -> None:
    tid = await lobby(svc, ALICE)
    out = await svc.join(tid, BOB)
    assert "Bob" in post_text(out.lobby.post)  # type: ignore[union-attr]
    version = (await read(svc, tid)).version
    for who in (ALICE, BOB):
        with pytest.raises(Refusal, match="already in this game"):
            await svc.join(tid, who)
    table = await read(svc, tid)
    assert [s.user_id for s in table.seats] == [1, 2] and table.version == version


async def test_a_full_table_refuses_people_and_bots(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, CARL, DANA)  # Breaks seats 2–4
    with pytest.raises(Refusal, match=r"full \(4 players\)"):
        await svc.join(tid, EVE)
    with pytest.raises(Refusal, match="full"):
        await svc.add_bot(tid, ALICE)
    assert len((await read(svc, tid)).seats) == 4


async def test_leave_passes_host_to_the_next_person(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, CARL)
    await svc.add_bot(tid, ALICE)
    out = await svc.leave(tid, ALICE)
    table = await read(svc, tid)
    assert table.host_id == BOB.user_id
    assert [s.name for s in table.seats] == ["Bob", "Carl", "Bot 1"]
    assert [s.seat for s in table.seats] == [0, 1, 2]
    assert "Bob — host" in post_text(out.lobby.post)  # type: ignore[union-attr]
    await svc.leave(tid, CARL)  # a guest leaving keeps the host
    assert (await read(svc, tid)).host_id == BOB.user_id
    with pytest.raises(Refusal, match="not in this game"):
        await svc.leave(tid, ALICE)
    with pytest.raises(Refusal, match="Only the host"):
        await svc.start(tid, CARL)
    await svc.start(tid, BOB)  # the new host can start
    assert (await read(svc, tid)).status == ACTIVE


async def test_the_last_person_cannot_leave(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, bots=1)
    with pytest.raises(Refusal, match="last player.*Cancel"):
        await svc.leave(tid, ALICE)
    table = await read(svc, tid)
    assert [s.name for s in table.seats] == ["Alice", "Bot 1"] and table.status == LOBBY


async def test_add_bot_names_bots_in_turn(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    assert (await svc.add_bot(tid, ALICE)).reply == "Bot 1 joined."
    assert (await svc.add_bot(tid, BOB)).reply == "Bot 2 joined."  # any player may add one
    table = await read(svc, tid)
    assert [(s.name, s.user_id, s.bot) for s in table.seats[2:]] == [("Bot 1", None, "easy"),
                                                                      ("Bot 2", None, "easy")]
    with pytest.raises(Refusal, match="Only players"):
        await svc.add_bot(tid, STRANGER)
    with pytest.raises(Refusal, match="Bots come in: easy, medium, hard"):
        await svc.add_bot(tid, ALICE, level="grandmaster")
    assert len((await read(svc, tid)).seats) == 4


async def test_only_the_host_starts_and_only_with_enough_players(svc: TableService) -> None:
    tid = await lobby(svc, ALICE)
    with pytest.raises(Refusal, match="needs at least 2 players"):
        await svc.start(tid, ALICE)
    await svc.join(tid, BOB)
    for who in (BOB, STRANGER):
        with pytest.raises(Refusal, match="Only the host can start"):
            await svc.start(tid, who)
    assert (await read(svc, tid)).status == LOBBY
    await svc.start(tid, ALICE)
    with pytest.raises(Refusal, match="already started"):
        await svc.start(tid, ALICE)
    for request in (svc.join(tid, CARL), svc.leave(tid, BOB), svc.add_bot(tid, ALICE)):
        with pytest.raises(Refusal, match="lobby is closed"):
            await request


@pytest.mark.parametrize(("options", "message"), [
    ("decks=5", r"Option `decks` must be one of: 1, 2 \(got '5'\)"),
    ("decks=two", "Option `decks` must be a whole number"),
    ("jokers=maybe", "Option `jokers` must be true or false"),
    ("colour=red", "Breaks has no option `colour`"),
    ("decks", "Options look like `decks=2 jokers=yes`; I can't read `decks`"),
])


async def test_bad_options_are_refused_with_clear_text(svc: TableService, options: str, message: str) -> None:
    with pytest.raises(Refusal, match=message):
        await svc.open_lobby(guild_id=7, channel_id=CH, host=ALICE, game_key="breaks", options_text=options)
    assert await svc.db.open_table_in(CH) is None


async def test_good_options_are_resolved(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, options="decks=2, jokers=yes SCORING=court")
    opts = (await read(svc, tid)).options
    assert (opts["decks"], opts["jokers"], opts["scoring"], opts["recycles"]) == (2, True, "court", 1)


async def test_one_open_table_per_channel(svc: TableService) -> None:
    tid = await lobby(svc, ALICE)
    with pytest.raises(Refusal, match="already has a game"):
        await svc.open_lobby(guild_id=7, channel_id=CH, host=BOB, game_key="breaks")
    await lobby(svc, BOB, channel=CH + 1)  # another channel (or thread) is fine
    await svc.join(tid, BOB)
    await svc.start(tid, ALICE)
    with pytest.raises(Refusal, match="already has a game"):
        await svc.check_new(CH, "breaks", None)
    await svc.cancel(CH, ALICE)
    assert await lobby(svc, CARL) != tid  # free again once cancelled


async def test_the_host_cancels_a_lobby(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    with pytest.raises(Refusal, match="Only the host, or someone who can manage"):
        await svc.cancel(tid, BOB, by_table=True)
    with pytest.raises(Refusal, match="Only the host"):
        await svc.cancel(CH, STRANGER)
    assert (await read(svc, tid)).status == LOBBY
    out = await svc.cancel(tid, ALICE, by_table=True)
    assert (await read(svc, tid)).status == CANCELLED
    assert out.reply == "Game cancelled." and out.lobby is not None and not out.lobby.open
    assert out.public[0].description == "Game cancelled by Alice."
    with pytest.raises(Refusal, match="no game here"):
        await svc.cancel(CH, ALICE)
    with pytest.raises(Refusal, match="already over"):
        await svc.cancel(tid, ALICE, by_table=True)


async def test_a_channel_manager_may_cancel_a_game_in_progress(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    with pytest.raises(Refusal, match="Only the host"):
        await svc.cancel(CH, BOB)
    before = await read(svc, tid)
    await assert_unchanged(svc, tid, before, 0)
    out = await svc.cancel(CH, MODERATOR)
    assert out.public[0].description == "Game cancelled by Mod."
    table = await read(svc, tid)
    assert table.status == CANCELLED and table.result is None
    with pytest.raises(Refusal, match="This game was cancelled."):
        await svc.submit(ALICE, "draw", table_id=tid)
    assert "cancelled" in await svc.status(CH)


async def test_start_with_an_out_of_date_lobby_version_is_refused(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "v.db")
    try:
        svc = TableService(db, default_catalog(), seeds=lambda: 5, render=False)
        alice, bob = Actor(1, "Alice"), Actor(2, "Bob")
        out = await svc.open_lobby(guild_id=1, channel_id=77, host=alice, game_key="breaks")
        assert out.table_id is not None
        seen = (await db.get_table(out.table_id)).version  # type: ignore[union-attr]
        await svc.join(out.table_id, bob)
        with pytest.raises(StaleButton):
            await svc.start(out.table_id, alice, version=seen)
        assert (await db.get_table(out.table_id)).status == "lobby"  # type: ignore[union-attr]
        await svc.start(out.table_id, alice, version=seen + 1)
        assert (await db.get_table(out.table_id)).status == "active"  # type: ignore[union-attr]
    finally:
        await db.close()
