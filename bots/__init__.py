"""Bot players over the game contract (issue 13): pure functions of a game, a state, a seat, a seeded generator and
a budget. No Discord, no storage; the table service runs them off the event loop.

* ``easy``: a uniformly random legal move (Bloc by Bloc: any move near the medium bot's best, :data:`EASY`);
* ``medium``: a game-specific heuristic one move ahead (:mod:`bots.heuristics`), on a determinized copy of the
  state, so it never reads what its seat cannot see;
* ``hard``: information-set Monte Carlo tree search (:mod:`bots.mcts`): each iteration searches a fresh
  determinization of what its seat sees, leaves scored by a heuristic (per game: :data:`bots.mcts.PROFILES`);
  BLOCK's and Bloc by Bloc's hard bots plan each turn instead (:data:`PLANNERS`: :mod:`bots.blockplan`,
  :mod:`bots.blocbybloc_plan`), leaving to the search the decisions their planner does not take.

Every level only ever returns a move from ``legal_moves`` of the real state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bots.heuristics import greedy
from bots.mcts import DEFAULT_BUDGET_MS, search
from engine.base import Game
from engine.rng import Rng

Planner = Callable[[Game[Any, Any, Any], Any, int, list[Any], Rng, float, bool], Any]


# A planner is imported when its game is first planned: a bots' worker imports only what its games need.
def _plan_block(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng, budget_ms: float,
                timed: bool) -> Any:
    from bots.blockplan import plan

    return plan(game, state, seat, moves, rng, budget_ms, timed)


def _plan_blocbybloc(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng,
                     budget_ms: float, timed: bool) -> Any:
    from bots.blocbybloc_plan import plan

    return plan(game, state, seat, moves, rng, budget_ms, timed)


PLANNERS: dict[str, Planner] = {"block": _plan_block, "blocbybloc": _plan_blocbybloc}
"""Games whose hard bot plans its turn with game-specific search instead (``None``: a step left to the MCTS). A
planner gets the budget and whether it may read the clock (``timed``: not with a fixed ``iterations``, whose
choices must be the same on any machine)."""


def _greedy_blocbybloc(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng) -> Any:
    """The medium bot of Bloc by Bloc: one move ahead by the seat's own value (its agenda's in the semi-cooperative
    game), a finished game worth 1 to each winner, not a share of it."""
    from bots.blocbybloc import seat_value

    return greedy(game, state, seat, moves, rng, seat_value)


MEDIUM: dict[str, Callable[[Game[Any, Any, Any], Any, int, list[Any], Rng], Any]] = {
    "blocbybloc": _greedy_blocbybloc}
"""Games whose medium bot is their own (Bloc by Bloc: its seat's value, a win worth 1 to every winner)."""

EASY_SLACK = 3.0  # Bloc by Bloc's easy bot: any move worth at least the best less this (forecast points)


def _easy_blocbybloc(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng) -> Any:
    """The easy bot of Bloc by Bloc: the medium bot's value one move ahead, but any move near the best, at random.
    A random move would walk its blocs into the Sunrise's clashes and lose a cooperative game for the whole table;
    this one still plays for the goal and for its agenda (a move that wins alone, or keeps a Win Cooperatively
    option met, is worth far more than the slack), only less well."""
    from bots.blocbybloc import seat_points

    return greedy(game, state, seat, moves, rng, seat_points, slack=EASY_SLACK)


EASY: dict[str, Callable[[Game[Any, Any, Any], Any, int, list[Any], Rng], Any]] = {"blocbybloc": _easy_blocbybloc}
"""Games whose easy bot is not a uniformly random mover (it thinks, so the table service asks it in a worker)."""


def thinks(game_key: str, level: str) -> bool:
    """Whether a bot of ``level`` works its move out (a heuristic, a search), rather than picking it at random at
    once: the table service asks those in a worker process, off the event loop."""
    return level_of(level) != "easy" or game_key in EASY


def random_move(game: Game[Any, Any, Any], state: Any, seat: int, rng: Rng) -> Any:
    """A uniformly random move among those bots consider (``search_moves``): the easy bot of most games, and the
    table service's stand-in for a bot that failed to think."""
    moves = game.search_moves(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    return moves[0] if len(moves) == 1 else moves[rng.below(len(moves))]

LEVELS = ("easy", "medium", "hard")
ALIASES = {"random": "easy"}  # seats stored before the levels existed


def level_of(name: str) -> str:
    level = ALIASES.get(name, name)
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {name!r}")
    return level


def choose(game: Game[Any, Any, Any], state: Any, seat: int, level: str, rng: Rng, *,
           budget_ms: float = DEFAULT_BUDGET_MS, iterations: int | None = None) -> Any:
    """A legal move for ``seat`` at ``level``. ``iterations`` (tests, benchmarks) replaces the time budget of the
    hard bot with a fixed amount of search, so that its choice is reproducible."""
    level = level_of(level)
    moves = game.search_moves(state, seat)  # legal moves, less those a game keeps from bots (search_moves)
    if not moves:
        raise ValueError(f"seat {seat} has no legal move")
    if len(moves) == 1:
        return moves[0]
    if level == "easy":
        own = EASY.get(game.key)
        return own(game, state, seat, moves, rng) if own is not None else moves[rng.below(len(moves))]
    if level == "medium":
        return MEDIUM.get(game.key, greedy)(game, state, seat, moves, rng)
    planner = PLANNERS.get(game.key)
    if planner is not None:
        # (a fixed ``iterations`` is a benchmark's or a test's: the planner then plans as at the default budget,
        # without a clock)
        timed = iterations is None
        move = planner(game, state, seat, moves, rng, budget_ms if timed else DEFAULT_BUDGET_MS, timed)
        if move is not None:
            return move
    return search(game, state, seat, moves, rng, budget_ms=budget_ms, iterations=iterations)
