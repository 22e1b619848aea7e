"""Bloc by Bloc's words for players: the lobby's summary, move labels and menu groups, the status line and the board
in words."""

from __future__ import annotations

from collections.abc import Sequence

from engine.blocbybloc import police as pol
from engine.blocbybloc.city import STATE
from engine.blocbybloc.common import district_name, named
from engine.blocbybloc.game import BlocByBloc
from engine.blocbybloc.model import FACTIONS, LOOT_NAMES, BlocState
from engine.blocbybloc.moves import ATTACKS, Move, describe
from engine.blocbybloc.pending import one_holder
from engine.blocbybloc.view import BlocView
from engine.text import GameText, plural


class BlocByBlocText(GameText[BlocState, Move, BlocView]):
    summary = ("Cooperative insurrection in a 5×5 city: move blocs, barricade, loot, build occupations and fight "
               "the police deck, then liberate districts before the military arrives.")
    game: BlocByBloc

    def private_words(self, state: BlocState, seat: int) -> str:
        mine = [f for f in state.order if state.controller[f] == seat]
        hands = [f"{FACTIONS[f]}: " + (", ".join(LOOT_NAMES[c] for c in state.hands[f]) or "no cards")
                 for f in sorted(mine)]
        return ("Your cards — " + "; ".join(hands) + ".") if hands else ""

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
        if state.pending and one_holder(state.pending[0]):  # a question for one card's holder: nothing more
            return head + "waiting for a reaction"
        owes = "to choose" if self.game.decisions(state)[0].clock == "decision" else "to act"  # (outside its turn)
        return head + f"{named(f)} ({{p{state.controller[f]}}}) {owes}"

    def alt_text(self, view: BlocView, names: Sequence[str]) -> str:
        occupied = sum(1 for c in view["cells"] if c["occupation"])
        states = [c for c in view["cells"] if c["type"] == STATE]
        held = sum(1 for c in states if c["occupation"])
        cops = sum(c["cops"] for c in view["cells"])
        vans = sum(1 for c in view["cells"] if c["van"] >= 0)
        return (f"Bloc by Bloc, night {view['night']} ({view['countdown']} left), police morale "
                f"{view['morale_name']}. {held} of {len(states)} State districts occupied, "
                f"{plural(occupied, 'occupation')} in all, {plural(cops, 'cop')} and {plural(vans, 'van')} in the "
                "city." + (f" Last: {last['text']}" if (last := view.get("last")) is not None else ""))
