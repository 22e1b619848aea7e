"""The outbox's other side: what committed changes still owe their channel (boards, notices, lobby cards), posted
again after a crash or a refusal, and the bookkeeping of what was posted where (the newest board, a turn's status
message, the lobby message, whether a player's DMs arrive).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator

from storage import CANCELLED, LOBBY, Owed
from tables.core import Core
from tables.outcome import Outcome, Post
from tables.presenter import COLOUR_LOBBY, Presenter

log = logging.getLogger(__name__)

OWED_FOR_AT_MOST = 24 * 3600.0  # seconds an owed board is retried on the clock's ticks (start-up tries them all)
OWED_PAGE = 20  # tables whose owed boards are read (and drawn) at a time, each page posted before the next is read
DMS_KNOWN = 4096  # (table, player) pairs whose DMs are known to arrive, kept so a DM that arrives writes nothing


class Outbox:
    """What committed changes owe the channel, and the bookkeeping of what was posted where."""

    def __init__(self, core: Core, presenter: Presenter) -> None:
        self.core = core
        self.presenter = presenter
        # the (table, player) pairs whose seat says DMs arrive, as this process last wrote or found it: only
        # dm_result marks a seat's DMs failing, so a DM that arrives to one of them has nothing to write
        self._dms_arrive: dict[tuple[int, int], None] = {}

    async def delivered(self, table_id: int, version: int, board_message_id: int | None = None, *,
                        board: bool = True, lobby: bool = True) -> int | None:
        """What ``table_id`` owed up to ``version`` was posted (see :meth:`undelivered`): ``board`` (its board or
        notice) and ``lobby`` (its lobby card) say which parts, a part not posted staying owed; its new board is
        ``board_message_id`` if it has one. One write. Returns the previous board's message, whose controls should
        now go (only the newest board has live controls)."""
        previous = await self.core.db.delivered(table_id, version, self.core.clock(), board_message_id, board=board,
                                                lobby=lobby)
        return previous if previous != board_message_id else None

    async def undelivered(self, settled: float | None = None) -> list[Outcome]:
        """Every page of :meth:`undelivered_pages` at once."""
        return [outcome async for page in self.undelivered_pages(settled) for outcome in page]

    async def undelivered_pages(self, settled: float | None = None, page: int = OWED_PAGE
                                ) -> AsyncGenerator[list[Outcome], None]:
        """What committed changes still owe their channel (the process stopped between the commit and the post, or
        Discord refused it), as outcomes to deliver, ``page`` tables at a time (a page is read when the one before
        has been taken: after a long stop, the boards of thousands of tables are never drawn and held at once): each
        table's board as it is now, listing the moves not yet told, with its players' private views; a cancelled
        table's notice; the lobby card. All of them at start-up; on the clock's ticks, those owed for at least
        ``settled`` seconds (so a board being posted right now is not posted twice) and for less than a day (a
        channel that stays gone is not asked for forever). Each is marked ``owed``: a board that reached the
        channel before the process stopped is found there, not posted again."""
        now = self.core.clock()
        # at start-up, what was owed when the sweep began: a table that a live request changes while the sweep goes
        # page by page owes its new board to that request, not to the sweep (it would be posted twice)
        between = (0.0, now) if settled is None else (now - OWED_FOR_AT_MOST, now - settled)
        after = 0
        while True:
            # this process's tables (its shards'), each claimed in the database before its board is made: two
            # processes never post the same owed board (storage.db.Database.claim_owed)
            owed_page = await self.core.db.undelivered(between, after=after, limit=page, owned=True)
            claimed = await self.core.db.claim_owed([o.table_id for o in owed_page], now)
            out = []
            for owed in owed_page:
                if owed.table_id not in claimed:  # posted meanwhile, or another process is posting it
                    continue
                try:
                    outcome = await self._owed(owed)
                except Exception:  # one table that can't be read (a game no longer offered…) keeps none of the others
                    log.exception("table %s: what it owes could not be made", owed.table_id)
                    continue
                out.append(outcome)
                log.info("table %s: posting what is owed since version %s", owed.table_id, owed.version)
            try:
                if out:
                    yield out  # (delivered, or refused, when the caller comes back for the next page)
            finally:  # the page is done: its tables' claims go, so what they owe later is not kept for the lease
                await self.core.db.release_owed(sorted(claimed), now)
            if len(owed_page) < page:
                return
            after = owed_page[-1].table_id

    async def _owed(self, owed: Owed) -> Outcome:
        table = await self.core.table(owed.table_id)
        game = self.core.game(table.game)
        outcome = Outcome(table_id=table.id, channel_id=table.channel_id,
                          outbox=(table.id, max(owed.version, table.version)), owed=True)
        if owed.lobby:
            outcome.lobby = self.presenter.lobby_card(table)
        if owed.board and table.status == CANCELLED:
            outcome.public.append(self.presenter.cancelled_post(table, owed.note))
        elif owed.board and table.status != LOBBY:
            sit = self.core.situation(table, game)
            outcome.public.append(await self.presenter.board_post(table, sit, await self.core.owed_lines(owed),
                                                                  owed.note))
            outcome.dms = await self.presenter.private_updates(table, None, sit) + \
                await self.presenter.turn_dms(table, sit)
        return outcome

    async def dm_result(self, table_id: int, user_id: int, delivered: bool) -> Post | None:
        """Record whether a DM arrived; returns a public notice the first time DMs fail (a player's seat said they
        arrived until now). A DM that arrives where the seat already says so writes nothing (most DMs)."""
        key = (table_id, user_id)
        if delivered and key in self._dms_arrive:
            return None
        if not delivered:  # (forgotten before the write: a DM arriving meanwhile writes that they arrive)
            self._dms_arrive.pop(key, None)
        changed = await self.core.db.set_dm_open(table_id, user_id, delivered)  # (one write, no read first)
        if delivered:
            if len(self._dms_arrive) >= DMS_KNOWN:
                del self._dms_arrive[next(iter(self._dms_arrive))]  # the oldest known
            self._dms_arrive[key] = None
        if not changed or delivered:
            return None
        return Post(content=f"<@{user_id}>", description="I can't send you direct messages, so nothing of this game "
                    "reaches you by DM: you are mentioned here when it is your turn, and `/hand` shows your view "
                    "any time. The game goes on.", colour=COLOUR_LOBBY, mention_ids=[user_id])

    async def board_posted(self, table_id: int, message_id: int) -> int | None:
        """A new board of the table was posted as ``message_id``; returns the previous board's message, whose
        controls should now go (only the newest board has live controls)."""
        previous = await self.core.db.swap_board_message(table_id, message_id)
        return previous if previous != message_id else None

    async def status_message(self, table_id: int, turn: int) -> int | None:
        """The message of the turn's status post (``Post.status_of``), to edit; None to post a new one."""
        return await self.core.db.status_message(table_id, turn)

    async def status_posted(self, table_id: int, turn: int, message_id: int) -> None:
        await self.core.db.set_status_message(table_id, turn, message_id)

    async def set_lobby_message(self, table_id: int, channel_id: int, message_id: int) -> None:
        await self.core.db.set_lobby_message(table_id, channel_id, message_id)
