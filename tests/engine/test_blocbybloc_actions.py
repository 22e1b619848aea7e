"""Bloc by Bloc: ``actions.is_action`` (the check that a move closing a run of attacks is still possible after the
reaction roll) answers as ``move in faction_actions(state, f)`` does, for every listed move and for moves one step
off them (another die, count, destination, connection, district or field), in random playouts of every scenario."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.actions import faction_actions, is_action
from engine.blocbybloc.model import BlocState
from engine.blocbybloc.moves import Move
from engine.rng import Rng

G = BlocByBloc()


def near(move: Move, conns: list[str]) -> list[Move]:
    """Moves one step off ``move``."""
    out = [replace(move, die=move.die + 1), replace(move, die=max(0, move.die - 1)), replace(move, n=move.n + 1),
           replace(move, n=move.n - 1), replace(move, to=(move.to + 1) % 25), replace(move, cell=(move.cell + 1) % 25),
           replace(move, occ="hall"), replace(move, extra=("crowbar",)), replace(move, frm=0)]
    out += [replace(move, conn=c) for c in conns[:6]]
    if move.kind == "move":
        out.append(replace(move, kind="bicycles"))
    return out


def checked(state: BlocState) -> int:
    """Every listed move and its neighbours, in the acting faction's turn; how many were asked."""
    if state.outcome or state.pending or state.phase != "sunset":
        return 0
    f = state.faction_now()
    listed = faction_actions(state, f)
    conns = sorted(c.id for c in state.city.connections)
    asked = 0
    for move in listed:
        assert is_action(state, f, move), move
        for other in near(move, conns):
            assert is_action(state, f, other) == (other in listed), other
            asked += 1
    return asked


@pytest.mark.parametrize("scenario", ["none", "traffic", "abolish", "zone-1", "smash"])
def test_is_action_answers_as_the_listed_moves(scenario: str) -> None:
    asked = 0
    for seed in (3,):
        state = G.new_game(4, G.resolve_options({"scenario": scenario}, 4), seed)
        rng = Rng(seed)
        for ply in range(300):
            if G.is_over(state):
                break
            if ply % 5 == 0:
                asked += checked(state)
            seat = min(G.to_act(state))
            G.fast_apply(state, seat, G.sample_move(state, seat, rng))
    assert asked > 500
