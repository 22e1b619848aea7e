"""The table service: lobbies, turns, bots, resignations and results, without Discord.

Each request reads the table from storage, checks who may do what, applies engine moves
and writes the result back in one versioned transaction, then says what to post where
(:class:`~tables.outcome.Outcome`). Requests for one table are serialised by a lock; the
version check in storage makes the same guarantee across processes and restarts.
"""

from __future__ import annotations

from tables.lobby import Lobby, parse_options

__all__ = ["TableService", "parse_options"]


class TableService(Lobby):
    """Lobbies, turns, bots, resignations, results and what to post: the one handle the Discord layer holds.

    Built in layers, each a module: :class:`~tables.core.ServiceCore` (storage, games, lookups, standings),
    :class:`~tables.presenter.Presenter` (posts, private views, controls, logs: reads only),
    :class:`~tables.play.PlayPipeline` (moves and resignations, one versioned transaction each) and
    :class:`~tables.lobby.Lobby` (seats, start, cancel, rematch).
    """
