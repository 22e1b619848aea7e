"""The lobby: opening a table, seats and bots, start, cancel and rematch.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engine.base import Game, GameError
from storage import ACTIVE, FINISHED, LOBBY, ChannelBusy, StaleVersion, TableRow
from tables.bots import BOT_LEVELS
from tables.core import Core
from tables.outcome import (
    Actor,
    Outcome,
    Refusal,
    StaleButton,
)
from tables.play import Play, Run
from tables.presenter import Presenter, _fmt_opt
from tables.situation import Situation

log = logging.getLogger(__name__)


def parse_options(text: str | None) -> dict[str, str]:
    """``"decks=2 jokers=yes"`` → ``{"decks": "2", "jokers": "yes"}``; raises :class:`Refusal`."""
    out: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        name, sep, value = part.partition("=")
        if not sep or not name or not value:
            raise Refusal(f"Options look like `decks=2 jokers=yes`; I can't read `{part}`.")
        out[name.strip().lower()] = value.strip()
    return out


def _merged(game: Game, stored: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The lobby's options once the host's new ones are taken: the stored ones with the new ones over them; when
    they clash, what the host typed now wins and a stored option it rules out goes back to what the new ones make
    it (``scenario=infighting`` on a table stored with ``mode=coop``: Let the Infighting Begin! is played semi
    only). Raises :class:`GameError` when the new options don't hold even on their own."""
    try:
        return game.resolve_options({**stored, **given})
    except GameError as err:
        clash = err
    try:
        fresh = game.resolve_options(given)
    except GameError:
        raise clash from None
    kept = dict(given)
    for name, value in stored.items():
        if name in given or value == fresh.get(name):
            continue
        try:
            game.resolve_options({**kept, name: value})
        except GameError:
            continue  # ruled out by the new options
        kept[name] = value
    return game.resolve_options(kept)


def _unfit(game: Game, options: dict[str, Any], seats: int) -> GameError | None:
    """Why ``options`` suit no table of ``seats`` players or more (up to the game's most), or None when some count
    does (:meth:`Game.seat_counts`): a lobby still filling up may hold fewer players than its options need (Bloc by
    Bloc's semi-cooperative game needs 3), and the start checks the count it has."""
    if any(n >= seats for n in game.seat_counts(options)):
        return None
    try:
        game.resolve_options(options, seats)
    except GameError as err:
        return err
    return GameError(f"{game.name} can't seat {seats} or more players with these options.")


CLOCKS = {"off": None, "30m": 1800, "1h": 3600, "6h": 6 * 3600, "12h": 12 * 3600, "24h": 24 * 3600,
          "48h": 48 * 3600, "72h": 72 * 3600, "7d": 7 * 24 * 3600}
ON_TIMEOUT = ("bot", "skip", "forfeit")


def clock_text(seconds: int | None) -> str:
    return next((k for k, v in CLOCKS.items() if v == seconds), f"{seconds}s")


def split_answers(options: dict[str, str]) -> tuple[dict[str, str], int | None]:
    """``answers=6h`` out of the options: how long an answer owed outside one's turn waits (a stop, a split of
    losses, a trade offer); raises :class:`Refusal`."""
    rest = {k: v for k, v in options.items() if k != "answers"}
    if "answers" not in options:
        return rest, None
    value = options["answers"].lower()
    if CLOCKS.get(value) is None:
        raise Refusal(f"`answers` is one of {', '.join(k for k, v in CLOCKS.items() if v)} (how long an answer "
                      "owed outside one's turn waits before its default is taken; by default the turn clock, or 12h).")
    return rest, CLOCKS[value]


def split_rated(options: dict[str, str]) -> bool | None:
    """``rated=no`` (or yes) out of the options: whether the host wants the table rated (None: not said); raises
    :class:`Refusal`."""
    if "rated" not in options:
        return None
    value = options["rated"].lower()
    if value not in ("yes", "no", "true", "false", "on", "off"):
        raise Refusal("`rated` is `yes` (the result moves this server's ratings, when its rules allow) or `no`.")
    return value in ("yes", "true", "on")


def split_clock(options: dict[str, str]) -> tuple[dict[str, str], tuple[int | None, str] | None]:
    """The table's own settings (``clock=24h timeout=bot``, ``answers=6h``, ``rated=no``) out of the game's options;
    raises :class:`Refusal`."""
    split_rated(options)
    rest = {k: v for k, v in split_answers(options)[0].items() if k not in ("clock", "timeout", "rated")}
    if "clock" not in options and "timeout" not in options:
        return rest, None
    clock = options.get("clock", "off").lower()
    policy = options.get("timeout", "bot").lower()
    if clock not in CLOCKS:
        raise Refusal(f"`clock` is one of {', '.join(CLOCKS)} (the time a player has for their turn).")
    if policy not in ON_TIMEOUT:
        raise Refusal("`timeout` is `bot` (a bot plays the late turn), `skip` (the game's default move) or "
                      "`forfeit` (the late player leaves; a bot keeps their seat).")
    return rest, (CLOCKS[clock], policy)

class Lobby:
    """Requests before (and around) a game: the lobby's life, and the server's settings."""

    def __init__(self, core: Core, presenter: Presenter, play: Play) -> None:
        self.core = core
        self.presenter = presenter
        self.play = play

    async def server_clock(self, guild_id: int | None) -> tuple[int | None, str] | None:
        """The turn clock of a game whose options set none: the server's default (``/settings clock:``; a day, then
        a bot plays, until it says otherwise), or None where the server chose no clock."""
        seconds, policy, _ = await self.core.db.guild_settings(guild_id)
        return (seconds, policy) if seconds else None

    async def check_new(self, channel_id: int | None, game_key: str, options_text: str | None) -> dict[str, Any]:
        """Validate a new lobby; returns resolved options. ``channel_id=None``: a new thread, always free."""
        game = self.core.game(game_key)
        try:
            options = game.resolve_options(split_clock(parse_options(options_text))[0])
        except GameError as err:
            raise Refusal(str(err)) from None
        if channel_id is not None and await self.core.db.open_table_in(channel_id):
            raise Refusal("This channel already has a game. Finish or cancel it (`/game cancel`), "
                          "or start the new one in a thread.")
        return options

    async def open_lobby(self, *, guild_id: int | None, channel_id: int, host: Actor, game_key: str,
                         options_text: str | None = None, lobby_channel_id: int | None = None,
                         lobby_message_id: int | None = None) -> Outcome:
        options = await self.check_new(channel_id, game_key, options_text)
        clock = split_clock(parse_options(options_text))[1]
        answers = split_answers(parse_options(options_text))[1]
        rated = split_rated(parse_options(options_text))
        if clock is None:
            clock = await self.server_clock(guild_id)
        return await self._create_lobby(guild_id, channel_id, host, game_key, options, lobby_channel_id,
                                        lobby_message_id, clock=clock, answers=answers, rated=rated is not False)

    async def _create_lobby(self, guild_id: int | None, channel_id: int, host: Actor, game_key: str,
                            options: dict[str, Any], lobby_channel_id: int | None = None,
                            lobby_message_id: int | None = None, *, clock: tuple[int | None, str] | None = None,
                            answers: int | None = None, rated: bool = True) -> Outcome:
        """A new lobby, its clock and answer time set, in one transaction that owes its card (the outbox): a
        process that stops before the card is posted posts it at the next start."""
        try:
            table_id = await self.core.db.create_table(
                guild_id=guild_id, channel_id=channel_id, game=game_key, options=options, host_id=host.user_id,
                host_name=host.name, now=self.core.clock(), lobby_channel_id=lobby_channel_id,
                lobby_message_id=lobby_message_id, clock=clock, answer_seconds=answers, rated=rated)
        except ChannelBusy:
            raise Refusal("This channel already has a game.") from None
        table = await self.core.table(table_id)
        log.info("lobby %s opened for %s in channel %s by %s", table_id, game_key, channel_id, host.user_id)
        return Outcome(lobby=self.presenter.lobby_card(table), table_id=table_id, channel_id=channel_id,
                       reply=f"Lobby for {self.core.game(game_key).name} opened.", outbox=(table.id, table.version))

    async def check_rematch(self, table_id: int, actor: Actor, channel_id: int | None = None) -> TableRow:
        """The finished table if ``actor`` may start its rematch (in ``channel_id``, or its own channel)."""
        old = await self.core.table(table_id)
        if old.status != FINISHED:
            raise Refusal("A rematch can start once this game is over.")
        if old.seat_of(actor.user_id) is None:
            raise Refusal("Only the players of that game can start its rematch; open your own with `/game new`.")
        if await self.core.db.open_table_in(channel_id or old.channel_id):
            raise Refusal("There is already a new lobby or game here.")
        if await self.core.db.rematch_of(old.id):
            raise Refusal("This game's rematch is already open.")
        return old

    async def rematch(self, table_id: int, actor: Actor, *, channel_id: int | None = None,
                      lobby_channel_id: int | None = None, lobby_message_id: int | None = None) -> Outcome:
        """A new lobby, same game and options, the same bots, the caller as host: in ``channel_id`` (a new thread
        the cog made, with its lobby message) or else in the old game's channel.

        The other people are invited (mentioned) rather than seated: they join if they want to.
        """
        async with self.core.locks[table_id]:  # one rematch per game, however many clicks race for it
            old = await self.check_rematch(table_id, actor, channel_id)
            out = await self._create_lobby(old.guild_id, channel_id or old.channel_id, actor, old.game, old.options,
                                           lobby_channel_id, lobby_message_id,
                                           clock=(old.turn_seconds, old.on_timeout), answers=old.answer_seconds,
                                           rated=old.rated)
            assert out.table_id is not None
            await self.core.db.set_rematch_of(out.table_id, old.id)
        table = await self.core.table(out.table_id)
        bots: list[tuple[int | None, str, str | None]] = [(None, s.name, s.bot) for s in old.seats if s.is_bot]
        if bots:
            table = await self.core.db.set_seats(table.id, table.version, self._rows(table) + bots, self.core.clock())
        others = [s.user_id for s in old.seats  # not those who were removed or ran out of time (they may join)
                  if s.user_id is not None and s.user_id != actor.user_id and s.left in ("", "resigned")]
        card = self.presenter.lobby_card(table, note=f"Rematch of table #{old.id}.")
        if others:
            card.post.content = " ".join(f"<@{u}>" for u in others) + f" — {actor.name} wants a rematch: join below."
            card.post.mention_ids = others
        out.lobby = card
        out.reply = "Rematch lobby opened."
        out.outbox = (table.id, table.version)
        return out

    async def settings(self, guild_id: int | None, actor: Actor, clock: str | None, timeout: str | None,
                       archive_hours: int | None, can_manage_server: bool, reminders: int | None = None,
                       away_days: int | None = None, organiser_role: int | None = None) -> Outcome:
        """``/settings``: the server's defaults (Manage Server to change them; anyone may read them).
        ``organiser_role``: the role that may run tournaments (naming the one set already clears it)."""
        if guild_id is None:
            raise Refusal("Settings belong to a server: use this in one.")
        seconds, policy, hours = await self.core.db.guild_settings(guild_id)
        per_day = await self.core.db.reminders_per_day(guild_id)
        away = await self.core.db.away_days(guild_id)
        organisers = await self.core.db.organiser_role(guild_id)
        if any(v is not None for v in (clock, timeout, archive_hours, reminders, away_days, organiser_role)):
            if not can_manage_server:
                raise Refusal("Only members with Manage Server can change the server's settings.")
            if clock is not None:
                if clock not in CLOCKS:
                    raise Refusal(f"`clock` is one of {', '.join(CLOCKS)}.")
                seconds = CLOCKS[clock]
            if timeout is not None:
                if timeout not in ON_TIMEOUT:
                    raise Refusal(f"`timeout` is one of {', '.join(ON_TIMEOUT)}.")
                policy = timeout
            if archive_hours is not None:
                if not 1 <= archive_hours <= 24 * 7:
                    raise Refusal("Finished threads are archived after 1 to 168 hours.")
                hours = archive_hours
            if reminders is not None:
                if not 0 <= reminders <= 20:
                    raise Refusal("A player gets 0 to 20 reminders a day.")
                per_day = reminders
            if away_days is not None:
                if not 0 <= away_days <= 60:
                    raise Refusal("A vacation may last 0 to 60 days.")
                away = away_days
            await self.core.db.set_guild_settings(guild_id, seconds, policy, hours, self.core.clock(), per_day)
            await self.core.db.set_away_days(guild_id, away, self.core.clock())
            if organiser_role is not None:
                organisers = None if organiser_role == organisers else organiser_role
                await self.core.db.set_organiser_role(guild_id, organisers, self.core.clock())
        text = (f"New lobbies: turn clock **{clock_text(seconds) if seconds else 'off'}**, then **{policy}**. "
                f"At most **{per_day}** reminders a day per player; vacations up to **{away}** days. "
                f"Finished games' threads are archived after **{hours} h**. Tournaments are run by members with "
                f"Manage Server" + (f" and the <@&{organisers}> role (name it again to clear it)." if organisers
                                    else " (`organiser:` names a role that may run them too)."))
        return Outcome(reply=text)

    async def check_control_channel(self, table_id: int, channel_id: int | None) -> None:
        """A lobby control acts only in the table's own channels (its lobby's, or its game's): a click forged in
        another channel, where the clicker may hold other permissions, is refused."""
        table = await self.core.table(table_id)
        if channel_id is None or channel_id not in (table.channel_id, table.lobby_channel_id):
            raise Refusal("That control belongs to a table in another channel.")

    async def _lobby_change(self, table_id: int, actor: Actor, change: Callable[[TableRow], tuple[list, int, str]],
                            version: int | None = None) -> Outcome:
        async with self.core.locks[table_id]:
            table = await self.core.table(table_id)
            if table.status != LOBBY:
                raise Refusal("This lobby is closed: the game has started or was cancelled.")
            if version is not None and version != table.version:
                raise StaleButton("The lobby changed; try again.")
            seats, host_id, note = change(table)
            try:
                table = await self.core.db.set_seats(table.id, table.version, seats, self.core.clock(),
                                                host_id=host_id if host_id != table.host_id else None)
            except StaleVersion:
                raise StaleButton("The lobby changed while you clicked; try again.") from None
            return Outcome(lobby=self.presenter.lobby_card(table), table_id=table.id, channel_id=table.channel_id,
                           reply=note, outbox=(table.id, table.version))

    @staticmethod
    def _rows(table: TableRow) -> list[tuple[int | None, str, str | None]]:
        return [(s.user_id, s.name, s.bot) for s in table.seats]

    async def join(self, table_id: int, actor: Actor) -> Outcome:
        def change(table: TableRow) -> tuple[list, int, str]:
            game = self.core.game(table.game)
            if table.seat_of(actor.user_id):
                raise Refusal("You are already in this game.")
            self._check_room(game, table)
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

    async def add_bot(self, table_id: int, actor: Actor, level: str = "easy") -> Outcome:
        def change(table: TableRow) -> tuple[list, int, str]:
            game = self.core.game(table.game)
            if actor.user_id != table.host_id and not table.seat_of(actor.user_id):
                raise Refusal("Only players at this table can add a bot.")
            if level not in BOT_LEVELS:
                raise Refusal(f"Bots come in: {', '.join(BOT_LEVELS)}.")
            self._check_room(game, table)
            taken = {s.name for s in table.seats}
            number = next(i for i in range(1, 10) if not any(t == f"Bot {i}" or t.startswith(f"Bot {i} (")
                                                             for t in taken))
            name = f"Bot {number}" if level == "easy" else f"Bot {number} ({level})"
            return self._rows(table) + [(None, name, level)], table.host_id, f"{name} joined."
        return await self._lobby_change(table_id, actor, change)

    @staticmethod
    def _check_room(game: Game, table: TableRow) -> None:
        """Refuse a seat the table has no room for: full, or more than the chosen options allow (e.g. Blockers!'
        advanced mode is for two players), so a lobby never fills up to a game that can't start."""
        if len(table.seats) >= game.max_players:
            raise Refusal(f"The table is full ({game.max_players} players).")
        err = _unfit(game, table.options, len(table.seats) + 1)
        if err is not None:
            raise Refusal(f"The table is full for these options: {err}")

    async def remove_bot(self, table_id: int, actor: Actor) -> Outcome:
        """The host takes the last bot seat away."""
        def change(table: TableRow) -> tuple[list, int, str]:
            if actor.user_id != table.host_id:
                raise Refusal("Only the host can remove a bot.")
            bots = [i for i, s in enumerate(table.seats) if s.is_bot]
            if not bots:
                raise Refusal("There is no bot at this table.")
            rows = self._rows(table)
            name = rows.pop(bots[-1])[1]
            return rows, table.host_id, f"{name} left."
        return await self._lobby_change(table_id, actor, change)

    async def set_options(self, channel_id: int, actor: Actor, options_text: str | None) -> Outcome:
        """The host changes the lobby's options before the start; refused when they can't work for its seats."""
        table = await self.core.table_in(channel_id)
        async with self.core.locks[table.id]:
            table = await self.core.table(table.id)
            if table.status != LOBBY:
                raise Refusal("The game has started: its options are fixed.")
            if actor.user_id != table.host_id:
                raise Refusal("Only the host can change the options.")
            game = self.core.game(table.game)
            given, clock = split_clock(parse_options(options_text))
            answers = split_answers(parse_options(options_text))[1]
            rated = split_rated(parse_options(options_text))
            try:
                options = _merged(game, table.options, given)
            except GameError as err:
                raise Refusal(str(err)) from None
            unfit = _unfit(game, options, len(table.seats))
            if unfit is not None:
                raise Refusal(str(unfit))
            try:
                table = await self.core.db.set_options(table.id, table.version, options, self.core.clock(), clock=clock,
                                                       answer_seconds=answers, rated=rated)
            except StaleVersion:
                raise StaleButton("The lobby changed while you typed; try again.") from None
            changed = ", ".join(f"{k}={_fmt_opt(v)}" for k, v in options.items()) or "none"
            if table.turn_seconds:
                changed += f", clock={clock_text(table.turn_seconds)} timeout={table.on_timeout}"
            if table.answer_seconds:
                changed += f", answers={clock_text(table.answer_seconds)}"
            if not table.rated:
                changed += ", rated=no"
            return Outcome(lobby=self.presenter.lobby_card(table, note=f"Options set by {actor.name}: {changed}."),
                           table_id=table.id, channel_id=table.channel_id, reply=f"Options: {changed}.",
                           outbox=(table.id, table.version))

    async def start(self, table_id: int, actor: Actor, version: int | None = None, seed: int | None = None) -> Outcome:
        """The host starts the game (``seed``: the deal, when the table must share it, as an arena's players do)."""
        async with self.core.locks[table_id]:
            table = await self.core.table(table_id)
            if table.status != LOBBY:
                raise Refusal("This game has already started or was cancelled.")
            if actor.user_id != table.host_id:
                raise Refusal("Only the host can start the game.")
            if version is not None and version != table.version:
                raise StaleButton("The lobby changed since you looked: check the players, then start again.")
            game = self.core.game(table.game)
            if len(table.seats) < game.min_players:
                raise Refusal(f"{game.name} needs at least {game.min_players} players: "
                              "wait for someone to join, or add a bot.")
            seed = self.core.seeds() if seed is None else seed
            try:
                state = game.new_game(len(table.seats), table.options, seed)
            except GameError as err:  # an option that doesn't suit this many players
                raise Refusal(f"Can't start: {err}") from None
            # the start owes its first board and the lobby card (the outbox), in the start's own transaction
            intro = f"{game.name} begins!"
            sit = Situation.of(game, state)
            seconds = sit.clock_seconds(table)
            try:
                table = await self.core.db.start(table.id, table.version, seed, game.dump(state), self.core.clock(),
                                            deadline=self.core.clock() + seconds if seconds else None, note=intro)
            except StaleVersion:
                raise StaleButton("The lobby changed while you clicked; try again.") from None
            log.info("table %s started: %s with %d seats", table.id, game.key, len(table.seats))
            out = await self.play.advance(await Run.of(self.core, table, sit, stored=True), intro=intro)
            out.lobby = self.presenter.lobby_card(table)
            out.reply = "Game started."
            return out

    async def cancel(self, channel_or_table: int, actor: Actor, *, by_table: bool = False) -> Outcome:
        table = await (self.core.table(channel_or_table) if by_table else self.core.table_in(channel_or_table))
        async with self.core.locks[table.id]:
            table = await self.core.table(table.id)
            if table.status not in (LOBBY, ACTIVE):
                raise Refusal("This game is already over.")
            if table.tournament_id is not None:  # its round would wait for it for ever
                raise Refusal("This is a tournament's game: it can't be cancelled. Its organiser can settle it with "
                              "`/tournament report`.")
            if actor.user_id != table.host_id and not actor.can_manage:
                raise Refusal("Only the host, or someone who can manage this channel, can cancel the game.")
            note = f"Game cancelled by {actor.name}."
            try:
                table = await self.core.db.cancel(table.id, table.version, self.core.clock(), note=note)
            except StaleVersion:
                raise StaleButton("The game moved on while you clicked; try again.") from None
            log.info("table %s cancelled by %s", table.id, actor.user_id)
            return Outcome(public=[self.presenter.cancelled_post(table, note)],
                           lobby=self.presenter.lobby_card(table, note=f"Cancelled by {actor.name}."),
                           table_id=table.id, channel_id=table.channel_id, reply="Game cancelled.",
                           outbox=(table.id, table.version))
