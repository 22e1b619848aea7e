"""The bots decide from what their seat sees, nothing else (issues 13 and 28).

For every game, positions along random games (at least 200 a game with two legal moves or more and something
hidden from the seat to move) have what the seat cannot see dealt again, by this file's own scramble of each game,
written from the rules and not with the engine's ``determinize`` (which the bots themselves use: a test through it
could not catch a ``determinize`` that leaks): other players' hands, the order of every pile, secret picks, and the
state's random generator (the future dice and shuffles). The seat's view must be the same (the scramble is fair),
and the bot must choose the same move.

The bot is the hard one, with a search bounded by a count (``iterations``; Bloc by Bloc's turn planner at a small
count of positions) rather than the clock, so that its choice is reproducible on any machine and the test fast:
the hard bot is the one that searches on determinizations and reads most of the position, and its choice is a
pure function of the position and its generator. (Easy plays a random legal move, which reads nothing hidden by
construction; medium is greedy one move ahead on a determinization, the same reading the hard bot starts from.)

What the test can see: with a ``determinize`` that leaks (returns the real state), the hard bot's choice changed in
1 of 60 Breaks positions and 6 of 60 Bloc by Bloc ones (2026-11-27); in Blockers!, Breaker Blocks and BLOCK in
none of 60, as these bots read little of what is hidden (BLOCK's planner reads its own sheet only; Blockers'
looks one move ahead on its own tiles; Breaker Blocks' search at this count stays within the seat's own turn).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bots import PLANNERS, choose
from bots.mcts import PROFILES, search
from engine.base import Game
from engine.rng import Rng
from tables.catalog import default_catalog
from tests.engine.test_breaks_hidden import scramble as scramble_breaks_cards

WANTED = 200  # positions a game, each with two legal moves or more and something hidden from the seat
ITERATIONS = 8  # the hard bot's tree search, where it searches
PLAN_POSITIONS = 60  # Bloc by Bloc's planner: positions a turn's search may look at (a count: budget_ms scales it)
# Breaks' hard bot is a fixed expectimax (no count to bound): its own draws averaged over what it cannot see, then
# the opponent's next turn (2 plies, 35-70 ms a move). All positions are searched through its own draws, every
# FULL_EVERY-th through the opponent's turn too, to keep the test fast.
LIGHT = {"breaks": dataclasses.replace(PROFILES["breaks"], playout_plies=0)}
FULL_EVERY = 10


@dataclass
class Position:
    state: Any
    seat: int
    turn: list[tuple[int, Any]]  # the moves of the current turn so far (BLOCK's simultaneous picks), in order


Scramble = Callable[[Game[Any, Any, Any], Position, random.Random], Any]


def new_rng(state: Any, rnd: random.Random) -> None:
    """Another random generator: the future dice, draws and shuffles."""
    state.rng = rnd.getrandbits(63)


# --- Breaks: the draw pile, the others' face-down discards, a card another seat drew -----------------------------

def scramble_breaks(game: Game[Any, Any, Any], pos: Position, rnd: random.Random) -> Any:
    s = scramble_breaks_cards(pos.state, pos.seat, rnd)  # (tests/engine/test_breaks_hidden's, from the rules)
    new_rng(s, rnd)
    return s


# --- Blockers!: which of another colour's unplayed tiles are on its rack, and every pile's order -----------------

def scramble_blockers(game: Game[Any, Any, Any], pos: Position, rnd: random.Random) -> Any:
    from engine.blockers.board import sort_faces

    s = game.clone(pos.state)
    mine = set(s.colours(pos.seat))
    for colour, rack in s.racks.items():
        if colour not in mine and colour not in s.finished:  # a finished colour's rack is shown
            unplayed = rack + s.piles[colour]
            rnd.shuffle(unplayed)
            s.racks[colour] = sort_faces(unplayed[:len(rack)])
            s.piles[colour] = unplayed[len(rack):]
        else:
            rnd.shuffle(s.piles[colour])  # face down: nobody knows its order
    new_rng(s, rnd)
    return s


# --- Breaker Blocks, Blind Action: the modules in the other hand, the neutral supply, the modules set aside -------

def scramble_breakerblocks(game: Game[Any, Any, Any], pos: Position, rnd: random.Random) -> Any:
    from engine.breakerblocks.board import hand_limit, is_module

    s = game.clone(pos.state)
    other = 1 - pos.seat
    hand = s.hands[other]
    slots = [i for i, k in enumerate(hand) if is_module(k)]  # where its modules lie in the hand shows; which, not
    if any(is_module(k) for k in s.fresh[other]):  # (one drawn this turn is tied to its hand: left as it is)
        slots = []
    for _ in range(50):
        pool = [hand[i] for i in slots] + s.modules + s.removed
        rnd.shuffle(pool)
        dealt: list[str] = []
        for kind in list(pool):
            if len(dealt) < len(slots) and dealt.count(kind) < (hand_limit(kind) or 0):
                dealt.append(kind)
                pool.remove(kind)
        if len(dealt) == len(slots):  # (a hand holds one of each module, two AUTHENTICATEs: deal again if stuck)
            break
    else:
        pytest.fail("no deal of the other hand's modules within its limits")
    for i, kind in zip(slots, dealt, strict=True):
        hand[i] = kind
    s.modules, s.removed = pool[:len(s.modules)], pool[len(s.modules):]
    new_rng(s, rnd)
    return s


# --- BLOCK: the other seats' picks this turn (secret until every seat is done) ------------------------------------

def scramble_block(game: Game[Any, Any, Any], pos: Position, rnd: random.Random) -> Any:
    """The turn starts again from the public sheets with the same dice; the seat's own picks are made again as
    they were, and every other seat picks at random: as many picks as it had made if it is still picking, until
    it is done if it was done (which everyone sees)."""
    state, seat = pos.state, pos.seat
    if state.phase != "play":
        s = game.clone(state)
        new_rng(s, rnd)
        return s
    for _ in range(20):
        s = game.with_dice(state, state.dice)  # type: ignore[attr-defined]
        for p, move in pos.turn:
            if p == seat:
                s, _ = game.apply(s, p, move)
        fair = True
        for p in range(state.seats):
            if p == seat:
                continue
            picks = sum(1 for q, _ in pos.turn if q == p)
            done = p not in game.to_act(state)
            made = 0
            while p in game.to_act(s) and (done or made < picks):
                s, _ = game.apply(s, p, game.sample_move(s, p, Rng(rnd.getrandbits(63))))
                made += 1
            fair &= (p in game.to_act(s)) != done
        if fair:
            break
    else:
        return None  # (no other picks match what the seat sees: the position is left out)
    s.ply = state.ply  # (the count of picks made this turn is public; others' picks may have taken fewer steps)
    new_rng(s, rnd)
    return s


# --- Bloc by Bloc: the other factions' loot hands, the loot and police decks' order, the manifestation cards ------

def scramble_blocbybloc(game: Game[Any, Any, Any], pos: Position, rnd: random.Random) -> Any:
    s = game.clone(pos.state)
    mine = {f for f in range(4) if s.controller[f] == pos.seat}
    others = [f for f in range(4) if f not in mine and s.controller[f] >= 0]
    if not s.offers and not s.pending:  # (no trade offer or card being asked about: no card of theirs is known)
        pool = list(s.loot_deck) + [card for f in others for card in s.hands[f]]
        rnd.shuffle(pool)
        for f in others:
            s.hands[f], pool = pool[:len(s.hands[f])], pool[len(s.hands[f]):]
        s.loot_deck = pool
    rnd.shuffle(s.police_deck)
    hidden = [c for c in range(len(s.under)) if s.under[c]]  # manifestation cards still face down, and the box's
    cards = [s.under[c] for c in hidden] + list(s.spare)
    rnd.shuffle(cards)
    for i, c in enumerate(hidden):
        s.under[c] = cards[i]
    s.spare = cards[len(hidden):]
    new_rng(s, rnd)
    return s


# --- the bots and the positions ---------------------------------------------------------------------------------

def hard(game: Game[Any, Any, Any], state: Any, seat: int, iterations: int = ITERATIONS) -> Any:
    """The hard bot, its search bounded by a count."""
    if game.key == "blocbybloc":
        moves = game.search_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        move = PLANNERS["blocbybloc"](game, state, seat, moves, Rng(5), PLAN_POSITIONS, False)
        return move if move is not None else search(game, state, seat, moves, Rng(5), budget_ms=0,
                                                   iterations=iterations)
    return choose(game, state, seat, "hard", Rng(5), iterations=iterations)


@dataclass(frozen=True)
class Case:
    key: str
    seats: int
    options: dict[str, Any]
    scramble: Scramble
    every: int = 1  # a position every this many plies
    iterations: int = ITERATIONS  # the tree search's, where it searches


CASES = [
    Case("breaks", 2, {}, scramble_breaks),
    Case("blockers", 2, {}, scramble_blockers),
    Case("breakerblocks", 2, {"blind": True, "blind_remove4": True}, scramble_breakerblocks),
    Case("block", 3, {}, scramble_block),
    Case("blocbybloc", 4, {}, scramble_blocbybloc),
]


def positions(game: Game[Any, Any, Any], case: Case, seed: int) -> list[Position]:
    """Positions along a random game (a random seat of those to act moves at each ply)."""
    rng = Rng(seed)
    state = game.new_game(case.seats, game.resolve_options(case.options), seed)
    turn: list[tuple[int, Any]] = []
    out = []
    ply = 0
    while not game.is_over(state) and ply < 3000:
        acting = sorted(game.to_act(state))
        seat = acting[rng.below(len(acting))]
        if ply % case.every == 0:
            out.append(Position(state, seat, list(turn)))
        move = game.sample_move(state, seat, rng)
        before = getattr(state, "turn", None)
        state, _ = game.apply(state, seat, move)
        turn = [] if getattr(state, "turn", None) != before else turn + [(seat, move)]
        ply += 1
    return out


def hidden_changed(game: Game[Any, Any, Any], state: Any, scrambled: Any) -> bool:
    """Whether the scramble dealt something hidden differently (beyond the random generator)."""
    a, b = game.dump(state), game.dump(scrambled)
    a.pop("rng", None)
    b.pop("rng", None)
    return a != b


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_scrambling_what_the_seat_cannot_see_does_not_change_the_hard_bots_move(
        case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    game = default_catalog().get(case.key)
    assert game is not None and game.hidden_information
    rnd = random.Random(28)
    checked = 0
    seed = 1
    while checked < WANTED:
        assert seed < 200, f"only {checked} positions with a choice and something hidden"
        for pos in positions(game, case, seed):
            if checked >= WANTED:
                break
            if len(game.legal_moves(pos.state, pos.seat)) < 2 or len(game.search_moves(pos.state, pos.seat)) < 2:
                continue
            other = case.scramble(game, pos, rnd)
            if other is None or not hidden_changed(game, pos.state, other):
                continue
            where = f"seed {seed}, ply {pos.state.ply}, seat {pos.seat}"
            assert game.view(other, pos.seat) == game.view(pos.state, pos.seat), f"{where}: the scramble shows"
            with monkeypatch.context() as patch:
                if case.key in LIGHT and checked % FULL_EVERY:
                    patch.setitem(PROFILES, case.key, LIGHT[case.key])
                assert game.format_move(hard(game, other, pos.seat, case.iterations)) == game.format_move(
                    hard(game, pos.state, pos.seat, case.iterations)), f"{where}: the bot read what its seat cannot see"
            checked += 1
        seed += 1
