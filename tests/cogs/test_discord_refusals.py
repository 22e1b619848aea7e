"""Discord refusing a call (issue 14): 429 (after discord.py's own retries), 500, 403/50013, 404/10008, 404/10015,
403/50007 and 400/160006, on each call the bot makes while a move is played, a lobby started or a table opened.

Each case fails exactly one call: the n-th REST call the bot makes after the click, for every n the action makes.
Whatever the call and the error, the player's click is answered (unless the refused call was that very answer),
the move is applied once or not at all (never half), nothing is logged as an unexpected error, the mover is told
the truth, and whatever the move owed the channel is posted once Discord takes posts again (the clock's tick
retries a refused board a minute later)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest
from simcord.http import router

from tests.cogs.discord_helpers import board_messages, last_board, moves_made, to_act
from tests.cogs.test_clock_flow import Clock, tick
from tests.cogs.test_races import button_id, lobby_card
from tests.support import make_bot

# (HTTP status, Discord's JSON error code, its message): what discord.py raises after its retries, if any
ERRORS = {
    "429 rate limited": (429, 0, "You are being rate limited."),
    "500 server error": (500, 0, "Internal Server Error"),
    "50013 missing permissions": (403, 50013, "Missing Permissions"),
    "10008 unknown message": (404, 10008, "Unknown Message"),
    "10015 unknown webhook": (404, 10015, "Unknown Webhook"),
    "50007 DMs closed": (403, 50007, "Cannot send messages to this user"),
    "160006 thread cap": (400, 160006, "Maximum number of active threads reached"),
}


class OneRefusal:
    """Fails the n-th REST call made after :meth:`arm` with the given error (``nth=0``: none, just count);
    :meth:`calls` lists the calls made since arming, also after :meth:`disarm`."""

    def __init__(self, backend: Any, error: tuple[int, int, str]) -> None:
        self.backend, self.error = backend, error
        self.armed_at = 0
        self.nth: int | None = None
        self.refused: str | None = None

    def arm(self, nth: int) -> None:
        self.armed_at, self.nth, self.refused = len(self.backend.http_requests), nth, None

    def disarm(self) -> None:
        self.nth = None

    def calls(self) -> list[str]:
        return [f"{e.method} {e.path}" for e in self.backend.http_requests[self.armed_at:]]

    def check(self, backend: Any, method: str, path: str) -> None:
        if self.nth is None or backend is not self.backend:
            return
        if len(self.backend.http_requests) - self.armed_at == self.nth:
            self.refused = f"{method} {path}"
            status, code, message = self.error
            raise router.BackendError(status, code, message)


@contextmanager
def refusing(env: Any, error: tuple[int, int, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[OneRefusal]:
    refusal = OneRefusal(env.backend, error)
    real = router._check_faults

    def check(backend: Any, method: str, path: str) -> None:
        refusal.check(backend, method, path)
        real(backend, method, path)

    monkeypatch.setattr(router, "_check_faults", check)
    yield refusal
    monkeypatch.setattr(router, "_check_faults", real)


async def attempt(refusal: OneRefusal, nth: int, caplog: pytest.LogCaptureFixture,
                  action: Callable[[], Awaitable[Any]]) -> Any:
    """``action`` with its ``nth`` REST call refused (0: none, the calls are only counted), logs captured."""
    caplog.clear()
    with caplog.at_level(logging.INFO):
        refusal.arm(nth)
        try:
            return await action()
        finally:
            refusal.disarm()


def said(res: Any) -> list[str]:
    return [t for t in ([res.response.content if res.response else None] + [f.content for f in res.followups]) if t]


def unexpected(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def heal(env: Any, clock: Clock) -> None:
    """Discord takes posts again; a minute later the clock's tick posts what is owed."""
    clock.now += 61
    await tick(env)


async def open_game(env: Any) -> tuple[Any, dict[int, Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob = guild.add_member(env.create_user("alice")), guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "game new", game="breaks")
    card = lobby_card(channel)
    await bob.click(card, label="Join")
    await alice.click(card, label="Start")
    thread = channel.threads[0]
    for member in (alice, bob):  # turns announced by DM too, so that a move makes DM calls
        await member.slash(thread, "notify", mode="both")
    return thread, {alice.id: alice, bob.id: bob}


async def draw_if_offered(thread: Any, members: dict[int, Any]) -> Any:
    """Breaks: the player to act draws first (the turn goes on privately); returns the player."""
    board = last_board(thread)
    player = members[to_act(board)[0]]
    choices = await player.autocomplete(thread, "move", "move", "")
    if any(c["value"].startswith("draw") for c in choices):
        await player.slash(thread, "move", move="draw")
    return player


async def end_turn(thread: Any, player: Any, refusal: OneRefusal | None = None, nth: int = 0) -> Any:
    """The first move /move's autocomplete offers, typed; with ``refusal``, its ``nth`` call after the
    autocomplete is refused."""
    choices = await player.autocomplete(thread, "move", "move", "")
    assert choices
    if refusal is not None:
        refusal.arm(nth)
    try:
        return await player.slash(thread, "move", move=choices[0]["value"])
    finally:
        if refusal is not None:
            refusal.disarm()


@pytest.mark.parametrize("error", ERRORS, ids=list(ERRORS))
async def test_any_call_of_a_move_refused(simcord_env: Any, db_path: Any, error: str,
                                          monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    thread, members = await open_game(simcord_env)
    with refusing(simcord_env, ERRORS[error], monkeypatch) as refusal:
        player = await draw_if_offered(thread, members)
        await end_turn(thread, player, refusal, 0)  # nothing refused: count the calls a turn-ending move makes
        calls = refusal.calls()
        assert len(calls) >= 5, calls  # answer, board, old board's controls, DM channel, DM, follow-up
        for nth in range(1, len(calls) + 1):
            if "Game over" in (last_board(thread).content or ""):
                break
            player = await draw_if_offered(thread, members)
            made, boards = await moves_made(simcord_env.bot, thread), len(board_messages(thread))
            caplog.clear()
            with caplog.at_level(logging.INFO):
                res = await end_turn(thread, player, refusal, nth)
            refused = refusal.refused or ""
            case = f"{error} on call {nth} ({refused}): {said(res)}"
            assert not unexpected(caplog), (case, unexpected(caplog))
            applied = await moves_made(simcord_env.bot, thread) - made
            if "/callback" in refused:  # Discord refused the answer itself: nothing was done
                assert applied == 0, case
                await end_turn(thread, player)  # the player tries again
                continue
            assert res.acknowledged and said(res), case
            assert applied == 1, case
            owed = await simcord_env.bot.db.undelivered()
            if refused.endswith(f"/channels/{thread.id}/messages") and refused.startswith("POST"):
                assert owed and len(board_messages(thread)) == boards, case
                assert any("refused" in t and "saved" in t for t in said(res)), case
                await heal(simcord_env, clock)
            assert await simcord_env.bot.db.undelivered() == [], case
            assert len(board_messages(thread)) == boards + 1, case
            after = last_board(thread)
            assert to_act(after) and to_act(after)[0] != player.id, case  # the board now pings the next player


async def test_a_refused_board_is_retried_by_the_clock_not_posted_twice(simcord_env: Any, db_path: Any) -> None:
    """A board owed for less than a minute may be being posted right now: the tick leaves it; after that it
    posts it, once."""
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    thread, members = await open_game(simcord_env)
    simcord_env.inject_error("POST", f"/channels/{thread.id}/messages", status=500, times=None)
    player = await draw_if_offered(thread, members)
    boards = len(board_messages(thread))
    await end_turn(thread, player)
    simcord_env.backend.faults.clear()
    assert await simcord_env.bot.db.undelivered()
    clock.now += 30
    await tick(simcord_env)
    assert len(board_messages(thread)) == boards, "not yet: it could be in flight"
    clock.now += 31
    await tick(simcord_env)
    await tick(simcord_env)
    assert len(board_messages(thread)) == boards + 1
    assert await simcord_env.bot.db.undelivered() == []


@pytest.mark.parametrize("error", ERRORS, ids=list(ERRORS))
async def test_any_call_of_a_lobby_start_refused(simcord_env: Any, db_path: Any, error: str,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """Start: the table is started once or not at all; a started table's first board is posted once Discord
    takes posts again; the lobby card never offers Start on a started table for long (it is re-sent with the
    board)."""
    clock = Clock()
    await simcord_env.restart_bot(make_bot(db_path, clock=clock))
    guild = simcord_env.create_guild()
    alice, bob = guild.add_member(simcord_env.create_user("alice")), guild.add_member(simcord_env.create_user("bob"))
    with refusing(simcord_env, ERRORS[error], monkeypatch) as refusal:
        nth, calls = 0, 1
        while nth < calls:
            channel = guild.create_text_channel(f"games-{nth}")
            await alice.slash(channel, "game new", game="breaks")
            card = lobby_card(channel)
            await bob.click(card, label="Join")
            card = lobby_card(channel)
            res = await attempt(refusal, nth, caplog, partial(alice.click, card, custom_id=button_id(card, "Start")))
            if nth == 0:
                calls = len(refusal.calls())
                assert calls >= 3, refusal.calls()
            refused = refusal.refused or ""
            case = f"{error} on call {nth} ({refused})"
            nth += 1
            assert not unexpected(caplog), (case, unexpected(caplog))
            thread = channel.threads[0]
            table = await simcord_env.bot.db.latest_table_in(thread.id)
            if "/callback" in refused:
                assert table.status == "lobby", case
                continue
            assert res.acknowledged, case
            assert table.status == "active", case
            await heal(simcord_env, clock)
            assert await simcord_env.bot.db.undelivered() == [], case
            assert board_messages(thread) and to_act(last_board(thread)), case


@pytest.mark.parametrize("error", ERRORS, ids=list(ERRORS))
async def test_any_call_of_game_new_refused(simcord_env: Any, error: str, monkeypatch: pytest.MonkeyPatch,
                                            caplog: pytest.LogCaptureFixture) -> None:
    """/game new: either a usable lobby (in a thread, or in the channel when no thread could be made) or none at
    all, and the person is told which."""
    guild = simcord_env.create_guild()
    alice = guild.add_member(simcord_env.create_user("alice"))
    with refusing(simcord_env, ERRORS[error], monkeypatch) as refusal:
        nth, calls = 0, 1
        while nth < calls:
            channel = guild.create_text_channel(f"games-{nth}")
            res = await attempt(refusal, nth, caplog, partial(alice.slash, channel, "game new", game="breaks"))
            if nth == 0:
                calls = len(refusal.calls())
                assert calls >= 3, refusal.calls()
            refused = refusal.refused or ""
            case = f"{error} on call {nth} ({refused}): {said(res)}"
            nth += 1
            assert not unexpected(caplog), (case, unexpected(caplog))
            where = [channel.id] + [t.id for t in channel.threads]
            tables = [t for t in [await simcord_env.bot.db.open_table_in(c) for c in where] if t is not None]
            if "/callback" in refused:
                assert tables == [], case
                continue
            assert res.acknowledged, case
            if not tables:
                assert any("nothing was opened" in t for t in said(res)), case
                continue
            assert len(tables) == 1, case
            card = lobby_card(channel)  # the lobby's card is there, with working buttons
            assert f"table #{tables[0].id}" in (card.embeds[0].title or ""), case
            assert button_id(card, "Start"), case
