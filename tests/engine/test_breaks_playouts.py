"""Random playouts of Breaks over every option mix, checking the invariants after every move.

Moves are picked uniformly among the legal ones with the engine's own seeded :class:`engine.rng.Rng`, so a
failure is reproducible from the test id and the seed in the message. The rules are re-derived here
independently of the engine (matching, the legal moves, what each move does, scoring) and compared with it.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.base import IllegalMoveError
from engine.breaks import Breaks, BreaksState, Move
from engine.breaks.cards import make_deck
from engine.rng import Rng

G = Breaks()
MAX_PLIES = 2000  # the longest option mix (two decks, Jokers, three recycles) stays far below this
SEEDS_PER_CASE = 1

DECKS, JOKERS, ACES_WILD, SCORING, RECYCLES, TIEBREAK, PLAYERS = (
    (1, 2), (False, True), (False, True), ("standard", "court"), (0, 1, 2, 3), ("none", "cards_left"), (2, 3, 4))
RESULT_OPTIONS = list(itertools.product(SCORING, TIEBREAK))  # options that change only the result
COURT = {"J": 1, "Q": 2, "K": 3}


# --- an independent statement of the rules ----------------------------------------------------------------------

def fits(card: str, below: str, aces_wild: bool) -> bool:
    """Same suit or rank; a Joker (or an Ace with aces_wild) matches anything, either way round."""
    if "JK" in (card, below) or (aces_wild and "A" in (card[0], below[0])):
        return True
    return card[0] == below[0] or card[1] == below[1]


def in_order(cards: list[str], aces_wild: bool) -> bool:
    return all(fits(cards[i + 1], cards[i], aces_wild) for i in range(len(cards) - 1))


def merges(state: BreaksState, seat: int) -> set[Move]:
    t, wild = state.slots[seat], state.options["aces_wild"]
    return {Move("merge", slot=a, target=b) for a in range(3) for b in range(3)
            if a != b and t[a] and t[b] and fits(t[a][0], t[b][-1], wild)}


def expected_moves(state: BreaksState, seat: int) -> set[Move]:
    """The legal moves of the seat to act, straight from the rules."""
    if state.phase == "final":
        return merges(state, seat) | {Move("done")}
    if state.pending is None:
        return merges(state, seat) | {Move("draw")}
    card, mine, wild = state.pending, state.slots[seat], state.options["aces_wild"]
    moves = {Move("discard")}
    moves |= {Move("place", slot=i) for i in range(3) if not mine[i] or fits(card, mine[i][-1], wild)}
    if card[0] in COURT and card != "JK":
        for victim in set(range(state.seats)) - {seat}:
            for vs, seq in enumerate(state.slots[victim]):
                if seq and fits(card, seq[-1], wild):
                    moves |= {Move("break", slot=vs, target=t, player=victim) for t in range(3)
                              if not mine[t] or fits(seq[0], mine[t][-1], wild)}
    return moves


def expected_scores(state: BreaksState) -> list[int]:
    court = state.options["scoring"] == "court"
    return [sum(1 + (sum(COURT.get(c[0], 0) for c in st if c != "JK") if court else 0) for st in stacks)
            for stacks in state.stacks]


# --- checks -------------------------------------------------------------------------------------------------

def all_cards(state: BreaksState) -> list[str]:
    cards = state.draw + state.discard + ([state.pending] if state.pending else [])
    cards += [c for seat in state.slots for seq in seat for c in seq]
    cards += [c for seat in state.stacks for st in seat for c in st]
    return cards


ROUND_TRIPPED: set[Move] = set()  # moves whose notation already round-tripped (a property of the move alone)


def check_state(state: BreaksState, deck: Counter[str], *, full: bool = False,
                kinds: set[tuple[str, bool, bool]] | None = None) -> Any:
    """Every invariant of a position; returns a detached copy of its dump (for the no-mutation check).

    Stacks never change once made (``check_step`` checks each new one), so all stacks and every seat's
    view are checked only when ``full`` (at the start and at the end of a game).

    The dump goes through JSON at every position. Loading it back (load, then dump again) is checked when
    ``full`` and at the first position of each kind in ``kinds`` (phase, no card pending, no last move) of the
    game: the codec converts each field by its type, and the only field whose conversion depends on its value is
    ``last`` (None or a dict), so each kind of position takes every path load and dump have.
    """
    wild = state.options["aces_wild"]
    cards = all_cards(state)
    assert len(cards) == sum(deck.values())
    # (dict's == at C speed: Counter's own == walks both in Python, and neither holds a zero count here)
    assert dict.__eq__(Counter(cards), deck), "cards were created or lost"

    assert len(state.slots) == len(state.stacks) == state.seats
    for seat_slots in state.slots:
        assert len(seat_slots) == 3
        for seq in seat_slots:
            assert len(seq) <= 4, f"a sequence of {len(seq)} cards was left in a slot: {seq}"
            assert in_order(seq, wild), f"mismatch in {seq}"
    if full:
        for seat_stacks in state.stacks:
            for stack in seat_stacks:
                assert len(stack) == 5 and in_order(stack, wild), f"bad stack {stack}"

    to_act = G.to_act(state)
    result = G.result(state)
    if state.phase == "over":
        assert to_act == frozenset() and result is not None
    else:
        assert len(to_act) == 1 and result is None
    if state.phase == "play" and state.pending is None:
        assert state.draw or (state.recycles_left > 0 and state.discard), "nothing left to draw"
    if state.phase != "play":
        assert state.pending is None
        assert not state.draw and (state.recycles_left == 0 or not state.discard), "play ended too early"
    assert 0 <= state.recycles_left <= state.options["recycles"]

    for seat in range(state.seats):
        legal = G.legal_moves(state, seat)
        if seat in to_act:
            assert legal and len(set(legal)) == len(legal)
            assert set(legal) == expected_moves(state, seat)
            for move in legal:
                if move not in ROUND_TRIPPED:
                    assert G.parse_move(G.format_move(move)) == move
                    ROUND_TRIPPED.add(move)
        else:
            assert legal == []

    data = G.dump(state)
    detached = json.loads(json.dumps(data))
    kind = (state.phase, state.pending is None, state.last is None)
    if full or kinds is None or kind not in kinds:
        assert G.dump(G.load(detached)) == data
        if kinds is not None:
            kinds.add(kind)
    for viewer in [None, *range(state.seats)] if full else [None]:
        json.dumps(G.view(state, viewer))
    return detached


def check_step(before: BreaksState, seat: int, move: Move, after: BreaksState) -> None:
    """The move did exactly what the rules say."""
    assert after.ply == before.ply + 1
    slots: list[list[list[str]]] = [[list(seq) for seq in tableau] for tableau in before.slots]
    stacks: list[list[list[str]]] = [[list(st) for st in tableau] for tableau in before.stacks]
    if move.kind == "draw":
        assert after.pending is not None and G.to_act(after) == {seat}
        if before.draw:
            assert after.pending == before.draw[-1] and after.draw == before.draw[:-1]
            assert after.discard == before.discard and after.recycles_left == before.recycles_left
        else:  # recycled: the discard pile, shuffled, became the draw pile
            assert after.recycles_left == before.recycles_left - 1 and after.discard == []
            assert sorted(after.draw + [after.pending]) == sorted(before.discard)
    elif move.kind == "discard":
        assert after.discard == before.discard + [before.pending]
    elif move.kind in ("place", "merge", "break"):
        pending = [before.pending] if before.pending is not None else []  # (merge: no card pending)
        if move.kind == "place":
            assert pending
            seq, dest = slots[seat][move.slot] + pending, move.slot
        elif move.kind == "merge":
            seq, dest = slots[seat][move.target] + slots[seat][move.slot], move.target
            slots[seat][move.slot] = []
        else:
            assert pending
            seq, dest = slots[seat][move.target] + slots[move.player][move.slot] + pending, move.target
            slots[move.player][move.slot] = []
        if len(seq) >= 5:  # the bottom five become a stack, the rest stays
            stacks[seat].append(seq[:5])
            seq = seq[5:]
        slots[seat][dest] = seq
    assert after.slots == slots and after.stacks == stacks
    for stack in after.stacks[seat][len(before.stacks[seat]):]:
        assert len(stack) == 5 and in_order(stack, before.options["aces_wild"]), f"bad stack {stack}"
    if move.kind != "draw":
        assert after.pending is None
        assert after.draw == before.draw and after.rng == before.rng
    if before.phase == "play" and after.phase == "play" and move.kind != "draw":
        assert after.turn == (seat + 1) % before.seats  # one action per turn, then the next seat
    if before.phase == "play" and after.phase != "play":
        # the final merge round: seat order from the player after the one who resolved the last card,
        # skipping players without a merge
        order = [(seat + 1 + i) % before.seats for i in range(before.seats)]
        skipped = before.seats - len(after.final_queue)
        assert after.final_queue == order[skipped:]
        assert not any(merges(after, p) for p in order[:skipped])
    if after.phase == "final":
        assert merges(after, after.final_queue[0]), "a player without a merge must be skipped"
    if before.phase == "final" and after.phase == "final" and G.to_act(after) != {seat}:
        assert move.kind == "done" or not merges(after, seat)


def check_result(state: BreaksState) -> None:
    result = G.result(state)
    assert result is not None
    scores = expected_scores(state)
    assert list(result.scores) == scores == G.scores(state)
    left = [sum(map(len, tableau)) for tableau in state.slots]
    cards_left = state.options["tiebreak"] == "cards_left"
    keys = [(scores[p], left[p]) if cards_left else (scores[p],) for p in range(state.seats)]
    for p, q in itertools.permutations(range(state.seats), 2):
        assert (result.ranks[p] < result.ranks[q]) is (keys[p] > keys[q])
        assert (result.ranks[p] == result.ranks[q]) is (keys[p] == keys[q])
    assert result.winners == {p for p in range(state.seats) if result.ranks[p] == 1}
    assert result.winners and {scores[p] for p in result.winners} == {max(scores)}
    assert result.draw is (len(result.winners) > 1)
    json.dumps(result.to_json())


# --- playing ------------------------------------------------------------------------------------------------

def playout(seats: int, options: dict[str, Any], seed: int, *, check: bool = True
            ) -> tuple[BreaksState, list[tuple[int, str]], Counter[str]]:
    """Play one game with random legal moves; returns the final state, the move log and event counts."""
    options = G.resolve_options(options)
    state = G.new_game(seats, options, seed)
    deck = Counter(make_deck(options["decks"], options["jokers"]))
    assert sum(deck.values()) == options["decks"] * (54 if options["jokers"] else 52)
    chooser = Rng(seed * 7919 + seats)
    log: list[tuple[int, str]] = []
    kinds: Counter[str] = Counter()
    detached = check_state(state, deck, full=True) if check else None
    kinds_loaded: set[tuple[str, bool, bool]] = set()  # kinds of position whose dump was loaded back (check_state)
    for _ in range(MAX_PLIES):
        if G.is_over(state):
            break
        (seat,) = G.to_act(state)
        move = chooser.choice(G.legal_moves(state, seat))
        new, events = G.apply(state, seat, move)
        kinds.update(e.kind for e in events)
        if move.kind == "break" and len(state.slots[seat][move.target]) == 4 == len(
                state.slots[move.player][move.slot]):
            kinds["niner"] += 1  # four cards and the court onto four cards: a stack, and four cards remain
        log.append((seat, G.format_move(move)))
        if check:
            assert G.dump(state) == detached, "apply mutated the previous state"
            check_step(state, seat, move, new)
            detached = check_state(new, deck, kinds=kinds_loaded)
        state = new
    else:
        pytest.fail(f"seed {seed}: no end after {MAX_PLIES} plies")
    if check:
        check_state(state, deck, full=True)
    check_result(state)
    assert G.dump(G.replay(seats, options, seed, log)) == G.dump(state), "replaying the move log gave another game"
    return state, log, kinds


GRID = list(itertools.product(DECKS, JOKERS, ACES_WILD, RECYCLES, PLAYERS))


GRID_IDS = [f"d{d}-{'jk' if j else 'nojk'}-{'aw' if a else 'noaw'}-r{r}-p{p}" for d, j, a, r, p in GRID]


@pytest.mark.parametrize("decks, jokers, aces_wild, recycles, seats", GRID, ids=GRID_IDS)
def test_random_playouts(decks: int, jokers: bool, aces_wild: bool, recycles: int, seats: int) -> None:
    """The whole option product, one seeded game each (96 games; the hypothesis test adds fresh seeds every run).

    Scoring and tiebreak change only the result, never the play (``test_scoring_and_tiebreak_do_not_change_play``),
    so each seed is played, checked after every move, under one of the four scoring × tiebreak pairs (rotating),
    and its final position is then scored under all four.
    """
    case = GRID.index((decks, jokers, aces_wild, recycles, seats))
    for i in range(SEEDS_PER_CASE):
        seed = 1000 * case + i
        scoring, tiebreak = RESULT_OPTIONS[(case + i) % len(RESULT_OPTIONS)]
        options = {"decks": decks, "jokers": jokers, "aces_wild": aces_wild, "scoring": scoring,
                   "recycles": recycles, "tiebreak": tiebreak}
        final, _, _ = playout(seats, options, seed)
        for scoring, tiebreak in RESULT_OPTIONS:
            check_result(dataclasses.replace(final, options={**final.options, "scoring": scoring,
                                                             "tiebreak": tiebreak}))


OPTION_STRATEGY = st.fixed_dictionaries({
    "decks": st.sampled_from(DECKS), "jokers": st.sampled_from(JOKERS), "aces_wild": st.sampled_from(ACES_WILD),
    "scoring": st.sampled_from(SCORING), "recycles": st.sampled_from(RECYCLES), "tiebreak": st.sampled_from(TIEBREAK),
})


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), seats=st.integers(2, 4), options=OPTION_STRATEGY)
def test_random_playouts_hypothesis(seed: int, seats: int, options: dict[str, Any]) -> None:
    """Fresh seeds at each run, from the same space test_random_playouts covers option by option (15 a run, as
    for Blockers!: the 96 seeded games there already play every option mix and seat count)."""
    playout(seats, options, seed)


def test_scoring_and_tiebreak_do_not_change_play() -> None:
    """The same seed and choices play identically under every scoring and tiebreak; only the result differs."""
    for seed, seats in ((5, 3), (6, 4), (7, 2)):
        games = set()
        for scoring, tiebreak in RESULT_OPTIONS:
            state, log, _ = playout(seats, {"scoring": scoring, "tiebreak": tiebreak, "decks": 2}, seed, check=False)
            games.add(json.dumps([log, state.slots, state.stacks]))
        assert len(games) == 1


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    a = playout(3, {"jokers": True}, 42, check=False)
    b = playout(3, {"jokers": True}, 42, check=False)
    assert a[1] == b[1] and G.dump(a[0]) == G.dump(b[0])
    deals = {json.dumps(G.dump(G.new_game(3, {"jokers": True}, seed))["draw"]) for seed in range(30)}
    assert len(deals) == 30
    logs = {json.dumps(playout(3, {"jokers": True}, seed, check=False)[1]) for seed in range(10)}
    assert len(logs) == 10


def test_replay_of_a_prefix_matches_the_game_so_far() -> None:
    state = G.new_game(4, {"decks": 2}, 11)
    chooser = Rng(3)
    log: list[tuple[int, str]] = []
    for _ in range(150):
        assert not G.is_over(state)
        (seat,) = G.to_act(state)
        move = chooser.choice(G.legal_moves(state, seat))
        state, _ = G.apply(state, seat, move)
        log.append((seat, G.format_move(move)))
    assert G.dump(G.replay(4, {"decks": 2}, 11, log)) == G.dump(state)


def test_playouts_exercise_every_rule() -> None:
    """Guard against vacuous playouts: random games do reach breaks, stacks, recycles, the Niner, final-round
    merges, and both shared and sole wins."""
    kinds: Counter[str] = Counter()
    shared = sole = 0
    for seed, seats in itertools.product(range(12), (2, 3, 4)):
        state, _, seen = playout(seats, {"recycles": 2, "jokers": seed % 2 == 0}, seed, check=False)
        kinds += seen
        result = G.result(state)
        assert result is not None
        shared += result.draw
        sole += not result.draw
    for kind in ("draw", "place", "discard", "merge", "break", "stack", "recycle", "final", "done", "over", "niner"):
        assert kinds[kind] > 0, f"no {kind!r} in any playout"
    assert shared and sole


UNIVERSE = [G.parse_move(t) for t in ["draw", "discard", "done", "place 1", "place 2", "place 3"]
            + [f"merge {a} onto {b}" for a in (1, 2, 3) for b in (1, 2, 3)]
            + [f"break P{p} {s}" + (f" onto {t}" if t else "") for p in (1, 2, 3, 4) for s in (1, 2, 3)
               for t in (0, 1, 2, 3)]]


def test_every_legal_move_applies_and_every_other_is_refused() -> None:
    """At every position of a few games, every move the notation can express is either legal and applies, or is
    refused with an IllegalMoveError (never another exception), leaving the state untouched."""
    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        state = G.new_game(seats, {"aces_wild": True, "jokers": True}, seed)
        chooser = Rng(seed)
        while not G.is_over(state):
            (seat,) = G.to_act(state)
            legal = G.legal_moves(state, seat)
            detached = json.loads(json.dumps(G.dump(state)))
            empty = [i for i, seq in enumerate(state.slots[seat]) if not seq]
            for move in UNIVERSE:
                # `break P2 1` (no target) means: onto my first empty slot
                short = move.kind == "break" and move.target == -1 and empty
                if dataclasses.replace(move, target=empty[0]) in legal if short else move in legal:
                    G.apply(state, seat, move)
                else:
                    with pytest.raises(IllegalMoveError) as info:
                        G.apply(state, seat, move)
                    assert len(str(info.value)) > 10
                other = (seat + 1) % seats
                with pytest.raises(IllegalMoveError, match="not your turn"):
                    G.apply(state, other, move)
            assert G.dump(state) == detached
            state, _ = G.apply(state, seat, chooser.choice(legal))
