"""Community requests: profiles, past games, leaderboards, the server's rating rules and the ratings' rebuild.

Reads of what finished games left behind (:mod:`storage.records`), worked into the views of :mod:`community.views`,
drawn by :mod:`render.community` off the event loop, and said again in words for a text fallback.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from community.ratings import Replay
from community.records import RATE_HANDED, GameResult, RatingRules, Record, record_of
from community.views import BoardRow, GameLine, LeaderboardView, ProfileView
from storage.records import RatingRow, ResultRow, by_table
from tables.core import Core
from tables.outcome import Actor, Board, Outcome, Post, Refusal

log = logging.getLogger(__name__)

COLOUR_COMMUNITY = 0x6D5BD0
PERIODS = {"all": ("all time", None), "month": ("the last 30 days", 30), "week": ("the last 7 days", 7)}
MIN_GAMES = {"all": 5, "month": 3, "week": 2}  # rated games a player needs in the period to be listed
BOARD_ROWS = 25  # players on a leaderboard's picture (and 10 in its words)
TEXT_ROWS = 10
HISTORY_PAGE = 8  # past games per page of /history
PROFILE_GAMES = 5  # games on a profile's picture (the words list them all)
DAY = 86400.0

RATING_HELP = (
    "**How ratings work here**\n"
    "• Every rated game moves the ratings of its players, in each game separately, in this server only. Places count: "
    "the higher you finish, the more you gain, and the last places lose. Your *likely* level moves up for everyone "
    "you finish above and down for everyone above you, and a shared place is a tie.\n"
    "• Your rating is the level we are sure you have reached: it starts at 1,000 and grows as your games show your "
    "level. Beside it, your *likely* level, give or take: the margin shrinks as you play, and once it is small your "
    "rating has *settled*. Until then every game makes us surer of you, so a middling place (or a draw) can still "
    "raise your rating a little. A few lucky games can't put a newcomer on top.\n"
    "• Rated: games between people that ended (normally, by a resignation or by the clock). Not rated: solo games "
    "(BLOCK's ladder), cooperative games (your profile keeps them per faction), cancelled games, tables the host made "
    "unrated (`rated=no`), and, unless `/ratings settings` says otherwise, games with a bot or where a seat was "
    "handed to a bot.\n"
    "• The stored results are what counts: `/ratings rebuild` recomputes every rating from them.\n"
    "• `/profile`, `/history` and `/leaderboard` show them. (The model: openskill's Weng-Lin Plackett-Luce.)"
)


@dataclass(frozen=True)
class HistoryPage:
    """One page of a member's past games, newest first; ``pages`` ≥ 1."""

    user_id: int
    guild_id: int | None
    game: str  # a game's key, or "" for every game
    page: int  # from 1
    pages: int
    post: Post


def player_name(player: str, names: dict[str, str]) -> str:
    """A result's player as a leaderboard names them: the name they last played under, or a bot level's."""
    if player.startswith("bot:"):
        return f"Bot ({player[4:]})"
    return names.get(player, "someone")


def duration_words(seconds: float | None) -> str:
    """An average turn's length in words: "45 s", "4 min", "2 h 10 min", "3 days"."""
    if seconds is None:
        return "—"
    if seconds < 60:
        return f"{round(seconds)} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{round(hours / 24)} days"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def period_ratings(results: Sequence[ResultRow]) -> Replay:
    """Ratings computed afresh from these rated results alone (a period's leaderboard)."""
    replay = Replay()
    for seats in by_table(results):
        replay.play([(s.player, s.place) for s in seats])
    return replay


class Community:
    """Profiles, past games and leaderboards (reads), and the rating rules and rebuild (Manage Server)."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def _picture(self, what: str, view: Any, alt: str) -> Board | None:
        """A profile's or a leaderboard's picture, drawn off the event loop (None without pictures, or when drawing
        fails: the words say it all)."""
        if not self.core.render_images:
            return None
        try:
            import render.community as drawn  # noqa: PLC0415 - lazy: importing the service draws nothing

            png = await asyncio.to_thread(getattr(drawn, f"render_{what}"), view)
        except Exception:
            log.exception("could not draw the %s picture", what)
            return None
        return Board(png=png, alt=alt[:1000], filename=f"{what}.png")

    def _game_name(self, key: str) -> str:
        game = self.core.registry.get(key)
        return game.name if game is not None else key

    def _game_key(self, text: str | None) -> str | None:
        """A game named by key or name (None for none); raises :class:`Refusal` for one we don't have."""
        if not text:
            return None
        for game in self.core.registry.all():
            if text.lower() in (game.key, game.name.lower()):
                return game.key
        names = ", ".join(f"`{g.key}`" for g in self.core.registry.all())
        raise Refusal(f"There is no game called `{text}`. Games: {names}.")

    # --- the server's rating rules ---------------------------------------------------------------
    async def rating_settings(self, guild_id: int | None, can_manage_server: bool, rate_bots: bool | None = None,
                              rate_handed: str | None = None) -> Outcome:
        """``/ratings settings``: whether games against bots are rated and what a seat handed to a bot does (Manage
        Server to change; anyone may read them)."""
        if guild_id is None:
            raise Refusal("Ratings belong to a server: use this in one.")
        rules = await self.core.db.records.rules(guild_id)
        if rate_bots is not None or rate_handed is not None:
            if not can_manage_server:
                raise Refusal("Only members with Manage Server can change how this server rates games.")
            if rate_handed is not None and rate_handed not in RATE_HANDED:
                raise Refusal("`handed` is `unrated` (a game where a seat was handed to a bot is not rated) or "
                              "`stayed` (it is rated for the people who stayed).")
            rules = RatingRules(rules.rate_bots if rate_bots is None else rate_bots,
                                rules.rate_handed if rate_handed is None else rate_handed)
            await self.core.set_rating_rules(guild_id, rules)
        bots = ("Games against bots **are rated**: each bot level is one player on the leaderboard." if rules.rate_bots
                else "Games against bots **are not rated**.")
        handed = ("A game where a player's seat was handed to a bot is **rated for the people who stayed**."
                  if rules.rate_handed == "stayed" else
                  "A game where a player's seat was handed to a bot is **not rated**.")
        return Outcome(reply=f"{bots} {handed} A host makes a table unrated with `rated=no` in its options. Solo and "
                             "fully cooperative games are not rated: `/profile` keeps their records. Semi-cooperative "
                             "games are rated like any other, the winners above the others, when a faction wins (one "
                             "everybody loses moves no rating).")

    async def rebuild(self, guild_id: int | None, can_manage_server: bool) -> Outcome:
        """``/ratings rebuild``: every rating of the server recomputed from its stored results."""
        if guild_id is None:
            raise Refusal("Ratings belong to a server: use this in one.")
        if not can_manage_server:
            raise Refusal("Only members with Manage Server can rebuild the ratings.")
        games, players = await self.core.db.records.rebuild(guild_id, self.core.clock())
        log.info("ratings of guild %s rebuilt: %d games, %d players", guild_id, games, players)
        return Outcome(reply=f"Ratings rebuilt from {games} rated game{'s' * (games != 1)}: {players} "
                             f"player{'s' * (players != 1)} rated.")

    # --- profile ---------------------------------------------------------------------------------
    async def profile(self, guild_id: int | None, server: str, member: Actor) -> Outcome:
        """``/profile``: a member's record in each game they played in this server, with their ratings."""
        if guild_id is None:
            raise Refusal("Profiles belong to a server: use `/profile` in one (`/history` works here).")
        records = self.core.db.records
        mine = await records.results_of_user(member.user_id, guild_id)
        if not mine:
            return Outcome(reply=f"{member.name} has no finished games in this server yet.")
        others = await records.tables_results(sorted({r.table_id for r in mine}))
        by_game: dict[str, list[ResultRow]] = {}
        for r in mine:
            by_game.setdefault(r.game, []).append(r)
        lines: list[GameLine] = []
        for key, rows in sorted(by_game.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(await self._game_line(guild_id, key, rows, others, str(member.user_id)))
        view = ProfileView(name=member.name, server=server, games=lines)
        text = "\n\n".join(_line_words(g) for g in lines)
        board = await self._picture("profile", view, f"{member.name}'s profile. " + text.replace("**", ""))
        return Outcome(reply_post=Post(title=f"{member.name} · {server}", description=text[:4000],
                                       colour=COLOUR_COMMUNITY, board=board,
                                       footer="Only you can see this. /history for the games themselves."))

    async def _game_line(self, guild_id: int, key: str, rows: list[ResultRow], tables: dict[int, list[ResultRow]],
                         player: str) -> GameLine:
        results = [GameResult(r.table_id, r.place, r.seats, r.outcome, r.rated, r.finished_at,
                              tuple((o.player, o.name, o.place) for o in tables.get(r.table_id, [])
                                    if o.seat != r.seat and not o.player.startswith("bot:")),
                              r.turns, r.turn_seconds, r.cooperative) for r in rows]
        rec: Record = record_of(results)
        rating = await self.core.db.records.rating(guild_id, key, player)
        rank = None
        if rating is not None:
            board = self._ranked(await self.core.db.records.ratings(guild_id, key), MIN_GAMES["all"])
            rank = next((i + 1 for i, row in enumerate(board) if row.player == player), None)
        return GameLine(game=self._game_name(key), games=rec.games, versus=rec.versus, wins=rec.wins,
                        places=list(rec.places),
                        rating=rating.skill.shown if rating else None, likely=rating.skill.likely if rating else None,
                        give_or_take=rating.skill.give_or_take if rating else None,
                        settled=bool(rating and rating.skill.settled), rank=rank, best_streak=rec.best_streak,
                        seconds_per_turn=rec.seconds_per_turn, opponents=list(rec.opponents),
                        extra=_extra(rows))

    @staticmethod
    def _ranked(ratings: Sequence[RatingRow], min_games: int) -> list[RatingRow]:
        """Ratings with enough games, best first (ties by identity, so the order is stable)."""
        return sorted((r for r in ratings if r.games >= min_games), key=lambda r: (-r.skill.conservative, r.player))

    # --- past games --------------------------------------------------------------------------------
    async def past_games(self, guild_id: int | None, member: Actor, game: str | None = None,
                         page: int = 1, asker_id: int | None = None) -> HistoryPage:
        """``/history``: a member's finished games, newest first, a page at a time: each with its result, rating
        change, a link to its thread and how to replay it. In a server, that server's games; in DMs (``guild_id``
        None), every server's, and only the asker's own (``asker_id``): another member's games elsewhere are theirs."""
        if guild_id is None and asker_id is not None and member.user_id != asker_id:
            raise Refusal("Outside a server you can list only your own games; ask in a server you share for "
                          "someone else's.")
        key = self._game_key(game)
        records = self.core.db.records
        total = await records.count_of_user(member.user_id, guild_id, key)
        pages = max(1, -(-total // HISTORY_PAGE))
        page = min(max(1, page), pages)
        rows = await records.results_of_user(member.user_id, guild_id, key, limit=HISTORY_PAGE,
                                             offset=(page - 1) * HISTORY_PAGE, newest_first=True)
        tables = await records.tables_results([r.table_id for r in rows])
        where = "this server" if guild_id is not None else "any server"
        title = f"{member.name}'s games" + (f" of {self._game_name(key)}" if key else "")
        if not rows:
            text = f"No finished games{' of ' + self._game_name(key) if key else ''} in {where} yet."
        else:
            text = "\n".join(self._history_line(r, tables.get(r.table_id, [])) for r in rows)
        post = Post(title=title, description=text[:4000], colour=COLOUR_COMMUNITY,
                    footer=f"Page {page} of {pages} · {total} game{'s' * (total != 1)} · newest first")
        return HistoryPage(member.user_id, guild_id, key or "", page, pages, post)

    def _history_line(self, r: ResultRow, seats: list[ResultRow]) -> str:
        others = ", ".join(o.name for o in seats if o.seat != r.seat)
        if r.cooperative:
            how = "won together" if r.outcome != "loss" else "lost together"
        elif r.seats == 1:
            how = f"scored {_num(r.score)}" + (f" ({r.rung})" if r.rung else "")
        elif r.seats == 2:  # (two players: a win, a draw or a loss, not "2nd of 2")
            how = {"win": "won", "shared win": "drew"}.get(r.outcome, "lost")
        else:
            how = {"win": "won", "shared win": "shared the win"}.get(r.outcome, f"{ordinal(r.place)} of {r.seats}")
        if r.left_how:
            how += f" ({r.left_how})"
        change = ""
        before, after = r.skill_before, r.skill_after
        if before is not None and after is not None:
            delta = after.shown - before.shown
            change = f" · rating {after.shown:,} ({'+' if delta >= 0 else '−'}{abs(delta)})"
        link = f"https://discord.com/channels/{r.guild_id if r.guild_id is not None else '@me'}/{r.channel_id}"
        with_ = f" · with {others}" if others else " · solo"
        return (f"**{self._game_name(r.game)}** <t:{int(r.finished_at)}:d> · {how}{with_}{change}\n"
                f"  [thread]({link}) · `/replay table:{r.table_id}`")

    # --- leaderboards ------------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int | None, server: str, game: str, period: str, asker: Actor) -> Outcome:
        """``/leaderboard``: the server's best players of a game (all time, or rated afresh from the last 30 or 7
        days' games), with the asker's own rank below when they are not among them."""
        if guild_id is None:
            raise Refusal("Leaderboards belong to a server: use this in one.")
        key = self._game_key(game)
        assert key is not None
        if period not in PERIODS:
            raise Refusal("`period` is `all`, `month` or `week`.")
        words, days = PERIODS[period]
        least = MIN_GAMES[period]
        records = self.core.db.records
        since = None if days is None else self.core.clock() - days * DAY
        results = await records.rated_results(guild_id, key, since)
        names = {r.player: r.name for r in results}  # (in the order games ended: the latest name wins)
        wins: dict[str, int] = defaultdict(int)
        for r in results:
            wins[r.player] += r.outcome != "loss"
        if days is None:
            ratings = await records.ratings(guild_id, key)
        else:
            replay = period_ratings(results)
            ratings = [RatingRow(p, s, replay.games[p]) for p, s in replay.skills.items()]
        ranked = self._ranked(ratings, least)
        me = str(asker.user_id)

        def row(i: int, r: RatingRow) -> BoardRow:
            return BoardRow(rank=i + 1, name=player_name(r.player, names), rating=r.skill.shown, games=r.games,
                            wins=wins.get(r.player, 0), bot=r.player.startswith("bot:"), you=r.player == me)

        rows = [row(i, r) for i, r in enumerate(ranked[:BOARD_ROWS])]
        you = None
        mine = next((i for i, r in enumerate(ranked) if r.player == me), None)
        if mine is not None and mine >= BOARD_ROWS:
            you = row(mine, ranked[mine])
        view = LeaderboardView(game=self._game_name(key), server=server, period=words, min_games=least, rows=rows,
                               you=you)
        lines = [_board_words(r) for r in rows[:TEXT_ROWS]]
        if mine is not None and mine >= TEXT_ROWS:
            lines += ["…", _board_words(row(mine, ranked[mine]))]
        elif mine is None:
            played = next((r.games for r in ratings if r.player == me), 0)
            lines.append(f"\nYou are not listed yet: {played} of the {least} rated games needed in {words}.")
        if not rows:
            lines.insert(0, f"No one has {least} rated games in {words} yet.")
        text = "\n".join(x for x in lines if x)
        board = await self._picture("leaderboard", view, f"{view['game']} leaderboard, {words}. " +
                                    text.replace("**", ""))
        return Outcome(reply_post=Post(title=f"{view['game']} leaderboard · {words}", description=text[:4000],
                                       colour=COLOUR_COMMUNITY, board=board,
                                       footer=f"Ranked by rating (the level each player has surely reached); at least "
                                              f"{least} rated games in {words}."))


def _num(x: float | None) -> str:
    if x is None:
        return "—"
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def _extra(rows: Sequence[ResultRow]) -> str:
    """A game's record beyond wins: a solo ladder's best, a cooperative game's wins per faction and setup, a
    semi-cooperative game's wins and how many of them alone (a semi-cooperative game everybody lost among them)."""
    solo = [r for r in rows if r.seats == 1]
    def semi_game(r: ResultRow) -> bool:  # (one that everybody lost is stored as a cooperative loss)
        return "mode=semi" in r.setup.split(", ")

    semi = [r for r in rows if semi_game(r)]
    coop = [r for r in rows if r.cooperative and not semi_game(r)]
    parts = []
    if solo:
        best = max(solo, key=lambda r: r.score if r.score is not None else float("-inf"))
        parts.append(f"Solo: best score {_num(best.score)}" + (f" ({best.rung})" if best.rung else "") +
                     f" in {len(solo)} game{'s' * (len(solo) != 1)}")
    if coop:
        won = sum(1 for r in coop if r.outcome != "loss")
        by_role: dict[str, list[int]] = {}
        for r in coop:
            for role in (r.role.split(" and ") if r.role else ["?"]):
                counts = by_role.setdefault(role, [0, 0])
                counts[0] += r.outcome != "loss"
                counts[1] += 1
        roles = ", ".join(f"{k} {w}/{n}" for k, (w, n) in sorted(by_role.items()))
        setups: dict[str, list[int]] = {}
        for r in coop:
            counts = setups.setdefault(f"{r.seats} players, {_difficulty(r.setup)}", [0, 0])
            counts[0] += r.outcome != "loss"
            counts[1] += 1
        setup = ", ".join(f"{k}: {w}/{n}" for k, (w, n) in sorted(setups.items()))
        parts.append(f"Together: won {won} of {len(coop)} · by faction {roles} · by setup {setup}")
    if semi:
        won = sum(1 for r in semi if r.outcome != "loss")
        lone = sum(1 for r in semi if r.outcome == "win")
        parts.append(f"Semi-cooperative: won {won} of {len(semi)} ({lone} as the only winner)")
    return " · ".join(parts)


def _difficulty(setup: str) -> str:
    for part in setup.split(", "):
        if part.startswith("difficulty="):
            return part.split("=", 1)[1]
    return "standard"


def _line_words(g: GameLine) -> str:
    """A profile's game in words (the picture's text fallback)."""
    if g["rating"] is None:
        rate_text = "no rated games"
    else:
        rate_text = (f"rating **{g['rating']:,}**: the level you have surely reached (likely {g['likely']:,}, give or "
                     f"take {g['give_or_take']:,}; {'settled' if g['settled'] else 'still settling as you play'})")
        if g["rank"]:
            rate_text += f" · #{g['rank']} on the leaderboard"
    places = ", ".join(f"{ordinal(i + 1)} ×{n}" for i, n in enumerate(g["places"]) if n)
    counts = [_plural(g["games"], "game")]
    if g["versus"]:  # (wins count among the games with others: a solo game is no win nor loss)
        pct = round(100 * g["wins"] / g["versus"])
        of = f" of {g['versus']} with others" if g["versus"] != g["games"] else ""
        counts += [f"{_plural(g['wins'], 'win')}{of} ({pct}%)"] + ([places] if places else [])
        counts.append(f"best streak {g['best_streak']}")
    else:
        counts.append("all solo")
    if g["seconds_per_turn"] is not None:
        counts.append(f"{duration_words(g['seconds_per_turn'])} a turn on average")
    out = [f"**{g['game']}** · {rate_text}", " · ".join(counts)]
    if g["opponents"]:
        out.append("Often plays " + ", ".join(f"{n} ({_plural(k, 'game')}, above them {b})"
                                              for n, k, b in g["opponents"]))
    if g["extra"]:
        out.append(g["extra"])
    return "\n".join(out)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _board_words(r: BoardRow) -> str:
    mark = " ← you" if r["you"] else ""
    bot = " (bot)" if r["bot"] and not r["name"].startswith("Bot") else ""
    return (f"`{r['rank']:>3}.` **{r['name']}**{bot} · {r['rating']:,} · {_plural(r['games'], 'game')}, "
            f"{_plural(r['wins'], 'win')}{mark}")
