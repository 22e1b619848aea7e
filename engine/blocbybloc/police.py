"""The police of Bloc by Bloc: the police ops deck, the morale track, the card algorithms and drawing a card.

Source: ``../shared/rules/bloc-by-bloc/police.md`` (part B). Every function here changes a :class:`BlocState`
in place and returns lines for the log (:func:`draw_police` adds its event itself); all randomness comes from the
state's generator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.base import Event
from engine.blocbybloc.city import COMMERCIAL, NEIGHBORS, PRISONERS, PUBLIC, STATE, STUDENTS, WORKERS, City, cell_name
from engine.blocbybloc.model import FACTIONS, BlocState
from engine.rng import Rng

COPS, VANS = 30, 6
MORALE = ("Timid", "Alert", "Bold", "Brutal", "Deadly")  # steps 1–5
DRAWS = (1, 2, 2, 2, 3)  # police ops cards per step


@dataclass(frozen=True)
class PoliceCard:
    id: str  # PO01…PO34
    kind: str  # advance paramilitary heavy light emergency maneuvers retreat rotation lockdown chief
    name: str
    morale: bool  # +1 police morale
    highest: bool  # ID priority: Highest (else Lowest)
    target: str = ""  # Advance: the district type


def _deck() -> dict[str, PoliceCard]:
    cards: list[PoliceCard] = []

    def add(kind: str, name: str, flags: str, prio: str, target: str = "") -> None:
        for flag, p in zip(flags, prio, strict=True):
            cards.append(PoliceCard(f"PO{len(cards) + 1:02d}", kind, name, flag == "y", p == "H", target))

    add("advance", "Advance to State Districts", "nnnn", "HLHL", STATE)
    for t in (WORKERS, STUDENTS, NEIGHBORS, PRISONERS, PUBLIC, COMMERCIAL):
        add("advance", f"Advance to {t} Districts", "nn", "HL", t)
    add("paramilitary", "Paramilitary Operations", "yyy", "HLH")
    add("heavy", "Heavy Reinforcements", "yy", "HL")
    add("light", "Light Reinforcements", "yyn", "HLH")
    add("emergency", "Emergency Reinforcements", "nn", "HH")
    add("maneuvers", "Maneuvers", "nn", "HH")
    add("retreat", "Tactical Retreat", "nn", "HL")
    add("rotation", "Strategic Rotation", "nn", "HL")
    add("lockdown", "Metro Lockdown", "n", "L")
    add("chief", "Chief of Police Fired", "n", "H")
    assert len(cards) == 34
    return {c.id: c for c in cards}


CARDS = _deck()
REMOVED_BY_DIFFICULTY = {"easy": ("PO18", "PO19"), "medium": ("PO19",), "hard": ()}


def removed_cards(difficulty: str, kinds: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The cards out of the deck for a difficulty (B3) and a scenario's removed kinds (Abolish the Police: both
    Emergency Reinforcements, on top of the difficulty's removal)."""
    return REMOVED_BY_DIFFICULTY[difficulty] + tuple(c for c, card in CARDS.items() if card.kind in kinds)


def police_deck(difficulty: str, rng: Rng, removed: tuple[str, ...] = ()) -> list[str]:
    """The shuffled deck for a difficulty, without the cards of the ``removed`` kinds; the top card is the last of
    the list."""
    out = removed_cards(difficulty, removed)
    deck = [c for c in CARDS if c not in out]
    rng.shuffle(deck)
    return deck


def card_text(card: PoliceCard) -> str:
    prio = "highest police number first" if card.highest else "lowest police number first"
    morale = ", +1 police morale" if card.morale else ""
    return f"{card.name} ({prio}{morale})"


def in_clash(state: BlocState, cell: int) -> bool:
    return sum(state.blocs[cell]) > 0 and (state.cops[cell] > 0 or state.vans[cell] >= 0)


def staging_cops(state: BlocState) -> int:
    return COPS - sum(state.cops)


def vans_in_city(state: BlocState) -> int:
    return sum(1 for v in state.vans if v >= 0)


def staging_vans(state: BlocState) -> int:
    return VANS - vans_in_city(state) - state.vans_box


def raise_morale(state: BlocState, steps: int = 1) -> None:
    state.morale = max(1, min(5, state.morale + steps))


def _by_pid(city: City, cells: list[int], highest: bool) -> list[int]:
    return sorted(cells, key=lambda c: city.tile(c).pid, reverse=highest)


def route(state: BlocState, city: City, a: int, b: int) -> str:
    """The connection police use between adjacent ``a`` and ``b``: the street, or the highway link with fewer
    barricades (a tie: the link whose highway cell comes first in reading order)."""
    options = city.between(a, b)
    options.sort(key=lambda c: (state.barricades.get(c.id, 0), c.highway if c.highway is not None else -1))
    return options[0].id


def stopped_by(barricades: int, movers: int) -> int:
    """Cops of a group of ``movers`` stopped by ``barricades`` on the route (B4.2 step 6)."""
    if barricades <= 0:
        return 0
    if barricades == 1:
        return min(1, movers)
    if barricades == 2:
        return movers // 2
    return movers


def advance(state: BlocState, city: City, target: Callable[[int], bool], highest: bool) -> list[str]:
    """Riot Cop Movement (B4.2): every group of 2+ cops not in a clash moves to an adjacent target district,
    leaving one cop behind; barricades on the route stop some and are dismantled if they stop any."""
    c0 = list(state.cops)
    clash = [in_clash(state, c) for c in range(len(c0))]
    targets = {c for c in city.districts if target(c)}
    sources = _by_pid(city, [c for c in city.districts if c0[c] >= 2 and not clash[c]], highest)
    lines = []
    for s in sources:
        candidates = [c for c in city.adjacent[s] if c in targets]
        if not candidates:
            continue
        t = _by_pid(city, candidates, highest)[0]
        conn = route(state, city, s, t)
        movers = c0[s] - 1
        b = state.barricades.get(conn, 0)
        k = stopped_by(b, movers)
        if k >= 1:
            state.barricades.pop(conn, None)
        state.cops[s] -= movers - k
        state.cops[t] += movers - k
        text = f"{movers - k} cop{'s' if movers - k != 1 else ''} {cell_name(s)} → {cell_name(t)}"
        if k:
            text += f" ({k} stopped by {b} barricade{'s' if b > 1 else ''}, dismantled)"
        lines.append(text)
    return lines or ["no group of cops could advance"]


def reinforce(state: BlocState, city: City, k: int, highest: bool) -> list[str]:
    """Heavy (2) / Light (1) Reinforcements (B4.3): each responding van deploys k cops from staging."""
    lines = []
    for cell in _by_pid(city, [c for c in city.districts if state.vans[c] == 0], highest):
        n = min(k, staging_cops(state))
        if n <= 0:
            break
        state.cops[cell] += n
        lines.append(f"+{n} cop{'s' if n > 1 else ''} in {cell_name(cell)}")
    return lines or ["no van could deploy cops"]


def emergency(state: BlocState, city: City) -> list[str]:
    if vans_in_city(state) >= 4 or staging_vans(state) <= 0:
        return ["nothing (4 vans in the city or none in staging)"]
    candidates = [c for c in city.districts if state.cops[c] >= 1 and state.vans[c] < 0]
    if not candidates:
        return ["nothing (no district with cops and no van)"]
    cell = _by_pid(city, candidates, True)[0]
    state.vans[cell] = 0
    return [f"a van arrives in {cell_name(cell)}"]


def maneuvers(state: BlocState, city: City) -> list[str]:
    responding = [c for c in city.districts if state.vans[c] == 0]
    if not responding:
        return ["nothing (no responding van)"]
    candidates = [c for c in city.districts if (state.vans[c] >= 0 or state.cops[c] >= 1) and state.vans[c] <= 0]
    chosen = _by_pid(city, candidates, True)[:len(responding)]
    leaving = _by_pid(city, [c for c in responding if c not in chosen], True)
    free = _by_pid(city, [c for c in chosen if state.vans[c] < 0], True)
    lines = []
    for src, dst in zip(leaving, free, strict=False):
        state.vans[src] = -1
        state.vans[dst] = 0
        lines.append(f"van {cell_name(src)} → {cell_name(dst)}")
    return lines or ["the vans hold their places"]


def retreat(state: BlocState, city: City) -> list[str]:
    gone = [c for c in city.districts if state.cops[c] == 1 and state.vans[c] < 0 and sum(state.blocs[c]) == 0]
    for c in gone:
        state.cops[c] = 0
    return [f"solo cops leave {', '.join(cell_name(c) for c in gone)}"] if gone else ["no solo cop to withdraw"]


def rotation(state: BlocState, city: City) -> list[str]:
    lines = []
    for c in city.districts:
        if state.cops[c] >= 7:
            n = state.cops[c] - 6
            lines.append(f"{n} cop{'s leave' if n > 1 else ' leaves'} {cell_name(c)}")
            state.cops[c] = 6
    return lines or ["no district holds 7 or more cops"]


def occupied(state: BlocState) -> Callable[[int], bool]:
    return lambda c: state.occ_owner[c] >= 0


def draw_police(state: BlocState, events: list[Event], rng: Rng) -> None:
    """Draw the top police ops card (reshuffling the discard pile when the deck runs out) and carry it out."""
    if not state.police_deck:
        state.police_deck, state.police_discard = state.police_discard, []
        rng.shuffle(state.police_deck)
    if not state.police_deck:
        events.append(Event("police", None, "The police ops deck is empty: nothing happens."))
        return
    cid = state.police_deck.pop()
    card = CARDS[cid]
    state.last_police.append(cid)
    if card.morale:
        raise_morale(state)
    if not state.police_deck and state.police_discard:
        state.police_deck, state.police_discard = state.police_discard, []
        rng.shuffle(state.police_deck)
    lines = _resolve(state, card, rng)
    morale = f" Morale: {MORALE[state.morale - 1]}." if card.morale else ""
    events.append(Event("police", None, f"🚨 {card.name} ({'highest' if card.highest else 'lowest'} ID): "
                        + "; ".join(lines) + "." + morale, {"card": cid}))
    if card.kind not in ("lockdown", "chief"):
        state.police_discard.append(cid)


def _resolve(state: BlocState, card: PoliceCard, rng: Rng) -> list[str]:
    """What ``card`` does, by its kind."""
    city = state.city
    if card.kind == "advance":
        return advance(state, city, lambda c: city.tile(c).type == card.target, card.highest)
    if card.kind == "paramilitary":
        lines = reinforce(state, city, 1, card.highest)
        return lines + advance(state, city, occupied(state), card.highest)
    if card.kind in ("heavy", "light"):
        return reinforce(state, city, 2 if card.kind == "heavy" else 1, card.highest)
    if card.kind == "emergency":
        return emergency(state, city)
    if card.kind == "maneuvers":
        return maneuvers(state, city)
    if card.kind == "retreat":
        return retreat(state, city)
    if card.kind == "rotation":
        return rotation(state, city)
    if card.kind == "lockdown":
        order = state.order
        state.lockdown = order[(order.index(state.faction_now()) + 1) % len(order)]
        return [f"no metro for anyone until the end of the {FACTIONS[state.lockdown]}' next turn"]
    # Chief of Police Fired: a new deck of everything else; this card starts the discard pile
    state.police_deck += state.police_discard
    state.police_discard = [card.id]
    rng.shuffle(state.police_deck)
    return ["the police ops deck is reshuffled"]
