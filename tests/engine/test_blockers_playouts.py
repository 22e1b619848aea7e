"""Random playouts of Blockers! for 2 (basic and advanced), 3, 4 and 5 players, checking invariants after every move.

Moves are picked among the legal ones with the engine's seeded :class:`engine.rng.Rng`, so a failure reproduces from
the test id. The legal moves and the scores are re-derived here independently of the engine (a capture is allowed
when removing the tile does not raise its colour's group count) and compared with it.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.base import IllegalMoveError
from engine.blockers import PASS, Blockers, BlockersState, Move
from engine.rng import Rng

G = Blockers()
FACES = [str(n) for n in range(1, 10)] + list("ABCDEFGHI") + [
    "sun", "moon", "star", "heart", "triangle", "diamond", "circle", "square", "cross", "wild"]
SYMBOLS = FACES[18:27]
CASES = [(2, "basic"), (2, "advanced"), (3, "basic"), (4, "basic"), (5, "basic")]
SEEDS = 4


# --- an independent statement of the rules ------------------------------------------------------------------------

def fits(face: str, square: int) -> bool:
    row, col = divmod(square, 9)
    if face == "wild":
        return True
    if face.isdigit():
        return int(face) == col + 1
    if len(face) == 1:
        return "ABCDEFGHI".index(face) == row
    return SYMBOLS.index(face) == (row // 3) * 3 + col // 3


def groups(board: list[str | None], colour: str) -> int:
    cells = {i for i, t in enumerate(board) if t is not None and t.split(":")[0] == colour}
    count = 0
    while cells:
        count += 1
        todo = [cells.pop()]
        while todo:
            r, c = divmod(todo.pop(), 9)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < 9 and 0 <= cc < 9 and rr * 9 + cc in cells:
                    cells.remove(rr * 9 + cc)
                    todo.append(rr * 9 + cc)
    return count


def seat_colours(state: BlockersState, seat: int) -> list[str]:
    if state.options["mode"] == "advanced":
        return [["yellow", "green"], ["blue", "red"]][seat]
    return [["yellow", "blue", "green", "red", "purple"][seat]]


def expected_moves(state: BlockersState, seat: int) -> set[Move]:
    advanced = state.options["mode"] == "advanced"
    moves = set()
    now: dict[str, int] = {}  # groups(state.board, colour), worked out once per colour
    for colour in seat_colours(state, seat):
        if colour in state.finished:
            continue
        for face in state.racks[colour]:
            for square in range(81):
                if not fits(face, square):
                    continue
                there = state.board[square]
                if there is not None:
                    victim = there.split(":")[0]
                    if victim == colour:
                        continue
                    without = list(state.board)
                    without[square] = None
                    if victim not in now:
                        now[victim] = groups(state.board, victim)
                    if groups(without, victim) > now[victim]:
                        continue  # the capture would split a group
                moves.add(Move(face, square, colour if advanced else ""))
    return moves or {PASS}


def expected_scores(state: BlockersState) -> list[int]:
    out = []
    for seat in range(state.seats):
        taken = Counter(t.split(":")[0] for t in state.captured[seat])
        out.append(sum(groups(state.board, c) for c in seat_colours(state, seat)) + max(taken.values(), default=0))
    return out


# --- checks ------------------------------------------------------------------------------------------------------

def check_tiles(state: BlockersState) -> None:
    """Every colour in play still has its 28 tiles, each exactly once, somewhere."""
    for colour in state.racks:
        tiles = [t.split(":")[1] for t in state.board if t is not None and t.startswith(colour + ":")]
        tiles += [t.split(":")[1] for seat in state.captured for t in seat if t.startswith(colour + ":")]
        tiles += state.racks[colour] + state.piles[colour]
        assert sorted(tiles) == sorted(FACES), f"{colour} tiles created or lost"
    for square, t in enumerate(state.board):
        assert t is None or fits(t.split(":")[1], square), f"{t} does not fit square {square}"


def check_views(state: BlockersState) -> None:
    public = G.view(state, None)
    text = json.dumps(public)
    assert "rack" not in public and '"rack"' not in text
    json.loads(text)
    for seat in range(state.seats):
        mine = G.view(state, seat)
        json.dumps(mine)
        assert set(mine["rack"]) == set(seat_colours(state, seat)), "a seat sees its own racks only"
        assert mine["rack"] == {c: state.racks[c] for c in seat_colours(state, seat)}
        assert {k: v for k, v in mine.items() if k not in ("rack", "viewer")} == {
            k: v for k, v in public.items() if k != "viewer"}
    for seat, pl in enumerate(public["players"]):
        advanced = state.options["mode"] == "advanced"  # a basic player's last 4 tiles stay private
        shown = {c: state.racks[c] for c in seat_colours(state, seat) if c in state.finished and advanced}
        assert pl["public"] == shown
    assert [p["score"] for p in public["players"]] == expected_scores(state)


def check_state(state: BlockersState, *, views: bool) -> Any:
    check_tiles(state)
    to_act = G.to_act(state)
    over = G.is_over(state)
    assert bool(to_act) is not over
    for seat in range(state.seats):
        legal = G.legal_moves(state, seat)
        if seat in to_act:
            assert len(set(legal)) == len(legal) and set(legal) == expected_moves(state, seat)
            assert legal == G.legal_moves(state, seat), "legal moves come in a stable order"
        else:
            assert legal == []
    data = G.dump(state)
    detached = json.loads(json.dumps(data))
    assert G.load(detached) == state and G.dump(G.load(detached)) == data
    if views:
        check_views(state)
    return detached


def check_step(before: BlockersState, seat: int, move: Move, after: BlockersState) -> None:
    assert after.ply == before.ply + 1
    basic = before.options["mode"] == "basic"
    assert not set(seat_colours(before, seat)) <= set(before.finished), "a seat that sits out never moves"
    if basic:  # the turn after the seat's own pile ran out is its final turn: then it sits out
        own = seat_colours(before, seat)[0]
        assert (own in after.finished) is (not before.piles[own])
    if move.is_pass:
        assert after.board == before.board and after.racks == before.racks and after.piles == before.piles
        return
    colour = move.colour or seat_colours(before, seat)[0]
    assert after.board[move.square] == f"{colour}:{move.face}"
    assert after.captured[seat] == before.captured[seat] + (
        [before.board[move.square]] if before.board[move.square] else [])
    pile = before.piles[colour]
    if pile:
        assert after.piles[colour] == pile[:-1]
        assert sorted(after.racks[colour]) == sorted([f for f in before.racks[colour] if f != move.face] + pile[-1:])
    else:
        assert len(after.racks[colour]) == len(before.racks[colour]) - 1
        if before.options["mode"] == "advanced":
            assert colour in after.finished and len(after.racks[colour]) == 4
    for other in after.racks:
        if other != colour:
            assert after.racks[other] == before.racks[other] and after.piles[other] == before.piles[other]


def check_end(state: BlockersState, log: list[tuple[int, str]]) -> None:
    result = G.result(state)
    assert result is not None and G.to_act(state) == frozenset()
    scores = expected_scores(state)
    assert list(result.scores) == scores == G.scores(state)
    taken = [len(c) for c in state.captured]
    for p, q in itertools.permutations(range(state.seats), 2):
        better = (scores[p], taken[p]) < (scores[q], taken[q])
        assert (result.ranks[p] < result.ranks[q]) is better
        assert (result.ranks[p] == result.ranks[q]) is ((scores[p], taken[p]) == (scores[q], taken[q]))
    assert result.winners == {p for p in range(state.seats) if result.ranks[p] == 1}
    plays = Counter(seat for seat, text in log if text != "pass")
    if sorted(state.finished) == sorted(state.racks):  # everyone took their final turn (no all-pass ending)
        passed = {seat for seat, text in log if text == "pass"}
        per_colour = 48 if state.options["mode"] == "advanced" else 24
        for seat in set(range(state.seats)) - passed:
            assert plays[seat] == per_colour, "a player who was never stuck plays every tile but the last 4"
    if "pass" not in {text for _, text in log}:
        # no pass: 24 tiles played per colour, 4 left on every rack, and (advanced) every colour finished
        assert all(len(rack) == 4 for rack in state.racks.values())
        assert all(not pile for pile in state.piles.values())
        per_seat = 48 if state.options["mode"] == "advanced" else 24
        assert plays == {seat: per_seat for seat in range(state.seats)}
        if state.options["mode"] == "advanced":
            assert sorted(state.finished) == sorted(state.racks)
            for colour in state.racks:
                assert sum(1 for seat, text in log if text.startswith(colour + ":")) == 24


def playout(seats: int, mode: str, seed: int, *, full: bool = True) -> tuple[BlockersState, list[tuple[int, str]]]:
    """One random game; ``full`` checks every invariant after every move (views only now and then)."""
    options = G.resolve_options({"mode": mode}, seats)
    state = G.new_game(seats, options, seed)
    chooser = Rng(seed * 7919 + seats)
    log: list[tuple[int, str]] = []
    detached = check_state(state, views=True) if full else None
    for ply in range(1000):
        if G.is_over(state):
            break
        (seat,) = G.to_act(state)
        legal = G.legal_moves(state, seat)
        move = chooser.choice(legal)
        text = G.format_move(move)
        if full:
            for m in legal:
                assert G.parse_move(G.format_move(m)) == m
                assert G.text.describe_move(state, seat, m)
        new, events = G.apply(state, seat, move)
        for event in events:
            json.dumps(dict(event.data))
            assert "{p%d}" % seat in event.text or event.seat is None
        log.append((seat, text))
        if full:
            assert G.dump(state) == detached, "apply mutated its input"
            check_step(state, seat, move, new)
            detached = check_state(new, views=ply % 7 == 0 or G.is_over(new))
        state = new
    else:
        pytest.fail(f"no end after 1000 plies ({seats} seats, {mode}, seed {seed})")
    check_end(state, log)
    assert G.dump(G.replay(seats, options, seed, log)) == G.dump(state), "replaying the log gave another game"
    return state, log


@pytest.mark.parametrize("seats, mode", CASES, ids=[f"{s}p-{m}" for s, m in CASES])
def test_random_playouts(seats: int, mode: str) -> None:
    for seed in range(SEEDS):
        playout(seats, mode, 100 * seats + seed)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), case=st.sampled_from(CASES))
def test_random_playouts_hypothesis(seed: int, case: tuple[int, str]) -> None:
    playout(*case, seed)


def test_many_games_end_properly() -> None:
    """Lighter checks over many more seeds: the end state, the scores and the replay."""
    kinds: Counter[str] = Counter()
    winners: Counter[int] = Counter()
    for (seats, mode), seed in itertools.product(CASES, range(12)):
        state, log = playout(seats, mode, 5000 + seed, full=False)
        kinds.update(text for _, text in log if text == "pass")
        result = G.result(state)
        assert result is not None
        winners[len(result.winners)] += 1
        kinds["capture"] += sum(len(c) for c in state.captured)
    assert kinds["capture"] > 0 and winners[1] > 0


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    assert G.dump(G.new_game(3, {}, 9)) == G.dump(G.new_game(3, {}, 9))
    deals = {json.dumps(G.dump(G.new_game(3, {}, seed))["racks"]) for seed in range(20)}
    assert len(deals) == 20
    firsts = {G.new_game(4, {}, seed).turn for seed in range(40)}
    assert firsts == {0, 1, 2, 3}, "the first player is drawn at random"


def test_apply_refuses_everything_illegal_and_changes_nothing() -> None:
    """At positions of a few games, every tile of the seat's colours on every square is either legal and applies,
    or is refused with an IllegalMoveError (never another exception), and the state is untouched."""
    for seats, mode, seed in ((2, "advanced", 1), (3, "basic", 2)):
        state = G.new_game(seats, {"mode": mode}, seed)
        chooser = Rng(seed)
        ply = 0
        while not G.is_over(state):
            (seat,) = G.to_act(state)
            legal = G.legal_moves(state, seat)
            if ply % 9 == 0:
                detached = json.loads(json.dumps(G.dump(state)))
                colours = seat_colours(state, seat) if mode == "advanced" else [""]
                universe = [Move(f, sq, c) for c in colours for f in FACES for sq in range(0, 81, 4)] + [PASS]
                for move in universe:
                    if move in legal:
                        G.apply(state, seat, move)
                    else:
                        with pytest.raises(IllegalMoveError) as info:
                            G.apply(state, seat, move)
                        assert len(str(info.value)) > 10
                assert G.dump(state) == detached
            state, _ = G.apply(state, seat, chooser.choice(legal))
            ply += 1
