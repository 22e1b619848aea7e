"""Rule tests for Breaks, built from exact positions.

Positions are written compactly: a tableau is three strings (bottom card first, ``""`` for an empty
slot), piles are strings with the top card last. Rules: /work/shared/rulebooks/breaks.txt and our
decisions in /work/shared/rules/breaks.md (the decisions win).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from typing import Any

import pytest

from engine.base import GameOverError, IllegalMoveError, NotationError, NotYourTurnError, OptionError
from engine.breaks import Breaks, BreaksState, Move
from engine.breaks.cards import make_deck, matches
from tests.engine import rule_helpers

G = Breaks()
FILLER = "2D 3D 4D 5D"  # a draw pile that does not run out in one turn


def make(*tableaus: list[str], draw: str = FILLER, discard: str = "", pending: str | None = None, turn: int = 0,
         stacks: list[list[str]] | None = None, phase: str = "play", final_queue: tuple[int, ...] = (),
         recycles_left: int | None = None, rng: int = 12345, **options: Any) -> BreaksState:
    """A position: one tableau (three slot strings) per seat; options go through resolve_options."""
    opts = G.resolve_options(options)
    assert all(len(t) == 3 for t in tableaus), "a tableau has exactly three slots"
    return BreaksState(
        seats=len(tableaus),
        options=opts,
        rng=rng,
        draw=draw.split(),
        discard=discard.split(),
        slots=[[s.split() for s in t] for t in tableaus],
        stacks=[[st.split() for st in seat] for seat in stacks] if stacks else [[] for _ in tableaus],
        turn=turn,
        phase=phase,
        pending=pending,
        recycles_left=opts["recycles"] if recycles_left is None else recycles_left,
        final_queue=list(final_queue),
    )


def tab(state: BreaksState, seat: int) -> list[str]:
    return [" ".join(seq) for seq in state.slots[seat]]


def stacks_of(state: BreaksState, seat: int) -> list[str]:
    return [" ".join(st) for st in state.stacks[seat]]


snapshot = partial(rule_helpers.snapshot, G)


def play(state: BreaksState, seat: int, text: str) -> BreaksState:
    new, _ = G.apply(state, seat, G.parse_move(text))
    return new


def legal_texts(state: BreaksState, seat: int) -> list[str]:
    return [G.format_move(m) for m in G.legal_moves(state, seat)]


expect_illegal = partial(rule_helpers.expect_illegal, G)


# --- matching ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, aces_wild, expected", [
    ("7H", "7C", False, True),   # the rulebook's example: same rank
    ("7H", "TH", False, True),   # same suit
    ("7H", "8S", False, False),  # neither
    ("TS", "TD", False, True),
    ("JK", "8S", False, True),   # a Joker is wild in both directions
    ("8S", "JK", False, True),
    ("JK", "JK", False, True),
    ("AS", "8H", True, True),    # Aces wild by option, both directions
    ("8H", "AS", True, True),
    ("AS", "8H", False, False),  # ...and ordinary without it
    ("8H", "AS", False, False),
    ("AS", "AH", False, True),
    ("AS", "2S", False, True),
], ids=["rank", "suit", "none", "ten-rank", "joker-on", "onto-joker", "joker-joker", "ace-wild-on",
        "onto-ace-wild", "ace-plain-on", "onto-ace-plain", "ace-rank", "ace-suit"])
def test_matches(a: str, b: str, aces_wild: bool, expected: bool) -> None:
    assert matches(a, b, aces_wild) is expected


# --- legality, table-driven -----------------------------------------------------------------------------------
# (tableaus, position keywords, move, None if legal else words the refusal must contain)
ME3 = ["7C", "TH", "8S"]
FULL = ["5D", "6S", "9S"]

LEGALITY: list[tuple[str, list[list[str]], dict[str, Any], str, tuple[str, ...] | None]] = [
    # placing: the rulebook's example, 7♥ on 7♣ or 10♥ but not on 8♠
    ("place-rank", [ME3, FULL], {"pending": "7H"}, "place 1", None),
    ("place-suit", [ME3, FULL], {"pending": "7H"}, "place 2", None),
    ("place-no-match", [ME3, FULL], {"pending": "7H"}, "place 3", ("7♥", "does not match", "8♠", "slot 3")),
    ("place-empty-slot", [["8S", "", "2C"], FULL], {"pending": "7H"}, "place 2", None),
    ("joker-placed-on-anything", [["8S", "2C", "5D"], FULL], {"pending": "JK"}, "place 1", None),
    ("anything-on-joker", [["8S JK", "2C", "5D"], FULL], {"pending": "7H"}, "place 1", None),
    ("ace-wild-placed", [["8H", "2C", "5D"], FULL], {"pending": "AS", "aces_wild": True}, "place 1", None),
    ("onto-ace-wild", [["AS", "2C", "5D"], FULL], {"pending": "7H", "aces_wild": True}, "place 1", None),
    ("ace-not-wild-placed", [["8H", "2C", "5D"], FULL], {"pending": "AS"}, "place 1", ("does not match",)),
    ("onto-ace-not-wild", [["AS", "2C", "5D"], FULL], {"pending": "7H"}, "place 1", ("does not match", "A♠")),
    ("discard-despite-placement", [ME3, FULL], {"pending": "7H"}, "discard", None),
    ("draw-while-holding", [ME3, FULL], {"pending": "7H"}, "draw", ("7♥", "place", "discard")),
    ("merge-while-holding", [["2C", "2H", ""], FULL], {"pending": "7H"}, "merge 2 onto 1", ("7♥", "place")),
    ("place-before-draw", [ME3, FULL], {}, "place 1", ("draw a card first",)),
    ("discard-before-draw", [ME3, FULL], {}, "discard", ("draw a card first",)),
    ("done-during-play", [ME3, FULL], {}, "done", ("final merge round",)),
    # merging: the bottom of <from> must match the top of <to>
    ("merge-ok", [["2C 9H", "5D 9S", "4H"], FULL], {}, "merge 3 onto 1", None),
    ("merge-wrong-direction", [["2C 9H", "5D 9S", "4H"], FULL], {}, "merge 1 onto 3",
     ("bottom card of slot 1", "2♣", "top card of slot 3", "4♥")),
    ("merge-no-match", [["2C 9H", "5D 9S", "4H"], FULL], {}, "merge 1 onto 2", ("does not match",)),
    ("merge-same-slot", [["2C", "2H", ""], FULL], {}, "merge 1 onto 1", ("different",)),
    ("merge-from-empty", [["2C", "", "2H"], FULL], {}, "merge 2 onto 1", ("must hold cards",)),
    ("merge-onto-empty", [["2C", "", "2H"], FULL], {}, "merge 1 onto 2", ("must hold cards",)),
    ("merge-joker-bottom", [["2C", "JK 3C", "9S"], FULL], {}, "merge 2 onto 1", None),
    ("merge-ace-wild-bottom", [["2C", "AH 3H", "9S"], FULL], {"aces_wild": True}, "merge 2 onto 1", None),
    ("merge-ace-plain-bottom", [["2C", "AH 3H", "9S"], FULL], {}, "merge 2 onto 1", ("does not match",)),
    # breaking: only a court card just drawn, matching an opponent's top, with a fit
    ("break-onto-empty", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "KH"}, "break P2 1 onto 2", None),
    ("break-fits-top", [["5D", "7C", "9S"], ["7S 8S", "3H", "2H"]], {"pending": "QS"}, "break P2 1 onto 2", None),
    ("break-jack", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "JH"}, "break P2 1 onto 2", None),
    ("break-court-rank", [["5D", "", "9C"], ["7H 8H", "3S", "QC"]], {"pending": "QD"}, "break P2 3 onto 2", None),
    ("break-no-fit", [FULL, ["7H 8H", "3S", "2C"]], {"pending": "KH"}, "break P2 1 onto 1",
     ("does not fit", "7♥", "5♦")),
    ("break-court-no-match", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "KH"}, "break P2 2 onto 2",
     ("K♥", "does not match", "3♠")),
    ("break-non-court", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "8H"}, "break P2 1 onto 2",
     ("only a jack, queen or king", "8♥")),
    ("break-joker-not-court", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "JK"}, "break P2 1 onto 2",
     ("only a jack, queen or king", "joker")),
    ("break-ace-wild-not-court", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "AH", "aces_wild": True},
     "break P2 1 onto 2", ("only a jack, queen or king",)),
    ("break-own-tableau", [["5D", "", "9H"], ["7H 8H", "3S", "2C"]], {"pending": "KH"}, "break P1 3 onto 2",
     ("opponent",)),
    ("break-missing-player", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "KH"}, "break P3 1 onto 2",
     ("no p3 in this game", "p1 to p2")),
    ("break-player-past-this-table", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "KH"}, "break P4 1",
     ("no p4 in this game", "p1 to p2")),
    ("break-empty-victim-slot", [["5D", "", "9C"], ["7H 8H", "", "2C"]], {"pending": "KH"}, "break P2 2 onto 2",
     ("empty",)),
    ("break-before-draw", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {}, "break P2 1 onto 2",
     ("draw a card first",)),
    ("break-short-needs-empty-slot", [["5D", "7C", "9S"], ["7S 8S", "3H", "2H"]], {"pending": "QS"}, "break 2 1",
     ("no empty slot", "onto")),
    ("break-short-before-draw", [FULL, ["7H 8H", "3S", "2C"]], {}, "break 2 1", ("draw a card first",)),
    ("break-short-non-court", [FULL, ["7H 8H", "3S", "2C"]], {"pending": "8H"}, "break 2 1",
     ("only a jack, queen or king",)),
    ("break-on-ace-wild-top", [["5D", "", "9C"], ["7H AH", "3S", "2C"]], {"pending": "QS", "aces_wild": True},
     "break P2 1 onto 2", None),
    ("break-on-ace-plain-top", [["5D", "", "9C"], ["7H AH", "3S", "2C"]], {"pending": "QS"}, "break P2 1 onto 2",
     ("does not match",)),
    ("break-fit-via-joker-bottom", [FULL, ["JK 8H", "3S", "2C"]], {"pending": "KH"}, "break P2 1 onto 3", None),
]


@pytest.mark.parametrize("tableaus, position, text, refusal", [c[1:] for c in LEGALITY], ids=[c[0] for c in LEGALITY])
def test_legality(tableaus: list[list[str]], position: dict[str, Any], text: str,
                  refusal: tuple[str, ...] | None) -> None:
    state = make(*tableaus, **position)
    move = G.parse_move(text)
    if refusal is None:
        assert move in G.legal_moves(state, 0)
        before = snapshot(state)
        G.apply(state, 0, move)
        assert snapshot(state) == before  # apply never mutates its input
    else:
        assert move not in G.legal_moves(state, 0)
        expect_illegal(state, 0, text, *refusal)


# --- outcomes, table-driven ------------------------------------------------------------------------------
# (tableaus, position keywords, seat, move, expected tableaus, expected stacks per seat)
OUTCOMES: list[tuple[str, list[list[str]], dict[str, Any], int, str, list[list[str]], list[list[str]]]] = [
    ("place-on-top", [ME3, FULL], {"pending": "7H"}, 0, "place 2",
     [["7C", "TH 7H", "8S"], FULL], [[], []]),
    ("place-in-empty", [["8S", "", "2C"], FULL], {"pending": "7H"}, 0, "place 2",
     [["8S", "7H", "2C"], FULL], [[], []]),
    ("place-fifth-card-stacks", [["2H 3H 4H 5H", "9C", ""], FULL], {"pending": "6H"}, 0, "place 1",
     [["", "9C", ""], FULL], [["2H 3H 4H 5H 6H"], []]),
    ("place-fourth-card-stays", [["2H 3H 4H", "9C", ""], FULL], {"pending": "6H"}, 0, "place 1",
     [["2H 3H 4H 6H", "9C", ""], FULL], [[], []]),
    ("discard-keeps-tableau", [ME3, FULL], {"pending": "7H"}, 0, "discard", [ME3, FULL], [[], []]),
    ("merge-small", [["2C", "2H", ""], FULL], {}, 0, "merge 2 onto 1", [["2C 2H", "", ""], FULL], [[], []]),
    ("merge-exactly-five", [["2H 3H", "4H 5H 6H", "9S"], FULL], {}, 0, "merge 2 onto 1",
     [["", "", "9S"], FULL], [["2H 3H 4H 5H 6H"], []]),
    ("merge-four-onto-four", [["2H 3H 4H 5H", "6H 7H 8H 9H", "KS"], FULL], {}, 0, "merge 2 onto 1",
     [["7H 8H 9H", "", "KS"], FULL], [["2H 3H 4H 5H 6H"], []]),
    ("merge-four-onto-two", [["2H 3H", "4H 5H 6H 7H", "KS"], FULL], {}, 0, "merge 2 onto 1",
     [["7H", "", "KS"], FULL], [["2H 3H 4H 5H 6H"], []]),
    ("break-onto-empty", [["5D", "", "9C"], ["7H 8H", "3S", "2C"]], {"pending": "KH"}, 0, "break P2 1 onto 2",
     [["5D", "7H 8H KH", "9C"], ["", "3S", "2C"]], [[], []]),
    ("break-short-form-first-empty", [["5D", "", ""], ["7H 8H", "3S", "2C"]], {"pending": "KH"}, 0, "break 2 1",
     [["5D", "7H 8H KH", ""], ["", "3S", "2C"]], [[], []]),
    ("break-onto-match", [["5D", "7C", "9S"], ["7S 8S", "3H", "2H"]], {"pending": "QS"}, 0, "break P2 1 onto 2",
     [["5D", "7C 7S 8S QS", "9S"], ["", "3H", "2H"]], [[], []]),
    ("break-makes-exactly-five", [["5D", "6H 7C", "9S"], ["7S 8S", "3H", "2H"]], {"pending": "QS"}, 0,
     "break P2 1 onto 2", [["5D", "", "9S"], ["", "3H", "2H"]], [["6H 7C 7S 8S QS"], []]),
    ("break-four-into-empty-stacks", [["5D", "", "9C"], ["5H 6H 7H 8H", "3S", "2C"]], {"pending": "KH"}, 0,
     "break P2 1 onto 2", [["5D", "", "9C"], ["", "3S", "2C"]], [["5H 6H 7H 8H KH"], []]),
    ("niner", [["2S 3S 4S 5S", "9D", "TD"], ["5H 6H 7H 8H", "3C", "2C"]], {"pending": "KH"}, 0, "break P2 1 onto 1",
     [["6H 7H 8H KH", "9D", "TD"], ["", "3C", "2C"]], [["2S 3S 4S 5S 5H"], []]),
    ("break-third-player", [["5D", "", "9C"], ["3S", "3C", "2C"], ["4D", "JD 9C", "4S"]], {"pending": "JC"}, 0,
     "break P3 2 onto 2", [["5D", "JD 9C JC", "9C"], ["3S", "3C", "2C"], ["4D", "", "4S"]], [[], [], []]),
    ("break-by-second-seat", [["7H 8H", "3S", "2C"], ["5D", "", "9C"]], {"pending": "KH", "turn": 1}, 1,
     "break P1 1 onto 2", [["", "3S", "2C"], ["5D", "7H 8H KH", "9C"]], [[], []]),
]


@pytest.mark.parametrize("tableaus, position, seat, text, after, stacks", [c[1:] for c in OUTCOMES],
                         ids=[c[0] for c in OUTCOMES])
def test_outcome(tableaus: list[list[str]], position: dict[str, Any], seat: int, text: str,
                 after: list[list[str]], stacks: list[list[str]]) -> None:
    state = make(*tableaus, **position)
    new = play(state, seat, text)
    assert [tab(new, p) for p in range(new.seats)] == after
    assert [stacks_of(new, p) for p in range(new.seats)] == stacks
    assert new.pending is None
    assert new.turn == (seat + 1) % new.seats  # every resolving move ends the turn
    assert G.to_act(new) == {(seat + 1) % new.seats}
    assert G.scores(new) == [len(s) for s in stacks]


def test_discard_goes_on_discard_pile() -> None:
    state = make(ME3, FULL, pending="7H", discard="2S")
    new = play(state, 0, "discard")
    assert new.discard == ["2S", "7H"]
    assert new.draw == state.draw


def test_draw_takes_top_card_and_keeps_the_turn() -> None:
    state = make(ME3, FULL, draw="2S 3S KH")
    new, events = G.apply(state, 0, G.parse_move("draw"))
    assert new.pending == "KH" and new.draw == ["2S", "3S"]
    assert G.to_act(new) == {0}
    assert [e.kind for e in events] == ["draw"]
    assert G.legal_moves(new, 1) == []


def test_stack_event_reports_points() -> None:
    state = make(["KH QH JH 5H", "", ""], FULL, pending="9H", scoring="court")
    _, events = G.apply(state, 0, G.parse_move("place 1"))
    stack = [e for e in events if e.kind == "stack"]
    assert len(stack) == 1 and stack[0].data["points"] == 1 + 3 + 2 + 1


def test_break_moves_listed_exactly() -> None:
    # K♥ matches 8♥ (suit) and K♣ (rank); 7♥ fits only the empty slot, K♣ fits the empty slot or 9♣.
    state = make(["5D", "", "9C"], ["7H 8H", "3S", "KC"], pending="KH")
    breaks = sorted(t for t in legal_texts(state, 0) if t.startswith("break"))
    assert breaks == ["break P2 1 onto 2", "break P2 3 onto 2", "break P2 3 onto 3"]
    assert legal_texts(state, 0)[-1] == "discard"


def test_no_break_without_fit_or_match_leaves_place_and_discard() -> None:
    # K♥ matches 8♥ but 7♦ fits none of my tops (and I have no empty slot); 3♣ and 2♣ do not match K♥.
    state = make(["5H", "6S", "9S"], ["7D 8H", "3C", "2C"], pending="KH")
    assert legal_texts(state, 0) == ["place 1", "discard"]


@pytest.mark.parametrize("pending", [None, "5C", "JK"], ids=["before-draw", "drew-pip", "drew-joker"])
def test_courts_already_in_sequences_never_break(pending: str | None) -> None:
    # Court cards sit on top of my sequences (arrived by an earlier merge or steal) and on the opponent's;
    # their tops would match a K♠ or Q♥, yet only a court card just drawn can break.
    state = make(["3S KS", "QH", "4C 4H QH"], ["3S", "4H", "KD"], pending=pending)
    assert not [m for m in G.legal_moves(state, 0) if m.kind == "break"]


def test_court_from_a_steal_does_not_break_next_turn() -> None:
    state = make(["5D", "", "9C"], ["7H 8H", "3S", "2C"], pending="KH", draw="2S 4D")
    state = play(state, 0, "break P2 1 onto 2")  # my slot 2 now ends with K♥
    state = play(play(state, 1, "draw"), 1, "discard")
    state = play(state, 0, "draw")  # 2♠: not a court card
    assert state.pending == "2S"
    assert not [m for m in G.legal_moves(state, 0) if m.kind == "break"]


def test_one_merge_per_turn() -> None:
    state = make(["2H", "2C", "2S"], FULL)
    after = play(state, 0, "merge 2 onto 1")
    assert G.to_act(after) == {1} and after.turn == 1
    assert G.legal_moves(after, 0) == []
    assert G.legal_moves(after, 1)[0] == Move("draw")
    expect_illegal(after, 0, "merge 3 onto 1", "not your turn", error=NotYourTurnError)


def test_wrong_seat_is_not_your_turn() -> None:
    state = make(ME3, FULL, turn=1)
    with pytest.raises(NotYourTurnError):
        G.apply(state, 0, Move("draw"))
    assert issubclass(NotYourTurnError, IllegalMoveError)
    expect_illegal(state, 0, "draw", "not your turn", error=NotYourTurnError)
    expect_illegal(state, 5, "draw", "not your turn", error=NotYourTurnError)


# --- decks, setup and the seeded first player -------------------------------------------------------------------

@pytest.mark.parametrize("decks, jokers, size", [(1, False, 52), (1, True, 54), (2, False, 104), (2, True, 108)],
                         ids=["1-deck", "1-deck-jokers", "2-decks", "2-decks-jokers"])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_new_game_deals_the_whole_deck(decks: int, jokers: bool, size: int, seats: int) -> None:
    state = G.new_game(seats, {"decks": decks, "jokers": jokers}, seed=7)
    cards = list(state.draw) + [c for seat in state.slots for seq in seat for c in seq]
    assert len(cards) == size
    assert Counter(cards) == Counter(make_deck(decks, jokers))
    assert Counter(cards)["JK"] == (2 * decks if jokers else 0)
    assert set(cards) - {"JK"} == {r + s for r in "A23456789TJQK" for s in "SHDC"}
    assert all(n == decks for card, n in Counter(cards).items() if card != "JK")
    assert all([len(seq) for seq in seat] == [1, 1, 1] for seat in state.slots)
    assert len(state.draw) == size - 3 * seats
    assert state.discard == [] and state.pending is None and state.phase == "play"
    assert state.stacks == [[] for _ in range(seats)]
    assert state.recycles_left == 1


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_first_player_comes_from_the_seed(seats: int) -> None:
    firsts = {G.new_game(seats, {}, seed).turn for seed in range(60)}
    assert firsts == set(range(seats))
    for seed in (0, 1, 99, 2**40 + 3):
        a, b = G.new_game(seats, {}, seed), G.new_game(seats, {}, seed)
        assert G.dump(a) == G.dump(b)
        assert G.to_act(a) == {a.turn}


def test_different_seeds_deal_differently() -> None:
    deals = {json.dumps(G.dump(G.new_game(3, {}, seed))["slots"]) for seed in range(20)}
    assert len(deals) == 20


# --- draw pile, recycling, end of play ------------------------------------------------------------------------

def test_empty_draw_pile_recycles_the_discard_pile() -> None:
    discard = "2C 3D 4H 5S 6C 7D 8H 9S TC JD"
    state = make(ME3, FULL, draw="", discard=discard, recycles_left=2)
    new, events = G.apply(state, 0, Move("draw"))
    assert [e.kind for e in events] == ["recycle", "draw"]
    assert events[0].data["cards"] == 10
    assert new.discard == [] and new.recycles_left == 1 and new.pending is not None
    assert sorted(new.draw + [new.pending]) == sorted(discard.split())
    assert new.rng != state.rng
    assert new.draw + [new.pending] != discard.split()  # shuffled, not just turned over
    # the shuffle is seeded by the state: the same state gives the same pile, another seed another
    assert G.dump(G.apply(state, 0, Move("draw"))[0]) == G.dump(new)
    other = G.apply(make(ME3, FULL, draw="", discard=discard, recycles_left=2, rng=999), 0, Move("draw"))[0]
    assert other.draw + [other.pending] != new.draw + [new.pending]


def test_last_recycle_counts_down_to_zero() -> None:
    state = make(ME3, FULL, draw="", discard="2C 3D", recycles_left=1)
    new = play(state, 0, "draw")
    assert new.recycles_left == 0 and len(new.draw) == 1
    new = play(new, 0, "discard")  # one card left in the pile: play goes on
    assert new.phase == "play" and G.to_act(new) == {1}
    new = play(play(new, 1, "draw"), 1, "discard")  # pile empty, no recycle left: play ends
    assert new.phase != "play"


@pytest.mark.parametrize("recycles_left, discard, resolve, ends", [
    (0, "2C", "discard", True),    # no recycle left: ends as soon as the pile is empty
    (0, "", "place 1", True),
    (1, "", "place 1", True),      # recycle left but nothing to recycle
    (3, "", "place 1", True),
    (1, "", "discard", False),     # the discarded card itself can be recycled
    (1, "2C", "place 1", False),
], ids=["no-recycles-discard", "no-recycles-place", "empty-discard", "empty-discard-3", "last-card-discarded",
        "recyclable"])
def test_when_play_ends(recycles_left: int, discard: str, resolve: str, ends: bool) -> None:
    state = make(["9D", "2C", "3S"], ["5C", "6D", "7S"], draw="9H", discard=discard, recycles_left=recycles_left)
    state = play(state, 0, "draw")
    assert state.phase == "play"  # drawing the last card does not end play: resolving it does
    new = play(state, 0, resolve)
    if ends:
        # nobody can merge (9♥ on 9♦ leaves no match): the final round is empty and the game is over
        assert new.phase == "over" and G.to_act(new) == frozenset()
        assert G.result(new) is not None
    else:
        assert new.phase == "play" and G.to_act(new) == {1}
        assert G.legal_moves(new, 1)[0] == Move("draw")
        assert G.result(new) is None


FINAL_TABLES = {
    "merges": ["2C", "2H", "2S"],  # these merge freely
    "none": ["5D", "9S", "KH"],  # these never match each other
}


@pytest.mark.parametrize("last_seat, tables, order", [
    (1, ["merges", "merges", "merges"], [2, 0, 1]),
    (2, ["merges", "merges", "merges"], [0, 1, 2]),
    (0, ["merges", "merges", "merges"], [1, 2, 0]),
    (1, ["merges", "merges", "none"], [0, 1]),
    (1, ["none", "none", "merges"], [2]),
    (2, ["merges", "none", "merges"], [0, 2]),
    (0, ["none", "none", "none"], []),
], ids=["after-p2", "after-p3", "after-p1", "skip-p3", "only-p3", "skip-p2", "nobody"])
def test_final_round_order(last_seat: int, tables: list[str], order: list[int]) -> None:
    """The round starts after the player who resolved the last card; players without a merge are skipped."""
    state = make(*[FINAL_TABLES[t] for t in tables], draw="", pending="4D", turn=last_seat, recycles_left=0)
    state = play(state, last_seat, "discard")
    acted = []
    while state.phase == "final":
        (seat,) = G.to_act(state)
        acted.append(seat)
        assert G.legal_moves(state, seat)[-1] == Move("done")
        assert all(G.legal_moves(state, other) == [] for other in range(3) if other != seat)
        state = play(state, seat, "done")
    assert acted == order
    assert state.phase == "over" and G.to_act(state) == frozenset() and G.result(state) is not None


def test_final_round_several_merges_then_done_then_over() -> None:
    state = make(["2C", "2H", "2S"], ["3C", "3H", "9S"], draw="", pending="4D", turn=1, recycles_left=0)
    state = play(state, 1, "discard")
    assert state.phase == "final" and state.final_queue == [0, 1]
    assert legal_texts(state, 0) == ["merge 1 onto 2", "merge 1 onto 3", "merge 2 onto 1", "merge 2 onto 3",
                                     "merge 3 onto 1", "merge 3 onto 2", "done"]
    expect_illegal(state, 0, "draw", "only `merge` or say `done`")
    expect_illegal(state, 0, "place 1", "only `merge` or say `done`")
    expect_illegal(state, 1, "merge 1 onto 2", "not your turn", error=NotYourTurnError)
    state = play(state, 0, "merge 2 onto 1")
    assert G.to_act(state) == {0}  # merges remain: still P1's decision
    state = play(state, 0, "done")
    assert G.to_act(state) == {1} and state.final_queue == [1]
    state = play(state, 1, "merge 2 onto 1")  # P2's only merge: P2 is moved on without saying done
    assert state.phase == "over" and G.to_act(state) == frozenset()
    assert tab(state, 0) == ["2C 2H", "", "2S"] and tab(state, 1) == ["3C 3H", "", "9S"]
    result = G.result(state)
    assert result is not None and result.winners == {0, 1}
    expect_illegal(state, 0, "done", "over", error=GameOverError)
    expect_illegal(state, 1, "draw", "over", error=GameOverError)
    assert all(G.legal_moves(state, seat) == [] for seat in range(2))


def test_final_round_merge_can_make_stacks() -> None:
    state = make(["2H 3H 4H", "5H 6H", "9S"], ["5D", "9C", "KH"], draw="", pending="4D", recycles_left=0, turn=1)
    state = play(state, 1, "discard")
    state = play(state, 0, "merge 2 onto 1")
    assert stacks_of(state, 0) == ["2H 3H 4H 5H 6H"] and state.phase == "over"
    assert G.result(state).winners == {0}


# --- scoring and the result -------------------------------------------------------------------------------

@pytest.mark.parametrize("stacks, scoring, scores", [
    ([["2H 3H 4H 5H 6H", "2C 3C 4C 5C 6C"], ["KS KH KD 9D 2D"]], "standard", [2, 1]),
    ([["2H 3H 4H 5H 6H", "2C 3C 4C 5C 6C"], ["KS KH KD 9D 2D"]], "court", [2, 1 + 9]),
    ([["KS QS JS TS 9S"], ["QH QC QD 2D 3D"]], "court", [1 + 3 + 2 + 1, 1 + 6]),
    ([["JK JH JC JS JD"], ["JK JK AS AH 2H"]], "court", [1 + 4, 1]),
    ([["JK JH JC JS JD"], ["JK JK AS AH 2H"]], "standard", [1, 1]),
    ([[], []], "court", [0, 0]),
], ids=["standard", "court-kings", "court-mixed", "court-jokers-jacks", "standard-ignores-courts", "no-stacks"])
def test_scoring(stacks: list[list[str]], scoring: str, scores: list[int]) -> None:
    state = make(["", "", ""], ["", "", ""], stacks=stacks, phase="over", scoring=scoring)
    assert G.scores(state) == scores
    result = G.result(state)
    assert result is not None and list(result.scores) == scores


def test_court_scoring_counts_cards_only_inside_stacks() -> None:
    state = make(["KH QH JH KS", "KD", "QC"], ["", "", ""], stacks=[["2H 3H 4H 5H 6H"], []], phase="over",
                 scoring="court")
    assert G.scores(state) == [1, 0]


@pytest.mark.parametrize("tableaus, stacks, tiebreak, winners, ranks", [
    ([["2C", "", ""], ["", "", ""]], [["2H 3H 4H 5H 6H"], ["2S 3S 4S 5S 6S"]], "none", {0, 1}, (1, 1)),
    ([["2C", "3C", ""], ["4D", "", ""]], [["2H 3H 4H 5H 6H"], ["2S 3S 4S 5S 6S"]], "cards_left", {0}, (1, 2)),
    ([["2C", "", ""], ["4D", "5D 6D", ""]], [["2H 3H 4H 5H 6H"], ["2S 3S 4S 5S 6S"]], "cards_left", {1}, (2, 1)),
    ([["2C 3C", "", ""], ["4D", "5D", ""]], [["2H 3H 4H 5H 6H"], ["2S 3S 4S 5S 6S"]], "cards_left", {0, 1},
     (1, 1)),
    ([["", "", ""], ["4D", "5D 6D", "7D"]], [["2H 3H 4H 5H 6H", "2C 3C 4C 5C 6C"], ["2S 3S 4S 5S 6S"]],
     "cards_left", {0}, (1, 2)),
    ([["2C", "", ""], ["", "", ""], ["3C", "", ""]], [["2H 3H 4H 5H 6H"], [], ["2S 3S 4S 5S 6S"]], "none",
     {0, 2}, (1, 3, 1)),
    ([["2C", "", ""], ["", "", ""], ["3C 4C", "", ""]], [["2H 3H 4H 5H 6H"], [], ["2S 3S 4S 5S 6S"]],
     "cards_left", {2}, (2, 3, 1)),
    ([["", "", ""], ["2C", "", ""], ["", "", ""], ["", "", ""]], [[], [], [], []], "none", {0, 1, 2, 3},
     (1, 1, 1, 1)),
], ids=["tie-shared", "cards-left-p1", "cards-left-p2", "cards-left-still-tied", "points-beat-cards",
        "three-tie-shared", "three-cards-left", "four-nil-all"])
def test_ties(tableaus: list[list[str]], stacks: list[list[str]], tiebreak: str, winners: set[int],
              ranks: tuple[int, ...]) -> None:
    state = make(*tableaus, stacks=stacks, phase="over", tiebreak=tiebreak)
    result = G.result(state)
    assert result is not None
    assert result.winners == winners and result.ranks == ranks
    assert result.draw is (len(winners) > 1)
    assert ("tie" in result.reason) is (len(winners) > 1)
    top = sorted(G.scores(state))[-2:]
    decided_by_cards = len(winners) == 1 and top[0] == top[1]
    assert (result.reason == "more cards left in the slots (equal points)") is decided_by_cards, result.reason


def test_no_result_before_the_end() -> None:
    assert G.result(make(ME3, FULL)) is None
    assert G.result(make(ME3, FULL, phase="final", final_queue=(0,))) is None


# --- options ------------------------------------------------------------------------------------------------

def test_options_default() -> None:
    assert G.resolve_options({}) == {"decks": 1, "jokers": False, "aces_wild": False, "scoring": "standard",
                                     "recycles": 1, "tiebreak": "none"}
    assert G.resolve_options(None) == G.resolve_options({})


@pytest.mark.parametrize("given, expected", [
    ({"decks": "2"}, {"decks": 2}),
    ({"jokers": "yes"}, {"jokers": True}),
    ({"aces_wild": "off"}, {"aces_wild": False}),
    ({"scoring": " Court "}, {"scoring": "court"}),
    ({"recycles": 0}, {"recycles": 0}),
    ({"recycles": "3"}, {"recycles": 3}),
    ({"tiebreak": "CARDS_LEFT"}, {"tiebreak": "cards_left"}),
    ({"decks": 2.0}, {"decks": 2}),
], ids=["decks-text", "jokers-yes", "aces-off", "scoring-case", "recycles-0", "recycles-text", "tiebreak-case",
        "decks-whole-float"])
def test_options_coerce(given: dict[str, Any], expected: dict[str, Any]) -> None:
    resolved = G.resolve_options(given)
    assert {k: resolved[k] for k in expected} == expected
    assert all(type(resolved[k]) is type(v) for k, v in expected.items())


@pytest.mark.parametrize("given, words", [
    ({"colour": "red"}, ("no option", "colour")),
    ({"decks": 3}, ("decks", "one of")),
    ({"decks": 0}, ("decks",)),
    ({"decks": "two"}, ("decks", "whole number")),
    ({"decks": 1.5}, ("decks",)),
    ({"decks": True}, ("decks",)),
    ({"jokers": "maybe"}, ("jokers", "true or false")),
    ({"jokers": 2}, ("jokers",)),
    ({"aces_wild": None}, ("aces_wild",)),
    ({"scoring": "fancy"}, ("scoring", "standard", "court")),
    ({"recycles": 4}, ("recycles",)),
    ({"recycles": -1}, ("recycles",)),
    ({"tiebreak": "coin"}, ("tiebreak", "cards_left")),
], ids=["unknown", "decks-3", "decks-0", "decks-word", "decks-fraction", "decks-bool", "jokers-maybe", "jokers-2",
        "aces-none", "scoring-fancy", "recycles-4", "recycles-negative", "tiebreak-coin"])
def test_options_rejected(given: dict[str, Any], words: tuple[str, ...]) -> None:
    with pytest.raises(OptionError) as info:
        G.resolve_options(given)
    for word in words:
        assert word in str(info.value).lower()
    with pytest.raises(OptionError):
        G.new_game(2, given, seed=1)


@pytest.mark.parametrize("seats", [0, 1, 5])
def test_seat_count_rejected(seats: int) -> None:
    with pytest.raises(OptionError, match="2–4 players"):
        G.new_game(seats, {}, seed=1)


# --- notation -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, move", [
    ("draw", Move("draw")),
    ("d", Move("draw")),
    ("  DRAW  ", Move("draw")),
    ("discard", Move("discard")),
    ("x", Move("discard")),
    ("done", Move("done")),
    ("pass", Move("done")),
    ("place 2", Move("place", slot=1)),
    ("p 2", Move("place", slot=1)),
    ("place slot 3", Move("place", slot=2)),
    ("merge 1 onto 2", Move("merge", slot=0, target=1)),
    ("m 1 2", Move("merge", slot=0, target=1)),
    ("merge 3 on 1", Move("merge", slot=2, target=0)),
    ("Merge  2  >  3", Move("merge", slot=1, target=2)),
    ("break P2 1 onto 3", Move("break", slot=0, target=2, player=1)),
    ("break p4 3 onto 1", Move("break", slot=2, target=0, player=3)),
    ("b 2 1 > 3", Move("break", slot=0, target=2, player=1)),
    ("break 2 1", Move("break", slot=0, target=-1, player=1)),
    ("break P1 slot 2 onto slot 3", Move("break", slot=1, target=2, player=0)),
], ids=lambda v: v if isinstance(v, str) else None)
def test_parse_accepts(text: str, move: Move) -> None:
    assert G.parse_move(text) == move


@pytest.mark.parametrize("text, words", [
    ("", ("don't understand",)),
    ("fly", ("don't understand", "fly", "draw")),
    ("place", ("don't understand",)),
    ("place 4", ("no slot 4", "1 to 3")),
    ("place 0", ("no slot 0",)),
    ("place two", ("don't understand",)),
    ("merge 1", ("don't understand",)),
    ("merge 1 onto 4", ("no slot 4",)),
    ("draw 2", ("don't understand",)),
    ("break", ("don't understand",)),
    ("break P2", ("don't understand",)),
    ("break P9 1", ("no player 9", "P1 to P4 at most")),
    ("break P0 1", ("no player 0",)),
    ("break P2 1 onto 5", ("no slot 5",)),
    ("discard 1", ("don't understand",)),
], ids=["empty", "fly", "place-bare", "place-4", "place-0", "place-word", "merge-one-slot", "merge-slot-4",
        "draw-arg", "break-bare", "break-no-slot", "break-p9", "break-p0", "break-slot-5", "discard-arg"])
def test_parse_rejects(text: str, words: tuple[str, ...]) -> None:
    with pytest.raises(NotationError) as info:
        G.parse_move(text)
    for word in words:
        assert word.lower() in str(info.value).lower()


def _every_move() -> list[Move]:
    moves = [Move("draw"), Move("discard"), Move("done")]
    moves += [Move("place", slot=s) for s in range(3)]
    moves += [Move("merge", slot=a, target=b) for a in range(3) for b in range(3)]
    moves += [Move("break", slot=s, target=t, player=p) for p in range(4) for s in range(3) for t in range(-1, 3)]
    return moves


@pytest.mark.parametrize("move", _every_move(), ids=G.format_move)
def test_notation_round_trips(move: Move) -> None:
    text = G.format_move(move)
    assert G.parse_move(text) == move
    assert G.format_move(G.parse_move(text.upper())) == text


@pytest.mark.parametrize("text, canonical", [
    ("d", "draw"), ("x", "discard"), ("pass", "done"), ("p 2", "place 2"), ("m 1 2", "merge 1 onto 2"),
    ("b p2 1 > 3", "break P2 1 onto 3"), ("break 2 1", "break P2 1"),
], ids=["d", "x", "pass", "p", "m", "b", "break-short"])
def test_short_forms_format_canonically(text: str, canonical: str) -> None:
    assert G.format_move(G.parse_move(text)) == canonical


# --- robustness: every refusal is an IllegalMoveError, never a crash ------------------------------------------

@pytest.mark.parametrize("move", [
    Move("place", slot=-1), Move("place", slot=-4), Move("place", slot=3), Move("merge", slot=-1, target=0),
    Move("merge", slot=0, target=-2), Move("break", slot=-5, target=0, player=1), Move("break", slot=0, target=-3,
                                                                                        player=1),
    Move("break", slot=0, target=7, player=1), Move("break", slot=0, target=1, player=-1), Move("fly"),
    Move("discard", slot=1), Move("draw", target=2),
], ids=repr)
def test_hand_built_bad_moves_are_refused(move: Move) -> None:
    for pending in (None, "KH", "8H"):
        state = make(["5D", "7H", ""], ["7H 8H", "3S", "2C"], pending=pending)
        before = snapshot(state)
        with pytest.raises(IllegalMoveError) as info:
            G.apply(state, 0, move)
        assert str(info.value)
        assert snapshot(state) == before


# --- persistence and views --------------------------------------------------------------------------------

def test_dump_and_view_do_not_share_lists_with_the_state() -> None:
    state = play(make(["5D", "", "9C"], ["7H 8H", "3S", "2C"], pending="KH", stacks=[["2H 3H 4H 5H 6H"], []]),
                 0, "break P2 1 onto 2")
    before = snapshot(state)
    data = G.dump(state)
    data["slots"][0][0].append("XX")
    data["stacks"][0][0].append("XX")
    data["last"]["touched"].append([9, 9])
    data["draw"].append("XX")
    view = G.view(state, None)
    view["players"][0]["slots"][0].append("XX")
    view["last"]["touched"].append([9, 9])
    loaded_from = G.dump(state)
    loaded = G.load(loaded_from)
    loaded_from["last"]["touched"].append([8, 8])
    loaded_from["slots"][1][2].append("XX")
    assert snapshot(state) == before
    assert snapshot(loaded) == before


def test_load_rejects_other_formats() -> None:
    data = G.dump(make(ME3, FULL))
    for bad in ({**data, "format": 999}, {**data, "game": "chess"}):
        with pytest.raises(ValueError):
            G.load(bad)
