"""The table service: lobbies, turns, bots, resignations, clocks and results, without Discord.

Each request reads the table from storage, checks who may do what, applies engine moves and writes the result back
in one versioned transaction, then says what to post where (:class:`~tables.outcome.Outcome`). Requests for one
table are serialised by a lock; the version check in storage makes the same guarantee across processes and restarts.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from storage import Database
from tables.bots import Thinker
from tables.catalog import Catalog
from tables.clock import TurnClock
from tables.community import Community
from tables.core import Core
from tables.lobby import Lobby, parse_options
from tables.outbox import Outbox
from tables.play import Play
from tables.presenter import Presenter
from tables.tournaments import Tournaments

__all__ = ["TableService", "parse_options"]


class TableService:
    """The one handle the Discord layer holds: its requests, each answered by one of the service's parts.

    The parts are separate objects with narrow interfaces, composed here, none inheriting from another:

    - :class:`~tables.core.Core`: storage, the catalogue, the clock, seeds and the bots' worker; lookups, standings;
    - :class:`~tables.presenter.Presenter`: boards, cards, private views, controls, logs (reads only);
    - :class:`~tables.play.Play`: moves and everything that plays (one loop until a person must act);
    - :class:`~tables.clock.TurnClock`: late turns, reminders, pauses, vacations, notifications;
    - :class:`~tables.lobby.Lobby`: seats, options, start, cancel, rematch, the server's settings;
    - :class:`~tables.outbox.Outbox`: what committed changes still owe the channel, and what was posted where;
    - :class:`~tables.community.Community`: profiles, past games, leaderboards and the server's rating rules;
    - :class:`~tables.tournaments.Tournaments`: tournaments, their rounds' games and what they owe their channel.
    """

    def __init__(self, db: Database, registry: Catalog, *, clock: Callable[[], float] = time.time,
                 seeds: Callable[[], int] = lambda: secrets.randbits(63), render: bool = True) -> None:
        self.core = Core(db, registry, clock=clock, seeds=seeds, render=render)
        self.presenter = Presenter(self.core)
        self.play = Play(self.core, self.presenter)
        self.turn_clock = TurnClock(self.core, self.presenter, self.play)
        self.lobby = Lobby(self.core, self.presenter, self.play)
        self.outbox = Outbox(self.core, self.presenter)
        self.community = Community(self.core)
        self.tournaments = Tournaments(self.core, self.lobby, self.play)

        # lookups
        self.game = self.core.game
        self.game_here = self.core.game_here
        # the lobby
        self.check_new = self.lobby.check_new
        self.open_lobby = self.lobby.open_lobby
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_bot = self.lobby.add_bot
        self.remove_bot = self.lobby.remove_bot
        self.set_options = self.lobby.set_options
        self.start = self.lobby.start
        self.cancel = self.lobby.cancel
        self.check_rematch = self.lobby.check_rematch
        self.rematch = self.lobby.rematch
        self.check_control_channel = self.lobby.check_control_channel
        self.settings = self.lobby.settings
        # play
        self.submit = self.play.submit
        self.menu = self.play.menu
        self.pick = self.play.pick
        self.preview = self.play.preview
        self.resign = self.play.resign
        self.undo = self.play.undo
        self.kick = self.play.kick
        self.replace = self.play.replace
        # the turn clock
        self.expire = self.turn_clock.expire
        self.remind = self.turn_clock.remind
        self.pause_clock = self.turn_clock.pause_clock
        self.set_away = self.turn_clock.set_away
        self.set_notify = self.turn_clock.set_notify
        self.archives_due = self.turn_clock.archives_due
        # what players see (reads only)
        self.board = self.presenter.board
        self.hand = self.presenter.hand
        self.choices = self.presenter.choices
        self.status = self.presenter.status
        self.history = self.presenter.history
        self.log_page = self.presenter.log_page
        self.my_games = self.presenter.my_games
        self.replay = self.presenter.replay
        # the outbox and what was posted where
        self.undelivered = self.outbox.undelivered
        self.delivered = self.outbox.delivered
        self.dm_result = self.outbox.dm_result
        self.board_posted = self.outbox.board_posted
        self.status_message = self.outbox.status_message
        self.status_posted = self.outbox.status_posted
        self.set_lobby_message = self.outbox.set_lobby_message
        # community play
        self.profile = self.community.profile
        self.past_games = self.community.past_games
        self.leaderboard = self.community.leaderboard
        self.rating_settings = self.community.rating_settings
        self.rebuild_ratings = self.community.rebuild

    # The core's settings, read and set through the service (tests and the bot adjust them)
    @property
    def db(self) -> Database:
        return self.core.db

    @property
    def registry(self) -> Catalog:
        return self.core.registry

    @registry.setter
    def registry(self, registry: Catalog) -> None:
        self.core.registry = registry

    @property
    def thinker(self) -> Thinker:
        return self.core.thinker

    @thinker.setter
    def thinker(self, thinker: Thinker) -> None:
        self.core.thinker = thinker

    @property
    def clock(self) -> Callable[[], float]:
        return self.core.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.core.clock = clock

    @property
    def seeds(self) -> Callable[[], int]:
        return self.core.seeds

    @seeds.setter
    def seeds(self, seeds: Callable[[], int]) -> None:
        self.core.seeds = seeds

    @property
    def render_images(self) -> bool:
        return self.core.render_images

    @render_images.setter
    def render_images(self, render: bool) -> None:
        self.core.render_images = render
