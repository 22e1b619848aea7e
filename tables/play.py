"""Play: a move (or a resignation, a removal, a seat given to someone else, a late turn) checked, applied, answered
by the bots, stored in one versioned transaction, and what to post said; also the move menu, previews and undo.

Everything that moves a game goes through one loop, :meth:`Play.play_on`, which plays until a person must act:
a default owed (an answer whose time ran out), a late player's turn (played as the table's clock policy says), the
bot seats and the seats whose players left. :meth:`Play.advance` then stores what it played and says what to post.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from bots import level_of
from engine.base import CANCEL, Event, GameError, name_seats
from engine.rng import Rng
from storage import ACTIVE, StaleVersion, TableRow
from tables.catalog import default_catalog
from tables.core import Core
from tables.menu import MenuNode, MenuStep, walk
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
from tables.situation import Situation

log = logging.getLogger(__name__)

MAX_BOT_PLIES = 5000  # a safety bound on the moves one request plays for others
TIMEOUT_BOT = "medium"  # the bot that plays a late player's turn, and a seat whose player left
CATALOG_KEYS = frozenset(g.key for g in default_catalog().all())  # games a bot worker process can load
# how the loop chooses a seat's move: its decision's default, a bot seat's bot, or the bot of a late player's turn
DEFAULT, BOT, LATE = "default", "bot", "late"

Record = list[tuple[int, str, list[Event]]]  # moves played and not yet stored: (seat, notation, events)


@dataclass
class Run:
    """One request's play: the table as last stored, where the game stands now, and the moves since."""

    table: TableRow
    sit: Situation  # the position now
    written: Situation  # the position as stored: the seats whose decision changed since get stale controls
    base: int  # the ply of the last stored move
    record: Record = field(default_factory=list)
    stored: bool = False  # the change so far is stored (nothing to write unless moves are played)
    noted: bool = False  # the change (a start, a resignation, a seat given away, a forfeit) was stored with the word
    # its board opens with, and owes that board whatever the picks
    by_bot: bool = False  # a bot chose one of the moves played for a late player
    unnamed: set[int] = field(default_factory=set)  # indices in ``record`` of answers to a secret question

    def note_unnamed(self, before: Situation, seat: int) -> None:
        """The move just recorded answered a question whose asking is secret (``Decision.unnamed``): it is stored
        so, and /log shows it without its player."""
        if seat in before.unnamed:
            self.unnamed.add(len(self.record) - 1)

    def unnamed_plies(self) -> set[int]:
        return {self.base + i + 1 for i in self.unnamed}

    @classmethod
    async def of(cls, core: Core, table: TableRow, sit: Situation, *, stored: bool = False) -> Run:
        """A run from the table as stored; ``stored``: by a change that owes its board (with its note) already."""
        return cls(table, sit, sit, await core.ply_base(table), stored=stored, noted=stored)


@dataclass(frozen=True)
class Late:
    """Who the clock ran out on, and what is played for them: ``defaults``, seats whose owed answer takes its
    default (only an answer alongside someone's turn, with ``alongside_only``); then ``turns``, seats whose turn is
    played out, with the game's default move where the table says ``skip`` and the game has one, else the bot."""

    defaults: tuple[int, ...] = ()
    alongside_only: bool = False
    turns: tuple[int, ...] = ()
    skip: bool = False


class Play:
    """Requests that play: submit, the move menu and previews, resign, undo, kick, replace; and the one loop that
    plays on until a person must act, used by every one of them and by the clock."""

    def __init__(self, core: Core, presenter: Presenter) -> None:
        self.core = core
        self.presenter = presenter

    # --- a person's move ----------------------------------------------------------------------
    async def submit(self, actor: Actor, text: str, *, channel_id: int | None = None, table_id: int | None = None,
                     version: int | None = None, public: bool = False) -> Outcome:
        """Play one move given as notation. ``version`` comes from a button: a mismatch means a stale button.
        ``public``: the button is on the public board, which only the seat it asks may use."""
        if table_id is None:
            assert channel_id is not None
            table_id = await self.core.table_id_in(channel_id, finished_ok=True)
        async with self.core.locks[table_id]:
            table = await self.core.table(table_id)
            game = self.core.playing(table)
            seat = self.core.seat_for(table, actor)
            sit = self.core.situation(table, game)
            # a button names its move, which is checked again below: it stays good while only others move
            if version is not None and not self.core.current(table, seat, version):
                if await self.just_played(table, seat, version, text):
                    raise AlreadyPlayed("Already played: you played that move just before.")
                raise await self.core.stale(table, sit, seat, version, "button")
            return await self._play(table, sit, seat, text, public)

    async def _play(self, table: TableRow, sit: Situation, seat: int, text: str, public: bool) -> Outcome:
        """``seat`` plays ``text`` where the table stands (``sit``): checked, applied, answered, stored, told."""
        game = sit.game
        if seat not in sit.may_act:
            raise Refusal(self.presenter.not_your_turn(table, sit))
        if public:
            self.presenter.check_board_controls(table, sit, seat)
        try:
            move = game.parse_move(text)
            state, events = sit.apply(seat, move)
        except GameError as err:
            raise Refusal(str(err)) from None
        notation = game.format_move(move)
        said = game.text.describe_move(sit.state, seat, move)  # in words, as the menu offered it
        run = await Run.of(self.core, table, sit)
        run.record.append((seat, notation, events))
        run.note_unnamed(sit, seat)
        run.sit = Situation.of(game, state)
        out = await self.advance(run, before=sit, mover=seat)
        cancels = [e for e in events if e.kind == CANCEL]
        told = [name_seats(e.text, [s.name for s in table.seats]) for e in cancels]
        out.played = not any(e.data.get("move") == notation for e in cancels)
        # a move that waited on this answer (a Lookouts reroll) and was then cancelled is told after it
        out.reply = f"Not played: {told[0]}" if not out.played else " ".join([f"Played: {said.rstrip('.')}.", *told])
        return out

    async def just_played(self, table: TableRow, seat: int, version: int, text: str) -> bool:
        """Whether a move control made at ``version`` that no longer applies is a second tap of a move the seat
        has just played (one or two commits ago), rather than a control from an earlier turn."""
        if table.version - version > 2:
            return False
        return any(m.seat == seat and m.notation == text for m in await self.core.db.moves(table.id, last=8))

    async def menu(self, table_id: int, actor: Actor, version: int, path: Sequence[int], *,
                   notation: str | None = None, public: bool = False) -> MenuStep:
        """The entry at ``path`` in the actor's move menu (or, with ``notation``, the move picked at that level, found
        by its notation), without playing it: what :meth:`pick` finds."""
        table, seat, sit = await self._menu_context(table_id, actor, version, notation, public)
        return await self._step(table, sit, seat, version, path, notation)

    async def _menu_context(self, table_id: int, actor: Actor, version: int, notation: str | None, public: bool
                            ) -> tuple[TableRow, int, Situation]:
        try:
            table, seat, sit = await self.core.control_context(table_id, actor, version)
        except StaleButton:
            table = await self.core.table(table_id)
            seat = self.core.seat_for(table, actor)
            if notation is not None and await self.just_played(table, seat, version, notation):
                raise AlreadyPlayed("Already played: your first pick played it.") from None
            raise
        if seat not in sit.may_act:
            raise Refusal(self.presenter.not_your_turn(table, sit))
        if public:
            self.presenter.check_board_controls(table, sit, seat)
        return table, seat, sit

    async def pick(self, table_id: int, actor: Actor, version: int, path: Sequence[int], *,
                   notation: str | None = None, public: bool = False) -> MenuStep:
        """A pick in the actor's move menu, in one request: the entry at ``path`` (or, with ``notation``, the move
        picked at that level, found by its notation). A group or range is the next level to show; a move that the
        game previews comes with its preview (``MenuStep.preview``); any other move is played at once
        (``MenuStep.played``). ``public``: the menu is on the public board, which only the seat it asks may use."""
        table, seat, sit = await self._menu_context(table_id, actor, version, notation, public)
        step = await self._step(table, sit, seat, version, path, notation)
        if step.node.choice is None:
            return step
        text = step.node.choice.notation
        if step.confirm:
            step.preview = await self._preview(table, sit, seat, version, actor, text)
            return step
        async with self.core.locks[table_id]:  # (browsing the menu waits for nobody; playing takes the table's turn)
            if await self.core.db.version_of(table_id) != table.version:  # a move got there first: check again
                table, seat, sit = await self._menu_context(table_id, actor, version, text, public)
            step.played = await self._play(table, sit, seat, text, public)
        return step

    async def _step(self, table: TableRow, sit: Situation, seat: int, version: int, path: Sequence[int],
                    notation: str | None) -> MenuStep:
        root = sit.menu(seat)
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
                choice = next((c for c in sit.offered(seat) if c.notation == notation), None)
                if choice is None:
                    raise StaleButton("That move is no longer possible.")
                found = (0, MenuNode(choice.label, choice=choice))
            path, node, trail = (*path, found[0]), found[1], (*trail, found[1].label)
        elif node.choice is not None and version != table.version:
            # a numbered pick in a menu that has changed since: it may not be the move that was shown
            raise await self.core.stale(table, sit, seat, version, "menu")
        # A pick is previewed where the game says so, unless it is the only choice: nothing to compare.
        confirm = (node.choice is not None and len(sit.offered(seat)) > 1
                   and sit.previewed(seat, sit.game.parse_move(node.choice.notation)))
        return MenuStep(table.id, version, tuple(path), trail, node, confirm=confirm)

    async def preview(self, table_id: int, actor: Actor, version: int, notation: str) -> Post:
        """The actor's private view as it would be after ``notation``, with a Submit control; changes nothing."""
        table, seat, sit = await self.core.control_context(table_id, actor, version)
        return await self._preview(table, sit, seat, version, actor, notation)

    async def _preview(self, table: TableRow, sit: Situation, seat: int, version: int, actor: Actor,
                       notation: str) -> Post:
        game = sit.game
        try:
            move = game.parse_move(notation)
            label = game.text.describe_move(sit.state, seat, move)
            view = game.preview_view(sit.state, seat, move)
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

    # --- a player leaves, or their seat changes hands ------------------------------------------------
    async def resign(self, channel_id: int, actor: Actor, removed_by: str = "") -> Outcome:
        """``/resign``, or (``removed_by`` the host's or moderator's name) ``/game kick``: the player leaves the game
        and a bot plays their seat, ranked last; with one player left, the game ends."""
        table_id = await self.core.table_id_in(channel_id, finished_ok=True)
        async with self.core.locks[table_id]:
            table = await self.core.table(table_id)
            game = self.core.playing(table)
            seat = self.core.seat_for(table, actor)
            sit = self.core.situation(table, game)
            remaining = [s.seat for s in table.seats if not s.resigned and s.seat != seat]
            result = None
            how = "removed" if removed_by else "resigned"
            if len(remaining) < 2:
                result = self.core.standings(table, sit, resigning=(seat,), how=how)
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
                out = await self.advance(await Run.of(self.core, table, sit, stored=True), intro=note)
                out.reply = reply
                return out
            await self.core.schedule_archive(table)
            return Outcome(public=[await self.presenter.board_post(table, sit, [], note)], table_id=table.id,
                           channel_id=table.channel_id, reply=reply, outbox=(table.id, table.version))

    async def kick(self, channel_id: int, actor: Actor, target: Actor) -> Outcome:
        """``/game kick`` (the host or a moderator): the player leaves the game; a bot keeps their seat."""
        table = await self.core.table_in(channel_id)
        host = actor.user_id == table.host_id and table.tournament_id is None  # (a tournament game has no host)
        if not host and not actor.can_manage:
            raise Refusal("Only the host or a moderator can remove a player.")
        seat = table.seat_of(target.user_id)
        if table.status != ACTIVE or seat is None or seat.resigned:
            raise Refusal(f"{target.name} isn't playing in the game here.")
        # (named as their seat is: one who left the server comes by their account's name, not the one played under)
        return await self.resign(channel_id, Actor(target.user_id, seat.name), removed_by=actor.name)

    async def replace(self, channel_id: int, actor: Actor, old: Actor, new: Actor | None) -> Outcome:
        """``/game replace`` (a moderator): another member (or, without one, a bot) takes a player's seat; the game
        goes on from where it is."""
        table = await self.core.table_in(channel_id)
        if not actor.can_manage:
            raise Refusal("Only a moderator (Manage Channels) can give a seat to someone else.")
        seat = table.seat_of(old.user_id)
        if table.status != ACTIVE or seat is None:
            raise Refusal(f"{old.name} isn't playing in the game here.")
        old = Actor(old.user_id, seat.name)  # (named as their seat is, as /game kick does)
        if new is not None and table.seat_of(new.user_id) is not None:
            raise Refusal(f"{new.name} already has a seat in this game.")
        async with self.core.locks[table.id]:
            table = await self.core.table(table.id)
            name = new.name if new is not None else f"Bot ({old.name})"
            sit = self.core.situation(table, self.core.playing(table))
            # a person given the seat that alone is to act gets the turn's whole time (a bot plays at once; the
            # table has one clock, so where others are to act too it runs on for them all)
            seconds = sit.clock_seconds(table) if sit.main_seats == {seat.seat} else None
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
            out = await self.advance(await Run.of(self.core, table, sit, stored=True), intro=note)
            out.reply = note
            return out

    # --- the one loop -----------------------------------------------------------------------------
    async def play_on(self, run: Run, late: Late | None = None) -> None:
        """Play until a person must act: first what the clock owes (``late``: defaults taken, late turns played),
        then the bot seats and the seats whose players left (the medium bot plays those), lowest seat first.

        Before a medium or hard bot of a seat thinks, what people decided so far (and what was played for them) is
        stored (unannounced): a crash while it thinks loses nothing of theirs, and the bot simply chooses again at
        the next start (:func:`tables.quick.resume_bots`). Moves bot seats chose are stored with what comes after
        them (a crash while a later bot thinks loses them, and the bots choose them again: nobody was told them), so a
        bot's turn of several steps is one write, not one per step. A late turn's bot stores nothing until the turn is
        played (a crash leaves the turn late, played at the next tick, and nothing of it counted as the player's)."""
        game = run.sit.game
        # a seat its player left (resigned, removed, forfeited) is played sensibly, like a late turn
        auto = {s.seat: s.bot or TIMEOUT_BOT for s in run.table.seats if s.is_bot or s.resigned}
        by_bots = 0  # the moves at the end of run.record that bot seats chose
        for plies, (seat, by, what) in enumerate(self._movers(run, late or Late(), auto)):
            if plies >= MAX_BOT_PLIES:
                raise RuntimeError(f"over {MAX_BOT_PLIES} moves played in one request of table {run.table.id}")
            if by in (BOT, LATE):
                if by == BOT and level_of(what) != "easy" and len(run.record) > by_bots:
                    await self._store_so_far(run)
                    by_bots = 0
                move = await self.core.thinker.move(game, run.sit.state, seat, what,
                                                    bot_rng(run.table, run.base + len(run.record)),
                                                    game.key in CATALOG_KEYS)
            else:  # a default move, in notation
                move = game.parse_move(what)
            state, events = run.sit.apply(seat, move)
            run.record.append((seat, game.format_move(move), events))
            run.note_unnamed(run.sit, seat)
            run.sit = Situation.of(game, state)
            by_bots = by_bots + 1 if by == BOT else 0

    def _movers(self, run: Run, late: Late, auto: dict[int, str]) -> Iterator[tuple[int, str, str]]:
        """Who moves next and how, read from the position after each move (``run.sit``) until a person must act or
        the game ends: (seat, DEFAULT, the move's notation) or (seat, BOT or LATE, the bot's level)."""
        for seat in late.defaults:
            decision = run.sit.decision(seat)
            if run.sit.over:
                return
            if decision is not None and decision.default is not None and \
                    (decision.alongside or not late.alongside_only):
                yield seat, DEFAULT, decision.default
        for seat in late.turns:
            # the late turn only: the next one is the player's, with its own clock. It ends where the game says
            # (turn_of), or else at the first decision after a move that does not go on with it (not a follow-up)
            turn = run.sit.turn
            moved = 0
            while not run.sit.over and seat in run.sit.to_act and run.sit.turn == turn:
                decision = run.sit.decision(seat)
                if moved and turn is None and (decision is None or not decision.followup):
                    break
                default = decision.default if late.skip and decision is not None else None
                if default is not None and self._legal(run.sit, seat, default):
                    yield seat, DEFAULT, default
                else:  # a late turn is played sensibly: the medium bot, in the worker process
                    run.by_bot = True
                    yield seat, LATE, TIMEOUT_BOT
                moved += 1
        while not run.sit.over:
            ready = sorted(run.sit.to_act & auto.keys())
            if not ready:
                return
            yield ready[0], BOT, auto[ready[0]]

    @staticmethod
    def _legal(sit: Situation, seat: int, notation: str) -> bool:
        game = sit.game
        move = game.parse_move(notation)
        return game.is_legal(sit.state, seat, game.normalise_move(sit.state, seat, move))

    async def _store_so_far(self, run: Run) -> None:
        """Store the moves played so far and the position, unannounced (a bot is about to think)."""
        table, game = run.table, run.sit.game
        try:
            run.table = await self.core.db.record_moves(
                table.id, table.version, self._rows(run), game.dump(run.sit.state), self.core.clock(),
                announce=False, asked=asked_anew(table, run.written, run.sit), unnamed=run.unnamed_plies())
        except StaleVersion:
            raise StaleButton("Someone else's move got there first; look at the newest board.") from None
        self.core.situations.keep(run.table, run.sit)
        run.base += len(run.record)
        run.record, run.stored, run.written, run.unnamed = [], True, run.sit, set()

    @staticmethod
    def _rows(run: Run) -> list[tuple[int, int, str, list[str]]]:
        names = [s.name for s in run.table.seats]
        return [(run.base + i + 1, seat, text, [name_seats(e.text, names) for e in events])
                for i, (seat, text, events) in enumerate(run.record)]

    async def advance(self, run: Run, *, before: Situation | None = None, intro: str = "", mover: int | None = None,
                      late: Late | None = None) -> Outcome:
        """Play on until a person must act (:meth:`play_on`), store everything in one transaction, and say what to
        post.

        ``before``: the position the request found (None: everything is news, e.g. a start or a seat that changed
        hands: a board is posted and every private view sent). ``mover``: the seat whose move this was; if its turn
        goes on privately, or it has more to pick before the position moves on, the outcome's private reply is its
        view with the next step. ``intro``: the word the board opens with (a resignation, a clock run out); stored
        with the change already (``run.noted``), or here with the moves. ``late``: what the clock owes first."""
        await self.play_on(run, late)
        table, sit, game = run.table, run.sit, run.sit.game
        names = [s.name for s in table.seats]
        result = self.core.standings(table, sit) if sit.over else None
        # The mover's turn goes on with a follow-up (a card just drawn to place): no board until the turn ends.
        continuing = mover is not None and sit.goes_on(mover)
        # A private pick of simultaneous picks only updates the turn's status message; anything else that ends a
        # turn posts a board, which the outbox keeps owing (in the same transaction) until it is posted. (A change
        # stored with its own word, a forfeit, owes a board whatever the picks.)
        posts_board = sit.tells(None if run.noted and intro else before, mover)
        private_pick = not continuing and not posts_board
        earlier = list(table.untold) if not continuing else []  # moves stored before, not told yet
        deadline, paused_left = self._clock(run, before, mover, posts_board, result is not None)
        if run.record or not run.stored:
            rows = self._rows(run)
            try:
                table = await self.core.db.record_moves(
                    table.id, table.version, rows, game.dump(sit.state), self.core.clock(), result=result,
                    announce=not continuing, outbox=posts_board and bool(rows), deadline=deadline,
                    asked=asked_anew(table, run.written, sit), note="" if run.noted else intro,
                    paused_left=paused_left, unnamed=run.unnamed_plies())
            except StaleVersion:
                raise StaleButton("Someone else's move got there first; look at the newest board.") from None
            self.core.situations.keep(table, sit)
        lines = earlier + [name_seats(e.text, names) for _, _, evs in run.record for e in evs]
        out = Outcome(table_id=table.id, channel_id=table.channel_id)
        if continuing and mover is not None:  # the mover carries on privately, with the next step's choices
            out.reply_post = await self.presenter.private_post(table, sit, mover)
            return out
        if private_pick:
            # A private pick in a game of simultaneous picks: the channel hears only who is done, in one status
            # message per turn that is edited as players finish.
            done = [names[s.seat] for s in table.seats if s.seat not in sit.to_act and not s.resigned]
            if (lines or intro) and done:
                out.public.append(Post(description=f"**Done this turn:** {', '.join(done)}",
                                       footer=name_seats(game.text.status_line(sit.state), names), colour=COLOUR_PLAY,
                                       status_of=(table.id, sit.revealed_ply)))
            if mover is not None and mover in sit.to_act:
                out.reply_post = await self.presenter.private_post(table, sit, mover)
            return out
        # The public board and the private views render at once: Pillow releases the GIL while it
        # draws and encodes, so on a multi-core host the move costs about its slowest image.
        board, out.dms = await asyncio.gather(self.presenter.board_post(table, sit, lines, intro),
                                              self.presenter.private_updates(table, before, sit))
        # the mover's turn goes on, on choices only they may see (a hand): their next choices come with the answer,
        # without a picture (the board just posted has it)
        decision = sit.decision(mover) if mover is not None and result is None else None
        was = before.decision(mover) if mover is not None and before is not None else None
        if decision is not None and decision.private and mover is not None and was is not None and \
                not decision.beside and not was.beside and not sit.simultaneous:
            out.reply_post = Post(title=f"Your move · {game.name} · table #{table.id}",
                                  description=name_seats(decision.prompt, names), colour=COLOUR_PLAY,
                                  controls=self.presenter.controls(table, sit, mover),
                                  footer="Only you can see this. The board is in the channel.")
        out.dms += await self.presenter.turn_dms(table, sit)
        out.public.append(board)
        out.outbox = (table.id, table.version)  # whatever owed this board (a move, a start, a resignation…)
        if result is not None:
            log.info("table %s finished: %s", table.id, result)
            await self.core.schedule_archive(table)
        return out

    def _clock(self, run: Run, before: Situation | None, mover: int | None, posts_board: bool, over: bool
               ) -> tuple[float | None | bool, float | None | bool]:
        """The turn clock after this request: (deadline, paused time left), each False to keep it as it is.

        It restarts when a board hands the turn on, and stops when the game ends; a turn that goes on (a second
        action, a secret pick) keeps its deadline. A move beside the main line (a gift, a trade's answer, one Start
        of several) leaves the main line's clock running: the acting player gains no time from it, and the other
        answers keep their deadline. A paused clock stays paused: the turn handed on keeps its whole time."""
        if over:
            return None, None
        sit, table = run.sit, run.table
        beside = before is not None and mover is not None and before.beside(mover) and \
            before.main_line == sit.main_line and mover not in sit.to_act
        if not posts_board or beside:
            return False, False
        seconds = sit.clock_seconds(table)
        if table.paused_left is not None:
            return False, float(seconds) if seconds else None
        return self.core.clock() + seconds if seconds else None, False

    # --- undo --------------------------------------------------------------------------------------
    async def undo(self, channel_id: int, actor: Actor) -> Outcome:
        """``/undo``, Board Game Arena's way: only your own last move, only while it is still your turn, never
        across another player's move, never once it rolled dice, dealt a card or revealed anything hidden."""
        table_id = await self.core.table_id_in(channel_id)
        async with self.core.locks[table_id]:
            table = await self.core.table(table_id)
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
            out = Outcome(table_id=table.id, channel_id=table.channel_id,
                          reply=f"Took back `{moves[-1].notation}`.")
            out.reply_post = await self.presenter.private_post(table, Situation.of(game, before), seat)
            return out


def bot_rng(table: TableRow, ply: int) -> Rng:
    """The random generator of a bot's move after ``ply`` moves of ``table``: from the table's seed, so a replay
    of the same requests chooses the same moves."""
    return Rng((table.seed or 0) ^ (0x9E3779B97F4A7C15 * (ply + 1)))
