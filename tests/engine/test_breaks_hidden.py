"""Breaks' face-down discard pile and the drawn card: nothing public names them.

The rulebook's discard pile is face down, so the others see that a card was discarded and how many the pile holds,
never which; the discarder keeps seeing its own discards; a drawn card is its drawer's until placed. Checked along
random games: what everyone reads (the public view, the event texts of the log, the status line, the board in words,
the public notation) is the same when the cards nobody may see are dealt differently, and each seat's own view is
the same when the cards hidden from that seat are. The scramble here is the test's own, not the engine's
``determinize`` (which the last test checks against it).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.base import name_seats
from engine.breaks.cards import spoken
from engine.breaks.game import Breaks, BreaksState
from engine.rng import Rng

G = Breaks()
NAMES = ["Ana", "Bo", "Cy", "Di"]


def scramble(state: BreaksState, seat: int | None, rnd: random.Random) -> BreaksState:
    """``state`` with every card hidden from ``seat`` (None: from everyone) dealt again: the draw pile, the discards
    but ``seat``'s own, and a card drawn and not placed unless ``seat`` drew it."""
    s = G.clone(state)
    hidden = [i for i, by in enumerate(s.discarded_by) if seat is None or by != seat]
    held = s.pending is not None and (seat is None or s.turn != seat)
    pool = s.draw + [s.discard[i] for i in hidden] + ([s.pending] if held and s.pending else [])
    rnd.shuffle(pool)
    s.draw = pool[:len(s.draw)]
    for k, i in enumerate(hidden):
        s.discard[i] = pool[len(s.draw) + k]
    if held:
        s.pending = pool[-1]
    last = s.last
    if last is not None and last["move"] in ("draw", "discard") and last["seat"] != seat:  # the card it moved
        s.last = {**last, "card": s.pending if last["move"] == "draw" else s.discard[-1]}
    return s


def public_words(state: BreaksState) -> tuple[Any, ...]:
    view = G.view(state, None)
    return view, name_seats(G.text.status_line(state), NAMES), G.text.alt_text(view, NAMES)


def games(seats: int, options: dict[str, Any], seed: int) -> list[tuple[BreaksState, int, Any]]:
    """A random game: every position with the seat to move and its move."""
    rng = Rng(seed)
    state = G.new_game(seats, G.resolve_options(options), seed)
    out: list[tuple[BreaksState, int, Any]] = []
    while not G.is_over(state):
        seat = min(G.to_act(state))
        move = G.sample_move(state, seat, rng)
        out.append((state, seat, move))
        state, _ = G.apply(state, seat, move)
    out.append((state, -1, None))
    return out


CASES = [(2, {}, 1), (3, {"jokers": True}, 2), (4, {"decks": 2}, 3), (4, {"aces_wild": True, "recycles": 2}, 4)]


@pytest.mark.parametrize(("seats", "options", "seed"), CASES)
def test_nothing_public_names_a_discard_or_a_card_being_held(seats: int, options: dict[str, Any], seed: int) -> None:
    rnd = random.Random(seed)
    changed = discards = 0
    for state, seat, move in games(seats, options, seed):
        other = scramble(state, None, rnd)
        changed += other.discard != state.discard or other.pending != state.pending
        assert public_words(other) == public_words(state), f"ply {state.ply}"
        if move is None:
            continue
        if move.kind in ("draw", "discard"):  # the log's words of a draw or a discard name no card
            discards += move.kind == "discard"
            _, real = G.apply(state, seat, move)
            _, alt = G.apply(other, seat, move)
            assert [e.text for e in real] == [e.text for e in alt], f"ply {state.ply}: {move}"
            assert all(e.data.get("card") is None for e in real), "an event carries the card"
            assert G.public_notation(G.format_move(move)) == move.kind
    assert discards and changed > 10, "the games discarded, and the scramble changed hidden cards"


@pytest.mark.parametrize(("seats", "options", "seed"), CASES[:3])
def test_each_seat_sees_its_own_discards_and_its_drawn_card_only(seats: int, options: dict[str, Any],
                                                                  seed: int) -> None:
    rnd = random.Random(seed + 100)
    own = held = 0
    for state, _, _ in games(seats, options, seed)[::2]:
        for seat in range(seats):
            view = G.view(state, seat)
            assert view == G.view(scramble(state, seat, rnd), seat), f"ply {state.ply}, seat {seat}"
            mine = [c for c, by in zip(state.discard, state.discarded_by, strict=True) if by == seat]
            assert view["my_discards"] == mine
            words = G.text.private_words(state, seat)
            assert words == G.text.private_words(scramble(state, seat, rnd), seat)
            assert ("Your discards" in words) == bool(mine) and all(spoken(c) in words for c in mine)
            own += bool(mine)
            if state.pending is not None:
                assert view["pending"] == (state.pending if seat == state.turn else None)
                assert view["pending_seat"] == state.turn
                held += seat == state.turn
        public = G.view(state, None)
        assert public["my_discards"] == [] and public["pending"] is None
    assert own and held


def test_the_last_discard_is_named_to_its_discarder_only() -> None:
    state = next(s for s, _, m in games(3, {}, 7) if s.last and s.last["move"] == "discard")
    by = state.last["seat"] if state.last else -1
    card = state.discard[-1]
    assert G.view(state, by)["last"]["card"] == card  # type: ignore[index]
    assert G.view(state, None)["last"]["card"] is None  # type: ignore[index]
    assert G.view(state, None)["last_said"] == "discarded a card, face down"
    assert G.view(state, (by + 1) % 3)["last_said"] == "discarded a card, face down"
    assert G.view(state, by)["last_said"].startswith("discarded the ")


def test_a_recycle_reveals_nothing_and_forgets_who_discarded() -> None:
    for state, seat, move in games(2, {"recycles": 1}, 11):
        if move is not None and move.kind == "draw" and not state.draw and state.discard:
            after, events = G.apply(state, seat, move)
            assert after.discarded_by == [] and after.discard == []
            assert [e.kind for e in events] == ["recycle", "draw"]
            assert "card" not in events[0].data and all(c not in events[0].text for c in state.discard)
            return
    pytest.fail("no recycle in the game")


def test_the_search_sees_only_its_seat() -> None:
    """``determinize`` keeps what the seat sees and deals the rest from the unknown cards only: its result does not
    depend on how the hidden cards lie (the same for a scrambled state)."""
    for state, seat, _ in games(3, {"decks": 2}, 5)[5::9]:
        if seat < 0:
            continue
        det = G.determinize(state, seat, Rng(3))
        assert G.view(det, seat) == G.view(state, seat)
        unknown = sorted(state.draw + [c for c, by in zip(state.discard, state.discarded_by, strict=True)
                                       if by != seat])
        assert sorted(det.draw + [c for c, by in zip(det.discard, det.discarded_by, strict=True) if by != seat]) \
            == unknown
        again = G.determinize(scramble(state, seat, random.Random(state.ply)), seat, Rng(3))
        assert G.dump(again) == G.dump(det)
