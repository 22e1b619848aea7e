"""Bloc by Bloc rules, table-driven where the rules are tables: the city (the beginner city's adjacency is the
spec's oracle), the random generator, the police algorithms (the rulebook's three barricade examples), movement,
the die rules, stopping, attacks, reaction rolls, repression, liberation, the manifestation cards and the end."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.base import IllegalMoveError
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import (
    BASE_PILES,
    TILES,
    ZIGZAG,
    beginner_layout,
    build_city,
    cell_name,
    parse_cell,
    random_layout,
    routes_from,
)
from engine.blocbybloc.model import FACTIONS, BlocState, Pending
from engine.blocbybloc.sunrise import default_split
from engine.blocbybloc.turn import end_turn
from engine.rng import Rng
from tests.engine.rule_helpers import expect_illegal

G = BlocByBloc()
W, S, N, P = 0, 1, 2, 3


def c(name: str) -> int:
    cell = parse_cell(name)
    assert cell is not None
    return cell


def position(seats: int = 4, **options: Any) -> BlocState:
    """The beginner city, every Start placed by its default, ready for the first faction's actions; the city is
    then cleared of blocs so that a test sets up exactly what it needs."""
    state = G.new_game(seats, {"city": "beginner", **options}, 7)
    while state.pending:
        seat = next(iter(G.to_act(state)))
        state, _ = G.apply(state, seat, G.parse_move(G.decision(state, seat).default or ""))
    return state


def blank(state: BlocState, faction: int, dice: list[int]) -> BlocState:
    """``faction`` to act with ``dice``; no blocs anywhere (the Starts stay)."""
    state.blocs = [[0, 0, 0, 0] for _ in range(25)]
    state.loot_deck += [c for hand in state.hands for c in hand]
    state.hands = [[], [], [], []]  # no cards in hand: a test deals what it needs
    state.first = state.order.index(faction)
    state.turn = 0
    state.dice = sorted(dice)
    return state


def seat_of(state: BlocState, faction: int) -> int:
    return state.controller[faction]


def play(state: BlocState, text: str, seat: int | None = None) -> tuple[BlocState, list[str]]:
    """``text`` played by ``seat``, by default the seat deciding for the acting faction (the main line)."""
    if seat is None:
        seat = state.controller[G.acting_faction(state)]
    state, events = G.apply(state, seat, G.parse_move(text))
    return state, [e.text for e in events]


def rig(state: BlocState, *rolls: int) -> None:
    """Set the generator so that its next d6 rolls are ``rolls`` (searching for a seed that gives them)."""
    for seed in range(1, 10**6):
        rng = Rng(seed)
        if all(1 + rng.below(6) == r for r in rolls):
            state.rng = seed
            return
    raise AssertionError("no seed")


# --- the city -------------------------------------------------------------------------------------------
# The beginner city's adjacency as the city part (A4) lists it: the test oracle, copied here so that the test does
# not depend on the spec folder beside the checkout.
ORACLE = """A1: A2 B1 · A2: A1 A3 B1 · A3: A2 A4 B3 · A4: A3 A5 B4 · A5: A4 B5 · B1: A1 A2 C1 ·
B3: A3 B4 C2 C3 · B4: A4 B3 B5 C4 · B5: A5 B4 · C1: B1 C2 D1 · C2: B3 C1 C3 · C3: B3 C2 C4 D2 ·
C4: B4 C3 D4 D5 · D1: C1 D2 E1 · D2: C3 D1 E2 · D4: C4 D5 E3 E4 · D5: C4 D4 E5 · E1: D1 E2 ·
E2: D2 E1 E3 · E3: D4 E2 E4 · E4: D4 E3 E5 · E5: D5 E4"""


def oracle() -> dict[str, set[str]]:
    return {cell: set(rest.split()) for cell, rest in re.findall(r"([A-E][1-5]): ((?:[A-E][1-5] ?)+)", ORACLE)}


def test_the_beginner_city_matches_the_spec_adjacency() -> None:
    city = beginner_layout(1).city
    expected = oracle()
    assert len(expected) == 22
    got = {cell_name(cell): {cell_name(x) for x in city.adjacent[cell]} for cell in city.districts}
    assert got == expected
    assert len(city.connections) == 33
    assert sorted(x.id for x in city.connections if x.highway is not None) == \
        ["B2:NW", "B2:SE", "C5:SW", "D3:NW", "D3:SE"]
    assert [cell_name(m) for m in city.metro] == ["A3", "B5", "C2", "D2", "E1", "E4"]
    assert sum(city.tile(x).shops for x in city.districts) == 21
    assert city.connected()
    police = frozenset(c(x) for x in ("B1", "A4", "D5", "D2"))
    assert city.connected(skip=police), "no faction walled in by the starting police"


@pytest.mark.parametrize("seed", range(0, 400, 7))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_cities_follow_the_zigzag_and_are_connected(seed: int, players: int) -> None:
    layout = random_layout(seed, players, overpass=seed % 2 == 1)
    tiles = layout.tiles
    assert len(set(tiles)) == 25
    for k, cell in enumerate(ZIGZAG):
        pile = "ABC"[k % 3]
        assert TILES[tiles[cell]].pile in ({pile} | ({"3"} if pile == "A" else set()) |
                                           ({"D"} if pile == "C" else set()))
    assert ("d23" in tiles) == (players == 3) and ("d12" in tiles) == (players != 3)
    assert ("overpass" in tiles) == (seed % 2 == 1) and ("hw3" in tiles) == (seed % 2 == 0)
    assert all(r in (0, 90, 180, 270) for r in layout.rotations)
    assert layout.city.connected()
    assert sorted(layout.manifestations).count("mass_looting") <= 4 and len(layout.manifestations) == 25


def test_a_disconnected_draw_is_redrawn_with_the_next_seed() -> None:
    redrawn = next(s for s in range(5000) if random_layout(s, 4).seed != s)
    layout = random_layout(redrawn, 4)
    assert layout.seed > redrawn and layout.city.connected()
    assert sum(len(v) for v in BASE_PILES.values()) == 25


def test_the_overpass_links_all_four_corners() -> None:
    tiles = list(beginner_layout(1).tiles)
    tiles[c("B4")] = "overpass"  # four districts around it
    city = build_city(tuple(tiles), beginner_layout(1).rotations)
    links = {x.id: (cell_name(x.a), cell_name(x.b)) for x in city.connections if x.highway == c("B4")}
    assert links == {"B4:NE": ("A4", "B5"), "B4:SE": ("B5", "C4"), "B4:SW": ("B3", "C4"), "B4:NW": ("A4", "B3")}
    tiles[c("B4")] = "hw1"  # beside a highway tile (D3) a link is dead: C3's south side
    tiles[c("C3")] = "overpass"
    city = build_city(tuple(tiles), beginner_layout(1).rotations)
    assert sorted(x.id for x in city.connections if x.highway == c("C3")) == ["C3:NE", "C3:NW"]


# --- the police ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cops", "barricades", "stay", "moved", "dismantled"), [
    (4, 1, 2, 2, True),   # rulebook: 1 stays, 1 stopped, 2 move; the barricade goes
    (6, 2, 3, 3, True),   # 1 stays, 2 stopped (half of 5), 3 move
    (5, 3, 5, 0, True),   # 1 stays, 4 stopped by 3 barricades, all 3 go
    (2, 2, 1, 1, False),  # half of one mover rounds down to 0: nobody stopped, the barricades stay
    (3, 0, 1, 2, False),
])
def test_barricades_stop_advancing_cops(cops: int, barricades: int, stay: int, moved: int,
                                        dismantled: bool) -> None:
    state = blank(position(), W, [1])
    state.cops = [0] * 25
    state.vans = [-1] * 25
    src, dst = c("C3"), c("C4")  # Commercial District 3 → The Park (Public)
    state.cops[src] = cops
    conn = state.city.between(src, dst)[0].id
    if barricades:
        state.barricades[conn] = barricades
    pol.advance(state, state.city, lambda x: x == dst, highest=True)
    assert state.cops[src] == stay and state.cops[dst] == moved
    assert (conn not in state.barricades) == (dismantled or barricades == 0)


def test_groups_in_a_clash_and_solo_cops_hold_and_priority_picks_the_target() -> None:
    state = blank(position(), W, [1])
    state.cops, state.vans = [0] * 25, [-1] * 25
    state.cops[c("C3")] = 3  # adjacent Public districts: B3 (#20), C4 (#21) and The Stadium D2 (#23)
    state.cops[c("A3")] = 1  # solo: holds
    state.cops[c("E3")] = 4
    state.blocs[c("E3")][W] = 1  # a clash: holds
    pol.advance(state, state.city, lambda x: state.city.tile(x).type == "Public", highest=True)
    assert state.cops[c("D2")] == 2 and state.cops[c("C3")] == 1, "highest ID: The Stadium (#23)"
    assert state.cops[c("A3")] == 1 and state.cops[c("E3")] == 4
    state.cops[c("C3")], state.cops[c("D2")] = 3, 0
    pol.advance(state, state.city, lambda x: state.city.tile(x).type == "Public", highest=False)
    assert state.cops[c("B3")] == 2, "lowest ID: Street Market (#20)"


def test_reinforcements_emergency_maneuvers_retreat_and_rotation() -> None:
    state = blank(position(), W, [1])
    city = state.city
    staging = pol.staging_cops(state)
    assert staging == 18 and pol.staging_vans(state) == 2
    state.vans[c("D5")] = 1  # damaged: does not respond
    pol.reinforce(state, city, 2, highest=True)
    assert state.cops[c("D5")] == 3 and pol.staging_cops(state) == 18 - 6
    state.cops = [0] * 25
    state.cops[c("A4")] = 29  # one cop left in staging
    pol.reinforce(state, city, 1, highest=False)  # lowest ID first: Telecom (#13) gets the last one
    assert state.cops[c("A4")] == 30 and pol.staging_cops(state) == 0
    state.cops = [0] * 25
    state.vans = [-1] * 25
    state.cops[c("C3")], state.cops[c("E5")] = 1, 2
    pol.emergency(state, city)
    assert state.vans[c("E5")] == 0, "the highest-ID district with cops and no van (Supermax #18)"
    state.vans[c("B1")] = 0
    state.cops[c("D4")] = 1
    pol.maneuvers(state, city)  # 2 responding vans → the 2 highest IDs with a van or cops: E5 #18, B1 #15
    assert state.vans[c("E5")] == 0 and state.vans[c("B1")] == 0
    state.cops = [0] * 25
    state.vans = [-1] * 25
    state.cops[c("A1")], state.cops[c("A2")], state.cops[c("A5")] = 1, 1, 9
    state.blocs[c("A2")][W] = 1
    state.vans[c("A5")] = 0
    pol.retreat(state, city)
    assert state.cops[c("A1")] == 0 and state.cops[c("A2")] == 1, "a solo cop in a clash holds"
    pol.rotation(state, city)
    assert state.cops[c("A5")] == 6


def test_morale_raises_before_the_effect_and_sets_the_draws() -> None:
    state = blank(position(), W, [])
    state.police_deck = ["PO01", "PO20"]  # Heavy Reinforcements (+1 morale) on top
    state.police_discard = []
    state.last_police = []
    pol.draw_police(state, [], Rng(1))
    assert state.morale == 2 and pol.DRAWS[state.morale - 1] == 2
    assert state.police_discard == ["PO20"]


def test_chief_of_police_fired_reshuffles_and_starts_the_discard() -> None:
    state = blank(position(), W, [])
    deck_before = len(state.police_deck)
    state.police_discard = [state.police_deck.pop(0), state.police_deck.pop(0)]
    state.police_deck.remove("PO34")
    state.police_deck.append("PO34")
    pol.draw_police(state, [], Rng(3))
    assert state.police_discard == ["PO34"] and len(state.police_deck) == deck_before - 1


def test_metro_lockdown_lies_before_the_next_faction_until_its_turn_ends() -> None:
    state = blank(position(), W, [])
    me = state.faction_now()
    nxt = state.order[(state.order.index(me) + 1) % 4]
    state.police_deck.remove("PO33")
    state.police_deck.append("PO33")
    pol.draw_police(state, [], Rng(3))
    assert state.lockdown == nxt and "PO33" not in state.police_deck + state.police_discard
    home = c("B5")  # a metro district whose two streets lead into police
    state.cops[c("A5")], state.cops[c("B4")] = 1, 1
    state.blocs[home][me] = 1
    state.dice = [3]
    blocked = [state.police(x) for x in range(25)]
    by_street = set(routes_from(state.city, home, blocked, metro=False))
    assert by_street != set(routes_from(state.city, home, blocked, metro=True))
    assert {m.to for m in G.legal_moves(state, seat_of(state, me)) if m.kind == "move"} == by_street, \
        "no metro for anyone"
    events: list[Any] = []
    state.turn = state.night_order().index(nxt)
    end_turn(state, nxt, events, Rng(5))
    assert state.lockdown == -1 and "PO33" in state.police_discard + state.police_deck


# --- movement, dice, stopping, attacks ----------------------------------------------------------------------
def test_movement_never_passes_through_police_but_may_end_there() -> None:
    state = blank(position(), W, [2])
    city = state.city
    blocked = [state.police(x) for x in range(25)]
    reach = {cell_name(x) for x in routes_from(city, c("A5"), blocked, metro=False)}
    assert "A4" in reach, "Telecom Network Hub holds police: a destination"
    assert "A3" in reach and "B5" in reach
    assert "A2" not in {cell_name(x) for x in routes_from(city, c("A5"), [x == c("A4") or x == c("B4") or
                                                                                 x == c("B5") for x in range(25)],
                                                           metro=False)}
    with_metro = {cell_name(x) for x in routes_from(city, c("B5"), blocked, metro=True)}
    assert {"A3", "C2", "E1", "E4"} <= with_metro, "the metro joins every metro district"


def test_a_move_carries_the_mob_and_spends_any_die() -> None:
    state = blank(position(), W, [1, 6])
    state.blocs[c("B5")][W] = 3
    seat = seat_of(state, W)
    state, _ = G.apply(state, seat, G.parse_move("move 1 B5 A5 2"))
    assert state.blocs[c("A5")][W] == 2 and state.blocs[c("B5")][W] == 1 and state.dice == [6]
    expect_illegal(G, state, seat, "move 3 B5 A5 1", "no die showing 3")


def test_no_action_out_of_a_district_with_police() -> None:
    state = blank(position(), W, [6, 6])
    state.blocs[c("A4")][W] = 2  # Telecom Network Hub: van and cops
    moves = G.legal_moves(state, seat_of(state, W))
    assert not [m for m in moves if m.kind in ("move", "barricade", "loot", "build", "swap")]
    assert {m.kind for m in moves} >= {"defeat", "kick", "van"}


@pytest.mark.parametrize(("die", "legal"), [(3, False), (4, True), (6, True)])
def test_advanced_actions_need_a_die_at_least_the_difficulty(die: int, legal: bool) -> None:
    state = blank(position(), W, [die])
    state.blocs[c("C4")][W] = 1  # The Park, difficulty 4
    text = f"build {die} C4 kitchen"
    if legal:
        assert G.parse_move(text) in G.legal_moves(state, seat_of(state, W))
    else:
        expect_illegal(G, state, seat_of(state, W), text, "at least 4")


def test_the_faction_with_strictly_the_most_blocs_may_stop_an_advanced_action() -> None:
    state = blank(position(), W, [5, 6])
    state.blocs[c("B3")][W], state.blocs[c("B3")][S] = 1, 2  # Street Market (Public, 4)
    rig(state, 4)
    state, _ = play(state, "build 5 B3 kitchen")
    assert state.pending and state.pending[0].kind == "stop" and state.pending[0].faction == S
    assert G.to_act(state) == {seat_of(state, S)}
    assert G.decision(state, seat_of(state, S)).default == "allow"
    state, said = play(state, "stop")
    assert state.dice == [5, 6] and state.occ_owner[c("B3")] == -1, "the die goes back"
    assert not [m for m in G.legal_moves(state, seat_of(state, W)) if m.kind == "build" and m.cell == c("B3")]
    tie = blank(position(), W, [5])
    tie.blocs[c("B3")][W], tie.blocs[c("B3")][S] = 2, 2
    rig(tie, 4)
    tie, _ = play(tie, "build 5 B3 kitchen")
    assert not tie.pending and tie.occ_kind[c("B3")] == "kitchen", "a tie for the most: nobody can stop"


def test_each_bloc_attacks_once_a_night_and_a_run_ends_with_one_reaction_roll() -> None:
    state = blank(position(), W, [6, 6, 6])
    state.blocs[c("A4")][W] = 2  # Telecom Network Hub: 3 cops and a van, difficulty 6
    rig(state, 4)
    state, said = play(state, "defeat 6 A4")
    state, said = play(state, "van 6 A4")
    assert state.cops[c("A4")] == 2 and state.vans[c("A4")] == 1
    assert not [m for m in G.legal_moves(state, seat_of(state, W)) if m.kind in ("defeat", "van", "kick")], \
        "two blocs: two attacks this night"
    assert not any("Reaction" in t for t in said), "the run is still open"
    state.blocs[c("A3")][W] = 1
    state, said = play(state, "barricade 6 A3-B3")
    assert sum("Reaction roll" in t for t in said) == 1, "the run closes with one roll before the next action"


def test_three_hits_destroy_a_van_and_a_kick_tears_down_barricades() -> None:
    state = blank(position(), W, [6, 6, 6, 6])
    state.blocs[c("A4")][W] = 4
    state.barricades["A3-A4"] = 2
    for _ in range(3):
        state, _ = play(state, "van 6 A4")
    assert state.vans[c("A4")] == -1 and state.vans_box == 1 and state.vans_destroyed == 1
    state, _ = play(state, "kick 6 A4 A3-A4")
    assert state.cops[c("A3")] == 2 and state.cops[c("A4")] == 1 and "A3-A4" not in state.barricades


@pytest.mark.parametrize(("roll", "check"), [
    (1, lambda s: s.cops[c("C4")] == 1),
    (2, lambda s: len(s.last_police) == 1),
    (3, lambda s: s.cops[c("C4")] == 0 and not s.last_police),
    (6, lambda s: len(s.dice) == 1),  # People's Kitchen built: one extra die (the 5 was spent)
])
def test_reaction_rolls(roll: int, check: Any) -> None:
    state = blank(position(), W, [5])
    state.blocs[c("C4")][W] = 1
    state.last_police = []
    rig(state, roll)
    state, _ = play(state, "build 5 C4 kitchen")
    assert check(state)


def test_assembly_hall_forms_a_bloc_once_a_turn() -> None:
    state = blank(position(), W, [1, 2])
    state.occ_owner[c("B3")], state.occ_kind[c("B3")] = W, "hall"
    state.mats[W].remove("hall")
    state, _ = play(state, "hall 1")
    assert state.blocs[c("B3")][W] == 1
    assert Move_kinds(state) & {"hall"} == set()


def Move_kinds(state: BlocState) -> set[str]:  # noqa: N802 - reads as a phrase in the tests
    return {m.kind for m in G.legal_moves(state, next(iter(G.to_act(state))))}


# --- Sunrise -----------------------------------------------------------------------------------------------------
def sunrise(state: BlocState, keep_deck: bool = False) -> tuple[BlocState, list[str]]:
    """Run the last faction's end of turn into Sunrise: its police ops draw nothing (from an empty deck, or with
    ``keep_deck`` as if it had played a Radio Jammer at Timid)."""
    state.turn = len(state.order) - 1
    if keep_deck:
        state.morale, state.used = 1, {"jammer": 1}
    else:
        state.police_deck, state.police_discard = [], []
    events: list[Any] = []
    end_turn(state, state.faction_now(), events, Rng(1))
    return state, [e.text for e in events]


def test_vans_wipe_their_district_and_cops_defeat_blocs_then_occupations() -> None:
    state = blank(position(), W, [])
    state.blocs[c("A4")][W] = 5  # a van: all defeated, occupation evicted
    state.occ_owner[c("A4")], state.occ_kind[c("A4")] = W, "hall"
    state.mats[W].remove("hall")
    state.cops[c("C3")] = 3
    state.blocs[c("C3")][S] = 2  # 3 cops, 2 blocs: all defeated
    state.cops[c("C4")] = 2
    state.blocs[c("C4")][N] = 3  # 2 cops, 3 blocs of one faction: 2 defeated
    state.occ_owner[c("C4")], state.occ_kind[c("C4")] = N, "hall"
    state.mats[N].remove("hall")
    state.blocs[c("B5")][W] = 1
    state.blocs[c("C2")][S] = 1
    state.blocs[c("E1")][N] = 1
    state.blocs[c("E4")][P] = 1
    state.cops[c("B3")] = 1  # one cop, no bloc: the occupation alone goes
    state.occ_owner[c("B3")], state.occ_kind[c("B3")] = S, "kitchen"
    state.mats[S].remove("kitchen")
    state, said = sunrise(state)
    assert state.blocs[c("A4")] == [0, 0, 0, 0] and state.occ_owner[c("A4")] == -1 and "hall" in state.mats[W]
    assert state.blocs[c("C3")][S] == 0
    assert state.blocs[c("C4")][N] == 1 and state.occ_kind[c("C4")] == "hall"
    assert state.occ_owner[c("B3")] == -1
    told = [t for t in said if " in A4" in t or " in C3" in t or " in C4" in t or " in B3" in t]
    assert told == ["The van in A4 defeats 5 blocs and evicts the Workers' Assembly Hall.",
                    "3 cops in C3 defeat 2 blocs.", "1 cop in B3 evicts the Students' People's Kitchen.",
                    "2 cops in C4 defeat 2 Neighbors blocs."], said


def test_a_mixed_clash_is_split_by_the_faction_with_the_most_blocs() -> None:
    state = blank(position(), W, [])
    for f in range(4):
        state.blocs[c("E4") if f == P else c("B5") if f == W else c("C2") if f == S else c("E1")][f] = 3
    state.cops[c("C3")] = 2
    state.blocs[c("C3")][W], state.blocs[c("C3")][S] = 2, 3
    state, _ = sunrise(state)
    assert state.pending and state.pending[0].kind == "split" and state.pending[0].faction == S
    decision = G.decision(state, seat_of(state, S))
    assert decision.clock == "decision"
    # the default: one at a time from the faction with the most blocs in the city (S 6, then W and S tie at 5 and
    # 2 here: the one that played later this night, S)
    assert G.parse_move(decision.default or "").losses == (0, 2, 0, 0)
    options = {G.format_move(m) for m in G.legal_moves(state, seat_of(state, S))}
    assert options == {"split C3 W2", "split C3 W1 S1", "split C3 S2"}
    state, said = play(state, "split C3 W1 S1")
    assert state.blocs[c("C3")][W] == 1 and state.blocs[c("C3")][S] == 2


def test_splits_in_two_districts_are_asked_at_once_and_answered_in_any_order() -> None:
    """play part D2: several repression splits open at once are independent."""
    state = blank(position(), W, [])
    for f in range(4):
        state.blocs[c("E4") if f == P else c("B5") if f == W else c("C2") if f == S else c("E1")][f] = 3
    state.cops[c("C3")] = 2
    state.blocs[c("C3")][W], state.blocs[c("C3")][S] = 2, 3  # the Students choose here
    state.cops[c("D4")] = 1
    state.blocs[c("D4")][N], state.blocs[c("D4")][P] = 3, 1  # the Neighbors choose here
    state, _ = sunrise(state)
    owed = G.decisions(state)
    assert [(d.kind, d.seat, d.alongside) for d in owed] == [
        ("split", seat_of(state, S), False), ("split", seat_of(state, N), True)]
    assert owed[1].prompt == "Neighbors: 1 cop attacks in D4; choose which blocs are defeated."
    assert G.to_act(state) == {seat_of(state, S), seat_of(state, N)}
    state, said = play(state, "split D4 P1", seat=seat_of(state, N))  # the second one first
    assert said == ["Neighbors choose the losses in D4: Prisoners 1."] and state.blocs[c("D4")][P] == 1
    assert G.to_act(state) == {seat_of(state, S)}, "nothing is defeated before every split is chosen"
    state, _ = play(state, "split C3 W2", seat=seat_of(state, S))
    assert state.blocs[c("D4")][P] == 0 and state.blocs[c("C3")][W] == 0 and state.blocs[c("C3")][S] == 3


def test_every_faction_places_its_start_at_once() -> None:
    state = G.new_game(4, {"city": "beginner"}, 3)
    owed = G.decisions(state)
    assert [d.kind for d in owed] == ["start"] * 4 and [d.alongside for d in owed] == [False, True, True, True]
    assert G.to_act(state) == {0, 1, 2, 3}
    last = state.order[-1]
    state, _ = G.apply(state, state.controller[last],
                       G.parse_move(G.decision(state, state.controller[last]).default or ""))
    assert len(G.decisions(state)) == 3 and state.phase == "start"
    two = G.new_game(2, {"city": "beginner"}, 3)
    assert G.to_act(two) == {0, 1} and len(G.decisions(two)) == 2, "a player's second Start comes after the first"
    for _ in range(4):
        seat = min(G.to_act(two))
        two, _ = G.apply(two, seat, G.parse_move(G.decision(two, seat).default or ""))
    assert two.phase == "sunset" and not two.pending


def test_the_default_split_takes_from_the_faction_with_the_most_blocs_in_the_city() -> None:
    state = blank(position(), W, [])
    state.blocs[c("B5")][W] = 6  # Workers have many blocs elsewhere
    state.blocs[c("C3")][W], state.blocs[c("C3")][S] = 1, 2
    assert default_split(state, c("C3"), 2) == [1, 1, 0, 0]  # W first (7 in the city), then only S is left


def test_liberation_flips_the_tile_and_resolves_its_manifestation_card() -> None:
    state = blank(position(), W, [])
    cell = c("B5")  # Garment Sweatshop, difficulty 4: 8 blocs liberate it
    state.occ_owner[cell], state.occ_kind[cell] = W, "hall"
    state.mats[W].remove("hall")
    state.blocs[cell][W], state.blocs[cell][S] = 5, 3
    for f, home in ((S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] = 1
    state.under[cell] = "mass_looting"
    state.morale = 3
    hands = [len(h) for h in state.hands]
    state, said = sunrise(state)
    assert state.liberated[cell] and state.difficulty(cell) == 3 and state.shops[cell] == []
    assert state.morale == 2, "every manifestation card lowers morale"
    assert len(state.hands[W]) == hands[W] + 2 and len(state.hands[S]) == hands[S] + 2, "L3: 2 cards each"
    assert len(state.hands[N]) == hands[N]
    assert state.under[cell] == ""


@pytest.mark.parametrize(("card", "check"), [
    ("crowd_swells", lambda s: s.blocs[c("B5")][W] == 10),
    ("police_rout", lambda s: s.cops[c("A5")] == 0),
    ("momentum", lambda s: s.momentum[W] == 1),
    ("free_transit", lambda s: s.free_moves[W] == 1),
    ("police_demoralized", lambda s: s.morale == 1),
    ("tactical_collapse", lambda s: s.cops[c("A5")] == 0),
])
def test_manifestation_cards(card: str, check: Any) -> None:
    state = blank(position(), W, [])
    cell = c("B5")
    state.occ_owner[cell], state.occ_kind[cell] = W, "hall"
    state.mats[W].remove("hall")
    state.blocs[cell][W] = 8
    state.cops[c("A5")] = 1  # a solo cop next door
    for f, home in ((S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] = 1
    state.under[cell] = card
    state.morale = 3
    state, _ = sunrise(state)
    state = defaults(state)
    assert state.liberated[cell]
    assert check(state), card


@pytest.mark.parametrize(("level", "to_box"), [(3, False), (4, True)])
def test_riot_van_burns_sends_a_van_nearby_to_staging_or_destroys_it(level: int, to_box: bool) -> None:
    state = blank(position(), W, [])
    cell = c("B5") if level == 3 else c("A5")  # Garment Sweatshop liberates at L3, Smartphone Factory at L4
    state.occ_owner[cell], state.occ_kind[cell] = W, "kitchen"
    state.mats[W].remove("kitchen")
    state.blocs[cell][W] = 2 * state.difficulty(cell)
    state.vans[c("B4")] = 0  # a van next to B5 (A5's neighbour A4 has one from the start)
    for f, home in ((S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] = 1
    state.under[cell] = "riot_van_burns"
    state, _ = sunrise(state)
    burnt = c("B4") if level == 3 else c("A4")
    assert state.vans[burnt] == -1
    assert state.vans_box == (1 if to_box else 0) and state.vans_destroyed == (1 if to_box else 0)


def defaults(state: BlocState) -> BlocState:
    """Every open answer takes its default (as a silent table's would)."""
    while state.pending:
        seat = next(iter(G.to_act(state)))
        state, _ = G.apply(state, seat, G.parse_move(G.decision(state, seat).default or "pass"))
    return state


def liberate_with(card: str, cops: dict[str, int] | None = None, vans: tuple[str, ...] = ()) -> BlocState:
    """Workers liberate the Garment Sweatshop (B5, level 3) and its manifestation card is ``card``."""
    return liberating(card, cops, vans)[0]


def liberating(card: str, cops: dict[str, int] | None = None,
               vans: tuple[str, ...] = ()) -> tuple[BlocState, list[str]]:
    """:func:`liberate_with`, and what the Sunrise said."""
    state = blank(position(), W, [])
    cell = c("B5")
    state.occ_owner[cell], state.occ_kind[cell] = W, "hall"
    state.mats[W].remove("hall")
    state.blocs[cell][W] = 8
    for f, home in ((S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] = 1
    for where, n in (cops or {}).items():
        state.cops[c(where)] = n
    for where in vans:
        state.vans[c(where)] = 0
    state.under[cell] = card
    return sunrise(state)


def test_barricade_fever_asks_each_liberating_faction_where() -> None:
    state = liberate_with("barricade_fever")
    p = state.pending[0]
    assert p.kind == "fever" and p.faction == W and p.hits == 2
    assert G.decision(state, seat_of(state, W)).default == "wall A5-B5"
    options = {G.format_move(m) for m in G.legal_moves(state, seat_of(state, W))}
    assert {"wall A5-B5", "wall B4-B5", "pass"} <= options
    state, _ = play(state, "wall B4-B5")
    state, _ = play(state, "wall B4-B5")
    assert state.barricades == {"B4-B5": 2} and not state.pending and state.night == 2


def test_police_rout_lets_the_earliest_liberator_pick_the_cops() -> None:
    state = liberate_with("police_rout", cops={"A5": 1, "B4": 3})
    assert [m.cell for m in G.legal_moves(state, seat_of(state, W))] == [c("A5"), c("B4")]
    assert G.decision(state, seat_of(state, W)).default == "rout A5", "the district itself, then by police ID"
    state, _ = play(state, "rout B4")
    state, _ = play(state, "rout B4")
    assert state.cops[c("B4")] == 1 and state.cops[c("A5")] == 1


def test_a_manifestation_announces_what_will_happen_not_more() -> None:
    """Police Rout at level 3 sends 2 cops, but only 1 stands in or around B5: the card says 1. Squatting Wave names
    the factions that can build (the Workers alone liberate here); with no cop around, the rout says so."""
    state, said = liberating("police_rout", cops={"A5": 1})
    assert "Police Rout: 1 cop from B5 and around goes to staging." in said and state.pending[0].hits == 1
    state, said = liberating("police_rout")
    assert "Police Rout: no cop in or around B5." in said and not state.pending
    state, said = liberating("squatting_wave")
    assert "Workers may build an occupation next to B5, free." in said


def test_riot_van_burns_asks_which_van_when_several_are_in_range() -> None:
    state = liberate_with("riot_van_burns", vans=("A5", "B4"))
    assert {G.format_move(m) for m in G.legal_moves(state, seat_of(state, W))} == {"burn A5", "burn B4"}
    state, _ = play(state, "burn B4")
    assert state.vans[c("B4")] == -1 and state.vans[c("A5")] == 0 and state.vans_box == 0


def test_squatting_wave_builds_a_free_occupation_next_door() -> None:
    state = liberate_with("squatting_wave")
    options = {G.format_move(m) for m in G.legal_moves(state, seat_of(state, W))}
    assert "squat A5 kitchen" in options and "pass" in options, options
    assert G.decision(state, seat_of(state, W)).default == "pass"
    state, _ = play(state, "squat A5 kitchen")
    assert state.occ_kind[c("A5")] == "kitchen" and "kitchen" not in state.mats[W]


def test_a_whistleblower_reveal_may_discard_then_order() -> None:
    state = blank(position(), W, [])
    homes(state)
    build_here(state, W, "A5", "kitchen")  # Smartphone Factory, difficulty 5: 10 blocs liberate it (level 4)
    state.blocs[c("A5")][W], state.blocs[c("A5")][S] = 6, 4
    state.under[c("A5")] = "whistleblower"
    top = state.police_deck[-3:][::-1]
    state, said = sunrise(state, keep_deck=True)
    p = state.pending[0]
    assert p.kind == "reveal" and p.cards == top and p.hits == 1 and p.faction == W  # level 4: 3 cards, 1 discard
    state, _ = play(state, "drop 2")
    assert top[1] in state.police_discard
    assert state.pending[0].kind == "scan" and not G.decisions(state)[0].private
    assert G.decisions(state)[0].prompt == "Workers: put the revealed police ops cards back on top in the order you " \
        "choose.", "a revealed order, not a Police Scanner's"
    state, said = play(state, "order 2 1")
    assert state.police_deck[-2:][::-1] == [top[2], top[0]] and state.night == 2


def test_the_game_ends_in_a_loss_when_a_faction_has_no_bloc_left() -> None:
    state = blank(position(), W, [])
    state.blocs[c("B5")][W] = 1
    state.blocs[c("C2")][S] = 1
    state.blocs[c("E1")][N] = 1
    state, said = sunrise(state)
    assert state.outcome == "loss" and "Prisoners have no bloc" in state.reason
    assert G.result(state).winners == frozenset() and G.result(state).cooperative


def test_occupying_every_state_district_wins_together() -> None:
    state = blank(position(), W, [])
    for f, home in ((W, "B5"), (S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] = 1
    state.cops = [0] * 25
    state.vans = [-1] * 25
    for f, cell in ((W, "B1"), (S, "A4"), (N, "D5")):
        state.occ_owner[c(cell)], state.occ_kind[c(cell)] = f, "kitchen"
        state.mats[f].remove("kitchen")
    state, said = sunrise(state)
    assert state.outcome == "win" and G.result(state).winners == frozenset(range(4))


def test_time_runs_out_on_the_last_night() -> None:
    state = blank(position(), W, [])
    for f, home in ((W, "B5"), (S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] = 1
    state.countdown = 1
    state, said = sunrise(state)
    assert state.outcome == "loss" and "military" in state.reason
    state = blank(position(), W, [])
    for f, home in ((W, "B5"), (S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] = 1
    state, said = sunrise(state)
    assert not state.outcome and state.night == 2 and state.countdown == 7 and state.phase == "sunset"


# --- setup ----------------------------------------------------------------------------------------------------------
def test_setup_deploys_police_and_asks_each_faction_for_its_start() -> None:
    state = G.new_game(4, {"city": "beginner"}, 3)
    assert sum(state.cops) == 12 and sum(1 for v in state.vans if v >= 0) == 4
    assert {cell_name(x) for x in range(25) if state.vans[x] >= 0} == {"B1", "A4", "D5", "D2"}
    assert [p.kind for p in state.pending] == ["start"] * 4
    first = state.pending[0].faction
    decision = G.decisions(state)[0]
    assert decision.seat == state.controller[first] and decision.default
    assert all(len(state.hands[f]) == 2 for f in range(4))
    two = G.new_game(2, {}, 3)
    assert sorted(two.controller) == [0, 0, 1, 1]
    assert [two.controller[f] for f in two.order] == [0, 1, 0, 1], "seats alternate players"
    three = G.new_game(3, {}, 3)
    assert sorted(three.controller) == [-1, 0, 1, 2]
    assert "d23" in three.tiles and "d12" not in three.tiles
    beginner = G.new_game(3, {"beginner": True}, 3)
    assert beginner.countdown == 8 and "PO18" not in beginner.police_deck and "PO17" in beginner.police_deck


def test_a_start_goes_in_an_own_district_with_an_empty_circle() -> None:
    state = G.new_game(4, {"city": "beginner"}, 3)
    f = state.pending[0].faction
    seat = state.controller[f]
    own = {cell_name(m.cell) for m in G.legal_moves(state, seat)}
    assert all(state.city.tile(c(x)).type == ("Workers", "Students", "Neighbors", "Prisoners")[f] for x in own)
    assert len(own) == 3
    with pytest.raises(IllegalMoveError):
        G.apply(state, seat, G.parse_move("start C3"))


def test_notation_round_trips_and_reads_forgivingly() -> None:
    assert G.format_move(G.parse_move("MOVE 3 b3 c4 2")) == "move 3 B3 C4 2"
    assert G.format_move(G.parse_move("barricade 2 c3-b3")) == "barricade 2 B3-C3"
    assert G.format_move(G.parse_move("split c3 s1 w1")) == "split C3 W1 S1"
    assert G.parse_move("loot 5 A3 burn").burn


def test_pending_kinds_have_their_defaults() -> None:
    state = blank(position(), W, [])
    state.pending = [Pending("stop", S, cell=c("B3"), action="build 5 B3 kitchen")]
    d = G.decisions(state)[0]
    assert d.kind == "stop" and d.default == "allow" and d.clock == "decision"


# --- loot cards of your turn (cards part C2) ----------------------------------------------------------------
def give(state: BlocState, faction: int, *cards: str) -> None:
    for card in cards:
        state.loot_deck.remove(card)
        state.hands[faction].append(card)


def build_here(state: BlocState, faction: int, cell: str, kind: str, liberated: bool = False) -> None:
    state.occ_owner[c(cell)], state.occ_kind[c(cell)] = faction, kind
    if kind in state.mats[faction]:
        state.mats[faction].remove(kind)
    state.liberated[c(cell)] = liberated


@pytest.mark.parametrize(("text", "cops", "van"), [
    ("defeat 6 A4 molotov2", 0, 0),          # 1 + 2 hits: all 3 cops
    ("defeat 6 A4 molotov1", 1, 0),
    ("van 6 A4 molotov2", 3, -1),             # an undamaged van destroyed
    ("van 6 A4 molotov1", 3, 2),
])
def test_molotovs_add_hits_to_an_attack(text: str, cops: int, van: int) -> None:
    state = blank(position(), W, [6])
    state.blocs[c("A4")][W] = 1
    give(state, W, "molotov1", "molotov2")
    state, _ = play(state, text)
    assert state.cops[c("A4")] == cops and state.vans[c("A4")] == van
    assert G.parse_move(text).molotovs[0] in state.loot_discard


def test_the_molotov_factory_adds_two_once_a_turn() -> None:
    state = blank(position(), P, [6, 6])
    state.blocs[c("A4")][P] = 2
    state.cops[c("A4")] = 6
    build_here(state, P, "E4", "factory")
    give(state, P, "molotov1", "molotov1")
    state, _ = play(state, "defeat 6 A4 molotov1")  # 1 + 1 + 2 = 4 cops
    assert state.cops[c("A4")] == 2
    state, _ = play(state, "defeat 6 A4 molotov1")  # the Factory is spent this turn: 2 hits
    assert state.cops[c("A4")] == 0


def test_a_crowbar_lets_any_die_pay_an_advanced_action_and_comes_back_if_stopped() -> None:
    state = blank(position(), W, [2])
    state.blocs[c("C4")][W], state.blocs[c("C4")][S] = 1, 2
    give(state, W, "crowbar")
    assert G.parse_move("build 2 C4 kitchen crowbar") in G.legal_moves(state, seat_of(state, W))
    state, _ = play(state, "build 2 C4 kitchen crowbar")
    state, _ = play(state, "stop")
    assert state.hands[W] == ["crowbar"] and state.dice == [2]
    state = blank(position(), W, [2])
    state.blocs[c("C4")][W] = 1
    give(state, W, "crowbar")
    rig(state, 4)
    state, _ = play(state, "build 2 C4 kitchen crowbar")
    assert state.occ_kind[c("C4")] == "kitchen" and "crowbar" in state.loot_discard and not state.hands[W]


def test_energy_drinks_jammer_and_megaphone() -> None:
    state = blank(position(), W, [3, 5])
    build_here(state, W, "C4", "hall")
    give(state, W, "energy", "jammer", "megaphone")
    state, _ = play(state, "energy 5")
    assert state.dice == [3, 6]
    state, _ = play(state, "megaphone C4")
    assert state.blocs[c("C4")][W] == 1
    state, _ = play(state, "jammer")
    state.morale = 2  # Alert: 2 cards, one fewer
    state, said = play(state, "end")
    assert any("1 police ops card" in t and "Radio Jammer" in t for t in said)


def test_bicycles_and_change_of_clothes_move_without_a_die() -> None:
    state = blank(position(), W, [1])
    state.blocs[c("B5")][W] = 2
    state.blocs[c("A4")][W] = 3  # in a clash with Telecom's police
    give(state, W, "bicycles", "clothes")
    state, _ = play(state, "bicycles B5 C2 2")
    assert state.blocs[c("C2")][W] == 2 and state.dice == [1]
    assert G.parse_move("clothes A4 A5 3") not in G.legal_moves(state, seat_of(state, W)), "up to 2 blocs"
    state, _ = play(state, "clothes A4 A5 2")
    assert state.blocs[c("A5")][W] == 2 and state.blocs[c("A4")][W] == 1


def test_dumpster_barricade_and_fireworks() -> None:
    state = blank(position(), W, [1])
    state.blocs[c("B3")][W] = 1
    state.blocs[c("A4")][W] = 1
    give(state, W, "dumpster", "fireworks")
    state, _ = play(state, "dumpster B3-C3 B3-C3")
    assert state.barricades == {"B3-C3": 2}
    state.barricades["A3-A4"] = 1
    rig(state, 4)
    state, said = play(state, "fireworks A4 A3-A4 2")
    assert state.cops[c("A4")] == 1 and state.cops[c("A3")] == 2 and "A3-A4" not in state.barricades
    assert any("Reaction roll 4" in t for t in said), "Fireworks makes its own reaction roll"


def test_police_scanner_reorders_the_top_three_privately() -> None:
    state = blank(position(), W, [1])
    give(state, W, "scanner")
    top3 = state.police_deck[-3:][::-1]
    state, said = play(state, "scanner")
    assert not any(pol.CARDS[x].name in " ".join(said) for x in top3), "the look is private"
    decision = G.decisions(state)[0]
    assert decision.kind == "scan" and decision.private and decision.seat == seat_of(state, W)
    assert len(G.legal_moves(state, seat_of(state, W))) == 6
    state, _ = play(state, "order 3 1 2")
    assert state.police_deck[-3:][::-1] == [top3[2], top3[0], top3[1]]


def test_lookouts_reroll_the_reaction_die_and_the_turn_carries_on() -> None:
    state = blank(position(), W, [6, 6])
    state.blocs[c("A4")][W] = 2
    give(state, W, "lookouts")
    state.blocs[c("B3")][W] = 1
    rig(state, 1, 4)  # the run's roll is a 1 (a cop would come), the reroll a 4
    state, _ = play(state, "defeat 6 A4")
    state, said = play(state, "barricade 6 B3-C3")  # closes the run: the roll waits for Lookouts
    assert state.pending[0].kind == "lookout" and state.pending[0].hits == 1 and "B3-C3" not in state.barricades
    assert G.decision(state, seat_of(state, W)).default == "accept"
    cops = state.cops[c("A4")]
    state, said = play(state, "reroll")
    assert state.cops[c("A4")] == cops, "the new roll (4) stands: no cop"
    assert state.barricades == {"B3-C3": 1}, "then the barricade that closed the run is built"
    assert "lookouts" in state.loot_discard


# --- occupation abilities (play part D1) -------------------------------------------------------------------------
def test_propaganda_workshop_draws_free_cards_and_untaken_ones_at_the_end() -> None:
    state = blank(position(), W, [1])
    build_here(state, W, "B5", "workshop", liberated=True)  # liberated: 2 a turn
    state, _ = play(state, "workshop")
    assert len(state.hands[W]) == 1 and Move_kinds(state) >= {"workshop"}
    state, _ = play(state, "end")
    assert len(state.hands[W]) == 2, "the untaken draw is taken when step 2 ends"


def test_hacker_space_draws_two_and_keeps_one() -> None:
    state = blank(position(), S, [1])
    build_here(state, S, "C2", "hacker")
    state, _ = play(state, "hacker 1")
    p = state.pending[0]
    assert p.kind == "keep" and len(p.cards) == 2 and G.decisions(state)[0].private
    card = p.cards[0]
    state, _ = play(state, f"discard {card}")
    assert len(state.hands[S]) == 1 and card in state.loot_discard and not state.pending


def test_scavengers_hideout_draws_three_keeps_two_then_the_reaction_roll() -> None:
    state = blank(position(), P, [6])
    state.blocs[c("C3")][P] = 1  # Commercial District 3: shops, difficulty 3
    build_here(state, P, "E4", "hideout")
    rig(state, 1)
    state, said = play(state, "loot 6 C3")
    assert state.pending[0].kind == "keep" and len(state.pending[0].cards) == 3
    assert state.cops[c("C3")] == 0, "no roll before the choice"
    state, said = play(state, f"discard {state.pending[0].cards[0]}")
    assert len(state.hands[P]) == 2 and state.cops[c("C3")] == 1, "the roll (1) after it: a cop arrives"


def test_comrade_cafe_makes_graffiti_loots_basic_but_still_stoppable() -> None:
    state = blank(position(), N, [1])
    state.blocs[c("C3")][N] = 1
    build_here(state, N, "E1", "cafe")
    moves = G.legal_moves(state, seat_of(state, N))
    assert G.parse_move("loot 1 C3") in moves
    state, said = play(state, "loot 1 C3")
    assert not any("Reaction roll" in t for t in said)
    state = blank(position(), N, [1])
    state.blocs[c("C3")][N], state.blocs[c("C3")][W] = 1, 2
    build_here(state, N, "E1", "cafe")
    state, _ = play(state, "loot 1 C3")
    assert state.pending and state.pending[0].kind == "stop"


def test_strike_hall_makes_building_around_it_basic() -> None:
    state = blank(position(), W, [1])
    build_here(state, W, "B4", "strike")
    state.blocs[c("C4")][W] = 1  # The Park, adjacent to B4
    state.blocs[c("B1")][W] = 0
    state, said = play(state, "build 1 C4 kitchen")
    assert state.occ_kind[c("C4")] == "kitchen" and not any("Reaction roll" in t for t in said)
    assert G.parse_move("build 1 B3 hall") not in G.legal_moves(state, seat_of(state, W)), "not adjacent"


def test_guerrilla_garden_places_three_barricades_with_one_die() -> None:
    state = blank(position(), N, [1])
    build_here(state, N, "E1", "garden")
    state.blocs[c("E1")][N] = 1
    state, _ = play(state, "garden 1 D1-E1 D1-E1 E1-E2")
    assert state.barricades == {"D1-E1": 2, "E1-E2": 1}


def test_social_center_gives_a_free_movement() -> None:
    state = blank(position(), S, [4])
    build_here(state, S, "C2", "center")
    state.blocs[c("C2")][S] = 2
    state, _ = play(state, "move 0 C2 C1 1")
    assert state.blocs[c("C1")][S] == 1 and state.dice == [4]
    assert not [m for m in G.legal_moves(state, seat_of(state, S)) if m.kind == "move" and m.die == 0]


# --- the Sunrise windows ----------------------------------------------------------------------------------------
def homes(state: BlocState) -> None:
    for f, home in ((W, "B5"), (S, "C2"), (N, "E1"), (P, "E4")):
        state.blocs[c(home)][f] += 1


def test_shield_wall_and_paint_bombs_in_the_repression_window() -> None:
    state = blank(position(), W, [])
    homes(state)
    state.blocs[c("C3")][W] = 3
    state.cops[c("C3")] = 3
    state.blocs[c("A4")][W] = 2  # Telecom: a van and 3 cops
    give(state, W, "shield", "paint")
    state, _ = sunrise(state)
    assert state.pending[0].kind == "window" and G.decisions(state)[0].default == "pass"
    state, _ = play(state, "shield C3")
    state, _ = play(state, "paint A4")
    while state.pending and state.pending[0].kind == "window":
        state, _ = play(state, "pass")
    assert state.blocs[c("C3")][W] == 2, "one cop of three attacks"
    assert state.blocs[c("A4")][W] == 0, "the van held back, its 3 cops still attack"


def test_a_pass_in_a_window_is_told() -> None:
    """A pass may be all a move does (the window asks the next holder): its board must still say what happened."""
    state = blank(position(), W, [])
    homes(state)
    state.blocs[c("C3")][W] = 3
    state.cops[c("C3")] = 3
    give(state, W, "shield")
    state, _ = sunrise(state)
    assert state.pending[0].kind == "window"
    state, said = play(state, "pass")
    assert said[0] == "Workers play no card in the Police Repression window."


def test_a_medic_kit_saves_two_defeated_blocs_at_an_occupation() -> None:
    state = blank(position(), W, [])
    homes(state)
    build_here(state, W, "C4", "hall")
    state.blocs[c("C3")][W] = 3
    state.cops[c("C3")] = 3
    give(state, W, "medic")
    state, _ = sunrise(state)
    state, _ = play(state, "medic C3")
    while state.pending and state.pending[0].kind == "window":
        state, _ = play(state, "pass")
    assert [p.kind for p in state.pending] == ["place", "place"]
    assert G.decisions(state)[0].default == "place B5", "unanswered: the occupation with the lowest police ID"
    state, _ = play(state, "place C4")
    state, _ = play(state, "place C4")
    assert state.blocs[c("C4")][W] == 2 and state.blocs[c("C3")][W] == 0


def test_banner_drop_counts_two_more_blocs_and_communique_raises_the_level() -> None:
    state = blank(position(), W, [])
    homes(state)
    cell = c("B5")  # difficulty 4: 8 blocs, or 6 and a Banner Drop
    build_here(state, W, "B5", "kitchen")
    state.blocs[cell][W] = 6
    state.under[cell] = "barricade_fever"
    give(state, W, "banner", "communique")
    state, _ = sunrise(state)
    state, _ = play(state, "banner B5")
    while state.pending and state.pending[0].kind == "window":
        state, _ = play(state, "pass")
    assert state.liberated[cell] and state.pending[0].kind == "communique"
    state, _ = play(state, "communique")
    assert state.pending[0].kind == "fever" and state.pending[0].hits == 3, "level 4 instead of 3: 3 barricades"
    assert "communique" in state.loot_discard


def test_a_gift_goes_to_a_faction_sharing_a_district_and_says_only_how_many() -> None:
    state = blank(position(), W, [1])
    give(state, W, "molotov1", "energy")
    state.blocs[c("C3")][W] = 1
    assert not [m for m in G.legal_moves(state, seat_of(state, W)) if m.kind == "give"], "nobody shares a district"
    state.blocs[c("C3")][S] = 1
    moves = [m for m in G.legal_moves(state, seat_of(state, W)) if m.kind == "give"]
    assert {G.format_move(m) for m in moves} == {"give S molotov1", "give S energy"}
    assert G.text.describe_move(state, seat_of(state, W), moves[0]) == "Give Energy Drinks to the Students"
    state, said = play(state, "give S energy")
    assert state.hands[S] == ["energy"] and state.hands[W] == ["molotov1"]
    assert said == ["Workers give a loot card to the Students."], "the card stays secret"


def sharing(seats: int = 4) -> BlocState:
    """The Workers act with a 1; the Students share C3 with them; both hold cards."""
    state = blank(position(seats), W, [1])
    give(state, W, "molotov1", "energy")
    give(state, S, "medic", "banner")
    state.blocs[c("C3")][W] = state.blocs[c("C3")][S] = 1
    state.blocs[c("B5")][W] = 2
    return state


def test_the_other_side_may_give_during_the_turn_and_nothing_waits_for_it() -> None:
    state = sharing()
    w, s = seat_of(state, W), seat_of(state, S)
    owed = {d.seat: d for d in G.decisions(state)}
    assert owed[s].kind == "exchange" and owed[s].optional and owed[s].default is None
    assert G.to_act(state) == {w} and G.may_act(state) == {w, s}, "the turn does not wait for the Students"
    assert {G.format_move(m) for m in G.legal_moves(state, s) if m.kind == "give"} == {
        "give W banner from S", "give W medic from S"}
    state, said = play(state, "give W medic from S", seat=s)
    assert state.hands[W] == ["molotov1", "energy", "medic"] and state.hands[S] == ["banner"]
    assert said == ["Students give a loot card to the Workers."]
    assert state.dice == [1] and G.acting_faction(state) == W, "the Workers' turn goes on untouched"
    for seat in (seat_of(state, N), seat_of(state, P)):  # no share, no exchange
        assert G.decision(state, seat) is None and not G.legal_moves(state, seat)
        with pytest.raises(IllegalMoveError):
            G.apply(state, seat, G.parse_move("give W medic from S"))


def test_a_trade_offer_is_answered_alongside_the_turn() -> None:
    state = sharing()
    w, s = seat_of(state, W), seat_of(state, S)
    offers = {G.format_move(m) for m in G.legal_moves(state, w) if m.kind == "offer"}
    assert {"offer S molotov1 for 1", "offer S energy molotov1 for 2", "offer S energy for 1"} <= offers
    assert len(offers) == 3 * 2, "each set of my cards, for 1 or 2 of theirs"
    state, said = play(state, "offer S molotov1 for 1")
    assert said == ["Workers offer the Students a trade (#1): 1 card for 1."], "what is offered stays private"
    answer = G.decision(state, s)
    assert answer is not None and answer.kind == "trade" and answer.alongside and answer.private
    assert answer.default == "decline 1" and answer.clock == "decision" and "Molotovs +1" in answer.prompt
    assert G.to_act(state) == {w, s}
    assert {G.format_move(m) for m in G.legal_moves(state, s)} == {"accept 1 banner", "accept 1 medic", "decline 1"}
    state, _ = play(state, "move 1 B5 A5 1")  # the Workers play on meanwhile
    state, said = play(state, "accept 1 medic", seat=s)
    assert sorted(state.hands[W]) == ["energy", "medic"] and sorted(state.hands[S]) == ["banner", "molotov1"]
    assert said == ["Students accept trade #1: 1 card to the Students, 1 to the Workers."]
    assert not state.offers and G.to_act(state) == {w}


def test_an_offer_is_declined_replaced_or_lapses() -> None:
    state = sharing()
    s = seat_of(state, S)
    state, _ = play(state, "offer S molotov1 for 1")
    state, said = play(state, "offer S energy for 2")
    assert [o.id for o in state.offers] == [2] and "replaces their offer #1" in said[0]
    state, said = play(state, "decline 2", seat=s)
    assert not state.offers and said == ["Students decline trade #2."]
    with pytest.raises(IllegalMoveError, match="no open trade offer #2"):
        G.apply(state, s, G.parse_move("accept 2 medic"))
    # the offered card leaves the hand: the offer lapses
    state.blocs[c("A4")][W] = 1
    state.dice = [6]
    state, _ = play(state, "offer S molotov1 for 1")
    state, said = play(state, "defeat 6 A4 molotov1")
    assert not state.offers and not any("#3" in x for x in said), "quietly: a notice would show the offered card"
    # the turn ends: the open offers lapse
    state, _ = play(state, "offer S energy for 1")
    state, said = play(state, "end")
    assert not state.offers and "Trade offer #4 lapses: the turn's actions ended." in said


def test_a_trade_needs_the_shared_district_when_accepted() -> None:
    state = sharing()
    s = seat_of(state, S)
    state, _ = play(state, "offer S molotov1 for 1")
    state, _ = play(state, "move 1 C3 B3 1")  # the Workers leave the district they shared
    assert [G.format_move(m) for m in G.legal_moves(state, s)] == ["decline 1"]
    with pytest.raises(IllegalMoveError, match="no longer share a district"):
        G.apply(state, s, G.parse_move("accept 1 medic"))


def test_the_other_side_may_offer_and_the_acting_faction_answers_in_its_turn() -> None:
    state = sharing()
    w, s = seat_of(state, W), seat_of(state, S)
    state, said = play(state, "offer W banner medic for 1 from S", seat=s)
    assert said == ["Students offer the Workers a trade (#1): 2 cards for 1."]
    assert G.to_act(state) == {w}, "the acting faction answers in its own turn"
    assert {"accept 1 energy", "accept 1 molotov1", "decline 1"} <= {G.format_move(m) for m in G.legal_moves(state, w)}
    state, _ = play(state, "accept 1 energy")
    assert sorted(state.hands[W]) == ["banner", "medic", "molotov1"] and state.hands[S] == ["energy"]


def test_two_players_give_between_their_own_factions_and_trade_only_with_the_other_player() -> None:
    state = sharing(2)
    w = seat_of(state, W)
    mine = next(f for f in (S, N, P) if state.controller[f] == w)
    other = next(f for f in (S, N, P) if state.controller[f] != w)
    give(state, mine, "scanner")
    state.blocs[c("C3")][mine] = 1
    moves = {G.format_move(m) for m in G.legal_moves(state, w)}
    letter = "WSNP"[mine]
    assert f"give W scanner from {letter}" in moves, "the player's other faction gives in the same panel"
    assert not any(m.startswith(f"offer {letter}") for m in moves), "no trade with oneself"
    if other == S:
        assert any(m.startswith("offer S") for m in moves)
    state, said = play(state, f"give W scanner from {letter}")
    assert "scanner" in state.hands[W] and said == [f"{FACTIONS[mine]} give a loot card to the Workers."]


def test_offers_of_a_big_hand_are_checked_without_listing_them_and_the_menu_offers_single_cards() -> None:
    """Every set of one's cards may be offered, so a hand of 12 kinds has thousands of offers: a move is checked
    directly, the menu lists one card at a time (more are typed), and bots see none."""
    state = sharing()
    kinds = ["bicycles", "clothes", "crowbar", "dumpster", "fireworks", "jammer", "lookouts", "megaphone", "paint",
             "scanner"]
    give(state, W, *kinds)
    w, s = seat_of(state, W), seat_of(state, S)
    big = G.parse_move("offer S bicycles clothes crowbar dumpster energy molotov1 for 2")
    assert G.is_legal(state, w, big)
    assert not G.is_legal(state, w, G.parse_move("offer S bicycles medic for 1")), "not the Workers' card"
    assert not G.is_legal(state, w, G.parse_move("offer S bicycles for 3")), "the Students hold 2 cards"
    assert not G.is_legal(state, s, G.parse_move("offer W medic for 1")), "the other side says `from S`"
    assert G.is_legal(state, s, G.parse_move("offer W medic for 1 from S"))
    menu = [m for m in G.menu_moves(state, w) if m.kind == "offer"]
    assert len(menu) == 12 * 2 and all(len(m.extra) == 1 for m in menu), "12 cards, for 1 or 2 of theirs"
    assert not [m for m in G.search_moves(state, w) if m.kind in ("offer", "give")]
    after, said = play(state, G.format_move(big))
    assert said == ["Workers offer the Students a trade (#1): 6 cards for 2."]
    assert G.search_moves(after, s) == [m for m in G.legal_moves(after, s) if m.kind == "accept"], "a bot accepts"
    assert G.normalise_move(state, w, G.parse_move("give S medic from W")) == G.parse_move("give S medic")


def test_offers_are_seen_only_by_their_two_sides() -> None:
    state = sharing()
    w, s, n = seat_of(state, W), seat_of(state, S), seat_of(state, N)
    state, _ = play(state, "offer S molotov1 for 1")
    public = G.view(state, None)["offers"]
    assert public == [{"id": 1, "by": W, "to": S, "cards": 1, "want": 1, "names": []}]
    assert G.view(state, s)["offers"][0]["names"] == ["Molotovs +1"]
    assert G.view(state, w)["offers"][0]["names"] == ["Molotovs +1"]
    assert G.view(state, n)["offers"][0]["names"] == []
    assert "offers" in G.private_info(state, s) and "offers" not in G.private_info(state, n), "the Students hear of it"
    for seed in range(20):  # a search from the Students' view knows where the offered card is
        det = G.determinize(state, s, Rng(seed))
        assert "molotov1" in det.hands[W] and det.hands[S] == state.hands[S]
        other = G.determinize(state, n, Rng(seed))
        assert all(other.hands[W].count(x) >= other.offers[0].cards.count(x) for x in other.offers[0].cards)


def test_exchanges_wait_while_a_decision_is_open_and_say_why() -> None:
    state = sharing()
    s = seat_of(state, S)
    state.pending = [Pending("stop", N, cell=c("B3"), action="build 5 B3 kitchen")]
    assert G.decision(state, s) is None and G.may_act(state) == {seat_of(state, N)}
    assert "only during a faction's actions" in G.why_illegal(state, s, G.parse_move("give W medic from S"))


def test_private_info_is_the_seats_hands_only() -> None:
    """The platform DMs a player when this changes: their hand, not every move of the city."""
    state = blank(position(2), W, [1, 2])
    state.blocs[c("B5")][W] = 2
    give(state, W, "energy")
    seat = seat_of(state, W)
    before = G.private_info(state, seat)
    assert before["Workers"] == ["energy"] and len(before) == 2  # the seat plays two factions
    after, _ = G.apply(state, seat, G.parse_move("move 1 B5 A5 1"))
    assert G.private_info(after, seat) == before
    after, _ = G.apply(after, seat, G.parse_move("energy 2"))
    assert G.private_info(after, seat) != before


def test_a_search_keeps_the_cards_an_open_question_shows() -> None:
    """A crowbar declared with a build that waits on a stop, and a Communiqué its holder is asked to play, stay in
    their hands in every determinization: a search must be able to play on from there."""
    state = blank(position(), W, [2])
    give(state, W, "crowbar")
    give(state, N, "communique")
    state.pending = [Pending("stop", S, cell=c("B3"), action="build 2 B3 kitchen crowbar"),
                     Pending("communique", N, cell=c("B3"))]
    s = seat_of(state, S)
    for seed in range(20):
        det = G.determinize(state, s, Rng(seed))
        assert "crowbar" in det.hands[W] and "communique" in det.hands[N]


def test_a_search_does_not_see_the_cards_another_faction_is_choosing_from() -> None:
    """Cards drawn to keep some, and police cards seen with a Police Scanner, are the choosing faction's alone: in
    another seat's determinization they are redrawn like a hand."""
    state = blank(position(), W, [2])
    drawn = [state.loot_deck.pop(), state.loot_deck.pop()]
    seen = [state.police_deck.pop() for _ in range(3)]
    state.pending = [Pending("keep", W, cards=list(drawn))]
    s = seat_of(state, S)
    keeps = {tuple(G.determinize(state, s, Rng(seed)).pending[0].cards) for seed in range(30)}
    assert len(keeps) > 1
    assert G.determinize(state, seat_of(state, W), Rng(1)).pending[0].cards == drawn, "the chooser knows them"
    state.pending = [Pending("scan", W, cards=list(seen))]
    scans = {tuple(G.determinize(state, s, Rng(seed)).pending[0].cards) for seed in range(30)}
    assert len(scans) > 1 and all(len(x) == 3 for x in scans)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_factions_turn_says_who_plays_it(players: int) -> None:
    """The dice roll that opens a faction's turn names the seat playing it, and so does the status line, so the
    channel can follow which player (or bot) did what (the table service fills in the names)."""
    from engine.base import name_seats

    state = G.new_game(players, G.resolve_options({}), 11)
    names = [f"seat{i}" for i in range(players)]
    rolls = 0
    for _ in range(400):
        if G.is_over(state) or rolls >= 2 * len(state.order):
            break
        seat = min(G.to_act(state))
        if not state.pending and state.phase == "sunset":
            f = state.faction_now()
            line = name_seats(G.text.status_line(state), names)
            assert line.endswith(f"{FACTIONS[f]} (seat{state.controller[f]}) to act")
        state, events = G.apply(state, seat, G.legal_moves(state, seat)[-1])
        for e in events:
            m = re.match(r"Night \d+: (\w+), played by \{p(\d)\}, roll [1-6 ]+\.$", e.text)
            if e.kind == "dice":
                assert m is not None, e.text
                assert state.controller[FACTIONS.index(m.group(1))] == int(m.group(2))
                rolls += 1
    assert rolls >= len(state.order), "every faction's turn began"
