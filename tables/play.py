"""The play pipeline: a move (or a resignation) checked, applied, bots answered, stored in one versioned
transaction, and what to post said; also the move menu and previews of picks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bots import level_of
from engine.base import CANCEL, Event, Game, GameError, Turns, name_seats
from engine.rng import Rng
from storage import ACTIVE, CANCELLED, LOBBY, StaleVersion, TableRow
from storage.db import next_reminder
from tables.catalog import default_catalog
from tables.menu import MenuNode, MenuStep, build_menu, walk
from tables.outcome import (
    PREVIEW_FILE,
    Actor,
    AlreadyPlayed,
    Board,
    Choice,
    Controls,
    DirectMessage,
    Outcome,
    Post,
    Refusal,
    StaleButton,
)
from tables.presenter import COLOUR_LOBBY, COLOUR_PLAY, Presenter, asked_anew, duration_text, timeout_words

log = logging.getLogger(__name__)

MAX_BOT_PLIES = 5000  # a safety bound on bot moves in one request
TIMEOUT_BOT = "medium"  # the bot that plays a late player's turn
CATALOG_KEYS = frozenset(g.key for g in default_catalog().all())  # games a bot worker process can load
DECISION_SECONDS = 12 * 3600  # how long an answer owed outside one's own turn waits on a table without a clock
OWED_FOR_AT_MOST = 24 * 3600.0  # seconds an owed board is retried on the clock's ticks (start-up tries them all)


class PlayPipeline(Presenter):
    """Requests that play: submit, resign, the move menu and previews."""

    async def submit(self, actor: Actor, text: str, *, channel_id: int | None = None, table_id: int | None = None,
                     version: int | None = None, public: bool = False) -> Outcome:
        """Play one move given as notation. ``version`` comes from a button: a mismatch means a stale button.
        ``public``: the button is on the public board, which only the seat it asks may use."""
        if table_id is None:
            assert channel_id is not None
            table_id = (await self.table_in(channel_id, finished_ok=True)).id
        async with self._locks[table_id]:
            table = await self._table(table_id)
            game = self._playing(table)
            seat = self._seat_for(table, actor)
            state = game.load(table.state or {})
            # a button names its move, which is checked again below: it stays good while only others move
            if version is not None and not self._current(table, game, seat, version):
                if await self._just_played(table, seat, version, text):
                    raise AlreadyPlayed(f"Already played: `{text}` (you played it just before).")
                raise await self._stale(table, game, state, seat, version, "button")
            if seat not in game.may_act(state):
                raise Refusal(self._not_your_turn(table, game, state))
            if public:
                self._check_board_controls(table, game, state, seat)
            try:
                move = game.parse_move(text)
                new_state, events = game.apply(state, seat, move)
            except GameError as err:
                raise Refusal(str(err)) from None
            record = [(seat, game.format_move(move), events)]
            out = await self._advance(table, game, new_state, record, [state], mover=seat)
            cancels = [e for e in events if e.kind == CANCEL]
            told = [name_seats(e.text, [s.name for s in table.seats]) for e in cancels]
            out.played = not any(e.data.get("move") == record[0][1] for e in cancels)
            # a move that waited on this answer (a Lookouts reroll) and was then cancelled is told after it
            out.reply = f"Not played: {told[0]}" if not out.played else " ".join([f"Played `{record[0][1]}`.", *told])
            return out

    async def _just_played(self, table: TableRow, seat: int, version: int, text: str) -> bool:
        """Whether a move control made at ``version`` that no longer applies is a second tap of a move the seat
        has just played (one or two commits ago), rather than a control from an earlier turn."""
        if table.version - version > 2:
            return False
        return any(m.seat == seat and m.notation == text for m in await self.db.moves(table.id, last=8))

    async def menu(self, table_id: int, actor: Actor, version: int, path: Sequence[int], *,
                   notation: str | None = None, public: bool = False) -> MenuStep:
        """The entry at ``path`` in the actor's move menu (a leaf is a move to submit), or with ``notation`` the move
        picked at that level, found by its notation. ``public``: the menu is on the public board, which only the
        seat it asks may use."""
        try:
            table, game, seat, state = await self._control_context(table_id, actor, version)
        except StaleButton:
            table = await self._table(table_id)
            seat = self._seat_for(table, actor)
            if notation is not None and await self._just_played(table, seat, version, notation):
                raise AlreadyPlayed(f"Already played: `{notation}` (your first pick played it).") from None
            raise
        if seat not in game.may_act(state):
            raise Refusal(self._not_your_turn(table, game, state))
        if public:
            self._check_board_controls(table, game, state, seat)
        choices = self._controls(table, game, state, seat).choices
        root = build_menu(choices)
        try:
            node, trail = walk(root, path)
        except IndexError:
            if notation is None:
                raise StaleButton("That menu is out of date.") from None
            node, trail = root, ()  # the menu changed shape since: the move is looked up by its notation
        if notation is not None:  # the move whose label was picked, wherever it stands in the menu now
            found = next(((i, c) for i, c in enumerate(node.children) if c.choice and c.choice.notation == notation),
                         None)
            if found is None:  # not at this level any more (the menu changed shape): anywhere, if still offered
                choice = next((c for c in choices if c.notation == notation), None)
                if choice is None:
                    raise StaleButton(f"`{notation}` is no longer possible.")
                found = (0, MenuNode(choice.label, choice=choice))
            path, node, trail = (*path, found[0]), found[1], (*trail, found[1].label)
        elif node.choice is not None and version != table.version:
            # a numbered pick in a menu that has changed since: it may not be the move that was shown
            raise await self._stale(table, game, state, seat, version, "menu")
        # A pick is previewed where the game says so, unless it is the only choice: nothing to compare.
        confirm = (node.choice is not None and len(choices) > 1
                   and game.previewed(state, seat, game.parse_move(node.choice.notation)))
        return MenuStep(table.id, version, tuple(path), trail, node, confirm=confirm)

    async def preview(self, table_id: int, actor: Actor, version: int, notation: str) -> Post:
        """The actor's private view as it would be after ``notation``, with a Submit control; changes nothing."""
        table, game, seat, state = await self._control_context(table_id, actor, version)
        try:
            move = game.parse_move(notation)
            label = game.describe_move(state, seat, move)
            view = game.preview_view(state, seat, move)
        except GameError as err:
            raise Refusal(str(err)) from None
        names = [s.name for s in table.seats]
        board = await self._render(game, view, names)
        if board is not None:
            board = Board(board.png, board.alt, PREVIEW_FILE)
        return Post(title=f"Preview · {game.name} · table #{table.id}", board=board, colour=COLOUR_PLAY,
                    description=f"**{label}**\nSubmit to play it, or go back and choose again.",
                    controls=Controls(table.id, version, actor.user_id, (Choice(game.format_move(move), "Submit"),)),
                    footer="Only you can see this. Nothing is played until you submit.")

    async def resign(self, channel_id: int, actor: Actor, removed_by: str = "") -> Outcome:
        """``/resign``, or (``removed_by`` the host's or moderator's name) ``/game kick``: the player leaves the game
        and a bot plays their seat, ranked last; with one player left, the game ends."""
        table = await self.table_in(channel_id, finished_ok=True)
        async with self._locks[table.id]:
            table = await self._table(table.id)
            game = self._playing(table)
            seat = self._seat_for(table, actor)
            state = game.load(table.state or {})
            remaining = [s.seat for s in table.seats if not s.resigned and s.seat != seat]
            result = None
            how = "removed" if removed_by else "resigned"
            if len(remaining) < 2:
                result = self._standings(table, game, state, resigning=seat, how=how)
            note = f"{actor.name} was removed from the game by {removed_by}." if removed_by else \
                f"{actor.name} resigned."
            if result is None:
                note += " Their seat plays on automatically and ranks last."
            try:  # the board that says so is owed in the same transaction (the outbox)
                table = await self.db.resign(table.id, table.version, seat, self.clock(), result=result, how=how,
                                             note=note)
            except StaleVersion:
                raise StaleButton("The game moved on while you clicked; try again.") from None
            goes_on = "a bot plays their seat" if result is None else "the game is over"
            reply = f"{actor.name} was removed from the game; {goes_on}." if removed_by else "You resigned."
            if result is None:
                out = await self._advance(table, game, state, [], [], intro=note, persisted=True)
                out.reply = reply
                return out
            await self._schedule_archive(table)
            return Outcome(public=[await self._board_post(table, game, state, [], note)], table_id=table.id,
                           channel_id=table.channel_id, reply=reply, outbox=(table.id, table.version))

    async def _advance(self, table: TableRow, game: Game, state: Any, record: list[tuple[int, str, list[Event]]],
                       before: list[Any], intro: str = "", persisted: bool = False, mover: int | None = None
                       ) -> Outcome:
        """Let bots (and resigned seats) move, persist everything in one transaction, and say what to post.

        ``mover`` is the seat whose move this was: if it has more to pick before the position moves on (a
        game of private picks), the outcome's private reply is its view with the next step."""
        old_state = before[0] if before else None
        written = old_state if old_state is not None else state  # the state as stored: whose decisions changed since
        # a seat its player left (resigned, removed, forfeited) is played sensibly, like a late turn
        auto = {s.seat: s.bot or TIMEOUT_BOT for s in table.seats if s.is_bot or s.resigned}
        names = [s.name for s in table.seats]
        plies = 0
        base = await self._ply_base(table)

        def rows_of(record: list[tuple[int, str, list[Event]]]) -> list[tuple[int, int, str, list[str]]]:
            return [(base + i + 1, seat, text, [name_seats(e.text, names) for e in evs])
                    for i, (seat, text, evs) in enumerate(record)]

        while not game.is_over(state):
            ready = sorted(set(game.to_act(state)) & set(auto))
            if not ready:
                break
            seat = ready[0]
            if level_of(auto[seat]) != "easy" and record:
                # what is decided so far is stored before a bot thinks: a crash while it thinks loses nothing,
                # and the bot simply chooses again at the next start (resume_bots)
                try:
                    table = await self.db.record_moves(table.id, table.version, rows_of(record), game.dump(state),
                                                       self.clock(), announce=False,
                                                       asked=asked_anew(game, table, written, state))
                except StaleVersion:
                    raise StaleButton("Someone else's move got there first; look at the newest board.") from None
                record, persisted, written = [], True, state
                base = await self._ply_base(table)
            move = await self.thinker.move(game, state, seat, auto[seat], _bot_rng(table, base + len(record)),
                                           game.key in CATALOG_KEYS)
            state, events = game.apply(state, seat, move)
            record.append((seat, game.format_move(move), events))
            plies += 1
            if plies > MAX_BOT_PLIES:
                raise RuntimeError(f"bots made over {MAX_BOT_PLIES} moves in table {table.id}")
        result = None
        if game.is_over(state):
            result = self._standings(table, game, state)
        # The mover's turn goes on with a follow-up (a card just drawn to place): no board until the turn ends.
        continuing = mover is not None and game.goes_on(state, mover)
        earlier = [e for m in await self.db.moves(table.id, last=base - table.announced_ply) for e in m.events] \
            if base > table.announced_ply and not continuing else []
        # A private pick of simultaneous picks only updates the turn's status message; anything else that ends a
        # turn posts a board, which the outbox keeps owing (in the same transaction) until it is posted.
        # (A change the caller stored with its own word, a forfeit, owes a board whatever the picks.)
        private_pick = old_state is not None and result is None and not (persisted and intro) and \
            game.revealed_ply(old_state) == game.revealed_ply(state)
        posts_board = not continuing and not private_pick
        # The turn clock restarts when a board hands the turn on, and stops when the game ends; a turn that goes
        # on (a second action, a secret pick) keeps its deadline.
        deadline: float | None | bool = False
        seconds = clock_seconds(table, game, state) if result is None else None
        # a move beside the main line (a gift, a trade's answer, one Start of several) leaves the clock of the main
        # line running: the acting player gains no time from it, and the other answers keep their deadline
        beside = old_state is not None and mover is not None and _beside(game, old_state, mover) and \
            _main_line(game, old_state) == _main_line(game, state) and mover not in game.to_act(state)
        # A paused clock stays paused: the turn handed on keeps its whole time for when it is resumed.
        paused_left: float | None | bool = False
        if result is not None:
            deadline = None
            paused_left = None
        elif posts_board and not beside:
            if table.paused_left is not None:
                paused_left = float(seconds) if seconds else None
            else:
                deadline = self.clock() + seconds if seconds else None
        if record or not persisted:
            rows = rows_of(record)
            try:
                table = await self.db.record_moves(table.id, table.version, rows, game.dump(state), self.clock(),
                                                   result=result, announce=not continuing,
                                                   outbox=posts_board and bool(rows), deadline=deadline,
                                                   asked=asked_anew(game, table, written, state),
                                                   note="" if persisted else intro,
                                                   paused_left=paused_left)
            except StaleVersion:
                raise StaleButton("Someone else's move got there first; look at the newest board.") from None
        lines = earlier + [name_seats(e.text, names) for _, _, evs in record for e in evs]
        out = Outcome(table_id=table.id, channel_id=table.channel_id)
        if continuing and mover is not None:  # the mover carries on privately, with the next step's choices
            out.reply_post = await self._private_post(table, game, state, mover, game.view(state, mover), names)
            return out
        if private_pick:
            # A private pick in a game of simultaneous picks: the channel hears only who is done, in one status
            # message per turn that is edited as players finish.
            waiting = set(game.to_act(state))
            done = [names[s.seat] for s in table.seats if s.seat not in waiting and not s.resigned]
            if (lines or intro) and done:
                out.public.append(Post(description=f"**Done this turn:** {', '.join(done)}",
                                       footer=name_seats(game.status_line(state), names), colour=COLOUR_PLAY,
                                       status_of=(table.id, game.revealed_ply(state))))
            if mover is not None and mover in game.to_act(state):
                out.reply_post = await self._private_post(table, game, state, mover, game.view(state, mover), names)
            return out
        # The public board and the private views render at once: Pillow releases the GIL while it
        # draws and encodes, so on a multi-core host the move costs about its slowest image.
        board, out.dms = await asyncio.gather(self._board_post(table, game, state, lines, intro),
                                              self._private_updates(table, game, old_state, state))
        # the mover's turn goes on, on choices only they may see (a hand): their next choices come with the answer,
        # without a picture (the board just posted has it)
        decision = game.decision(state, mover) if mover is not None and result is None else None
        was = game.decision(old_state, mover) if mover is not None and old_state is not None else None
        if decision is not None and decision.private and mover is not None and was is not None and \
                not decision.beside and not was.beside and \
                game.turns is not Turns.SIMULTANEOUS:
            out.reply_post = Post(title=f"Your move · {game.name} · table #{table.id}",
                                  description=name_seats(decision.prompt, names), colour=COLOUR_PLAY,
                                  controls=self._controls(table, game, state, mover),
                                  footer="Only you can see this. The board is in the channel.")
        out.dms += await self.turn_dms(table, game, state)
        out.public.append(board)
        out.outbox = (table.id, table.version)  # whatever owed this board (a move, a start, a resignation…)
        if result is not None:
            log.info("table %s finished: %s", table.id, result)
            await self._schedule_archive(table)
        return out

    async def resume_bots(self) -> list[Outcome]:
        """At start-up: games where a bot is to move (the process stopped while it thought) go on; its move is
        simply chosen again."""
        outs = []
        for row in await self.db.tables_with_status(ACTIVE):
            game = self.registry.get(row.game)
            if game is None or not row.state:
                continue
            auto = {s.seat for s in row.seats if s.is_bot or s.resigned}
            if not auto:
                continue  # no bot at the table: nothing to resume (and no state to read)
            state = game.load(row.state)
            if game.is_over(state) or not set(game.to_act(state)) & auto:
                continue
            async with self._locks[row.id]:
                table = await self._table(row.id)
                state = game.load(table.state or {})
                log.info("table %s: a bot resumes its move", table.id)
                outs.append(await self._advance(table, game, state, [], [], persisted=True))
        return outs

    async def expire(self) -> list[Outcome]:
        """Play out the turns whose clock ran out (due deadlines, by the index), as the table's setting says: a bot
        plays the late seats' turn (``bot``), or the game's default move where it has one (``skip``), or the
        late players forfeit and a bot keeps their seat (``forfeit``). Also catches up after a restart."""
        outs = []
        for table_id in await self.db.due(self.clock()):
            async with self._locks[table_id]:
                table = await self._table(table_id)
                if table.status != ACTIVE or table.deadline is None or table.deadline > self.clock():
                    continue
                if await self._away(table):
                    continue
                out = await self._time_out(table)
                if out is not None:
                    outs.append(out)
        return outs

    async def undo(self, channel_id: int, actor: Actor) -> Outcome:
        """``/undo``, Board Game Arena's way: only your own last move, only while it is still your turn, never
        across another player's move, never once it rolled dice, dealt a card or revealed anything hidden."""
        table = await self.table_in(channel_id)
        async with self._locks[table.id]:
            table = await self._table(table.id)
            game = self._playing(table)
            seat = self._seat_for(table, actor)
            moves = await self.db.moves(table.id)
            if not moves or moves[-1].seat != seat:
                raise Refusal("You can only take back your own last move, before anyone else has moved.")
            state = game.load(table.state or {})
            if seat not in game.to_act(state):
                raise Refusal("Your turn is over: its moves stand.")
            log = [(m.seat, m.notation) for m in moves]
            try:
                before = game.replay(len(table.seats), table.options, table.seed or 0, log[:-1])
                rebuilt = game.dump(game.replay(len(table.seats), table.options, table.seed or 0, log))
            except GameError:  # a move of an older version of the rules, which this one plays otherwise
                rebuilt = None
            if rebuilt != table.state:
                raise Refusal("This game can't be rebuilt from its log, so its moves can't be taken back.")
            if not game.undoable(before, state, seat):
                raise Refusal(f"`{moves[-1].notation}` can't be taken back: it drew on chance or showed you "
                              "something hidden.")
            try:
                table = await self.db.undo_move(table.id, table.version, moves[-1].ply, game.dump(before),
                                                self.clock())
            except StaleVersion:
                raise StaleButton("The game moved on while you asked; look at the newest board.") from None
            names = [s.name for s in table.seats]
            out = Outcome(table_id=table.id, channel_id=table.channel_id,
                          reply=f"Took back `{moves[-1].notation}`.")
            out.reply_post = await self._private_post(table, game, before, seat, game.view(before, seat), names)
            return out

    async def kick(self, channel_id: int, actor: Actor, target: Actor) -> Outcome:
        """``/game kick`` (the host or a moderator): the player leaves the game; a bot keeps their seat."""
        table = await self.table_in(channel_id)
        if actor.user_id != table.host_id and not actor.can_manage:
            raise Refusal("Only the host or a moderator can remove a player.")
        seat = table.seat_of(target.user_id)
        if table.status != ACTIVE or seat is None or seat.resigned:
            raise Refusal(f"{target.name} isn't playing in the game here.")
        return await self.resign(channel_id, target, removed_by=actor.name)

    async def replace(self, channel_id: int, actor: Actor, old: Actor, new: Actor | None) -> Outcome:
        """``/game replace`` (a moderator): another member (or, without one, a bot) takes a player's seat; the game
        goes on from where it is."""
        table = await self.table_in(channel_id)
        if not actor.can_manage:
            raise Refusal("Only a moderator (Manage Channels) can give a seat to someone else.")
        seat = table.seat_of(old.user_id)
        if table.status != ACTIVE or seat is None:
            raise Refusal(f"{old.name} isn't playing in the game here.")
        if new is not None and table.seat_of(new.user_id) is not None:
            raise Refusal(f"{new.name} already has a seat in this game.")
        async with self._locks[table.id]:
            table = await self._table(table.id)
            name = new.name if new is not None else f"Bot ({old.name})"
            game = self._playing(table)
            state = game.load(table.state or {})
            # a person given the seat that alone is to act gets the turn's whole time (a bot plays at once; the
            # table has one clock, so where others are to act too it runs on for them all)
            seconds = clock_seconds(table, game, state) if _main_seats(game, state) == {seat.seat} else None
            paused = table.paused_left is not None
            note = f"{actor.name} gave {old.name}'s seat to {name}."
            try:
                table = await self.db.replace_seat(
                    table.id, table.version, seat.seat, new.user_id if new is not None else None, name,
                    None if new is not None else TIMEOUT_BOT, self.clock(),
                    deadline=self.clock() + seconds if new is not None and seconds and not paused else False,
                    paused_left=seconds if new is not None and seconds and paused else False, note=note)
            except StaleVersion:
                raise StaleButton("The game moved on while you asked; try again.") from None
            out = await self._advance(table, game, state, [], [], intro=note, persisted=True)
            if not out.public:
                out.public.append(await self._board_post(table, game, state, [], note))
                out.outbox = (table.id, table.version)
            out.reply = note
            return out

    async def _schedule_archive(self, table: TableRow) -> None:
        hours = (await self.db.guild_settings(table.guild_id))[2]
        await self.db.schedule_archive(table.id, self.clock() + hours * 3600.0)

    async def archives_due(self) -> list[tuple[int, int]]:
        """(table, channel) of finished games whose thread should now be archived (each returned once)."""
        return await self.db.archives_due(self.clock())

    async def remind(self) -> list[Outcome]:
        """Reminders of due turn clocks (by the index): at half time and near the end, a mention in the game's
        channel for the players still to act (one post per wording: a turn, or a choice owed beside it), or a DM
        for those who chose DMs; not for a player on vacation or over the day's cap."""
        now = self.clock()
        outs = []
        for table_id in await self.db.reminders_due(now):
            table = await self._table(table_id)
            if table.status != ACTIVE or table.deadline is None or table.deadline <= now:
                await self.db.set_remind_at(table_id, None)
                continue
            game = self.game(table.game)
            state = game.load(table.state or {})
            late = [table.seats[p] for p in sorted(game.to_act(state))
                    if table.seats[p].user_id is not None and not table.seats[p].resigned]
            away = await self.db.away_until([s.user_id for s in late if s.user_id is not None], now)
            late = [s for s in late if s.user_id not in away]  # a player on vacation is not reminded
            left = table.deadline - now
            half_time = table.turn_seconds is not None and left > 0.3 * table.turn_seconds
            await self.db.set_remind_at(table_id, next_reminder(table.deadline, now) if half_time else None)
            cap = await self.db.reminders_per_day(table.guild_id)
            wanted = [s.user_id for s in late if s.user_id is not None]
            allowed = [u for u in wanted if await self.db.take_reminder(u, int(now // 86400), cap, now)]
            modes = await self.db.notify_modes(allowed)  # over their daily cap, a player is not reminded
            if not modes:
                continue
            reminders = {s.user_id: self._reminder(game, table, state, s.seat, left) for s in late
                         if s.user_id in modes}  # each its own: one may owe the turn, another an answer beside it
            mentioned = set(await self._mentioned(table, list(modes)))  # DM-only players by DM, unless DMs fail
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
    def _reminder(game: Game, table: TableRow, state: Any, seat: int, left: float) -> str:
        """What a late player is reminded of: their turn and what happens to it, or a choice owed outside their
        own turn (stop or allow, a split, a trade's answer), which takes its default whatever the policy."""
        decision = game.decision(state, seat)
        if decision is not None and decision.answer:
            return f"⏰ {duration_text(left)} left for your choice in {game.name}; then its default is taken."
        return (f"⏰ {duration_text(left)} left for your turn in {game.name}; "
                f"then {timeout_words(table.on_timeout, decision is not None and decision.default is not None)}.")

    async def pause_clock(self, channel_id: int, actor: Actor, pause: bool) -> Outcome:
        """``/game pause`` and ``/game resume`` (the host or a moderator): stop the turn clock with the time left,
        or start it again from there."""
        table = await self.table_in(channel_id)
        if actor.user_id != table.host_id and not actor.can_manage:
            raise Refusal("Only the host or a moderator can pause or resume the clock.")
        if table.status != ACTIVE or not table.turn_seconds:
            raise Refusal("This game has no turn clock running (set one in the lobby with `clock=24h`).")
        if pause:
            if table.deadline is None:
                raise Refusal("The clock is already paused.")
            table = await self.db.pause_clock(table.id, self.clock())
            note = f"⏸️ {actor.name} paused the turn clock ({duration_text(table.paused_left or 0)} left)."
        else:
            if table.paused_left is None:
                raise Refusal("The clock is not paused.")
            left = table.paused_left
            table = await self.db.resume_clock(table.id, self.clock())
            note = f"▶️ {actor.name} restarted the turn clock: {duration_text(left)} left."
        return Outcome(public=[Post(description=note, colour=COLOUR_PLAY)], table_id=table.id,
                       channel_id=table.channel_id, reply="Done.")

    async def _away(self, table: TableRow) -> bool:
        """A player to act is on vacation: their clock waits until it ends (the deadline moves), no time-out now."""
        game = self.game(table.game)
        state = game.load(table.state or {})
        # the main line's players (a trade's answer owed by someone away does not stop the acting player's clock)
        seats = _main_seats(game, state)
        ids = [table.seats[p].user_id for p in seats if table.seats[p].user_id is not None]
        away = await self.db.away_until([u for u in ids if u is not None], self.clock())
        if not away:
            return False
        await self.db.postpone(table.id, max(away.values()) + (table.turn_seconds or 0), self.clock())
        return True

    async def set_away(self, actor: Actor, days: float, guild_id: int | None = None) -> Outcome:
        """``/away``: a vacation of up to the server's limit (``/settings away_days``, default 14 days) that stops
        your turn clocks (0: back now)."""
        limit = await self.db.away_days(guild_id)
        if not 0 <= days <= limit:
            raise Refusal(f"A vacation here lasts 0 to {limit} days (0 ends it).")
        now = self.clock()
        until = now + days * 86400 if days else None
        await self.db.set_away(actor.user_id, until, now)
        await self._back(actor.user_id, until or now)
        if until is None:
            return Outcome(reply="Welcome back: your turn clocks run again.")
        return Outcome(reply=f"Away for {duration_text(days * 86400)}: turn clocks waiting for you stop until then "
                             "(your turns are not played for you).")

    async def _back(self, user_id: int, until: float) -> None:
        """A vacation ends (or is shortened) at ``until``: a turn of theirs whose deadline was moved past it gets
        the turn's time from then, not the rest of the old vacation. (Another player still away on the same line
        moves it again when it comes.)"""
        now = self.clock()
        for row in await self.db.tables_of_player(None, user_id):
            async with self._locks[row.id]:
                table = await self._table(row.id)
                game = self.registry.get(table.game)
                if table.status != ACTIVE or table.deadline is None or game is None:
                    continue
                try:
                    state = game.load(table.state or {})
                except ValueError:  # a state this version cannot read: its clock is left as it is
                    continue
                if not any(table.seats[p].user_id == user_id for p in _main_seats(game, state)):
                    continue
                seconds = clock_seconds(table, game, state)
                if seconds and table.deadline > until + seconds:
                    await self.db.postpone(table.id, until + seconds, now)

    async def _time_out(self, table: TableRow) -> Outcome | None:
        game = self.game(table.game)
        state = game.load(table.state or {})
        late = [p for p in sorted(game.to_act(state)) if table.seats[p].user_id is not None
                and not table.seats[p].resigned]
        names = [s.name for s in table.seats]
        if not late:
            return None
        who = ", ".join(names[p] for p in late)
        owed = [game.decision(state, p) for p in late]
        if all(d is not None and d.answer for d in owed):
            return await self._default_answers(table, game, state, late, who)
        if not table.turn_seconds:
            return None  # a turn without a clock waits for its player
        # An answer owed alongside the late turn (a trade offer) takes its default, whatever the table's policy: an
        # unanswered offer is declined, and the seat that only owed an answer neither forfeits nor has a bot choose.
        old = state
        base = await self._ply_base(table)
        record: list[tuple[int, str, list[Event]]] = []
        answers = [p for p, d in zip(late, owed, strict=True) if d is not None and d.alongside and d.default]
        for seat, decision in ((p, game.decision(state, p)) for p in answers):
            if decision is not None and decision.alongside and decision.default is not None:
                state, events = game.apply(state, seat, game.parse_move(decision.default))
                record.append((seat, decision.default, events))
        late = [p for p in late if p not in answers]
        who = ", ".join(names[p] for p in late) or who
        if table.on_timeout == "forfeit" and late:
            result = None
            remaining = [s.seat for s in table.seats if not s.resigned and s.seat not in late]
            ends = len(remaining) < 2
            note = f"⏰ {who} ran out of time and forfeited" + (
                ": the game is over." if ends else "; a bot keeps their seat.")
            for seat in late:
                last = seat == late[-1]
                if ends and last:
                    result = self._standings(table, game, old, resigning=seat, how="forfeit")
                # the last write owes the board that says so (the outbox)
                table = await self.db.resign(table.id, table.version, seat, self.clock(), result=result,
                                             how="forfeit", note=note if last else None)
            if result is not None:
                await self._schedule_archive(table)
                return Outcome(public=[await self._board_post(table, game, old, [], note)], table_id=table.id,
                               channel_id=table.channel_id, outbox=(table.id, table.version))
            return await self._advance(table, game, state, record, [old], intro=note, persisted=True)
        by_bot = False  # a bot chose a move (skip falls back to one where the game has no default move)
        for seat in late:
            # the late turn only: the next one is the player's, with its own clock. It ends where the game says
            # (turn_of), or else at the first decision after a move that does not go on with it (not a follow-up)
            turn = game.turn_of(state)
            for moved in range(MAX_BOT_PLIES):
                if game.is_over(state) or seat not in game.to_act(state) or game.turn_of(state) != turn:
                    break
                decision = game.decision(state, seat)
                if moved and turn is None and (decision is None or not decision.followup):
                    break
                move = None
                if table.on_timeout == "skip" and decision is not None and decision.default is not None:
                    move = game.parse_move(decision.default)
                    if not game.is_legal(state, seat, game.normalise_move(state, seat, move)):
                        move = None
                if move is None:  # a late turn is played sensibly: the medium bot, in the worker process
                    move = await self.thinker.move(game, state, seat, TIMEOUT_BOT, _bot_rng(table, base + len(record)),
                                                   game.key in CATALOG_KEYS)
                    by_bot = True
                state, events = game.apply(state, seat, move)
                record.append((seat, game.format_move(move), events))
        # the late players' own moves of the turn, made before the clock ran out (unannounced: a turn goes on
        # privately), which the board tells with the bot's
        unannounced = await self.db.moves(table.id, last=base - table.announced_ply) if base > table.announced_ply \
            else []
        own = sum(1 for m in unannounced if m.seat in late)
        theirs = f" ({own} move{'s' if own > 1 else ''} of it {'were' if own > 1 else 'was'} theirs)" if own else ""
        if not late:
            verb = "the default was taken"
        elif table.on_timeout == "skip" and not by_bot:
            verb = f"the rest of the turn was skipped{theirs}" if own > 0 else "the turn was skipped"
        else:  # (a Bloc by Bloc turn's earlier actions were on boards of their own: "played for them" is true)
            verb = f"a bot played the rest of the turn{theirs}" if own > 0 else "a bot played for them"
        return await self._advance(table, game, state, record, [old], intro=f"⏰ {who} ran out of time: {verb}.")

    async def _default_answers(self, table: TableRow, game: Game, state: Any, late: list[int], who: str
                               ) -> Outcome:
        """Answers owed outside one's own turn (stop or allow, a split of losses…) that timed out take their
        defaults, one each; the game goes on."""
        old = state
        record: list[tuple[int, str, list[Event]]] = []
        for seat in late:
            decision = game.decision(state, seat)
            if decision is None or decision.default is None or game.is_over(state):
                continue
            move = game.parse_move(decision.default)
            state, events = game.apply(state, seat, move)
            record.append((seat, game.format_move(move), events))
        return await self._advance(table, game, state, record, [old],
                                   intro=f"⏰ {who} did not answer in time: the default was taken.")

    async def delivered(self, table_id: int, version: int) -> None:
        """The board owed for ``table_id`` at ``version`` was posted (see :meth:`undelivered`)."""
        await self.db.delivered(table_id, version, self.clock())

    async def undelivered(self, settled: float | None = None) -> list[Outcome]:
        """What committed changes still owe their channel (the process stopped between the commit and the post, or
        Discord refused it), as outcomes to deliver: each table's board as it is now, listing the moves not yet told,
        with its players' private views; a cancelled table's notice; the lobby card. All of them at start-up; on the
        clock's ticks, those owed for at least ``settled`` seconds (so a board being posted right now is not posted
        twice) and for less than a day (a channel that stays gone is not asked for forever). Each is marked
        ``owed``: a board that reached the channel before the process stopped is found there, not posted again."""
        now = self.clock()
        between = None if settled is None else (now - OWED_FOR_AT_MOST, now - settled)
        out = []
        for owed in await self.db.undelivered(between):
            table = await self._table(owed.table_id)
            game = self.game(table.game)
            outcome = Outcome(table_id=table.id, channel_id=table.channel_id,
                              outbox=(table.id, max(owed.version, table.version)), owed=True)
            if owed.lobby:
                outcome.lobby = self._lobby_card(table)
            if owed.board and table.status == CANCELLED:
                outcome.public.append(self._cancelled_post(table, owed.note))
            elif owed.board and table.status != LOBBY:
                state = game.load(table.state or {})
                lines = [e for m in await self.db.moves(table.id) if owed.first_ply <= m.ply <= owed.last_ply
                         for e in m.events]
                outcome.public.append(await self._board_post(table, game, state, lines, owed.note))
                outcome.dms = await self._private_updates(table, game, None, state)
            out.append(outcome)
            log.info("table %s: posting what is owed since version %s", table.id, owed.version)
        return out

    async def dm_result(self, table_id: int, user_id: int, delivered: bool) -> Post | None:
        """Record whether a DM arrived; returns a public notice the first time DMs fail."""
        table = await self._table(table_id)
        seat = table.seat_of(user_id)
        if seat is None or seat.dm_open == delivered:
            return None
        await self.db.set_dm_open(table_id, user_id, delivered)
        if delivered:
            return None
        return Post(content=f"<@{user_id}>", description="I can't send you direct messages, so nothing of this game "
                    "reaches you by DM: you are mentioned here when it is your turn, and `/hand` shows your view "
                    "any time. The game goes on.", colour=COLOUR_LOBBY, mention_ids=[user_id])


def clock_seconds(table: TableRow, game: Game, state: Any) -> float | None:
    """The time the turn now owed gets on the clock (None: no clock). An answer owed outside one's own turn waits
    the table's `answers=` time, else its time per turn, else 12 hours, then takes its default: the game never
    waits forever on one player."""
    owed = game.decisions(state)
    answer = bool(owed) and owed[0].answer
    return (table.answer_seconds or table.turn_seconds or DECISION_SECONDS) if answer else table.turn_seconds


def _main_seats(game: Game, state: Any) -> set[int] | frozenset[int]:
    """The seats on the main line (as :func:`_main_line`), or else those to act."""
    return {seat for seat, _ in _main_line(game, state)} or game.to_act(state)


def _main_line(game: Game, state: Any) -> tuple[tuple[int, str], ...]:
    """Who owes what on the main line (decisions neither alongside nor optional)."""
    return tuple((d.seat, d.kind) for d in game.decisions(state) if not d.beside)


def _beside(game: Game, state: Any, seat: int) -> bool:
    """Whether ``seat``'s decision in ``state`` runs beside the main line."""
    decision = game.decision(state, seat)
    return decision is not None and decision.beside


def _bot_rng(table: TableRow, ply: int) -> Rng:
    """The random generator of a bot's move after ``ply`` moves of ``table``: from the table's seed, so a replay
    of the same requests chooses the same moves."""
    return Rng((table.seed or 0) ^ (0x9E3779B97F4A7C15 * (ply + 1)))
