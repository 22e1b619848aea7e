"""The table service: lobbies, turns, bots, resignations and results, without Discord.

Each request reads the table from storage, checks who may do what, applies engine moves
and writes the result back in one versioned transaction, then says what to post where
(:class:`~tables.outcome.Outcome`). Requests for one table are serialised by a lock; the
version check in storage makes the same guarantee across processes and restarts.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from engine.base import Event, Game, GameError, Result, Turns, name_seats
from engine.rng import Rng
from storage import ACTIVE, FINISHED, LOBBY, ChannelBusy, Database, MoveRow, StaleVersion, TableRow
from tables.bots import BOT_LEVELS, choose_move
from tables.catalog import Catalog
from tables.menu import MenuStep, build_menu, walk
from tables.outcome import (
    PREVIEW_FILE,
    Actor,
    Board,
    Choice,
    Controls,
    DirectMessage,
    LobbyCard,
    LogPage,
    Outcome,
    Post,
    Refusal,
    StaleButton,
)

log = logging.getLogger(__name__)

MAX_CHOICES = 25  # a select menu's limit
MAX_BOT_PLIES = 5000  # a safety bound on bot moves in one request
EVENT_LINES = 12  # how many event lines a board post lists
LOG_PAGE_CHARS = 1800  # a /log page: well inside an embed description, short enough to read on a phone
ALT_LIMIT = 1024  # Discord's attachment description limit
PICTURE_FAILED = "⚠️ The picture could not be drawn this time (the error is logged); the game goes on."

COLOUR_LOBBY, COLOUR_PLAY, COLOUR_OVER, COLOUR_CANCELLED = 0x3B82F6, 0x2B7A78, 0xD4A017, 0x6B7280


def parse_options(text: str | None) -> dict[str, str]:
    """``"decks=2 jokers=yes"`` → ``{"decks": "2", "jokers": "yes"}``; raises :class:`Refusal`."""
    out: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise Refusal(f"Options look like `decks=2 jokers=yes`; I can't read `{part}`.")
        out[name.strip().lower()] = value.strip()
    return out


class TableService:
    def __init__(self, db: Database, registry: Catalog, *, clock: Callable[[], float] = time.time,
                 seeds: Callable[[], int] = lambda: secrets.randbits(63), render: bool = True) -> None:
        self.db = db
        self.registry = registry
        self.clock = clock
        self.seeds = seeds
        self.render_images = render
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # --- lookups -----------------------------------------------------------------------
    def game(self, key: str) -> Game:
        game = self.registry.get(key)
        if game is None:
            names = ", ".join(g.key for g in self.registry.all())
            raise Refusal(f"There is no game called `{key}`. Games: {names}.")
        return game

    async def table_in(self, channel_id: int, *, finished_ok: bool = False) -> TableRow:
        table = await self.db.open_table_in(channel_id)
        if table is None and finished_ok:
            table = await self.db.latest_table_in(channel_id)
        if table is None:
            raise Refusal("There is no game here. Start one with `/game new`.")
        return table

    async def _table(self, table_id: int) -> TableRow:
        table = await self.db.get_table(table_id)
        if table is None:
            raise Refusal("That table no longer exists.")
        return table

    # --- lobby -------------------------------------------------------------------------
    async def check_new(self, channel_id: int | None, game_key: str, options_text: str | None) -> dict[str, Any]:
        """Validate a new lobby; returns resolved options. ``channel_id=None``: a new thread, always free."""
        game = self.game(game_key)
        try:
            options = game.resolve_options(parse_options(options_text))
        except GameError as err:
            raise Refusal(str(err)) from None
        if channel_id is not None and await self.db.open_table_in(channel_id):
            raise Refusal("This channel already has a game. Finish or cancel it (`/game cancel`), "
                          "or start the new one in a thread.")
        return options

    async def open_lobby(self, *, guild_id: int | None, channel_id: int, host: Actor, game_key: str,
                         options_text: str | None = None, lobby_channel_id: int | None = None,
                         lobby_message_id: int | None = None) -> Outcome:
        options = await self.check_new(channel_id, game_key, options_text)
        return await self._create_lobby(guild_id, channel_id, host, game_key, options, lobby_channel_id,
                                        lobby_message_id)

    async def _create_lobby(self, guild_id: int | None, channel_id: int, host: Actor, game_key: str,
                            options: dict[str, Any], lobby_channel_id: int | None = None,
                            lobby_message_id: int | None = None) -> Outcome:
        try:
            table_id = await self.db.create_table(
                guild_id=guild_id, channel_id=channel_id, game=game_key, options=options, host_id=host.user_id,
                host_name=host.name, now=self.clock(), lobby_channel_id=lobby_channel_id,
                lobby_message_id=lobby_message_id)
        except ChannelBusy:
            raise Refusal("This channel already has a game.") from None
        table = await self._table(table_id)
        log.info("lobby %s opened for %s in channel %s by %s", table_id, game_key, channel_id, host.user_id)
        return Outcome(lobby=self._lobby_card(table), table_id=table_id, channel_id=channel_id,
                       reply=f"Lobby for {self.game(game_key).name} opened.")

    async def rematch(self, table_id: int, actor: Actor) -> Outcome:
        """A new lobby in the same channel, same game and options, the same bots, the caller as host.

        The other people are invited (mentioned) rather than seated: they join if they want to.
        """
        old = await self._table(table_id)
        if old.status != FINISHED:
            raise Refusal("A rematch can start once this game is over.")
        if old.seat_of(actor.user_id) is None:
            raise Refusal("Only the players of that game can start its rematch; open your own with `/game new`.")
        if await self.db.open_table_in(old.channel_id):
            raise Refusal("There is already a new lobby or game here.")
        out = await self._create_lobby(old.guild_id, old.channel_id, actor, old.game, old.options)
        assert out.table_id is not None
        table = await self._table(out.table_id)
        bots: list[tuple[int | None, str, str | None]] = [(None, s.name, s.bot) for s in old.seats if s.is_bot]
        if bots:
            await self.db.set_seats(table.id, table.version, self._rows(table) + bots, self.clock())
            table = await self._table(table.id)
        others = [s.user_id for s in old.seats if s.user_id is not None and s.user_id != actor.user_id]
        card = self._lobby_card(table, note=f"Rematch of table #{old.id}.")
        if others:
            card.post.content = " ".join(f"<@{u}>" for u in others) + f" — {actor.name} wants a rematch: join below."
            card.post.mention_ids = others
        out.lobby = card
        out.reply = "Rematch lobby opened."
        return out

    async def set_lobby_message(self, table_id: int, channel_id: int, message_id: int) -> None:
        await self.db.set_lobby_message(table_id, channel_id, message_id)

    def _lobby_card(self, table: TableRow, note: str = "") -> LobbyCard:
        game = self.game(table.game)
        seats = "\n".join(
            f"{i + 1}. {s.name}" + (" (bot)" if s.is_bot else "") + (" — host" if s.user_id == table.host_id else "")
            for i, s in enumerate(table.seats)) or "nobody yet"
        opts = ", ".join(f"{k}={_fmt_opt(v)}" for k, v in table.options.items()) or "none"
        status = {LOBBY: "Waiting for players", ACTIVE: "In progress", "finished": "Finished",
                  "cancelled": "Cancelled"}[table.status]
        desc = f"{game.summary}\n\n**{status}.**"
        if note:
            desc += f"\n{note}"
        if table.status == LOBBY:
            advice = game.advice(len(table.seats), table.options)
            desc += f"\nNeeds {game.min_players}–{game.max_players} players. The host starts the game."
            if advice:
                desc += f"\n💡 {advice}"
        post = Post(title=f"{game.name} · table #{table.id}", description=desc,
                    fields=[(f"Players ({len(table.seats)}/{game.max_players})", seats), ("Options", opts)],
                    footer="Join, leave, add a bot, or start (host) with the buttons below.",
                    colour=COLOUR_LOBBY if table.status == LOBBY else COLOUR_PLAY)
        return LobbyCard(table_id=table.id, post=post, open=table.status == LOBBY)

    async def _lobby_change(self, table_id: int, actor: Actor, change: Callable[[TableRow], tuple[list, int, str]],
                            version: int | None = None) -> Outcome:
        async with self._locks[table_id]:
            table = await self._table(table_id)
            if table.status != LOBBY:
                raise Refusal("This lobby is closed: the game has started or was cancelled.")
            if version is not None and version != table.version:
                raise StaleButton("The lobby changed; try again.")
            seats, host_id, note = change(table)
            try:
                await self.db.set_seats(table.id, table.version, seats, self.clock(),
                                        host_id=host_id if host_id != table.host_id else None)
            except StaleVersion:
                raise StaleButton("The lobby changed while you clicked; try again.") from None
            table = await self._table(table_id)
            return Outcome(lobby=self._lobby_card(table), table_id=table.id, channel_id=table.channel_id,
                           reply=note)

    @staticmethod
    def _rows(table: TableRow) -> list[tuple[int | None, str, str | None]]:
        return [(s.user_id, s.name, s.bot) for s in table.seats]

    async def join(self, table_id: int, actor: Actor) -> Outcome:
        def change(table: TableRow) -> tuple[list, int, str]:
            game = self.game(table.game)
            if table.seat_of(actor.user_id):
                raise Refusal("You are already in this game.")
            if len(table.seats) >= game.max_players:
                raise Refusal(f"The table is full ({game.max_players} players).")
            return self._rows(table) + [(actor.user_id, actor.name, None)], table.host_id, "You joined the game."
        return await self._lobby_change(table_id, actor, change)

    async def leave(self, table_id: int, actor: Actor) -> Outcome:
        def change(table: TableRow) -> tuple[list, int, str]:
            if not table.seat_of(actor.user_id):
                raise Refusal("You are not in this game.")
            rows = [r for r in self._rows(table) if r[0] != actor.user_id]
            humans = [r[0] for r in rows if r[0] is not None]
            if not humans:
                raise Refusal("You are the last player: use Cancel to close the lobby.")
            host = table.host_id if table.host_id != actor.user_id else humans[0]
            return rows, host, "You left the game."
        return await self._lobby_change(table_id, actor, change)

    async def add_bot(self, table_id: int, actor: Actor, level: str = "random") -> Outcome:
        def change(table: TableRow) -> tuple[list, int, str]:
            game = self.game(table.game)
            if actor.user_id != table.host_id and not table.seat_of(actor.user_id):
                raise Refusal("Only players at this table can add a bot.")
            if level not in BOT_LEVELS:
                raise Refusal(f"Bots come in: {', '.join(BOT_LEVELS)}.")
            if len(table.seats) >= game.max_players:
                raise Refusal(f"The table is full ({game.max_players} players).")
            taken = {s.name for s in table.seats}
            name = next(f"Bot {i}" for i in range(1, 10) if f"Bot {i}" not in taken)
            return self._rows(table) + [(None, name, level)], table.host_id, f"{name} joined."
        return await self._lobby_change(table_id, actor, change)

    async def start(self, table_id: int, actor: Actor, version: int | None = None) -> Outcome:
        async with self._locks[table_id]:
            table = await self._table(table_id)
            if table.status != LOBBY:
                raise Refusal("This game has already started or was cancelled.")
            if actor.user_id != table.host_id:
                raise Refusal("Only the host can start the game.")
            if version is not None and version != table.version:
                raise StaleButton("The lobby changed since you looked: check the players, then start again.")
            game = self.game(table.game)
            if len(table.seats) < game.min_players:
                raise Refusal(f"{game.name} needs at least {game.min_players} players: "
                              "wait for someone to join, or add a bot.")
            seed = self.seeds()
            try:
                state = game.new_game(len(table.seats), table.options, seed)
            except GameError as err:  # an option that doesn't suit this many players
                raise Refusal(f"Can't start: {err}") from None
            try:
                await self.db.start(table.id, table.version, seed, game.dump(state), self.clock())
            except StaleVersion:
                raise StaleButton("The lobby changed while you clicked; try again.") from None
            table = await self._table(table_id)
            log.info("table %s started: %s with %d seats", table.id, game.key, len(table.seats))
            out = await self._advance(table, game, state, [], [], intro=f"{game.name} begins!")
            out.lobby = self._lobby_card(await self._table(table_id), note="The game is on: see the board below.")
            out.reply = "Game started."
            return out

    async def cancel(self, channel_or_table: int, actor: Actor, *, by_table: bool = False) -> Outcome:
        table = await (self._table(channel_or_table) if by_table else self.table_in(channel_or_table))
        async with self._locks[table.id]:
            table = await self._table(table.id)
            if table.status not in (LOBBY, ACTIVE):
                raise Refusal("This game is already over.")
            if actor.user_id != table.host_id and not actor.can_manage:
                raise Refusal("Only the host, or someone who can manage this channel, can cancel the game.")
            try:
                await self.db.cancel(table.id, table.version, self.clock())
            except StaleVersion:
                raise StaleButton("The game moved on while you clicked; try again.") from None
            table = await self._table(table.id)
            log.info("table %s cancelled by %s", table.id, actor.user_id)
            post = Post(title=f"{self.game(table.game).name} · table #{table.id}",
                        description=f"Game cancelled by {actor.name}.", colour=COLOUR_CANCELLED)
            return Outcome(public=[post], lobby=self._lobby_card(table, note=f"Cancelled by {actor.name}."),
                           table_id=table.id, channel_id=table.channel_id, reply="Game cancelled.")

    # --- playing -----------------------------------------------------------------------
    def _seat_for(self, table: TableRow, actor: Actor) -> int:
        seat = table.seat_of(actor.user_id)
        if seat is None:
            raise Refusal("You are not playing in this game.")
        if seat.resigned:
            raise Refusal("You resigned from this game.")
        return seat.seat

    def _playing(self, table: TableRow) -> Game:
        if table.status == LOBBY:
            raise Refusal("The game has not started yet.")
        if table.status != ACTIVE:
            raise Refusal("This game is over." if table.status == "finished" else "This game was cancelled.")
        return self.game(table.game)

    async def submit(self, actor: Actor, text: str, *, channel_id: int | None = None, table_id: int | None = None,
                     version: int | None = None) -> Outcome:
        """Play one move given as notation. ``version`` comes from a button: a mismatch means a stale button."""
        if table_id is None:
            assert channel_id is not None
            table_id = (await self.table_in(channel_id, finished_ok=True)).id
        async with self._locks[table_id]:
            table = await self._table(table_id)
            game = self._playing(table)
            seat = self._seat_for(table, actor)
            if version is not None and not self._current(table, game, seat, version):
                raise StaleButton("That button is from an earlier turn.")
            state = game.load(table.state or {})
            if seat not in game.to_act(state):
                raise Refusal(self._not_your_turn(table, game, state))
            try:
                move = game.parse_move(text)
                new_state, events = game.apply(state, seat, move)
            except GameError as err:
                raise Refusal(str(err)) from None
            record = [(seat, game.format_move(move), events)]
            out = await self._advance(table, game, new_state, record, [state], mover=seat)
            out.reply = f"Played `{record[0][1]}`."
            return out

    @staticmethod
    def _current(table: TableRow, game: Game, seat: int, version: int) -> bool:
        """Whether a control made at ``version`` for ``seat`` still applies: nothing changed since, or (in a game of
        simultaneous picks) only other seats picked."""
        if version == table.version:
            return True
        return game.turns is Turns.SIMULTANEOUS and version >= table.seats[seat].acted_version

    async def _control_context(self, table_id: int, actor: Actor, version: int) -> tuple[TableRow, Game, int, Any]:
        """Table, game, seat and state for a private control made at ``version``; refuses a stale one."""
        table = await self._table(table_id)
        game = self._playing(table)
        seat = self._seat_for(table, actor)
        if not self._current(table, game, seat, version):
            raise StaleButton("That menu is from an earlier turn.")
        return table, game, seat, game.load(table.state or {})

    async def menu(self, table_id: int, actor: Actor, version: int, path: Sequence[int]) -> MenuStep:
        """The entry at ``path`` in the actor's move menu (a leaf is a move to submit)."""
        table, game, seat, state = await self._control_context(table_id, actor, version)
        if seat not in game.to_act(state):
            raise Refusal(self._not_your_turn(table, game, state))
        root = build_menu(self._controls(table, game, state, seat).choices)
        try:
            node, trail = walk(root, path)
        except IndexError:
            raise StaleButton("That menu is out of date.") from None
        decision = game.decision(state, seat)
        return MenuStep(table.id, version, tuple(path), trail, node, confirm=decision is not None and decision.preview)

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

    def _not_your_turn(self, table: TableRow, game: Game, state: Any) -> str:
        names = [s.name for s in table.seats]
        waiting = ", ".join(names[s] for s in sorted(game.to_act(state)))
        return f"It is not your turn: waiting for {waiting}."

    async def resign(self, channel_id: int, actor: Actor) -> Outcome:
        table = await self.table_in(channel_id, finished_ok=True)
        async with self._locks[table.id]:
            table = await self._table(table.id)
            game = self._playing(table)
            seat = self._seat_for(table, actor)
            state = game.load(table.state or {})
            remaining = [s.seat for s in table.seats if not s.resigned and s.seat != seat]
            result = None
            if len(remaining) < 2:
                result = self._standings(table, game, state, resigning=seat)
            try:
                await self.db.resign(table.id, table.version, seat, self.clock(), result=result)
            except StaleVersion:
                raise StaleButton("The game moved on while you clicked; try again.") from None
            table = await self._table(table.id)
            note = f"{actor.name} resigned."
            if result is None:
                note += " Their seat plays on automatically and ranks last."
                out = await self._advance(table, game, state, [], [], intro=note, persisted=True)
                out.reply = "You resigned."
                return out
            return Outcome(public=[await self._board_post(table, game, state, [note])], table_id=table.id,
                           channel_id=table.channel_id, reply="You resigned.")

    async def _advance(self, table: TableRow, game: Game, state: Any, record: list[tuple[int, str, list[Event]]],
                       before: list[Any], intro: str = "", persisted: bool = False, mover: int | None = None
                       ) -> Outcome:
        """Let bots (and resigned seats) move, persist everything in one transaction, and say what to post.

        ``mover`` is the seat whose move this was: if it has more to pick before the position moves on (a
        game of private picks), the outcome's private reply is its view with the next step."""
        old_state = before[0] if before else None
        auto = {s.seat: s.bot or "random" for s in table.seats if s.is_bot or s.resigned}
        plies = 0
        base = await self._ply_base(table)
        while not game.is_over(state):
            ready = sorted(set(game.to_act(state)) & set(auto))
            if not ready:
                break
            seat = ready[0]
            ply = base + len(record)
            rng = Rng((table.seed or 0) ^ (0x9E3779B97F4A7C15 * (ply + 1)))
            move = choose_move(game, state, seat, auto[seat], rng)
            state, events = game.apply(state, seat, move)
            record.append((seat, game.format_move(move), events))
            plies += 1
            if plies > MAX_BOT_PLIES:
                raise RuntimeError(f"bots made over {MAX_BOT_PLIES} moves in table {table.id}")
        result = None
        if game.is_over(state):
            result = self._standings(table, game, state)
        names = [s.name for s in table.seats]
        if record or not persisted:
            rows = [(base + i + 1, seat, text, [name_seats(e.text, names) for e in evs])
                    for i, (seat, text, evs) in enumerate(record)]
            try:
                await self.db.record_moves(table.id, table.version, rows, game.dump(state), self.clock(),
                                           result=result)
            except StaleVersion:
                raise StaleButton("Someone else's move got there first; look at the newest board.") from None
        table = await self._table(table.id)
        lines = [intro] if intro else []
        lines += [name_seats(e.text, names) for _, _, evs in record for e in evs]
        out = Outcome(table_id=table.id, channel_id=table.channel_id)
        if old_state is not None and result is None and game.revealed_ply(old_state) == game.revealed_ply(state):
            # A private pick in a game of simultaneous picks: the channel only hears what happened (who is done).
            if lines:
                out.public.append(Post(description="\n".join(f"• {line}" for line in lines[-EVENT_LINES:]),
                                       footer=name_seats(game.status_line(state), names), colour=COLOUR_PLAY))
            if mover is not None and mover in game.to_act(state):
                out.reply_post = await self._private_post(table, game, state, mover, game.view(state, mover), names)
            return out
        # The public board and the private views render at once: Pillow releases the GIL while it
        # draws and encodes, so on a multi-core host the move costs about its slowest image.
        board, out.dms = await asyncio.gather(self._board_post(table, game, state, lines),
                                              self._private_updates(table, game, old_state, state))
        out.public.append(board)
        if result is not None:
            log.info("table %s finished: %s", table.id, result)
        return out

    async def _ply_base(self, table: TableRow) -> int:
        last = await self.db.moves(table.id, last=1)
        return last[-1].ply if last else 0

    def _standings(self, table: TableRow, game: Game, state: Any, resigning: int | None = None) -> dict[str, Any]:
        """The engine's result, with resigned seats ranked last (earliest resignation lowest)."""
        n = len(table.seats)
        resigned = {s.seat: s.resigned for s in table.seats if s.resigned}
        if resigning is not None:
            resigned[resigning] = max(resigned.values(), default=0) + 1
        res: Result | None = game.result(state)
        scores = list(res.scores) if res else [float(x) for x in game.scores(state)] or [0.0] * n
        base_rank = list(res.ranks) if res else [1] * n
        # Sort key: not resigned first (by engine rank), then resigned by reverse order of resignation.
        keys = [(0, base_rank[p]) if p not in resigned else (1, -resigned[p]) for p in range(n)]
        ranks = [1 + sum(1 for q in range(n) if keys[q] < keys[p]) for p in range(n)]
        cooperative = bool(res and res.cooperative)
        if cooperative:  # the seats win or lose together: a cooperative loss has no winner
            assert res is not None
            winners = [p for p in sorted(res.winners) if p not in resigned]
        else:
            winners = [p for p in range(n) if ranks[p] == 1]
        if resigned and len(resigned) >= n - 1:
            reason = "the other players resigned"
        elif res:
            reason = res.reason
        else:
            reason = ""
        out = {"scores": scores, "ranks": ranks, "winners": winners, "reason": reason, "resigned": sorted(resigned)}
        if cooperative:
            out["cooperative"] = True
        if res and res.rung:
            out["rung"] = res.rung
        return out

    async def _render(self, game: Game, view: dict[str, Any], names: list[str]) -> Board | None:
        if not self.render_images:
            return None
        try:
            png = await asyncio.to_thread(self.registry.entry(game.key).render, view, names)
        except Exception:
            # The move (if any) is already stored: say so truthfully and post the rest rather than fail the request.
            log.exception("could not draw the %s picture (ply %s)", game.key, view.get("ply"))
            return None
        alt = game.alt_text(view, names) or f"{game.name} board."
        return Board(png=png, alt=alt[: ALT_LIMIT - 1] + "…" if len(alt) > ALT_LIMIT else alt)

    async def _board_post(self, table: TableRow, game: Game, state: Any, lines: Sequence[str]) -> Post:
        names = [s.name for s in table.seats]
        view = game.view(state, None)
        board = await self._render(game, view, names)
        scores = game.scores(state)
        fields: list[tuple[str, str]] = []
        if scores:
            fields.append(("Scores", " · ".join(f"{names[i]} **{_num(x)}**" for i, x in enumerate(scores))))
        content = ""
        mention_ids: list[int] = []
        controls = None
        rematch = None
        if table.status == ACTIVE and not game.is_over(state):
            acting = sorted(game.to_act(state))
            fields.insert(0, ("To play", ", ".join(_who(table, p) for p in acting)))
            status = name_seats(game.status_line(state), names)
            if status:
                fields.append(("Now", status))
            mention_ids = [uid for p in acting
                           if (uid := table.seats[p].user_id) is not None and not table.seats[p].resigned]
            if mention_ids:
                content = " ".join(f"<@{u}>" for u in mention_ids) + (" — your turn." if len(mention_ids) == 1
                                                                       else " — your move.")
            # A hidden-information game's choices reveal the mover's hand, so they only go out privately
            # (DM, /hand, the "My view" button), never on the public board.
            decision = game.decision(state, acting[0]) if len(acting) == 1 else None
            if decision is not None and table.seats[decision.seat].user_id is not None and not decision.private:
                controls = self._controls(table, game, state, decision.seat)
            colour = COLOUR_PLAY
        else:
            standings = table.result or self._standings(table, game, state)
            fields.insert(0, ("Result", _standings_text(standings, names)))
            content = "🏁 Game over! " + _verdict(table, standings)
            colour = COLOUR_OVER
            rematch = table.id
        ply = game.ply(state)
        shown = list(lines)[-EVENT_LINES:]
        if len(lines) > EVENT_LINES:
            shown.insert(0, f"… {len(lines) - EVENT_LINES} earlier events in `/log`")
        if board is None and self.render_images:
            shown.append(PICTURE_FAILED)
        return Post(
            content=content, title=f"{game.name} · table #{table.id}",
            description="\n".join(f"• {line}" for line in shown) or "\u200b",
            fields=fields, footer=f"Move {ply} · /move to play · /hand for your view · /log for history",
            colour=colour, board=board, controls=controls, panel_table=table.id if table.status == ACTIVE else None,
            rematch_table=rematch, mention_ids=mention_ids)

    def _controls(self, table: TableRow, game: Game, state: Any, seat: int) -> Controls:
        moves = game.menu_moves(state, seat)
        choices = tuple(Choice(game.format_move(m), game.describe_move(state, seat, m),
                               game.menu_groups(state, seat, m)) for m in moves)
        return Controls(table_id=table.id, version=table.version, user_id=table.seats[seat].user_id,
                        choices=choices)

    async def _private_updates(self, table: TableRow, game: Game, old: Any, new: Any) -> list[DirectMessage]:
        """DM each person whose private information changed (in a game with nothing hidden, nobody's does)."""
        names = [s.name for s in table.seats]
        changed = [s for s in table.seats if s.user_id is not None and not s.resigned
                   and game.private_info(new, s.seat) != ({} if old is None else game.private_info(old, s.seat))]
        posts = await asyncio.gather(*(self._private_post(table, game, new, s.seat, game.view(new, s.seat), names)
                                       for s in changed))
        return [DirectMessage(user_id=s.user_id, table_id=table.id, post=post)
                for s, post in zip(changed, posts, strict=True) if s.user_id is not None]

    async def _private_post(self, table: TableRow, game: Game, state: Any, seat: int, view: dict[str, Any],
                            names: list[str]) -> Post:
        board = await self._render(game, view, names)
        decision = game.decision(state, seat) if table.status == ACTIVE else None
        to_act = decision is not None and seat in game.to_act(state)
        if decision is not None:
            desc = name_seats(decision.prompt, names) if to_act else "Not your turn yet."
        elif game.turns is Turns.SIMULTANEOUS and not game.is_over(state):
            desc = "You are done for this turn; waiting for the others."
        else:
            desc = "Not your turn yet."
        return Post(title=f"Your view · {game.name} · table #{table.id}", description=desc, board=board,
                    controls=self._controls(table, game, state, seat) if to_act else None,
                    footer="Only you can see this.", colour=COLOUR_PLAY)

    async def dm_result(self, table_id: int, user_id: int, delivered: bool) -> Post | None:
        """Record whether a DM arrived; returns a public notice the first time DMs fail."""
        table = await self._table(table_id)
        seat = table.seat_of(user_id)
        if seat is None or seat.dm_open == delivered:
            return None
        await self.db.set_dm_open(table_id, user_id, delivered)
        if delivered:
            return None
        return Post(content=f"<@{user_id}>", description="I can't send you direct messages, so your private view "
                    "won't arrive by DM. The game goes on: use `/hand` here to see it any time.",
                    colour=COLOUR_LOBBY, mention_ids=[user_id])

    # --- information -------------------------------------------------------------------
    async def board(self, channel_id: int) -> Outcome:
        table = await self.table_in(channel_id, finished_ok=True)
        if table.status == LOBBY:
            return Outcome(reply_post=self._lobby_card(table).post, table_id=table.id)
        game = self.game(table.game)
        state = game.load(table.state or {})
        last = await self.db.moves(table.id, last=3)
        lines = [e for m in last for e in m.events]
        post = await self._board_post(table, game, state, lines)
        return Outcome(public=[post], table_id=table.id, channel_id=table.channel_id)

    async def hand(self, channel_id: int | None, actor: Actor, *, table_id: int | None = None) -> Outcome:
        table = await (self._table(table_id) if table_id is not None else self.table_in(channel_id or 0,
                                                                                         finished_ok=True))
        if table.status == LOBBY:
            raise Refusal("The game has not started yet.")
        seat = table.seat_of(actor.user_id)
        if seat is None:
            raise Refusal("You are not playing in this game.")
        game = self.game(table.game)
        state = game.load(table.state or {})
        names = [s.name for s in table.seats]
        post = await self._private_post(table, game, state, seat.seat, game.view(state, seat.seat), names)
        if table.status != ACTIVE or seat.resigned:
            post.controls = None
            post.description = "This game is over." if table.status != ACTIVE else "You resigned."
        return Outcome(reply_post=post, table_id=table.id)

    async def choices(self, channel_id: int, actor: Actor, typed: str = "") -> list[Choice]:
        """The caller's legal moves whose notation or label contains what they typed."""
        table = await self.db.open_table_in(channel_id)
        if table is None or table.status != ACTIVE:
            return []
        seat = table.seat_of(actor.user_id)
        if seat is None or seat.resigned:
            return []
        game = self.game(table.game)
        state = game.load(table.state or {})
        typed = " ".join(typed.split()).casefold()
        return [c for c in self._controls(table, game, state, seat.seat).choices
                if typed in c.notation.casefold() or typed in c.label.casefold()]

    async def status(self, channel_id: int) -> str:
        table = await self.table_in(channel_id, finished_ok=True)
        game = self.game(table.game)
        names = [s.name for s in table.seats]
        head = f"**{game.name}** · table #{table.id} · {table.status}"
        players = ", ".join(s.name + (" (bot)" if s.is_bot else "") + (" (resigned)" if s.resigned else "")
                            for s in table.seats)
        lines = [head, f"Players: {players}"]
        if table.state:
            state = game.load(table.state)
            scores = game.scores(state)
            if scores:
                lines.append("Scores: " + " · ".join(f"{names[i]} {_num(x)}" for i, x in enumerate(scores)))
            if table.status == ACTIVE:
                lines.append(name_seats(game.status_line(state), names))
        if table.result:
            lines.append("Result: " + _standings_text(table.result, names))
        return "\n".join(lines)

    async def history(self, channel_id: int, last: int = 15) -> str:
        """The latest ``last`` moves in words, one line each (``/log`` pages through all of them: :meth:`log_page`)."""
        table = await self.table_in(channel_id, finished_ok=True)
        moves = await self.db.moves(table.id, last=last)
        if not moves:
            return "No moves yet."
        return "\n".join(self._log_lines(table, moves))

    async def log_page(self, *, channel_id: int | None = None, table_id: int | None = None,
                       page: int | None = None, last: int | None = None) -> LogPage:
        """One page of the whole move log, oldest first; ``page`` counts from 1, None (or past the end) is the
        newest. Pages are cut from the oldest move on, so a page keeps its moves as the game goes on.

        With ``last``: only the latest ``last`` moves; if they don't fit one page, the newest that fit and a line
        saying how many earlier ones `/log` pages through (never a silent cut)."""
        table = await (self._table(table_id) if table_id is not None else self.table_in(channel_id or 0,
                                                                                         finished_ok=True))
        title = f"{self.game(table.game).name} · table #{table.id} · moves"
        moves = await self.db.moves(table.id, last=last)
        lines = self._log_lines(table, moves)
        if not lines:
            return LogPage(table.id, title, ("No moves yet.",), 1, 1, "")
        if last is not None:
            shown = _pages(lines, LOG_PAGE_CHARS - 80)[-1]
            if len(shown) < len(lines):
                shown.insert(0, f"… {len(lines) - len(shown)} earlier of these moves: `/log` pages through all.")
            return LogPage(table.id, title, tuple(shown), 1, 0, f"The latest {len(moves)} moves · `/log` for all")
        pages = _pages(lines, LOG_PAGE_CHARS)
        number = len(pages) if page is None else min(max(page, 1), len(pages))
        return LogPage(table.id, title, tuple(pages[number - 1]), number, len(pages),
                       f"Page {number} of {len(pages)} · oldest first")

    def _log_lines(self, table: TableRow, moves: Sequence[MoveRow]) -> list[str]:
        """Moves in words; picks that are still secret (simultaneous turns) say only that they happened."""
        names = [s.name for s in table.seats]
        game = self.game(table.game)
        if table.state and table.status == ACTIVE and moves:
            state = game.load(table.state)
            first_secret = game.revealed_ply(state) + 1
        else:
            first_secret = None
        return [f"`{m.ply:>3}` {names[m.seat]}: "
                + ("*a private pick (shown when the turn resolves)*" if first_secret and m.ply >= first_secret
                   else f"`{m.notation}`") + (" — " + " ".join(m.events) if m.events else "")
                for m in moves]


def _pages(lines: Sequence[str], budget: int) -> list[list[str]]:
    """``lines`` in order, cut into pages of at most ``budget`` characters (newlines included); a line longer than a
    page is shortened with an ellipsis, never dropped."""
    pages: list[list[str]] = []
    size = budget + 1
    for line in lines:
        if len(line) > budget:
            line = line[:budget - 1] + "…"
        if size + 1 + len(line) > budget:
            pages.append([])
            size = -1
        pages[-1].append(line)
        size += 1 + len(line)
    return pages

def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _fmt_opt(v: Any) -> str:
    return ("yes" if v else "no") if isinstance(v, bool) else str(v)


def _who(table: TableRow, seat: int) -> str:
    s = table.seats[seat]
    return f"<@{s.user_id}>" if s.user_id is not None else f"{s.name} (bot)"


def _verdict(table: TableRow, standings: dict[str, Any]) -> str:
    """Who won, in words: one winner, a shared win, a cooperative win or loss."""
    winners = standings["winners"]
    if standings.get("cooperative"):
        return "Everyone won together!" if winners else "Everyone lost."
    if not winners:
        return "Nobody won."
    if len(winners) == 1:
        return f"Winner: {_who(table, winners[0])}."
    return "Shared win: " + ", ".join(_who(table, w) for w in winners) + "."


def _standings_text(standings: dict[str, Any], names: list[str]) -> str:
    order = sorted(range(len(names)), key=lambda p: standings["ranks"][p])
    parts = []
    for p in order:
        tag = " (resigned)" if p in standings.get("resigned", []) else ""
        parts.append(f"{standings['ranks'][p]}. {names[p]} — {_num(standings['scores'][p])}{tag}")
    if standings.get("reason"):
        parts.append(f"*{name_seats(str(standings['reason']), names)}*")
    return "\n".join(parts)
