"""Overload degrades gracefully (issue 28): an interaction Discord has already expired when the bot answers it (the
machine too busy to answer within 3 s) is one counted warning, never a traceback, and nothing is done for it; and
``/move``'s autocomplete, asked at every keystroke, is answered from the choices worked out at the table's version.

Expiry without sleeping: the bot's work is held at a gate (``Env.external_wait``: simcord then counts the task as
waiting for outside input), simcord's clock is moved past Discord's 3 s, and the gate is opened."""

from __future__ import annotations

import logging
from typing import Any

import pytest

import cogs.game
import tables.quick
from cogs.client import Tree
from tables.outcome import Actor
from tables.quick import QuickChoices
from tests.cogs.discord_helpers import Gate, last_board, moves_made, to_act
from tests.cogs.test_game_flow import open_two_player_table


def records(caplog: pytest.LogCaptureFixture, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == level]


async def test_an_autocomplete_answered_too_late_is_a_counted_warning(simcord_env: Any, monkeypatch: Any,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    gate = Gate(simcord_env, "the machine is saturated")
    worked_out = QuickChoices.choices

    async def slow(self: QuickChoices, *args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await worked_out(self, *args, **kwargs)

    monkeypatch.setattr(QuickChoices, "choices", slow)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        offered = await mover.autocomplete(thread, "move", "move", "")
        assert offered == [] and gate.waiting == 1, "the answer is held"
        await simcord_env.advance_time(4.5)  # Discord's 3 s pass
        gate.opened.set()
        await simcord_env.settle()
    assert simcord_env.bot.expired_interactions == 1
    warnings = [r.getMessage() for r in records(caplog, logging.WARNING)]
    assert len(warnings) == 1, warnings
    assert "/move autocomplete expired" in warnings[0] and "4.5 s after it was made" in warnings[0], warnings[0]
    assert records(caplog, logging.ERROR) == [], "no traceback"


async def test_a_command_acknowledged_too_late_does_nothing_and_is_counted(simcord_env: Any, monkeypatch: Any,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    """A /move whose acknowledgement comes after Discord's 3 s is not played: the player saw "This interaction
    failed" and may try again; one warning, counted."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    choices = await mover.autocomplete(thread, "move", "move", "")
    made = await moves_made(simcord_env.bot, thread)
    gate = Gate(simcord_env, "the machine is saturated")
    check = Tree.interaction_check

    async def saturated(self: Tree, interaction: Any) -> bool:  # the loop reaches the interaction late
        await gate.wait()
        return await check(self, interaction)

    monkeypatch.setattr(Tree, "interaction_check", saturated)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await mover.slash(thread, "move", move=choices[0]["value"])
        await simcord_env.advance_time(3.5)
        gate.opened.set()
        await simcord_env.settle()
    assert await moves_made(simcord_env.bot, thread) == made, "nothing was played"
    assert simcord_env.bot.expired_interactions == 1
    warnings = [r.getMessage() for r in records(caplog, logging.WARNING)]
    assert len(warnings) == 1 and "/move expired" in warnings[0] and "3.5 s" in warnings[0], warnings
    assert records(caplog, logging.ERROR) == []


async def test_move_autocomplete_is_worked_out_once_per_position(simcord_env: Any, monkeypatch: Any) -> None:
    """Keystrokes at one position are answered from what was worked out for it; a move changes the table's
    version, and the next keystroke offers the new position's moves."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    service = simcord_env.bot.service
    asked: list[int] = []
    choices = service.choices

    async def counted(channel_id: int, actor: Any, typed: str = "") -> Any:
        asked.append(actor.user_id)
        return await choices(channel_id, actor, typed)

    monkeypatch.setattr(service, "choices", counted)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    full = await mover.autocomplete(thread, "move", "move", "")
    assert full
    first = full[0]["value"]
    assert first == "draw", "Breaks' first offer (its placement follows privately, for the same player)"
    narrowed = await mover.autocomplete(thread, "move", "move", first)
    assert first in [c["value"] for c in narrowed] and len(narrowed) <= len(full)
    assert await mover.autocomplete(thread, "move", "move", "no such move at all") == []
    assert asked == [mover.id], "worked out once for the three keystrokes"
    await mover.slash(thread, "move", move=first)
    assert await moves_made(simcord_env.bot, thread) == 1
    offered = await mover.autocomplete(thread, "move", "move", "")  # where to place the card drawn
    assert asked == [mover.id, mover.id], "the move changed the table's version: worked out again"
    expected = await choices(thread.id, Actor(mover.id, mover.name))  # worked out afresh
    assert offered and [c["value"] for c in offered] == [c.notation for c in expected][:25]


async def test_move_autocomplete_answers_from_what_is_known_while_the_database_is_busy(simcord_env: Any,
                                                                                        monkeypatch: Any) -> None:
    """A keystroke the database cannot serve in time (the machine saturated, other work ahead of it) is answered by
    Discord's deadline from the choices last worked out for the player there, or with none when nothing is known yet;
    the work goes on meanwhile and the next keystroke, once the database has answered, has it."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    bot = simcord_env.bot
    quick = bot.get_cog("GameCog").quick
    read = tables.quick.open_version
    gate: Gate | None = None

    async def busy(*args: Any) -> Any:
        if gate is not None:
            await gate.wait()
        return await read(*args)

    monkeypatch.setattr(tables.quick, "open_version", busy)
    # (the bot's deadline shortened: with work held for outside input, simcord lets its clock follow the real one)
    monkeypatch.setattr(cogs.game, "AUTOCOMPLETE_WITHIN", 0.05)
    gate = Gate(simcord_env, "the database is busy with other work")
    before = simcord_env.now()
    assert await mover.autocomplete(thread, "move", "move", "") == [], "nothing worked out for the player yet"
    waited = (simcord_env.now() - before).total_seconds()
    assert gate.waiting == 1 and quick.hurried == 1 and quick.misses == 0
    assert 0 < waited < 3, f"answered {waited} s after the keystroke (Discord waits 3 s)"
    assert await mover.autocomplete(thread, "move", "move", "dr") == [], "a keystroke while it is worked out"
    assert gate.waiting == 1, "shares the work under way"
    gate.opened.set()
    await simcord_env.settle()
    assert quick.misses == 1, "worked out once the database answered, though nobody waited for it any more"
    known = await mover.autocomplete(thread, "move", "move", "")
    assert known and quick.misses == 1 and quick.hits == 1, "the next keystroke has it"

    gate = Gate(simcord_env, "the database is busy again")
    assert await mover.autocomplete(thread, "move", "move", "") == known, "what was known at this position"
    assert quick.hurried == 3
    gate.opened.set()
    await simcord_env.settle()
    assert bot.expired_interactions == 0


async def test_choices_worked_out_for_nobody_any_more_fail_with_a_warning_and_stop_with_the_bot(
        simcord_env: Any, monkeypatch: Any, caplog: pytest.LogCaptureFixture) -> None:
    """The work a hurried keystroke left under way: a failure nobody waits for any more is one warning (not lost, not
    an unretrieved task), and the bot's close cancels what is still under way."""
    channel, thread, alice, bob = await open_two_player_table(simcord_env)
    mover = {alice.id: alice, bob.id: bob}[to_act(last_board(thread))[0]]
    quick = simcord_env.bot.get_cog("GameCog").quick
    gate = Gate(simcord_env, "the database is busy with other work")

    async def failing(*args: Any) -> Any:
        await gate.wait()
        raise RuntimeError("the database went away")

    monkeypatch.setattr(tables.quick, "open_version", failing)
    monkeypatch.setattr(cogs.game, "AUTOCOMPLETE_WITHIN", 0.05)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        assert await mover.autocomplete(thread, "move", "move", "") == []
        assert quick.hurried == 1
        gate.opened.set()
        await simcord_env.settle()
    warnings = [r.getMessage() for r in records(caplog, logging.WARNING)]
    assert len(warnings) == 1 and "could not be worked out" in warnings[0] and "went away" in warnings[0], warnings
    assert records(caplog, logging.ERROR) == []

    gate = Gate(simcord_env, "the database is busy again")
    assert await mover.autocomplete(thread, "move", "move", "") == []
    assert quick._working, "under way for nobody"
    await quick.close()
    assert not quick._working, "cancelled and awaited"
