"""The loopback double serves gateway shards as Discord does: two discord.py clients (shard 0 and shard 1 of 2) each
receive the guilds of their shard ((guild_id >> 22) % 2) and only those guilds' interactions, and an initial answer
made 3 s or more after the interaction was created is refused with 10062 and counted. (What issue 26's bench
needs of the double: two bot processes sharing the guilds.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import discord
import pytest
import yarl

from bench.loopback.double import TOKEN, Double


async def until(check: Callable[[], bool], timeout: float = 120.0) -> None:
    """Patience for a busy machine: no timing is asserted."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


async def test_two_shards_share_the_guilds_and_late_answers_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    double = Double()
    url = await double.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{url}/api/v10")
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(f"ws://127.0.0.1:{double.port}/gateway"))
    guilds = [double.create_guild(f"g{i}", shard=(i % 2, 2)) for i in range(4)]
    channels = [double.create_text_channel(g, "games") for g in guilds]
    person = double.create_user("ann")
    seen: dict[int, list[tuple[int, int]]] = {0: [], 1: []}  # shard -> (guild, interaction)
    go = asyncio.Event()
    refused: list[int] = []
    clients = []
    for shard in (0, 1):
        client = discord.Client(intents=discord.Intents(guilds=True), shard_id=shard, shard_count=2)

        async def on_interaction(interaction: discord.Interaction, shard: int = shard) -> None:
            assert interaction.guild_id is not None
            seen[shard].append((interaction.guild_id, interaction.id))
            await go.wait()
            try:
                await interaction.response.send_message("hello", ephemeral=True)
            except discord.NotFound as err:
                refused.append(err.code)

        client.event(on_interaction)
        clients.append(client)
    tasks = [asyncio.create_task(c.start(TOKEN)) for c in clients]
    try:
        await until(lambda: all(c.is_ready() for c in clients))
        assert [sorted(g.id for g in c.guilds) for c in clients] == [
            sorted(g.id for g in guilds if (g.id >> 22) % 2 == shard) for shard in (0, 1)]
        records = [double.interact(person, ch.id, 3, {"custom_id": "x", "component_type": 2}) for ch in channels]
        await until(lambda: len(seen[0]) + len(seen[1]) == 4)
        for shard in (0, 1):
            assert sorted(seen[shard]) == sorted((g.id, r.id) for g, r in zip(guilds, records, strict=True)
                                                 if (g.id >> 22) % 2 == shard)
        records[0].created -= double.expiry_s  # the first one has waited 3 s: its answer comes too late
        go.set()
        await until(lambda: sum(r.acked is not None for r in records) == 3 and double.late_acks == 1)
        await until(lambda: refused == [10062])
        assert records[0].acked is None and all(r.response_type == 4 for r in records[1:])
        assert double.errors == []
    finally:
        for client in clients:
            await client.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        await double.stop()


async def test_a_session_resumes_on_a_new_connection_with_what_it_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked to reconnect (op 7), discord.py resumes its session on a new connection; an interaction dispatched
    meanwhile arrives once, after the resume or before the old connection closed, never twice and never lost."""
    double = Double()
    url = await double.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"{url}/api/v10")
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(f"ws://127.0.0.1:{double.port}/gateway"))
    channel = double.create_text_channel(double.create_guild("g"), "games")
    person = double.create_user("ann")
    seen: list[int] = []
    resumed = asyncio.Event()
    client = discord.Client(intents=discord.Intents(guilds=True))

    async def on_interaction(interaction: discord.Interaction) -> None:
        seen.append(interaction.id)

    async def on_resumed() -> None:
        resumed.set()

    client.event(on_interaction)
    client.event(on_resumed)
    task = asyncio.create_task(client.start(TOKEN))
    try:
        await until(client.is_ready)
        first = double.connections[0]
        session = first.session
        first.reconnect()
        records = [double.interact(person, channel.id, 3, {"custom_id": f"x{i}", "component_type": 2})
                   for i in range(3)]
        await asyncio.wait_for(resumed.wait(), 120.0)
        await until(lambda: len(seen) >= 3)
        later = double.interact(person, channel.id, 3, {"custom_id": "after", "component_type": 2})
        await until(lambda: len(seen) >= 4)
        assert sorted(seen) == sorted(r.id for r in [*records, later])
        assert double.resumed == 1 and list(double.sessions.values()) == [session]
        assert session is not None and session.conn is not None and session.conn is not first
        assert double.errors == []
    finally:
        await client.close()
        await asyncio.gather(task, return_exceptions=True)
        await double.stop()
