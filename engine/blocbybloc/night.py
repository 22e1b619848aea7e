"""The run of the nights: who goes first, the start of a faction's turn (a bloc formed at its Start, its dice),
and after each Sunrise the end checks and the next night."""

from __future__ import annotations

from engine.base import Event
from engine.blocbybloc.agendas import AGENDAS, Option, alone, third_person, together
from engine.blocbybloc.city import cell_name
from engine.blocbybloc.common import named, say
from engine.blocbybloc.model import BlocState
from engine.blocbybloc.scenarios import COOP, SEMI, gated, goal_met, scenario
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


def success_words(state: BlocState) -> str:
    """What the success found at D3 step 2 was, in words: the insurrection's, or the scenario's goal."""
    s = scenario(state)
    if s is None:
        return "Every State district holds an occupation: the insurrection succeeds"
    return f"{s.goal.rstrip('.')}: {s.name} is won"


def semi(state: BlocState) -> bool:
    """The semi-cooperative game: agendas were dealt (never with 2 players)."""
    return state.options.get("mode", COOP) == SEMI and any(state.agendas)


IGNORED = ", and everybody loses whatever their agendas"


def _clause(state: BlocState, f: int, option: Option) -> str:
    return f"{AGENDAS[state.agendas[f]].name}: {third_person(option.text)}"


def _together(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def next_night(state: BlocState, events: list[Event], rng: Rng) -> None:
    """The end checks of the Next Night step in play part D3's order, then the next night."""
    for f in state.order:  # 1. zero blocs: all lose, agendas ignored
        if state.in_city(f) == 0:
            finish(state, events, "loss", f"The {named(f)} have no bloc left in the city: the "
                   f"insurrection implodes{IGNORED if semi(state) else ''}.", [])
            return
    success = goal_met(state)  # 2. the insurrection's, or the scenario's goal
    blocked = gated(state)
    if semi(state) and not blocked:  # 3. Win Alone
        lone = [(f, o) for f in state.night_order() if (o := alone(state, f)) is not None]
        if len(lone) == 1:
            f, option = lone[0]
            beaten = (" even though the insurrection succeeded" if scenario(state) is None
                      else " even though the scenario's goal was reached") if success else ""
            finish(state, events, "win", f"The {named(f)} win alone with their {AGENDAS[state.agendas[f]].name} "
                   f"agenda (\"{third_person(option.text)}\"), and everybody else loses{beaten}.", [f])
            return
        # two or more lone completions cancel this night, in silence: naming them would reveal agendas
    if success and not blocked:  # 4. success ends the game
        if not semi(state):
            finish(state, events, "win", success_words(state) + "!", list(state.order))
            return
        won = [(f, o) for f in state.night_order() if (o := together(state, f)) is not None]
        lost = [f for f in state.night_order() if f not in {w for w, _ in won}]
        if not won:
            finish(state, events, "loss", success_words(state) + ", but no faction met a Win Cooperatively "
                   "objective of its agenda: everybody loses.", [])
            return
        who = _together([f"the {named(f)} ({_clause(state, f, o)})" for f, o in won])
        rest = f"; {_together([f'the {named(f)}' for f in lost])} met no cooperative objective and lose" \
            if lost else ""
        finish(state, events, "win", f"{success_words(state)}, and {who} win{rest}.", [f for f, _ in won])
        return
    if success and blocked:  # (public: the goal and the police are on the board; a blocked lone win is not said)
        s = scenario(state)
        assert s is not None  # (only a scenario's gate blocks)
        events.append(Event("gate", None, f"{s.name}'s goal holds, but {s.gate}."))
    if state.countdown <= 1:  # 5. time runs out: all lose, agendas ignored
        finish(state, events, "loss", f"Time runs out: the military arrives{IGNORED if semi(state) else ''}.", [])
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


def finish(state: BlocState, events: list[Event], outcome: str, reason: str, winners: list[int]) -> None:
    """The game ends: ``winners`` are the factions that won (none: everybody lost)."""
    state.outcome, state.reason, state.phase, state.winners = outcome, reason, "over", sorted(winners)
    events.append(Event("end", None, reason))
