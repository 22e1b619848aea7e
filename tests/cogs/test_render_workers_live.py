"""The bot with its pictures drawn in worker processes (``BLOCKHOUSE_RENDER_WORKERS``; the default on a machine of
two cores or more, while the rest of the suite draws in threads): the workers start with the bot, a move's board is
posted with the picture a worker drew, and closing the bot stops them."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tables import renderer
from tables.catalog import LazyRenderer
from tests.cogs.discord_helpers import last_board, to_act
from tests.cogs.test_game_flow import open_two_player_table
from tests.render.png_helpers import decode


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> Any:
    renderer.shutdown()
    monkeypatch.setenv(renderer.WORKERS_SETTING, "1")
    yield
    renderer.shutdown()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_boards_are_drawn_by_the_workers(workers: Any, simcord_env: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    bot = simcord_env.bot
    pool = renderer.shared()
    assert pool is not None and pool.workers == 1
    assert bot._warming is not None
    await bot._warming  # started with the bot, before any board
    [worker] = pool.pids()

    def not_here(self: Any, view: Any, names: Any) -> bytes:
        raise AssertionError("a picture was drawn in the bot's own process")

    monkeypatch.setattr(LazyRenderer, "__call__", not_here)
    _, thread, alice, bob = await open_two_player_table(simcord_env)
    first = last_board(thread)
    decode(bytes(await first.attachments[0].read()))
    mover = {alice.id: alice, bob.id: bob}[to_act(first)[0]]
    for _ in range(6):  # a turn of Breaks: draw, then play or discard (its steps by /move, as offered)
        choices = await mover.autocomplete(thread, "move", "move", "")
        res = await mover.slash(thread, "move", move=choices[0]["value"])
        assert res.ephemeral and "Played" in res.response.content
        if last_board(thread).id != first.id:
            break
    board = last_board(thread)
    assert board.id != first.id and board.attachments
    decode(bytes(await board.attachments[0].read()))
    assert pool.pids() == [worker], "the same worker, never restarted"

    await bot.close()
    assert not alive(worker) or os.waitpid(worker, os.WNOHANG) != (0, 0)
    assert renderer._shared is None
