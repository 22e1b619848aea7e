"""Tournaments in storage: the tournament row (its pure value's JSON and a version), the games its rounds owe, and
what it owes its channel.

A tournament game's end reports its result to the tournament in the transaction that ends the game
(:func:`record_game`): when that completes the round, the next round is paired in the same transaction (or the
tournament ends), so a round is paired exactly once, whatever stops when.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from community.tournament import Final, Format, Round, Tournament, TournamentError
from storage.shards import mine
from storage.sql import Connection, run

if TYPE_CHECKING:
    from storage.db import Database

log = logging.getLogger(__name__)

SIGNUP, RUNNING, DONE, CANCELLED = "signup", "running", "finished", "cancelled"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    name: str
    game: str
    options: dict[str, Any]
    status: str
    organiser_id: int
    state: dict[str, Any]
    names: dict[int, str]
    turn_seconds: int | None
    on_timeout: str
    rated: bool
    version: int
    round_seconds: int | None = None
    round_deadline: float | None = None
    signup_until: float | None = None
    paused: bool = False
    paused_left: float | None = None

    @property
    def tournament(self) -> Tournament:
        return Tournament.load(self.state)

    def name_of(self, player: int) -> str:
        return self.names.get(player, "a player")


@dataclass(frozen=True)
class OwedGame:
    """A game a round owes (``table_id`` None until it is opened in its thread)."""

    tournament_id: int
    round: int
    number: int
    game: int
    table_id: int | None


@dataclass(frozen=True)
class OwedPost:
    tournament_id: int
    seq: int
    kind: str  # card, round, standings, final, replay (a drawn game played again), cancelled, unfilled (cancelled
    # when sign-ups closed with too few players)
    round: int


def _row(r: Any) -> TournamentRow:
    return TournamentRow(r["id"], r["guild_id"], r["channel_id"], r["message_id"], r["name"], r["game"],
                         json.loads(r["options"]), r["status"], r["organiser_id"], json.loads(r["state"]),
                         {int(k): v for k, v in json.loads(r["names"]).items()}, r["turn_seconds"], r["on_timeout"],
                         bool(r["rated"]), r["version"], r["round_seconds"], r["round_deadline"], r["signup_until"],
                         bool(r["paused"]), r["paused_left"])


async def _owe_post(conn: Connection, tournament_id: int, kind: str, round_number: int, now: float) -> None:
    await run(conn, "INSERT INTO tournament_posts (tournament_id, seq, kind, round, created_at) SELECT ?, "
              "COALESCE(MAX(seq), 0) + 1, ?, ?, ? FROM tournament_posts WHERE tournament_id = ?",
              (tournament_id, kind, round_number, now, tournament_id))


async def _owe_game(conn: Connection, tournament_id: int, round_number: int, table: int) -> None:
    await run(conn, "INSERT INTO tournament_tables (tournament_id, round, number, game) VALUES (?, ?, ?, 1)",
              (tournament_id, round_number, table))


async def _owe_games(conn: Connection, tournament_id: int, rnd: Round) -> None:
    for table in rnd.tables:
        await _owe_game(conn, tournament_id, rnd.number, table.number)


async def paired(conn: Connection, tournament_id: int, outcome: Round | Final, now: float) -> str:
    """What a new pairing owes, in the caller's transaction: a round's games and its post, or the final post (the
    tournament ends). Returns the tournament's status after it."""
    if isinstance(outcome, Final):
        await _owe_post(conn, tournament_id, "final", 0, now)
        return DONE
    await _owe_games(conn, tournament_id, outcome)
    await _owe_post(conn, tournament_id, "round", outcome.number, now)
    await run(conn, "UPDATE tournaments SET round_deadline = CASE WHEN round_seconds IS NULL THEN NULL ELSE ? + "
              "round_seconds END WHERE id = ?", (now, tournament_id))
    return RUNNING


async def reported(conn: Connection, row: TournamentRow, t: Tournament, round_number: int, number: int,
                   game: int, now: float, card: bool = False) -> str:
    """After a result was reported to ``t`` (not yet stored), in the caller's transaction: a drawn elimination game
    owes another game at its table; a round it completes owes its standings and pairs the next round, or ends the
    tournament (a paused tournament waits for its resume). ``card``: a round completed owes the card too (it says
    which round is played, or that it is finished; a caller that owes it already says no). Returns the tournament's
    status after it."""
    rnd = t.rounds[round_number - 1]
    if not rnd.table(number).done:  # an elimination game drawn with no winner: another game at the same table
        await run(conn, "INSERT OR IGNORE INTO tournament_tables (tournament_id, round, number, game) "
                  "VALUES (?, ?, ?, ?)", (row.id, round_number, number, game + 1))
        await _owe_post(conn, row.id, "replay", round_number, now)
        return row.status
    if rnd.complete and rnd.number == len(t.rounds) and not row.paused:  # (the current round)
        if card:
            await _owe_post(conn, row.id, "card", 0, now)
        await _owe_post(conn, row.id, "standings", rnd.number, now)
        return await paired(conn, row.id, t.pair_next_round(), now)
    return row.status


async def record_game(conn: Connection, table_id: int, now: float) -> None:
    """In the caller's transaction, which has just ended game ``table_id``: if it is a tournament's, its result is
    reported to the tournament; a drawn elimination game owes a replay; a round it completes owes its standings and
    pairs the next round (or ends the tournament). A tournament no longer running takes nothing."""
    async with conn.execute("SELECT * FROM tournament_tables WHERE table_id = ?", (table_id,)) as cur:
        link = await cur.fetchone()
    if link is None:
        return
    async with conn.execute("SELECT * FROM tournaments WHERE id = ?", (link["tournament_id"],)) as cur:
        found = await cur.fetchone()
    if found is None or found["status"] != RUNNING:
        return
    row = _row(found)
    async with conn.execute("SELECT result FROM tables WHERE id = ?", (table_id,)) as cur:
        result_row = await cur.fetchone()
    result = json.loads(result_row["result"]) if result_row and result_row["result"] else {}
    t = row.tournament
    try:
        if t.settings.format == Format.ARENA:
            scores = result.get("scores") or [0.0]
            t.report_score(link["number"], float(scores[0]), round_number=link["round"])
        else:
            t.report(link["number"], tuple(result.get("ranks") or ()), round_number=link["round"])
    except TournamentError as err:  # an organiser's result came first: the game's own stands aside
        log.info("tournament %s: table %s's result not taken: %s", row.id, table_id, err)
        return
    status = await reported(conn, row, t, link["round"], link["number"], link["game"], now, card=True)
    await run(conn, "UPDATE tournaments SET state = ?, status = ?, version = version + 1, updated_at = ? WHERE id = ?",
              (json.dumps(t.dump()), status, now, row.id))


class TournamentStore:
    """Tournament rows, their owed games and posts; every change versioned like a table's."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, *, guild_id: int, channel_id: int, name: str, game: str, options: dict[str, Any],
                     organiser: tuple[int, str], state: dict[str, Any], now: float, turn_seconds: int | None,
                     on_timeout: str, rated: bool, round_seconds: int | None = None,
                     signup_until: float | None = None) -> int:
        """A tournament open for sign-ups (its card owed)."""
        async with self.db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "INSERT INTO tournaments (guild_id, channel_id, name, game, options, status, organiser_id, state, "
                "names, turn_seconds, on_timeout, rated, round_seconds, signup_until, created_at, updated_at) VALUES "
                "(?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, name, game, json.dumps(options), organiser[0], json.dumps(state),
                 json.dumps({str(organiser[0]): organiser[1]}), turn_seconds, on_timeout, int(rated), round_seconds,
                 signup_until, now, now))
            tid: int = next(iter(rows))["id"]
            await _owe_post(conn, tid, "card", 0, now)
            return tid

    async def get(self, tournament_id: int) -> TournamentRow | None:
        async with self.db._reading() as conn, conn.execute("SELECT * FROM tournaments WHERE id = ?",
                                                            (tournament_id,)) as cur:
            r = await cur.fetchone()
        return _row(r) if r else None

    async def of_guild(self, guild_id: int, statuses: Sequence[str] = (SIGNUP, RUNNING)) -> list[TournamentRow]:
        marks = ",".join("?" for _ in statuses)
        async with self.db._reading() as conn, conn.execute(
                f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
                (guild_id, *statuses)) as cur:
            return [_row(r) for r in await cur.fetchall()]

    async def change(self, row: TournamentRow, t: Tournament, now: float, *, names: dict[int, str] | None = None,
                     status: str | None = None, posts: Sequence[tuple[str, int]] = (),
                     pairing: Round | Final | None = None, reported_at: tuple[int, int, int] | None = None,
                     pause: bool | None = None, late_table: tuple[int, int] | None = None) -> TournamentRow:
        """Store the tournament's new value (and names, status), the posts it owes and a new pairing's games, in one
        transaction checked against the row's version; raises :class:`~storage.db.StaleVersion`. ``reported_at``:
        (round, table, game) of a result just reported (by the organiser), which may pair the next round.
        ``pause``: stop the round's deadline (True, keeping the time left) or start it again (False).
        ``late_table``: (round, table) of a table added to the open round (an arena's late joiner): its game is owed."""
        from storage.db import StaleVersion

        async with self.db.transaction() as conn:
            # the version first, so that a change that lost (a request, or another process handling the same
            # deadline) stops here, before its pairing's rows meet the winner's
            if await run(conn, "UPDATE tournaments SET version = version + 1 WHERE id = ? AND version = ?",
                         (row.id, row.version)) != 1:
                raise StaleVersion(f"tournament {row.id} changed since version {row.version}")
            for kind, number in posts:
                await _owe_post(conn, row.id, kind, number, now)
            if pause is True:
                await run(conn, "UPDATE tournaments SET paused = 1, paused_left = round_deadline - ?, "
                          "round_deadline = NULL WHERE id = ?", (now, row.id))
            elif pause is False:
                await run(conn, "UPDATE tournaments SET paused = 0, round_deadline = ? + paused_left, "
                          "paused_left = NULL WHERE id = ?", (now, row.id))
            if pairing is not None:
                status = await paired(conn, row.id, pairing, now)
            if late_table is not None:
                await _owe_game(conn, row.id, *late_table)
            if reported_at is not None:
                status = await reported(conn, row, t, *reported_at, now)
            await run(conn, "UPDATE tournaments SET state = ?, names = ?, status = ?, updated_at = ? WHERE id = ?",
                      (json.dumps(t.dump()), json.dumps({str(k): v for k, v in (names or row.names).items()}),
                       status or row.status, now, row.id))
            async with conn.execute("SELECT * FROM tournaments WHERE id = ?", (row.id,)) as cur:
                return _row(await cur.fetchone())

    async def due(self, now: float) -> list[TournamentRow]:
        """Tournaments whose round deadline has passed (running, not paused) or whose sign-ups close now, of this
        process's shards (their guild's: ``db.shards``)."""
        async with self.db._reading() as conn, conn.execute(
                "SELECT * FROM tournaments WHERE ((status = 'running' AND paused = 0 AND round_deadline <= ?) OR "
                f"(status = 'signup' AND signup_until <= ?)){mine(self.db.shards)} ORDER BY id", (now, now)) as cur:
            return [_row(r) for r in await cur.fetchall()]

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await run(conn, "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def owed_games(self, tournament_id: int) -> list[OwedGame]:
        """The games of the tournament not started yet, in round and table order: not opened (``table_id`` None), or
        opened but not started (the process stopped in between: its table is still a lobby)."""
        async with self.db._reading() as conn, conn.execute(
                "SELECT g.* FROM tournament_tables g LEFT JOIN tables t ON t.id = g.table_id WHERE g.tournament_id = ? "
                "AND (g.table_id IS NULL OR t.status = 'lobby') ORDER BY g.round, g.number, g.game",
                (tournament_id,)) as cur:
            return [OwedGame(r["tournament_id"], r["round"], r["number"], r["game"], r["table_id"])
                    for r in await cur.fetchall()]

    async def all_owed_games(self) -> list[OwedGame]:
        """Every running tournament's games not started yet (see :meth:`owed_games`), of this process's shards."""
        async with self.db._reading() as conn, conn.execute(
                "SELECT g.* FROM tournament_tables g JOIN tournaments t ON t.id = g.tournament_id LEFT JOIN tables x "
                "ON x.id = g.table_id WHERE (g.table_id IS NULL OR x.status = 'lobby') AND t.status = 'running'"
                f"{mine(self.db.shards, 't.guild_id')} ORDER BY g.tournament_id") as cur:
            return [OwedGame(r["tournament_id"], r["round"], r["number"], r["game"], r["table_id"])
                    for r in await cur.fetchall()]

    async def games(self, tournament_id: int, round_number: int | None = None) -> list[OwedGame]:
        """The tournament's games (of one round), opened or not."""
        sql, args = "SELECT * FROM tournament_tables WHERE tournament_id = ?", [tournament_id]
        if round_number is not None:
            sql, args = sql + " AND round = ?", [*args, round_number]
        async with self.db._reading() as conn, conn.execute(sql + " ORDER BY round, number, game", args) as cur:
            return [OwedGame(r["tournament_id"], r["round"], r["number"], r["game"], r["table_id"])
                    for r in await cur.fetchall()]

    async def posts_owed(self, tournament_id: int | None = None) -> list[OwedPost]:
        sql, args = "SELECT * FROM tournament_posts WHERE delivered_at IS NULL", list[Any]()
        if tournament_id is not None:
            sql, args = sql + " AND tournament_id = ?", [tournament_id]
        elif (owner := mine(self.db.shards, "t.guild_id")):  # every tournament's: those of this process's shards
            sql += f" AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = tournament_posts.tournament_id{owner})"
        async with self.db._reading() as conn, conn.execute(sql + " ORDER BY tournament_id, seq", args) as cur:
            return [OwedPost(r["tournament_id"], r["seq"], r["kind"], r["round"]) for r in await cur.fetchall()]

    async def delivered(self, tournament_id: int, seq: int, now: float) -> None:
        async with self.db.transaction() as conn:
            await run(conn, "UPDATE tournament_posts SET delivered_at = ? WHERE tournament_id = ? AND seq = ?",
                      (now, tournament_id, seq))
