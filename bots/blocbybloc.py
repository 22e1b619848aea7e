"""Bloc by Bloc's bots (cooperative): the value of a position for the whole table, which the medium bot maximises one
move ahead, the hard bot's turn planner (:mod:`bots.blocbybloc_plan`) ranks its action sequences with, and the
search scores its leaves with.

The value looks ahead to the coming Sunrise (:func:`forecast`): vans wipe out what shares their district, each cop
defeats a bloc and then the occupation, and cops standing next to a district may still walk in before the Sunrise
(the police draw cards after every faction's turn). What would be left is what counts: State districts holding an
occupation (all of them at once wins), vans gone from the State districts and cops thinned there, blocs gathered
next to a State district to strike, every faction kept on the streets, occupations elsewhere (their abilities),
liberations, loot cards worth playing, and the police's strength (vans, cops, morale).

Only what the seat may see is read when the state is the seat's determinization (``Game.determinize``): the other
factions' hands are then resampled (the value's small worth of useful cards counts every faction's hand, the
same way in every position of one determinization, so it does not steer the choice between them).
"""

from __future__ import annotations

import math
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from typing import Any

from engine.base import Game
from engine.blocbybloc.agendas import AGENDAS, ALONE
from engine.blocbybloc.city import COMMERCIAL, FACTION_TYPES, PUBLIC, TILES, build_city
from engine.blocbybloc.model import BLOCS, ByLayout
from engine.blocbybloc.night import semi
from engine.blocbybloc.police import DRAWS
from engine.blocbybloc.scenarios import NONE, ZONES, scenario_of, zone_neighbours

CARD_WORTH = {"molotov1": 0.9, "molotov2": 1.4, "molotov3": 1.8, "energy": 1.0, "crowbar": 1.2, "fireworks": 0.8,
              "medic": 0.5, "shield": 0.5, "paint": 0.5, "banner": 0.5, "communique": 0.3, "bicycles": 0.4,
              "dumpster": 0.3, "lookouts": 0.3, "megaphone": 0.6, "clothes": 0.5, "scanner": 0.3, "jammer": 0.5}
OCC_WORTH = {"start": 2.5, "hall": 1.6, "kitchen": 1.0, "strike": 1.5, "workshop": 1.2, "center": 1.0,
             "hacker": 1.2, "garden": 0.6, "cafe": 0.8, "factory": 1.2, "hideout": 1.2}
STATE_HELD = 12.0  # a State district whose occupation survives the Sunrise
ALL_HELD = 40.0  # … all of them: the table wins
READY = 12.0  # the least advanced State district: the table wins only when all of them hold
LOST = 60.0  # a faction wiped off the streets: the table loses
STATES_GOAL = (NONE, "zone-1", "infighting", "smash")  # scenarios whose goal needs every State district occupied
GOAL_ALL = 40.0  # a scenario's goal met at the coming Sunrise (as ALL_HELD)
WON = 1000.0  # a finished game won (scenarios and agendas; its negative: lost)
ALONE_MET = 120.0  # the seat's Win Alone option met after the coming Sunrise (nobody else's: it wins)
ALONE_STEP = 30.0  # … worth in proportion to how near it is
TOGETHER_MET = 14.0  # the seat's best Win Cooperatively option met (it wins if the insurrection succeeds)
TOGETHER_STEP = 8.0  # … in proportion to how near it is


@dataclass(frozen=True)
class Geo:
    """What stays fixed in a city: the State districts, adjacency and connections, types, which can be liberated."""

    districts: tuple[int, ...]
    states: tuple[int, ...]
    adjacent: tuple[tuple[int, ...], ...]
    conns: tuple[tuple[tuple[int, str], ...], ...]  # by cell: (other end, connection id)
    kind: tuple[str, ...]
    liberatable: tuple[bool, ...]
    near_state: tuple[bool, ...]  # adjacent to a State district
    highways: tuple[tuple[str, int, int], ...]  # highway connections: (id, one end, the other)
    commercial: tuple[int, ...]  # Commercial districts (Mega Mall included)
    public: tuple[int, ...]
    own: tuple[tuple[int, ...], ...]  # by faction: the districts of its type
    zones: tuple[int, ...]  # the Autonomous Zones
    zone_near: tuple[int, ...]  # the liberatable districts next to a zone (Autonomous Zone Phase II)
    is_state: tuple[bool, ...]  # by cell: a State district
    is_district: tuple[bool, ...]  # by cell: a district (not a highway)


@lru_cache(maxsize=64)
def geo(tiles: tuple[str, ...], rotations: tuple[int, ...]) -> Geo:
    city = build_city(tiles, rotations)
    states = tuple(city.of_type("State"))
    adjacent = tuple(tuple(sorted(city.adjacent[c])) for c in range(25))
    return Geo(
        districts=city.districts, states=states, adjacent=adjacent,
        conns=tuple(tuple((conn.other(c), conn.id) for conn in city.touching[c]) for c in range(25)),
        kind=tuple(TILES[t].type for t in tiles), liberatable=tuple(TILES[t].liberatable for t in tiles),
        near_state=tuple(any(a in states for a in adjacent[c]) for c in range(25)),
        highways=tuple((conn.id, conn.a, conn.b) for conn in city.connections if conn.highway is not None),
        commercial=tuple(city.of_type(COMMERCIAL)),
        public=tuple(city.of_type(PUBLIC)),
        own=tuple(tuple(city.of_type(kind)) for kind in FACTION_TYPES),
        zones=tuple(c for c in city.districts if tiles[c] in ZONES), zone_near=tuple(zone_neighbours(city)),
        is_state=tuple(c in states for c in range(25)), is_district=tuple(c in city.districts for c in range(25)))


_geo_of = ByLayout(geo)


def city_geo(state: Any) -> Geo:
    """The city's :class:`Geo` (the latest city's found without a key: :class:`~engine.blocbybloc.model.ByLayout`)."""
    return _geo_of(state.tiles, state.rotations)


def _stopped(barricades: int, movers: float) -> float:
    if barricades <= 0:
        return 0.0
    if barricades == 1:
        return min(1.0, movers)
    if barricades == 2:
        return movers / 2
    return movers


def draws_left(state: Any) -> int:
    """Police ops cards still to come before the next Sunrise (by the morale now; reaction rolls aside)."""
    per = DRAWS[state.morale - 1]
    if state.phase == "sunset":
        return per * (len(state.order) - state.turn)
    if state.phase == "start":
        return per * len(state.order)
    return 0  # Sunrise: the police have drawn


@lru_cache(maxsize=256)
def _chance(state_district: bool, occupied: bool, para: int, draws: int) -> float:
    """The chance that an Advance card (or, for an occupied district, a Paramilitary Operations card) comes in
    ``draws`` draws."""
    q = (4 if state_district else 2) / 32 + (para / 32 if occupied else 0.0)
    return 1.0 - (1.0 - q) ** draws


def threat(state: Any, g: Geo, in_cell: list[int] | None = None) -> list[Sequence[tuple[float, float]]]:
    """By district, the groups of cops that may walk in before the Sunrise, as (chance, cops): a group of 2+ cops
    outside a clash advances (all but one) when an Advance card names a type it stands next to (or, for an
    occupied district, a Paramilitary Operations card comes); barricades on the way stop some. ``in_cell``: the
    blocs by cell, when known."""
    draws = draws_left(state)
    out: list[Sequence[tuple[float, float]]] = [()] * 25  # (a list where a group comes)
    cops = state.cops
    if not draws or max(cops) < 2:
        return out
    para = {"easy": 1, "medium": 2}.get(state.options.get("difficulty", "hard"), 3)
    vans, occ, barricades = state.vans, state.occ_owner, state.barricades
    is_state, is_district = g.is_state, g.is_district
    if in_cell is None:
        in_cell = list(map(sum, state.blocs))
    for s in compress(range(len(cops)), map((2).__le__, cops)):  # (the cells with 2+ cops, in order)
        if in_cell[s] or not is_district[s]:
            continue
        movers = cops[s] - 1
        for t, conn in g.conns[s]:
            if vans[t] >= 0:
                continue  # a district the police hold already
            walls = barricades.get(conn, 0)
            k = movers - (_stopped(walls, movers) if walls > 0 else 0.0)
            if k > 0:
                group = (_chance(is_state[t], occ[t] >= 0, para, draws) if is_district[t] else 0.0, k)
                if out[t]:
                    typing.cast(list[tuple[float, float]], out[t]).append(group)
                else:
                    out[t] = [group]
    return out


def forecast(state: Any, seat: int = -1) -> float:
    """The worth of ``state`` (unbounded; more is better), looking at the coming Sunrise: the table's in the fully
    cooperative game (``seat`` then changes nothing), ``seat``'s own in the semi-cooperative one (the table's worth
    and its agenda's objectives, :func:`agenda_worth`). A scenario's goal replaces the State districts' terms where
    it does not need them (:func:`goal_worth`). A finished game with a scenario or agendas is worth :data:`WON` or
    ``-WON`` (the base game's finished positions keep today's board reading)."""
    key = scenario_of(state)
    agendas = semi(state)
    if state.outcome and (key != NONE or agendas):
        return WON if _won(state, seat) else -WON
    g = city_geo(state)
    states_goal = key in STATES_GOAL  # the goal needs every State district occupied
    clears = states_goal or key == "asymmetrical"  # … or one of them, for some factions
    gate = key == "zone-1" and any(state.police(z) for z in g.zones)
    keep_by = [1.0] * 25  # by district: the chance its occupation survives the Sunrise
    left_by = [0.0] * 25  # by district: the blocs expected to survive it
    order = state.order
    blocs, cops, vans, occ = state.blocs, state.cops, state.vans, state.occ_owner
    sunset = state.phase == "sunset"
    to_play = set(state.night_order()[state.turn + 1:]) if sunset else set(order) if state.phase == "start" \
        else set()  # factions still to play tonight (besides the acting one)
    others_to_play = bool(to_play)
    shields = state.shields if state.phase == "sunrise" else {}
    paints = state.paints if state.phase == "sunrise" else []
    repressed = state.phase == "sunrise" and state.window != "repression" and \
        not any(p.kind == "split" for p in state.pending)  # the Sunrise's repression is over
    last = state.countdown <= 1  # the last night: only the State districts count (and keeping every faction)
    held_w = STATE_HELD * (2.0 if last else 1.0)
    left = dict.fromkeys(order, 0.0)  # blocs left after the Sunrise, by faction
    wiped = dict.fromkeys(order, 1.0)  # the chance the Sunrise leaves the faction no bloc
    x = 0.0
    held = 1.0  # the chance every State district holds
    ready = 1.0  # how near the least advanced State district is to holding an occupation
    in_cell = list(map(sum, blocs))  # blocs by cell
    incoming = threat(state, g, in_cell)
    occ_kind, liberated = state.occ_kind, state.liberated
    starts = set(compress(occ, map("start".__eq__, occ_kind)))  # factions holding their Start
    is_state, near_state, liberatable, adjacent = g.is_state, g.near_state, g.liberatable, g.adjacent
    total_cops = sum(map(cops.__getitem__, g.districts))
    # keep_by and left_by stay 1 and 0 where there is neither a bloc nor an occupation (nor a State district): the
    # goal and agenda terms read them there only as a liberation's chance, 0
    cells = range(len(occ))
    # (where there is no bloc, no occupation, no State district and no liberation there is nothing to keep: its
    # cops are counted above)
    for c in sorted({*compress(cells, in_cell), *compress(cells, map((-1).__lt__, occ)), *g.states,
                     *compress(cells, liberated)}):
        if not g.is_district[c]:
            continue
        n = in_cell[c]
        owner = occ[c]
        cops_c = cops[c]
        groups = () if repressed else incoming[c]
        van = vans[c] >= 0 and c not in paints and not repressed
        certain = 0 if repressed else max(0, cops_c - 2 * shields.get(str(c), 0)) if shields else max(0, cops_c)
        if van:
            kept, keep_occ, wipe = 0.0, 0.0, 1.0
        elif certain <= 0 and not groups:
            kept, keep_occ, wipe = 1.0, 1.0, 0.0
        else:
            wipe = 1.0
            if certain < n:
                for p, k in groups:
                    if certain + k + 2 >= n:  # wary: more cops may gather where they come from first
                        wipe *= 1.0 - min(1.0, 2.5 * p)  # wary: police cards chain (cops gather, then advance)
                wipe = 1.0 - wipe
            expected = certain + sum(p * k for p, k in groups)
            kept = max(0.0, n - expected) / n if n else 0.0
            if certain > n:
                keep_occ = 0.0
            else:
                keep_occ = 1.0
                for p, k in groups:
                    if certain + k > n:
                        keep_occ *= 1.0 - p
        if n:
            here = blocs[c]
            for f in compress(range(len(here)), here):  # (the factions with blocs here; each its own sums)
                if f in left:
                    left[f] += here[f] * kept
                    wiped[f] *= wipe
        survivors = n * kept
        keep_by[c], left_by[c] = keep_occ, survivors
        if is_state[c] and clears:
            if owner >= 0:
                if others_to_play and keep_occ < 1.0 and not van:
                    keep_occ = 1.0 - 0.6 * (1.0 - keep_occ)  # the factions still to play may come to hold it
                    keep_by[c] = keep_occ
                if states_goal:
                    x += held_w * keep_occ
                    held *= keep_occ
                    ready = min(ready, keep_occ)
                elif not last:  # Asymmetrical Struggle: its worth is the goal's (goal_worth)
                    x += OCC_WORTH.get(occ_kind[c], 1.0) * keep_occ
            else:
                held = 0.0
                if vans[c] < 0:
                    x += 4.0  # the van is gone: the district can be cleared
                else:
                    x += 0.6 * vans[c]  # damaged tonight (repaired at the Sunrise)
                    if not last:
                        x -= 2.5  # a van there brings more cops with each reinforcement
                x -= 0.5 * min(cops_c, 6) + 0.3 * max(0, cops_c - 2)
                if not last:
                    x -= 0.4 * sum(p * k for p, k in groups)  # cops likely to walk in
                ready = min(ready, 0.5 / (1.0 + 0.3 * cops_c + (1.0 if vans[c] >= 0 else 0.0)))
                staged = sum(in_cell[a] for a in adjacent[c] if cops[a] <= 0 and vans[a] < 0)  # (out of a clash)
                x += 0.35 * min(staged, 5)
            x += 0.25 * min(survivors, 4)
        elif owner >= 0 and not last:
            worth = OCC_WORTH.get(occ_kind[c], 1.0)
            if occ_kind[c] == "strike" and near_state[c]:
                worth += 2.5
            x += worth * keep_occ
        if last:
            continue
        lib = 3.0 if near_state[c] or is_state[c] else 1.5  # its manifestation card may clear a State district
        if owner >= 0 and liberatable[c] and not liberated[c]:
            need = 2 * state.difficulty(c) - 2 * state.banners.get(str(c), 0)
            x += (lib if survivors >= need else lib / 3 * min(1.0, survivors / max(1, need))) * keep_occ
        if liberated[c]:
            x += lib
    if states_goal:
        if held > 0 and not gate:  # (Phase I's gate: no win while the police stand in an Autonomous Zone)
            x += ALL_HELD * held * (2.0 if last else 1.0)
        x += READY * ready
    for f in order:
        later = f in to_play and f in starts  # a bloc forms at its Start first
        rest = left[f] + (1.0 if later else 0.0)
        x -= LOST * wiped[f] * (0.1 if later else 1.0)
        x -= 2.5 * max(0.0, 3.0 - rest)
        if not last:
            x += 0.45 * min(rest, 8.0)
        for card in state.hands[f]:  # the last night: worth keeping only for the State districts
            x += CARD_WORTH.get(card, 0.3) * (0.4 if last else 1.0)
    x -= 1.5 * (len(vans) - vans.count(-1))  # the vans in the city (-1: none)
    x -= 0.08 * total_cops
    x -= 0.8 * state.morale
    if key != NONE:
        x += goal_worth(state, g, key, keep_by, left_by, last)
    if agendas and seat >= 0:
        x += sum(agenda_worth(state, g, f, keep_by, left_by, left) for f in order if state.controller[f] == seat)
    return x


def _won(state: Any, seat: int) -> bool:
    """A finished game: ``seat`` is among the winners (``-1``: the table won)."""
    if seat < 0:
        return state.outcome == "win"
    return any(state.controller[f] == seat for f in state.winners)


def _liberating(state: Any, g: Geo, c: int, left_by: list[float]) -> float:
    """How near an occupied, liberatable district is to its liberation at the coming Sunrise, 0–1 (1: enough
    blocs should be left there; play part D3: an occupation and twice its difficulty in blocs, Banner Drops
    counting two)."""
    if state.occ_owner[c] < 0 or not g.liberatable[c] or state.liberated[c]:
        return 0.0
    need = 2 * state.difficulty(c) - 2 * state.banners.get(str(c), 0)
    return 1.0 if left_by[c] >= need else 0.5 * min(1.0, left_by[c] / max(1, need))


def _police_in(state: Any, cells: tuple[int, ...]) -> float:
    """How much police stands in ``cells``: a district held by them, its cops, a van."""
    return sum(4.0 + 0.5 * state.cops[c] + (3.0 if state.vans[c] >= 0 else 0.0) for c in cells if state.police(c))


def _siege(state: Any, g: Geo, cells: Any) -> float:
    """Police to clear from districts the goal needs: their cops and van count against, blocs gathered next door
    (out of a clash) for (as the State districts' terms of :func:`forecast`)."""
    x = 0.0
    for c in cells:
        if not state.police(c):
            continue
        van = state.vans[c]
        x -= 0.6 * min(state.cops[c], 6) + (3.0 - 0.6 * van if van >= 0 else 0.0)
        staged = sum(sum(state.blocs[a]) for a in g.adjacent[c] if not state.police(a))
        x += 0.35 * min(staged, 5)
    return x


def goal_worth(state: Any, g: Geo, key: str, keep_by: list[float], left_by: list[float], last: bool) -> float:
    """The worth of a scenario's goal (play part D5): each step towards its predicate, what is needed next to take
    another, and :data:`GOAL_ALL` in proportion to the chance the whole goal holds after the coming Sunrise (twice
    on the last night). ``keep_by``/``left_by``: by district, the chance its occupation survives the Sunrise and
    the blocs expected to be left."""
    occ, lib, blocs = state.occ_owner, state.liberated, state.blocs
    x, whole = 0.0, 0.0  # whole: the chance the goal holds
    if key == "traffic":  # barricades on every highway connection (the police dismantle those that stop them)
        done = 0
        for cid, a, b in g.highways:
            n = state.barricades.get(cid, 0)
            if n:
                done += 1
                x += 7.0 + 1.0 * min(n - 1, 2)
            elif any(sum(blocs[e]) and not state.police(e) for e in (a, b)):
                x += 1.5  # a bloc at an end, out of a clash, may build it
        whole = 1.0 if done == len(g.highways) else 0.0
    elif key == "company-town":  # every Commercial shopping centre burned (a loot twice: graffiti, then burn)
        burned = total = 0
        for c in g.commercial:
            marks = state.shops[c]
            total += len(marks)
            burned += sum(1 for m in marks if m == 2)
            x += sum(6.0 if m == 2 else 2.0 if m == 1 else 0.0 for m in marks)
            if any(m < 2 for m in marks) and not state.police(c):
                x += 1.0 * min(left_by[c], 2.0)  # blocs there to loot it
        x += _siege(state, g, [c for c in g.commercial if any(m < 2 for m in state.shops[c])])
        whole = 1.0 if burned == total else 0.0
    elif key == "abolish":  # six vans destroyed and not a cop left
        vans = min(state.vans_destroyed, 6)
        cops = sum(state.cops)
        x += 9.0 * vans - 0.7 * cops + 2.0 * sum(v for v in state.vans if v > 0)  # (damage: repaired at the Sunrise)
        for c in g.districts:
            if state.police(c):
                x += 0.4 * min(sum(left_by[a] for a in g.adjacent[c] if not state.police(a)), 4.0)  # ready to strike
        whole = 1.0 if vans >= 6 and cops == 0 else 0.0
    elif key == "occupy":  # every faction its own occupation in each of its own districts
        whole = 1.0
        for f in state.order:
            for c in g.own[f]:
                if occ[c] == f:
                    x += 8.0 * keep_by[c]
                    whole *= keep_by[c]
                else:
                    whole = 0.0
                    if occ[c] < 0 and blocs[c][f] and not state.police(c):
                        x += 1.0  # its blocs there may build it
        x += _siege(state, g, [c for f in state.order for c in g.own[f] if occ[c] != f])
    elif key == "asymmetrical":  # every faction: an occupation in a State district, or in all its own districts
        whole = 1.0
        for f in state.order:
            in_state = max((keep_by[c] for c in g.states if occ[c] == f), default=0.0)
            own = g.own[f]
            all_own = 1.0
            for c in own:
                all_own *= keep_by[c] if occ[c] == f else 0.0
            share = sum(1 for c in own if occ[c] == f) / len(own) if own else 1.0
            p = max(in_state, all_own)
            x += 12.0 * p + 3.0 * share
            whole *= p
    elif key == "collective":  # ten districts liberated
        due = sum(_liberating(state, g, c, left_by) * keep_by[c] for c in g.districts)
        expected = sum(lib) + due
        x += 9.0 * min(expected, 10.0)
        x += 0.5 * _siege(state, g, [c for c in g.districts if g.liberatable[c] and not lib[c] and c not in g.states])
        whole = 1.0 if sum(lib) >= 10 else min(1.0, max(0.0, expected - 9.0)) if expected >= 10 else 0.0
    elif key == "smash":  # every State district occupied and liberated
        whole = 1.0
        for c in g.states:
            if occ[c] >= 0 and lib[c]:
                p = keep_by[c]
            else:
                p = _liberating(state, g, c, left_by) * keep_by[c]
            x += 10.0 * p
            whole *= p
    elif key == "zone-2":  # the districts next to the zones liberated, no police in the zones
        whole = 1.0
        for c in g.zone_near:
            p = 1.0 if lib[c] else _liberating(state, g, c, left_by) * keep_by[c]
            x += 9.0 * p
            whole *= p
        policed = _police_in(state, g.zones)
        x -= 1.5 * policed
        x += _siege(state, g, [c for c in (*g.zone_near, *g.zones) if not lib[c]])
        if policed:
            whole = 0.0
    elif key == "zone-1":  # the base goal (forecast) and no police in the zones: its gate
        x -= 1.5 * _police_in(state, g.zones) - _siege(state, g, g.zones)
    return x + GOAL_ALL * whole * (2.0 if last else 1.0)


def _step(done: float, needed: float) -> float:
    return max(0.0, min(1.0, done / needed)) if needed > 0 else 1.0


def option_progress(state: Any, g: Geo, f: int, number: int, index: int, keep_by: list[float],
                    left_by: list[float], left: dict[int, float]) -> float:
    """How near faction ``f`` is to option ``index`` of agenda card ``number`` after the coming Sunrise, 0–1 (1: met;
    play part D4's table, term by term; occupations weighted by their chance to survive, liberations due at
    the Sunrise counted in proportion)."""
    occ, lib = state.occ_owner, state.liberated
    own = g.own[f]

    def freed(cells: tuple[int, ...] | list[int]) -> float:
        return sum(1.0 if lib[c] else _liberating(state, g, c, left_by) * keep_by[c] for c in cells)

    def held(cells: tuple[int, ...]) -> float:
        return sum(keep_by[c] for c in cells if occ[c] == f)

    key = (number, index)
    if key == (1, 0):
        return _step(freed(own), 2)
    if key in ((1, 1), (9, 0)):
        return _step(held(own), len(own)) if own else 0.0
    if key == (2, 0):
        return _step(freed(g.public), 2)
    if key == (2, 1):
        return _step(freed(g.districts), 6)
    if key in ((3, 0), (8, 0)):
        return _step(held(g.states), 2)
    if key == (3, 1):
        return max((keep_by[c] * (1.0 if lib[c] else _liberating(state, g, c, left_by)) for c in g.states
                    if occ[c] == f), default=0.0)
    if key == (4, 0):
        return _step(state.vans_destroyed, 2)
    if key == (4, 1):
        return _step(8.0, max(8.0, float(sum(state.cops))))
    if key == (5, 0):
        return _step(len(state.hands[f]), 5)
    if key == (5, 1):
        return _step(state.burned, 6)
    if key == (6, 0):
        return _step(sum(1 for h in state.order if any(o == h for o in occ)), len(state.order))
    if key == (6, 1):
        return _step(sum(min(left[h], 4.0) for h in state.order), 4 * len(state.order))
    if key == (7, 0):
        return _step(left[f], BLOCS)
    if key == (7, 1):
        return _step(sum(1 for c in g.districts if state.blocs[c][f] and left_by[c] > 0.5), 5)
    if key == (8, 1):
        return _step(held(g.states), 3)
    if key == (9, 1):
        occs = sum(keep_by[c] for c in g.districts if occ[c] == f)
        p_lib, p_occ = _step(freed(own), len(own)) if own else 0.0, _step(occs, 4)
        return 1.0 if p_lib >= 1.0 and p_occ >= 1.0 else 0.7 * p_lib + 0.3 * p_occ
    if key == (10, 0):
        return _step(state.vans_destroyed_by[f], 1)
    if key == (10, 1):
        p_burn, p_vans = _step(state.burned, 8), _step(state.vans_destroyed, 2)
        return 1.0 if p_burn >= 1.0 and p_vans >= 1.0 else 0.5 * p_burn + 0.5 * p_vans
    raise ValueError(f"no agenda option {key}")


def agenda_worth(state: Any, g: Geo, f: int, keep_by: list[float], left_by: list[float],
                 left: dict[int, float]) -> float:
    """Faction ``f``'s own stake in the semi-cooperative game (play part D4): its best Win Cooperatively option (never
    thrown away: the insurrection's success, in :func:`forecast`, still matters for it) and its Win Alone option,
    pursued in proportion to how near it is, and worth more than any shared win once it is in reach."""
    number = state.agendas[f]
    if not number:
        return 0.0
    x = 0.0
    together = 0.0
    for index, option in enumerate(AGENDAS[number].options):
        p = option_progress(state, g, f, number, index, keep_by, left_by, left)
        if option.kind == ALONE:
            x += ALONE_STEP * p * p + (ALONE_MET if p >= 1.0 else 0.0)
        else:
            together = max(together, TOGETHER_STEP * p + (TOGETHER_MET if p >= 1.0 else 0.0))
    return x + together


def blocbybloc_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    """:func:`forecast` squashed into (0, 1): the table's (the same for every seat) in the fully cooperative game,
    the seat's own in the semi-cooperative one."""
    return 1.0 / (1.0 + math.exp(-forecast(state, seat) / 25.0))


def seat_points(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    """:func:`seat_value` unsquashed, in :func:`forecast`'s points: :data:`WON` when the game is over and the seat is
    among its winners, ``-WON`` when it lost, else the forecast (the seat's own in the semi-cooperative game). A
    gap between two moves keeps its size however high the position stands (the squashed value flattens it there)."""
    result = game.result(state)
    if result is not None:
        return WON if seat in result.winners else -WON
    return forecast(state, seat)


def seat_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    """The seat's value of ``state`` in [0, 1]: 1 when the game is over and the seat is among its winners (every
    seat, in a cooperative win; in the semi-cooperative game the winning factions' seats, alone or several), 0 when
    it lost, else :func:`blocbybloc_value`."""
    result = game.result(state)
    if result is not None:
        return 1.0 if seat in result.winners else 0.0
    return blocbybloc_value(game, state, seat)
