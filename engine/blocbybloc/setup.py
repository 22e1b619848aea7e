"""Setup (city part A, play part D1): the city, factions, police and decks of a new game, and the Faction Starts
each faction places before the first night."""

from __future__ import annotations

from typing import Any

from engine.base import Event
from engine.blocbybloc import agendas
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import STATE, TILES, City, Layout, beginner_layout, manifestation_deck, random_layout
from engine.blocbybloc.common import district_name, named, say
from engine.blocbybloc.model import FACTIONS, BlocState, Pending, loot_deck, occupations_of
from engine.blocbybloc.moves import Move
from engine.blocbybloc.night import begin_turn, first_faction
from engine.blocbybloc.scenarios import COOP, NONE, SCENARIOS, SEMI, Lineup, goal_met, lineup, scenario_of, seats_of
from engine.rng import Rng


def deploy(city: City, lu: Lineup | None) -> tuple[list[int], list[int]]:
    """The police at setup (police part B1, play part D5), by cell: cops and vans (-1: none). Without a scenario a
    van and 3 cops in every State district and in The Stadium; a scenario's lineup names its districts ("State":
    every State district of the city after its replacements; a tile key: that tile's district) and the cops per
    van."""
    cops, vans = [0] * 25, [-1] * 25
    if lu is None:
        cells = [c for c in city.districts if city.tile(c).type == STATE or city.tile(c).key == "d23"]
        k = 3
    else:
        cells = []
        for name in lu.police:
            cells += city.of_type(STATE) if name == "State" else [c for c in city.districts
                                                                   if city.tile(c).key == name]
        k = lu.cops
    for cell in cells:
        cops[cell], vans[cell] = k, 0
    return cops, vans


def _table(opts: dict[str, Any], layout: Layout, order: list[int], controller: list[int], lu: Lineup | None,
           countdown: int) -> BlocState:
    """A new game's board with its city, factions and police; decks and hands empty (the caller deals them)."""
    cops, vans = deploy(layout.city, lu)
    deck_rest = manifestation_deck()
    for card in layout.manifestations:
        deck_rest.remove(card)
    return BlocState(
        options=opts, rng=0, tiles=list(layout.tiles), rotations=list(layout.rotations),
        under=list(layout.manifestations), spare=deck_rest, city_seed=layout.seed, order=order,
        controller=controller, liberated=[False] * 25,
        shops=[[0] * TILES[t].shops for t in layout.tiles], blocs=[[0, 0, 0, 0] for _ in range(25)],
        occ_owner=[-1] * 25, occ_kind=[""] * 25, mats=[occupations_of(f) if f in order else [] for f in range(4)],
        cops=cops, vans=vans, vans_box=0, barricades={}, morale=1,
        police_deck=[], police_discard=[], lockdown=-1,
        loot_deck=[], loot_discard=[], hands=[[] for _ in range(4)], countdown=countdown,
    )


def city_for(city_seed: int, seats: int, opts: dict[str, Any], order: list[int], controller: list[int]) -> Layout:
    """The game's city from ``city_seed`` (city part A3, A4): the beginner city, a random one for ``seats`` players,
    or a scenario's: the 4-player tile set (3 players too), its replacements in place, redrawn with the next seed
    while it is not connected or the scenario's goal already holds on it once police are placed (play part D6.19;
    ``order`` and ``controller`` are the factions in play, which some goals count)."""
    if opts["city"] == "beginner":
        return beginner_layout(city_seed)
    lu = lineup(opts.get("scenario", NONE), seats)
    if lu is None:
        return random_layout(city_seed, seats, overpass=opts["overpass"])
    scenario = lu

    def accept(candidate: Layout) -> bool:
        return not goal_met(_table(opts, candidate, order, controller, scenario, scenario.countdown))

    return random_layout(city_seed, 4, overpass=opts["overpass"], replace=lu.replace, accept=accept)


def new_state(seats: int, opts: dict[str, Any], seed: int) -> BlocState:
    """A new game for ``seats`` players with resolved options: the city, the factions in play and who plays them,
    the police, the decks and two loot cards each (and, semi-cooperative, an agenda each); every faction owes its
    Start placement. A scenario (play part D5) starts 3 players from the 4-player tile set, replaces tiles in place,
    places its own police, sets the countdown and removes its cards; a city on which its goal already holds is
    redrawn (D6.19). Options stored before scenarios may lack ``scenario`` and ``mode``."""
    rng = Rng(seed)
    city_seed = rng.next64() & 0xFFFFFFFF
    key, mode = opts.get("scenario", NONE), opts.get("mode", COOP)
    lu = lineup(key, seats)
    factions = list(range(4))
    rng.shuffle(factions)
    if seats == 2:
        order, controller = factions, [0] * 4
        for i, f in enumerate(order):
            controller[f] = i % 2
    else:
        order = factions[:seats]  # seat i (lobby join order) plays factions[i]
        controller = [-1] * 4
        for seat, f in enumerate(order):
            controller[f] = seat
    if opts["beginner"]:
        countdown = 8 if seats == 3 else 6
    else:
        countdown = 8 if lu is None else lu.countdown
    layout = city_for(city_seed, seats, opts, order, controller)
    state = _table(opts, layout, order, controller, lu, countdown)
    difficulty = "easy" if opts["beginner"] else opts["difficulty"]
    loot = loot_deck()
    rng.shuffle(loot)
    for f in order:
        state.hands[f] = [loot.pop(), loot.pop()]
    state.loot_deck = loot
    removed = SCENARIOS[key].removed_police if key != NONE else ()
    state.police_deck = pol.police_deck(difficulty, rng, removed)
    if mode == SEMI:
        agendas.deal(state, rng, *agendas.deck_of(state))
    state.pending = [Pending("start", f) for f in order]
    state.rng = rng.state
    return state


def start_cells(state: BlocState, f: int) -> list[int]:
    city = state.city
    return [c for c in city.of_type(FACTIONS[f]) if city.tile(c).circle and state.occ_owner[c] < 0]


def start_default(state: BlocState, f: int) -> Move:
    cells = start_cells(state, f)
    best = min(cells, key=lambda c: (state.difficulty(c), TILES[state.tiles[c]].pid))
    return Move("start", cell=best)


def place_start(state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
    state.pending = [q for q in state.pending if q is not p]
    f = p.faction
    state.occ_owner[move.cell], state.occ_kind[move.cell] = f, "start"
    state.mats[f].remove("start")
    lu = lineup(scenario_of(state), seats_of(state))
    k = 1 if lu is None else lu.start  # "Start k": k blocs in total at the Start (play part D5)
    state.blocs[move.cell][f] += k
    blocs = "" if k == 1 else f" with {k} blocs"
    say(events, state, "start", f"{named(f)} start in {district_name(state, move.cell)}{blocs}.", f)
    if not state.pending:
        first_faction(state, events, rng)
        begin_turn(state, events, rng)
