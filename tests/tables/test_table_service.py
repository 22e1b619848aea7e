"""The table service on real SQLite files: lobbies, turns, bots, resignations, restarts and private views."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.base import CANCEL, Game
from engine.breaks import Breaks
from engine.rng import Rng
from storage import ACTIVE, CANCELLED, FINISHED, LOBBY, Database, TableRow
from tables import Actor, Choice, Outcome, Post, Refusal, StaleButton, TableService
from tables.catalog import Catalog, GameEntry, default_catalog
from tables.menu import MAX_OPTIONS
from tests.tables.hidden_game import HighCard

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


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
async def db(db_file: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_file)
    yield database
    await database.close()


@pytest.fixture
def svc(db: Database) -> TableService:
    return service(db)


@pytest.fixture
def hsvc(db: Database) -> TableService:
    """A service whose registry also has the hidden-information test game."""
    return service(db, Catalog([default_catalog().entry("breaks"), HighCard()]))


# --- helpers -----------------------------------------------------------------------------------------------------


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


# --- lobby -------------------------------------------------------------------------------------------------------


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


async def test_an_unknown_game_is_refused(svc: TableService) -> None:
    with pytest.raises(Refusal, match="There is no game called `chess`. Games: breaks."):
        await svc.open_lobby(guild_id=7, channel_id=CH, host=ALICE, game_key="chess")
    assert await svc.db.open_table_in(CH) is None


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


# --- starting and playing ----------------------------------------------------------------------------------------


async def test_start_posts_a_board_with_controls_for_the_person_to_act(svc: TableService) -> None:
    tid, out = await started(svc, ALICE, BOB)
    table, actor, _ = await whose_turn(svc, tid)
    game, state = state_of(svc, table)
    assert table.status == ACTIVE and table.seed == 1234
    assert out.reply == "Game started." and out.channel_id == CH
    assert out.lobby is not None and not out.lobby.open
    (board,) = out.public
    assert board.content == f"<@{actor.user_id}> — your turn."
    assert board.mention_ids == [actor.user_id]
    assert board.board is None  # render=False
    assert board.panel_table == tid
    assert board.controls is not None
    assert (board.controls.table_id, board.controls.version, board.controls.user_id) == (tid, table.version,
                                                                                         actor.user_id)
    (seat,) = game.to_act(state)
    assert [c.notation for c in board.controls.choices] == [game.format_move(m) for m in
                                                            game.legal_moves(state, seat)]
    assert "Breaks begins!" in board.description
    assert ("To play", f"<@{actor.user_id}>") in board.fields
    assert out.dms == []  # Breaks has no hidden information


async def test_the_board_image_is_a_png_when_rendering(db: Database) -> None:
    svc = service(db, render_images=True)
    _, out = await started(svc, ALICE, BOB)
    board = out.public[0].board
    assert board is not None and board.png.startswith(PNG)
    assert board.alt.startswith("Breaks.") and "Alice" in board.alt and len(board.alt) <= 1024


async def assert_unchanged(svc: TableService, tid: int, before: TableRow, moves: int) -> None:
    after = await read(svc, tid)
    assert (after.version, after.state, after.status) == (before.version, before.state, before.status)
    assert len(await svc.db.moves(tid)) == moves


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


async def test_a_stale_version_is_a_stale_button(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    table, actor, move = await whose_turn(svc, tid)
    await svc.submit(actor, move, table_id=tid, version=table.version)
    after, actor2, move2 = await whose_turn(svc, tid)
    assert actor2 == actor  # Breaks: a draw, then its placement by the same player
    with pytest.raises(StaleButton, match="before your last move, and your turn goes on"):
        await svc.submit(actor2, move2, table_id=tid, version=table.version)
    await assert_unchanged(svc, tid, after, 1)
    await svc.submit(actor2, move2, table_id=tid)  # the turn ends: the other player's old button is from before
    other = BOB if actor == ALICE else ALICE
    with pytest.raises(StaleButton, match="earlier position"):
        await svc.submit(other, move, table_id=tid, version=table.version)


async def test_a_stale_control_of_a_turn_that_ended_is_not_called_the_same_turn(svc: TableService) -> None:
    """BLOCK: Bob's pick ends the setup turn and the next turn begins, Bob to act again: a control made before his
    pick is from an earlier position, not from a turn that goes on."""
    tid, _ = await started(svc, ALICE, BOB, game="block")
    await svc.submit(ALICE, "write a1", table_id=tid)
    before = await read(svc, tid)
    await svc.submit(BOB, "write b1", table_id=tid)
    game, state = state_of(svc, await read(svc, tid))
    assert game.to_act(state) == {0, 1}, "a new turn: both to pick"
    with pytest.raises(StaleButton, match="earlier position"):
        await svc.submit(BOB, "write c1", table_id=tid, version=before.version)


async def test_a_solo_game_given_up_has_no_winner(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, game="block")
    await svc.resign(CH, ALICE)
    table = await read(svc, tid)
    assert table.result is not None and table.result["winners"] == [] and table.result["reason"] == \
        "the player resigned"


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
            assert sum(isinstance(r, StaleButton) for r in results) == 1, results
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


# --- resigning ---------------------------------------------------------------------------------------------------


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


async def test_the_earliest_resignation_ranks_lowest(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB, CARL, DANA)
    await svc.resign(CH, CARL)
    await svc.resign(CH, DANA)  # two people are left, so the game goes on
    table = await read(svc, tid)
    assert table.status == ACTIVE
    carl, dana = table.seat_of(CARL.user_id), table.seat_of(DANA.user_id)
    assert carl is not None and dana is not None and (carl.resigned, dana.resigned) == (1, 2)
    table = await play_out(svc, tid)
    assert table.result is not None
    assert table.result["ranks"][carl.seat] == 4 and table.result["ranks"][dana.seat] == 3
    assert table.result["resigned"] == sorted([carl.seat, dana.seat])
    await assert_replays(svc, tid)


# --- cancelling --------------------------------------------------------------------------------------------------


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


# --- choices, hand, history, status --------------------------------------------------------------------------------


async def test_choices_filter_by_typed_text(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    assert await svc.choices(CH, ALICE) == []  # lobby
    await svc.start(tid, ALICE)
    table, actor, _ = await whose_turn(svc, tid)
    other = BOB if actor is ALICE else ALICE
    game, state = state_of(svc, table)
    everything = await svc.choices(CH, actor)
    (seat,) = game.to_act(state)
    assert [c.notation for c in everything] == [game.format_move(m) for m in game.legal_moves(state, seat)]
    assert everything[0] == Choice("draw", game.describe_move(state, seat, game.parse_move("draw")))
    assert await svc.choices(CH, actor, "  DRA ") == [everything[0]]
    assert await svc.choices(CH, actor, "a CARD") == [everything[0]]  # matches the label too
    assert await svc.choices(CH, actor, "zzz") == []
    assert await svc.choices(CH, STRANGER) == []
    assert await svc.choices(CH, other) == []  # not their turn: nothing is legal
    assert await svc.choices(CH + 1, actor) == []  # no table there
    await svc.submit(actor, "draw", channel_id=CH)
    assert {c.notation for c in await svc.choices(CH, actor)} >= {"discard"}
    assert [c.notation for c in await svc.choices(CH, actor, "disc")] == ["discard"]


async def test_hand_is_private_with_an_image_when_rendering(db: Database) -> None:
    svc = service(db, render_images=True)
    tid = await lobby(svc, ALICE, BOB)
    with pytest.raises(Refusal, match="not started yet"):
        await svc.hand(CH, ALICE)
    await svc.start(tid, ALICE)
    table, actor, _ = await whose_turn(svc, tid)
    other = BOB if actor is ALICE else ALICE
    out = await svc.hand(CH, actor)
    post = out.reply_post
    assert post is not None and out.public == [] and out.dms == []
    assert post.title == f"Your view · Breaks · table #{tid}" and post.footer == "Only you can see this."
    assert post.description == "It's your turn."
    assert post.controls is not None and post.controls.user_id == actor.user_id
    assert post.controls.version == table.version
    assert post.board is not None and post.board.png.startswith(PNG)
    waiting = (await svc.hand(None, other, table_id=tid)).reply_post
    assert waiting is not None and waiting.controls is None
    assert waiting.description.startswith(f"Waiting for {actor.name}.")
    assert "when it is your turn" in waiting.description
    with pytest.raises(Refusal, match="You are not playing in this game."):
        await svc.hand(CH, STRANGER)
    await svc.cancel(CH, ALICE)
    over = (await svc.hand(CH, actor)).reply_post
    assert over is not None and over.description == "This game is over." and over.controls is None


async def test_history_and_status(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    assert await svc.history(CH) == "No moves yet."
    status = await svc.status(CH)
    assert status.startswith(f"**Breaks** · table #{tid} · active\nPlayers: Alice, Bob\n")
    assert "{p" not in status and ("Alice" in status.splitlines()[-1] or "Bob" in status.splitlines()[-1])
    table, actor, _ = await whose_turn(svc, tid)
    await svc.submit(actor, "draw", channel_id=CH)
    (move,) = await svc.db.moves(tid)
    history = await svc.history(CH)
    assert history == f"`  1` {actor.name}: `draw` — {move.events[0]}"
    assert move.events[0].startswith(f"{actor.name} drew ")
    await svc.resign(CH, BOB)
    status = await svc.status(CH)
    assert f"table #{tid} · finished" in status and "Bob (resigned)" in status
    assert "Result: 1. Alice — 0\n2. Bob — 0 (resigned)" in status
    assert (await svc.history(CH, last=1)).startswith("`  1`")
    with pytest.raises(Refusal, match="no game here"):
        await svc.status(CH + 1)


async def test_board_shows_the_lobby_card_or_the_latest_board(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    out = await svc.board(CH)
    assert out.reply_post is not None and "Waiting for players" in out.reply_post.description
    await svc.start(tid, ALICE)
    _, actor, _ = await whose_turn(svc, tid)
    await svc.submit(actor, "draw", channel_id=CH)
    out = await svc.board(CH)
    (post,) = out.public
    assert f"{actor.name} drew" in post.description and post.controls is not None


# --- restarts and DMs ----------------------------------------------------------------------------------------------


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


async def test_dm_result_warns_only_the_first_time_dms_fail(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    assert await svc.dm_result(tid, STRANGER.user_id, False) is None
    assert await svc.dm_result(tid, BOB.user_id, True) is None  # already open: nothing to say
    notice = await svc.dm_result(tid, BOB.user_id, False)
    assert notice is not None and notice.mention_ids == [BOB.user_id] and notice.content == "<@2>"
    assert "/hand" in notice.description
    assert [s.dm_open for s in (await read(svc, tid)).seats] == [True, False]
    assert await svc.dm_result(tid, BOB.user_id, False) is None  # already known
    assert await svc.dm_result(tid, BOB.user_id, True) is None  # delivered again
    assert [s.dm_open for s in (await read(svc, tid)).seats] == [True, True]
    assert await svc.dm_result(tid, BOB.user_id, False) is not None  # a new failure is news again


# --- hidden information --------------------------------------------------------------------------------------------


async def test_private_views_go_by_dm_to_exactly_the_players_whose_view_changed(hsvc: TableService) -> None:
    tid, out = await started(hsvc, ALICE, BOB, CARL, game="highcard")
    table = await read(hsvc, tid)
    game, state = state_of(hsvc, table)
    assert [dm.user_id for dm in out.dms] == [1, 2, 3]  # everyone gets their first hand
    for dm in out.dms:
        assert dm.table_id == tid and dm.post.title == f"Your view · High Card · table #{tid}"
    assert out.dms[0].post.controls is not None and out.dms[0].post.controls.user_id == ALICE.user_id
    assert {c.notation for c in out.dms[0].post.controls.choices} == {f"play {c}" for c in state.hands[0]}
    assert out.dms[1].post.controls is None and out.dms[2].post.controls is None

    # Alice plays: her hand changes and Bob's turn begins; Carl's private view is unchanged.
    out = await hsvc.submit(ALICE, f"play {state.hands[0][0]}", channel_id=CH)
    assert [dm.user_id for dm in out.dms] == [ALICE.user_id, BOB.user_id]
    alice_dm, bob_dm = out.dms
    assert alice_dm.post.controls is None and alice_dm.post.description.startswith(f"Waiting for {BOB.name}.")
    assert bob_dm.post.description == "It's your turn."
    assert bob_dm.post.controls is not None and bob_dm.post.controls.user_id == BOB.user_id
    assert {c.notation for c in bob_dm.post.controls.choices} == {f"play {c}" for c in state.hands[1]}

    def check(out: Outcome, before: TableRow, after: TableRow) -> None:
        old, new = game.load(before.state or {}), game.load(after.state or {})
        changed = [s.user_id for s in after.seats
                   if s.user_id is not None and game.view(old, s.seat) != game.view(new, s.seat)]
        assert [dm.user_id for dm in out.dms] == changed

    table = await play_out(hsvc, tid, check)
    assert table.status == FINISHED
    await assert_replays(hsvc, tid)


async def test_bots_and_resigned_players_get_no_dms(hsvc: TableService) -> None:
    tid, out = await started(hsvc, ALICE, BOB, bots=1, game="highcard")
    assert [dm.user_id for dm in out.dms] == [1, 2]
    await hsvc.resign(CH, BOB)
    table = await read(hsvc, tid)
    assert table.status == ACTIVE

    def check(out: Outcome, before: TableRow, after: TableRow) -> None:
        assert {dm.user_id for dm in out.dms} <= {ALICE.user_id}

    assert (await play_out(hsvc, tid, check)).status == FINISHED


async def test_the_public_board_never_shows_a_hand(hsvc: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Render everything: the public board gets only the public view, each DM only its reader's view."""
    rendered: list[dict[str, Any]] = []

    def fake_render(view: Mapping[str, Any], names: Sequence[str]) -> bytes:
        rendered.append(dict(view))
        return PNG + b"fake"

    hsvc.registry = Catalog([GameEntry(HighCard(), fake_render)])
    hsvc.render_images = True
    tid, _ = await started(hsvc, ALICE, BOB, CARL, game="highcard")
    outcomes: list[Outcome] = []
    await play_out(hsvc, tid, lambda out, before, after: outcomes.append(out))
    assert outcomes
    table = await read(hsvc, tid)
    game = hsvc.game("highcard")
    for out in outcomes:
        (public,) = out.public
        assert public.controls is None  # the choices would list the mover's cards for everyone
        assert public.board is not None and public.board.alt.startswith("High Card.")
        assert "Your hand" not in post_text(public) and "Play your" not in post_text(public)
        for dm in out.dms:
            assert dm.post.board is not None and dm.post.board.alt.startswith("Your hand")
    assert rendered
    public_views = [v for v in rendered if v["viewer"] is None]
    private_views = [v for v in rendered if v["viewer"] is not None]
    assert public_views and private_views
    for view in public_views:
        assert "hand" not in view and set(view) == {"game", "viewer", "ply", "to_act", "hand_sizes", "played",
                                                    "result"}
    for view in private_views:
        assert set(view) == {"game", "viewer", "hand", "your_turn"}
    # Replay to check every private view was the reader's own hand at that moment.
    moves = await hsvc.db.moves(tid)
    assert table.seed is not None
    state = game.new_game(3, table.options, table.seed)
    hands_seen = {seat: {tuple(state.hands[seat])} for seat in range(3)}
    for m in moves:
        state, _ = game.apply(state, m.seat, game.parse_move(m.notation))
        hands_seen[m.seat].add(tuple(state.hands[m.seat]))
    for view in private_views:
        assert tuple(view["hand"]) in hands_seen[view["viewer"]]


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


async def test_blockers_dms_only_the_player_whose_rack_changed(tmp_path: Path) -> None:
    """A DM goes out when private information changes (your rack after your draw), not on every move."""
    db = await Database.open(tmp_path / "dm.db")
    try:
        svc = TableService(db, default_catalog(), seeds=lambda: 11, render=False)
        people = [Actor(i, f"P{i}") for i in (1, 2, 3)]
        out = await svc.open_lobby(guild_id=1, channel_id=5, host=people[0], game_key="blockers")
        assert out.table_id is not None
        for p in people[1:]:
            await svc.join(out.table_id, p)
        out = await svc.start(out.table_id, people[0])
        assert sorted(dm.user_id for dm in out.dms) == [1, 2, 3]  # everyone sees their first rack
        for _ in range(6):
            table = await db.get_table(out.table_id)  # type: ignore[arg-type]
            assert table is not None
            game = svc.game("blockers")
            state = game.load(table.state or {})
            (seat,) = game.to_act(state)
            mover = table.seats[seat].user_id
            mine = [c for c in await svc.choices(5, people[seat]) if c.notation != "pass"]
            out = await svc.submit(people[seat], mine[0].notation, channel_id=5)
            assert [dm.user_id for dm in out.dms] == [mover]
    finally:
        await db.close()


# --- the move menu --------------------------------------------------------------------------------------------


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


# --- simultaneous picks (BLOCK) ------------------------------------------------------------------------------


@pytest.fixture
def bsvc(db: Database) -> TableService:
    return service(db, Catalog([default_catalog().entry("block")]))


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


async def test_a_tie_is_called_what_the_games_rules_call_it(svc: TableService) -> None:
    """Breaker Blocks' rules call a tie a draw ("otherwise the game is a draw"), not a shared win: both players
    end every turn, no circuit is controlled, and the round limit scores the game."""
    tid, _ = await started(svc, ALICE, BOB, game="breakerblocks", options="max_rounds=20")
    table = await read(svc, tid)
    while table.status != FINISHED:
        game, state = state_of(svc, table)
        (seat,) = game.to_act(state)
        out = await svc.submit(actor_of(table, seat), "end", table_id=tid)
        table = await read(svc, tid)
    assert table.result is not None and table.result["winners"] == [0, 1]
    (board,) = out.public
    assert board.content == "🏁 Game over! Draw: <@1>, <@2>."


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
            assert out.reply == f"Not played: `{text}` is no longer possible after the police reaction: nothing spent."
            return
        await svc.submit(actor_of(table, seat), game.format_move(moves[rng.below(len(moves))]), table_id=tid)
    raise AssertionError("no cancelled move came up in 200 moves")


# --- cooperative results --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("goal", "verdict"), [(10, "Everyone won together!"), (60, "Everyone lost.")])
async def test_a_cooperative_game_is_won_or_lost_by_everyone(hsvc: TableService, goal: int, verdict: str) -> None:
    """Three cards each, 1–13: two players always reach 10 together and never 60."""
    tid, _ = await started(hsvc, ALICE, BOB, game="highcard", options=f"goal={goal}")
    for _ in range(6):
        table = await read(hsvc, tid)
        game, state = state_of(hsvc, table)
        (seat,) = game.to_act(state)
        out = await hsvc.submit(actor_of(table, seat), f"play {state.hands[seat][0]}", table_id=tid)
    table = await read(hsvc, tid)
    assert table.status == FINISHED and table.result is not None
    assert table.result["cooperative"] is True
    assert table.result["winners"] == ([0, 1] if goal == 10 else [])
    assert table.result["ranks"] == [1, 1]
    (board,) = out.public
    assert board.content == f"🏁 Game over! {verdict}"
    assert "goal" in dict(board.fields)["Result"]


async def test_a_picture_that_fails_after_the_move_is_stored_is_reported_truthfully(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is committed before the board is drawn: a failing renderer must not turn it into "nothing was
    changed". The board is posted without its picture, saying so, and the game goes on."""
    svc = service(db, render_images=True)
    tid, _ = await started(svc, ALICE, BOB)
    table, actor, move = await whose_turn(svc, tid)

    def broken(*args: Any) -> bytes:
        raise RuntimeError("the renderer broke")

    svc.registry = Catalog([GameEntry(Breaks(), broken)])
    out = await svc.submit(actor, move, table_id=tid)  # the draw: the turn goes on privately
    assert out.reply == f"Played `{move}`." and out.reply_post is not None and out.reply_post.board is None
    _, _, placement = await whose_turn(svc, tid)
    out = await svc.submit(actor, placement, table_id=tid)  # the turn ends: its board
    assert out.reply == f"Played `{placement}`."
    (board,) = out.public
    assert board.board is None and "could not be drawn" in board.description
    after = await read(svc, tid)
    assert after.version > table.version and len(await svc.db.moves(tid)) == 2


# --- Breaker Blocks, Blind Action --------------------------------------------------------------------------------
async def test_a_blind_module_draw_reaches_only_its_holder(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB, game="breakerblocks", options="blind=yes")
    table = await read(svc, tid)
    game, state = state_of(svc, table)
    mover = actor_of(table, state.turn)
    out = await svc.submit(mover, "draw module", table_id=tid)
    table = await read(svc, tid)
    _, state = state_of(svc, table)
    drawn = state.hands[table.seat_of(mover.user_id).seat][-1]
    assert drawn in ("annihilate", "automate", "accelerate", "attenuate", "agitate", "aggravate", "authenticate")
    public = " ".join(p.description + " ".join(v for _, v in p.fields) for p in out.public)
    assert drawn not in public.lower() and drawn.upper() not in public
    log = " ".join(m.notation + " ".join(m.events) for m in await svc.db.moves(tid))
    assert drawn not in log.lower()
    assert out.reply_post is not None and out.reply_post.controls is not None  # the holder goes on privately
    assert all(dm.user_id == mover.user_id for dm in out.dms)  # nothing private reaches the other player
