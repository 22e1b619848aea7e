"""bench.load's measured window runs on the plain event loop (simcord's instrumentation lifted, so the bot's CPU is the
bot's), and simcord gets back what the bot started meanwhile: its running tasks (settled, cancelled at shutdown) and
its pending timers, each of which then fires once, by the real clock or by simcord's, whichever comes first."""

from __future__ import annotations

import asyncio
import time

import discord
import simcord

from bench.load import LOOP_HOOKS, PlainLoop


async def test_the_window_is_plain_and_what_the_bot_left_is_handed_back() -> None:
    client = discord.Client(intents=discord.Intents.none())
    async with simcord.run(client) as env:
        loop = asyncio.get_running_loop()
        hooked = {name: vars(loop)[name] for name in LOOP_HOOKS}
        virtual_clock = time.monotonic
        plain = PlainLoop(env)
        plain.lift()
        assert not set(vars(loop)) & set(LOOP_HOOKS), "the loop's own methods during the window"
        assert time.monotonic is not virtual_clock and time.monotonic() > 0

        rang: list[str] = []
        soon = loop.create_future()

        def ring(what: str) -> None:
            rang.append(what)
            if what == "soon" and not soon.done():
                soon.set_result(None)

        async def sleeper() -> None:
            await asyncio.sleep(3600)
            rang.append("slept")

        with env._bot_scope():  # as discord.py runs the bot's event handlers
            task = loop.create_task(sleeper())
            loop.call_later(0.01, ring, "soon")
            loop.call_later(1800, ring, "later")
        mine = loop.call_later(1800, ring, "the bench's")  # not the bot's: left alone
        await asyncio.sleep(0)  # the sleeper reaches its sleep
        assert task not in env._work.tasks, "untracked during the window"

        plain.restore()
        assert {name: vars(loop)[name] for name in LOOP_HOOKS} == hooked
        assert time.monotonic is virtual_clock
        assert plain.adopt() == (1, 3), "the sleeper, and its sleep and the bot's two timers"
        assert task in env._work.tasks

        await soon  # the plain loop's timer fires by the real clock...
        await env.advance_time(3601)  # ...and simcord's clock reaches every adopted timer: each fires once
        assert rang.count("soon") == 1 and rang.count("later") == 1 and rang.count("slept") == 1, rang
        assert task.done() and "the bench's" not in rang
        mine.cancel()
