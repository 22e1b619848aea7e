"""Bloc by Bloc's words for players: the lobby's summary, move labels and menu groups, the status line and the board
in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.blocbybloc import police as pol
from engine.blocbybloc.agendas import AGENDAS, ALONE, third_person
from engine.blocbybloc.city import STATE
from engine.blocbybloc.common import district_name, named
from engine.blocbybloc.game import BlocByBloc
from engine.blocbybloc.model import FACTIONS, LOOT_NAMES, BlocState
from engine.blocbybloc.moves import ATTACKS, Move, describe
from engine.blocbybloc.pending import one_holder
from engine.blocbybloc.scenarios import COOP, NONE, SCENARIOS, SEMI, goal_words, scenario
from engine.blocbybloc.view import BlocView
from engine.text import GameText, plural


class BlocByBlocText(GameText[BlocState, Move, BlocView]):
    summary = ("Cooperative insurrection in a 5×5 city: move blocs, barricade, loot, build occupations and fight "
               "the police deck, then liberate districts before the military arrives.")
    game: BlocByBloc

    def advice(self, seats: int, options: Mapping[str, Any]) -> str:
        """The chosen scenario (its goal) and mode, one line each, and where the ten scenarios are listed."""
        key = str(options.get("scenario", NONE))
        scenario = SCENARIOS.get(key)
        lines = [f"Scenario: {scenario.name} — {scenario.goal}" + (f" {scenario.note}" if scenario.note else "")
                 if scenario is not None else
                 "No scenario: the insurrection succeeds when every State district holds an occupation."]
        if options.get("mode", COOP) == SEMI:
            lines.append("Semi-cooperative: each faction gets a secret agenda; some can win alone.")
        else:
            lines.append("Fully cooperative: everyone wins or loses together.")
        lines.append("The ten scenarios and their goals: `/rules game:blocbybloc` (choose one with `scenario=`, "
                     "the agendas with `mode=semi`).")
        return "\n".join(lines)

    def option_hint(self, option: str, value: str) -> str:
        """A scenario's name and goal (its brief form where the whole would pass Discord's 100 characters), and what
        each mode means, beside the choice while the lobby's options are typed."""
        if option == "scenario" and value in SCENARIOS:
            s = SCENARIOS[value]
            return f"{s.name}: {s.brief or s.goal}"
        if option == "mode":
            return {COOP: "all win or lose together", SEMI: "secret agendas, 3–4 players"}.get(value, "")
        return ""

    def private_words(self, state: BlocState, seat: int) -> str:
        mine = sorted(f for f in state.order if state.controller[f] == seat)
        hands = [f"{FACTIONS[f]}: " + (", ".join(LOOT_NAMES[c] for c in state.hands[f]) or "no cards")
                 for f in mine]
        words = [("Your cards — " + "; ".join(hands) + ".") if hands else ""]
        words += [f"Your secret agenda ({FACTIONS[f]}): {agenda_words(state.agendas[f])}" for f in mine
                  if state.agendas[f]]
        return "\n".join(w for w in words if w)

    def final_words(self, state: BlocState) -> str:
        """Once the table is over, in a semi-cooperative game: every faction's agenda, revealed, and who won (also
        when its players left before the game's own end: play part D3's result reveals them all)."""
        if not any(state.agendas):
            return ""
        lines = ["**Agendas revealed:**"]
        for f in state.order:
            if state.agendas[f]:
                won = " — **won**" if f in state.winners else ""
                lines.append(f"• {FACTIONS[f]} ({{p{state.controller[f]}}}){won}: {revealed(state.agendas[f])}")
        return "\n".join(lines)

    def describe_move(self, state: BlocState, seat: int, move: Move) -> str:
        if move.kind == "order" and state.pending and state.pending[0].kind == "scan":
            seen = state.pending[0].cards
            return "Top first: " + ", then ".join(pol.CARDS[seen[int(i) - 1]].name for i in move.extra)
        where = district_name(state, move.cell) if move.cell >= 0 else ""
        return describe(move, where)

    def menu_groups(self, state: BlocState, seat: int, move: Move) -> tuple[str, ...]:
        """Action, then district (and for a move its destination): each level a short list."""
        k = move.kind
        if k == "move":
            return ("Move blocs", f"from {district_name(state, move.cell)}", f"to {district_name(state, move.to)}")
        if k == "barricade":
            return ("Barricade", f"on {move.conn}")
        if k == "loot":
            return ("Loot", f"in {district_name(state, move.cell)}")
        if k in ("build", "swap"):
            return (f"{k.title()} an occupation", f"in {district_name(state, move.cell)}")
        if k in ATTACKS:
            return ("Attack", f"in {district_name(state, move.cell)}")
        if k in ("bicycles", "clothes"):
            return (f"Play {LOOT_NAMES[k]}", f"from {district_name(state, move.cell)}")
        if k in ("dumpster", "fireworks", "energy", "megaphone"):
            return (f"Play {LOOT_NAMES[k]}",)
        if k in ("hall", "hacker", "workshop", "garden"):
            return ("Occupation abilities",)
        if k in ("give", "offer"):
            giver = move.frm if move.frm >= 0 else state.faction_now()
            what = "Give a loot card" if k == "give" else "Offer a trade"
            pair = f"{named(giver)} → {named(move.to)}"
            if k == "give":
                return (what, pair)
            return (what, pair, "give " + " and ".join(LOOT_NAMES[c] for c in move.extra))
        if (k == "decline" or (k == "accept" and move.n)) and seat == state.controller[state.faction_now()]:
            return (f"Answer trade offer #{move.n}",)  # in the turn's menu; alone, the answers are buttons
        return ()

    def role(self, state: BlocState, seat: int) -> str:
        """The factions ``seat`` plays ("Students", or "Workers and Neighbors" for two players)."""
        return " and ".join(FACTIONS[f] for f, s in enumerate(state.controller) if s == seat)

    def status_line(self, state: BlocState) -> str:
        if state.outcome:
            return state.reason
        f = self.game.acting_faction(state)
        head = f"Night {state.night}, {state.countdown} left · morale {pol.MORALE[state.morale - 1]} · "
        s = scenario(state)
        if s is not None:
            head = f"{s.name} — goal: {s.goal.rstrip('.')} ({goal_words(state)}) · " + head
        if state.pending and state.pending[0].kind == "start":
            return head + "the factions place their Starts"
        if state.pending and one_holder(state.pending[0]):  # a question for one card's holder: nothing more
            return head + "waiting for a reaction"
        owes = "to choose" if self.game.decisions(state)[0].clock == "decision" else "to act"  # (outside its turn)
        return head + f"{named(f)} ({{p{state.controller[f]}}}) {owes}"

    def alt_text(self, view: BlocView, names: Sequence[str]) -> str:
        scenario = view["scenario"]
        goal = f" Scenario {scenario['name']}: {scenario['goal']}" if scenario is not None else ""
        mode = " Semi-cooperative: each faction holds a secret agenda." if view["mode"] == SEMI else ""
        occupied = sum(1 for c in view["cells"] if c["occupation"])
        states = [c for c in view["cells"] if c["type"] == STATE]
        held = sum(1 for c in states if c["occupation"])
        cops = sum(c["cops"] for c in view["cells"])
        vans = sum(1 for c in view["cells"] if c["van"] >= 0)
        return (f"Bloc by Bloc, night {view['night']} ({view['countdown']} left), police morale "
                f"{view['morale_name']}. {held} of {len(states)} State districts occupied, "
                f"{plural(occupied, 'occupation')} in all, {plural(cops, 'cop')} and {plural(vans, 'van')} in the "
                "city." + goal + mode + (f" Last: {last['text']}" if (last := view.get("last")) is not None else ""))


def agenda_words(number: int) -> str:
    """An agenda card for its holder, in words: its name, both options, and which one wins alone."""
    agenda = AGENDAS[number]
    parts = []
    for i, option in enumerate(agenda.options, 1):
        if option.kind == ALONE:
            parts.append(f"option {i}, WIN ALONE ({option.name}): {option.text} — checked at the end of every "
                         "night: if yours alone is met, you win and every other faction loses (two met on the same "
                         "night cancel; a scenario's rule may hold it back)")
        else:
            parts.append(f"option {i}, win together: {option.text}, when the insurrection (or the scenario's "
                         "goal) succeeds")
    return f"**{agenda.name}** — " + "; or ".join(parts) + "."


def revealed(number: int) -> str:
    """An agenda card for everybody once the game is over, short: "Sectarian (together: …; ALONE: …)"."""
    agenda = AGENDAS[number]
    parts = [("ALONE: " if o.kind == ALONE else "together: ") + third_person(o.text) for o in agenda.options]
    return f"{agenda.name} ({'; '.join(parts)})"

