"""Quick answers and background work that must not keep requests waiting.

- :class:`QuickChoices`: ``/move``'s autocomplete, which Discord asks at every keystroke and wants answered within
  3 s (an autocomplete cannot be deferred), answered from the choices last worked out for that player at that table,
  as long as the table's version is unchanged: one read of one index row instead of the table, its seats, its state
  loaded and its menu built each keystroke. When the database is too busy to say in time, the answer is what is
  already known, and the work goes on for the next keystroke.
- :func:`resume_bots`: at start-up, the bots whose move was cut short (the process stopped while they thought), found
  a page of running tables at a time (:mod:`storage.catchup`), each table resumed under its own lock, yielding to
  requests between pages; what each resumed table owes is handed back as soon as it is played.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable

from storage import ACTIVE, StaleVersion
from storage.catchup import PAGE, BotTable, bot_tables, open_version
from tables.outcome import Actor, Choice, Outcome, StaleButton
from tables.play import Run
from tables.recent import Recent
from tables.service import TableService

log = logging.getLogger(__name__)

KEPT = 512  # players' choices kept (the most recently asked); a busy evening has a few hundred playing at once


class QuickChoices:
    """``/move``'s autocomplete from the choices last worked out for the player, while the table's version is the one
    they were worked out at (every change of a table bumps its version: a move, a resignation, a seat given away).
    What the player typed filters them as :meth:`tables.presenter.Presenter.choices` does.

    Asked with ``within`` (the seconds left before the answer is due), it waits no longer for the database: the
    answer is then the player's choices last worked out there, if any, else none (a suggestion only: the move is
    checked when it is played), while the version read and the choices go on being worked out and are kept for the
    next keystroke. Keystrokes of one player at one table share that work while it is under way."""

    def __init__(self, service: TableService, kept: int = KEPT) -> None:
        self.service = service
        # (channel, user) -> (table, version, every choice offered to the player then)
        self._known: Recent[tuple[int, int], tuple[int, int, list[Choice]]] = Recent(kept)
        self._working: dict[tuple[int, int], asyncio.Future[list[Choice]]] = {}
        self._waiting: dict[asyncio.Future[list[Choice]], int] = {}  # keystrokes waiting for each work under way
        self.hits = 0
        self.misses = 0
        self.hurried = 0
        """Answers given from what was known because the database did not answer within the time left."""

    async def choices(self, channel_id: int, actor: Actor, typed: str = "", *,
                      within: float | None = None) -> list[Choice]:
        key = (channel_id, actor.user_id)
        work = self._working.get(key)
        if work is None:
            work = self._working[key] = asyncio.ensure_future(self._work_out(channel_id, actor))
            work.add_done_callback(lambda done: self._worked(key, done))
        if not work.done():
            self._waiting[work] = self._waiting.get(work, 0) + 1
            try:
                await asyncio.wait((work,), timeout=None if within is None else max(within, 0.0))  # (never cancels it)
            finally:
                left = self._waiting.get(work)  # (none once the work is done: _worked took its count)
                if left is not None:
                    self._waiting[work] = left - 1
        if work.done():
            offered = work.result()  # (its failure raised here, to the keystroke's caller)
        else:
            self.hurried += 1
            known = self._known.get(key)
            offered = known[2] if known is not None else []
        typed = " ".join(typed.split()).casefold()
        if not typed:
            return list(offered)
        return [c for c in offered if typed in c.notation.casefold() or typed in c.label.casefold()]

    async def _work_out(self, channel_id: int, actor: Actor) -> list[Choice]:
        """Every choice the player has at the table here now (kept by the table's version)."""
        now = await open_version(self.service.db, channel_id)
        key = (channel_id, actor.user_id)
        if now is None or now[2] != ACTIVE:
            self._known.pop(key)
            return []
        known = self._known.get(key)
        if known is not None and known[:2] == now[:2]:
            self.hits += 1
            return known[2]
        self.misses += 1
        # (read after the version: if the table moves on in between, what is kept is newer than the version it is
        # kept at, and the next keystroke works it out again)
        offered = await self.service.choices(channel_id, actor, "")
        self._known.put(key, (now[0], now[1], offered))
        return offered

    def _worked(self, key: tuple[int, int], done: asyncio.Future[list[Choice]]) -> None:
        if self._working.get(key) is done:
            del self._working[key]
        waiting = self._waiting.pop(done, 0)
        if done.cancelled():
            return
        err = done.exception()  # (retrieved: raised to the keystrokes waiting for it, which the cog logs)
        if err is not None and not waiting:  # nobody waits any more: told here
            log.warning("/move's choices in channel %s could not be worked out: %r", key[0], err)

    async def close(self) -> None:
        """The work under way for keystrokes answered already, cancelled and awaited (the bot is closing)."""
        working = list(self._working.values())
        for work in working:
            work.cancel()
        await asyncio.gather(*working, return_exceptions=True)


async def resume_bots(service: TableService, page: int = PAGE,
                      pause: Callable[[], Awaitable[None]] | None = None) -> AsyncGenerator[Outcome, None]:
    """At start-up: each running table where a bot seat is to move (the process stopped while it thought) goes on,
    its move chosen again, a page of tables at a time. Yields each table's outcome as soon as it is played, to be
    delivered before the next. ``pause`` is awaited before each page (the cog's: until the requests being answered
    then are done), so requests go first."""
    after = 0
    while True:
        if pause is not None:
            await pause()
        last, found = await bot_tables(service.db, after, page)
        if last is None:
            return
        after = last
        for candidate in found:
            try:
                out = await _resume(service, candidate)
            except (StaleVersion, StaleButton):  # a change got there first (a request, or another process resuming the
                # same bot after a shards' overlap, whose move is told): this one is not stored, and says nothing
                log.info("table %s: its bot's resumed move lost to a change made meanwhile", candidate.table_id)
                out = None
            except Exception:  # one table that cannot go on (a state this version cannot read…) stops no other
                log.exception("table %s: its bot could not resume its move", candidate.table_id)
                out = None  # (and still yields below: a run of such tables, each logged, keeps no request waiting)
            if out is not None:
                yield out
            await asyncio.sleep(0)  # requests ready to go on go first


async def _resume(service: TableService, candidate: BotTable) -> Outcome | None:
    core = service.core
    game = core.registry.get(candidate.game)
    if game is None:
        return None
    state = game.load(json.loads(candidate.state))  # (outside the database's lock, and only for tables with a bot)
    if game.is_over(state) or not game.to_act(state) & candidate.auto:
        return None
    async with core.locks[candidate.table_id]:
        table = await core.table(candidate.table_id)  # as it is now: a request may have moved since the page was read
        auto = {s.seat for s in table.seats if s.is_bot or s.resigned}
        if table.status != ACTIVE or not table.state:
            return None
        sit = core.situation(table, game)
        if sit.over or not sit.to_act & auto:
            return None
        log.info("table %s: a bot resumes its move", table.id)
        return await service.play.advance(await Run.of(core, table, sit, stored=True))
