"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012) over the game
contract.

Each iteration draws a determinization of the root state from the searching seat's point of view
(``Game.determinize``: other hands, deck orders and future dice resampled), walks the tree choosing among the moves
available in that determinization by UCB1 (availability counts in the exploration term), adds one node, scores it
with :func:`bots.heuristics.value` for every seat (after ``playout_plies`` plies of a cheap policy, none by
default), and backs the scores up: each node keeps the reward of the seat that made its move. The root searches the
heuristic's best ``root_width`` moves; below it each node searches its actor's best ``node_width`` (every seat is
assumed to play well). Nodes are keyed by move notation, so determinizations share them. The move played is the
most visited root move that is legal in the real state (or, with ``pick_mean``, the best average of the well-tried
ones).

How each game is searched is its :class:`Profile` (:data:`PROFILES`), chosen by measurement with
``bench.tournament``: a game may name its own leaf heuristic (``bots.heuristics.LEAVES``), play determinizations
out by an epsilon-greedy policy, search the root only (``flat``), or not search at all (``one_ply``: the leaf's
best move, when deeper search measured worse). A game whose chance events are few enough to list (a hook in
``bots.heuristics.CHANCES``: Breaks' next card) may average over them instead of sampling (``chance``: expectimax
on the determinization, through the next seat's turn). BLOCK's and Bloc by Bloc's hard bots plan their turns
instead (:mod:`bots.blockplan`, :mod:`bots.blocbybloc_plan`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from bots.heuristics import CHANCES, value
from engine.base import Game
from engine.rng import Rng

DEFAULT_BUDGET_MS = 1500  # a hard bot's thinking time per move (under the 2 s); planners scale to it too
EXPLORE = 0.7
PLAYOUT_PLIES = 0  # a playout stops here and the position is scored by the heuristic
MAX_CHILDREN = 60  # moves considered at a node (a random sample of long lists, fixed at the node's creation)
ROOT_WIDTH = 12  # root moves searched: the heuristic's best
NODE_WIDTH = 4  # moves searched below the root: the acting seat's best by the heuristic
NODE_SAMPLE = 24  # of a sample this long
PLAYOUT_EPS = 0.1  # a playout ply is random this often, else the actor's best move by the heuristic
PLAYOUT_SAMPLE = 12  # of a sample this long


@dataclass(frozen=True)
class Profile:
    """How one game is searched (measured with bench.tournament; the defaults above unless a game says)."""

    explore: float = EXPLORE
    playout_plies: int = PLAYOUT_PLIES
    playout_eps: float = PLAYOUT_EPS
    playout_sample: int = PLAYOUT_SAMPLE
    root_width: int = ROOT_WIDTH
    node_width: int = NODE_WIDTH
    leaf: str = ""  # the heuristic (bots.heuristics.LEAVES) that scores leaves, if not the medium bot's
    pick_mean: bool = False  # play the root move with the best average reward (else the most visited)
    one_ply: bool = False  # no search: the move whose position the leaf values most (over every move; ties: chance)
    flat: bool = False  # search the root moves only, each iteration playing the determinization out by the policy
    fresh_nodes: bool = False  # below the root, pick the actor's best moves anew in every determinization
    chance: str = ""  # expectimax: chance outcomes listed by this game hook (bots.heuristics.CHANCES), not sampled
    policy_leaf: str | None = None  # with ``chance``: the heuristic the other seats play by (None: the leaf)
    whole_wins: bool = False  # a finished game is worth 1 to each of its winners (not a share of 1 among them)


PROFILES: dict[str, Profile] = {
    # Breaks: the luck of the draw drowns sampled comparisons; the next cards are averaged over exactly (any card the
    # drawer cannot see: the pile and the others' face-down discards) through the opponent's next turn, the opponent
    # playing the medium bot's heuristic, and the leaf is a regression of the result on public features
    # (bots.breaks). Hard v medium with face-down discards: 59.1% over 700 games (seeds 1000-1399, 5000-5299; 95% CI
    # 55.4-62.7%; bench.tournament), where paired flat Monte Carlo on the old leaf won 54.8% of 600
    "breaks": Profile(chance="breaks", playout_plies=2, leaf="breaks_fit", policy_leaf=""),
    # Blockers!: the leaf that sees likely merges, one move ahead over every move (deeper search did worse)
    "blockers": Profile(one_ply=True, leaf="blockers_reach"),
    # Bloc by Bloc (its hard bot plans its turns: the search answers trade offers only): a cooperative win is won by
    # every seat, and in the semi-cooperative game each winning faction's seat wins whole, whoever else wins too
    # (a share of 1 would make a table win worth 1/4 to each seat, less than many unfinished positions)
    "blocbybloc": Profile(whole_wins=True),
}


def profile(game: Game[Any, Any, Any]) -> Profile:
    return PROFILES.get(game.key, Profile())


@dataclass
class Node:
    seat: int = -1  # the seat whose move led here
    visits: int = 0
    reward: float = 0.0  # summed reward of ``seat``
    avail: int = 0  # times this node's move was available when its parent was visited
    children: dict[str, Node] = field(default_factory=dict)
    options: list[str] | None = None  # the moves this node considers (a sample of long lists)


def _actor(game: Game[Any, Any, Any], state: Any) -> int:
    return min(game.to_act(state))


def _rewards(game: Game[Any, Any, Any], state: Any, seats: int, leaf: str = "") -> list[float]:
    return [_value(game, state, s, leaf) for s in range(seats)]


def _value(game: Game[Any, Any, Any], state: Any, seat: int, leaf: str = "") -> float:
    """The seat's value of ``state`` (:func:`bots.heuristics.value`), a finished game of a ``whole_wins`` profile
    being worth 1 to each winner and 0 to the others."""
    if profile(game).whole_wins:
        result = game.result(state)
        if result is not None:
            return 1.0 if seat in result.winners else 0.0
    return value(game, state, seat, leaf)


def search(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng, *, budget_ms: float,
           iterations: int | None = None) -> Any:
    deadline = time.perf_counter() + budget_ms / 1000.0  # (from the start: choosing the root's moves counts too)
    legal = {game.format_move(m): m for m in moves}
    seats = game.seat_count(state)
    prof = profile(game)
    if prof.one_ply:  # the leaf heuristic's best move, no tree
        return legal[_candidates(game, state, seat, moves, rng, 1, leaf=prof.leaf, ties=True)[0]]
    if prof.chance:
        return _expect(game, state, seat, moves, rng, prof, legal, deadline, iterations)
    root = Node(options=_candidates(game, state, seat, moves, rng, prof.root_width, leaf=prof.leaf))
    done = 0
    while (done < iterations) if iterations is not None else (done < 1 or time.perf_counter() < deadline):
        done += 1
        det = game.determinize(state, seat, rng)
        node, path = root, [root]
        while not game.is_over(det):
            actor = _actor(game, det)
            available = _available(game, det, actor, node, rng, prof, legal if node is root else None)
            if not available:
                break
            untried = [k for k in available if k not in node.children]
            for key in available:
                if key in node.children:
                    node.children[key].avail += 1
            if untried:
                key = untried[rng.below(len(untried))]
                child = node.children[key] = Node(seat=actor, avail=1)
                game.fast_apply(det, actor, available[key])
                path.append(child)
                break
            key = max(available, key=lambda k: _ucb(node.children[k], prof.explore))
            node = node.children[key]
            game.fast_apply(det, actor, available[key])
            path.append(node)
            if prof.flat:  # no tree below the root: each determinization is played out by the policy
                break
        rewards = _playout(game, det, seats, rng, prof)
        for visited in path:
            visited.visits += 1
            if visited.seat >= 0:
                visited.reward += rewards[visited.seat]
    played = [k for k in root.children if k in legal]
    best: str | None
    if prof.pick_mean and played:  # the best average among the well-tried moves
        most = max(root.children[k].visits for k in played)
        played = [k for k in played if root.children[k].visits * 4 >= most]
        best = max(played, key=lambda k: root.children[k].reward / max(1, root.children[k].visits))
    else:
        best = max(played, key=lambda k: root.children[k].visits, default=None)
    return legal[best] if best is not None else moves[rng.below(len(moves))]


def _expect(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng, prof: Profile,
            legal: dict[str, Any], deadline: float, iterations: int | None) -> Any:
    """Expectimax on a determinization, for games whose chance events are few enough to list (a game hook,
    :data:`bots.heuristics.CHANCES`, gives a move's outcomes: for Breaks every distinct card the drawer cannot
    see, which depends on what the seat sees only, not on the determinization's order). A move that draws is
    worth the average over its outcomes of the seat's best answer; then the others play by the policy (each the
    best move by ``policy_leaf``), their draws averaged too, for ``playout_plies`` plies or until the seat is to act
    again, where the leaf scores the position. Every candidate is searched, those with fewest outcomes first; past
    the time budget (when ``iterations`` is not fixed) the other seats' turns are no longer searched, the leaf
    scoring the position they start from, so a large table still answers within its budget."""
    chance = CHANCES[prof.chance]
    det = game.determinize(state, seat, rng)
    keys = [k for k in _candidates(game, state, seat, moves, rng, prof.root_width, leaf=prof.leaf) if k in legal]
    policy_leaf = prof.leaf if prof.policy_leaf is None else prof.policy_leaf

    def outcomes(s: Any, actor: int, move: Any) -> list[tuple[float, Any]]:
        outs = chance(game, s, actor, move)
        if outs is None:
            after = game.clone(s)
            game.fast_apply(after, actor, move)
            return [(1.0, after)]
        return outs

    def replies(s: Any, plies: int) -> float:
        late = iterations is None and time.perf_counter() > deadline
        if late or plies <= 0 or game.is_over(s) or _actor(game, s) == seat:
            return value(game, s, seat, prof.leaf)
        actor = _actor(game, s)
        move = _greedy(game, s, actor, game.legal_moves(s, actor), policy_leaf)
        return sum(w * replies(after, plies - 1) for w, after in outcomes(s, actor, move))

    def mine(outs: list[tuple[float, Any]], answer: bool) -> float:
        total = 0.0
        for w, after in outs:
            if answer and not game.is_over(after) and _actor(game, after) == seat:  # what to do with the card drawn
                total += w * max(mine(outcomes(after, seat, m), False) for m in game.legal_moves(after, seat))
            else:
                total += w * replies(after, prof.playout_plies)
        return total

    root = {key: outcomes(det, seat, legal[key]) for key in keys}
    keys.sort(key=lambda k: len(root[k]))  # the cheap ones (fewest outcomes) first
    totals = {key: mine(root[key], True) for key in keys}
    return legal[max(totals, key=lambda k: totals[k])]


def _after(game: Game[Any, Any, Any], state: Any, actor: int, move: Any, leaf: str) -> float:
    """The actor's value of the position ``move`` leads to (on a copy)."""
    after = game.clone(state)
    game.fast_apply(after, actor, move)
    return _value(game, after, actor, leaf)


def _greedy(game: Game[Any, Any, Any], state: Any, actor: int, moves: list[Any], leaf: str) -> Any:
    """The move whose position the actor values most, one move ahead (ties: the first)."""
    return moves[0] if len(moves) == 1 else max(moves, key=lambda m: _after(game, state, actor, m, leaf))


def _available(game: Game[Any, Any, Any], state: Any, actor: int, node: Node, rng: Rng, prof: Profile,
               only: dict[str, Any] | None) -> dict[str, Any]:
    """The moves of this node that the determinization allows, by notation: the root's candidates; elsewhere the
    actor's best few by the heuristic (each seat is assumed to play well), chosen when the node is first reached
    and topped up when a determinization allows none of them (after a chance event the moves differ)."""
    moves = game.search_moves(state, actor)  # (as the root: what a bot may choose)
    by_key = {game.format_move(m): m for m in moves}
    if only is not None:  # the root: its candidates only
        return {k: by_key[k] for k in (node.options or only) if k in by_key}
    if len(by_key) <= prof.node_width:
        return by_key
    if prof.fresh_nodes:  # the actor's best moves in this determinization (a chance event may change them all)
        return {k: by_key[k] for k in _candidates(game, state, actor, moves, rng, prof.node_width, NODE_SAMPLE,
                                                 fresh=True, leaf=prof.leaf)}
    if node.options is None:
        node.options = []
    found = {k: by_key[k] for k in node.options if k in by_key}
    if not found:
        for k in _candidates(game, state, actor, moves, rng, prof.node_width, NODE_SAMPLE, leaf=prof.leaf):
            node.options.append(k)
            found[k] = by_key[k]
    return found


def _candidates(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng,
                width: int = 0, sample: int = 0, fresh: bool = False, leaf: str = "", ties: bool = False) -> list[str]:
    """The moves worth searching: the heuristic's best ``width`` one move ahead (on a determinized copy; a sample
    of long lists), so the search spends its budget telling good moves apart. Equal values keep the order of the
    moves, or with ``ties`` go to chance."""
    width, sample = width or ROOT_WIDTH, sample or 4 * MAX_CHILDREN
    if len(moves) <= width:
        return [game.format_move(m) for m in moves]
    if len(moves) > sample:
        picks = list(range(len(moves)))
        rng.shuffle(picks)
        moves = [moves[i] for i in sorted(picks[:sample])]
    seen = state if fresh else game.determinize(state, seat, rng)  # fresh: already a determinization
    scored = []
    for move in moves:
        scored.append((_after(game, seen, seat, move, leaf) + (rng.below(1000) * 1e-9 if ties else 0.0),
                       game.format_move(move)))
    scored.sort(key=lambda x: -x[0])
    return [key for _, key in scored[:width]]


def _ucb(child: Node, explore: float) -> float:
    if child.visits == 0:
        return math.inf
    return child.reward / child.visits + explore * math.sqrt(math.log(max(child.avail, 1)) / child.visits)


def _playout(game: Game[Any, Any, Any], state: Any, seats: int, rng: Rng, prof: Profile) -> list[float]:
    """A few plies of play by the cheap policy (each seat its heuristic's best move, sometimes a random one),
    then every seat's value of the position."""
    for _ in range(prof.playout_plies):
        if game.is_over(state):
            break
        actor = _actor(game, state)
        game.fast_apply(state, actor, _policy(game, state, actor, rng, prof))
    return _rewards(game, state, seats, prof.leaf)


def _policy(game: Game[Any, Any, Any], state: Any, actor: int, rng: Rng, prof: Profile) -> Any:
    """The playout policy: epsilon-greedy on the heuristic, one move ahead on the playout's own state (already a
    determinization of the searching seat's view, so nothing hidden is read)."""
    if rng.below(1000) < 1000 * prof.playout_eps:
        return game.sample_move(state, actor, rng)
    moves = game.search_moves(state, actor)
    if len(moves) > prof.playout_sample:
        moves = [moves[rng.below(len(moves))] for _ in range(prof.playout_sample)]
    return _greedy(game, state, actor, moves, prof.leaf)
