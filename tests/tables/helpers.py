"""Players, services and helpers the table-service tests share (real SQLite files, no mocks)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from engine.base import Game
from storage import ACTIVE, Database, TableRow
from tables import Actor, Outcome, Post, TableService
from tables.catalog import Catalog, default_catalog

CH = 1000  # the channel (or thread) where the game is played
ALICE, BOB, CARL, DANA, EVE = (Actor(1, "Alice"), Actor(2, "Bob"), Actor(3, "Carl"), Actor(4, "Dana"),
                               Actor(5, "Eve"))
STRANGER = Actor(99, "Stranger")
MODERATOR = Actor(50, "Mod", can_manage=True)
PEOPLE = {a.user_id: a for a in (ALICE, BOB, CARL, DANA, EVE)}
PNG = b"\x89PNG\r\n\x1a\n"


def make_clock() -> Callable[[], float]:
    ticks = itertools.count(1_700_000_000)
    return lambda: float(next(ticks))


def service(db: Database, registry: Catalog | None = None, *, render_images: bool = False) -> TableService:
    return TableService(db, registry or default_catalog(), clock=make_clock(), seeds=lambda: 1234,
                        render=render_images)


async def lobby(svc: TableService, *players: Actor, bots: int = 0, game: str = "breaks",
                options: str | None = None, channel: int = CH) -> int:
    """A lobby hosted by the first player, with the others joined and ``bots`` bots added."""
    out = await svc.open_lobby(guild_id=7, channel_id=channel, host=players[0], game_key=game, options_text=options)
    assert out.table_id is not None
    for p in players[1:]:
        await svc.join(out.table_id, p)
    for _ in range(bots):
        await svc.add_bot(out.table_id, players[0])
    return out.table_id


async def started(svc: TableService, *players: Actor, bots: int = 0, game: str = "breaks",
                  options: str | None = None) -> tuple[int, Outcome]:
    tid = await lobby(svc, *players, bots=bots, game=game, options=options)
    return tid, await svc.start(tid, players[0])


async def read(svc: TableService, tid: int) -> TableRow:
    table = await svc.db.get_table(tid)
    assert table is not None
    return table


def state_of(svc: TableService, table: TableRow) -> tuple[Game, Any]:
    game = svc.game(table.game)
    return game, game.load(table.state or {})


def actor_of(table: TableRow, seat: int) -> Actor:
    uid = table.seats[seat].user_id
    assert uid is not None, f"seat {seat} is a bot"
    return PEOPLE[uid]


async def whose_turn(svc: TableService, tid: int) -> tuple[TableRow, Actor, str]:
    """The person to act and their first legal move (in notation)."""
    table = await read(svc, tid)
    game, state = state_of(svc, table)
    (seat,) = game.to_act(state)
    move = game.legal_moves(state, seat)[0]
    return table, actor_of(table, seat), game.format_move(move)


async def play_out(svc: TableService, tid: int, each: Callable[[Outcome, TableRow, TableRow], None] | None = None,
                   limit: int = 2000) -> TableRow:
    """Let the people at the table play their first legal move (via the button path) until the game ends."""
    for _ in range(limit):
        table = await read(svc, tid)
        if table.status != ACTIVE:
            return table
        _, actor, move = await whose_turn(svc, tid)
        out = await svc.submit(actor, move, table_id=tid, version=table.version)
        if each is not None:
            each(out, table, await read(svc, tid))
    raise AssertionError("the game did not finish")


async def assert_replays(svc: TableService, tid: int) -> None:
    """Replaying the stored move log with the engine reproduces the stored state exactly."""
    table = await read(svc, tid)
    game = svc.game(table.game)
    moves = await svc.db.moves(tid)
    assert [m.ply for m in moves] == list(range(1, len(moves) + 1))
    assert table.seed is not None
    state = game.replay(len(table.seats), table.options, table.seed, [(m.seat, m.notation) for m in moves])
    assert game.dump(state) == table.state


def post_text(post: Post) -> str:
    return "\n".join([post.content, post.title, post.description, post.footer,
                      *(f"{k}: {v}" for k, v in post.fields)])


async def assert_unchanged(svc: TableService, tid: int, before: TableRow, moves: int) -> None:
    after = await read(svc, tid)
    assert (after.version, after.state, after.status) == (before.version, before.state, before.status)
    assert len(await svc.db.moves(tid)) == moves
