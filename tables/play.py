"""Play: a move (or a resignation, a removal, a seat given to someone else) checked, applied, bots answered, stored
in one versioned transaction, and what to post said; also the move menu, previews of picks and undo.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bots import level_of
from engine.base import CANCEL, Event, Game, GameError, Turns, name_seats
from engine.rng import Rng
from storage import ACTIVE, StaleVersion, TableRow
from tables.catalog import default_catalog
from tables.core import Core
from tables.menu import MenuNode, MenuStep, build_menu, walk
from tables.outcome import (
    PREVIEW_FILE,
    Actor,
    AlreadyPlayed,
    Board,
    Choice,
    Controls,
    Outcome,
    Post,
    Refusal,
    StaleButton,
)
from tables.presenter import COLOUR_PLAY, Presenter, asked_anew

log = logging.getLogger(__name__)

MAX_BOT_PLIES = 5000  # a safety bound on bot moves in one request
TIMEOUT_BOT = "medium"  # the bot that plays a late player's turn
CATALOG_KEYS = frozenset(g.key for g in default_catalog().all())  # games a bot worker process can load
DECISION_SECONDS = 12 * 3600  # how long an answer owed outside one's own turn waits on a table without a clock

class Play:
    """Requests that play: submit, the move menu and previews, resign, undo, kick, replace; and the one loop that
    plays on until a person must act, used by every one of them and by the clock."""

    def __init__(self, core: Core, presenter: Presenter) -> None:
        self.core = core
        self.presenter = presenter

    async def submit(self, actor: Actor, text: str, *, channel_id: int | None = None, table_id: int | None = None,
                     version: int | None = None, public: bool = False) -> Outcome:
        """Play one move given as notation. ``version`` comes from a button: a mismatch means a stale button.
        ``public``: the button is on the public board, which only the seat it asks may use."""
        if table_id is None:
            assert channel_id is not None
            table_id = (await self.core.table_in(channel_id, finished_ok=True)).id
        async with self.core.locks[table_id]:
            table = await self.core.table(table_id)
            game = self.core.playing(table)
            seat = self.core.seat_for(table, actor)
            state = game.load(table.state or {})
            # a button names its move, which is checked again below: it stays good while only others move
            if version is not None and not self.core.current(table, game, seat, version):
                if await self.just_played(table, seat, version, text):
                    raise AlreadyPlayed(f"Already played: `{text}` (you played it just before).")
                raise await self.core.stale(table, game, state, seat, version, "button")
            if seat not in game.may_act(state):
                raise Refusal(self.presenter.not_your_turn(table, game, state))
            if public:
                self.presenter.check_board_controls(table, game, state, seat)
            try:
                move = game.parse_move(text)
                new_state, events = game.apply(state, seat, move)
            except GameError as err:
                raise Refusal(str(err)) from None
            record = [(seat, game.format_move(move), events)]
            out = await self.advance(table, game, new_state, record, [state], mover=seat)
            cancels = [e for e in events if e.kind == CANCEL]
            told = [name_seats(e.text, [s.name for s in table.seats]) for e in cancels]
            out.played = not any(e.data.get("move") == record[0][1] for e in cancels)
            # a move that waited on this answer (a Lookouts reroll) and was then cancelled is told after it
            out.reply = f"Not played: {told[0]}" if not out.played else " ".join([f"Played `{record[0][1]}`.", *told])
            return out

    async def just_played(self, table: TableRow, seat: int, version: int, text: str) -> bool:
        """Whether a move control made at ``version`` that no longer applies is a second tap of a move the seat
        has just played (one or two commits ago), rather than a control from an earlier turn."""
        if table.version - version > 2:
            return False
        return any(m.seat == seat and m.notation == text for m in await self.core.db.moves(table.id, last=8))

    async def menu(self, table_id: int, actor: Actor, version: int, path: Sequence[int], *,
                   notation: str | None = None, public: bool = False) -> MenuStep:
        """The entry at ``path`` in the actor's move menu (a leaf is a move to submit), or with ``notation`` the move
        picked at that level, found by its notation. ``public``: the menu is on the public board, which only the
        seat it asks may use."""
        try:
            table, game, seat, state = await self.core.control_context(table_id, actor, version)
        except StaleButton:
            table = await self.core.table(table_id)
            seat = self.core.seat_for(table, actor)
            if notation is not None and await self.just_played(table, seat, version, notation):
                raise AlreadyPlayed(f"Already played: `{notation}` (your first pick played it).") from None
            raise
        if seat not in game.may_act(state):
            raise Refusal(self.presenter.not_your_turn(table, game, state))
        if public:
            self.presenter.check_board_controls(table, game, state, seat)
        choices = self.presenter.controls(table, game, state, seat).choices
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
            raise await self.core.stale(table, game, state, seat, version, "menu")
        # A pick is previewed where the game says so, unless it is the only choice: nothing to compare.
        confirm = (node.choice is not None and len(choices) > 1
                   and game.previewed(state, seat, game.parse_move(node.choice.notation)))
        return MenuStep(table.id, version, tuple(path), trail, node, confirm=confirm)

    async def preview(self, table_id: int, actor: Actor, version: int, notation: str) -> Post:
        """The actor's private view as it would be after ``notation``, with a Submit control; changes nothing."""
        table, game, seat, state = await self.core.control_context(table_id, actor, version)
        try:
            move = game.parse_move(notation)
            label = game.describe_move(state, seat, move)
            view = game.preview_view(state, seat, move)
        except GameError as err:
            raise Refusal(str(err)) from None
        names = [s.name for s in table.seats]
        board = await self.presenter.render(game, view, names)
        if board is not None:
            board = Board(board.png, board.alt, PREVIEW_FILE)
        return Post(title=f"Preview · {game.name} · table #{table.id}", board=board, colour=COLOUR_PLAY,
                    description=f"**{label}**\nSubmit to play it, or go back and choose again.",
                    controls=Controls(table.id, version, actor.user_id, (Choice(game.format_move(move), "Submit"),)),
                    footer="Only you can see this. Nothing is played until you submit.")

    async def resign(self, channel_id: int, actor: Actor, removed_by: str = "") -> Outcome:
        """``/resign``, or (``removed_by`` the host's or moderator's name) ``/game kick``: the player leaves the game
        and a bot plays their seat, ranked last; with one player left, the game ends."""
        table = await self.core.table_in(channel_id, finished_ok=True)
        async with self.core.locks[table.id]:
            table = await self.core.table(table.id)
            game = self.core.playing(table)
            seat = self.core.seat_for(table, actor)
            state = game.load(table.state or {})
            remaining = [s.seat for s in table.seats if not s.resigned and s.seat != seat]
            result = None
            how = "removed" if removed_by else "resigned"
            if len(remaining) < 2:
                result = self.core.standings(table, game, state, resigning=seat, how=how)
            note = f"{actor.name} was removed from the game by {removed_by}." if removed_by else \
                f"{actor.name} resigned."
            if result is None:
                note += " Their seat plays on automatically and ranks last."
            try:  # the board that says so is owed in the same transaction (the outbox)
                table = await self.core.db.resign(table.id, table.version, seat, self.core.clock(), result=result,
                                                  how=how, note=note)
            except StaleVersion:
                raise StaleButton("The game moved on while you clicked; try again.") from None
            goes_on = "a bot plays their seat" if result is None else "the game is over"
            reply = f"{actor.name} was removed from the game; {goes_on}." if removed_by else "You resigned."
            if result is None:
                out = await self.advance(table, game, state, [], [], intro=note, persisted=True)
                out.reply = reply
                return out
            await self.core.schedule_archive(table)
            return Outcome(public=[await self.presenter.board_post(table, game, state, [], note)], table_id=table.id,
                           channel_id=table.channel_id, reply=reply, outbox=(table.id, table.version))

    async def advance(self, table: TableRow, game: Game, state: Any, record: list[tuple[int, str, list[Event]]],
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
        base = await self.core.ply_base(table)

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
                    table = await self.core.db.record_moves(table.id, table.version, rows_of(record), game.dump(state),
                                                       self.core.clock(), announce=False,
                                                       asked=asked_anew(game, table, written, state))
                except StaleVersion:
                    raise StaleButton("Someone else's move got there first; look at the newest board.") from None
                record, persisted, written = [], True, state
                base = await self.core.ply_base(table)
            move = await self.core.thinker.move(game, state, seat, auto[seat], bot_rng(table, base + len(record)),
                                           game.key in CATALOG_KEYS)
            state, events = game.apply(state, seat, move)
            record.append((seat, game.format_move(move), events))
            plies += 1
            if plies > MAX_BOT_PLIES:
                raise RuntimeError(f"bots made over {MAX_BOT_PLIES} moves in table {table.id}")
        result = None
        if game.is_over(state):
            result = self.core.standings(table, game, state)
        # The mover's turn goes on with a follow-up (a card just drawn to place): no board until the turn ends.
        continuing = mover is not None and game.goes_on(state, mover)
        earlier = [e for m in await self.core.db.moves(table.id, last=base - table.announced_ply) for e in m.events] \
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
                deadline = self.core.clock() + seconds if seconds else None
        if record or not persisted:
            rows = rows_of(record)
            try:
                table = await self.core.db.record_moves(table.id, table.version, rows, game.dump(state),
                                                        self.core.clock(), result=result, announce=not continuing,
                                                   outbox=posts_board and bool(rows), deadline=deadline,
                                                   asked=asked_anew(game, table, written, state),
                                                   note="" if persisted else intro,
                                                   paused_left=paused_left)
            except StaleVersion:
                raise StaleButton("Someone else's move got there first; look at the newest board.") from None
        lines = earlier + [name_seats(e.text, names) for _, _, evs in record for e in evs]
        out = Outcome(table_id=table.id, channel_id=table.channel_id)
        if continuing and mover is not None:  # the mover carries on privately, with the next step's choices
            out.reply_post = await self.presenter.private_post(table, game, state, mover, game.view(state, mover),
                                                               names)
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
                out.reply_post = await self.presenter.private_post(table, game, state, mover,
                                                                   game.view(state, mover), names)
            return out
        # The public board and the private views render at once: Pillow releases the GIL while it
        # draws and encodes, so on a multi-core host the move costs about its slowest image.
        board, out.dms = await asyncio.gather(self.presenter.board_post(table, game, state, lines, intro),
                                              self.presenter.private_updates(table, game, old_state, state))
        # the mover's turn goes on, on choices only they may see (a hand): their next choices come with the answer,
        # without a picture (the board just posted has it)
        decision = game.decision(state, mover) if mover is not None and result is None else None
        was = game.decision(old_state, mover) if mover is not None and old_state is not None else None
        if decision is not None and decision.private and mover is not None and was is not None and \
                not decision.beside and not was.beside and \
                game.turns is not Turns.SIMULTANEOUS:
            out.reply_post = Post(title=f"Your move · {game.name} · table #{table.id}",
                                  description=name_seats(decision.prompt, names), colour=COLOUR_PLAY,
                                  controls=self.presenter.controls(table, game, state, mover),
                                  footer="Only you can see this. The board is in the channel.")
        out.dms += await self.presenter.turn_dms(table, game, state)
        out.public.append(board)
        out.outbox = (table.id, table.version)  # whatever owed this board (a move, a start, a resignation…)
        if result is not None:
            log.info("table %s finished: %s", table.id, result)
            await self.core.schedule_archive(table)
        return out

    async def resume_bots(self) -> list[Outcome]:
        """At start-up: games where a bot is to move (the process stopped while it thought) go on; its move is
        simply chosen again."""
        outs = []
        for row in await self.core.db.tables_with_status(ACTIVE):
            game = self.core.registry.get(row.game)
            if game is None or not row.state:
                continue
            auto = {s.seat for s in row.seats if s.is_bot or s.resigned}
            if not auto:
                continue  # no bot at the table: nothing to resume (and no state to read)
            state = game.load(row.state)
            if game.is_over(state) or not set(game.to_act(state)) & auto:
                continue
            async with self.core.locks[row.id]:
                table = await self.core.table(row.id)
                state = game.load(table.state or {})
                log.info("table %s: a bot resumes its move", table.id)
                outs.append(await self.advance(table, game, state, [], [], persisted=True))
        return outs

    async def undo(self, channel_id: int, actor: Actor) -> Outcome:
        """``/undo``, Board Game Arena's way: only your own last move, only while it is still your turn, never
        across another player's move, never once it rolled dice, dealt a card or revealed anything hidden."""
        table = await self.core.table_in(channel_id)
        async with self.core.locks[table.id]:
            table = await self.core.table(table.id)
            game = self.core.playing(table)
            seat = self.core.seat_for(table, actor)
            moves = await self.core.db.moves(table.id)
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
                table = await self.core.db.undo_move(table.id, table.version, moves[-1].ply, game.dump(before),
                                                self.core.clock())
            except StaleVersion:
                raise StaleButton("The game moved on while you asked; look at the newest board.") from None
            names = [s.name for s in table.seats]
            out = Outcome(table_id=table.id, channel_id=table.channel_id,
                          reply=f"Took back `{moves[-1].notation}`.")
            out.reply_post = await self.presenter.private_post(table, game, before, seat, game.view(before, seat),
                                                               names)
            return out

    async def kick(self, channel_id: int, actor: Actor, target: Actor) -> Outcome:
        """``/game kick`` (the host or a moderator): the player leaves the game; a bot keeps their seat."""
        table = await self.core.table_in(channel_id)
        if actor.user_id != table.host_id and not actor.can_manage:
            raise Refusal("Only the host or a moderator can remove a player.")
        seat = table.seat_of(target.user_id)
        if table.status != ACTIVE or seat is None or seat.resigned:
            raise Refusal(f"{target.name} isn't playing in the game here.")
        return await self.resign(channel_id, target, removed_by=actor.name)

    async def replace(self, channel_id: int, actor: Actor, old: Actor, new: Actor | None) -> Outcome:
        """``/game replace`` (a moderator): another member (or, without one, a bot) takes a player's seat; the game
        goes on from where it is."""
        table = await self.core.table_in(channel_id)
        if not actor.can_manage:
            raise Refusal("Only a moderator (Manage Channels) can give a seat to someone else.")
        seat = table.seat_of(old.user_id)
        if table.status != ACTIVE or seat is None:
            raise Refusal(f"{old.name} isn't playing in the game here.")
        if new is not None and table.seat_of(new.user_id) is not None:
            raise Refusal(f"{new.name} already has a seat in this game.")
        async with self.core.locks[table.id]:
            table = await self.core.table(table.id)
            name = new.name if new is not None else f"Bot ({old.name})"
            game = self.core.playing(table)
            state = game.load(table.state or {})
            # a person given the seat that alone is to act gets the turn's whole time (a bot plays at once; the
            # table has one clock, so where others are to act too it runs on for them all)
            seconds = clock_seconds(table, game, state) if main_seats(game, state) == {seat.seat} else None
            paused = table.paused_left is not None
            note = f"{actor.name} gave {old.name}'s seat to {name}."
            try:
                table = await self.core.db.replace_seat(
                    table.id, table.version, seat.seat, new.user_id if new is not None else None, name,
                    None if new is not None else TIMEOUT_BOT, self.core.clock(),
                    deadline=self.core.clock() + seconds if new is not None and seconds and not paused else False,
                    paused_left=seconds if new is not None and seconds and paused else False, note=note)
            except StaleVersion:
                raise StaleButton("The game moved on while you asked; try again.") from None
            out = await self.advance(table, game, state, [], [], intro=note, persisted=True)
            if not out.public:
                out.public.append(await self.presenter.board_post(table, game, state, [], note))
                out.outbox = (table.id, table.version)
            out.reply = note
            return out


def clock_seconds(table: TableRow, game: Game, state: Any) -> float | None:
    """The time the turn now owed gets on the clock (None: no clock). An answer owed outside one's own turn waits
    the table's `answers=` time, else its time per turn, else 12 hours, then takes its default: the game never
    waits forever on one player."""
    owed = game.decisions(state)
    answer = bool(owed) and owed[0].answer
    return (table.answer_seconds or table.turn_seconds or DECISION_SECONDS) if answer else table.turn_seconds


def main_seats(game: Game, state: Any) -> set[int] | frozenset[int]:
    """The seats on the main line (as :func:`_main_line`), or else those to act."""
    return {seat for seat, _ in _main_line(game, state)} or game.to_act(state)


def _main_line(game: Game, state: Any) -> tuple[tuple[int, str], ...]:
    """Who owes what on the main line (decisions neither alongside nor optional)."""
    return tuple((d.seat, d.kind) for d in game.decisions(state) if not d.beside)


def _beside(game: Game, state: Any, seat: int) -> bool:
    """Whether ``seat``'s decision in ``state`` runs beside the main line."""
    decision = game.decision(state, seat)
    return decision is not None and decision.beside


def bot_rng(table: TableRow, ply: int) -> Rng:
    """The random generator of a bot's move after ``ply`` moves of ``table``: from the table's seed, so a replay
    of the same requests chooses the same moves."""
    return Rng((table.seed or 0) ^ (0x9E3779B97F4A7C15 * (ply + 1)))
