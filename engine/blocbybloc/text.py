"""Bloc by Bloc's words for players: the lobby's summary, move labels and menu groups, the status line and the board
in words."""

from __future__ import annotations

from collections.abc import Sequence

from engine.blocbybloc import police as pol
from engine.blocbybloc.city import STATE, cell_name
from engine.blocbybloc.common import district_name, named
from engine.blocbybloc.game import BlocByBloc
from engine.blocbybloc.model import FACTIONS, LOOT_NAMES, OCCUPATION_NAMES, BlocState
from engine.blocbybloc.moves import ATTACKS, Move, blocs, format_move
from engine.blocbybloc.view import BlocView
from engine.text import GameText


def describe(move: Move, where: str = "", faction_names: tuple[str, ...] = ()) -> str:
    """A label in words; ``where`` names ``move.cell`` ("The Park (C4)")."""
    k = move.kind
    die = "free" if move.die == 0 else f"die {move.die}"
    at = cell_name(move.cell) if move.cell >= 0 else ""
    cards = "".join(f" + {LOOT_NAMES[c]}" for c in move.extra if c in LOOT_NAMES)
    labels = {
        "end": "End my actions (police ops follow)", "allow": "Allow it", "stop": "Stop it",
        "pass": "Pass (play no card)", "reroll": "Lookouts: roll the reaction die again",
        "accept": "Keep this reaction roll", "jammer": "Radio Jammer: one police ops card fewer this turn",
        "scanner": "Police Scanner: look at the top 3 police ops cards", "workshop": "Propaganda Workshop: draw a "
        "free loot card", "communique": "Communiqué: resolve this card one level higher",
    }
    if k in labels and not move.n:
        return labels[k]
    if k == "start":
        return f"Start in {where}"
    if k == "split":
        names = faction_names or ("Workers", "Students", "Neighbors", "Prisoners")
        return "Lose " + ", ".join(f"{n} {names[f]}" for f, n in enumerate(move.losses) if n)
    if k == "move":
        return f"Move {at} → {cell_name(move.to)}: {blocs(move.n)}, {die}"
    if k == "bicycles":
        return f"Bicycles: {at} → {cell_name(move.to)}, {blocs(move.n)}"
    if k == "clothes":
        return f"Change of Clothes: {at} → {cell_name(move.to)}, {blocs(move.n)}"
    if k == "barricade":
        return f"Barricade {move.conn}, {die}"
    if k == "dumpster":
        return f"Dumpster Barricade: {' and '.join(move.extra)}"
    if k == "garden":
        return f"Guerrilla Garden: {', '.join(move.extra)}, {die}"
    if k == "fireworks":
        return f"Fireworks: {move.n} cop{'s' if move.n > 1 else ''} out of {at} by {move.conn}"
    if k == "loot":
        return f"Loot {at} ({'burn' if move.burn else 'graffiti'}), {die}{cards}"
    if k in ("build", "swap"):
        return f"{k.title()} {OCCUPATION_NAMES[move.occ]} in {at}, {die}{cards}"
    if k == "defeat":
        return f"Defeat a cop in {at}, {die}{cards}"
    if k == "kick":
        return f"Kick 2 cops out of {at} by {move.conn}, {die}"
    if k == "van":
        return f"Attack the van in {at}, {die}{cards}"
    if k == "hall":
        return f"Assembly Hall: form a bloc, {die}"
    if k == "hacker":
        return f"Hacker Space: draw 2 loot cards, keep 1, {die}"
    if k == "energy":
        return f"Energy Drinks: your {move.die} becomes a {min(6, move.die + 2)}"
    if k == "megaphone":
        return f"Megaphone: form a bloc in {where}"
    if k == "discard":
        return f"Discard {LOOT_NAMES[move.extra[0]]}"
    if k == "order":
        return "Back on top in the order " + ", ".join(move.extra)
    if k == "medic":
        return f"Medic Kit: save up to 2 blocs defeated in {at}"
    if k == "shield":
        return f"Shield Wall: 2 cops in {at} do not attack"
    if k == "paint":
        return f"Paint Bombs: the van in {at} does not attack"
    if k == "banner":
        return f"Banner Drop: {at} counts 2 more blocs for liberation"
    if k == "place":
        return f"Place a saved bloc in {where}"
    if k == "wall":
        return f"Barricade Fever: a barricade on {move.conn}"
    if k == "squat":
        return f"Squatting Wave: {OCCUPATION_NAMES[move.occ]} in {at}"
    if k == "rout":
        return f"Police Rout: a cop from {where}"
    if k == "burn":
        return f"Riot Van Burns: the van in {where}"
    if k == "drop":
        return f"Discard revealed card {move.n}"
    names = faction_names or ("Workers", "Students", "Neighbors", "Prisoners")
    given = " and ".join(LOOT_NAMES[c] for c in move.extra)
    by = f"{names[move.frm]}: " if move.frm >= 0 else ""
    if k == "give":
        return f"{by}Give {given} to the {names[move.to]}"
    if k == "offer":
        return f"{by}Offer {given} for {move.n} of the {names[move.to]}' cards (their pick)"
    if k == "accept":
        return f"Accept offer #{move.n}: give {given}"
    if k == "decline":
        return f"Decline offer #{move.n}"
    return format_move(move)


class BlocByBlocText(GameText[BlocState, Move, BlocView]):
    summary = ("Cooperative insurrection in a 5×5 city: move blocs, barricade, loot, build occupations and fight "
               "the police deck, then liberate districts before the military arrives.")
    game: BlocByBloc

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
        if state.pending and state.pending[0].kind == "start":
            return head + "the factions place their Starts"
        owes = "to choose" if self.game.decisions(state)[0].clock == "decision" else "to act"  # (outside its turn)
        return head + f"{named(f)} ({{p{state.controller[f]}}}) {owes}"

    def alt_text(self, view: BlocView, names: Sequence[str]) -> str:
        occupied = sum(1 for c in view["cells"] if c["occupation"])
        states = [c for c in view["cells"] if c["type"] == STATE]
        held = sum(1 for c in states if c["occupation"])
        return (f"Bloc by Bloc, night {view['night']} ({view['countdown']} left), police morale "
                f"{view['morale_name']}. {held} of {len(states)} State districts occupied, {occupied} occupations "
                f"in all, {sum(c['cops'] for c in view['cells'])} cops and "
                f"{sum(1 for c in view['cells'] if c['van'] >= 0)} vans in the city.")
