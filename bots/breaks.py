"""Breaks for the hard bot: a learned leaf (what a position is worth, from features both seats can see), and the
outcomes of a draw listed for its expectimax (:func:`next_draws`, ``bots.mcts.Profile.chance``).

Nothing here reads what a seat cannot see: the search runs on a determinization (``Breaks.determinize``: the draw
pile and the others' face-down discards dealt afresh), the features read the cards still to come only by composition,
and a draw's outcomes are what its drawer cannot tell apart: any card of the draw pile or of the others' discards.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from engine.breaks.cards import court_points, is_court, is_wild, make_deck, matches

FEATURES = ("score", "potential", "len1", "len2", "len3", "len4", "empty", "growth", "exposure")
"""Per seat: points scored (a stack each; with ``scoring=court`` its court cards too); stacks its own merges would
add now (the final merge round's gain); sequences of each length; empty slots; cards in sequences times the share
of the future cards that match their top (how they grow);
cards in sequences times the share of the future cards that are court cards matching their top, where an opponent
could take them (how they are broken)."""


def _potential(seqs: list[list[str]], wild: bool) -> int:
    """The most stacks a seat's merges can still make from these sequences (as in the final merge round)."""
    best = 0
    live = [s for s in seqs if s]
    for i, moving in enumerate(live):
        bottom = moving[0]
        for j, onto in enumerate(live):
            if i == j:
                continue
            top = onto[-1]
            if not matches(bottom, top, wild):
                continue
            joined = onto + moving
            made = 0
            if len(joined) >= 5:
                made, joined = 1, joined[5:]
            rest = [s for k, s in enumerate(live) if k != i and k != j] + [joined]
            best = max(best, made + _potential(rest, wild))
    return best


@lru_cache(maxsize=64)
def _deck_size(decks: int, jokers: bool) -> int:
    return len(make_deck(decks, jokers))


def features(state: Any) -> tuple[list[list[float]], float]:
    """Every seat's :data:`FEATURES`, and the share of the deck still to come (draw pile, and the discard pile
    when it will be shuffled back)."""
    future = state.draw + (state.discard if state.recycles_left else [])
    n = len(future)
    wild = bool(state.options["aces_wild"])
    court = state.options["scoring"] == "court"
    by_suit: dict[str, int] = {}
    by_rank: dict[str, int] = {}
    by_card: dict[str, int] = {}
    court_suit: dict[str, int] = {}
    court_rank: dict[str, int] = {}
    court_card: dict[str, int] = {}
    wilds = 0
    for c in future:
        by_card[c] = by_card.get(c, 0) + 1
        if is_wild(c, wild):
            wilds += 1
            continue
        by_suit[c[1]] = by_suit.get(c[1], 0) + 1
        by_rank[c[0]] = by_rank.get(c[0], 0) + 1
        if is_court(c):
            court_suit[c[1]] = court_suit.get(c[1], 0) + 1
            court_rank[c[0]] = court_rank.get(c[0], 0) + 1
            court_card[c] = court_card.get(c, 0) + 1
    courts = sum(court_suit.values())
    inv = 1.0 / n if n else 0.0
    seats = len(state.slots)
    out = []
    for p in range(seats):
        seqs = state.slots[p]
        lens = [0, 0, 0, 0, 0]
        growth = exposure = 0.0
        empty = 0
        for seq in seqs:
            if not seq:
                empty += 1
                continue
            k = len(seq)
            lens[min(k, 4)] += 1
            if not n:
                continue
            top = seq[-1]
            if is_wild(top, wild):
                grow, threat = n, courts
            else:
                grow = by_suit.get(top[1], 0) + by_rank.get(top[0], 0) - by_card.get(top, 0) + wilds
                threat = court_suit.get(top[1], 0) + court_rank.get(top[0], 0) - court_card.get(top, 0)
            growth += k * grow * inv
            if threat:
                bottom = seq[0]
                if any(any(not s or matches(bottom, s[-1], wild)
                           for s in state.slots[q]) for q in range(seats) if q != p):
                    exposure += k * threat * inv
        points = sum(1 + (court_points(stack) if court else 0) for stack in state.stacks[p])
        out.append([float(points), float(_potential(seqs, wild)), float(lens[1]), float(lens[2]),
                    float(lens[3]), float(lens[4]), float(empty), growth, exposure])
    deck = _deck_size(state.options["decks"], state.options["jokers"])
    return out, n / deck


def inputs(state: Any, seat: int) -> list[float]:
    """The regression's inputs for ``seat``: its features less the best opponent's (by score), the same scaled by
    the share of the deck to come (a feature may count for more early or late), and whether the seat is to act."""
    feats, left = features(state)
    mine = feats[seat]
    others = [f for p, f in enumerate(feats) if p != seat]
    best = max(others, key=lambda f: (f[0] + f[1], f[0]))
    diff = [a - b for a, b in zip(mine, best, strict=True)]
    acting = state.final_queue[0] if state.phase == "final" and state.final_queue else state.turn
    return diff + [d * left for d in diff] + [1.0 if acting == seat else -1.0]


# Made by bench/breaks_fit.py: a logistic regression of the result on ``inputs`` at turn starts of 6,000 medium v
# medium games with 10% random moves (``--games 6000 --eps 0.1 --keep 0.3``, seeds 50000 on: 190k rows, held-out
# log loss 0.503 against 0.693 for a coin), then three phase weights moved by its ``--tune`` coordinate search (a
# one-move-ahead bot on this leaf against medium, 2,000 games a trial, seeds 200000 on): stacks × share to come
# -1.81 → -0.91, merges' stacks × share to come -0.75 → -0.38, exposure × share to come -0.20 → +0.10. Measured in
# the hard bot's search (Profile "breaks", one draw ahead) against medium over 2,000 games: fitted 54.9%, moved
# 57.0%. A refit on hard-v-medium games with two more features (exposure by cards squared, chance to finish a
# four) measured 53.2% and was dropped.
WEIGHTS: tuple[float, ...] = (
    2.046, 0.555, -0.284, -0.113, 0.119, 0.601, -0.322, 0.219, -0.608,  # feature differences
    -0.906, -0.377, 0.205, 0.087, -0.009, -0.48, 0.196, 0.046, 0.097,  # the same times the share of cards to come
    0.106,  # to act
)


def sigmoid(z: float) -> float:
    """The logistic function (its argument clamped, so a large one cannot overflow)."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def learned_value(game: Any, state: Any, seat: int) -> float:
    """The chance that ``seat`` wins, by the fitted regression on :func:`inputs`."""
    return sigmoid(sum(w * x for w, x in zip(WEIGHTS, inputs(state, seat), strict=True)))


def next_draws(game: Any, state: Any, actor: int, move: Any) -> list[tuple[float, Any]] | None:
    """The outcomes of ``move`` when it draws a card: every distinct card the drawer cannot rule out, with its
    chance, each the state after the draw (``None`` for a move that draws nothing). The drawer knows the cards that
    are neither in sight nor among its own discards, not where each lies: the next card is any of the draw pile and
    of the others' face-down discards. It is brought to the top of the pile (from the pile if it is there, else
    swapped with a discard of the same card), the rest stays as dealt (an empty pile is first refilled from the
    discards, shuffled, as the engine does)."""
    if move.kind != "draw":
        return None
    if not state.draw:
        state = state.clone()
        game.refill(state)
    hidden = [i for i, by in enumerate(state.discarded_by) if by != actor]
    counts: dict[str, int] = {}
    for c in state.draw:
        counts[c] = counts.get(c, 0) + 1
    for i in hidden:
        c = state.discard[i]
        counts[c] = counts.get(c, 0) + 1
    total = len(state.draw) + len(hidden)
    out = []
    for card, k in counts.items():
        s = state.clone()
        if card in s.draw:
            i = len(s.draw) - 1 - s.draw[::-1].index(card)
            s.draw[i], s.draw[-1] = s.draw[-1], s.draw[i]
        else:  # only among the others' discards: it and the pile's top change places
            i = next(i for i in hidden if s.discard[i] == card)
            s.discard[i], s.draw[-1] = s.draw[-1], s.discard[i]
        game.fast_apply(s, actor, move)
        out.append((k / total, s))
    return out
