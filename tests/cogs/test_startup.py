"""Start-up and shutdown (issue 28): the catch-up after a start (boards owed, bots whose move was cut short) runs in
the background a page of tables at a time while requests are answered; a stop during it, or during a request, is
clean (nothing logged at ERROR, the database closed last), and the next start posts what was owed.

Work is held at a gate (``Env.external_wait``: simcord counts the task as waiting for outside input) to stop at a
chosen point, never by waiting for time to pass."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ext import tasks

import tables.quick
from bench.load import command_data
from cogs.client import Blockhouse
from cogs.game import RESTARTING, GameCog
from cogs.tournaments import TournamentCog
from storage import Database
from storage.catchup import bot_tables
from tables import TableService
from tables.catalog import default_catalog
from tables.outcome import Actor
from tests.cogs.discord_helpers import Gate, board_messages, last_board, moves_made, to_act
from tests.cogs.test_game_flow import open_two_player_table
from tests.support import make_bot


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]


def cog_of(bot: Blockhouse) -> GameCog:
    cog = bot.get_cog("GameCog")
    assert isinstance(cog, GameCog)
    return cog


async def a_bot_to_move_after_a_crash(env: Any, db_path: Path) -> tuple[Any, Any, dict[int, Any]]:
    """A two-player game whose player to act became a bot seat while the process was down (as when it stopped while
    a bot thought: the bot is to move at the next start). Returns the thread, the person left and the members."""
    channel, thread, alice, bob = await open_two_player_table(env)
    members = {alice.id: alice, bob.id: bob}
    seat_user = to_act(last_board(thread))[0]
    await env.bot.db.close()  # the process is gone
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE seats SET user_id = NULL, bot = 'easy', name = 'Bot' WHERE user_id = ?", (seat_user,))
    person = alice if seat_user == bob.id else bob
    return thread, person, members


async def test_requests_are_answered_while_the_catch_up_runs(simcord_env: Any, db_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    thread, person, _ = await a_bot_to_move_after_a_crash(simcord_env, db_path)
    boards = len(board_messages(thread))
    gate = Gate(simcord_env)
    page = tables.quick.bot_tables

    async def held(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await page(*args, **kwargs)

    monkeypatch.setattr(tables.quick, "bot_tables", held)
    bot = make_bot(db_path)
    await simcord_env.restart_bot(bot)  # on_ready has run: the catch-up waits at its first page
    assert gate.waiting == 1 and cog_of(bot).catching_up is not None and not cog_of(bot).catching_up.done()
    res = await person.slash(thread, "status")
    assert res.ephemeral and "Breaks" in res.response.content, "answered during the catch-up"
    assert len(board_messages(thread)) == boards, "the bot has not moved yet"
    gate.opened.set()
    await simcord_env.settle()
    assert cog_of(bot).catching_up.done()
    assert len(board_messages(thread)) == boards + 1, "the bot's move is posted once"
    assert to_act(last_board(thread)) == [person.id]


async def test_the_catch_up_reads_running_tables_with_a_bot_page_by_page(db_path: Path) -> None:
    db = await Database.open(db_path)
    try:
        service = TableService(db, default_catalog(), render=False, seeds=iter(range(1, 100)).__next__)
        with_bots = []
        for n in range(7):
            host = Actor(100 + n, f"p{n}")
            out = await service.open_lobby(guild_id=1, channel_id=500 + n, host=host, game_key="breaks")
            assert out.table_id is not None
            if n % 2 == 0:
                await service.add_bot(out.table_id, host, "easy")
            else:
                await service.join(out.table_id, Actor(200 + n, f"q{n}"))
            await service.start(out.table_id, host)
            if n == 4:
                await service.resign(500 + n, host)  # over: not running any more
            elif n % 2 == 0:
                with_bots.append(out.table_id)
        seen: list[int] = []
        after, pages = 0, 0
        while True:
            last, found = await bot_tables(db, after, page=2)
            if last is None:
                break
            assert last > after
            after, pages = last, pages + 1
            seen += [t.table_id for t in found]
            assert all(t.auto == frozenset({1}) and t.game == "breaks" and t.state for t in found)
        assert seen == with_bots
        assert pages == 3, "six running tables, two a page"
    finally:
        await db.close()


async def test_a_stop_during_the_catch_up_is_clean_and_the_next_start_posts_the_move(
        simcord_env: Any, db_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    thread, person, _ = await a_bot_to_move_after_a_crash(simcord_env, db_path)
    boards = len(board_messages(thread))
    gate = Gate(simcord_env)
    resume = tables.quick._resume

    async def held(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()  # found the table, not yet played its bot
        return await resume(*args, **kwargs)

    monkeypatch.setattr(tables.quick, "_resume", held)
    bot = make_bot(db_path)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await simcord_env.restart_bot(bot)
        assert gate.waiting == 1
        task = cog_of(bot).catching_up
        tournaments = bot.get_cog("TournamentCog")
        assert isinstance(tournaments, TournamentCog)
        loops: list[tasks.Loop[Any]] = [cog_of(bot).turn_clock, tournaments.tick]
        assert all(loop.is_running() for loop in loops)
        await bot.close()
        assert task is not None and task.cancelled(), "cancelled and awaited"
        assert not any(loop.is_running() for loop in loops), "the turn clock and the tournaments' tick stopped"
        assert bot.db is None, "the database closed after it"
    assert errors(caplog) == []
    assert len(board_messages(thread)) == boards
    monkeypatch.undo()
    await simcord_env.restart_bot(make_bot(db_path))
    await simcord_env.settle()
    assert len(board_messages(thread)) == boards + 1, "the next start plays and posts the bot's move, once"
    assert to_act(last_board(thread)) == [person.id]


async def a_move_held_in_the_service(env: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, Gate, int]:
    """A /move whose request is under way (deferred, in the table service) and held there."""
    channel, thread, alice, bob = await open_two_player_table(env)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    choices = await mover.autocomplete(thread, "move", "move", "")
    gate = Gate(env)
    service = env.bot.service
    submit = service.submit

    async def held(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await submit(*args, **kwargs)

    monkeypatch.setattr(service, "submit", held)
    await mover.slash(thread, "move", move=choices[0]["value"])
    assert gate.waiting == 1
    return thread, mover, gate, choices[0]["value"]


async def test_a_stop_during_a_request_lets_it_finish(simcord_env: Any, db_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    thread, mover, gate, _ = await a_move_held_in_the_service(simcord_env, monkeypatch)
    bot = simcord_env.bot
    caplog.clear()
    with caplog.at_level(logging.INFO):
        closing = asyncio.ensure_future(bot.close())
        for _ in range(5):
            await asyncio.sleep(0)
        assert bot.closing and not closing.done(), "the close waits for the request"
        gate.opened.set()
        await closing
    assert errors(caplog) == []
    assert bot.db is None
    assert await moves_made_in(db_path) == 1, "the request finished: its move is stored"


async def test_a_stop_waits_for_a_request_whose_acknowledgement_is_under_way(
        simcord_env: Any, db_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A click taken just before the close began, its acknowledgement still on its way to Discord, is one of the
    requests the close lets finish (it was counted only once acknowledged: the close went on without it and closed
    Discord's connection and the database under it; seen at 200 tables stopped under load)."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    choices = await mover.autocomplete(thread, "move", "move", "")
    gate = Gate(simcord_env, "the acknowledgement is on its way")
    defer = discord.InteractionResponse.defer

    async def slow(self: Any, *args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await defer(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "defer", slow)
    await mover.slash(thread, "move", move=choices[0]["value"])
    assert gate.waiting == 1
    bot = simcord_env.bot
    caplog.clear()
    with caplog.at_level(logging.INFO):
        closing = asyncio.ensure_future(bot.close())
        for _ in range(100):
            await asyncio.sleep(0)
        assert bot.closing and not closing.done(), "the close waits for the request"
        assert not bot.is_closed(), "Discord's connection stays open for it"
        gate.opened.set()
        await closing
    assert errors(caplog) == []
    assert await moves_made_in(db_path) == 1, "the request finished: its move is stored"


async def test_a_stop_cancels_a_request_that_does_not_finish_in_time_and_loses_nothing(
        simcord_env: Any, db_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    thread, mover, gate, move = await a_move_held_in_the_service(simcord_env, monkeypatch)
    bot = simcord_env.bot
    bot.request_grace = 0.0  # no time to finish: cancelled where it waits
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await bot.close()
    assert errors(caplog) == []
    assert await moves_made_in(db_path) == 0, "nothing half-done"
    monkeypatch.undo()
    await simcord_env.restart_bot(make_bot(db_path))
    await simcord_env.settle()
    res = await mover.slash(thread, "move", move=move)  # the player tries again
    assert "Played" in res.response.content
    assert await moves_made(simcord_env.bot, thread) == 1


async def test_an_interaction_while_closing_is_refused_before_any_work(simcord_env: Any) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    choices = await mover.autocomplete(thread, "move", "move", "")
    simcord_env.bot.closing = True
    res = await mover.slash(thread, "move", move=choices[0]["value"])
    assert res.ephemeral and res.response.content == RESTARTING
    assert await moves_made(simcord_env.bot, thread) == 0
    simcord_env.bot.closing = False


async def moves_made_in(db_path: Path) -> int:
    with sqlite3.connect(db_path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM moves").fetchone()[0])


def _emit(env: Any, member: Any, channel_id: int, kind: int, data: dict[str, Any], source: Any = None) -> int:
    """One interaction sent the way simcord's verbs send it, without waiting for the bot to settle (as Discord sends
    it: whenever the member acts, here the moment ``on_ready`` runs). Returns its id."""
    from simcord import interactions as sc_interactions
    from simcord.backend import serializers as sc_serializers
    record, payload = sc_interactions.base_payload(env.backend, type=kind, channel_id=channel_id,
                                                   guild_id=member.guild.id, user_id=member.id, data=data)
    if source is not None:
        payload["message"] = dict(sc_serializers.message_payload(env.backend, source))
        record.source_message_id = source.id
    env.backend.emit("INTERACTION_CREATE", payload)
    return int(record.id)


def _answered(env: Any, interaction_id: int) -> bool:
    """Whether the bot has given the member its answer: the choices of an autocomplete, or what a deferred
    ("thinking…") answer became (its message edited with text, an embed or a file, or a followup)."""
    record = env.backend.interactions[interaction_id]
    if record.autocomplete_choices is not None or record.followup_ids:
        return True
    message = env.backend.get_message(record.channel_id, record.message_id) if record.message_id else None
    return message is not None and bool(message.content or message.embeds or message.attachments)


async def test_a_click_a_command_and_an_autocomplete_at_on_ready_do_not_wait_for_the_catch_up(
        simcord_env: Any, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28's start-up: a "My view" click, a /status and a /move autocomplete sent the moment on_ready runs are
    answered while the catch-up is half-way (its first page of running tables read and resumed, the next held), so
    none of them waits for the catch-up to end."""
    env = simcord_env
    thread, person, _ = await a_bot_to_move_after_a_crash(env, db_path)
    board = last_board(thread)
    panel = next(c.custom_id for row in board.components for c in row.children
                 if str(getattr(c, "custom_id", "")).startswith("bh:panel:"))
    stored_board = env.backend.get_message(thread.id, board.id)
    gate = Gate(env)
    page = tables.quick.bot_tables
    pages: list[int] = []

    async def one_at_a_time(db: Any, after: int, size: int = 100) -> Any:
        pages.append(after)
        if len(pages) == 2:
            await gate.wait()  # the first page (the one running table) resumed; the catch-up held before the next
        return await page(db, after, 1)

    monkeypatch.setattr(tables.quick, "bot_tables", one_at_a_time)
    bot = make_bot(db_path)
    sent: dict[str, int] = {}

    async def at_ready() -> None:
        sent["click"] = _emit(env, person, thread.id, 3, {"custom_id": panel, "component_type": 2},
                              source=stored_board)
        sent["status"] = _emit(env, person, thread.id, 2, command_data(person, thread.id, "status", {}))
        sent["autocomplete"] = _emit(env, person, thread.id, 4,
                                     command_data(person, thread.id, "move", {"move": ""}, focused="move"))

    bot.add_listener(at_ready, "on_ready")
    await env.restart_bot(bot)  # settled: all that could go on has; the catch-up waits at its second page
    catching_up = cog_of(bot).catching_up
    assert gate.waiting == 1 and catching_up is not None and not catching_up.done()
    assert set(sent) == {"click", "status", "autocomplete"}
    assert {what for what, n in sent.items() if not _answered(env, n)} == set(), "answered during the catch-up"
    boards = len(board_messages(thread))
    gate.opened.set()
    await env.settle()
    assert catching_up.done() and len(pages) == 2, "then the catch-up goes on to its end"
    assert len(board_messages(thread)) == boards and to_act(last_board(thread)) == [person.id], \
        "the bot's move, resumed on the first page, posted once"
