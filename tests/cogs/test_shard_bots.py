"""Gateway shards across processes (issue 26) through real discord.py code under simcord: the settings
(``BLOCKHOUSE_SHARDS``, ``BLOCKHOUSE_SHARD_COUNT``), a sharded bot (discord.py's ``AutoShardedBot`` with its
``shard_ids``) that plays, and processes that each run the clock of their own shards' guilds only, a DM sent by a
process that does not run shard 0 (REST), and ``/mygames`` listing games of every shard's guilds. A "process" here
is a bot restarted on the same database with other shards; the clock is the test's, moved by hand."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import discord
import pytest

from cogs.client import Blockhouse, ConfigError, Settings, ShardedBlockhouse, bot_for
from cogs.game import GameCog
from storage.shards import Shards
from tests.cogs.discord_helpers import board_messages, last_board, move_buttons, moves_made
from tests.cogs.test_blocbybloc_trades import S, W, three_at_a_table
from tests.support import OPEN_BOTS, make_bot


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "t", **env})


def test_the_shard_settings_are_read_and_checked() -> None:
    assert settings().shards is None, "none given: one process, every table"
    assert settings(BLOCKHOUSE_SHARDS="0-3", BLOCKHOUSE_SHARD_COUNT="8").shards == Shards((0, 1, 2, 3), 8)
    assert settings(BLOCKHOUSE_SHARDS="5,0, 2", BLOCKHOUSE_SHARD_COUNT="6").shards == Shards((0, 2, 5), 6)
    assert settings(BLOCKHOUSE_SHARDS="4", BLOCKHOUSE_SHARD_COUNT="5").shards == Shards((4,), 5)
    assert settings(BLOCKHOUSE_SHARDS="0-1,6", BLOCKHOUSE_SHARD_COUNT="8").shards == Shards((0, 1, 6), 8)
    wrong = {
        (("BLOCKHOUSE_SHARDS", "0-3"),): "BLOCKHOUSE_SHARD_COUNT is not",
        (("BLOCKHOUSE_SHARD_COUNT", "8"),): "BLOCKHOUSE_SHARDS is not",
        (("BLOCKHOUSE_SHARDS", "0"), ("BLOCKHOUSE_SHARD_COUNT", "0")): "1 or more",
        (("BLOCKHOUSE_SHARDS", "0"), ("BLOCKHOUSE_SHARD_COUNT", "-2")): "1 or more",
        (("BLOCKHOUSE_SHARDS", "0"), ("BLOCKHOUSE_SHARD_COUNT", "two")): "whole number",
        (("BLOCKHOUSE_SHARDS", "8"), ("BLOCKHOUSE_SHARD_COUNT", "8")): "shard 8 is outside 0-7",
        (("BLOCKHOUSE_SHARDS", "2-9"), ("BLOCKHOUSE_SHARD_COUNT", "8")): "shard 8 is outside 0-7",
        (("BLOCKHOUSE_SHARDS", "3-1"), ("BLOCKHOUSE_SHARD_COUNT", "8")): "runs backwards",
        (("BLOCKHOUSE_SHARDS", "1,1"), ("BLOCKHOUSE_SHARD_COUNT", "8")): "named twice",
        (("BLOCKHOUSE_SHARDS", "0,"), ("BLOCKHOUSE_SHARD_COUNT", "8")): "an empty item",
        (("BLOCKHOUSE_SHARDS", "a"), ("BLOCKHOUSE_SHARD_COUNT", "8")): "not a shard id",
        (("BLOCKHOUSE_SHARDS", "-1"), ("BLOCKHOUSE_SHARD_COUNT", "8")): "not a shard id",
    }
    for env, says in wrong.items():
        with pytest.raises(ConfigError, match=says):
            settings(**dict(env))


def test_the_bot_is_sharded_only_when_given_shards() -> None:
    one = bot_for(settings())
    assert type(one) is Blockhouse and not isinstance(one, discord.AutoShardedClient), "one connection, as before"
    some = bot_for(settings(BLOCKHOUSE_SHARDS="2-3", BLOCKHOUSE_SHARD_COUNT="4"))
    assert isinstance(some, ShardedBlockhouse) and isinstance(some, discord.AutoShardedClient)
    assert some.shard_ids == [2, 3] and some.shard_count == 4


def sharded(db_path: Path, ids: list[int], count: int, clock: Clock, seeds: Any) -> ShardedBlockhouse:
    """A bot process on ``db_path`` running shards ``ids`` of ``count`` (as ``BLOCKHOUSE_SHARDS`` would give)."""
    bot = ShardedBlockhouse(Settings(token="test-token", database=str(db_path), shards=Shards.of(ids, count)),
                            seeds=lambda: next(seeds), clock=clock)
    OPEN_BOTS.append(bot)
    return bot


async def tick(env: Any) -> None:
    """One run of the cog's clock loop, as its 30-second timer would."""
    cog = env.bot.get_cog("GameCog")
    assert isinstance(cog, GameCog)
    await cog.turn_clock.coro(cog)
    await env.settle()


async def clocked_game(env: Any, guild: Any, name: str, dm: bool = False, host: Any = None
                       ) -> tuple[Any, dict[int, Any]]:
    """A two-player Breaks game with a 1 h clock in ``guild``, hosted by ``host`` (a user; a new one by default):
    its thread and its members by id (who asked for DMs only with ``dm``)."""
    channel = guild.create_text_channel(name)
    alice = guild.add_member(host or env.create_user(f"{name}-host"))
    bob = guild.add_member(env.create_user(f"{name}-guest"))
    if dm:  # both hear of their turns by DM only
        await alice.slash(channel, "notify", mode="dm")
        await bob.slash(channel, "notify", mode="dm")
    await alice.slash(channel, "game new", game="breaks", options="clock=1h")
    card = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await bob.click(card, label="Join")
    await alice.click(card, label="Start")
    return channel.threads[0], {alice.id: alice, bob.id: bob}


def to_play(thread: Any) -> int:
    """The player to act, from the last board's "To play" field (a DM-only player is not mentioned above it)."""
    field = next(f for f in last_board(thread).embeds[0].fields if f.name == "To play")
    return int(re.findall(r"<@(\d+)>", field.value or "")[0])


def timed_out(thread: Any) -> bool:
    return "ran out of time" in (last_board(thread).embeds[0].description or "")


async def test_each_process_runs_the_clock_of_its_own_shards_guilds(db_path: Path, simcord_env: Any) -> None:
    clock, seeds = Clock(), itertools.count(1)
    both = sharded(db_path, [0, 1], 2, clock, seeds)
    await simcord_env.restart_bot(both)
    assert sorted(both.shards) == [0, 1] and both.shard_count == 2
    first, second = simcord_env.create_guild(shard_id=0), simcord_env.create_guild(shard_id=1)
    everywhere = simcord_env.create_user("everywhere")  # plays in both guilds
    on_0, members_0 = await clocked_game(simcord_env, first, "zero", host=everywhere)
    on_1, members_1 = await clocked_game(simcord_env, second, "one", dm=True, host=everywhere)
    # a move through the sharded bot, in each guild
    for thread, members in ((on_0, members_0), (on_1, members_1)):
        mover = members[to_play(thread)]
        made = await moves_made(both, thread)
        choices = await mover.autocomplete(thread, "move", "move", "")
        await mover.slash(thread, "move", move=choices[0]["value"])
        assert await moves_made(both, thread) == made + 1, "played through the sharded bot"
    boards_0, boards_1 = len(board_messages(on_0)), len(board_messages(on_1))
    # the process of shard 1 alone: its guild's clock runs, shard 0's waits for its own process
    await simcord_env.restart_bot(sharded(db_path, [1], 2, clock, seeds))
    late = members_1[to_play(on_1)].user
    dms = len(late.dm_channel.history()) if late.dm_channel is not None else 0
    clock.now += 1801
    await tick(simcord_env)
    # the late player asked for DMs: the reminder comes by DM, sent over REST by a process without shard 0 (the
    # one Discord sends DMs' events to)
    assert len(late.dm_channel.history()) == dms + 1
    assert "left for your turn" in (late.dm_channel.history()[-1].embeds[0].description or "")
    assert not [m for m in on_0.history() if "left for your turn" in (m.content or "")], "not its table"
    clock.now += 1800
    await tick(simcord_env)
    assert len(board_messages(on_1)) == boards_1 + 1 and timed_out(on_1)
    assert len(board_messages(on_0)) == boards_0, "shard 0's table is not this process's"
    # /mygames reads the database: a process lists the games of every guild, its shards' or not
    res = await members_1[everywhere.id].slash(on_1, "mygames")
    text = str(res.response.content) + "".join(str(e.to_dict()) for e in res.response.embeds)
    assert res.ephemeral and f"/{first.id}/{on_0.id}" in text and f"<#{on_1.id}>" in text, text
    # the process of shard 0 comes back: its table's late turn is played then
    await simcord_env.restart_bot(sharded(db_path, [0], 2, clock, seeds))
    await tick(simcord_env)
    assert len(board_messages(on_0)) == boards_0 + 1 and timed_out(on_0)
    assert len(board_messages(on_1)) == boards_1 + 1, "and shard 1's table is left alone"


async def test_one_process_without_shard_settings_runs_every_guilds_clock(db_path: Path, simcord_env: Any) -> None:
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    threads = [(await clocked_game(simcord_env, simcord_env.create_guild(), f"g{i}"))[0]
               for i in range(2)]
    boards = [len(board_messages(t)) for t in threads]
    clock.now += 3601
    await tick(simcord_env)
    assert [len(board_messages(t)) for t in threads] == [b + 1 for b in boards]
    assert all(timed_out(t) for t in threads)


async def test_a_dm_click_reaches_the_process_of_shard_0_which_plays_it_in_another_shards_guild(
        db_path: Path, simcord_env: Any) -> None:
    """Discord sends a DM's interactions to shard 0: a trade answered from its DM's buttons is played by the process
    of shard 0 even though the game's guild is shard 1's (requests are not filtered: the version check keeps two
    processes' moves apart), and the board reaches the guild's thread over REST."""
    clock, seeds = Clock(), itertools.count(1)
    await simcord_env.restart_bot(sharded(db_path, [0, 1], 2, clock, seeds))
    guild = simcord_env.create_guild(shard_id=1)
    thread, by_faction, _ = await three_at_a_table(simcord_env, guild=guild)
    workers, students = by_faction[W], by_faction[S]
    res = await workers.slash(thread, "move", move="offer S molotov1 for 1")
    assert "Played" in (res.response.content or "")
    dm = students.user.dm_channel.history()[-1]
    assert [b.label for b in move_buttons(dm)][-1] == "Decline offer #1"
    boards = len(board_messages(thread))
    # the process of shard 0 alone (the guild's own, shard 1's, is another process, not running here)
    zero = sharded(db_path, [0], 2, clock, seeds)
    await simcord_env.restart_bot(zero)
    assert zero.get_guild(guild.id) is None, "not a guild of its shards"
    res = await students.user.click(dm, label="Accept offer #1: give Medic Kit")
    assert "Played: Accept offer #1: give Medic Kit." in (res.response.content or ""), res.response
    assert len(board_messages(thread)) == boards + 1
    assert "Students accept trade #1" in (last_board(thread).embeds[0].description or "")
