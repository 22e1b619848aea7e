"""Bloc by Bloc's bots play for the scenario's goal and for their own agenda (issue 25): in constructed positions the
hard and the medium bot choose the goal's move (a highway barricade, a burn, a van attack, an occupation in one's
own district, blocs sent in to liberate, cops cleared from an Autonomous Zone) and a Win Alone agenda's move (the
Nihilist's last burn, the Vanguardist's third State district, built or swapped from a rival) where the cooperative
game would play otherwise; Asymmetrical Struggle's State district swapped to a faction without one; a rival's swap
of the Vanguardist's occupation stopped (a partner's allowed in the fully cooperative game);
finished games are scored per seat when the winners are a subset; and bots of every level play a game of every
scenario, player count and mode to its end with legal moves only.

Positions are found on each scenario's own city (cells chosen from its geometry, not named), so a change of city
seed keeps them meaningful."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bots import DEFAULT_BUDGET_MS, choose
from bots.blocbybloc import WON, city_geo, forecast, seat_value
from bots.blocbybloc_plan import plan
from bots.mcts import _value, search
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.city import cell_name
from engine.blocbybloc.model import BlocState
from engine.blocbybloc.scenarios import SCENARIOS, goal_met
from engine.rng import Rng
from tests.botplay.test_blocbybloc_bots import hold, starts_placed

G = BlocByBloc()


def started(scenario: str = "none", seats: int = 2, mode: str = "coop", seed: int = 5) -> BlocState:
    """A new game past the Starts' placing (each by its default), on Hard, at the first faction's turn."""
    options = {"mode": mode} if scenario == "none" else {"scenario": scenario, "mode": mode}
    state = starts_placed(G.new_game(seats, G.resolve_options(options), seed))
    assert state.phase == "sunset"
    return state


def arrange(state: BlocState, dice: list[int], blocs: dict[int, int], *, clear: tuple[int, ...] = (),
            hand: tuple[str, ...] = ()) -> int:
    """The acting faction holds ``blocs`` (cell → count) and ``hand`` and rolled ``dice``; every other faction keeps
    blocs enough at its Start to hold it against the cops next door (no partner's fate weighs on the choice); the
    police leave the ``clear`` districts. Returns the acting faction."""
    f = state.faction_now()
    geo = city_geo(state)
    state.blocs = [[0, 0, 0, 0] for _ in range(25)]
    for cell in clear:
        state.cops[cell], state.vans[cell] = 0, -1
    for g in state.order:
        if g != f:  # enough to hold the Start against the cops that may walk in tonight
            start = state.occupation_cell(g, "start")
            state.blocs[start][g] = 3 + sum(state.cops[a] for a in geo.adjacent[start])
    for cell, n in blocs.items():
        state.blocs[cell][f] += n
    hold(state, f, hand, dice)
    return f


def seat_of(state: BlocState) -> int:
    return state.controller[state.faction_now()]


def bot(state: BlocState, seat: int, level: str, rng: Rng, budget_ms: float = DEFAULT_BUDGET_MS) -> Any:
    """``choose``'s move, the hard bot's planner untimed (its count of positions scaled to ``budget_ms``, never the
    clock: the same choice on any machine), a step it leaves to the search with a fixed search."""
    if level != "hard":
        return choose(G, state, seat, level, rng)
    moves = G.search_moves(state, seat)
    if len(moves) == 1:
        return moves[0]
    move = plan(G, state, seat, moves, rng, budget_ms)
    return move if move is not None else search(G, state, seat, moves, rng, budget_ms=budget_ms, iterations=20)


def turn(state: BlocState, level: str, seed: int = 1) -> list[Any]:
    """The moves the acting faction's bot makes in its turn (and the decisions it answers meanwhile), up to its
    ``end``."""
    f, night = state.faction_now(), state.night
    seat = seat_of(state)
    rng = Rng(seed)
    made: list[Any] = []
    state = G.clone(state)
    while len(made) < 12 and not G.is_over(state) and G.to_act(state) == {seat} and state.night == night \
            and (state.pending or state.faction_now() == f):
        move = bot(state, seat, level, rng)
        made.append(move)
        if move.kind == "end":
            break
        state, _ = G.apply(state, seat, move)
    return made


def words(moves: list[Any]) -> str:
    return ", ".join(G.format_move(m) for m in moves)


def mostly(state: BlocState, level: str, check: Callable[[list[Any]], bool]) -> None:
    """The bot's turn does what ``check`` asks with at least two of three seeds. (Both levels judge a move on one
    determinization of what the seat sees, whose reaction rolls are drawn again: a lucky People's Kitchen die in it
    can make another plan look better once in a while.)"""
    turns = [turn(state, level, seed) for seed in (1, 2, 3)]
    assert sum(map(check, turns)) >= 2, " | ".join(words(t) for t in turns)


def free_cells(state: BlocState, avoid: set[int]) -> list[int]:
    """Districts without an occupation, away from ``avoid``, in reading order."""
    g = city_geo(state)
    return [c for c in g.districts if state.occ_owner[c] < 0 and c not in avoid]


# --- scenario goals ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_routine_traffic_stop_barricades_a_highway_connection(level: str) -> None:
    state = started("traffic")
    g = city_geo(state)
    highway = {cid for cid, _, _ in g.highways}
    a = next(a for _, a, _ in g.highways if a not in g.states)
    arrange(state, [1], {a: 2}, clear=(a, *g.adjacent[a]))  # no cop near: the blocs are safe where they stand
    mostly(state, level, lambda moves: any(m.kind == "barricade" and m.conn in highway for m in moves))


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_the_company_town_burns_a_commercial_shopping_centre(level: str) -> None:
    state = started("company-town")
    g = city_geo(state)
    shop = next(c for c in g.commercial if state.shops[c] and not state.police(c))
    state.shops[shop] = [1] * len(state.shops[shop])  # graffitied: the next loot burns
    arrange(state, [6], {shop: 3})
    mostly(state, level, lambda moves: any(m.kind == "loot" and m.cell == shop and m.burn for m in moves))


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_abolish_the_police_destroys_a_van(level: str) -> None:
    state = started("abolish")
    van = next(c for c in city_geo(state).districts if state.vans[c] >= 0)
    state.cops[van] = 0  # the van alone holds the district
    arrange(state, [6, 6, 6], {van: 3})
    mostly(state, level, lambda moves: [(m.kind, m.cell) for m in moves[:3]] == [("van", van)] * 3)


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_occupy_everything_builds_in_the_factions_own_district(level: str) -> None:
    """Blocs in an own district and in a Public one, both free and empty, one die: the own district is built."""
    state = started("occupy")
    g = city_geo(state)
    f = state.faction_now()
    own = next(c for c in g.own[f] if state.occ_owner[c] < 0 and state.may_build(f, c))
    public = next(c for c in g.public if state.occ_owner[c] < 0 and state.may_build(f, c))
    arrange(state, [6], {own: 3, public: 3}, clear=(own, public))
    mostly(state, level, lambda moves: [(m.kind, m.cell) for m in moves if m.kind == "build"] == [("build", own)])


def liberation_position(scenario: str, cells: tuple[int, ...]) -> tuple[BlocState, int]:
    """The acting faction occupies a liberatable district of ``cells`` one bloc short of liberating it, with blocs
    next door on a free district and a die to send them in."""
    state = started(scenario)
    g = city_geo(state)
    f = state.faction_now()
    ranked = sorted((c for c in cells if g.liberatable[c] and not state.liberated[c]), key=state.difficulty)
    for target in ranked:  # the easiest to liberate, with a free neighbour (no police near either)
        door = next((a for a in g.adjacent[target] if a not in g.states and state.occ_owner[a] < 0
                     and g.kind[a] != "Highway"), -1)
        if door >= 0:
            break
    else:
        raise AssertionError("no liberatable district with a free neighbour")
    need = 2 * state.difficulty(target)
    arrange(state, [2, 3], {target: need - 1, door: 3}, clear=(target, door, *g.adjacent[target], *g.adjacent[door]))
    state.occ_owner[target], state.occ_kind[target] = f, "kitchen"
    for h in state.order:  # the partners' Starts (blocs enough there) are liberated already: one goal at hand
        state.liberated[state.occupation_cell(h, "start")] |= h != f
    return state, target


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
@pytest.mark.parametrize("scenario", ["collective", "zone-2"])
def test_blocs_are_sent_in_to_liberate(scenario: str, level: str) -> None:
    state, target = liberation_position(scenario, tuple(city_geo(started(scenario)).zone_near)
                                        if scenario == "zone-2" else tuple(city_geo(started(scenario)).districts))
    mostly(state, level, lambda moves: moves[0].kind == "move" and moves[0].to == target)


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_smash_the_state_values_liberating_an_occupied_state_district(level: str) -> None:
    """Smash the State needs the State districts liberated too: a forecast counts the liberation an occupation
    with enough blocs will get at the Sunrise, and the bots send the blocs in."""
    state, target = liberation_position("smash", city_geo(started("smash")).states)
    before = forecast(state)
    mostly(state, level, lambda moves: moves[0].kind == "move" and moves[0].to == target)
    door = next(c for c in city_geo(state).adjacent[target] if state.blocs[c][state.faction_now()])
    after = G.clone(state)
    G.fast_apply(after, seat_of(state), G.parse_move(f"move 2 {cell_name(door)} {cell_name(target)} 1"))
    assert forecast(after) > before + 5


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_autonomous_zone_phase_one_clears_a_zone_first(level: str) -> None:
    """A lone cop in an Autonomous Zone and one elsewhere, blocs facing both, one die: the zone's is defeated (its
    gate blocks every win while a cop stands there)."""
    state = started("zone-1")
    g = city_geo(state)
    zone = g.zones[0]
    other = next(c for c in g.districts if c not in g.states and c not in g.zones and c not in g.zone_near
                 and state.occ_owner[c] < 0 and not state.police(c) and g.kind[c] != "Highway")
    arrange(state, [6], {zone: 3, other: 3}, clear=(zone, other))
    state.cops[zone] = state.cops[other] = 1
    mostly(state, level, lambda moves: moves[0].kind == "defeat" and moves[0].cell == zone)


# --- agendas ----------------------------------------------------------------------------------------------------
def nihilist_position(agenda: int) -> BlocState:
    """Semi, 3 players: 7 burn tokens placed and 2 vans destroyed; the acting faction holds ``agenda`` and blocs in
    a free State district it may occupy and on a graffitied shop, with one 6."""
    state = started("none", seats=3, mode="semi")
    g = city_geo(state)
    f = state.faction_now()
    state.agendas[f] = agenda
    state.burned, state.vans_destroyed = 7, 2
    shop = next(c for c in free_cells(state, set(g.states)) if state.shops[c] and g.kind[c] == "Commercial")
    state.shops[shop] = [1] * len(state.shops[shop])
    target = g.states[0]
    arrange(state, [6], {shop: 1, target: 1}, clear=(shop, target))  # (few moves: the medium bot tries them all)
    return state


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_the_nihilist_burns_its_way_to_a_win_alone(level: str) -> None:
    state = nihilist_position(10)
    mostly(state, level, lambda moves: any(m.kind == "loot" and m.burn for m in moves))
    # the same position with a cooperative card (Communard: liberations): the die goes elsewhere
    coop = nihilist_position(2)
    mostly(coop, level, lambda moves: not any(m.kind == "loot" and m.burn for m in moves))


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_the_vanguardist_takes_a_third_state_district(level: str) -> None:
    """Two State districts hold the Vanguardist's occupations; it has blocs in a free third one and in an empty
    Public district, one die: the third State district (its Win Alone) is built."""
    state = started("none", seats=4, mode="semi")
    g = city_geo(state)
    f = state.faction_now()
    state.agendas[f] = 8
    first, second, third = g.states[:3]
    for c in (first, second):
        state.occ_owner[c], state.occ_kind[c] = f, "hall"
    public = next(c for c in g.public if state.occ_owner[c] < 0 and state.may_build(f, c))
    arrange(state, [6], {first: 2, second: 2, third: 3, public: 3}, clear=(first, second, third, public))
    mostly(state, level, lambda moves: any(m.kind == "build" and m.cell == third for m in moves))
    after = G.clone(state)
    G.fast_apply(after, seat_of(state), G.parse_move(f"build 6 {cell_name(third)} kitchen"))
    assert forecast(after, seat_of(state)) - forecast(state, seat_of(state)) > 100  # a Win Alone in reach


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_the_vanguardist_swaps_a_rival_out_of_a_third_state_district(level: str) -> None:
    """As above, but another faction's occupation stands in the third State district: swapping it out (D1: any
    faction's, in a State district) is the Vanguardist's Win Alone, and the bot swaps."""
    state = started("none", seats=4, mode="semi")
    g = city_geo(state)
    f = state.faction_now()
    state.agendas[f] = 8
    other = next(x for x in state.order if x != f)
    first, second, third = g.states[:3]
    for c in (first, second):
        state.occ_owner[c], state.occ_kind[c] = f, "hall"
    state.occ_owner[third], state.occ_kind[third] = other, "kitchen"
    arrange(state, [6], {first: 2, second: 2, third: 3}, clear=(first, second, third))
    mostly(state, level, lambda moves: any(m.kind == "swap" and m.cell == third for m in moves))


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_asymmetrical_struggle_swaps_a_state_district_to_a_faction_without_one(level: str) -> None:
    """Asymmetrical Struggle needs an occupation in a State district for every faction: another faction holds two,
    the acting faction none, and its blocs stand in one of the two. It swaps that one to itself rather than build
    in the empty Public district it also stands in."""
    state = started("asymmetrical", seats=4)
    g = city_geo(state)
    f = state.faction_now()
    other = next(x for x in state.order if x != f)
    first, second = g.states[:2]
    for c in (first, second):
        state.occ_owner[c], state.occ_kind[c] = other, "hall"
    public = next(c for c in g.public if state.occ_owner[c] < 0 and state.may_build(f, c))
    arrange(state, [6], {first: 3, public: 3}, clear=(first, second, public))
    mostly(state, level, lambda moves: any(m.kind == "swap" and m.cell == first for m in moves))


def swap_declared(mode: str) -> tuple[BlocState, int]:
    """A faction holding two State districts (the Vanguardist, in the semi game) has the most blocs in the first,
    where another faction, acting, declares a swap of that occupation: the decision to stop it is the holder's.
    Returns the state and the holder's seat."""
    state = started("none", seats=4, mode=mode)
    g = city_geo(state)
    actor = state.faction_now()
    holder = next(x for x in state.order if x != actor)
    if mode == "semi":
        state.agendas[holder] = 8
    first, second = g.states[:2]
    for c in (first, second):
        state.occ_owner[c], state.occ_kind[c] = holder, "hall"
    arrange(state, [6], {first: 1}, clear=(first, second))
    state.blocs[first][holder] = 3
    swap = next(m for m in G.legal_moves(state, seat_of(state)) if m.kind == "swap" and m.cell == first)
    state, _ = G.apply(state, seat_of(state), swap)
    assert state.pending and state.pending[0].kind == "stop" and state.pending[0].faction == holder
    return state, state.controller[holder]


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_a_rival_swapping_out_the_vanguardists_occupation_is_stopped(level: str) -> None:
    """In the semi game the holder's own worth decides: losing a State district to a rival is stopped."""
    state, seat = swap_declared("semi")
    assert [bot(state, seat, level, Rng(k)).kind for k in (1, 2, 3)] == ["stop"] * 3


def test_in_the_cooperative_game_the_hard_bot_allows_a_partners_swap() -> None:
    state, seat = swap_declared("coop")
    assert [bot(state, seat, "hard", Rng(k)).kind for k in (1, 2, 3)] == ["allow"] * 3


def test_a_cooperative_option_is_kept_and_the_insurrection_still_counts() -> None:
    """The seat's value in the semi game: its Win Cooperatively option met counts, and so does the table's worth
    (the insurrection's success, which that option needs)."""
    state = started("none", seats=3, mode="semi")
    f = state.faction_now()
    seat = seat_of(state)
    state.agendas[f] = 5  # Expropriator: 5 loot cards held, or 6 burn tokens placed
    base = forecast(state, seat)
    rich = G.clone(state)
    rich.hands[f] = ["medic", "shield", "paint", "banner", "communique"]
    assert forecast(rich, seat) > forecast(rich) + 10 > base  # met: worth more than the cards alone
    table = forecast(state)
    assert abs(forecast(state, seat) - table) < 15  # the table's worth is in the seat's own


def test_nothing_hidden_is_read_in_the_semi_game() -> None:
    """The hard bot's move is the same when the other factions' agendas and hands are scrambled."""
    state = nihilist_position(10)
    seat = seat_of(state)
    move = G.format_move(bot(state, seat, "hard", Rng(3)))
    for seed in (7, 8):
        scrambled = G.determinize(state, seat, Rng(seed))
        assert G.format_move(bot(scrambled, seat, "hard", Rng(3))) == move


# --- finished games ---------------------------------------------------------------------------------------------
def finished(winners: list[int], seats: int = 4, mode: str = "semi") -> BlocState:
    state = started("none", seats=seats, mode=mode)
    state.outcome = "win" if winners else "loss"
    state.winners, state.phase = sorted(winners), "over"
    return state


def test_finished_games_are_scored_per_seat_when_the_winners_are_a_subset() -> None:
    state = finished([0, 2])
    won = {state.controller[0], state.controller[2]}
    for seat in range(4):
        expected = 1.0 if seat in won else 0.0
        assert _value(G, state, seat) == expected  # the search's reward (not a share of 1)
        assert seat_value(G, state, seat) == expected  # the medium bot's
        assert forecast(state, seat) == (WON if seat in won else -WON)  # the planner's
    alone = finished([1])
    assert [_value(G, alone, s) for s in range(4)] == [1.0 if s == alone.controller[1] else 0.0 for s in range(4)]
    table = finished([0, 1, 2, 3], seats=2, mode="coop")
    assert [_value(G, table, s) for s in range(2)] == [1.0, 1.0]  # a cooperative win: every seat's, whole
    lost = finished([], seats=2, mode="coop")
    assert [_value(G, lost, s) for s in range(2)] == [0.0, 0.0]


# --- every scenario played out ------------------------------------------------------------------------------------
def setups() -> list[tuple[str, int, str]]:
    """Every scenario at every player count it allows, once; where both modes are open, the counts take turns
    (Asymmetrical Struggle, Phase I and Smash the State play semi with 3 players and coop with 2 and 4)."""
    out = []
    for key, s in SCENARIOS.items():
        for seats in s.players:
            modes = [m for m in s.modes if m == "coop" or seats >= 3]
            out.append((key, seats, modes[seats % len(modes)]))
    return out


@pytest.mark.parametrize(("scenario", "seats", "mode"), setups())
def test_bots_of_every_level_play_every_scenario_to_its_end(scenario: str, seats: int, mode: str) -> None:
    """A table mixing the three levels (each seat's level turns with the setup), the hard bot on a small budget;
    every move is one of the legal moves, and the game ends by one of D3's clauses."""
    index = setups().index((scenario, seats, mode))
    levels = [("easy", "medium", "hard")[(index + s) % 3] for s in range(seats)]
    seed = 100 + index
    state = G.new_game(seats, G.resolve_options({"scenario": scenario, "mode": mode}), seed)
    rng = Rng(seed)
    for _ in range(3000):
        if G.is_over(state):
            break
        seat = min(G.to_act(state))
        move = bot(state, seat, levels[seat], rng, budget_ms=40)
        assert G.format_move(move) in {G.format_move(m) for m in G.legal_moves(state, seat)}
        state, _ = G.apply(state, seat, move)
    assert G.is_over(state)
    result = G.result(state)
    assert result is not None
    if state.outcome == "win" and mode == "coop":
        assert goal_met(state)
