"""The table service's core: its dependencies (storage, the catalogue, the clock, seeds, the bots' worker), table
lookups, who may act, and the standings of a game.

One :class:`Core` is shared by the service's parts (:mod:`tables.service` puts them together): each part holds it,
none inherits from another.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from community.records import RatingRules, SeatFacts, who_is_rated
from engine.base import Game
from storage import ACTIVE, LOBBY, Database, Owed, TableRow
from tables.bots import Thinker
from tables.catalog import Catalog
from tables.outcome import (
    STALE_BUTTON,
    STALE_MENU,
    STALE_OWN,
    Actor,
    Refusal,
    StaleButton,
)
from tables.recent import Recent
from tables.situation import Situation

log = logging.getLogger(__name__)

SITUATIONS_KEPT = 256  # tables whose newest position is kept across requests (a menu walked pick by pick, /move's
# autocomplete, My view, the next move)
SITUATIONS_WEIGHT = 1 << 16  # and at most this weight of them: a position weighs POSITION_WEIGHT plus the moves its
# menus offer (measured: ~25 KB a position and ~0.4 KB a move offered with its menu; a BLOCK drop offers ~1,300): ~26 MB
POSITION_WEIGHT = 64

LEFT = {"resigned": "resigned", "removed": "removed", "forfeit": "out of time"}
"""How a player left a game in progress (``SeatRow.left_how``), as a tag beside their name."""


def left_tag(how: str) -> str:
    """" (resigned)", " (removed)" or " (out of time)" for a player who left; "" for one still playing."""
    return f" ({LEFT.get(how, 'resigned')})" if how else ""


class TableLocks:
    """One lock per table (``locks[table_id]``), kept only while a request holds it or waits for it: a process that
    runs for months serves ever more tables, and a lock kept for each would be kept for ever. (``async with`` holds
    its lock until the block ends, and a waiter holds it while it waits: they all get the same one.)"""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __getitem__(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        return len(self._locks)


class Situations:
    """The situation last worked out for each table, so that requests at one position share one: a player walking a
    move menu one pick at a time, opening My view, typing in /move's autocomplete, moving next. A table's stored
    state changes only with its version (every change bumps it), and a :class:`Situation` is never changed in place
    (the engine's ``apply`` returns a new state), so one kept at the version read is that version's. One entry per
    table, its newest version: a request reads the table's current row, so an older position is not asked for again
    (one entry per version filled the cache with positions gone by: with 32 kept, at 200 tables in play every request
    missed and loaded its position again). The key holds the table's creation time too, in case an id is used again.
    The last :data:`SITUATIONS_KEPT` tables with a request are kept, within :data:`SITUATIONS_WEIGHT` (a position's
    weight is weighed again whenever it is used: menus are built after it is kept); a finished game's is not kept."""

    def __init__(self, kept: int = SITUATIONS_KEPT, weight: int = SITUATIONS_WEIGHT) -> None:
        self._known: Recent[tuple[int, float], tuple[int, str, Situation]] = Recent(
            kept, weight, lambda entry: POSITION_WEIGHT + entry[2].moves_offered())
        self.hits = 0
        self.misses = 0

    @property
    def weight(self) -> int:
        return self._known.weight

    def keep(self, table: TableRow, sit: Situation) -> None:
        """Keep ``sit`` as the position of ``table`` as just stored (the row a change returned): the next request
        there finds it with what was worked out for the answer to the move (the mover's menu, say)."""
        self._put(table, sit.game.key, sit)

    def of(self, table: TableRow, game: Game) -> Situation:
        """The situation of ``table`` as read: the one kept for its version, else loaded (and kept)."""
        key = (table.id, table.created_at)
        kept = self._known.get(key)
        if kept is not None and kept[0] == table.version and kept[1] == game.key:
            self.hits += 1
            self._known.put(key, kept)  # weighed again: its menus may have been built since
            return kept[2]
        self.misses += 1
        sit = Situation.of(game, game.load(table.state or {}))
        self._put(table, game.key, sit)
        return sit

    def _put(self, table: TableRow, game_key: str, sit: Situation) -> None:
        key = (table.id, table.created_at)
        if sit.over:
            self._known.pop(key)  # no request plays on from a finished game's position
            return
        kept = self._known.get(key)
        if kept is None or kept[0] <= table.version:  # (a request that read an older row keeps no older position)
            self._known.put(key, (table.version, game_key, sit))

    def __len__(self) -> int:
        return len(self._known)


class Core:
    """Storage, the catalogue of games, the clock and seeds; lookups every request starts with."""

    def __init__(self, db: Database, registry: Catalog, *, clock: Callable[[], float] = time.time,
                 seeds: Callable[[], int] = lambda: secrets.randbits(63), render: bool = True) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self.seeds = seeds
        self.render_images = render
        self.locks = TableLocks()  # one request at a time per table
        self.thinker = Thinker()  # medium and hard bots think in a worker process
        self.situations = Situations()  # the newest position worked out of each table in play
        self._rules: dict[int, RatingRules] = {}  # each server's rating rules, read once (lobby cards say them)

    async def rating_rules(self, guild_id: int | None) -> RatingRules:
        """A server's rating rules (read once per process, then kept: :meth:`set_rating_rules` changes them)."""
        if guild_id is None:
            return RatingRules()
        if guild_id not in self._rules:
            self._rules[guild_id] = await self.db.records.rules(guild_id)
        return self._rules[guild_id]

    async def set_rating_rules(self, guild_id: int, rules: RatingRules) -> None:
        await self.db.records.set_rules(guild_id, rules, self.clock())
        self._rules[guild_id] = rules

    def rated_words(self, table: TableRow) -> str:
        """Whether the table is rated, in words, as its lobby says it (a seat's handing to a bot later can still
        change it; the rules are the server's as this process last read them, which the table's requests warm)."""
        game = self.registry.get(table.game)
        rules = self._rules.get(table.guild_id, RatingRules()) if table.guild_id is not None else RatingRules()
        rated = who_is_rated([SeatFacts(s.user_id, s.bot, s.handed) for s in table.seats],
                             in_server=table.guild_id is not None, host_rated=table.rated,
                             cooperative=bool(game and game.plays_together(table.options)), rules=rules)
        if len(table.seats) < 2 and table.status == LOBBY and game is not None and game.min_players < 2 <= \
                game.max_players:
            return "Rated once a second player joins (solo games have their ladder)." if table.rated else \
                "Unrated: the host made this table unrated."
        if not rated.any:
            return f"Unrated: {rated.why}."
        if game is not None and game.cooperative:  # a cooperative game played with winners of its own (semi)
            return "Rated: a result with winners moves this server's ratings (a game everybody loses moves none)."
        return "Rated: the result moves this server's ratings."

    def game(self, key: str) -> Game:
        game = self.registry.get(key)
        if game is None:
            names = ", ".join(g.key for g in self.registry.all())
            raise Refusal(f"There is no game called `{key}`. Games: {names}.")
        return game

    async def table_in(self, channel_id: int, *, finished_ok: bool = False) -> TableRow:
        table = await self.db.table_here(channel_id, finished_ok=finished_ok)
        if table is None:
            raise Refusal("There is no game here. Start one with `/game new`.")
        await self.rating_rules(table.guild_id)
        return table

    async def table_id_in(self, channel_id: int, *, finished_ok: bool = False) -> int:
        """The id of :meth:`table_in`'s table, without reading it (a request reads it once it holds its lock)."""
        table_id = await self.db.table_id_here(channel_id, finished_ok=finished_ok)
        if table_id is None:
            raise Refusal("There is no game here. Start one with `/game new`.")
        return table_id

    async def table(self, table_id: int) -> TableRow:
        table = await self.db.get_table(table_id)
        if table is None:
            raise Refusal("That table no longer exists.")
        await self.rating_rules(table.guild_id)
        return table

    def seat_for(self, table: TableRow, actor: Actor) -> int:
        seat = table.seat_of(actor.user_id)
        if seat is None:
            raise Refusal("You are not playing in this game.")
        if seat.resigned:  # resigned, removed by the host, or forfeited on time: a bot plays the seat now
            raise Refusal("You are no longer playing in this game: a bot plays your seat.")
        return seat.seat

    def playing(self, table: TableRow) -> Game:
        if table.status == LOBBY:
            raise Refusal("The game has not started yet.")
        if table.status != ACTIVE:
            raise Refusal("This game is over." if table.status == "finished" else "This game was cancelled.")
        return self.game(table.game)

    def standings(self, table: TableRow, sit: Situation, resigning: Sequence[int] = (),
                  how: str = "resigned") -> dict[str, Any]:
        """The engine's result, with the seats whose players left ranked last (the earliest to leave lowest);
        ``resigning`` are leaving now, in this order, ``how`` (resigned, removed, forfeit)."""
        n = len(table.seats)
        resigned = {s.seat: s.resigned for s in table.seats if s.resigned}
        left = [s.left for s in table.seats]
        for seat in resigning:
            resigned[seat] = max(resigned.values(), default=0) + 1
            left[seat] = how
        game, res = sit.game, sit.result
        scores = list(res.scores) if res else [float(x) for x in game.scores(sit.state)] or [0.0] * n
        base_rank = list(res.ranks) if res else list(game.ranks_now(sit.state))  # (a game stopped early: as it stands)
        if len(base_rank) != n:  # a game without scores: its seats share the place
            base_rank = [1] * n
        # Sort key: not resigned first (by engine rank), then resigned by reverse order of resignation.
        keys = [(0, base_rank[p]) if p not in resigned else (1, -resigned[p]) for p in range(n)]
        ranks = [1 + sum(1 for q in range(n) if keys[q] < keys[p]) for p in range(n)]
        cooperative = bool(res.cooperative) if res else game.plays_together(table.options)
        if cooperative:  # the seats win or lose together: a cooperative loss (or a game given up) has no winner
            winners = [p for p in sorted(res.winners) if p not in resigned] if res else []
        else:
            winners = [p for p in range(n) if ranks[p] == 1 and (n > 1 or p not in resigned)]  # (solo: given up)
        if resigned and len(resigned) >= n - 1:
            hows = {left[p] for p in resigned}
            one = len(resigned) == 1
            gone = {"resigned": "resigned", "removed": "was removed" if one else "were removed",
                    "forfeit": "ran out of time"}.get(hows.pop(), "left") if len(hows) == 1 else "left"
            if cooperative and res is None:
                reason = "the table gave up: everyone loses"
            elif n == 1:  # solo: the player gave the game up
                reason = f"the player {gone}"
            else:
                reason = f"the other player{'' if one else 's'} {gone}"
        elif res:
            reason = res.reason
        else:
            reason = ""
        out = {"scores": scores, "ranks": ranks, "winners": winners, "reason": reason, "resigned": sorted(resigned),
               "left": left}
        if cooperative:
            out["cooperative"] = True
        if res and res.rung:
            out["rung"] = res.rung
        roles = [game.text.role(sit.state, p) for p in range(n)]
        if any(roles):  # the part each seat played (Bloc by Bloc's factions), for the players' records
            out["roles"] = roles
        return out

    async def game_here(self, channel_id: int) -> str | None:
        """The key of the game in this channel (its lobby, game in progress or latest game), if any."""
        table = await self.db.table_here(channel_id, finished_ok=True)
        return table.game if table else None

    @staticmethod
    def current(table: TableRow, seat: int, version: int) -> bool:
        """Whether a control made at ``version`` for ``seat`` still applies: nothing changed for the seat since (it
        has not moved, and what it is asked is the same) — other seats may have moved (a pick of simultaneous picks,
        a gift during someone's turn, a trade's answer). Its move is checked again when it is played, and a menu's
        final pick names its move."""
        return version == table.version or version >= table.seats[seat].acted_version

    def situation(self, table: TableRow, game: Game) -> Situation:
        """The table's game as stored, worked out once (the state is loaded here, and only here): a situation worked
        out for an earlier request at the same version is used again (:class:`Situations`)."""
        return self.situations.of(table, game)

    async def control_context(self, table_id: int, actor: Actor, version: int) -> tuple[TableRow, int, Situation]:
        """Table, seat and situation for a private control made at ``version``; refuses a stale one."""
        table = await self.table(table_id)
        game = self.playing(table)
        seat = self.seat_for(table, actor)
        sit = self.situation(table, game)
        if not self.current(table, seat, version):
            raise await self.stale(table, sit, seat, version, "menu")
        return table, seat, sit

    async def stale(self, table: TableRow, sit: Situation, seat: int, version: int, control: str) -> StaleButton:
        """The refusal of a control from an earlier position. When the control predates the seat's own last move
        and the turn goes on privately from it (the move is not told yet: the second action of two, a card drawn
        to place), it says so rather than that the game moved on."""
        last = await self.db.moves(table.id, last=1)
        if version < table.seats[seat].acted_version and last and last[0].seat == seat and \
                last[0].ply > table.announced_ply and seat in sit.to_act:
            return StaleButton(STALE_OWN.format(control=control))
        return StaleButton(STALE_MENU if control == "menu" else STALE_BUTTON)

    async def owed_lines(self, owed: Owed) -> list[str]:
        """What an owed board must tell: the events of the moves not yet told."""
        if owed.first_ply > owed.last_ply:
            return []
        return [e for m in await self.db.moves(owed.table_id, plies=(owed.first_ply, owed.last_ply))
                for e in m.events]

    async def ply_base(self, table: TableRow) -> int:
        """The ply of the table's last stored move (read with the table)."""
        return table.last_ply

    async def schedule_archive(self, table: TableRow) -> None:
        """The finished game's thread is archived after the server's archive hours (set already by the write that
        ended it, in most cases)."""
        if table.archive_at is None:
            await self.db.archive_later(table.id, self.clock())
