"""Acknowledged interactions are worked on a bounded number at once (GameCog.working, cogs.game.WORKING): one beyond
them is acknowledged at once and waits its turn, then is played as usual. (Unbounded, a saturated host works on every
request together and each turn of the event loop grows with them: acknowledgements and autocompletes, which need a
few turns, then come after Discord's 3 s.)"""

from __future__ import annotations

import asyncio
from typing import Any

from cogs.game import WORKING
from tests.cogs.discord_helpers import last_board, move_buttons, moves_made, to_act
from tests.cogs.test_game_flow import open_two_player_table


class HeldSlots:
    """The cog's slots, all taken until the test frees one: a request waiting for one is a declared wait for
    outside input (simcord then counts it as waiting, not stuck)."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.free = asyncio.Event()
        self.waiting = 0
        self.held: list[str] = []

    async def __aenter__(self) -> None:
        if not self.free.is_set():
            self.waiting += 1
            await self.env.external_wait(self.free.wait(), reason="every slot is working on another request")
        self.held.append("taken")

    async def __aexit__(self, *exc: object) -> None:
        self.held.append("given back")


async def test_a_request_beyond_the_bound_is_acknowledged_then_waits_its_turn(simcord_env: Any) -> None:
    assert WORKING >= 8, "enough at once that waiting on Discord or a bot's worker does not starve the others"
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    board = last_board(thread)
    mover = {alice.id: alice, bob.id: bob}[to_act(board)[0]]
    cog: Any = simcord_env.bot.get_cog("GameCog")
    slots = HeldSlots(simcord_env)
    cog.working = slots
    made = await moves_made(simcord_env.bot, thread)
    button = move_buttons(board)[0]
    res = await mover.click(board, custom_id=button.custom_id)
    assert res.acknowledged, "acknowledged at once, within Discord's 3 s"
    assert slots.waiting == 1 and slots.held == [], "the move waits for a slot"
    assert await moves_made(simcord_env.bot, thread) == made and last_board(thread).id == board.id
    slots.free.set()
    await simcord_env.settle()
    assert slots.held == ["taken", "given back"]
    assert await moves_made(simcord_env.bot, thread) == made + 1, "then played as usual"
