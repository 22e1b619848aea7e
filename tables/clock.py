"""The turn clock: turns whose time ran out are played out as the table says (a bot plays, the default is taken,
or the late player forfeits), reminders at half time and near the end, pauses, vacations (``/away``) and how each
player hears of their turn (``/notify``).
"""

from __future__ import annotations

import logging

from storage import ACTIVE, StaleVersion, TableRow
from storage.db import next_reminder
from tables.core import Core
from tables.outcome import Actor, DirectMessage, Outcome, Post, Refusal, StaleButton
from tables.play import Late, Play, Run
from tables.presenter import COLOUR_PLAY, Presenter, duration_text, timeout_words
from tables.situation import Situation

log = logging.getLogger(__name__)


class TurnClock:
    """The turn clock: late turns played out as the table says, reminders, pauses, vacations and how players hear
    of their turn."""

    def __init__(self, core: Core, presenter: Presenter, play: Play) -> None:
        self.core = core
        self.presenter = presenter
        self.play = play

    async def expire(self) -> list[Outcome]:
        """Play out the turns whose clock ran out (due deadlines, by the index), as the table's setting says: a bot
        plays the late seats' turn (``bot``), or the game's default move where it has one (``skip``), or the
        late players forfeit and a bot keeps their seat (``forfeit``). Also catches up after a restart."""
        return (await self.expire_some(100))[1]

    async def expire_some(self, limit: int) -> tuple[int, list[Outcome]]:
        """:meth:`expire` for the ``limit`` most overdue turns: (how many were due, what those played out owe). The
        clock's tick asks a few at a time and posts them before asking again, so that a restart after a long stop
        plays its late turns in the background while requests go on."""
        outs = []
        # this process's late tables (its shards'), each claimed in the database: another process never times out
        # the same turn (storage.db.Database.claim_due)
        due = await self.core.db.claim_due(self.core.clock(), limit)
        for table_id in due:
            async with self.core.locks[table_id]:
                table = await self.core.table(table_id)
                if table.status != ACTIVE or table.deadline is None or table.deadline > self.core.clock():
                    continue
                sit = self.core.situation(table, self.core.game(table.game))
                try:
                    if await self._away(table, sit):
                        continue
                    out = await self._time_out(table, sit)
                except (StaleVersion, StaleButton):  # a change got there first (here or in another process, whose
                    # time-out or move is told): this one is not stored, and says nothing
                    log.info("table %s: its time-out lost to a change made meanwhile", table_id)
                    continue
                if out is not None:
                    outs.append(out)
        return len(due), outs

    async def remind(self) -> list[Outcome]:
        """Reminders of due turn clocks (by the index): at half time and near the end, a mention in the game's
        channel for the players still to act (one post per wording: a turn, or a choice owed beside it), or a DM
        for those who chose DMs; not for a player on vacation or over the day's cap."""
        now = self.core.clock()
        outs = []
        # this process's due reminders, claimed (storage.db.Database.claim_reminders): sent by one process only
        claimed, until = await self.core.db.claim_reminders(now)
        for table_id in claimed:
            table = await self.core.table(table_id)
            if table.remind_at != until:  # a move reset the clock since the claim: its own reminder comes later
                continue
            if table.status != ACTIVE or table.deadline is None or table.deadline <= now:
                await self.core.db.set_remind_at(table_id, None)
                continue
            sit = self.core.situation(table, self.core.game(table.game))
            late = [table.seats[p] for p in sorted(sit.to_act)
                    if table.seats[p].user_id is not None and not table.seats[p].resigned]
            away = await self.core.db.away_until([s.user_id for s in late if s.user_id is not None], now)
            late = [s for s in late if s.user_id not in away]  # a player on vacation is not reminded
            left = table.deadline - now
            half_time = table.turn_seconds is not None and left > 0.3 * table.turn_seconds
            await self.core.db.set_remind_at(table_id, next_reminder(table.deadline, now) if half_time else None)
            cap = await self.core.db.reminders_per_day(table.guild_id)
            wanted = [s.user_id for s in late if s.user_id is not None]
            allowed = [u for u in wanted if await self.core.db.take_reminder(u, int(now // 86400), cap, now)]
            notify = {s.user_id: s.notify for s in late}  # (each player's /notify, read with the table)
            modes = {u: notify[u] for u in allowed}  # over their daily cap, a player is not reminded
            if not modes:
                continue
            # asked a question whose asking is secret (Decision.unnamed): by DM only, never in public
            secret = {s.user_id for s in late if s.seat in sit.unnamed and s.user_id in modes}
            modes.update(dict.fromkeys(secret, "dm"))
            reminders = {s.user_id: self._reminder(table, sit, s.seat, left) for s in late
                         if s.user_id in modes}  # each its own: one may owe the turn, another an answer beside it
            # DM-only players hear by DM, unless DMs fail
            mentioned = set(await self.presenter.mentioned(table, list(modes))) - secret
            out = Outcome(table_id=table.id, channel_id=table.channel_id)
            for text in dict.fromkeys(reminders.values()):
                ids = [u for u, t in reminders.items() if t == text and u in mentioned]
                if ids:
                    out.public.append(Post(content=" ".join(f"<@{u}>" for u in ids) + f" — {text}", mention_ids=ids,
                                           colour=COLOUR_PLAY))
            out.dms = [DirectMessage(user_id=u, table_id=table.id, post=Post(
                description=f"{reminders[u]} <#{table.channel_id}>", colour=COLOUR_PLAY))
                for u, mode in modes.items() if mode in ("dm", "both")]
            outs.append(out)
        return outs

    @staticmethod
    def _reminder(table: TableRow, sit: Situation, seat: int, left: float) -> str:
        """What a late player is reminded of: their turn and what happens to it, or a choice owed outside their
        own turn (stop or allow, a split, a trade's answer), which takes its default whatever the policy."""
        game = sit.game
        decision = sit.decision(seat)
        if decision is not None and decision.answer:
            return f"⏰ {duration_text(left)} left for your choice in {game.name}; then its default is taken."
        return (f"⏰ {duration_text(left)} left for your turn in {game.name}; "
                f"then {timeout_words(table.on_timeout, decision is not None and decision.default is not None)}.")

    async def pause_clock(self, channel_id: int, actor: Actor, pause: bool) -> Outcome:
        """``/game pause`` and ``/game resume`` (the host or a moderator): stop the turn clock with the time left,
        or start it again from there."""
        table = await self.core.table_in(channel_id)
        host = actor.user_id == table.host_id and table.tournament_id is None  # (a tournament game has no host)
        if not host and not actor.can_manage:
            raise Refusal("Only the host or a moderator can pause or resume the clock.")
        if table.status != ACTIVE or not table.turn_seconds:
            raise Refusal("This game has no turn clock running (set one in the lobby with `clock=24h`).")
        if pause:
            if table.deadline is None:
                raise Refusal("The clock is already paused.")
            table = await self.core.db.pause_clock(table.id, self.core.clock())
            note = f"⏸️ {actor.name} paused the turn clock ({duration_text(table.paused_left or 0)} left)."
        else:
            if table.paused_left is None:
                raise Refusal("The clock is not paused.")
            left = table.paused_left
            table = await self.core.db.resume_clock(table.id, self.core.clock())
            note = f"▶️ {actor.name} restarted the turn clock: {duration_text(left)} left."
        return Outcome(public=[Post(description=note, colour=COLOUR_PLAY)], table_id=table.id,
                       channel_id=table.channel_id, reply="Done.")

    async def _away(self, table: TableRow, sit: Situation) -> bool:
        """A player to act is on vacation: their clock waits until it ends (the deadline moves), no time-out now."""
        # the main line's players (a trade's answer owed by someone away does not stop the acting player's clock)
        seats = sit.main_seats
        ids = [table.seats[p].user_id for p in seats if table.seats[p].user_id is not None]
        away = await self.core.db.away_until([u for u in ids if u is not None], self.core.clock())
        if not away:
            return False
        await self.core.db.postpone(table.id, max(away.values()) + (table.turn_seconds or 0), self.core.clock())
        return True

    async def set_away(self, actor: Actor, days: float, guild_id: int | None = None) -> Outcome:
        """``/away``: a vacation of up to the server's limit (``/settings away_days``, default 14 days) that stops
        your turn clocks (0: back now)."""
        limit = await self.core.db.away_days(guild_id)
        if not 0 <= days <= limit:
            raise Refusal(f"A vacation here lasts 0 to {limit} days (0 ends it).")
        now = self.core.clock()
        until = now + days * 86400 if days else None
        await self.core.db.set_away(actor.user_id, until, now)
        await self._back(actor.user_id, until or now)
        if until is None:
            return Outcome(reply="Welcome back: your turn clocks run again.")
        return Outcome(reply=f"Away for {duration_text(days * 86400)}: turn clocks waiting for you stop until then "
                             "(your turns are not played for you).")

    async def _back(self, user_id: int, until: float) -> None:
        """A vacation ends (or is shortened) at ``until``: a turn of theirs whose deadline was moved past it gets
        the turn's time from then, not the rest of the old vacation. (Another player still away on the same line
        moves it again when it comes.)"""
        now = self.core.clock()
        for row in await self.core.db.tables_of_player(None, user_id):
            async with self.core.locks[row.id]:
                table = await self.core.table(row.id)
                game = self.core.registry.get(table.game)
                if table.status != ACTIVE or table.deadline is None or game is None:
                    continue
                try:
                    sit = self.core.situation(table, game)
                except ValueError:  # a state this version cannot read: its clock is left as it is
                    continue
                if not any(table.seats[p].user_id == user_id for p in sit.main_seats):
                    continue
                seconds = sit.clock_seconds(table)
                if seconds and table.deadline > until + seconds:
                    await self.core.db.postpone(table.id, until + seconds, now)

    async def _time_out(self, table: TableRow, sit: Situation) -> Outcome | None:
        """The clock ran out on the seats to act: as the table says, a bot plays their turn, or its default move is
        taken (``skip``), or they forfeit and a bot keeps their seat; an answer owed takes its default."""
        late = [p for p in sorted(sit.to_act) if table.seats[p].user_id is not None and not table.seats[p].resigned]
        names = [s.name for s in table.seats]
        if not late:
            return None
        who = ", ".join(names[p] for p in late)
        owed = [sit.decision(p) for p in late]
        if all(d is not None and d.answer for d in owed):  # answers owed outside one's turn: their defaults
            return await self.play.advance(await Run.of(self.core, table, sit), before=sit, late=Late(tuple(late)),
                                           intro=f"⏰ {who} did not answer in time: the default was taken.")
        if not table.turn_seconds:
            return None  # a turn without a clock waits for its player
        # An answer owed alongside the late turn (a trade offer) takes its default, whatever the table's policy: an
        # unanswered offer is declined, and the seat that only owed an answer neither forfeits nor has a bot choose.
        answers = tuple(p for p, d in zip(late, owed, strict=True) if d is not None and d.alongside and d.default)
        late = [p for p in late if p not in answers]
        who = ", ".join(names[p] for p in late) or who
        if table.on_timeout == "forfeit" and late:
            result = None
            remaining = [s.seat for s in table.seats if not s.resigned and s.seat not in late]
            ends = len(remaining) < 2
            note = f"⏰ {who} ran out of time and forfeited" + (
                ": the game is over." if ends else "; a bot keeps their seat.")
            if ends:
                result = self.core.standings(table, sit, resigning=late, how="forfeit")
            # every late seat forfeits in one write, which owes the board that says so (the outbox)
            table = await self.core.db.resign(table.id, table.version, late, self.core.clock(), result=result,
                                              how="forfeit", note=note)
            if result is not None:
                await self.core.schedule_archive(table)
                return Outcome(public=[await self.presenter.board_post(table, sit, [], note)], table_id=table.id,
                               channel_id=table.channel_id, outbox=(table.id, table.version))
            return await self.play.advance(await Run.of(self.core, table, sit, stored=True), before=sit, intro=note,
                                           late=Late(answers, alongside_only=True))
        # the late players' own moves of the turn, made before the clock ran out (unannounced: a turn goes on
        # privately), which the board tells with the bot's
        run = await Run.of(self.core, table, sit)
        unannounced = await self.core.db.moves(table.id, last=run.base - table.announced_ply) \
            if run.base > table.announced_ply else []
        own = sum(1 for m in unannounced if m.seat in late)
        await self.play.play_on(run, Late(answers, alongside_only=True, turns=tuple(late),
                                          skip=table.on_timeout == "skip"))
        theirs = f" ({own} move{'s' if own > 1 else ''} of it {'were' if own > 1 else 'was'} theirs)" if own else ""
        if not late:
            verb = "the default was taken"
        elif table.on_timeout == "skip" and not run.by_bot:
            verb = f"the rest of the turn was skipped{theirs}" if own > 0 else "the turn was skipped"
        else:  # (a Bloc by Bloc turn's earlier actions were on boards of their own: "played for them" is true)
            verb = f"a bot played the rest of the turn{theirs}" if own > 0 else "a bot played for them"
        return await self.play.advance(run, before=sit, intro=f"⏰ {who} ran out of time: {verb}.")

    async def archives_due(self) -> list[tuple[int, int]]:
        """(table, channel) of finished games whose thread should now be archived (each returned once)."""
        return await self.core.db.archives_due(self.core.clock())

    async def set_notify(self, actor: Actor, mode: str) -> Outcome:
        """``/notify``: how the actor is told it is their turn, in every game."""
        if mode not in ("mention", "dm", "both"):
            raise Refusal("Choose `mention`, `dm` or `both`.")
        await self.core.db.set_notify(actor.user_id, mode, self.core.clock())
        words = {"mention": "a mention in the game's channel", "dm": "a direct message",
                 "both": "a mention and a direct message"}[mode]
        return Outcome(reply=f"From now on your turns are announced by {words}.")
