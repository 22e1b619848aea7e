"""/replay: a finished game as an animated image of its public boards, and a move file the engine replays."""

from __future__ import annotations

import io
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from storage import Database
from tables import Actor, Refusal, TableService, replay
from tables.catalog import default_catalog
from tables.replay import MIN_WIDTH, UPLOAD_CAP, public_states, sample

ALICE = Actor(1, "Alice")
CH = 700


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    db = await Database.open(tmp_path / "replay.db")
    yield TableService(db, default_catalog(), clock=lambda: 1.0, seeds=lambda: 11, render=True)
    await db.close()


async def finished(svc: TableService, game_key: str) -> int:
    """A game of Alice against a bot played to its end, its boards not drawn (the replay draws its own)."""
    svc.render_images = False
    out = await svc.open_lobby(guild_id=1, channel_id=CH, host=ALICE, game_key=game_key)
    assert out.table_id is not None
    await svc.add_bot(out.table_id, ALICE)
    await svc.start(out.table_id, ALICE)
    for _ in range(3000):
        table = await svc.db.get_table(out.table_id)
        assert table is not None
        if table.status == "finished":
            svc.render_images = True
            return out.table_id
        game = svc.game(game_key)
        state = game.load(table.state or {})
        move = game.legal_moves(state, next(iter(game.to_act(state))))[0]
        await svc.submit(ALICE, game.format_move(move), table_id=out.table_id)
    raise AssertionError("the game did not end")


FRAMES = 16  # the frames a replay here keeps at most (150 in the bot): each is a board drawn, which takes time


@pytest.mark.parametrize("game_key", ["blockers", "block", "breaks"])
async def test_a_replay_animates_the_public_boards_and_its_file_replays_the_game(
        svc: TableService, game_key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "MAX_FRAMES", FRAMES)
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
    assert getattr(gif, "n_frames", 1) == len(sample(states, FRAMES)) == min(len(states), FRAMES)
    name, data = post.attachments[0]
    assert len(post.board.png) + len(data) <= UPLOAD_CAP
    if game_key == "block":  # secret picks are never a frame: one per resolved turn, plus the start
        assert len(states) == 1 + len({game.revealed_ply(s) for s in states[1:]})
        assert all(game.revealed_ply(s) == game.ply(s) for s in states)
    if game_key == "breaks":  # one frame per turn, as the channel's boards: never a card drawn and not yet placed
        assert all(s.pending is None for s in states)
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


def boards(count: int = 16, width: int = 600, height: int = 700) -> list[Image.Image]:
    """Frames like a game's: a board that stays, and a panel of text (events, scores) redrawn at every move; in one
    palette, as :func:`replay.animation` makes them."""
    rnd = random.Random(5)
    base = Image.new("RGB", (width, height), (20, 60, 40))
    draw = ImageDraw.Draw(base)
    for _ in range(30):
        x, y = rnd.randrange(width - 80), rnd.randrange(height // 2)
        draw.rectangle((x, y, x + 80, y + 60), fill=(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)))
    out = []
    for _ in range(count):
        img = base.copy()
        draw = ImageDraw.Draw(img)
        for line in range(20):
            draw.text((4, height // 2 + 14 * line), " ".join(f"{rnd.randrange(10**6):06d}" for _ in range(9)),
                      fill="white")
        out.append(img)
    palette = replay.shared_palette(sample(out, replay.PALETTE_FRAMES))
    return [b.quantize(palette=palette, dither=Image.Dither.NONE) for b in out]


def test_an_animation_under_the_cap_is_kept_whole() -> None:
    frames = boards(6)
    whole = replay.encode(frames)
    fitted = replay.fit_frames(frames, len(whole))
    assert (fitted.gif, fitted.frames, fitted.width, fitted.encodes) == (whole, 6, 600, 1)


def test_an_animation_over_the_cap_gets_fewer_or_narrower_frames_until_it_fits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A long game's GIF over Discord's upload limit (a 4-player Bloc by Bloc game's reached 9.35 MB) is encoded again
    with fewer frames, then narrower ones, until it fits: a few encodes at most, the first and last boards kept."""
    frames = boards()
    whole = len(replay.encode(frames))
    sizes: list[int] = []
    encode = replay.encode

    def counted(shown: Any) -> bytes:
        gif = encode(shown)
        sizes.append(len(gif))
        return gif

    monkeypatch.setattr(replay, "encode", counted)
    for share in (2, 4):
        sizes.clear()
        cap = whole // share
        fitted = replay.fit_frames(frames, cap)
        assert len(fitted.gif) <= cap < sizes[0] and len(sizes) == fitted.encodes <= replay.MAX_ENCODES
        assert 2 < fitted.frames < len(frames) and MIN_WIDTH <= fitted.width <= 600
        gif = Image.open(io.BytesIO(fitted.gif))
        assert (getattr(gif, "n_frames", 1), gif.width) == (fitted.frames, fitted.width)
        for at, frame in ((0, frames[0]), (fitted.frames - 1, frames[-1])):  # the start and the end, as they were
            gif.seek(at)
            expected = frame if fitted.width == frame.width else replay._narrowed(frame, fitted.width)
            assert gif.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    with pytest.raises(ValueError, match="even two frames"):  # a cap nothing fits: said, never sent over it
        replay.fit_frames(frames, 1000)
