"""The presenter: what the table service says, as posts, cards, private views, move controls and log pages.

It reads tables and renders views; it writes nothing to storage. The other parts hand it what they decided.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import Game, GameError, name_seats
from engine.text import player_counts
from storage import ACTIVE, FINISHED, LOBBY, MoveRow, TableRow
from tables import renderer, replay
from tables.core import Core, left_tag
from tables.outcome import (
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
)
from tables.situation import Situation

log = logging.getLogger(__name__)

EVENT_CHARS = 2800  # a board post lists the latest event lines that fit in this many characters: a whole round of
# bots' turns, mostly (an embed's description holds 4,096; the rest, and every move, are in /log)
LOG_PAGE_CHARS = 1800  # a /log page: well inside an embed description, short enough to read on a phone
ALT_LIMIT = 1024  # Discord's attachment description limit
PICTURE_FAILED = "⚠️ The picture could not be drawn this time (the error is logged); the game goes on."
COLOUR_LOBBY, COLOUR_PLAY, COLOUR_OVER, COLOUR_CANCELLED = 0x3B82F6, 0x2B7A78, 0xD4A017, 0x6B7280
ASKED_PRIVATELY = "a reaction, asked privately"  # whom the game waits for, when who is asked is secret
LOOK_CHARS = 2400  # a look back lists the latest moves that made its position that fit in this many characters
LOOKED_KEPT = 8  # tables whose public positions are kept for the next look back


@dataclass
class LookBack(Outcome):
    """A private look at an earlier public position (``/board move:``): ``reply_post`` shows position ``position``
    of the ``positions`` the game has had (from 1, the start), for the buttons that step to the others."""

    position: int = 0
    positions: int = 0


class Presenter:
    """Turns tables and game states into :class:`~tables.outcome.Post`s and other plain output; reads only."""

    def __init__(self, core: Core) -> None:
        self.core = core
        # the public positions of the tables looked back at latest (a click steps one position: not replayed again)
        self._looked: dict[tuple[int, int, int], list[replay.Position]] = {}

    def lobby_card(self, table: TableRow, note: str = "") -> LobbyCard:
        game = self.core.game(table.game)
        seats = "\n".join(
            f"{i + 1}. {s.name}" + (" — host" if s.user_id == table.host_id else "")  # (a bot's name says so)
            for i, s in enumerate(table.seats)) or "nobody yet"
        opts = ", ".join(f"{k}={_fmt_opt(v)}" for k, v in table.options.items()) or "none"
        if table.turn_seconds:
            opts += f" · turn clock {duration_text(table.turn_seconds)}, then " \
                    f"{timeout_words(table.on_timeout, game.skippable)}"
        elif table.status == LOBBY:
            opts += " · no turn clock: each turn waits for its player"
        if table.answer_seconds:
            opts += f" · answers wait {duration_text(table.answer_seconds)}"
        status = {LOBBY: "Waiting for players", ACTIVE: "In progress", "finished": "Finished",
                  "cancelled": "Cancelled"}[table.status]
        desc = f"{game.text.summary}\n\n**{status}.** {self.core.rated_words(table)}"
        if not note and table.status == ACTIVE:
            note = f"The game is on in <#{table.channel_id}>."
        if note:
            desc += f"\n{note}"
        if table.status == LOBBY:
            advice = game.text.advice(len(table.seats), table.options)
            desc += f"\nNeeds {player_counts(game.seat_counts(table.options))}. The host starts the game."
            if advice:
                desc += f"\n💡 {advice}"
        post = Post(title=f"{game.name} · table #{table.id}", description=desc,
                    fields=[(f"Players ({len(table.seats)}/{game.max_players})", seats), ("Options", opts)],
                    footer=("Join, leave, add a bot, or start (host) with the buttons below." if table.status == LOBBY
                            else "This lobby is closed."),
                    colour=COLOUR_LOBBY if table.status == LOBBY else COLOUR_PLAY)
        return LobbyCard(table_id=table.id, post=post, open=table.status == LOBBY, channel_id=table.channel_id,
                         message_channel_id=table.lobby_channel_id, message_id=table.lobby_message_id)

    def cancelled_post(self, table: TableRow, note: str) -> Post:
        """The notice in the table's channel that the lobby or game was cancelled (``note`` says by whom), with what a
        game's end reveals when it had begun (Bloc by Bloc's agendas)."""
        game = self.core.game(table.game)
        final = ""
        if table.state is not None:
            final = name_seats(game.text.final_words(game.load(table.state)), [s.name for s in table.seats])
        return Post(title=f"{game.name} · table #{table.id}",
                    description="\n\n".join(x for x in (note or "Game cancelled.", final) if x),
                    colour=COLOUR_CANCELLED)

    async def render(self, game: Game, view: dict[str, Any], names: list[str]) -> Board | None:
        if not self.core.render_images:
            return None
        try:
            png = await renderer.render(game.key, self.core.registry.entry(game.key).render, view, names)
        except Exception:
            # The move (if any) is already stored: say so truthfully and post the rest rather than fail the request.
            log.exception("could not draw the %s picture (ply %s)", game.key, view.get("ply"))
            return None
        alt = game.text.alt_text(view, names) or f"{game.name} board."
        return Board(png=png, alt=alt[: ALT_LIMIT - 1] + "…" if len(alt) > ALT_LIMIT else alt)

    async def board_post(self, table: TableRow, sit: Situation, lines: Sequence[str], note: str = "") -> Post:
        """The board post: ``lines`` (what happened since the last board; the latest that fit) under ``note``, a
        word on why this board comes (a seat changed hands, a clock ran out), which is always shown."""
        game, state = sit.game, sit.state
        names = [s.name for s in table.seats]
        view = game.view(state, None)
        board = await self.render(game, view, names)
        scores = game.scores(state)
        fields: list[tuple[str, str]] = []
        over = not (table.status == ACTIVE and not sit.over)
        if scores and not over:  # at the end the Result field lists the scores
            fields.append(("Scores", " · ".join(f"{names[i]} **{_num(x)}**" for i, x in enumerate(scores))))
        content = ""
        mention_ids: list[int] = []
        controls = None
        rematch = None
        if not over:
            acting = sorted(sit.to_act)
            owed = sit.owed
            named = [_who(table, p) + (" (an answer)" if p in sit.answering else "") for p in acting
                     if p not in sit.unnamed]  # who is asked is itself hidden: said without a name
            fields.insert(0, ("To play", ", ".join(named + [ASKED_PRIVATELY] * bool(sit.unnamed & sit.to_act))))
            status = name_seats(game.text.status_line(state), names)
            if status:
                fields.append(("Now", status))
            mention_ids = [uid for p in acting if p not in sit.unnamed
                           and (uid := table.seats[p].user_id) is not None and not table.seats[p].resigned]
            mention_ids = await self.mentioned(table, mention_ids)  # DM-only players hear of it by DM
            if mention_ids:
                # a choice owed outside one's own turn (stop or allow, a split of losses, a trade) is not "your turn"
                choosing = {table.seats[p].user_id for p in acting if owed[p].clock == "decision"}
                turn = [u for u in mention_ids if u not in choosing]
                choice = [u for u in mention_ids if u in choosing]
                parts = []
                if turn:
                    parts.append(" ".join(f"<@{u}>" for u in turn) + (" — your turn." if len(turn) == 1
                                                                       else " — your move."))
                if choice:
                    parts.append(" ".join(f"<@{u}>" for u in choice) + " — your choice is wanted.")
                content = " ".join(parts)
                if any(owed[p].private for p in acting):  # choices that show a hand are never on the board
                    content += " Your choices are under **My view**."
            # A hidden-information game's choices reveal the mover's hand, so they only go out privately
            # (DM, /hand, the "My view" button), never on the public board.
            decision = sit.board_decision
            if decision is not None and table.seats[decision.seat].user_id is not None and not decision.private:
                controls = self.controls(table, sit, decision.seat)
            colour = COLOUR_PLAY
        else:
            standings = table.result or self.core.standings(table, sit)
            fields.insert(0, ("Result", _standings_text(standings, names)))
            rated = await self.rating_changes(table)
            if rated:
                fields.insert(1, ("Ratings", rated))
            content = "🏁 Game over! " + _verdict(table, standings, game.tie)
            colour = COLOUR_OVER
            rematch = table.id
        ply = game.ply(state)
        final = name_seats(game.text.final_words(state), names) if over else ""  # what the end reveals
        shown = _latest(lines, EVENT_CHARS - len(note) - len(final))
        if len(shown) < len(lines):
            shown.insert(0, f"… {len(lines) - len(shown)} earlier events in `/log`")
        if note:
            shown.insert(0, note)
        if board is None and self.core.render_images:
            shown.append(PICTURE_FAILED)
        return Post(
            content=content, title=f"{game.name} · table #{table.id}",
            description="\n\n".join(filter(None, ["\n".join(f"• {line}" for line in shown), final])) or "\u200b",
            fields=fields, footer=(f"Move {ply} · /log for every move · Rematch below" if over
                                   else f"Move {ply} · /move to play · /hand for your view · /log for history"),
            colour=colour, board=board, controls=controls, panel_table=table.id if table.status == ACTIVE else None,
            rematch_table=rematch, mention_ids=mention_ids, version=table.version)

    async def rating_changes(self, table: TableRow) -> str:
        """What a finished game did to its players' ratings (each rated player's new rating and its change), or why
        it was not rated; "" outside a server or before its results are stored."""
        if table.guild_id is None or table.status != "finished":
            return ""
        results = await self.core.db.records.results_of_table(table.id)
        if not results:
            return ""
        rated = [r for r in results if r.rated]
        if not rated:
            return f"Unrated: {results[0].unrated_why}." if results[0].unrated_why else ""
        parts = []
        for r in rated:
            before, after = r.skill_before, r.skill_after
            assert before is not None and after is not None
            change = after.shown - before.shown
            parts.append(f"{r.name} **{after.shown:,}** ({'+' if change >= 0 else '−'}{abs(change)})")
        return " · ".join(parts) + "\n`/profile` and `/leaderboard` for more."

    def controls(self, table: TableRow, sit: Situation, seat: int) -> Controls:
        """The moves ``seat`` is offered, as controls made for the table's version."""
        return Controls(table_id=table.id, version=table.version, user_id=table.seats[seat].user_id,
                        choices=sit.offered(seat))

    async def mentioned(self, table: TableRow, user_ids: list[int]) -> list[int]:
        """Those of ``user_ids`` told of their turn by a mention in the game's channel: all but those who chose DMs
        only (``/notify dm``), unless a DM to them has failed at this table (it would not arrive)."""
        modes = {s.user_id: s.notify for s in table.seats}  # (read with the table: no query)
        closed = {s.user_id for s in table.seats if not s.dm_open}
        return [u for u in user_ids if modes.get(u, "mention") != "dm" or u in closed]

    async def told_how(self, table: TableRow, user_id: int | None) -> str:
        """How a player will hear that it is their turn, in words (for their private view while they wait)."""
        if user_id is None:
            return ""
        mode = next((s.notify for s in table.seats if s.user_id == user_id), "mention")
        if mode == "mention" or any(s.user_id == user_id and not s.dm_open for s in table.seats):
            return "You will be mentioned in the game's channel when it is your turn."
        if mode == "both":
            return "You will be mentioned in the game's channel and sent a direct message when it is your turn."
        return "You will get a direct message when it is your turn."

    async def turn_dms(self, table: TableRow, sit: Situation) -> list[DirectMessage]:
        """'Your turn' by DM for the players to act who asked for it (``/notify``)."""
        if table.status != ACTIVE or sit.over:
            return []
        game = sit.game
        acting = [table.seats[p] for p in sorted(sit.to_act)
                  if table.seats[p].user_id is not None and not table.seats[p].resigned]
        modes = {s.user_id: s.notify for s in acting if s.user_id is not None}
        for s in acting:  # asked a secret question: never mentioned in the channel, so told by DM whatever they chose
            if s.seat in sit.unnamed and s.user_id is not None:
                modes[s.user_id] = "dm"
        # an answer (a trade's) or a choice owed outside one's own turn (stop or allow, a split…) is not a turn
        answering = {table.seats[p].user_id for p in sit.choosing}
        return [DirectMessage(user_id=u, table_id=table.id,
                              post=Post(description=(f"An answer is wanted from you in **{game.name}**"
                                                     if u in answering else f"It's your turn in **{game.name}**")
                                        + f" (table #{table.id}): <#{table.channel_id}>", colour=COLOUR_PLAY))
                for u, mode in modes.items() if mode in ("dm", "both")]

    async def private_updates(self, table: TableRow, old: Situation | None, new: Situation) -> list[DirectMessage]:
        """DM each person whose private information changed (in a game with nothing hidden, nobody's does), or who
        is asked anew for an answer alongside someone's turn (a trade offer again, once a stop they owed is
        answered: the buttons of the offer's first DM are from an earlier position). Without ``old``, everyone's
        private information is news."""
        game = new.game
        anew = set(asked_anew(table, old, new)) if old is not None else {s.seat for s in table.seats}

        def asked_alongside(seat: int) -> bool:
            decision = new.decision(seat)
            return seat in anew and decision is not None and decision.alongside

        changed = [s for s in table.seats if s.user_id is not None and not s.resigned
                   and (game.private_info(new.state, s.seat) != ({} if old is None
                                                                 else game.private_info(old.state, s.seat))
                        or asked_alongside(s.seat))]
        posts = await asyncio.gather(*(self.private_post(table, new, s.seat) for s in changed))
        return [DirectMessage(user_id=s.user_id, table_id=table.id, post=post)
                for s, post in zip(changed, posts, strict=True) if s.user_id is not None]

    async def private_post(self, table: TableRow, sit: Situation, seat: int) -> Post:
        """``seat``'s own view: its picture, what it is asked (with its choices) or what it waits for."""
        game, state = sit.game, sit.state
        names = [s.name for s in table.seats]
        board = await self.render(game, game.view(state, seat), names)
        decision = sit.decision(seat) if table.status == ACTIVE else None
        to_act = decision is not None and seat in sit.may_act
        if to_act and decision is not None:
            desc = name_seats(decision.prompt, names)
        elif sit.over or table.status != ACTIVE:
            desc = "The game is over."
        elif sit.simultaneous:
            desc = " ".join(filter(None, [game.text.idle_note(state, seat),
                                          "You are done for this turn; waiting for the others."]))
        else:  # true whenever it is read: a DM after your move, or /hand while others play
            waiting = waiting_for(table, sit)
            desc = f"Waiting for {waiting}. {await self.told_how(table, table.seats[seat].user_id)}".rstrip()
        held = game.text.private_words(state, seat)
        if held:  # in words as well as in the picture
            desc = f"{desc}\n{held}"
        return Post(title=f"Your view · {game.name} · table #{table.id}", description=desc, board=board,
                    controls=self.controls(table, sit, seat) if to_act else None,
                    footer="Only you can see this.", colour=COLOUR_PLAY)

    async def board(self, channel_id: int) -> Outcome:
        table = await self.core.table_in(channel_id, finished_ok=True)
        if table.status == LOBBY:
            return Outcome(reply_post=self.lobby_card(table).post, table_id=table.id)
        sit = self.core.situation(table, self.core.game(table.game))
        owed = await self.core.db.owed(table.id)
        if owed is not None and owed.board:  # a board is owed (Discord refused it): this one tells what it would have,
            # and every move since
            lines = [e for m in await self.core.db.moves(table.id) if m.ply >= owed.first_ply for e in m.events]
            note = owed.note
        else:
            lines, note = [e for m in await self.core.db.moves(table.id, last=3) for e in m.events], ""
        post = await self.board_post(table, sit, lines, note)
        # the current board covers any board still owed (see Outbox.undelivered), and the lobby card if it is owed
        return Outcome(public=[post], table_id=table.id, channel_id=table.channel_id,
                       lobby=self.lobby_card(table) if owed is not None and owed.lobby else None,
                       outbox=(table.id, table.version))

    async def my_games(self, guild_id: int | None, actor: Actor) -> Outcome:
        """The actor's lobbies and games in every server (and DM) they play in with the bot, the ones waiting for them
        first, then this server's before the others, with links."""
        tables = await self.core.db.tables_of_player(None, actor.user_id)
        tables.sort(key=lambda t: t.guild_id != guild_id)  # (stable: the most recently changed first within each)
        waiting, others = [], []
        for table in tables:
            game = self.core.game(table.game)
            link = f"<#{table.channel_id}>"
            if table.guild_id != guild_id or guild_id is None:  # a jump link works from anywhere
                link = f"https://discord.com/channels/{table.guild_id or '@me'}/{table.channel_id}" + \
                    (" (another server)" if guild_id is not None and table.guild_id is not None else "")
            if table.status == LOBBY:
                others.append(f"• **{game.name}** lobby, {len(table.seats)} seated · {link}")
                continue
            state = game.load(table.state or {})
            seat = table.seat_of(actor.user_id)
            sit = Situation.of(game, state)
            if seat is not None and seat.seat in sit.to_act:
                waiting.append(f"• **{game.name}**: your turn · {link}")
            else:
                others.append(f"• **{game.name}**: waiting for {waiting_for(table, sit) or 'nobody'} · {link}")
        if not tables:
            return Outcome(reply="You have no games in progress. `/game new` opens one.")
        lines = waiting + others
        shown = lines[:40]
        more = f"\n… and {len(lines) - len(shown)} more" if len(lines) > len(shown) else ""
        title = f"Your games · {len(waiting)} waiting for you" if waiting else "Your games"
        return Outcome(reply_post=Post(title=title, description="\n".join(shown)[:3900] + more, colour=COLOUR_PLAY,
                                       footer="Only you can see this."))

    async def replay(self, channel_id: int, table_id: int | None = None, guild_id: int | None = None,
                     user_id: int | None = None) -> Outcome:
        """The finished game here as an animated image of its public boards, with its move log as a file; or table
        ``table_id`` as ``/history`` names it: one of this server's, or (in DMs, ``guild_id`` None) one that ``user_id``
        played."""
        if table_id is None:
            table = await self.core.table_in(channel_id, finished_ok=True)
        else:
            found = await self.core.db.get_table(table_id)
            mine = found is not None and user_id is not None and found.seat_of(user_id) is not None
            if found is None or not (found.guild_id == guild_id if guild_id is not None else mine):
                raise Refusal(f"There is no table #{table_id} {'in this server' if guild_id else 'of yours'}.")
            table = found
        if table.status != FINISHED:
            raise Refusal("A replay is made once the game is over (this one isn't).")
        game = self.core.game(table.game)
        names = [s.name for s in table.seats]
        log = [(m.seat, m.notation) for m in await self.core.db.moves(table.id)]
        entry = self.core.registry.entry(game.key)
        seats, seed = len(table.seats), table.seed or 0

        def make() -> tuple[bytes, bytes]:
            states = replay.public_states(game, seats, table.options, seed, log)
            moves = replay.log_file(game.key, seats, table.options, seed, names, log)
            # one message uploads both: the animation fits what the log leaves of the cap
            return replay.animation(game, entry.render, states, names, replay.UPLOAD_CAP - len(moves)), moves

        try:
            gif, moves = await asyncio.to_thread(make)
        except GameError:  # a move of an older version of the rules, which this one plays otherwise
            raise Refusal("This game's log can't be replayed by this version of the rules (one of its moves was "
                          "played under an older one), so there is no replay of it.") from None
        post = Post(title=f"Replay · {game.name} · table #{table.id}", colour=COLOUR_OVER,
                    description=f"{len(log)} moves, public boards only. The file replays the game exactly.",
                    board=Board(gif, f"{game.name}: the public board after each turn, animated.",
                                f"replay-{table.id}.gif"),
                    attachments=[(f"table-{table.id}-moves.json", moves)])
        if table_id is not None:  # asked for by number (from /history): shown to the one who asked, wherever they are
            return Outcome(reply_post=post, table_id=table.id)
        return Outcome(public=[post], table_id=table.id, channel_id=table.channel_id)

    async def look_back(self, position: int | None, *, channel_id: int | None = None, table_id: int | None = None,
                        guild_id: int | None = None) -> LookBack:
        """The public board as it was at ``position`` (from 1, the start) of the game here or of table ``table_id`` (a
        button's, in this server: ``guild_id``), privately: a position is one the channel saw a board of
        (:func:`tables.replay.public_positions`), so nothing hidden at the time shows, nor a secret pick. ``position``
        None: the latest."""
        if table_id is None:
            table = await self.core.table_in(channel_id or 0, finished_ok=True)
        else:
            table = await self.core.table(table_id)
            if table.guild_id != guild_id:
                raise Refusal("That game is not in this server.")
        if table.status == LOBBY or table.state is None:
            raise Refusal("The game has not started yet: there is no earlier position to look at.")
        game = self.core.game(table.game)
        names = [s.name for s in table.seats]
        rows = await self.core.db.moves(table.id)
        key = (table.id, table.version, len(rows))
        positions = self._looked.get(key)
        if positions is None:
            log = [(m.seat, m.notation) for m in rows]
            seats, seed = len(table.seats), table.seed or 0
            try:
                positions = await asyncio.to_thread(replay.public_positions, game, seats, table.options, seed, log)
            except GameError:  # a move of an older version of the rules, which this one plays otherwise
                raise Refusal("This game's log can't be replayed by this version of the rules (one of its moves was "
                              "played under an older one), so its earlier positions can't be shown.") from None
            self._looked[key] = positions
            while len(self._looked) > LOOKED_KEPT:
                self._looked.pop(next(iter(self._looked)))
        total = len(positions)
        if position is None:
            position = total
        if not 1 <= position <= total:
            raise Refusal(f"This game has {total} position{'s' if total != 1 else ''} so far: `/board move:` takes "
                          f"1 (the start) to {total} (the latest).")
        shown = positions[position - 1]
        view = game.view(shown.state, None)  # the public view: never a seat's own
        board = await self.render(game, view, names)
        latest = " (the latest)" if position == total else ""
        if position == 1:
            head = f"**Position 1 of {total}**{latest}: the start of the game."
        else:
            step = rows[positions[position - 2].moves:shown.moves]
            secret = table.status == ACTIVE  # an answer to a secret question is nobody's move while the game runs
            movers = [names[m.seat] for m in step if not (secret and m.unnamed)] or ["an answer asked privately"]
            head = f"**Position {position} of {total}**{latest}, after {_movers(movers)}:\n" \
                + "\n".join(_latest(self.log_lines(table, step), LOOK_CHARS))
        fields = []
        scores = game.scores(shown.state)
        if scores:
            fields.append(("Scores then", " · ".join(f"{names[i]} **{_num(x)}**" for i, x in enumerate(scores))))
        if board is None and self.core.render_images:
            head += "\n" + PICTURE_FAILED
        post = Post(title=f"{game.name} · table #{table.id} · position {position} of {total}{latest}",
                    description=head[:4000], fields=fields,
                    footer="Only you see this: the public board as it was · ◀️ ▶️ step through the positions",
                    colour=COLOUR_PLAY if table.status == ACTIVE else COLOUR_OVER, board=board)
        return LookBack(reply_post=post, table_id=table.id, position=position, positions=total)

    async def hand(self, channel_id: int | None, actor: Actor, *, table_id: int | None = None) -> Outcome:
        table = await (self.core.table(table_id) if table_id is not None else self.core.table_in(channel_id or 0,
                                                                                         finished_ok=True))
        if table.status == LOBBY:
            raise Refusal("The game has not started yet.")
        seat = table.seat_of(actor.user_id)
        if seat is None:
            raise Refusal("You are not playing in this game.")
        post = await self.private_post(table, self.core.situation(table, self.core.game(table.game)), seat.seat)
        if table.status != ACTIVE or seat.resigned:
            post.controls = None
            post.description = "This game is over." if table.status != ACTIVE else \
                {"removed": "You were removed from this game.", "forfeit": "Your time ran out and you forfeited."
                 }.get(seat.left_how, "You resigned.") + " A bot plays your seat."
        return Outcome(reply_post=post, table_id=table.id)

    async def choices(self, channel_id: int, actor: Actor, typed: str = "") -> list[Choice]:
        """The caller's legal moves whose notation or label contains what they typed."""
        table = await self.core.db.open_table_in(channel_id)
        if table is None or table.status != ACTIVE:
            return []
        seat = table.seat_of(actor.user_id)
        if seat is None or seat.resigned:
            return []
        sit = self.core.situation(table, self.core.game(table.game))
        typed = " ".join(typed.split()).casefold()
        return [c for c in sit.offered(seat.seat)
                if typed in c.notation.casefold() or typed in c.label.casefold()]

    async def status(self, channel_id: int) -> str:
        table = await self.core.table_in(channel_id, finished_ok=True)
        game = self.core.game(table.game)
        names = [s.name for s in table.seats]
        head = f"**{game.name}** · table #{table.id} · {table.status}"
        players = ", ".join(s.name + left_tag(s.left) for s in table.seats)
        lines = [head, f"Players: {players}"]
        if table.state:
            state = game.load(table.state)
            scores = game.scores(state)
            if scores:
                lines.append("Scores: " + " · ".join(f"{names[i]} {_num(x)}" for i, x in enumerate(scores)))
            if table.status == ACTIVE:
                lines.append(name_seats(game.text.status_line(state), names))
        if table.result:
            lines.append("Result: " + _standings_text(table.result, names))
        return "\n".join(lines)

    async def history(self, channel_id: int, last: int = 15) -> str:
        """The latest ``last`` moves in words, one line each (``/log`` pages through all of them: :meth:`log_page`)."""
        table = await self.core.table_in(channel_id, finished_ok=True)
        moves = await self.core.db.moves(table.id, last=last)
        if not moves:
            return "No moves yet."
        return "\n".join(self.log_lines(table, moves))

    async def log_page(self, *, channel_id: int | None = None, table_id: int | None = None,
                       page: int | None = None, last: int | None = None) -> LogPage:
        """One page of the whole move log, oldest first; ``page`` counts from 1, None (or past the end) is the
        newest. Pages are cut from the oldest move on, so a page keeps its moves as the game goes on.

        With ``last``: only the latest ``last`` moves; if they don't fit one page, the newest that fit and a line
        saying how many earlier ones `/log` pages through (never a silent cut)."""
        table = await (self.core.table(table_id) if table_id is not None else self.core.table_in(channel_id or 0,
                                                                                         finished_ok=True))
        title = f"{self.core.game(table.game).name} · table #{table.id} · moves"
        moves = await self.core.db.moves(table.id, last=last)
        lines = self.log_lines(table, moves)
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

    def log_lines(self, table: TableRow, moves: Sequence[MoveRow]) -> list[str]:
        """Moves in words; picks that are still secret (simultaneous turns) say only that they happened."""
        names = [s.name for s in table.seats]
        game = self.core.game(table.game)
        if table.state and table.status == ACTIVE and moves:
            state = game.load(table.state)
            first_secret = game.revealed_ply(state) + 1
        else:
            first_secret = None
        running = table.status == ACTIVE  # while it runs, a move that names hidden cards says only how many

        def said(m: MoveRow) -> str:
            if running and m.unnamed:  # who was asked is secret: nor the answer's player, nor its notation
                return "*an answer asked privately*"
            if first_secret and m.ply >= first_secret:
                return f"{names[m.seat]}: *a private pick (shown when the turn resolves)*"
            return f"{names[m.seat]}: `{game.public_notation(m.notation) if running else m.notation}`"

        return [f"`{m.ply:>3}` {said(m)}" + (" — " + " ".join(m.events) if m.events else "") for m in moves]

    def check_board_controls(self, table: TableRow, sit: Situation, seat: int) -> None:
        """The public board's controls are for the seat its decision asks; anyone else is pointed to their own."""
        decision = sit.board_decision
        if decision is not None and decision.seat != seat:
            raise Refusal(f"Those controls are {table.seats[decision.seat].name}'s. Yours are under **My view**.")

    def not_your_turn(self, table: TableRow, sit: Situation) -> str:
        waiting = waiting_for(table, sit)
        if sit.simultaneous:  # the seat asking has made all its picks for this turn
            return f"You are done for this turn: waiting for {waiting}."
        return f"It is not your turn: waiting for {waiting}."


def waiting_for(table: TableRow, sit: Situation) -> str:
    """Who the game waits for, by name, except a seat asked a question whose asking is itself secret
    (``Decision.unnamed``): that is "a reaction, asked privately", as on the board."""
    named = [table.seats[p].name for p in sorted(sit.to_act) if p not in sit.unnamed]
    return ", ".join(named + [ASKED_PRIVATELY] * bool(sit.unnamed & sit.to_act))


TIMEOUT_WORDS = {"bot": "a bot plays the turn", "skip": "the turn is skipped", "forfeit": "the player forfeits"}


def timeout_words(policy: str, skippable: bool) -> str:
    """What a turn's clock running out does, in words: ``skip`` plays the turn's default move, and where it has
    none (BLOCK's picks, a Blockers! tile: ``Game.skippable``) a bot plays it instead."""
    return TIMEOUT_WORDS["bot" if policy == "skip" and not skippable else policy]


def duration_text(seconds: float) -> str:
    """``7d``, ``12h``, ``2.4h``, ``50m``: rounded the way a reminder reads."""
    if seconds >= 48 * 3600:
        return f"{round(seconds / 86400)}d"
    if seconds >= 10 * 3600:
        return f"{round(seconds / 3600)}h"
    if seconds >= 3600:
        return f"{round(seconds / 3600, 1):g}h"
    return f"{max(1, round(seconds / 60))}m"


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


def asked_anew(table: TableRow, before: Situation, after: Situation) -> list[int]:
    """Seats whose decision is not the same any more (another kind or prompt, or none): their older controls go
    stale, while a seat still asked the same keeps its menu through other seats' moves (and one asked anew beside
    someone's turn gets its choices again by DM)."""
    was, now = before.asked, after.asked  # (none once the game is over)
    return [s.seat for s in table.seats if was.get(s.seat) != now.get(s.seat)]


def _who(table: TableRow, seat: int) -> str:
    s = table.seats[seat]
    return f"<@{s.user_id}>" if s.user_id is not None else s.name  # a bot's name says so: "Bot 1 (hard)"


def _verdict(table: TableRow, standings: dict[str, Any], tie: str) -> str:
    """Who won, in words: one winner, a tie for first (a shared win, or as the game's rules call it: ``tie``), a
    cooperative win or loss."""
    winners = standings["winners"]
    if standings.get("cooperative"):
        return "Everyone won together!" if winners else "Everyone lost."
    if not winners:
        return "Nobody won."
    if len(winners) == 1:
        return f"Winner: {_who(table, winners[0])}."
    return tie.capitalize() + ": " + ", ".join(_who(table, w) for w in winners) + "."


def _left(standings: dict[str, Any], seat: int) -> str:
    """How the seat's player left, as a tag (standings stored before "left" was kept say "resigned")."""
    if "left" in standings:
        return left_tag(standings["left"][seat])
    return " (resigned)" if seat in standings.get("resigned", []) else ""


def _standings_text(standings: dict[str, Any], names: list[str]) -> str:
    order = sorted(range(len(names)), key=lambda p: standings["ranks"][p])
    parts = []
    if standings.get("cooperative"):  # no scores to rank: everyone won together or lost together
        won = bool(standings.get("winners"))
        parts.append(("Won together: " if won else "Lost together: ") + ", ".join(
            names[p] + _left(standings, p) for p in order))
        order = []
    for p in order:
        tag = _left(standings, p)
        parts.append(f"{standings['ranks'][p]}. {names[p]} — {_num(standings['scores'][p])}{tag}")
    if standings.get("reason"):
        parts.append(f"*{name_seats(str(standings['reason']), names)}*")
    return "\n".join(parts)


def _movers(names: Sequence[str]) -> str:
    """Whose moves made a position, in words: "Ana's move", "Ana's moves", "the moves of Ana, Bo and Cy"."""
    who = list(dict.fromkeys(names))
    if len(who) == 1:
        return f"{who[0]}'s move" + ("s" if len(names) > 1 else "")
    return "the moves of " + ", ".join(who[:-1]) + " and " + who[-1]


def _latest(lines: Sequence[str], room: int) -> list[str]:
    """The latest of ``lines`` that fit in ``room`` characters as bullets (the last one at least)."""
    out: list[str] = []
    for line in reversed(lines):
        room -= len(line) + 3
        if room < 0 and out:
            break
        out.append(line)
    return out[::-1]
