"""Bloc by Bloc's "up to N" and "place N" effects do what they can when the pool, the room, the mat or staging
runs short (cards.md decision 23): offered while at least one piece can be placed, placing as many as there are.
Positions on the beginner city (tests/engine/test_blocbybloc_rules.py's helpers)."""

from __future__ import annotations

from typing import Any

from engine.blocbybloc import police as pol
from engine.blocbybloc.manifestations import manifest
from engine.blocbybloc.model import BARRICADES, BLOCS, MAX_BARRICADES, Pending
from engine.blocbybloc.sunrise import medics
from engine.rng import Rng
from tests.engine.test_blocbybloc_last import fill_pool
from tests.engine.test_blocbybloc_rules import G, N, S, W, blank, build_here, c, give, play, position, seat_of


def moves_of(state: Any, f: int, kind: str) -> list[str]:
    return sorted(G.format_move(m) for m in G.legal_moves(state, seat_of(state, f)) if m.kind == kind)


def test_guerrilla_garden_with_one_barricade_left_places_it() -> None:
    state = blank(position(), N, [1])
    build_here(state, N, "E1", "garden")
    state.blocs[c("E1")][N] = 1
    fill_pool(state, 1)
    gardens = moves_of(state, N, "garden")
    assert gardens and all(len(g.split()) == 3 for g in gardens), gardens  # "garden 1 D1-E1": one barricade
    state, _ = play(state, gardens[0])
    assert sum(state.barricades.values()) == BARRICADES


def test_guerrilla_garden_with_room_for_two_around_its_district_places_two() -> None:
    state = blank(position(), N, [1])
    build_here(state, N, "E1", "garden")
    state.blocs[c("E1")][N] = 1
    around = sorted(conn.id for conn in state.city.touching[c("E1")])
    for conn in around:
        state.barricades[conn] = MAX_BARRICADES
    state.barricades[around[0]] = 1
    assert moves_of(state, N, "garden") == [f"garden 1 {around[0]} {around[0]}"]
    state, _ = play(state, f"garden 1 {around[0]} {around[0]}")
    assert state.barricades[around[0]] == MAX_BARRICADES


def test_barricade_fever_with_one_barricade_left_builds_it_and_asks_nobody_else() -> None:
    state = blank(position(), W, [])
    state.blocs[c("B5")][W] = 2
    state.blocs[c("C2")][S] = 1
    fill_pool(state, 1)
    said = manifest(state, "barricade_fever", c("B5"), 5, [W, S], [0, 0, -1], Rng(1))
    assert [p.kind for p in state.pending] == ["fever", "fever"] and "up to 4" in said[0]
    state.phase = "sunrise"
    walls = moves_of(state, W, "wall")
    assert walls, "offered with one barricade left"
    state, lines = play(state, walls[0])
    assert sum(state.barricades.values()) == BARRICADES
    assert not any(p.kind == "fever" for p in state.pending), "the Students have nothing left to build"
    assert "Students find no barricade left to build (Barricade Fever)." in lines


def test_barricade_fever_with_an_empty_pool_asks_nobody() -> None:
    state = blank(position(), W, [])
    state.blocs[c("B5")][W] = 2
    fill_pool(state, 0)
    said = manifest(state, "barricade_fever", c("B5"), 5, [W], [0, 0, -1], Rng(1))
    assert not state.pending and "no room" in said[0]


def test_the_crowd_swells_forms_the_blocs_left_on_the_mat() -> None:
    state = blank(position(), W, [])
    state.blocs[c("B5")][W] = BLOCS - 1
    manifest(state, "crowd_swells", c("B5"), 5, [W], [0, 0, -1], Rng(1))  # L5: 3 blocs, 1 on the mat
    assert state.blocs[c("B5")][W] == BLOCS and state.on_mat(W) == 0


def test_a_medic_kit_places_the_one_bloc_defeated_there() -> None:
    state = blank(position(), W, [])
    state.defeated = [[0, 0, 0, 0] for _ in range(25)]
    state.defeated[c("B4")][W] = 1
    state.medics = [[W, c("B4")]]
    medics(state, [])
    assert [(p.kind, p.faction) for p in state.pending] == [("place", W)], "up to 2: the one there is"


def test_two_medic_kits_in_one_district_save_up_to_two_each() -> None:
    state = blank(position(), W, [])
    state.defeated = [[0, 0, 0, 0] for _ in range(25)]
    state.defeated[c("B4")][W] = 3
    state.medics = [[W, c("B4")], [W, c("B4")]]
    medics(state, [])
    assert [p.kind for p in state.pending] == ["place"] * 3 and state.defeated[c("B4")][W] == 0


def test_reinforcements_deploy_what_staging_holds() -> None:
    state = blank(position(), W, [])
    city = state.city
    vans = [x for x in city.districts if state.vans[x] == 0]
    assert len(vans) >= 2
    state.cops[vans[0]] += pol.staging_cops(state) - 1  # one cop left in staging
    lines = pol.reinforce(state, city, 2, True)
    assert pol.staging_cops(state) == 0 and len(lines) == 1 and lines[0].startswith("+1 cop in")


def test_fireworks_and_change_of_clothes_move_the_one_there_is() -> None:
    state = blank(position(), W, [])
    state.blocs[c("A4")][W] = 1
    state.cops[c("A4")], state.vans[c("A4")] = 1, -1
    give(state, W, "fireworks", "clothes")
    assert {m.split()[-1] for m in moves_of(state, W, "fireworks")} == {"1"}
    clothes = moves_of(state, W, "clothes")
    assert clothes and all(m.split()[-1] == "1" for m in clothes), clothes


def test_police_rout_sends_the_cops_there_are() -> None:
    state = blank(position(), W, [])
    state.cops = [0] * 25
    state.cops[c("B4")] = 1
    said = manifest(state, "police_rout", c("B5"), 5, [W], [0, 0, -1], Rng(1))  # L5: 4 cops, 1 around
    assert state.pending == [Pending("rout", W, cell=c("B5"), hits=1)] and "1 cop from" in said[0]
