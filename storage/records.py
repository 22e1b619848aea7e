"""Results and ratings in storage: what a finished game leaves behind, written in the transaction that ends it.

A game's end writes one ``results`` row per seat (place, score, how the player left, the part they played, their
turns and time, whether the seat is rated and the rating before and after) and moves the ``ratings`` of its rated
players. The results are the source of truth: :meth:`RecordStore.rebuild` recomputes every rating of a server from
them, in the order the games ended, and gives the same numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from community.ratings import Replay, Skill, rate
from community.records import RatingRules, SeatFacts, places_among, turn_times, who_is_rated
from storage.sql import Connection, Step, run, run_many

if TYPE_CHECKING:
    from storage.db import Database


@dataclass(frozen=True)
class ResultRow:
    """One seat of one finished game."""

    table_id: int
    seat: int
    guild_id: int | None
    game: str
    player: str
    user_id: int | None
    name: str
    place: int
    seats: int
    score: float | None
    outcome: str
    left_how: str
    role: str
    setup: str
    rung: str
    cooperative: bool
    rated: bool
    unrated_why: str
    turns: int
    turn_seconds: float
    mu_before: float | None
    sigma_before: float | None
    mu_after: float | None
    sigma_after: float | None
    finished_at: float
    channel_id: int = 0

    @property
    def skill_after(self) -> Skill | None:
        return None if self.mu_after is None or self.sigma_after is None else Skill(self.mu_after, self.sigma_after)

    @property
    def skill_before(self) -> Skill | None:
        return None if self.mu_before is None or self.sigma_before is None else Skill(self.mu_before,
                                                                                      self.sigma_before)


@dataclass(frozen=True)
class RatingRow:
    player: str
    skill: Skill
    games: int


def by_table(rows: Sequence[ResultRow]) -> list[list[ResultRow]]:
    """Result rows grouped by game, in the order of their first row (rows read in ``seq`` order: as games ended)."""
    tables: dict[int, list[ResultRow]] = {}
    for r in rows:
        tables.setdefault(r.table_id, []).append(r)
    return list(tables.values())


def _result(r: Any) -> ResultRow:
    keys = r.keys()
    return ResultRow(r["table_id"], r["seat"], r["guild_id"], r["game"], r["player"], r["user_id"], r["name"],
                     r["place"], r["seats"], r["score"], r["outcome"], r["left_how"], r["role"], r["setup"], r["rung"],
                     bool(r["cooperative"]), bool(r["rated"]), r["unrated_why"], r["turns"], r["turn_seconds"],
                     r["mu_before"], r["sigma_before"], r["mu_after"], r["sigma_after"], r["finished_at"],
                     r["channel_id"] if "channel_id" in keys else 0)


async def rules_of(conn: Connection, guild_id: int | None) -> RatingRules:
    """A server's rating rules (the defaults when it set none)."""
    if guild_id is None:
        return RatingRules()
    rows = await conn.execute_fetchall("SELECT rate_bots, rate_handed FROM guild_settings WHERE guild_id = ?",
                                       (guild_id,))
    return rules_in(rows)


def rules_in(rows: Iterable[Any]) -> RatingRules:
    """The rating rules a read of ``guild_settings``' ``rate_bots`` and ``rate_handed`` found (the defaults when it
    found no row: a server that set none)."""
    row = next(iter(rows), None)
    return RatingRules(bool(row["rate_bots"]), row["rate_handed"]) if row is not None else RatingRules()


# What settling a game reads, sent with the change that ends it (storage.db): whether it was settled already, the
# table, its seats, its moves' times, the server's rating rules, the next result number, and the ratings of the
# seats' players (the rated ones among them). A player's key is SeatFacts.player's: the user's id, else the bot's.
PLAYER_OF_SEAT = "CASE WHEN user_id IS NOT NULL THEN CAST(user_id AS TEXT) ELSE 'bot:' || COALESCE(bot, 'medium') END"


def settle_reads(table_id: int) -> list[Step]:
    """The reads :func:`settle_writes` works from, as steps of the caller's transaction (sent with its change)."""
    return [
        Step("SELECT 1 FROM results WHERE table_id = ? LIMIT 1", (table_id,), fetch=True),
        Step("SELECT * FROM tables WHERE id = ?", (table_id,), fetch=True),
        Step("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,), fetch=True),
        Step("SELECT seat, created_at FROM moves WHERE table_id = ? ORDER BY ply", (table_id,), fetch=True),
        Step("SELECT g.rate_bots, g.rate_handed FROM guild_settings g JOIN tables t ON t.guild_id = g.guild_id "
             "WHERE t.id = ?", (table_id,), fetch=True),
        Step("SELECT COALESCE(MAX(seq), 0) + 1 FROM results", fetch=True),
        Step("SELECT r.player, r.mu, r.sigma FROM ratings r JOIN tables t ON r.guild_id = t.guild_id AND "
             f"r.game = t.game WHERE t.id = ? AND r.player IN (SELECT {PLAYER_OF_SEAT} FROM seats WHERE table_id = ?)",
             (table_id, table_id), fetch=True),
    ]


def settle_writes(found: Sequence[Sequence[Any]], table_id: int, now: float) -> list[Step]:
    """The game's results and the ratings they move, as steps of the transaction that has just recorded the end of
    game ``table_id``, from the rows :func:`settle_reads` read in it. A game settled before is left alone (a result is
    written once): no steps."""
    settled, (table, *_), seats, move_rows, rules_rows, ((seq, *_), *_), rating_rows = found
    if settled:
        return []
    moves = [(m["seat"], m["created_at"]) for m in move_rows]
    assert table["result"]
    result = json.loads(table["result"])
    facts = [SeatFacts(s["user_id"], s["bot"], bool(s["handed"])) for s in seats]
    cooperative = bool(result.get("cooperative"))
    rules = rules_in(rules_rows)
    if table["guild_id"] is None:
        rules = RatingRules()
    rated = who_is_rated(facts, in_server=table["guild_id"] is not None, host_rated=bool(table["rated"]),
                         cooperative=cooperative, rules=rules)
    winners = set(result.get("winners") or ())
    ranks: list[int] = result.get("ranks") or [1 if i in winners else 2 for i in range(len(seats))]
    before: dict[str, Skill] = {}
    after: dict[str, Skill] = {}
    todo = []
    if rated.any:
        players = [f.player for f, r in zip(facts, rated.seats, strict=True) if r]
        known = {r["player"]: Skill(r["mu"], r["sigma"]) for r in rating_rows}
        before = {p: known[p] for p in players if p in known}
        after = rate(list(zip(players, places_among(ranks, rated.seats), strict=True)), before)
        todo.append(_store_skills(table["guild_id"], table["game"], after, now))
    times = turn_times(moves, table["started_at"])
    roles: list[str] = result.get("roles") or [""] * len(seats)
    shared = not cooperative and len(winners) > 1
    scores: list[float] = result.get("scores") or []
    setup = _setup_words(json.loads(table["options"]))
    rows = []
    for s, f, is_rated in zip(seats, facts, rated.seats, strict=True):
        seat = s["seat"]
        outcome = "loss" if seat not in winners else ("shared win" if shared else "win")
        b, a = (before.get(f.player, Skill()), after[f.player]) if is_rated else (None, None)
        turns, seconds = times.get(seat, (0, 0.0))
        rows.append((table_id, seat, seq, table["guild_id"], table["game"], f.player, s["user_id"], s["name"],
                     ranks[seat], len(seats), scores[seat] if seat < len(scores) else None, outcome, s["left_how"],
                     roles[seat] if seat < len(roles) else "", setup, result.get("rung", ""), int(cooperative),
                     int(is_rated), rated.why, turns, seconds, b.mu if b else None, b.sigma if b else None,
                     a.mu if a else None, a.sigma if a else None, now))
    todo.append(Step(
        "INSERT INTO results (table_id, seat, seq, guild_id, game, player, user_id, name, place, seats, score, "
        "outcome, left_how, role, setup, rung, cooperative, rated, unrated_why, turns, turn_seconds, mu_before, "
        "sigma_before, mu_after, sigma_after, finished_at) VALUES (" + ", ".join("?" * 26) + ")", rows, many=True))
    todo.append(Step("UPDATE tables SET finished_at = ? WHERE id = ?", (now, table_id)))
    return todo


def _setup_words(options: dict[str, Any]) -> str:
    """The table's options as a record keeps them (``difficulty=hard, city=random``)."""
    return ", ".join(f"{k}={'yes' if v is True else 'no' if v is False else v}" for k, v in sorted(options.items()))


def _store_skills(guild_id: int, game: str, skills: dict[str, Skill], now: float) -> Step:
    return Step("INSERT INTO ratings (guild_id, game, player, mu, sigma, games, updated_at) "
                "VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game, player) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, games = ratings.games + 1, updated_at = excluded.updated_at",
                [(guild_id, game, p, s.mu, s.sigma, now) for p, s in sorted(skills.items())], many=True)


class RecordStore:
    """Reads of results and ratings, and the rebuild of a server's ratings from its results."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _all(self, sql: str, args: Sequence[Any]) -> list[Any]:
        async with self.db._reading() as conn:
            return list(await conn.execute_fetchall(sql, tuple(args)))

    async def rules(self, guild_id: int | None) -> RatingRules:
        async with self.db._reading() as conn:
            return await rules_of(conn, guild_id)

    async def set_rules(self, guild_id: int, rules: RatingRules, now: float) -> None:
        async with self.db.transaction() as conn:
            await run(conn,
                "INSERT INTO guild_settings (guild_id, rate_bots, rate_handed, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET rate_bots = excluded.rate_bots, "
                "rate_handed = excluded.rate_handed, updated_at = excluded.updated_at",
                (guild_id, int(rules.rate_bots), rules.rate_handed, now))

    async def results_of_table(self, table_id: int) -> list[ResultRow]:
        return [_result(r) for r in await self._all("SELECT * FROM results WHERE table_id = ? ORDER BY seat",
                                                    (table_id,))]

    async def results_of_user(self, user_id: int, guild_id: int | None = None, game: str | None = None,
                              *, limit: int = -1, offset: int = 0, newest_first: bool = False) -> list[ResultRow]:
        """A member's finished games (in ``guild_id`` and of ``game`` when given), in the order they ended."""
        where, args = "r.user_id = ?", list[Any]([user_id])
        if guild_id is not None:
            where, args = where + " AND r.guild_id = ?", [*args, guild_id]
        if game is not None:
            where, args = where + " AND r.game = ?", [*args, game]
        order = "DESC" if newest_first else "ASC"
        rows = await self._all(f"SELECT r.*, t.channel_id FROM results r JOIN tables t ON t.id = r.table_id "
                               f"WHERE {where} ORDER BY r.seq {order} LIMIT ? OFFSET ?", [*args, limit, offset])
        return [_result(r) for r in rows]

    async def count_of_user(self, user_id: int, guild_id: int | None = None, game: str | None = None) -> int:
        where, args = "user_id = ?", list[Any]([user_id])
        if guild_id is not None:
            where, args = where + " AND guild_id = ?", [*args, guild_id]
        if game is not None:
            where, args = where + " AND game = ?", [*args, game]
        rows = await self._all(f"SELECT COUNT(*) AS n FROM results WHERE {where}", args)
        return int(rows[0]["n"])

    async def tables_results(self, table_ids: Sequence[int]) -> dict[int, list[ResultRow]]:
        """Every seat's result of these games, by game."""
        if not table_ids:
            return {}
        marks = ",".join("?" for _ in table_ids)
        out: dict[int, list[ResultRow]] = {}
        for r in await self._all(f"SELECT * FROM results WHERE table_id IN ({marks}) ORDER BY table_id, seat",
                                 list(table_ids)):
            out.setdefault(r["table_id"], []).append(_result(r))
        return out

    async def rating(self, guild_id: int, game: str, player: str) -> RatingRow | None:
        rows = await self._all("SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND player = ?",
                               (guild_id, game, player))
        return RatingRow(player, Skill(rows[0]["mu"], rows[0]["sigma"]), rows[0]["games"]) if rows else None

    async def ratings(self, guild_id: int, game: str) -> list[RatingRow]:
        """Every rating of a game in a server."""
        rows = await self._all("SELECT * FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game))
        return [RatingRow(r["player"], Skill(r["mu"], r["sigma"]), r["games"]) for r in rows]

    async def rated_results(self, guild_id: int, game: str, since: float | None = None) -> list[ResultRow]:
        """The rated seats of a game's results in a server (ended at or after ``since``), in the order games ended."""
        sql, args = "SELECT * FROM results WHERE guild_id = ? AND game = ? AND rated = 1", [guild_id, game]
        if since is not None:
            sql, args = sql + " AND finished_at >= ?", [*args, since]
        return [_result(r) for r in await self._all(sql + " ORDER BY seq, seat", args)]

    async def games_with_ratings(self, guild_id: int) -> list[str]:
        rows = await self._all("SELECT DISTINCT game FROM results WHERE guild_id = ? AND rated = 1 ORDER BY game",
                               (guild_id,))
        return [r["game"] for r in rows]

    async def rebuild(self, guild_id: int, now: float) -> tuple[int, int]:
        """Every rating of the server recomputed from its stored results, in the order its games ended (the rating
        rows and each result's before/after are rewritten); returns (games, players) rated."""
        async with self.db.transaction() as conn:
            async with conn.execute("SELECT * FROM results WHERE guild_id = ? AND rated = 1 ORDER BY seq, seat",
                                    (guild_id,)) as cur:
                rows = [_result(r) for r in await cur.fetchall()]
            await run(conn, "DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            replays: dict[str, Replay] = {}  # by game
            updates = []
            tables = by_table(rows)
            for seats in tables:
                before, after = replays.setdefault(seats[0].game, Replay()).play([(s.player, s.place) for s in seats])
                for s in seats:
                    b = before.get(s.player, Skill())
                    a = after[s.player]
                    updates.append((b.mu, b.sigma, a.mu, a.sigma, s.table_id, s.seat))
            await run_many(conn, "UPDATE results SET mu_before = ?, sigma_before = ?, mu_after = ?, sigma_after = ? "
                                   "WHERE table_id = ? AND seat = ?", updates)
            await run_many(conn,
                "INSERT INTO ratings (guild_id, game, player, mu, sigma, games, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(guild_id, g, p, s.mu, s.sigma, r.games[p], now) for g, r in sorted(replays.items())
                 for p, s in sorted(r.skills.items())])
            return len(tables), len({p for r in replays.values() for p in r.skills})
