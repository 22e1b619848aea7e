"""The run of the nights: who goes first, the start of a faction's turn (a bloc formed at its Start, its dice),
and after each Sunrise the end checks and the next night."""

from __future__ import annotations

from engine.base import Event
from engine.blocbybloc.city import STATE, cell_name
from engine.blocbybloc.common import named, say
from engine.blocbybloc.model import BlocState
from engine.rng import Rng


def first_faction(state: BlocState, events: list[Event], rng: Rng) -> None:
    rolling = list(state.order)
    while True:
        rolls = {f: 1 + rng.below(6) for f in rolling}
        top = max(rolls.values())
        events.append(Event("roll", None, "First-faction roll: " + ", ".join(
            f"{named(f)} {r}" for f, r in rolls.items()) + "."))
        rolling = [f for f in rolling if rolls[f] == top]
        if len(rolling) == 1:
            break
    state.first = state.order.index(rolling[0])
    state.phase = "sunset"
    state.turn = 0
    events.append(Event("first", None, f"{named(rolling[0])} take the first-faction marker."))


def begin_turn(state: BlocState, events: list[Event], rng: Rng) -> None:
    f = state.faction_now()
    state.dice, state.used, state.stopped, state.run = [], {}, [], -1
    start = state.occupation_cell(f, "start")
    if start >= 0 and state.on_mat(f) > 0:
        state.blocs[start][f] += 1
        say(events, state, "form", f"{named(f)} form a bloc at their Start ({cell_name(start)}).", f)
    n = state.in_city(f)
    count = (3 if n < 6 else 4 if n <= 8 else 5) + state.momentum[f]
    state.momentum[f] = 0
    state.dice = sorted(1 + rng.below(6) for _ in range(count))
    say(events, state, "dice", f"Night {state.night}: {named(f)}, played by {{p{state.controller[f]}}}, "
        f"roll {' '.join(str(d) for d in state.dice)}.", f)


def next_night(state: BlocState, events: list[Event], rng: Rng) -> None:
    city = state.city
    for f in state.order:
        if state.in_city(f) == 0:
            finish(state, events, "loss", f"The {named(f)} have no bloc left in the city: the "
                   "insurrection implodes.")
            return
    states = [c for c in city.districts if city.tile(c).type == STATE]
    if all(state.occ_owner[c] >= 0 for c in states):
        finish(state, events, "win", "Every State district holds an occupation: the insurrection "
               "succeeds!")
        return
    if state.countdown <= 1:
        finish(state, events, "loss", "Time runs out: the military arrives.")
        return
    state.countdown -= 1
    state.night += 1
    state.first = (state.first + 1) % len(state.order)
    state.turn = 0
    state.attacked = {}
    state.phase = "sunset"
    events.append(Event("night", None, f"🌙 Night {state.night} ({state.countdown} left): "
                        f"{named(state.faction_now())} go first."))
    begin_turn(state, events, rng)


def finish(state: BlocState, events: list[Event], outcome: str, reason: str) -> None:
    state.outcome, state.reason, state.phase = outcome, reason, "over"
    events.append(Event("end", None, reason))
