"""storage.db._table_row builds each TableRow and SeatRow without their __init__, its columns taken by index: the
rows it builds are the ones ``TableRow(...)``/``SeatRow(...)`` build from the same columns read by name (every
field, in order, equal), for a lobby, a game with moves untold, a seat given to a bot, a resignation and a game
that ended (its result), read by id, by channel and as a change's new row."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from storage import Database, SeatRow, TableRow
from storage.db import TABLES, _table_row


def by_name(row: Any) -> TableRow:
    """The row built by the dataclasses' own __init__, each column read by its name (as _table_row once did)."""
    seats = tuple(SeatRow(seat, user_id, name, bot, resigned, bool(dm_open), acted, left_how or "", bool(handed),
                          notify)
                  for seat, user_id, name, bot, resigned, dm_open, acted, left_how, handed, notify
                  in sorted(json.loads(row["seat_rows"])))
    untold = tuple(e for _, events in sorted(json.loads(row["untold"])) for e in events)
    named = {f.name: row[f.name] for f in dataclasses.fields(TableRow)
             if f.name not in ("seats", "untold", "state_text", "options", "result", "rated")}
    return TableRow(**named, state_text=row["state"], options=json.loads(row["options"]),
                    result=json.loads(row["result"]) if row["result"] else None, rated=bool(row["rated"]),
                    seats=seats, untold=untold)


def same(built: TableRow, ref: TableRow) -> None:
    assert built == ref
    assert list(vars(built)) == [f.name for f in dataclasses.fields(TableRow)]
    for a, b in zip(built.seats, ref.seats, strict=True):
        assert list(vars(a).items()) == list(vars(b).items())
    for f in dataclasses.fields(TableRow):
        assert type(getattr(built, f.name)) is type(getattr(ref, f.name)), f.name
    assert built.state == ref.state
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.version = 99  # type: ignore[misc]


@pytest.fixture
async def db(new_place: Callable[..., str]) -> AsyncIterator[Database]:
    """On both backends (tests/storage/conftest.py): PostgreSQL's rows are asyncpg's Records, its JSON json_agg's."""
    database = await Database.open(new_place(migrated=True))
    yield database
    await database.close()


async def check(db: Database, table_id: int) -> TableRow:
    async with db._reading() as conn:
        rows: Any = await conn.execute_fetchall(f"{TABLES} WHERE t.id = ?", (table_id,))
    built = _table_row(rows[0])
    same(built, by_name(rows[0]))
    read = await db.get_table(table_id)
    assert read is not None
    same(read, built)
    return built


async def test_rows_are_built_as_their_dataclasses_build_them(db: Database) -> None:
    tid = await db.create_table(guild_id=9, channel_id=77, game="breaks", options={"decks": 1, "x": [1, 2]},
                                host_id=1, host_name="Alice", now=1.0, clock=(3600, "skip"), answer_seconds=60,
                                rated=False)
    lobby = await check(db, tid)
    assert lobby.status == "lobby" and lobby.rated is False and lobby.turn_seconds == 3600 and lobby.state is None
    await db.set_seats(tid, 0, [(1, "Alice", None), (2, "Bob", None), (None, "Bot", "easy")], 2.0)
    await db.start(tid, 1, 77, {"format": 1, "pos": "start"}, 3.0)
    changed = await db.record_moves(tid, 2, [(1, 0, "draw", ["Alice drew."]), (2, 1, "pass", ["Bob passed."])],
                                    {"format": 1, "pos": "two"}, 4.0, announce=False)
    playing = await check(db, tid)
    same(changed, playing)
    assert playing.untold == ("Alice drew.", "Bob passed.") and playing.last_ply == 2
    assert [s.name for s in playing.seats] == ["Alice", "Bob", "Bot"] and playing.seats[2].bot == "easy"
    await db.replace_seat(tid, playing.version, 1, None, "Bob (bot)", "easy", 5.0)
    assert await db.set_dm_open(tid, 1, False)
    handed = await check(db, tid)
    assert handed.seats[1].handed is True and handed.seats[0].dm_open is False
    resigned = await db.resign(tid, handed.version, 0, 6.0, result={"winners": [2], "scores": [0, 1, 2]})
    over = await check(db, tid)
    same(resigned, over)
    assert over.status == "finished" and over.result is not None and over.seats[0].left_how == "resigned"
    here = await db.table_here(77, finished_ok=True)
    assert here is not None
    same(here, over)
