"""/replay: a finished game as an animated image of its public boards, and a move file the engine replays."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from storage import Database
from tables import Actor, Refusal, TableService
from tables.catalog import default_catalog
from tables.replay import MAX_FRAMES, public_states, sample

ALICE = Actor(1, "Alice")
CH = 700


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    db = await Database.open(tmp_path / "replay.db")
    yield TableService(db, default_catalog(), clock=lambda: 1.0, seeds=lambda: 11, render=True)
    await db.close()


async def finished(svc: TableService, game_key: str) -> int:
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key=game_key)
    assert out.table_id is not None
    await svc.add_bot(out.table_id, ALICE)
    await svc.start(out.table_id, ALICE)
    for _ in range(3000):
        table = await svc.db.get_table(out.table_id)
        assert table is not None
        if table.status == "finished":
            return out.table_id
        game = svc.game(game_key)
        state = game.load(table.state or {})
        move = game.legal_moves(state, next(iter(game.to_act(state))))[0]
        await svc.submit(ALICE, game.format_move(move), table_id=out.table_id)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game_key", ["blockers", "block", "breaks"])
async def test_a_replay_animates_the_public_boards_and_its_file_replays_the_game(svc: TableService,
                                                                                  game_key: str) -> None:
    with pytest.raises(Refusal):
        await svc.replay(CH)  # no game yet
    tid = await finished(svc, game_key)
    out = await svc.replay(CH)
    post = out.public[0]
    assert post.board is not None and post.board.filename.endswith(".gif")
    gif = Image.open(io.BytesIO(post.board.png))
    table = await svc.db.get_table(tid)
    assert table is not None
    game = svc.game(game_key)
    moves = [(m.seat, m.notation) for m in await svc.db.moves(tid)]
    states = public_states(game, len(table.seats), table.options, table.seed or 0, moves)
    assert getattr(gif, "n_frames", 1) == len(sample(states)) <= MAX_FRAMES and len(post.board.png) < 8 * 1024 * 1024
    if game_key == "block":  # secret picks are never a frame: one per resolved turn, plus the start
        assert len(states) == 1 + len({game.revealed_ply(s) for s in states[1:]})
        assert all(game.revealed_ply(s) == game.ply(s) for s in states)
    if game_key == "breaks":  # one frame per turn, as the channel's boards: never a card drawn and not yet placed
        assert all(s.pending is None for s in states)
    name, data = post.attachments[0]
    log = json.loads(data)
    assert name.endswith(".json") and log["game"] == game_key and log["names"] == [s.name for s in table.seats]
    rebuilt = game.replay(log["seats"], log["options"], log["seed"], [tuple(m) for m in log["moves"]])
    assert game.dump(rebuilt) == table.state


async def test_a_log_this_version_cannot_replay_is_refused_in_words(svc: TableService) -> None:
    """A move stored under an older version of the rules that this one refuses (a rules fix): /replay says so,
    instead of passing the engine's refusal of that move on as if it were the caller's."""
    tid = await finished(svc, "breaks")
    async with svc.db.transaction() as conn:
        await conn.execute("UPDATE moves SET notation = 'done' WHERE table_id = ? AND ply = 1", (tid,))
    with pytest.raises(Refusal, match="can't be replayed by this version of the rules"):
        await svc.replay(CH)
