"""A faction's Sunset turn being played (play part D2): each action carried out, stops of advanced actions, attacks
and their runs, reaction rolls, loot cards played on their own, and the end of the turn (its police ops cards,
then the next faction or Sunrise)."""

from __future__ import annotations

from engine.base import CANCEL, Event
from engine.blocbybloc import police as pol
from engine.blocbybloc.actions import is_action, is_basic
from engine.blocbybloc.city import cell_name
from engine.blocbybloc.common import district_name, draw_keep, draw_loot, left, named, occ, play_card, say, spend
from engine.blocbybloc.exchanges import lapse
from engine.blocbybloc.model import BARRICADES, LOOT_NAMES, MAX_BARRICADES, OCCUPATION_NAMES, BlocState, Pending
from engine.blocbybloc.moves import ADVANCED, ATTACKS, STRENGTH, Move, blocs, describe, format_move, parse
from engine.blocbybloc.night import begin_turn
from engine.blocbybloc.sunrise import begin_sunrise
from engine.rng import Rng

# what keeps an open run of attacks open (play part D2): die boosts, looks, free draws
KEEPS_RUN = ("energy", "scanner", "jammer", "workshop")  # (exchanges never touch a run: they are no actions)


def act(state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
    """Faction ``f``'s action in its step 2. A move that does not keep an open run of attacks open closes it first,
    with the run's reaction roll."""
    keeps = move.kind in KEEPS_RUN or (move.kind in ATTACKS and move.cell == state.run)
    if state.run >= 0 and not keeps:
        cell, state.run = state.run, -1
        if reaction(state, f, cell, events, rng, then=move):
            return  # Lookouts asked first; the move carries on after
        carry_on(state, f, move, kitchen_gave(events), events, rng)
        return
    do_action(state, f, move, events, rng)


def carry_on(state: BlocState, f: int, move: Move | None, gained: bool, events: list[Event], rng: Rng) -> None:
    """After the roll that closed a run: the move that closed it, if it is still possible."""
    if move is None or state.outcome:
        return
    if move.kind == "end":
        if not gained:  # People's Kitchen dice from that roll: the turn goes on
            end_turn(state, f, events, rng)
        return
    if not is_action(state, f, move):
        text = format_move(move)
        events.append(Event(CANCEL, state.controller[f], f"{describe(move)} is no longer possible after the police "
                            "reaction: nothing spent.", {"move": text}))
        return
    do_action(state, f, move, events, rng)


def do_action(state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
    """Carry out an action (an advanced one waits first for a stop or allow where another faction leads)."""
    k = move.kind
    if k == "end":
        end_turn(state, f, events, rng)
    elif k in ADVANCED:
        stopper = stopping_faction(state, f, move.cell)
        if stopper >= 0:
            state.pending.insert(0, Pending("stop", stopper, cell=move.cell, action=format_move(move)))
            say(events, state, "declare", f"{named(f)} declare `{format_move(move)}`; "
                f"{named(stopper)} may stop it.", f)
            return
        advanced_action(state, f, move, events, rng)
    elif k in ATTACKS:
        spend(state, f, move.die)
        attack(state, f, move, events)
    elif k in ("move", "bicycles", "clothes"):
        if k == "move":
            spend(state, f, move.die)
            how = "a free movement" if move.die == 0 else f"die {move.die}"
        else:
            play_card(state, f, k)
            how = LOOT_NAMES[k]
        state.blocs[move.cell][f] -= move.n
        state.blocs[move.to][f] += move.n
        cap_attacks(state, f, move.cell)
        say(events, state, "move", f"{named(f)} move {blocs(move.n)} {cell_name(move.cell)} → "
            f"{cell_name(move.to)} ({how}).", f)
    elif k in ("barricade", "dumpster", "garden"):
        conns = (move.conn,) if k == "barricade" else move.extra
        if k == "dumpster":
            play_card(state, f, "dumpster")
        else:
            spend(state, f, move.die)
        placed = []
        for conn in conns:
            if sum(state.barricades.values()) < BARRICADES and state.barricades.get(conn, 0) < MAX_BARRICADES:
                state.barricades[conn] = state.barricades.get(conn, 0) + 1
                placed.append(conn)
        how = {"barricade": "", "dumpster": " (Dumpster Barricade)", "garden": " (Guerrilla Garden)"}[k]
        say(events, state, "barricade", f"{named(f)} barricade {', '.join(placed)}{how}.", f)
    elif k == "hall":
        spend(state, f, move.die)
        state.used["hall"] = state.used.get("hall", 0) + 1
        cell = state.occupation_cell(f, "hall")
        state.blocs[cell][f] += 1
        say(events, state, "hall", f"{named(f)} form a bloc at their Assembly Hall ({cell_name(cell)}).", f)
    elif k == "hacker":
        spend(state, f, move.die)
        state.used["hacker"] = state.used.get("hacker", 0) + 1
        draw_keep(state, f, 2, 1, "Hacker Space", events, rng)
    elif k == "workshop":
        state.used["workshop"] = state.used.get("workshop", 0) + 1
        got = draw_loot(state, f, 1, rng)
        say(events, state, "workshop", f"{named(f)} draw {len(got)} free loot card (Propaganda "
            "Workshop).", f)
    else:
        card_action(state, f, move, events, rng)


def card_action(state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
    """A loot card of the 'your turn' window played on its own."""
    k = move.kind
    play_card(state, f, k)
    if k == "energy":
        state.dice.remove(move.die)
        state.dice = sorted([*state.dice, min(6, move.die + 2)])
        say(events, state, "card", f"{named(f)} play Energy Drinks: a {move.die} becomes a "
            f"{min(6, move.die + 2)}.", f)
    elif k == "jammer":
        state.used["jammer"] = 1
        say(events, state, "card", f"{named(f)} play Radio Jammer: one police ops card fewer this turn.",
            f)
    elif k == "megaphone":
        state.blocs[move.cell][f] += 1
        say(events, state, "card", f"{named(f)} play Megaphone: a bloc forms in {cell_name(move.cell)}.",
            f)
    elif k == "scanner":
        seen = state.police_deck[-3:][::-1]  # top first
        del state.police_deck[-len(seen):]
        state.pending.insert(0, Pending("scan", f, cards=seen))
        say(events, state, "card", f"{named(f)} play Police Scanner and look at the top {len(seen)} police "
            "ops cards.", f)
    elif k == "fireworks":
        conn = state.city.by_id[move.conn]
        dest = conn.other(move.cell)
        state.cops[move.cell] -= move.n
        state.cops[dest] += move.n
        gone = state.barricades.pop(move.conn, 0)
        extra = f", {gone} barricade{'s' if gone > 1 else ''} dismantled" if gone else ""
        say(events, state, "card", f"{named(f)} play Fireworks: {move.n} cop{'s' if move.n > 1 else ''} "
            f"driven from {cell_name(move.cell)} into {cell_name(dest)}{extra}.", f)
        reaction(state, f, move.cell, events, rng)


def advanced_action(state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
    basic = is_basic(state, f, move)
    spend(state, f, move.die)
    if move.crowbar:
        play_card(state, f, "crowbar")
    cell = move.cell
    if move.kind == "loot":
        shops = state.shops[cell]
        i = shops.index(1 if move.burn else 0)
        shops[i] += 1
        if move.burn:
            state.burned += 1  # burn tokens ever placed (play part D4's ``burned``)
        mark = "burn" if move.burn else "graffiti"
        say(events, state, "loot", f"{named(f)} loot in {cell_name(cell)} ({mark}).", f)
        hideout, uses = occ(state, f, "hideout")
        if uses:
            draw_keep(state, f, 3, 3 if state.liberated[hideout] else 2, "Scavenger's Hideout", events,
                      rng)
        else:
            got = draw_loot(state, f, 1, rng)
            say(events, state, "draw", f"{named(f)} draw {len(got)} loot card.", f)
    elif move.kind == "build":
        state.mats[f].remove(move.occ)
        state.occ_owner[cell], state.occ_kind[cell] = f, move.occ
        say(events, state, "build", f"{named(f)} build {OCCUPATION_NAMES[move.occ]} in "
            f"{district_name(state, cell)}.", f)
    elif move.kind == "swap":
        old_f, old = state.occ_owner[cell], state.occ_kind[cell]
        state.mats[old_f].append(old)
        state.mats[f].remove(move.occ)
        state.occ_owner[cell], state.occ_kind[cell] = f, move.occ
        whose = "their own" if old_f == f else f"the {named(old_f)}'"
        say(events, state, "swap", f"{named(f)} swap {whose} {OCCUPATION_NAMES[old]} for "
            f"{OCCUPATION_NAMES[move.occ]} in {cell_name(cell)}.", f)
    if basic:
        return  # made basic by an occupation: no reaction roll
    if state.pending and state.pending[0].kind == "keep":
        state.pending[0].cell, state.pending[0].action = cell, "roll"  # the roll follows the choice of cards
        return
    reaction(state, f, cell, events, rng)


def attack(state: BlocState, f: int, move: Move, events: list[Event]) -> None:
    cell, city = move.cell, state.city
    key = f"{f}:{cell}"
    state.attacked[key] = state.attacked.get(key, 0) + 1
    state.run = cell
    strength = 0
    for card in move.molotovs:
        play_card(state, f, card)
        strength += STRENGTH[card]
    if move.molotovs:
        bonus = max(0, left(state, f, "factory"))
        if bonus:
            state.used["factory"] = state.used.get("factory", 0) + bonus
            strength += 2 * bonus
    hits = 1 + strength
    with_cards = f" with {' + '.join(LOOT_NAMES[c] for c in move.molotovs)}" if move.molotovs else ""
    if move.kind == "defeat":
        n = min(hits, state.cops[cell])
        state.cops[cell] -= n
        say(events, state, "attack", f"{named(f)} defeat {n} cop{'s' if n > 1 else ''} in "
            f"{cell_name(cell)}{with_cards}.", f)
    elif move.kind == "kick":
        conn = city.by_id[move.conn]
        dest = conn.other(cell)
        state.cops[cell] -= 2
        state.cops[dest] += 2
        gone = state.barricades.pop(move.conn, 0)
        extra = f", {gone} barricade{'s' if gone > 1 else ''} dismantled" if gone else ""
        say(events, state, "attack", f"{named(f)} kick 2 cops out of {cell_name(cell)} into "
            f"{cell_name(dest)} by {move.conn}{extra}.", f)
    else:
        state.vans[cell] += hits
        if state.vans[cell] >= 3:
            state.vans[cell] = -1
            state.vans_box += 1
            state.vans_destroyed += 1
            state.vans_destroyed_by[f] += 1  # an attack action's, Molotovs included (play part D4)
            say(events, state, "attack", f"{named(f)} destroy the van in {cell_name(cell)}{with_cards}!",
                f)
        else:
            word = "on its side" if state.vans[cell] == 1 else "upside down"
            say(events, state, "attack", f"{named(f)} attack the van in {cell_name(cell)}{with_cards}: "
                f"{word}.", f)


def stopping_faction(state: BlocState, f: int, cell: int) -> int:
    counts = state.blocs[cell]
    top = max(counts)
    leaders = [g for g in range(4) if counts[g] == top]
    if len(leaders) == 1 and leaders[0] != f:
        return leaders[0]
    return -1


def answer_stop(state: BlocState, move: Move, events: list[Event], rng: Rng) -> None:
    p = state.pending.pop(0)
    f = state.faction_now()
    declared = parse(p.action)
    if move.kind == "stop":
        state.stopped.append(f"{declared.kind}:{declared.cell}")
        say(events, state, "stopped", f"{named(p.faction)} stop `{p.action}`: the die goes back to "
            f"{named(f)}.", p.faction)
        return
    say(events, state, "allowed", f"{named(p.faction)} allow `{p.action}`.", p.faction)
    advanced_action(state, f, declared, events, rng)


# --- reaction rolls ---------------------------------------------------------------------------------------------------
def reaction(state: BlocState, f: int, cell: int, events: list[Event], rng: Rng, then: Move | None = None) -> bool:
    """Roll the reaction die for an action in ``cell``. True when the roller holds Lookouts: the roll waits for
    its answer (and ``then``, the move that closed a run, carries on after it)."""
    roll = 1 + rng.below(6)
    if "lookouts" in state.hands[f]:
        state.pending.insert(0, Pending("lookout", f, cell=cell, hits=roll,
                                        action=format_move(then) if then is not None else ""))
        say(events, state, "reaction", f"Reaction roll {roll} in {cell_name(cell)}.", f)
        return True
    roll_effect(state, f, cell, roll, events, rng)
    return False


def roll_effect(state: BlocState, f: int, cell: int, roll: int, events: list[Event], rng: Rng) -> bool:
    """Apply a reaction roll; True when People's Kitchen dice were gained."""
    if roll == 1:
        if pol.staging_cops(state) > 0:
            state.cops[cell] += 1
            say(events, state, "reaction", f"Reaction roll 1: a cop arrives in {cell_name(cell)}.", f)
        else:
            say(events, state, "reaction", "Reaction roll 1: no cop left in staging.", f)
    elif roll == 2:
        say(events, state, "reaction", "Reaction roll 2: a police ops card.", f)
        pol.draw_police(state, events, rng)
    elif roll == 6 and state.occupation_cell(f, "kitchen") >= 0:
        k = state.occupation_cell(f, "kitchen")
        extra = [1 + rng.below(6) for _ in range(2 if state.liberated[k] else 1)]
        state.dice = sorted(state.dice + extra)
        say(events, state, "kitchen", f"Reaction roll 6: People's Kitchen! Extra di"
            f"{'ce' if len(extra) > 1 else 'e'} {' '.join(map(str, extra))}.", f)
        return True
    else:
        say(events, state, "reaction", f"Reaction roll {roll}: nothing happens.", f)
    return False


def kitchen_gave(events: list[Event]) -> bool:
    return bool(events) and events[-1].kind == "kitchen"


def cap_attacks(state: BlocState, f: int, cell: int) -> None:
    key = f"{f}:{cell}"
    if state.attacked.get(key, 0) > state.blocs[cell][f]:
        state.attacked[key] = state.blocs[cell][f]


# --- the end of a turn ------------------------------------------------------------------------------------------------
def end_turn(state: BlocState, f: int, events: list[Event], rng: Rng) -> None:
    lapse(state, events, all_of_them=True)  # step 2 is over
    for _ in range(max(0, left(state, f, "workshop"))):  # untaken Workshop draws are taken now
        state.used["workshop"] = state.used.get("workshop", 0) + 1
        got = draw_loot(state, f, 1, rng)
        say(events, state, "workshop", f"{named(f)} draw {len(got)} free loot card (Propaganda "
            "Workshop).", f)
    state.dice = []
    state.last_police = []
    draws = max(0, pol.DRAWS[state.morale - 1] - (1 if state.used.get("jammer") else 0))
    jammed = " (Radio Jammer: one fewer)" if state.used.get("jammer") else ""
    say(events, state, "ops", f"{named(f)} end their actions: {draws} police ops card"
        f"{'s' if draws != 1 else ''} ({pol.MORALE[state.morale - 1]}){jammed}.", f)
    for _ in range(draws):
        pol.draw_police(state, events, rng)
    state.free_moves[f] = 0  # Free Transit lasts one turn
    if state.lockdown == f:  # the card lay in front of f since before this turn: its next turn is over
        state.lockdown = -1
        state.police_discard.append("PO33")
        events.append(Event("lockdown", None, "Metro Lockdown ends: the metro runs again."))
    state.turn += 1
    if state.turn < len(state.order):
        begin_turn(state, events, rng)
        return
    begin_sunrise(state, events, rng)
