"""Bloc by Bloc's bots play with a purpose: positions where the obvious move must be found (occupy a State district
that can be occupied, destroy the van that can be destroyed, keep blocs out of a clash they would lose), the
decisions outside a turn (allow a partner's action, reroll a bad reaction with Lookouts), and the value the medium
bot maximises ranks those moves first. Positions are set up on the beginner city (State districts A4, B1, D5)."""

from __future__ import annotations

import pytest

import bots.blocbybloc_plan as planner
from bots import choose
from bots.blocbybloc import blocbybloc_value, forecast
from bots.blocbybloc_plan import EVALUATIONS, plan
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.city import parse_cell
from engine.blocbybloc.model import BlocState, Pending
from engine.rng import Rng

G = BlocByBloc()


def c(name: str) -> int:
    cell = parse_cell(name)
    assert cell is not None
    return cell


def starts_placed(state: BlocState) -> BlocState:
    """``state`` once every Faction Start is placed by its default."""
    while state.pending:
        seat = next(iter(G.to_act(state)))
        state, _ = G.apply(state, seat, G.parse_move(G.decision(state, seat).default or ""))
    return state


def hold(state: BlocState, f: int, hand: tuple[str, ...], dice: list[int]) -> None:
    """Faction ``f`` holds ``hand`` (its cards go back to the loot deck) and rolled ``dice``."""
    state.loot_deck += state.hands[f]
    state.hands[f] = list(hand)
    for card in hand:
        state.loot_deck.remove(card)
    state.dice = sorted(dice)


def position(faction_index: int, dice: list[int], blocs: dict[str, int], *, clear: tuple[str, ...] = (),
             hand: tuple[str, ...] = (), seats: int = 4) -> BlocState:
    """The beginner city on Easy, every Start placed by its default; the ``faction_index``-th faction of the order
    acts with ``dice``, holding ``blocs`` (district → count; none elsewhere but one at each other Start) and
    ``hand``; the police leave the ``clear`` districts."""
    state = starts_placed(G.new_game(seats, {"city": "beginner", "difficulty": "easy"}, 7))
    f = state.order[faction_index]
    state.first, state.turn = faction_index, 0
    state.blocs = [[0, 0, 0, 0] for _ in range(25)]
    for g in state.order:  # every other faction keeps a bloc at its Start
        if g != f:
            state.blocs[state.occupation_cell(g, "start")][g] = 1
    for name, n in blocs.items():
        state.blocs[c(name)][f] += n
    for name in clear:
        state.cops[c(name)], state.vans[c(name)] = 0, -1
    hold(state, f, hand, dice)
    return state


def acting_seat(state: BlocState) -> int:
    return state.controller[state.faction_now()]


def hard(state: BlocState, seed: int = 1) -> str:
    """The hard bot's move, its search fixed (its planner untimed: the same choice on any machine)."""
    seat = min(G.to_act(state))
    return G.format_move(choose(G, state, seat, "hard", Rng(seed), iterations=200))


def test_the_hard_bot_occupies_a_state_district_it_can() -> None:
    state = position(0, [1, 2, 6], {"A4": 3}, clear=("A4",))
    for seed in (1, 2, 3):
        assert hard(state, seed).startswith("build 6 A4 ")


def test_the_hard_bot_moves_in_and_occupies_a_cleared_state_district() -> None:
    state = position(0, [1, 6], {"A3": 3}, clear=("A4",))
    first = hard(state)
    assert first.startswith("move 1 A3 A4 "), first
    state, _ = G.apply(state, acting_seat(state), G.parse_move(first))
    assert hard(state).startswith("build 6 A4 ")


def test_the_hard_bot_destroys_a_van_it_can_destroy() -> None:
    state = position(0, [1, 2, 6], {"A4": 3}, hand=("molotov2",))
    state.cops[c("A4")] = 0  # the van alone holds the district
    assert hard(state) == "van 6 A4 molotov2"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hard_bot_keeps_its_blocs_out_of_a_clash_they_lose(seed: int) -> None:
    """Next to a State district (van and cops) with no die that may attack there: no bloc walks in."""
    state = position(0, [1, 2, 3], {"A3": 3})
    seat = acting_seat(state)
    for _ in range(4):
        move = choose(G, state, seat, "hard", Rng(seed), iterations=200)  # untimed: the same on any machine
        if move.kind == "end":
            break
        assert not (move.kind == "move" and state.vans[move.to] >= 0), G.format_move(move)
        state, _ = G.apply(state, seat, move)


def test_the_medium_value_ranks_the_purposeful_moves_first() -> None:
    """The medium bot plays the move whose position :func:`blocbybloc_value` values most."""
    state = position(0, [1, 2, 6], {"A4": 3}, clear=("A4",))
    seat = acting_seat(state)

    def after(text: str) -> float:
        s = G.clone(state)
        G.fast_apply(s, seat, G.parse_move(text))
        return blocbybloc_value(G, s, seat)

    build = max(after(G.format_move(m)) for m in G.legal_moves(state, seat) if m.kind == "build")
    others = [after(G.format_move(m)) for m in G.legal_moves(state, seat) if m.kind != "build"]
    assert build > max(others)
    walk_in = position(0, [1, 2, 3], {"A3": 3})
    seat = acting_seat(walk_in)
    base = forecast(walk_in)
    s = G.clone(walk_in)
    G.fast_apply(s, seat, G.parse_move("move 1 A3 A4 3"))
    assert forecast(s) < base - 5  # the van would wipe the blocs out


def test_decisions_outside_the_turn() -> None:
    state = position(0, [6], {"A3": 1})
    f = state.faction_now()
    other = state.order[1]
    state.blocs[c("A3")][other] = 3  # a partner with more blocs may stop the loot
    state, _ = G.apply(state, acting_seat(state), G.parse_move("loot 6 A3"))
    assert state.pending and state.pending[0].kind == "stop"
    assert hard(state) == "allow"
    lookout = position(0, [6], {"A3": 1}, hand=("lookouts",))
    lookout.pending = [Pending("lookout", f, cell=c("A3"), hits=1)]
    assert hard(lookout) == "reroll"
    lookout.pending = [Pending("lookout", f, cell=c("A3"), hits=5)]
    assert hard(lookout) == "accept"


def test_the_planner_reads_only_the_seat_view_and_keeps_to_its_search_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same move on a scrambled copy of what the seat cannot see; a move looks at about ``EVALUATIONS`` positions
    at most (its time is measured by bench.tournament), and a tenth of the budget looks at fewer."""
    looked = [0]

    def counting(state: BlocState) -> float:
        looked[0] += 1
        return forecast(state)

    monkeypatch.setattr(planner, "forecast", counting)
    state = G.new_game(2, {"difficulty": "easy"}, 11)
    most = {150.0: 0, 1500.0: 0}
    for ply in range(24):  # the opening's Starts, then a night and more of real choices
        if G.is_over(state):
            break
        seat = min(G.to_act(state))
        moves = G.search_moves(state, seat)
        for budget in most:
            looked[0] = 0
            move = (moves[0] if len(moves) == 1 else plan(G, state, seat, moves, Rng(ply), budget)  # (untimed)
                    or choose(G, state, seat, "medium", Rng(ply)))
            most[budget] = max(most[budget], looked[0])
        if ply % 10 == 0:
            scrambled = G.determinize(state, seat, Rng(99))
            assert G.format_move(plan(G, scrambled, seat, moves, Rng(ply)) or move) == \
                G.format_move(plan(G, state, seat, moves, Rng(ply)) or move)
        state, _ = G.apply(state, seat, move)
    assert EVALUATIONS // 2 < most[1500.0] < EVALUATIONS * 2  # (follow-ups count as one; a depth is finished)
    assert most[150.0] < most[1500.0] / 2
