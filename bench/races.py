"""Racing clicks and crashes, counted: the figures issue 14 asks for, measured in-process through simcord (the
real bot, its real discord.py code and a real SQLite file, Discord simulated).

* races: ``--pairs`` pairs of clicks on the same control at the same instant (the second sent before the bot
  has handled the first): a move button of a Breaks game against a bot, or a lobby's Start; each pair counts as
  answered (both clicks acknowledged), applied twice (two moves or two starts), or lost (nothing applied);
* kills: ``--kills`` times the process "dies" after committing a move, in turn before its board is posted and
  after it is posted but before it is marked delivered (``GameCog.stop_at``), then a new bot starts on the same
  database: a board never posted is lost, one posted again is told twice.

Run from the repository root::

    python -m bench.races                 # 200 pairs, 20 kills
    python -m bench.races --pairs 1000    # in batches of 100 pairs, each on a fresh bot and database

Half the pairs are sent at the same instant, half one after the other (the second once the first is handled,
sent from the message as it was: a late double tap). Last measured (2 cores, 2026-11-26): 200 racing pairs,
200 answered, 0 applied twice, 0 lost; ``--kills 100`` (one game, which ended after 59): 30 before the post and 29
after it, 59 boards owed, 30 posted after the restart (the other 29 were found in the channel), 0 lost, 0 told
twice. Without the look at the channel (issue 27's first crash window) every kill after the post told its board
twice.

The kill here is simulated inside one process; a real ``kill -9`` needs the bot against a Discord double.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.actors import _component_interaction, _visible_message

from cogs.client import Blockhouse, Settings
from cogs.game import GameCog
from storage import Database


def bot_on(path: Path, seeds: Any) -> Blockhouse:
    return Blockhouse(Settings(token="bench", database=str(path)), seeds=lambda: next(seeds))


def db_of(bot: Any) -> Database:
    """The running bot's database (set up by its setup_hook)."""
    assert isinstance(bot, Blockhouse) and bot.db is not None
    return bot.db


def boards(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "") and m.attachments]


def controls(message: discord.Message) -> list[Any]:
    return [c for row in message.components for c in getattr(row, "children", ())
            if (getattr(c, "custom_id", "") or "").startswith(("bh:mv:", "bh:step:"))]


async def held(env: Any, clicks: list[Any]) -> list[Any]:
    """The clicks sent before the bot handles any of them (simcord's settle step held back)."""
    real = env._settle_internal

    async def no_settle(**_: Any) -> None:
        return None

    env._settle_internal = no_settle
    try:
        results = [await click() for click in clicks]
    finally:
        env._settle_internal = real
    await env.settle()
    return results


async def first_control(member: Any, board: discord.Message) -> Any:
    button = controls(board)[0]
    if isinstance(button, discord.SelectMenu):
        return await member.select(board, [button.options[0].value], custom_id=button.custom_id)
    return await member.click(board, custom_id=button.custom_id)


async def resend(member: Any, message: discord.Message, component: Any) -> Any:
    """The same click sent again as a client sends it, also once the message no longer shows the control (a
    late double tap: Discord had not yet redrawn the message when it was tapped)."""
    data: dict[str, Any] = {"custom_id": component.custom_id, "component_type": component.type.value}
    if isinstance(component, discord.SelectMenu):
        data["values"] = [component.options[0].value]
    return await _component_interaction(member, _visible_message(member, message), data)


def start_button(card: discord.Message) -> Any:
    return next(c for row in card.components for c in getattr(row, "children", ()) if c.label == "Start")


async def new_game(env: Any, guild: Any, alice: Any, n: int) -> tuple[Any, Any]:
    channel = guild.create_text_channel(f"games-{n}")
    await alice.slash(channel, "game new", game="breaks")
    card = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await alice.click(card, label="Add bot: easy")
    return channel, card


async def races(pairs: int, path: Path, batch: int = 100) -> dict[str, int]:
    """``pairs`` racing pairs, in batches of ``batch`` on a fresh bot and database (simcord keeps every message
    of a run, so one long run slows down as it goes)."""
    counts = {"tried": 0, "answered": 0, "applied twice": 0, "lost": 0}
    done = 0
    while done < pairs:
        n = min(batch, pairs - done)
        part = await _race_batch(n, path.with_suffix(f".{done}.db"), seed=1 + done)
        counts = {k: counts[k] + part[k] for k in counts}
        done += n
    return counts


async def _race_batch(pairs: int, path: Path, seed: int) -> dict[str, int]:
    counts = {"tried": 0, "answered": 0, "applied twice": 0, "lost": 0}
    bot = bot_on(path, itertools.count(seed))
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        thread, n = None, 0
        for i in range(pairs):
            counts["tried"] += 1
            if i % 4 == 3:  # a lobby's Start, twice
                n += 1
                channel, card = await new_game(env, guild, alice, n)
                button = start_button(card)
                start: list[Any] = [lambda card=card: alice.click(card, label="Start"),
                                    lambda card=card, button=button: resend(alice, card, button)]
                results = await held(env, start) if i % 2 else [await click() for click in start]
                table = await db_of(bot).latest_table_in(channel.threads[0].id)
                applied = 1 if table is not None and table.status == "active" else 0
            else:  # a move button, twice
                if thread is None or "Game over" in (boards(thread)[-1].content or ""):
                    n += 1
                    channel, card = await new_game(env, guild, alice, n)
                    await alice.click(card, label="Start")
                    thread = channel.threads[0]
                board = boards(thread)[-1]
                table = await db_of(bot).latest_table_in(thread.id)
                assert table is not None
                before = len(await db_of(bot).moves(table.id))
                control = controls(board)[0]
                tap: list[Any] = [lambda board=board: first_control(alice, board),
                                  lambda board=board, control=control: resend(alice, board, control)]
                # at the same instant, or the second once the first is handled (a late double tap)
                results = await held(env, tap) if i % 2 else [await click() for click in tap]
                after = await db_of(bot).moves(table.id)
                human = [m for m in after[before:] if table.seats[m.seat].user_id is not None]
                applied = len(human)
                for _ in range(4):  # a drawn card is placed privately: finish the turn so a new board is up
                    if boards(thread)[-1].id != board.id:
                        break
                    choices = await alice.autocomplete(thread, "move", "move", "")
                    if not choices:
                        break
                    await alice.slash(thread, "move", move=choices[0]["value"])
            counts["answered"] += all(r.acknowledged for r in results)
            counts["applied twice"] += applied > 1
            counts["lost"] += applied == 0
    await bot.close()
    return counts


async def kills(times: int, path: Path) -> dict[str, int]:
    counts = {"kills": 0, "before the post": 0, "after the post": 0, "boards owed": 0, "posted after restart": 0,
              "lost": 0, "told twice": 0}
    seeds = itertools.count(1000)
    bot = bot_on(path, seeds)
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        channel = guild.create_text_channel("kills")
        await alice.slash(channel, "game new", game="breaks")
        card = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
        await bob.click(card, label="Join")
        await alice.click(card, label="Start")
        thread = channel.threads[0]
        members = {alice.id: alice, bob.id: bob}
        for kill in range(times):
            point = "posted" if kill % 2 else "committed"
            owed: list[Any] = []
            before = len(boards(thread))
            for _ in range(6):  # typed moves until one ends a turn (and so owes a board) while "dying"
                board = boards(thread)[-1]
                if "Game over" in (board.content or ""):
                    break
                player = members[int(board.content.split("<@")[1].split(">")[0])]
                GameCog.stop_at = point  # the process dies at this point of its delivery
                try:
                    choices = await player.autocomplete(thread, "move", "move", "")
                    await player.slash(thread, "move", move=choices[0]["value"])
                finally:
                    GameCog.stop_at = None
                owed = await db_of(env.bot).undelivered()
                if owed:
                    break
            if not owed:
                break
            counts["kills"] += 1
            counts["before the post" if point == "committed" else "after the post"] += 1
            counts["boards owed"] += len(owed)
            old = env.bot
            await db_of(old).close()
            await env.restart_bot(bot_on(path, seeds))
            await env.settle()
            shown = len(boards(thread)) - before  # the owed board, whenever it was posted
            counts["posted after restart"] += len(boards(thread)) - before - (point == "posted")
            counts["lost"] += max(0, len(owed) - shown) + len(await db_of(env.bot).undelivered())
            counts["told twice"] += max(0, shown - len(owed))
    await env.bot.close()
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--kills", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        raced = asyncio.run(races(args.pairs, Path(tmp) / "races.db"))
        killed = asyncio.run(kills(args.kills, Path(tmp) / "kills.db"))
    print("racing pairs: " + ", ".join(f"{k} {v}" for k, v in raced.items()))
    print("kills:        " + ", ".join(f"{k} {v}" for k, v in killed.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
