"""Forged and malformed component ids, sent as a client could send them (issue 14): every one is answered
privately, changes nothing and is not logged as an unexpected error; a lobby control acts only in its table's
channel. simcord's click finds a component on the message, so these go through its interaction dispatch directly
with the forged id, as a modified client would send it."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction, _visible_message

from tests.cogs.discord_helpers import lobby_of_one

FORGED = [
    "bh:mv:99999999999999999999:24:draw",
    "bh:lobby:join:9999999999999999999",
    "bh:lobby:explode:1",
    "bh:lobby:join:0",
    "bh:step:1:99999999999999999999:0",
    "bh:step:1:1:" + "0." * 200,
    "bh:panel:-1",
    "bh:log:1:0:first",
    "bh:rematch:1e9",
    "bh:rules:../../etc",
    "bh:",
    "bh:mv:1:1:" + "x" * 90,
]


async def forge(member: Any, message: discord.Message, custom_id: str) -> Any:
    return await _component_interaction(member, _visible_message(member, message),
                                        {"custom_id": custom_id, "component_type": discord.ComponentType.button.value})


@pytest.mark.parametrize("custom_id", FORGED)
async def test_a_forged_id_is_answered_privately_and_changes_nothing(simcord_env: Any, custom_id: str,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    channel, alice = await lobby_of_one(simcord_env)
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    table = await simcord_env.bot.db.latest_table_in(channel.threads[0].id) or \
        await simcord_env.bot.db.latest_table_in(channel.id)
    before = table.version if table else None
    with caplog.at_level(logging.INFO):
        res = await forge(alice, lobby, custom_id)
    assert res.acknowledged, "answered, not 'This interaction failed'"
    answer = res.response if res.response is not None else (res.followups[0] if res.followups else None)
    assert answer is not None and answer.ephemeral
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "no unexpected error"
    after = await simcord_env.bot.db.latest_table_in(channel.threads[0].id) or \
        await simcord_env.bot.db.latest_table_in(channel.id)
    assert (after.version if after else None) == before


async def test_a_lobby_control_acts_only_in_its_tables_channel(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    games, other = guild.create_text_channel("games"), guild.create_text_channel("other")
    alice = guild.add_member(simcord_env.create_user("alice"))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mallory = guild.add_member(simcord_env.create_user("mallory"), roles=[mods])
    await alice.slash(games, "game new", game="breaks")
    await mallory.slash(other, "game new", game="breaks")
    hers = [m for m in other.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    table = await simcord_env.bot.db.latest_table_in(games.threads[0].id) or \
        await simcord_env.bot.db.latest_table_in(games.id)
    assert table is not None
    res = await forge(mallory, hers, f"bh:lobby:cancel:{table.id}")  # alice's table, from mallory's card
    texts = [f.content for f in res.followups if f.ephemeral]
    assert res.acknowledged and any("another channel" in t for t in texts), texts
    after = await simcord_env.bot.db.get_table(table.id)
    assert after is not None and after.status == table.status and after.version == table.version


async def test_the_service_refuses_a_lobby_control_from_another_channel(db_path: Any) -> None:
    from storage import Database
    from tables import Actor, Refusal, TableService
    from tables.catalog import default_catalog

    db = await Database.open(db_path)
    try:
        svc = TableService(db, default_catalog(), clock=lambda: 1.0, seeds=lambda: 1, render=False)
        out = await svc.open_lobby(guild_id=7, channel_id=100, host=Actor(1, "alice"), game_key="breaks",
                                   options_text=None)
        assert out.table_id is not None
        await svc.check_control_channel(out.table_id, 100)
        with pytest.raises(Refusal, match="another channel"):
            await svc.check_control_channel(out.table_id, 200)
    finally:
        await db.close()


async def test_a_late_second_click_on_a_control_already_taken_off_is_answered(simcord_env: Any) -> None:
    """Start clicked just after the game started (the lobby card has lost its buttons): the click still gets a
    private answer saying what happened, not Discord's 'This interaction failed'."""
    channel, alice = await lobby_of_one(simcord_env)
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    start = next(c.custom_id for row in lobby.components for c in row.children if c.label == "Start")
    join = next(c.custom_id for row in lobby.components for c in row.children if c.label == "Join")
    await alice.click(lobby, label="Add bot: easy")
    await alice.click(lobby, label="Start")
    card = [m for m in channel.history() if m.id == lobby.id][-1]
    assert not any(getattr(row, "children", None) for row in card.components), "the card's buttons are gone"
    for custom_id in (start, join):
        res = await forge(alice, card, custom_id)
        texts = [f.content for f in res.followups if f.ephemeral]
        assert res.acknowledged and texts and any("started" in t or "already" in t for t in texts), texts


async def test_random_ids_and_notation_are_all_answered_and_change_nothing(simcord_env: Any,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    """A fuzz over the bot's own id templates (huge, negative, malformed numbers, unknown words, long paths) and
    over typed notation: every one answered privately, nothing stored, nothing logged as an unexpected error."""
    import random

    from tests.cogs.test_game_flow import open_two_player_table

    rng = random.Random(14)
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    board = [m for m in thread.history() if m.embeds and m.attachments][-1]
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert table is not None
    numbers = ["0", "-1", "1", str(table.id), str(table.version), "9" * 20, "1e9", "", "०१", "18446744073709551616"]
    words = ["join", "start", "explode", "", "../", "draw", "x" * 120, "0.0.0.0", "ℕ"]
    templates = ["bh:mv:{n}:{n}:{w}", "bh:lobby:{w}:{n}", "bh:step:{n}:{n}:{w}", "bh:back:{n}:{n}:{n}",
                 "bh:panel:{n}", "bh:rematch:{n}", "bh:log:{n}:{n}:{w}", "bh:rules:{w}", "bh:{w}"]
    with caplog.at_level(logging.INFO):
        for _ in range(72):  # eight for each template, on average
            custom_id = rng.choice(templates).replace("{n}", rng.choice(numbers), 1).replace(
                "{n}", rng.choice(numbers), 1).replace("{w}", rng.choice(words), 1).replace("{n}", "1")
            res = await forge(rng.choice([alice, bob]), board, custom_id[:100])
            assert res.acknowledged, custom_id
        for _ in range(36):
            text = "".join(rng.choice("drawplace 123onto P2merge\\`*_~ÿ中🎲") for _ in range(rng.randrange(0, 30)))
            res = await rng.choice([alice, bob]).slash(thread, "move", move=text or " ")
            assert res.ephemeral, text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records
                                                                          if r.levelno >= logging.ERROR][:3]
    after = await simcord_env.bot.db.latest_table_in(thread.id)
    assert after is not None and after.version == table.version and after.state == table.state
