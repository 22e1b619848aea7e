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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.base import Game
from engine.blocbybloc.city import TILES, build_city
from engine.blocbybloc.police import DRAWS

CARD_WORTH = {"molotov1": 0.9, "molotov2": 1.4, "molotov3": 1.8, "energy": 1.0, "crowbar": 1.2, "fireworks": 0.8,
              "medic": 0.5, "shield": 0.5, "paint": 0.5, "banner": 0.5, "communique": 0.3, "bicycles": 0.4,
              "dumpster": 0.3, "lookouts": 0.3, "megaphone": 0.6, "clothes": 0.5, "scanner": 0.3, "jammer": 0.5}
OCC_WORTH = {"start": 2.5, "hall": 1.6, "kitchen": 1.0, "strike": 1.5, "workshop": 1.2, "center": 1.0,
             "hacker": 1.2, "garden": 0.6, "cafe": 0.8, "factory": 1.2, "hideout": 1.2}
STATE_HELD = 12.0  # a State district whose occupation survives the Sunrise
ALL_HELD = 40.0  # … all of them: the table wins
READY = 12.0  # the least advanced State district: the table wins only when all of them hold
LOST = 60.0  # a faction wiped off the streets: the table loses


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


@lru_cache(maxsize=64)
def geo(tiles: tuple[str, ...], rotations: tuple[int, ...]) -> Geo:
    city = build_city(tiles, rotations)
    states = tuple(c for c in city.districts if city.tile(c).type == "State")
    adjacent = tuple(tuple(sorted(city.adjacent[c])) for c in range(25))
    return Geo(
        districts=city.districts, states=states, adjacent=adjacent,
        conns=tuple(tuple((conn.other(c), conn.id) for conn in city.touching[c]) for c in range(25)),
        kind=tuple(TILES[t].type for t in tiles), liberatable=tuple(TILES[t].liberatable for t in tiles),
        near_state=tuple(any(a in states for a in adjacent[c]) for c in range(25)))


def city_geo(state: Any) -> Geo:
    return geo(tuple(state.tiles), tuple(state.rotations))


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


def threat(state: Any, g: Geo) -> list[list[tuple[float, float]]]:
    """By district, the groups of cops that may walk in before the Sunrise, as (chance, cops): a group of 2+ cops
    outside a clash advances (all but one) when an Advance card names a type it stands next to (or, for an
    occupied district, a Paramilitary Operations card comes); barricades on the way stop some."""
    draws = draws_left(state)
    out: list[list[tuple[float, float]]] = [[] for _ in range(25)]
    if not draws:
        return out
    para = {"easy": 1, "medium": 2}.get(state.options.get("difficulty", "hard"), 3)
    cops, blocs, vans, occ = state.cops, state.blocs, state.vans, state.occ_owner
    chance = [0.0] * 25
    for t in g.districts:
        chance[t] = _chance(t in g.states, occ[t] >= 0, para, draws)
    for s in g.districts:
        if cops[s] < 2 or sum(blocs[s]):
            continue
        movers = cops[s] - 1
        for t, conn in g.conns[s]:
            if vans[t] >= 0:
                continue  # a district the police hold already
            k = movers - _stopped(state.barricades.get(conn, 0), movers)
            if k > 0:
                out[t].append((chance[t], k))
    return out


def forecast(state: Any) -> float:
    """The table's worth of ``state`` (unbounded; more is better), looking at the coming Sunrise."""
    g = city_geo(state)
    order = state.order
    blocs, cops, vans, occ = state.blocs, state.cops, state.vans, state.occ_owner
    incoming = threat(state, g)
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
    left = {f: 0.0 for f in order}  # blocs left after the Sunrise, by faction
    wiped = {f: 1.0 for f in order}  # the chance the Sunrise leaves the faction no bloc
    x = 0.0
    held = 1.0  # the chance every State district holds
    ready = 1.0  # how near the least advanced State district is to holding an occupation
    total_cops = 0
    in_cell = [sum(here) for here in blocs]  # blocs by cell
    police = [k > 0 or v >= 0 for k, v in zip(cops, vans, strict=True)]  # as state.police(cell)
    starts = {occ[c] for c, kind in enumerate(state.occ_kind) if kind == "start"}  # factions holding their Start
    for c in g.districts:
        here = blocs[c]
        n = in_cell[c]
        owner = occ[c]
        total_cops += cops[c]
        van = vans[c] >= 0 and c not in paints and not repressed
        certain = 0 if repressed else max(0, cops[c] - 2 * shields.get(str(c), 0)) if shields else max(0, cops[c])
        groups = [] if repressed else incoming[c]
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
        for f in order:
            if here[f]:
                left[f] += here[f] * kept
                wiped[f] *= wipe
        survivors = n * kept
        if c in g.states:
            if owner >= 0:
                if others_to_play and keep_occ < 1.0 and not van:
                    keep_occ = 1.0 - 0.6 * (1.0 - keep_occ)  # the factions still to play may come to hold it
                x += held_w * keep_occ
                held *= keep_occ
                ready = min(ready, keep_occ)
            else:
                held = 0.0
                if vans[c] < 0:
                    x += 4.0  # the van is gone: the district can be cleared
                else:
                    x += 0.6 * vans[c]  # damaged tonight (repaired at the Sunrise)
                    if not last:
                        x -= 2.5  # a van there brings more cops with each reinforcement
                x -= 0.5 * min(cops[c], 6) + 0.3 * max(0, cops[c] - 2)
                if not last:
                    x -= 0.4 * sum(p * k for p, k in groups)  # cops likely to walk in
                ready = min(ready, 0.5 / (1.0 + 0.3 * cops[c] + (1.0 if vans[c] >= 0 else 0.0)))
                staged = sum(in_cell[a] for a in g.adjacent[c] if not police[a])
                x += 0.35 * min(staged, 5)
            x += 0.25 * min(survivors, 4)
        elif owner >= 0 and not last:
            worth = OCC_WORTH.get(state.occ_kind[c], 1.0)
            if state.occ_kind[c] == "strike" and g.near_state[c]:
                worth += 2.5
            x += worth * keep_occ
        if last:
            continue
        lib = 3.0 if g.near_state[c] or c in g.states else 1.5  # its manifestation card may clear a State district
        if owner >= 0 and g.liberatable[c] and not state.liberated[c]:
            need = 2 * state.difficulty(c) - 2 * state.banners.get(str(c), 0)
            x += (lib if survivors >= need else lib / 3 * min(1.0, survivors / max(1, need))) * keep_occ
        if state.liberated[c]:
            x += lib
    if held > 0:
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
    x -= 1.5 * sum(1 for v in vans if v >= 0)
    x -= 0.08 * total_cops
    x -= 0.8 * state.morale
    return x


def blocbybloc_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    """Cooperative (the same for every seat): :func:`forecast` squashed into (0, 1)."""
    return 1.0 / (1.0 + math.exp(-forecast(state) / 25.0))
