"""Bloc by Bloc's hard bot keeps its time budget live (issue 28): its turn planner stops at its deadline with the
best sequence found so far, and a search the deadline does not cut chooses exactly what the untimed search (tests,
``bench.blocbybloc_scenarios``) chooses. The clock here is a count of its readings, not the machine's time, so the
tests check the planner's bookkeeping however fast or busy the machine is."""

from __future__ import annotations

from typing import Any

import pytest

from bots import DEFAULT_BUDGET_MS, choose
from bots.blocbybloc_plan import plan
from bots.deadline import SHARE
from engine.blocbybloc import BlocByBloc
from engine.rng import Rng

G = BlocByBloc()


class Ticks:
    """A clock read by the planner once at its call, then once before each position it looks at after the first:
    it moves on at each reading so that the deadline (:data:`SHARE` of the default budget) passes after ``looks``
    positions (``None``: it stands still)."""

    def __init__(self, looks: int | None = None) -> None:
        self.readings = 0
        self.step = 0.0 if looks is None else SHARE * DEFAULT_BUDGET_MS / 1000 / (looks - 0.5)

    def __call__(self) -> float:
        self.readings += 1
        return (self.readings - 1) * self.step


def turns(seed: int, count: int) -> list[tuple[Any, int]]:
    """``count`` positions along a game the medium bots play where a faction plans its turn (its dice rolled, two
    legal moves or more, nothing pending), with the seat to move."""
    state = G.new_game(4, G.resolve_options({}), seed)
    rng = Rng(seed)
    out: list[tuple[Any, int]] = []
    ply = 0
    while not G.is_over(state) and len(out) < count:
        seat = min(G.to_act(state))
        if (state.phase == "sunset" and not state.pending and state.controller[state.faction_now()] == seat
                and len(G.search_moves(state, seat)) > 1 and ply % 3 == 0):
            out.append((state, seat))
        state, _ = G.apply(state, seat, choose(G, state, seat, "medium", rng))
        ply += 1
    assert len(out) == count
    return out


@pytest.mark.parametrize("seed", [3, 8])
def test_the_planner_stops_at_its_deadline_with_its_best_so_far(seed: int) -> None:
    for state, seat in turns(seed, 3):
        moves = G.search_moves(state, seat)
        untimed = plan(G, state, seat, moves, Rng(5), timed=False)
        assert untimed in moves
        still = Ticks()  # a clock that stands still: the deadline never passes
        uncut = plan(G, state, seat, moves, Rng(5), timed=True, clock=still)
        assert uncut == untimed, "a search the deadline does not cut chooses as the untimed one"
        full = still.readings  # its call, then one reading before each look after the first
        assert full > 10
        for n in (1, 2, 7, full // 2, full + 5):
            ticks = Ticks(n)
            move = plan(G, state, seat, moves, Rng(5), timed=True, clock=ticks)
            assert move in moves, "cut or not, a legal move"
            assert ticks.readings == min(full, n + 1), "the search stops at the first look past its deadline"
            if n >= full:
                assert move == untimed


def test_an_untimed_planner_never_reads_the_clock() -> None:
    state, seat = turns(3, 1)[0]
    ticks = Ticks()
    moves = G.search_moves(state, seat)
    assert plan(G, state, seat, moves, Rng(5), 1.0, timed=False, clock=ticks) in moves
    assert ticks.readings == 0
