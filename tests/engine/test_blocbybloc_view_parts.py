"""Bloc by Bloc's views take the city's fixed parts (names, tiles, connections in words) from ``city_parts``, made
once per city: each view still says its own city, whatever other cities were viewed between, however many (the
kept ones are dropped oldest first), and a difficulty is the face-up side's."""

from __future__ import annotations

from engine.blocbybloc import game as blocbybloc_game
from engine.blocbybloc.city import cell_name
from engine.blocbybloc.game import CITY_PARTS, BlocByBloc
from engine.blocbybloc.model import BlocState
from engine.rng import Rng

G = BlocByBloc()


def says_its_city(state: BlocState) -> None:
    view = G.view(state, None)
    city = state.city
    for cell, c in enumerate(view["cells"]):
        tile = city.tile(cell)
        assert (c["cell"], c["tile"], c["name"], c["type"], c["pid"], c["metro"], c["circle"]) == (
            cell_name(cell), state.tiles[cell], tile.name, tile.type, tile.pid, tile.metro, tile.circle)
        assert c["rotation"] == state.rotations[cell]
        assert c["difficulty"] == (0 if tile.highway else state.difficulty(cell))
        assert c["connections"] == [x.id for x in city.touching[cell]]
    assert [(x["id"], x["a"], x["b"], x["highway"]) for x in view["connections"]] == [
        (x.id, cell_name(x.a), cell_name(x.b), cell_name(x.highway) if x.highway is not None else "")
        for x in city.connections]


def test_each_view_says_its_own_city_among_many() -> None:
    games = [G.new_game(2 + i % 3, {}, 300 + i) for i in range(CITY_PARTS + 9)]
    rng = Rng(4)
    for round_ in range(3):  # more cities than are kept: each is made again after it was dropped
        for i, state in enumerate(games):
            if round_:
                seat = min(G.to_act(state))
                state = games[i] = G.apply(state, seat, G.sample_move(state, seat, rng))[0]
            says_its_city(state)
        assert len(blocbybloc_game._city_parts) <= CITY_PARTS


def test_a_liberated_district_shows_its_face_up_difficulty() -> None:
    state = G.new_game(3, {}, 12)
    cell = next(c for c in state.city.districts if state.difficulty(c) > 1)
    before = G.view(state, None)["cells"][cell]["difficulty"]
    state.liberated[cell] = True
    assert G.view(state, None)["cells"][cell]["difficulty"] == before - 1 == state.difficulty(cell)
