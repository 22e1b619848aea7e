"""Setup (city part A, play part D1): the city, factions, police and decks of a new game, and the Faction Starts
each faction places before the first night."""

from __future__ import annotations

from typing import Any

from engine.base import Event
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import STATE, TILES, beginner_layout, manifestation_deck, random_layout
from engine.blocbybloc.common import district_name, named, say
from engine.blocbybloc.model import FACTIONS, BlocState, Pending, loot_deck, occupations_of
from engine.blocbybloc.moves import Move
from engine.blocbybloc.night import begin_turn, first_faction
from engine.rng import Rng


def new_state(seats: int, opts: dict[str, Any], seed: int) -> BlocState:
    """A new game for ``seats`` players with resolved options: the city, the factions in play and who plays them,
    the police, the decks and two loot cards each; every faction owes its Start placement."""
    rng = Rng(seed)
    city_seed = rng.next64() & 0xFFFFFFFF
    if opts["city"] == "beginner":
        layout = beginner_layout(city_seed)
    else:
        layout = random_layout(city_seed, seats, overpass=opts["overpass"])
    deck_rest = manifestation_deck()
    for card in layout.manifestations:
        deck_rest.remove(card)
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
    city = layout.city
    difficulty = "easy" if opts["beginner"] else opts["difficulty"]
    cops, vans = [0] * 25, [-1] * 25
    for cell in city.districts:
        tile = city.tile(cell)
        if tile.type == STATE or tile.key == "d23":
            cops[cell], vans[cell] = 3, 0
    loot = loot_deck()
    rng.shuffle(loot)
    hands: list[list[str]] = [[] for _ in range(4)]
    for f in order:
        hands[f] = [loot.pop(), loot.pop()]
    if opts["beginner"]:
        countdown = 8 if seats == 3 else 6
    else:
        countdown = 8
    state = BlocState(
        options=opts, rng=0, tiles=list(layout.tiles), rotations=list(layout.rotations),
        under=list(layout.manifestations), spare=deck_rest, city_seed=layout.seed, order=order,
        controller=controller, liberated=[False] * 25,
        shops=[[0] * TILES[t].shops for t in layout.tiles], blocs=[[0, 0, 0, 0] for _ in range(25)],
        occ_owner=[-1] * 25, occ_kind=[""] * 25, mats=[occupations_of(f) if f in order else [] for f in range(4)],
        cops=cops, vans=vans, vans_box=0, barricades={}, morale=1,
        police_deck=pol.police_deck(difficulty, rng), police_discard=[], lockdown=-1,
        loot_deck=loot, loot_discard=[], hands=hands, countdown=countdown,
    )
    state.pending = [Pending("start", f) for f in order]
    state.rng = rng.state
    return state


def start_cells(state: BlocState, f: int) -> list[int]:
    city = state.city
    return [c for c in city.districts if city.tile(c).type == FACTIONS[f] and city.tile(c).circle
            and state.occ_owner[c] < 0]


def start_default(state: BlocState, f: int) -> Move:
    cells = start_cells(state, f)
    best = min(cells, key=lambda c: (state.difficulty(c), TILES[state.tiles[c]].pid))
    return Move("start", cell=best)


def place_start(state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
    state.pending = [q for q in state.pending if q is not p]
    f = p.faction
    state.occ_owner[move.cell], state.occ_kind[move.cell] = f, "start"
    state.mats[f].remove("start")
    state.blocs[move.cell][f] += 1
    say(events, state, "start", f"{named(f)} start in {district_name(state, move.cell)}.", f)
    if not state.pending:
        first_faction(state, events, rng)
        begin_turn(state, events, rng)
