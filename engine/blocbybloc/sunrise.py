"""Sunrise (play part D3): the loot windows (cards part C3), police repression (vans, then cops, with the splits
of mixed clashes and Medic Kits), district liberation with its manifestation cards, and the pooled reveal of
police ops cards."""

from __future__ import annotations

from engine.base import Event
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import cell_name
from engine.blocbybloc.common import district_name, named, play_card, say
from engine.blocbybloc.manifestations import burn_van, manifest, near, walls
from engine.blocbybloc.model import MANIFESTATION_NAMES, OCCUPATION_NAMES, BlocState, Pending
from engine.blocbybloc.moves import Move, blocs
from engine.blocbybloc.night import next_night
from engine.rng import Rng


def _struck(who: str, one: bool, defeated: str, evicted: str) -> str:
    """A police attack in words, the verbs agreeing with ``who`` (``one``: singular), naming only what happened:
    "2 cops in C5 defeat 3 blocs and evict the Neighbors' Faction Start.", "1 cop in B5 evicts …"."""
    s = "s" if one else ""
    done = ([f"defeat{s} {defeated}"] if defeated else []) + ([f"evict{s} {evicted}"] if evicted else [])
    return f"{who} {' and '.join(done) or 'defeat' + s + ' nothing'}."


def begin_sunrise(state: BlocState, events: list[Event], rng: Rng) -> None:
    state.phase = "sunrise"
    state.last_police = []
    state.shields, state.paints, state.medics, state.banners = {}, [], [], {}
    for cell in state.city.districts:
        if state.vans[cell] > 0:
            state.vans[cell] = 0
    events.append(Event("sunrise", None, f"☀️ Sunrise of night {state.night}: police repression (vans "
                        "repaired)."))
    open_window(state, "repression", events, rng)


# --- the Sunrise loot windows (cards part C3) -------------------------------------------------------------------------
def window_plays(state: BlocState, f: int, window: str) -> list[Move]:
    hand = state.hands[f]
    city = state.city
    out: list[Move] = []
    mine = [c for c in city.districts if state.blocs[c][f]]
    if window == "repression":
        if "medic" in hand and any(state.occ_owner[c] == f for c in range(25)):
            out += [Move("medic", cell=c) for c in mine]
        if "shield" in hand:
            out += [Move("shield", cell=c) for c in mine if state.cops[c] > 0]
        if "paint" in hand:
            out += [Move("paint", cell=c) for c in city.districts if state.vans[c] >= 0 and c not in
                    state.paints and (state.blocs[c][f] or state.occ_owner[c] == f)]
    elif "banner" in hand:
        out += [Move("banner", cell=c) for c in mine if state.occ_owner[c] >= 0 and not state.liberated[c]
                and city.tile(c).liberatable]
    return out


def open_window(state: BlocState, window: str, events: list[Event], rng: Rng) -> None:
    state.window, state.window_turn, state.window_passes = window, 0, 0
    next_in_window(state, events, rng)


def next_in_window(state: BlocState, events: list[Event], rng: Rng) -> None:
    """Ask the next faction (this night's order, round after round) with a card to play; close the window
    once a whole round has passed."""
    order = state.night_order()
    while state.window_passes < len(order):
        f = order[state.window_turn % len(order)]
        state.window_turn += 1
        if window_plays(state, f, state.window):
            state.pending.append(Pending("window", f, action=state.window))
            return
        state.window_passes += 1
    window, state.window = state.window, ""
    if window == "repression":
        vans_attack(state, events, rng)
    else:
        liberate(state, events, rng)


def window_answer(state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
    f = p.faction
    if move.kind == "pass":
        state.window_passes += 1
    else:
        state.window_passes = 0
        play_card(state, f, move.kind)
        key = str(move.cell)
        if move.kind == "shield":
            state.shields[key] = state.shields.get(key, 0) + 1
            text = f"Shield Wall: 2 cops in {cell_name(move.cell)} will not attack"
        elif move.kind == "paint":
            state.paints.append(move.cell)
            text = f"Paint Bombs: the van in {cell_name(move.cell)} will not attack"
        elif move.kind == "medic":
            state.medics.append([f, move.cell])
            text = f"Medic Kit: up to 2 {named(f)} blocs defeated in {cell_name(move.cell)} will be saved"
        else:
            state.banners[key] = state.banners.get(key, 0) + 1
            text = f"Banner Drop: {cell_name(move.cell)} counts 2 more blocs for liberation"
        say(events, state, "card", f"{named(f)} play {text}.", f)
    next_in_window(state, events, rng)


# --- Police Repression ------------------------------------------------------------------------------------------------
def vans_attack(state: BlocState, events: list[Event], rng: Rng) -> None:
    city = state.city
    state.defeated = [[0, 0, 0, 0] for _ in range(25)]
    for cell in city.districts:
        if state.vans[cell] < 0 or (sum(state.blocs[cell]) == 0 and state.occ_owner[cell] < 0):
            continue
        if cell in state.paints:
            events.append(Event("repression", None, f"The van in {cell_name(cell)} does not attack (Paint "
                                "Bombs)."))
            continue
        lost = sum(state.blocs[cell])
        state.defeated[cell] = list(state.blocs[cell])
        state.blocs[cell] = [0, 0, 0, 0]
        events.append(Event("repression", None, _struck(f"The van in {cell_name(cell)}", True,
                                                        blocs(lost) if lost else "", evict(state, cell))))
    for cell in sorted(city.districts, key=lambda c: city.tile(c).pid):
        c, n = attackers(state, cell), sum(state.blocs[cell])
        if c <= 0 or (n == 0 and state.occ_owner[cell] < 0):
            continue
        factions = [g for g in range(4) if state.blocs[cell][g]]
        if c < n and len(factions) > 1:
            state.pending.append(Pending("split", chooser(state, cell), cell=cell, hits=c,
                                         default=default_split(state, cell, c)))
    if not state.pending:
        repress(state, events, rng)


def attackers(state: BlocState, cell: int) -> int:
    return max(0, state.cops[cell] - 2 * state.shields.get(str(cell), 0))


def chooser(state: BlocState, cell: int) -> int:
    counts = state.blocs[cell]
    top = max(counts)
    for f in state.night_order():
        if counts[f] == top:
            return f
    raise AssertionError("no chooser")


def default_split(state: BlocState, cell: int, hits: int) -> list[int]:
    here = list(state.blocs[cell])
    total = [state.in_city(f) for f in range(4)]
    late = {f: i for i, f in enumerate(state.night_order())}
    losses = [0, 0, 0, 0]
    for _ in range(hits):
        f = max((g for g in range(4) if here[g] > 0), key=lambda g: (total[g], here[g], late.get(g, -1)))
        here[f] -= 1
        total[f] -= 1
        losses[f] += 1
    return losses


def splits(state: BlocState, p: Pending) -> list[list[int]]:
    here = state.blocs[p.cell]
    out: list[list[int]] = []

    def fill(f: int, left: int, acc: list[int]) -> None:
        if f == 4:
            if left == 0:
                out.append(list(acc))
            return
        for k in range(min(left, here[f]) + 1):
            fill(f + 1, left - k, [*acc, k])

    fill(0, p.hits, [])
    return out


def answer_split(state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
    state.pending = [q for q in state.pending if q is not p]
    p.answer = list(move.losses)
    say(events, state, "split", f"{named(p.faction)} choose the losses in {cell_name(p.cell)}: "
        + ", ".join(f"{named(f)} {k}" for f, k in enumerate(move.losses) if k) + ".", p.faction)
    state.pending.append(p)
    if all(q.answer for q in state.pending):
        repress(state, events, rng)


def repress(state: BlocState, events: list[Event], rng: Rng) -> None:
    chosen = {p.cell: p.answer for p in state.pending}
    state.pending = []
    city = state.city
    for cell in sorted(city.districts, key=lambda c: city.tile(c).pid):
        c, n = attackers(state, cell), sum(state.blocs[cell])
        if c <= 0 or (n == 0 and state.occ_owner[cell] < 0):
            continue
        shield = " (Shield Wall)" if str(cell) in state.shields else ""
        if c >= n:
            for f in range(4):
                state.defeated[cell][f] += state.blocs[cell][f]
            state.blocs[cell] = [0, 0, 0, 0]
            evicted = evict(state, cell) if c > n else ""
            events.append(Event("repression", None, _struck(f"{c} cop{'s' if c > 1 else ''} in {cell_name(cell)}"
                                                            f"{shield}", c == 1, blocs(n) if n else "", evicted)))
            continue
        losses = chosen.get(cell)
        if losses is None:
            f = next(g for g in range(4) if state.blocs[cell][g])
            losses = [0, 0, 0, 0]
            losses[f] = c
        for f in range(4):
            state.blocs[cell][f] -= losses[f]
            state.defeated[cell][f] += losses[f]
        lost = ", ".join(f"{k} {named(f)} bloc{'s' if k > 1 else ''}" for f, k in enumerate(losses) if k)
        events.append(Event("repression", None, _struck(f"{c} cop{'s' if c > 1 else ''} in {cell_name(cell)}"
                                                        f"{shield}", c == 1, lost, "")))
    medics(state, events)
    if not state.pending:
        liberation_window(state, events, rng)


def medics(state: BlocState, events: list[Event]) -> None:
    """Medic Kits place the blocs they saved (cards part C2): one decision per bloc, where it goes."""
    for f, cell in state.medics:
        saved = min(2, state.defeated[cell][f])
        state.defeated[cell][f] -= saved
        if not saved:
            continue
        if not placements(state, f):
            events.append(Event("medic", None, f"The Medic Kit finds no {named(f)} occupation left: the "
                                "blocs go back to the mat."))
            continue
        state.pending += [Pending("place", f, cell=cell) for _ in range(saved)]
    state.medics = []


def placements(state: BlocState, f: int) -> list[int]:
    city = state.city
    return sorted((c for c in range(25) if state.occ_owner[c] == f), key=lambda c: city.tile(c).pid)


def evict(state: BlocState, cell: int) -> str:
    """The district's occupation goes back to its owner's mat: what was evicted, in words ("" for none)."""
    owner = state.occ_owner[cell]
    if owner < 0:
        return ""
    kind = state.occ_kind[cell]
    state.mats[owner].append(kind)
    state.occ_owner[cell], state.occ_kind[cell] = -1, ""
    return f"the {named(owner)}' {OCCUPATION_NAMES[kind]}"


# --- District Liberation ----------------------------------------------------------------------------------------------
def liberation_window(state: BlocState, events: list[Event], rng: Rng) -> None:
    open_window(state, "liberation", events, rng)


def liberate(state: BlocState, events: list[Event], rng: Rng) -> None:
    """One snapshot of the districts that qualify, then each liberated in turn, lowest police ID first."""
    city = state.city
    q = [c for c in city.districts if not state.liberated[c] and city.tile(c).liberatable
         and state.occ_owner[c] >= 0
         and sum(state.blocs[c]) + 2 * state.banners.get(str(c), 0) >= 2 * state.difficulty(c)]
    state.liberating = sorted(q, key=lambda c: city.tile(c).pid)
    state.reveal = [0, 0, -1]
    liberate_next(state, events, rng)


def liberate_next(state: BlocState, events: list[Event], rng: Rng) -> None:
    while state.liberating:
        cell = state.liberating.pop(0)
        state.shops[cell] = []
        state.liberated[cell] = True
        card = state.under[cell]
        pol.raise_morale(state, -1)
        events.append(Event("liberation", None, f"✊ {district_name(state, cell)} is liberated! Manifestation: "
                            f"{MANIFESTATION_NAMES[card]} (level {state.difficulty(cell)}); police morale falls "
                            f"to {pol.MORALE[state.morale - 1]}.", {"card": card}))
        holders = [f for f in state.night_order() if state.blocs[cell][f] and "communique" in state.hands[f]]
        if holders:
            state.pending += [Pending("communique", f, cell=cell) for f in holders]
            return
        resolve_liberation(state, cell, False, events, rng, carry_on=False)
        if state.pending:
            return  # the card's choices first; then the next district
    if pooled_reveal(state, events):
        return
    next_night(state, events, rng)


def resolve_liberation(state: BlocState, cell: int, communique: bool, events: list[Event], rng: Rng,
                       carry_on: bool = True) -> None:
    card, state.under[cell] = state.under[cell], ""
    level = min(5, state.difficulty(cell) + (1 if communique else 0))
    liberators = [f for f in state.night_order() if state.blocs[cell][f]]
    for line in manifest(state, card, cell, level, liberators, state.reveal, rng):
        events.append(Event("manifestation", None, line))
    if carry_on and not state.pending:
        liberate_next(state, events, rng)


def pooled_reveal(state: BlocState, events: list[Event]) -> bool:
    """The one reveal of this Sunrise's pooled cards (cards part C3): shown to all; the chooser may discard up
    to the pooled number and puts the rest back in an order of its choosing. True while a choice is open."""
    n, d, chooser = state.reveal
    state.reveal = [0, 0, -1]
    if not n:
        return False
    top = state.police_deck[-n:][::-1]
    del state.police_deck[-len(top):]
    events.append(Event("reveal", None, "Revealed police ops cards (top first): "
                        + ", ".join(pol.CARDS[c].name for c in top) + "."))
    if d and top:
        state.pending.append(Pending("reveal", chooser, hits=d, cards=top))
    elif len(top) > 1:
        state.pending.append(Pending("scan", chooser, action="reveal", cards=top))
    else:
        state.police_deck += top
        return False
    return True


def manifest_answer(state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
    f = p.faction
    if p.kind == "fever" and move.kind == "wall":
        state.barricades[move.conn] = state.barricades.get(move.conn, 0) + 1
        say(events, state, "manifestation", f"{named(f)} barricade {move.conn} (Barricade Fever).", f)
        p.hits -= 1
        if p.hits > 0 and walls(state, f):
            state.pending.insert(0, p)
        for q in [q for q in state.pending if q.kind == "fever" and not walls(state, q.faction)]:
            state.pending.remove(q)  # the pool ran out: another liberator's Barricade Fever has nothing to build
            say(events, state, "manifestation", f"{named(q.faction)} find no barricade left to build "
                "(Barricade Fever).", q.faction)
    elif p.kind == "squat" and move.kind == "squat":
        state.mats[f].remove(move.occ)
        state.occ_owner[move.cell], state.occ_kind[move.cell] = f, move.occ
        say(events, state, "manifestation", f"{named(f)} build {OCCUPATION_NAMES[move.occ]} in "
            f"{district_name(state, move.cell)} (Squatting Wave).", f)
    elif p.kind == "rout":
        state.cops[move.cell] -= 1
        say(events, state, "manifestation", f"A cop leaves {cell_name(move.cell)} (Police Rout).", f)
        p.hits -= 1
        if p.hits > 0 and any(state.cops[c] for c in near(state, p.cell)):
            state.pending.insert(0, p)
    elif p.kind == "burn":
        say(events, state, "manifestation", burn_van(state, move.cell, p.hits), f)
    elif p.kind == "reveal":
        if move.kind == "drop":
            card = p.cards.pop(move.n - 1)
            state.police_discard.append(card)
            say(events, state, "reveal", f"{named(f)} discard {pol.CARDS[card].name} unresolved.", f)
            p.hits -= 1
        if move.kind == "drop" and p.hits > 0 and p.cards:
            state.pending.insert(0, p)
        elif len(p.cards) > 1:
            state.pending.insert(0, Pending("scan", f, action="reveal", cards=p.cards))
            return
        else:
            state.police_deck += p.cards[::-1]
    if not state.pending:
        if p.kind in ("reveal", "scan"):
            next_night(state, events, rng)
        else:
            liberate_next(state, events, rng)
