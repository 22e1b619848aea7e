"""The lobby before the start (issue 8): the host removes a bot, changes options; options that can't work for
the seats are refused when typed, and a seat the options have no room for is refused when taken."""

from __future__ import annotations

import pytest

from tables import Refusal, TableService
from tests.tables.helpers import ALICE, BOB, CARL, CH, lobby, read


async def test_the_host_removes_the_last_bot(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, bots=2)
    with pytest.raises(Refusal, match="Only the host"):
        await svc.remove_bot(tid, BOB)
    out = await svc.remove_bot(tid, ALICE)
    assert out.reply == "Bot 2 left." and [s.name for s in (await read(svc, tid)).seats] == ["Alice", "Bob", "Bot 1"]
    await svc.remove_bot(tid, ALICE)
    with pytest.raises(Refusal, match="no bot"):
        await svc.remove_bot(tid, ALICE)


async def test_the_host_changes_options_and_the_rest_keep_their_values(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, options="decks=2")
    out = await svc.set_options(CH, ALICE, "jokers=yes")
    table = await read(svc, tid)
    assert table.options["decks"] == 2 and table.options["jokers"] is True
    assert out.lobby is not None and "jokers=yes" in out.lobby.post.description
    with pytest.raises(Refusal, match="Only the host"):
        await svc.set_options(CH, BOB, "decks=1")
    with pytest.raises(Refusal, match="decks"):
        await svc.set_options(CH, ALICE, "decks=7")
    assert (await read(svc, tid)).options == table.options, "a refusal changes nothing"


async def test_options_that_cannot_work_for_the_seats_are_refused_when_typed(svc: TableService) -> None:
    await lobby(svc, ALICE, BOB, CARL, game="blockers")
    with pytest.raises(Refusal, match="two players"):
        await svc.set_options(CH, ALICE, "mode=advanced")


async def test_a_seat_the_options_have_no_room_for_is_refused(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, game="blockers", options="mode=advanced")
    with pytest.raises(Refusal, match="full for these options.*two players"):
        await svc.join(tid, CARL)
    with pytest.raises(Refusal, match="full for these options"):
        await svc.add_bot(tid, ALICE)
    assert len((await read(svc, tid)).seats) == 2
