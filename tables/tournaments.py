"""Tournaments through the table service: create, sign up, start, open each round's games, drop, cancel, standings.

The tournament itself is a pure value (:mod:`community.tournament`) stored as JSON with a version
(:mod:`storage.tournaments`). A round's games are owed rows until the Discord layer has made each a thread and
:meth:`Tournaments.open_game` starts it there (claiming the row in the same write: exactly once). A game's end reports
to the tournament in the transaction that ends it, which also pairs the next round when it completes one; the posts
a tournament owes its channel (its card, a round's pairings, standings, the final) are kept until delivered.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from community.tournament import Final, Format, Round, Settings, Tournament, TournamentError
from community.views import BracketMatch, StandingRow, StandingsView
from engine.base import GameError
from engine.text import players
from storage import ChannelBusy, StaleVersion
from storage.tournaments import CANCELLED, RUNNING, SIGNUP, OwedGame, OwedPost, TournamentRow, TournamentStore
from tables.core import Core
from tables.lobby import CLOCKS, Lobby, clock_text, parse_options, split_clock, split_rated
from tables.outcome import Actor, Board, Outcome, Post, Refusal, StaleButton
from tables.play import Play
from tables.presenter import timeout_words

log = logging.getLogger(__name__)

COLOUR_TOURNAMENT = 0xC27C0E
FORMATS = {"swiss": Format.SWISS, "roundrobin": Format.ROUND_ROBIN, "elimination": Format.ELIMINATION,
           "arena": Format.ARENA}
TIEBREAK_WORDS = {"buchholz": "Buchholz", "sonneborn_berger": "S-B", "head_to_head": "head-to-head"}
_BROKEN = ("Ties broken by Buchholz (opponents' points), then Sonneborn-Berger (the points of those you beat, half of "
           "those you drew), then your games against each other.")
TIES = {  # what orders equal points, by format (the standings' footer)
    Format.SWISS: _BROKEN,
    Format.ROUND_ROBIN: _BROKEN,
    Format.ELIMINATION: "Placed by the round reached: a win goes through, a drawn game is replayed.",
    Format.ARENA: "Ranked by score (each round, everyone plays the same deal); equal scores share a place.",
}
FORMAT_WORDS = {Format.SWISS: "Swiss", Format.ROUND_ROBIN: "round robin", Format.ELIMINATION: "single elimination",
                Format.ARENA: "solo arena (everyone plays the same deal)"}


NAME_CHARS = 80  # a tournament's name, in every post's title (Discord: 256)
MENTIONS = 60  # players a round's post mentions (a message holds 2,000 characters; a mention takes up to 22)
LATE = ("zero", "half", "no")  # late joiners (Swiss and arena): no points for the rounds missed, half a point, none


def split_schedule(options: dict[str, str]) -> tuple[dict[str, str], int | None, int | None]:
    """``round=48h`` (how long a round may last: games still running then end as they stand) and ``signup=24h``
    (sign-ups close and the tournament starts then) out of the options; raises :class:`Refusal`."""
    rest = {k: v for k, v in options.items() if k not in ("round", "signup", "late")}
    out: list[int | None] = []
    for key, what in (("round", "how long a round may last"), ("signup", "how long sign-ups stay open")):
        value = options.get(key, "off").lower()
        if value not in CLOCKS:
            raise Refusal(f"`{key}` ({what}) is one of {', '.join(CLOCKS)}.")
        out.append(CLOCKS[value])
    return rest, out[0], out[1]


def format_words(settings: Settings) -> str:
    words = FORMAT_WORDS[settings.format]
    if settings.format == Format.SWISS:
        words += f", {settings.seats} seats a table" + (f" ({settings.fewest} at the least)"
                                                          if settings.fewest < settings.seats else "")
    return words


class Tournaments:
    """Requests about tournaments; the games themselves are played like any other table."""

    def __init__(self, core: Core, lobby: Lobby, play: Play) -> None:
        self.core = core
        self.lobby = lobby
        self.play = play

    @property
    def store(self) -> TournamentStore:
        return self.core.db.tournaments

    async def row(self, tournament_id: int) -> TournamentRow:
        """The tournament as stored; Refusal when there is none."""
        row = await self.store.get(tournament_id)
        if row is None:
            raise Refusal(f"There is no tournament #{tournament_id}.")
        return row

    async def row_here(self, tournament_id: int, guild_id: int | None) -> TournamentRow:
        """The tournament a member names in a server (a command or a card's button): tournaments are numbered
        across servers, and each belongs to its own; another server's, or one named from a DM, is refused as if it
        did not exist."""
        row = await self.store.get(tournament_id)
        if row is None or row.guild_id != guild_id:
            raise Refusal(f"There is no tournament #{tournament_id} in this server.")
        return row

    async def may_organise(self, guild_id: int | None, manages_server: bool, role_ids: Iterable[int]) -> bool:
        """Whether a member may run tournaments here: Manage Server, or the server's organiser role (``/settings``)."""
        if manages_server:
            return True
        role = await self.core.db.organiser_role(guild_id)
        return role is not None and role in set(role_ids)

    @staticmethod
    def buttons(row: TournamentRow) -> tuple[str, ...]:
        """The card's buttons: Join while sign-ups are open (and while it runs, where the format takes late
        joiners), Leave until it ends (once it runs, it says how to drop out: :meth:`leave`)."""
        if row.status not in (SIGNUP, RUNNING):
            return ()
        join = row.status == SIGNUP or row.tournament.settings.late_joining
        return ("join", "leave") if join else ("leave",)

    async def owing(self) -> set[int]:
        """The tournaments (of this process's shards) that owe a post, or a game not opened yet."""
        owed = {o.tournament_id for o in await self.store.posts_owed()}
        return owed | {g.tournament_id for g in await self.store.all_owed_games()}

    async def thread_of(self, owed: OwedGame) -> int | None:
        """Where a game opened before the process stopped (not started yet) lives: its table's channel."""
        table = await self.core.db.get_table(owed.table_id) if owed.table_id is not None else None
        return table.channel_id if table is not None else None

    async def of_table(self, table_id: int) -> int | None:
        """The tournament a game belongs to, if any."""
        return (await self.core.table(table_id)).tournament_id

    async def posted(self, owed: OwedPost) -> None:
        """An owed post was delivered: it is owed no more."""
        await self.store.delivered(owed.tournament_id, owed.seq, self.core.clock())

    async def card_posted(self, tournament_id: int, message_id: int) -> None:
        """The card's message, edited in place from now on."""
        await self.store.set_message(tournament_id, message_id)

    @staticmethod
    def _organises(row: TournamentRow, actor: Actor, organiser: bool) -> None:
        if actor.user_id != row.organiser_id and not organiser:
            raise Refusal("Only the tournament's organiser (or an organiser of this server) can do that.")

    async def _change(self, row: TournamentRow, t: Tournament, **kw: Any) -> TournamentRow:
        try:
            return await self.store.change(row, t, self.core.clock(), **kw)
        except StaleVersion:
            raise StaleButton("The tournament changed while you clicked; try again.") from None

    # --- create and sign up ------------------------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int, actor: Actor, organiser: bool, game_key: str,
                     fmt: str, seats: int = 0, rounds: int = 0, options_text: str | None = None,
                     name: str = "") -> Outcome:
        """``/tournament create`` (an organiser: Manage Server or the server's organiser role): a tournament open for
        sign-ups, its card owed to ``channel_id``."""
        if guild_id is None:
            raise Refusal("Tournaments belong to a server: create one in a server's channel.")
        if not organiser:
            raise Refusal("Only members with Manage Server, or the server's organiser role, can create tournaments.")
        game = self.core.game(game_key)
        if game.cooperative:  # (Bloc by Bloc's semi-cooperative game too: one everybody loses ranks its seats alike)
            raise Refusal(f"{game.name} is played together against the game: its players share their places (also "
                          "in its semi-cooperative game, when everybody loses), so a tournament can't rank them.")
        if len(name) > NAME_CHARS:
            raise Refusal(f"A tournament's name has at most {NAME_CHARS} characters.")
        if fmt not in FORMATS:
            raise Refusal(f"`format` is one of {', '.join(FORMATS)}.")
        given = parse_options(options_text)
        late = given.get("late", "zero").lower()
        if late not in LATE:
            raise Refusal("`late` is `zero` (a late joiner starts with no points for the rounds missed), `half` (half "
                          "a point for each) or `no` (no late joiners).")
        given, round_seconds, signup_seconds = split_schedule(given)
        rest, clock = split_clock(given)
        rated = split_rated(given)
        try:
            settings = Settings(FORMATS[fmt], seats=seats, rounds=rounds or None, late_join=late != "no",
                                late_points_half=late == "half",
                                min_seats=max(2, game.min_players) if fmt == "swiss" and seats > 2 else None,
                                seed=self.core.seeds())
            options = game.resolve_options(rest, settings.seats)
        except TournamentError as err:
            raise Refusal(str(err)) from None
        except GameError as err:  # a game option that does not exist or suit this many players
            raise Refusal(f"Can't use these options: {err}") from None
        if not game.min_players <= settings.seats <= game.max_players:
            raise Refusal(f"{game.name} seats {players(game.min_players, game.max_players)}; a table of "
                          f"{settings.seats} can't play it.")
        if clock is None:  # its games get the server's default turn clock, as a lobby's do: none waits for ever
            clock = await self.lobby.server_clock(guild_id)
        seconds, policy = clock or (None, "bot")
        tid = await self.store.create(
            guild_id=guild_id, channel_id=channel_id, name=name or f"{game.name} {FORMAT_WORDS[settings.format]}",
            game=game.key, options=options, organiser=(actor.user_id, actor.name),
            state=Tournament.new(settings).dump(), now=self.core.clock(), turn_seconds=seconds, on_timeout=policy,
            rated=rated is not False, round_seconds=round_seconds,
            signup_until=self.core.clock() + signup_seconds if signup_seconds else None)
        log.info("tournament %s created in guild %s by %s", tid, guild_id, actor.user_id)
        return Outcome(reply=f"Tournament #{tid} is open for sign-ups.", tournament_id=tid)

    def card(self, row: TournamentRow) -> Post:
        """The sign-up card: what, how, who has joined; its Join/Leave buttons while sign-ups are open."""
        t = row.tournament
        game = self.core.game(row.game)
        players = [row.name_of(p) for p in t.players if not t.players[p].dropped]
        rounds = t.settings.rounds or t.planned_rounds or (1 if t.settings.format == Format.ARENA else None)
        status = {SIGNUP: "Sign-ups are open: join below.", RUNNING: f"Round {len(t.rounds)} is being played.",
                  "finished": "Finished.", CANCELLED: "Cancelled."}[row.status]
        if row.paused:
            status += " Paused by the organiser."
        schedule = []
        if row.turn_seconds:
            schedule.append(f"turn clock {clock_text(row.turn_seconds)}, then "
                            f"{timeout_words(row.on_timeout, game.skippable)}")
        if row.round_seconds:
            schedule.append(f"a round lasts at most {clock_text(row.round_seconds)}")
        if row.status == SIGNUP and row.signup_until:
            schedule.append(f"sign-ups close <t:{int(row.signup_until)}:R> and it starts then")
        if t.settings.late_joining:
            schedule.append("late joiners welcome" + (" (half a point a round missed)" if t.settings.late_points_half
                                                      else ""))
        schedule.append("rated" if row.rated else "unrated")
        planned = f"{rounds} round{'s' * (rounds != 1)}" if rounds else "rounds: as the field needs"
        desc = (f"**{game.name}** · {format_words(t.settings)} · {planned}\n{' · '.join(schedule)}\n"
                f"{status}")
        return Post(title=f"🏆 {row.name} · tournament #{row.id}", description=desc, colour=COLOUR_TOURNAMENT,
                    fields=[(f"Players ({len(players)})", ", ".join(players)[:1000] or "nobody yet")],
                    footer=f"Organiser: {row.name_of(row.organiser_id)}")

    async def join(self, tournament_id: int, actor: Actor) -> Outcome:
        row = await self.row(tournament_id)
        if row.status not in (SIGNUP, RUNNING):
            raise Refusal("This tournament is over.")
        t = row.tournament
        rating = await self.core.db.records.rating(row.guild_id, row.game, str(actor.user_id))
        rnd = t.current_round if row.status == RUNNING else None
        tables = len(rnd.tables) if rnd is not None else 0
        if rnd is not None and not rnd.complete and t.settings.format == Format.ARENA and \
                row.round_deadline is not None and row.round_deadline <= self.core.clock():
            raise Refusal("This round's time is up: there is no game of it left to join.")
        try:
            t.join(actor.user_id, rating.skill.conservative if rating else None)
        except TournamentError as err:
            raise Refusal(_said(err, actor)) from None
        # an arena's late joiner plays the open round's deal at a table of their own: its game is owed now
        added = (rnd.number, rnd.tables[-1].number) if rnd is not None and len(rnd.tables) > tables else None
        row = await self._change(row, t, names={**row.names, actor.user_id: actor.name}, posts=[("card", 0)],
                                 late_table=added)
        late = "" if row.status != RUNNING else " Your game of this round opens in its thread." if added else \
            " You play from the next round."
        return Outcome(reply=f"You joined {row.name}.{late}")

    async def leave(self, tournament_id: int, actor: Actor) -> Outcome:
        """The card's Leave: before the start a player leaves (:meth:`drop`, on the same reading: had it started
        meanwhile, the change is refused, never turned into a drop). Once it runs, leaving is a drop for good that
        also resigns a game still running: a click could be a slip, so it only says how (the command)."""
        row = await self.row(tournament_id)
        if row.status != RUNNING:
            return await self._drop(row, actor, actor, organiser=False)
        player = row.tournament.players.get(actor.user_id)
        if player is None:
            raise Refusal(f"{actor.name} is not in this tournament.")
        if player.dropped:
            raise Refusal(f"{actor.name} has already dropped out.")
        return Outcome(reply=f"{row.name} is running: leaving now drops you out for good, and a game of yours still "
                             f"running is resigned. To do that, use `/tournament drop tournament:{row.id}`.")

    # --- running it ------------------------------------------------------------------------------------
    async def start(self, tournament_id: int, actor: Actor, organiser: bool) -> Outcome:
        """The organiser starts it: the first round is paired, its games owed (each opens in its own thread)."""
        row = await self.row(tournament_id)
        self._organises(row, actor, organiser)
        if row.status != SIGNUP:
            raise Refusal("This tournament has already started or is over.")
        t = row.tournament
        try:
            first = t.pair_next_round()
        except TournamentError as err:
            raise Refusal(str(err)) from None
        row = await self._change(row, t, posts=[("card", 0)], pairing=first)
        log.info("tournament %s started: %d players", row.id, len(t.players))
        return Outcome(reply="The tournament has started: round 1's games are opening.")

    async def owed_games(self, tournament_id: int) -> list[tuple[OwedGame, str]]:
        """The games the tournament owes, each with the name of the thread it opens in."""
        row = await self.row(tournament_id)
        game = self.core.game(row.game)
        out = []
        for owed in await self.store.owed_games(tournament_id):
            again = f" (game {owed.game})" if owed.game > 1 else ""
            out.append((owed, f"{game.name} · T{tournament_id} round {owed.round} table {owed.number}{again}"[:100]))
        return out

    async def open_game(self, owed: OwedGame, channel_id: int) -> Outcome:
        """A game the tournament owes, started in ``channel_id`` (the thread made for it) with its players in their
        seats: the table is made with its seats and claims the owed row in one write (a game opens once), then starts.
        A game opened before the process stopped, not yet started (``owed.table_id``), is started where it is."""
        row = await self.row(owed.tournament_id)
        t = row.tournament
        rnd = t.rounds[owed.round - 1]
        seats = rnd.table(owed.number).seats
        names = [row.name_of(p) for p in seats]
        if owed.table_id is not None:
            tid = owed.table_id
        else:
            try:
                tid = await self.core.db.create_table(
                    guild_id=row.guild_id, channel_id=channel_id, game=row.game, options=row.options,
                    host_id=seats[0], host_name=names[0], now=self.core.clock(),
                    clock=(row.turn_seconds, row.on_timeout), rated=row.rated,
                    tournament=(row.id, owed.round, owed.number, owed.game),
                    seats=[(p, n, None) for p, n in zip(seats, names, strict=True)])
            except (StaleVersion, ChannelBusy):  # (claimed by another delivery, or its thread holds its game)
                raise OpenedAlready("That game is open already.") from None
        seed = rnd.game_seed if t.settings.format == Format.ARENA else None
        out = await self.lobby.start(tid, Actor(seats[0], names[0]), seed=seed)
        out.lobby = None  # a tournament game has no lobby card
        if out.public:  # its players are called to their game in its thread (which also adds them to it)
            first = out.public[0]
            again = f" (game {owed.game})" if owed.game > 1 else ""
            first.content = (" ".join(f"<@{p}>" for p in seats) + f" — your game of round {owed.round}{again} of "
                             f"{row.name}. " + first.content).strip()[:2000]
            first.mention_ids = list(dict.fromkeys([*seats, *first.mention_ids]))
        return out

    async def drop(self, tournament_id: int, actor: Actor, target: Actor, organiser: bool) -> Outcome:
        """A player drops (themselves, or by the organiser): never paired again; a game of theirs still running is
        resigned. Before the start, they leave the sign-ups."""
        return await self._drop(await self.row(tournament_id), actor, target, organiser)

    async def _drop(self, row: TournamentRow, actor: Actor, target: Actor, organiser: bool) -> Outcome:
        if target.user_id != actor.user_id:
            self._organises(row, actor, organiser)
        if row.status not in (SIGNUP, RUNNING):
            raise Refusal("The tournament is over.")
        t = row.tournament
        try:
            t.drop(target.user_id)
        except TournamentError as err:
            raise Refusal(_said(err, target)) from None
        row = await self._change(row, t, posts=[("card", 0)])
        yourself = target.user_id == actor.user_id
        if row.status == SIGNUP:  # before the start, dropping is leaving the sign-ups (or being taken off them)
            return Outcome(reply=f"You left {row.name}." if yourself else
                           f"{target.name} is off {row.name}'s sign-ups.")
        out = Outcome(reply=f"{'You' if yourself else target.name} dropped out of {row.name}.")
        for resigned in await self.resign_dropped(row.id, {target.user_id: target.name}):
            resigned.reply = out.reply
            return resigned
        return out

    async def resign_dropped(self, tournament_id: int, names: dict[int, str] | None = None) -> list[Outcome]:
        """Games of the current round still running with a player who dropped out: that player resigns (a drop and
        its resignation are two writes; a process that stops between them finishes the second here, on the tick)."""
        row = await self.row(tournament_id)
        t = row.tournament
        if row.status != RUNNING or not t.rounds:
            return []
        dropped = {p for p, player in t.players.items() if player.dropped}
        outs = []
        for owed in await self.store.games(row.id, len(t.rounds)):
            table = await self.core.db.get_table(owed.table_id) if owed.table_id else None
            if table is None or table.status != "active":
                continue
            for seat in table.seats:
                if seat.user_id in dropped and not seat.resigned:
                    name = (names or {}).get(seat.user_id, row.name_of(seat.user_id))
                    outs.append(await self.play.resign(table.channel_id, Actor(seat.user_id, name)))
                    break
        return outs

    async def cancel(self, tournament_id: int, actor: Actor, organiser: bool) -> Outcome:
        row = await self.row(tournament_id)
        self._organises(row, actor, organiser)
        if row.status not in (SIGNUP, RUNNING):
            raise Refusal("This tournament is over already.")
        row = await self._change(row, row.tournament, status=CANCELLED, posts=[("card", 0), ("cancelled", 0)])
        return Outcome(reply=f"{row.name} is cancelled; games still being played go on, but no longer count for it.")

    async def report(self, tournament_id: int, actor: Actor, organiser: bool, table: int, places: str,
                     round_number: int | None = None, override: bool = False) -> Outcome:
        """``/tournament report``: the organiser gives a table's result (``places`` per seat, e.g. ``1,2`` or
        ``2,1,1``): an adjudication of a game not finished, or (``override``) a new result for one that has one. The
        game itself, if still running, goes on but no longer counts."""
        row = await self.row(tournament_id)
        self._organises(row, actor, organiser)
        if row.status != RUNNING:
            raise Refusal("The tournament isn't running.")
        t = row.tournament
        number = round_number or len(t.rounds)
        try:
            ranks = tuple(int(x) for x in places.replace(" ", "").split(","))
        except ValueError:
            raise Refusal("Places look like `1,2` (seat 1 first, seat 2 second) or `2,1,1`.") from None
        try:
            if not 1 <= number <= len(t.rounds):
                raise Refusal(f"There is no round {number} yet.")
            done = t.rounds[number - 1].table(table).result
            if done is not None and not override:
                had = ",".join(str(p) for p in done.places)
                raise Refusal(f"Round {number}, table {table} already has a result ({had}); add `override:True` to "
                              "replace it.")
            if t.settings.format == Format.ARENA:
                raise Refusal("An arena's games report their own scores.")
            t.report(table, ranks, round_number=number, override=done is not None)
        except TournamentError as err:
            raise Refusal(str(err)) from None
        games = [g for g in await self.store.games(row.id, number) if g.number == table]
        row = await self._change(row, t, posts=[("card", 0)], reported_at=(number, table, games[-1].game
                                                                           if games else 1))
        what = "overridden" if done else "recorded"
        return Outcome(reply=f"Round {number}, table {table}: result {what} ({places}).")

    async def pause(self, tournament_id: int, actor: Actor, organiser: bool) -> Outcome:
        """``/tournament pause``: the round's deadline stops and no new round opens until ``/tournament pause`` again
        resumes it (with the time the round had left)."""
        row = await self.row(tournament_id)
        self._organises(row, actor, organiser)
        if row.status != RUNNING:
            raise Refusal("The tournament isn't running.")
        t = row.tournament
        if not row.paused:
            await self._change(row, t, pause=True, posts=[("card", 0)])
            return Outcome(reply=f"{row.name} is paused: the round's deadline has stopped and no new round opens. "
                                 "`/tournament pause` again resumes it.")
        current = t.current_round
        pairing = t.pair_next_round() if current is not None and current.complete else None
        posts = [("card", 0)] + ([("standings", current.number)] if pairing is not None and current else [])
        await self._change(row, t, pause=False, pairing=pairing, posts=posts)
        return Outcome(reply=f"{row.name} resumes." + (" The next round is paired." if pairing else ""))

    async def expire(self) -> list[Outcome]:
        """On the clock's tick: tournaments whose sign-ups close now start (or are cancelled when too few joined), and
        a round whose deadline passed ends its games still running as they stand."""
        outs = []
        for row in await self.store.due(self.core.clock()):
            try:
                if row.status == SIGNUP:
                    outs.append(await self._close_signups(row))
                else:
                    outs += await self._round_over(row)
            except StaleButton:  # a change got there first (a request, or another process whose shards overlap this
                # one's and which handled the same deadline, telling it): this one is not stored, and says nothing
                log.info("tournament %s: its deadline lost to a change made meanwhile", row.id)
            except Exception:  # one tournament that can't keeps none of the others from theirs
                log.exception("tournament %s: its deadline could not be handled", row.id)
        return outs

    async def _close_signups(self, row: TournamentRow) -> Outcome:
        t = row.tournament
        try:
            first = t.pair_next_round()
        except TournamentError as err:
            await self._change(row, t, status=CANCELLED, posts=[("card", 0), ("unfilled", 0)])
            log.info("tournament %s: sign-ups closed, cancelled: %s", row.id, err)
            return Outcome(tournament_id=row.id)
        await self._change(row, t, posts=[("card", 0)], pairing=first)
        return Outcome(tournament_id=row.id)

    async def _round_over(self, row: TournamentRow) -> list[Outcome]:
        """The round's time is up: each of its games still running ends as it stands (its standings by the game's
        scores; a player who left ranks last), which reports it and, with the last, pairs the next round."""
        outs = []
        number = len(row.tournament.rounds)
        for owed in await self.store.games(row.id, number):
            table = await self.core.db.get_table(owed.table_id) if owed.table_id else None
            if table is None or table.status != "active":
                continue
            async with self.core.locks[table.id]:
                table = await self.core.table(table.id)
                if table.status != "active":
                    continue
                sit = self.core.situation(table, self.core.game(table.game))
                result = self.core.standings(table, sit)
                result["reason"] = "the round's time ran out: the game ends as it stands"
                note = f"Round {number} of {row.name} is over: this game ends as it stands."
                try:
                    table = await self.core.db.end_game(table.id, table.version, result, self.core.clock(), note)
                except StaleVersion:
                    continue  # a move got there first: the next tick looks again
                await self.core.schedule_archive(table)
                outs.append(Outcome(public=[await self.play.presenter.board_post(table, sit, [], note)],
                                    table_id=table.id, channel_id=table.channel_id, outbox=(table.id, table.version)))
        fresh = await self.row(row.id)
        if fresh.round_deadline is not None and fresh.round_deadline <= self.core.clock() and \
                len(fresh.tournament.rounds) == number:  # nothing left to end (games not opened): no new deadline
            async with self.core.db.transaction() as conn:
                await (await conn.execute("UPDATE tournaments SET round_deadline = NULL WHERE id = ?",
                                          (row.id,))).close()
        return outs

    # --- what it tells ---------------------------------------------------------------------------------
    async def round_post(self, tournament_id: int, number: int) -> Post:
        """A round's pairings: each table's players (mentioned) and where their game is."""
        row = await self.row(tournament_id)
        t = row.tournament
        rnd = t.rounds[number - 1]
        where = {g.number: g.table_id for g in await self.store.games(row.id, number)}
        lines = []
        for table in rnd.tables:
            table_id = where.get(table.number)
            game_table = await self.core.db.get_table(table_id) if table_id else None
            at = f" · <#{game_table.channel_id}>" if game_table else ""
            lines.append(f"**Table {table.number}**: " + " v ".join(f"<@{p}>" for p in table.seats) + at)
        lines += [f"Bye (counts as a win): <@{p}>" for p in rnd.byes]
        lines += [f"Sits this round out: <@{p}>" for p in rnd.rests]
        players = [p for table in rnd.tables for p in table.seats] + list(rnd.byes) + list(rnd.rests)
        skippable = self.core.game(row.game).skippable
        clock = f" Turn clock: {clock_text(row.turn_seconds)}, then {timeout_words(row.on_timeout, skippable)}." \
            if row.turn_seconds else ""
        shown = players[:MENTIONS]  # (each player is mentioned in their game's thread as well)
        more = f" and {len(players) - len(shown)} more (each is mentioned in their game's thread)" \
            if len(players) > len(shown) else ""
        return Post(content=" ".join(f"<@{p}>" for p in shown) + more + f" — round {number} of {row.name} is on.",
                    title=f"🏆 {row.name} · round {number}", description=_fit(lines),
                    colour=COLOUR_TOURNAMENT, mention_ids=players, footer="Your game is in its thread." + clock)

    async def standings(self, tournament_id: int, final: bool = False, after: int | None = None) -> Post:
        """The standings with their tie-breaks (the final names the winners and what decided the places); ``after``:
        the round they follow (the games of a round still open never count)."""
        row = await self.row(tournament_id)
        t = row.tournament
        tiebreaks = t.settings.format in (Format.SWISS, Format.ROUND_ROBIN)  # (the others never use them)
        arena = t.settings.format == Format.ARENA
        lines = []
        for s in t.standings():
            # (what put this player below the one above, on equal points: the picture's words)
            why = f" (placed by {TIEBREAK_WORDS.get(s.decided_by.value, s.decided_by.value)})" if s.decided_by and \
                s.decided_by.value != "points" else ""
            gone = " (dropped)" if s.dropped else ""
            points = f"score {_number(s.points)}" if arena else f"{_number(s.points)} pt{'s' * (s.points != 1)}"
            breaks = f" · Buchholz {_number(s.buchholz)} · S-B {_number(s.sonneborn_berger)}" if tiebreaks else ""
            lines.append(f"`{s.place:>2}.` **{row.name_of(s.player)}**{gone} · {points}{breaks}{why}")
        played = after if after is not None else sum(1 for r in t.rounds if r.complete)
        if not played and not final:  # (before a round is played everybody would read "1.")
            lines = []
        title = f"🏆 {row.name} · " + ("final standings" if final else
                                      f"standings after round {played}" if played else "standings")
        content = ""
        if final:
            winners = t.winners()
            content = "🏆 " + " and ".join(f"<@{p}>" for p in winners) + \
                (" win " if len(winners) > 1 else " wins ") + f"{row.name}!"
        board = await self._standings_picture(row, t, final, played) if lines else None
        return Post(content=content, title=title, description=_fit(lines) or "No round has been played yet.",
                    colour=COLOUR_TOURNAMENT, mention_ids=list(t.winners()) if final else [], board=board,
                    footer=TIES[t.settings.format])

    async def _standings_picture(self, row: TournamentRow, t: Tournament, final: bool, played: int) -> Board | None:
        """The standings (an elimination's bracket too) as a picture, drawn off the event loop; None without
        pictures, or when drawing fails (the words say it all)."""
        if not self.core.render_images:
            return None
        rows = [StandingRow(place=s.place, name=row.name_of(s.player), points=s.points, buchholz=s.buchholz,
                            sonneborn_berger=s.sonneborn_berger, games=s.games, dropped=s.dropped,
                            decided_by=s.decided_by.value if s.decided_by else "") for s in t.standings()]
        bracket: list[list[BracketMatch]] = []
        if t.settings.format == Format.ELIMINATION:
            for rnd in t.rounds:
                bracket.append(_bracket_round(rnd, row.name_of))
        view = StandingsView(tournament=row.name, game=self.core.game(row.game).name, format=format_words(t.settings),
                             round=played, rounds=t.planned_rounds, final=final, rows=rows, bracket=bracket,
                             tiebreaks=t.settings.format in (Format.SWISS, Format.ROUND_ROBIN),
                             score=t.settings.format == Format.ARENA)
        try:
            import render.community as drawn  # noqa: PLC0415 - lazy: importing the service draws nothing

            png = await asyncio.to_thread(drawn.render_standings, view)
        except Exception:
            log.exception("could not draw tournament %s's standings", row.id)
            return None
        return Board(png=png, alt=f"{row.name}: standings after round {played}.", filename="standings.png")

    async def owed_posts(self, tournament_id: int | None = None) -> list[tuple[OwedPost, Post]]:
        """What tournaments still owe their channels, each as its post, in order."""
        out = []
        for owed in await self.store.posts_owed(tournament_id):
            row = await self.row(owed.tournament_id)
            if owed.kind == "card":
                post = self.card(row)
            elif owed.kind == "round":
                post = await self.round_post(row.id, owed.round)
            elif owed.kind in ("standings", "final"):
                post = await self.standings(row.id, final=owed.kind == "final", after=owed.round or None)
            elif owed.kind == "replay":
                post = Post(title=f"🏆 {row.name} · round {owed.round} · a drawn game replayed",
                            colour=COLOUR_TOURNAMENT,
                            description="A game was drawn with no winner: its players play another (in a new thread).")
            else:  # cancelled: by its organiser, or (unfilled) when sign-ups closed with too few players
                post = Post(title=f"🏆 {row.name} · tournament #{row.id} cancelled", colour=COLOUR_TOURNAMENT,
                            description="Sign-ups closed with too few players to pair a round, so this tournament "
                                        "was cancelled." if owed.kind == "unfilled" else
                                        "This tournament was cancelled by an organiser.")
            out.append((owed, post))
        return out


def _bracket_round(rnd: Round, name_of: Callable[[int], str]) -> list[BracketMatch]:
    """An elimination round's matches in the order of its slots, two slots a match, as the bracket picture joins
    them (match k of a round is fed by matches 2k and 2k+1 of the one before); each match names its players in slot
    order (the upper first, whatever their seats), a bye with its empty place, two empty slots as an empty match."""
    seated = {p: table for table in rnd.tables for p in table.seats}
    matches = []
    for a, b in zip(rnd.slots[::2], rnd.slots[1::2], strict=True):
        alone = a if b is None else b if a is None else None
        if a is not None and b is not None and (table := seated.get(a)) is not None:
            seat = table.result.winner_seat if table.result else None
            winner = None if seat is None else (0 if table.seats[seat] == a else 1)
            matches.append(BracketMatch(players=[name_of(a), name_of(b)], winner=winner))
        elif alone is not None:  # a bye
            matches.append(BracketMatch(players=[name_of(alone), None], winner=0))
        else:
            matches.append(BracketMatch(players=[None, None], winner=None))
    return matches


def _number(value: float) -> str:
    """Points as the standings picture shows them: "3", "2.5", "1.33" (a table of three or more gives thirds)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def _fit(lines: list[str], limit: int = 4000) -> str:
    """As many whole lines as fit a card's text, then how many more there are (the picture has them all)."""
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > limit - 60:
            out.append(f"… and {len(lines) - i} more (in the picture, and in `/tournament standings`)")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


class OpenedAlready(Refusal):
    """A game the tournament owed was opened meanwhile (by another delivery of it)."""


def _said(err: TournamentError, actor: Actor) -> str:
    """A tournament core's message with the player named."""
    return str(err).replace(f"Player {actor.user_id}", actor.name)


__all__ = ["FORMATS", "Final", "Tournaments", "format_words"]
