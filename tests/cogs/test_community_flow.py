"""Community play through Discord, as members use it: games played with the lobby's buttons and /resign, then the
last board's ratings, /profile, /history and its page buttons, /replay table:, /leaderboard, /ratings and /mygames
across servers (simcord, the real bot, a real SQLite file)."""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from PIL import Image

from tests.cogs.discord_helpers import components, last_board
from tests.cogs.test_game_flow import lobby_message


def shown(res: Any) -> discord.Message:
    """The private answer a command got (its first message)."""
    return res.response.message if hasattr(res.response, "message") else res.response


def texts(res: Any) -> str:
    messages = [shown(res)] + [f.message if hasattr(f, "message") else f for f in res.followups]
    out = []
    for m in messages:
        if m is None:
            continue
        out.append(m.content or "")
        for e in m.embeds:
            out += [e.title or "", e.description or "", e.footer.text or ""] + [f"{f.name}: {f.value}"
                                                                              for f in e.fields]
    return "\n".join(out)


async def picture(message: discord.Message, name: str) -> Image.Image:
    (file,) = [a for a in message.attachments if a.filename == name]
    return Image.open(io.BytesIO(await file.read()))


async def a_game(channel: Any, host: Any, *others: Any) -> Any:
    """A game of Breaks opened by ``host`` with the lobby's buttons; the others join, then resign in turn, so the
    host wins. Returns its thread."""
    before = set(t.id for t in channel.threads)
    await host.slash(channel, "game new", game="breaks")
    lobby = lobby_message(channel)
    for member in others:
        await member.click(lobby, label="Join")
    await host.click(lobby_message(channel), label="Start")
    (thread,) = [t for t in channel.threads if t.id not in before]
    for member in others:
        await member.slash(thread, "resign")
    assert "Game over" in (last_board(thread).content or "")
    return thread


def world(env: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann, ben, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cy"))
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    return guild, channel, ann, ben, cy, admin


async def test_a_servers_games_become_ratings_profiles_history_and_a_leaderboard(simcord_env: Any) -> None:
    _, channel, ann, ben, cy, admin = world(simcord_env)
    thread = await a_game(channel, ann, ben)
    board = last_board(thread).embeds[0]
    ratings = next(f.value or "" for f in board.fields if f.name == "Ratings")
    assert re.search(r"ann \*\*1,\d{3}\*\* \(\+\d+\) · ben \*\*\d{3}\*\* \(−\d+\)", ratings), ratings
    for i in range(8):
        await a_game(channel, ann, *((ben, cy) if i % 2 else (cy,)))

    res = await ann.slash(channel, "profile")
    assert res.ephemeral
    text = texts(res)
    assert "**Breaks** · rating **" in text and "9 games · 9 wins (100%) · 1st ×9 · best streak 9" in text
    image = await picture(shown(res), "profile.png")
    assert image.width == 800 and image.height > 300

    res = await ann.slash(channel, "profile", member=cy)
    assert "8 games · 0 wins (0%)" in texts(res)

    res = await ann.slash(channel, "history")
    message = shown(res)
    assert res.ephemeral and "Page 1 of 2 · 9 games" in message.embeds[0].footer.text
    first = message.embeds[0].description or ""
    assert first.count("/replay table:") == 8 and "/replay table:9`" in first.split("\n")[1]
    older = next(c for c in components(message) if getattr(c, "label", "") == "Older")
    res = await ann.click(message, custom_id=older.custom_id)
    message = shown(res) if hasattr(res.response, "message") else message
    assert "Page 2 of 2" in message.embeds[0].footer.text
    assert "/replay table:1`" in (message.embeds[0].description or "")

    res = await ben.slash(channel, "replay", table=1)
    assert res.ephemeral and "Replay · Breaks · table #1" in texts(res)

    res = await cy.slash(channel, "leaderboard", game="breaks")
    text = texts(res)
    assert "`  1.` **ann**" in text and "`  2.` **cy**" in text and "← you" in text, text
    assert (await picture(shown(res), "leaderboard.png")).width == 800
    res = await cy.slash(channel, "leaderboard", game="breaks", period="week")
    assert "`  3.` **ben**" in texts(res)  # every game was this week
    res = await ann.slash(channel, "leaderboard", game="chess")
    assert "There is no game called `chess`" in texts(res)

    res = await ann.slash(channel, "ratings rebuild")
    assert "Only members with Manage Server" in texts(res)
    res = await admin.slash(channel, "ratings rebuild")
    assert "Ratings rebuilt from 9 rated games: 3 players rated." in texts(res)
    res = await admin.slash(channel, "ratings settings", bots=True)
    assert "Games against bots **are rated**" in texts(res)
    res = await ann.slash(channel, "ratings help")
    assert "How ratings work here" in texts(res)


async def test_mygames_lists_every_server(simcord_env: Any) -> None:
    guild_a = simcord_env.create_guild()
    guild_b = simcord_env.create_guild()
    ann_user, ben_user = simcord_env.create_user("ann"), simcord_env.create_user("ben")
    here, there = guild_a.create_text_channel("games"), guild_b.create_text_channel("games")
    ann_a, ann_b = guild_a.add_member(ann_user), guild_b.add_member(ann_user)
    ben_a, ben_b = guild_a.add_member(ben_user), guild_b.add_member(ben_user)
    for host, other, channel in ((ann_a, ben_a, here), (ben_b, ann_b, there)):
        await host.slash(channel, "game new", game="breaks")
        await other.click(lobby_message(channel), label="Join")
        await host.click(lobby_message(channel), label="Start")
    res = await ann_a.slash(here, "mygames")
    text = texts(res)
    assert text.count("**Breaks**") == 2 and "(another server)" in text
    assert f"https://discord.com/channels/{guild_b.id}/" in text
