"""What a faction is asked: its turn's actions, and the pending decisions outside them (Start placement, a stop or
allow, a split of losses, the card to discard after a draw, a Lookouts reroll, the Police Scanner's order, the
Sunrise windows, Medic Kit placements, the manifestation cards' choices): of whom, the prompt, the choices, the
default, and carrying out the answer."""

from __future__ import annotations

from itertools import permutations

from engine.base import Decision, Event
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import cell_name
from engine.blocbybloc.common import named, say
from engine.blocbybloc.manifestations import fever_default, near, squats, vans_in_range, walls
from engine.blocbybloc.model import LOOT_NAMES, BlocState, Pending
from engine.blocbybloc.moves import Move, format_move, parse
from engine.blocbybloc.night import next_night
from engine.blocbybloc.setup import place_start, start_cells, start_default
from engine.blocbybloc.sunrise import (
    answer_split,
    liberation_window,
    manifest_answer,
    placements,
    resolve_liberation,
    splits,
    window_answer,
    window_plays,
)
from engine.blocbybloc.turn import answer_stop, carry_on, reaction, roll_effect
from engine.rng import Rng

ALLOW, STOP, PASS = Move("allow"), Move("stop"), Move("pass")
OWN_TURN = ("keep", "lookout", "scan")  # pending decisions inside the acting faction's own turn
ONE_HOLDER = ("lookout", "communique")  # and the Police Scanner's order: asked of one card's holder, privately
TOGETHER = ("start", "split")  # pending decisions open at once, answered in any order (play part D2)
PROMPTS = {
    "fever": "{f}: Barricade Fever: place a barricade ({roll} left) around a district where you have blocs.",
    "squat": "{f}: Squatting Wave: build an occupation next to {where} for free, or pass.",
    "rout": "{f}: Police Rout: choose a cop to send to staging ({roll} left).",
    "burn": "{f}: Riot Van Burns: choose the van that burns.",
    "reveal": "{f}: the revealed police ops cards: discard one ({roll} at most), or keep them.",
    "keep": "{f}: choose the loot card to discard.",
    "lookout": "{f}: reaction roll {roll}. Play Lookouts to roll again, or keep it?",
    "scan": "{f}: Police Scanner: put the cards back on top in the order you choose.",
    "reorder": "{f}: put the revealed police ops cards back on top in the order you choose.",  # a scan, revealed
    "window": "{f}: the {window} window is open: play a card, or pass.",
    "place": "{f}: a Medic Kit saved a bloc: place it where one of your occupations stands.",
    "communique": "{f}: play Communiqué on {where} (its card one level higher), or pass?",
}


PASSED = {"repression": "{f} play no card in the Police Repression window.",
          "liberation": "{f} play no card in the District Liberation window.",
          "squat": "{f} build no occupation (Squatting Wave).",
          "fever": "{f} place no more barricades (Barricade Fever).", "reveal": "{f} discard no revealed card."}
"""What a pass says, by the pending decision's action (a window) or kind."""


def pending_of(state: BlocState, seat: int) -> Pending | None:
    """The pending decision ``seat`` owes now, if any (what ``decisions`` asks of it, with its details)."""
    return next((p for p in open_now(state) if state.controller[p.faction] == seat), None)


def open_now(state: BlocState) -> list[Pending]:
    """The pending decisions asked now: the first one; or, for Start placements and repression splits, every
    unanswered one, at most one per seat (with two players a seat's second comes after its first)."""
    first = state.pending[0]
    if first.kind not in TOGETHER:
        return [first]
    out, seats = [], set()
    for p in state.pending:
        seat = state.controller[p.faction]
        if p.kind == first.kind and not p.answer and seat not in seats:
            seats.add(seat)
            out.append(p)
    return out


def pending_decision(state: BlocState, p: Pending, alongside: bool = False) -> Decision:
    seat = state.controller[p.faction]
    name = named(p.faction)
    if p.kind == "start":
        # two players: a seat's second Start goes on from its first (one board when both are placed)
        second = any(state.controller[g] == seat and "start" not in state.mats[g] for g in state.order)
        return Decision(seat, "start", f"{name}: choose the district of your Faction Start.",
                        clock="decision", default=format_move(start_default(state, p.faction)),
                        alongside=alongside, followup=second)
    if p.kind == "stop":
        actor = state.faction_now()
        return Decision(seat, "stop", f"{name}: {named(actor)} declared `{p.action}` where you have the "
                        "most blocs. Allow or stop it?", clock="decision", default="allow")
    if p.kind == "split":
        return Decision(seat, "split", f"{name}: {p.hits} cop{'s' if p.hits > 1 else ''} attack"
                        f"{'' if p.hits > 1 else 's'} in {cell_name(p.cell)}; choose which "
                        "blocs are defeated.", clock="decision",
                        default=format_move(Move("split", cell=p.cell, losses=tuple(p.default))),
                        alongside=alongside)
    window = {"repression": "Police Repression", "liberation": "District Liberation"}.get(p.action, "")
    asked = "reorder" if p.kind == "scan" and p.action == "reveal" else p.kind  # the pooled reveal, not a card
    prompt = PROMPTS[asked].format(f=name, roll=p.hits, window=window,
                                    where=cell_name(p.cell) if p.cell >= 0 else "")
    own = p.kind in OWN_TURN and p.action != "reveal"
    # choices that show a hand (the cards drawn, the seen police cards) are never public, nor a question asked
    # of one card's holder (cards.md decision 21: the board says only that the game waits for a reaction)
    private = p.kind in ("keep", "window") or one_holder(p)
    return Decision(seat, p.kind, prompt, private=private, clock="turn" if own else "decision",
                    default=pending_default(state, p), followup=own and goes_on(state, p.faction),
                    unnamed=one_holder(p))


def one_holder(p: Pending) -> bool:
    """Whether ``p`` is a question asked of one card's holder (Lookouts, Communiqué, the Police Scanner's order,
    not the order of publicly revealed cards): asked privately, never shown on the board (cards.md decision 21)."""
    return p.kind in ONE_HOLDER or (p.kind == "scan" and p.action != "reveal")


def goes_on(state: BlocState, f: int) -> bool:
    """Whether faction ``f``'s decision now continues its own Sunset turn after a move of its own in it (a
    ``followup``: the channel gets one board per faction turn, not one per action). Not after a trade offer, whose
    answer is another seat's, with the board in front of it."""
    last = state.last
    return (state.phase == "sunset" and f == state.faction_now() and last is not None and last.faction == f
            and last.turn == turn_key(state) and last.kind != "offer")


def turn_key(state: BlocState) -> str:
    """The faction turn the game is in ("night.turn"), "" outside Sunset."""
    return f"{state.night}.{state.turn}" if state.phase == "sunset" else ""


def turn_decision(state: BlocState) -> Decision:
    f = state.faction_now()
    dice = f"dice {' '.join(str(d) for d in sorted(state.dice))}" if state.dice else "no dice left"
    seat = state.controller[f]
    holds = any(state.hands[g] for g in state.order if state.controller[g] == seat)  # its menu names cards
    return Decision(seat, "turn", f"{named(f)}: your actions ({dice}).", private=holds, clock="turn",
                    default="end", followup=goes_on(state, f))


def pending_default(state: BlocState, p: Pending) -> str:
    if p.kind == "keep":
        return f"discard {p.cards[-1]}"  # an unanswered choice keeps the cards drawn first
    if p.kind == "lookout":
        return "accept"
    if p.kind == "scan":
        return "order " + " ".join(str(i + 1) for i in range(len(p.cards)))
    if p.kind == "place":
        return f"place {cell_name(placements(state, p.faction)[0])}"
    if p.kind == "fever":
        return fever_default(state, p)
    if p.kind == "rout":
        return "rout " + cell_name(next(c for c in near(state, p.cell) if state.cops[c]))
    if p.kind == "burn":
        return "burn " + cell_name(vans_in_range(state, p.cell, p.hits)[0])
    return "pass"


def pending_moves(state: BlocState, p: Pending) -> list[Move]:
    if p.kind == "start":
        return [Move("start", cell=c) for c in start_cells(state, p.faction)]
    if p.kind == "stop":
        return [ALLOW, STOP]
    if p.kind == "split":
        return [Move("split", cell=p.cell, losses=tuple(s)) for s in splits(state, p)]
    if p.kind == "keep":
        return [Move("discard", extra=(c,)) for c in sorted(set(p.cards))]
    if p.kind == "lookout":
        return [Move("reroll"), Move("accept")]
    if p.kind == "scan":
        return [Move("order", extra=tuple(str(i + 1) for i in perm))
                for perm in permutations(range(len(p.cards)))]
    if p.kind == "place":
        return [Move("place", cell=c) for c in placements(state, p.faction)]
    if p.kind == "communique":
        return [Move("communique"), PASS]
    if p.kind == "fever":
        return [*(Move("wall", conn=c) for c in walls(state, p.faction)), PASS]
    if p.kind == "squat":
        return [*squats(state, p.faction, p.cell, p.hits), PASS]
    if p.kind == "rout":
        return [Move("rout", cell=c) for c in dict.fromkeys(near(state, p.cell)) if state.cops[c]]
    if p.kind == "burn":
        return [Move("burn", cell=c) for c in vans_in_range(state, p.cell, p.hits)]
    if p.kind == "reveal":
        return [*(Move("drop", n=i + 1) for i in range(len(p.cards))), PASS]
    return [*window_plays(state, p.faction, p.action), PASS]


def answer(state: BlocState, seat: int, move: Move, events: list[Event], rng: Rng) -> None:
    p = pending_of(state, seat) or state.pending[0]
    if move.kind == "pass" and p.kind != "communique":  # said, so that the board a pass brings tells it (it may
        # be all that happened); not a Communiqué declined: only its holder was asked (cards.md decision 21)
        said = PASSED.get(p.action or p.kind, "{f} pass.")
        say(events, state, "pass", said.format(f=named(p.faction)), p.faction)
    if p.kind == "start":
        place_start(state, p, move, events, rng)
    elif p.kind == "stop":
        answer_stop(state, move, events, rng)
    elif p.kind == "split":
        answer_split(state, p, move, events, rng)
    elif p.kind == "keep":
        state.pending.pop(0)
        card = move.extra[0]
        kept = list(p.cards)
        kept.remove(card)
        state.hands[p.faction] += kept
        state.loot_discard.append(card)
        say(events, state, "discard", f"{named(p.faction)} keep {len(kept)} card"
            f"{'s' if len(kept) != 1 else ''} and discard {LOOT_NAMES[card]}.", p.faction)
        if p.action == "roll":  # the loot's reaction roll, after the choice
            reaction(state, p.faction, p.cell, events, rng)
    elif p.kind == "lookout":
        state.pending.pop(0)
        roll = p.hits
        if move.kind == "reroll":
            state.hands[p.faction].remove("lookouts")
            state.loot_discard.append("lookouts")
            roll = 1 + rng.below(6)
            say(events, state, "lookouts", f"{named(p.faction)} play Lookouts: the reaction die is rolled "
                f"again: {roll}.", p.faction)
        gained = roll_effect(state, p.faction, p.cell, roll, events, rng)
        if p.action:
            carry_on(state, p.faction, parse(p.action), gained, events, rng)
    elif p.kind == "scan":
        state.pending.pop(0)
        order = [p.cards[int(i) - 1] for i in move.extra]  # top first
        state.police_deck += order[::-1]
        if p.action == "reveal":  # the revealed cards are public: so is their new order
            say(events, state, "reveal", f"{named(p.faction)} put the revealed cards back: "
                + ", ".join(pol.CARDS[c].name for c in order) + " (top first).", p.faction)
            if not state.pending:
                next_night(state, events, rng)
            return
        say(events, state, "scanner", f"{named(p.faction)} put the police ops cards back in an order "
            "of their choosing.", p.faction)
    elif p.kind == "place":
        state.pending.pop(0)
        state.blocs[move.cell][p.faction] += 1
        say(events, state, "medic", f"A {named(p.faction)} bloc saved by a Medic Kit goes to "
            f"{cell_name(move.cell)}.", p.faction)
        if not state.pending:
            liberation_window(state, events, rng)
    elif p.kind == "communique":
        state.pending.pop(0)
        if move.kind == "communique":
            state.hands[p.faction].remove("communique")
            state.loot_discard.append("communique")
            state.pending = []
            say(events, state, "communique", f"{named(p.faction)} play Communiqué: the card resolves one "
                "level higher.", p.faction)
            resolve_liberation(state, p.cell, True, events, rng)
        elif not state.pending:
            resolve_liberation(state, p.cell, False, events, rng)
    elif p.kind in ("fever", "squat", "rout", "burn", "reveal"):
        state.pending.pop(0)
        manifest_answer(state, p, move, events, rng)
    else:  # a Sunrise window
        state.pending.pop(0)
        window_answer(state, p, move, events, rng)
