"""Manifestation cards (cards part C3): a card's effect when its district is liberated, with its default choices,
and the choices a card leaves to the liberators (barricades, squats, cops routed, the van that burns)."""

from __future__ import annotations

from engine.blocbybloc import police as pol
from engine.blocbybloc.city import STATE, cell_name
from engine.blocbybloc.common import draw_loot, named
from engine.blocbybloc.model import BARRICADES, FACTIONS, MAX_BARRICADES, BlocState, Pending
from engine.blocbybloc.moves import Move, blocs
from engine.rng import Rng


def manifest(state: BlocState, card: str, cell: int, level: int, liberators: list[int],
             reveal: list[int], rng: Rng) -> list[str]:
    """A manifestation card's effect at ``level`` (L1–L5), with its default choices (cards part C3)."""
    city = state.city
    lv = max(1, min(5, level)) - 1

    names = ", ".join(named(f) for f in liberators)
    if card == "mass_looting":
        n = (1, 1, 2, 2, 3)[lv]
        for f in liberators:
            draw_loot(state, f, n, rng)
        return [f"{names} each draw {n} loot card{'s' if n > 1 else ''}."]
    if card == "crowd_swells":
        n = (1, 1, 2, 2, 3)[lv]
        for f in liberators:
            state.blocs[cell][f] += min(n, state.on_mat(f))
        return [f"{names} each form up to {blocs(n)} in {cell_name(cell)}."]
    if card == "barricade_fever":
        n = (1, 1, 2, 3, 4)[lv]
        builders = [f for f in liberators if walls(state, f)]  # those with room for a barricade
        for f in builders:
            state.pending.append(Pending("fever", f, cell=cell, hits=n))
        if not builders:
            return ["Barricade Fever: no room for a barricade around the liberators' districts."]
        each = "each " if len(builders) > 1 else ""
        return [f"{', '.join(named(f) for f in builders)} may {each}build up to {n} "
                f"barricade{'s' if n > 1 else ''} around districts where they have blocs."]
    if card == "free_transit":
        n = (1, 1, 1, 2, 2)[lv]
        for f in liberators:
            state.free_moves[f] += n
        return [f"{names} each get {n} free movement{'s' if n > 1 else ''} next turn."]
    if card == "momentum":
        n = (1, 1, 1, 1, 2)[lv]
        for f in liberators:
            state.momentum[f] += n
        return [f"{names} each roll {n} more action di{'ce' if n > 1 else 'e'} next turn."]
    if card == "squatting_wave":
        builders = [f for f in liberators if squats(state, f, cell, lv + 1)]  # those who can build
        for f in builders:
            state.pending.append(Pending("squat", f, cell=cell, hits=lv + 1))
        if not builders:
            return [f"Squatting Wave: no liberator can build an occupation next to {cell_name(cell)}."]
        each = "each " if len(builders) > 1 else ""
        return [f"{', '.join(named(f) for f in builders)} may {each}build an occupation next to "
                f"{cell_name(cell)}, free."]
    if card == "police_rout":
        n = min((1, 1, 2, 3, 4)[lv], sum(state.cops[c] for c in near(state, cell)))  # as many as there are
        if n:
            state.pending.append(Pending("rout", liberators[0], cell=cell, hits=n))
            return [f"Police Rout: {n} cop{'s' if n > 1 else ''} from {cell_name(cell)} and around "
                    f"go{'' if n > 1 else 'es'} to staging."]
        return [f"Police Rout: no cop in or around {cell_name(cell)}."]
    if card == "tactical_collapse":
        area = near(state, cell) if lv < 3 else list(city.districts)
        gone = [c for c in area if state.cops[c] == 1 and state.vans[c] < 0]
        for c in gone:
            state.cops[c] = 0
        return [f"{len(gone)} solo cop{'s' if len(gone) != 1 else ''} collapse back to staging."]
    if card == "riot_van_burns":
        vans = vans_in_range(state, cell, lv + 1)
        if not vans:
            return ["Riot Van Burns: no van in range."]
        if len(vans) > 1:
            state.pending.append(Pending("burn", liberators[0], cell=cell, hits=lv + 1))
            return ["Riot Van Burns: a van in range burns."]
        return [burn_van(state, vans[0], lv + 1)]
    if card in ("leaked_patrol_routes", "whistleblower"):
        n = (1, 1, 2, 3, 4)[lv]
        reveal[0] += n
        if card == "whistleblower":
            reveal[1] += (1, 1, 1, 1, 2)[lv]
        if reveal[2] < 0 or state.night_order().index(liberators[0]) < state.night_order().index(reveal[2]):
            reveal[2] = liberators[0]  # the earliest liberating faction of the pooled cards chooses
        return [f"{n} police ops card{'s' if n > 1 else ''} to reveal after the liberations."]
    if card == "police_demoralized":
        n = (0, 0, 1, 1, 2)[lv]
        pol.raise_morale(state, -n)
        return [f"Police morale falls {n} more step{'s' if n != 1 else ''}: {pol.MORALE[state.morale - 1]}."]
    if lv < 3:
        for f in liberators:
            draw_loot(state, f, 1, rng)
        return [f"General Strike: {names} each draw a loot card."]
    if state.countdown < 8:
        state.countdown += 1
        return ["General Strike: one more night before the military arrives."]
    for f in liberators:
        draw_loot(state, f, 2, rng)
    return [f"General Strike: {names} each draw 2 loot cards."]


# --- manifestation choices --------------------------------------------------------------------------------------------
def near(state: BlocState, cell: int) -> list[int]:
    city = state.city
    return [cell, *sorted(city.adjacent[cell], key=lambda c: city.tile(c).pid)]


def walls(state: BlocState, f: int) -> list[str]:
    """Connections with room around districts where ``f`` has blocs (Barricade Fever; clashes allowed)."""
    if sum(state.barricades.values()) >= BARRICADES:
        return []
    city = state.city
    return sorted({c.id for cell in city.districts if state.blocs[cell][f] for c in city.touching[cell]
                   if state.barricades.get(c.id, 0) < MAX_BARRICADES})


def fever_default(state: BlocState, p: Pending) -> str:
    city = state.city
    room = [c for c in city.touching[p.cell] if state.barricades.get(c.id, 0) < MAX_BARRICADES]
    if not room or sum(state.barricades.values()) >= BARRICADES:
        return "pass"
    return "wall " + min(room, key=lambda c: (state.barricades.get(c.id, 0), c.id)).id


def squats(state: BlocState, f: int, cell: int, level: int) -> list[Move]:
    city = state.city
    types = {FACTIONS[f]} | ({"Public"} if level >= 4 else set()) | ({STATE} if level >= 5 else set())
    return [Move("squat", cell=c, occ=o) for c in sorted(city.adjacent[cell])
            if city.tile(c).circle and state.occ_owner[c] < 0 and not state.police(c)
            and city.tile(c).type in types for o in sorted(set(state.mats[f]))]


def vans_in_range(state: BlocState, cell: int, level: int) -> list[int]:
    city = state.city
    area = near(state, cell) if level < 5 else [cell, *sorted(city.districts, key=lambda c: city.tile(c).pid)]
    return [c for c in dict.fromkeys(area) if state.vans[c] >= 0]


def burn_van(state: BlocState, van: int, level: int) -> str:
    state.vans[van] = -1
    if level >= 4 or state.options.get("scenario") == "abolish":
        state.vans_box += 1
        state.vans_destroyed += 1  # a manifestation card's: counts for no faction (play part D4)
        return f"The van in {cell_name(van)} burns: destroyed."
    return f"The van in {cell_name(van)} is sent back to staging."
