"""How good a position is for a seat, per game, and the medium bot that plays the move with the best value one move
ahead. Values are in [0, 1]: 1 is a sure win. The hard bot scores the ends of its cut-off playouts with them.

Per game (issue 13's "obvious good move"): Breaks and BLOCK by score lead (stacks completed, combos built);
Blockers! by penalty lead (fewer captured colours) and tiles left; Breaker Blocks by circuits controlled and power
fed; Bloc by Bloc (cooperative) by State districts occupied, liberations, blocs kept in the city and police
pressure.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from bots.breaks import learned_value, next_draws
from engine.base import Game
from engine.rng import Rng

Value = Callable[[Game[Any, Any, Any], Any, int], float]
GREEDY_SAMPLE = 80  # the medium bot looks at this many of the legal moves at most


def _squash(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _lead(scores: list[float], seat: int, scale: float, lower_is_better: bool = False) -> float:
    mine = scores[seat]
    others = [s for i, s in enumerate(scores) if i != seat]
    if not others:  # solo: the score itself
        return _squash((mine - scale) / scale)
    best = min(others) if lower_is_better else max(others)
    diff = (best - mine) if lower_is_better else (mine - best)
    return _squash(diff / scale)


def _scores(game: Game[Any, Any, Any], state: Any) -> list[float]:
    return [float(x) for x in game.scores(state)]


def breaks_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    """Score lead, plus progress towards stacks: cards in one's sequences (a longer sequence is closer to a
    stack of five), and a sequence of four counts most."""
    def progress(p: int) -> float:
        return sum(len(slot) ** 1.5 for slot in state.slots[p]) + 25.0 * len(state.stacks[p])

    scores = _scores(game, state)
    mine = scores[seat] * 3 + progress(seat)
    best = max((scores[p] * 3 + progress(p) for p in range(len(scores)) if p != seat), default=0.0)
    return _squash((mine - best) / 20.0)


def blockers_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    return _lead(_scores(game, state), seat, 3.0, lower_is_better=True)


def blockers_reach_value(game: Game[Any, Any, Any], state: Any, seat: int, bridge: float = 0.2) -> float:
    """The hard bot's Blockers! leaf: the score lead, with each empty square that touches two or more of a colour's
    groups and fits one of its unplayed tiles counted as a likely merge (``bridge`` of a group each). Which tiles
    a colour has not played is public (28 of each, minus those on the board or captured)."""
    from engine.blockers.board import FACES, FITS, NEIGHBOURS, group_squares

    board = state.board
    scores = [float(x) for x in game.scores(state)]
    for p in range(len(scores)):
        for colour in state.colours(p):
            if colour in state.finished:
                continue
            gone = {t.split(":", 1)[1] for t in board if t is not None and t.startswith(colour + ":")}
            gone |= {t.split(":", 1)[1] for caps in state.captured for t in caps if t.startswith(colour + ":")}
            left = [f for f in FACES if f not in gone]
            fit: set[int] = set()
            for f in left:
                fit.update(FITS[f])
            group_of: dict[int, int] = {}
            for i, g in enumerate(group_squares(board, colour)):
                for sq in g:
                    group_of[sq] = i
            merges = 0
            for sq in fit:
                if board[sq] is not None:
                    continue
                touching = {group_of[n] for n in NEIGHBOURS[sq] if n in group_of}
                if len(touching) >= 2:
                    merges += len(touching) - 1
            scores[p] -= bridge * min(merges, 6)
    return _lead(scores, seat, 3.0, lower_is_better=True)


def _sheet_worth(sheet: Any) -> float:
    """A BLOCK sheet: its score, plus a flat stack (rows fill and combos stay reachable), a low one (the Game Over
    line is far) and a combo ready to circle."""
    tops = sheet.tops()
    bumps = sum(abs(a - b) for a, b in zip(tops, tops[1:], strict=False))
    height = max(tops)
    holes = sum(1 for c, top in enumerate(tops) for r in range(top) if sheet.grid[r][c] is None)
    return (sheet.score()["total"] - 0.6 * bumps - 1.5 * holes - 2.0 * max(0, height - 7)
            + (2.0 if sheet.has_combo() else 0.0))


def block_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    worth = [_sheet_worth(state.work[p] if state.work else state.sheets[p]) for p in range(state.seats)]
    return _lead(worth, seat, 10.0)


def breakerblocks_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    return _lead(_scores(game, state), seat, 1.5)


def blocbybloc_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    """Bloc by Bloc's value (:func:`bots.blocbybloc.blocbybloc_value`), imported with the first position valued: its
    module loads the city's geometry, which a worker thinking about another game need not import."""
    from bots.blocbybloc import blocbybloc_value as value

    return value(game, state, seat)


VALUES: dict[str, Value] = {"breaks": breaks_value, "blockers": blockers_value, "block": block_value,
                            "breakerblocks": breakerblocks_value, "blocbybloc": blocbybloc_value}


# the hard bot's own leaves, by name (bots.mcts.Profile.leaf)
LEAVES: dict[str, Value] = {"breaks_fit": learned_value,
                            "blockers_reach": blockers_reach_value}

# games' chance events listed for an expectimax (bots.mcts.Profile.chance): the outcomes of a move, or None
CHANCES: dict[str, Callable[..., list[tuple[float, Any]] | None]] = {"breaks": next_draws}


def value(game: Game[Any, Any, Any], state: Any, seat: int, leaf: str = "") -> float:
    """The seat's value of ``state``: the result once the game is over, else the game's heuristic (or the named
    leaf heuristic of :data:`LEAVES`)."""
    result = game.result(state)
    if result is not None:
        if not result.winners:
            return 0.0
        return 1.0 / len(result.winners) if seat in result.winners else 0.0
    fn = LEAVES[leaf] if leaf else VALUES.get(game.key)
    if fn is None:
        scores = game.scores(state)
        return _lead([float(x) for x in scores], seat, 5.0) if scores else 0.5
    return fn(game, state, seat)


def greedy(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng,
           worth: Value | None = None, slack: float = 0.0) -> Any:
    """The medium bot: on a copy of the state that knows only what the seat sees, try each move (a sample of them
    when there are many) and keep the one whose position is worth most (by :func:`value`, or ``worth``); ties go to
    chance. With a ``slack``, any move worth at least the best less ``slack``, at random (a weaker player, who
    still sees what matters most)."""
    worth = worth or value
    if len(moves) > GREEDY_SAMPLE:
        picks = list(range(len(moves)))
        rng.shuffle(picks)
        moves = [moves[i] for i in sorted(picks[:GREEDY_SAMPLE])]
    seen = game.determinize(state, seat, rng)
    best: list[Any] = []
    best_value = -math.inf
    worths: list[tuple[float, Any]] = []
    for move in moves:
        after = game.clone(seen)
        try:
            game.fast_apply(after, seat, move)
        except Exception:  # a move the determinized copy does not allow (it cannot happen for one's own moves)
            continue
        v = worth(game, after, seat) + rng.below(1000) * 1e-9  # ties: chance
        if slack:
            worths.append((v, move))
        if v > best_value:
            best, best_value = [move], v
    if slack and worths:
        near = [move for v, move in worths if v >= best_value - slack]
        return near[rng.below(len(near))]
    return best[0] if best else moves[rng.below(len(moves))]
