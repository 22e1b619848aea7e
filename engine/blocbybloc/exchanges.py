"""Loot exchanges (cards part C1): beside the acting faction's step 2, it and any faction it shares a district with
may give each other cards or offer a trade. What may be given or offered, the answers, making them, and offers
lapsing. The channel hears how many cards moved, never which."""

from __future__ import annotations

from engine.base import Decision, Event
from engine.blocbybloc.common import combos, holds, named, say
from engine.blocbybloc.model import LOOT_NAMES, BlocState, Offer
from engine.blocbybloc.moves import Move

EXCHANGES = ("give", "offer", "decline")  # with ``accept N …``: loot exchanges, from either side (cards part C1)
ALL_OFFERS, MENU_OFFERS, NO_OFFERS = "all", "menu", "none"  # which trade offers a list of moves holds


def exchanging(state: BlocState) -> bool:
    """Exchanges are open: step 2 of a faction's turn, with no decision open in it."""
    return state.phase == "sunset" and not state.pending and not state.outcome


def turn_exchanges(state: BlocState, f: int, offers: str) -> list[Move]:
    """What the acting faction's own panel offers: gifts both ways with the factions of the same player (two
    players), gifts and trade offers to the others, and the answers to offers made to it."""
    seat = state.controller[f]
    out: list[Move] = []
    for g in partners(state, f):
        out += [Move("give", to=g, extra=(c,)) for c in sorted(set(state.hands[f]))]
        if state.controller[g] == seat:
            out += [Move("give", to=f, extra=(c,), frm=g) for c in sorted(set(state.hands[g]))]
        else:
            out += trade_offers(state, f, g, -1, offers)
    for o in state.offers:
        if o.to == f:
            out += offer_answers(state, o)
    return out


def side_moves(state: BlocState, seat: int, offers: str) -> list[Move]:
    """A seat besides the acting one: the answer to its oldest open offer, else its gifts and offers."""
    f = state.faction_now()
    offer = next((o for o in state.offers if o.frm == f and state.controller[o.to] == seat), None)
    if offer is not None:
        return offer_answers(state, offer)
    out: list[Move] = []
    for g in partners(state, f):
        if state.controller[g] == seat:
            out += [Move("give", to=f, extra=(c,), frm=g) for c in sorted(set(state.hands[g]))]
            out += trade_offers(state, g, f, g, offers)
    return out


def trade_offers(state: BlocState, g: int, to: int, frm: int, offers: str) -> list[Move]:
    """Trade offers of ``g`` to ``to``: any of its cards for 1… (as many as ``to`` holds) of ``to``'s."""
    if offers == NO_OFFERS:
        return []
    wants = range(1, len(state.hands[to]) + 1)
    sets = combos(state.hands[g]) if offers == ALL_OFFERS else [(c,) for c in sorted(set(state.hands[g]))]
    return [Move("offer", to=to, n=n, extra=cards, frm=frm) for cards in sets for n in wants]


def offer_legal(state: BlocState, seat: int, move: Move) -> bool:
    """``move in legal_moves`` for a trade offer, without listing them all."""
    if not exchanging(state) or not move.extra or list(move.extra) != sorted(move.extra):
        return False
    f = state.faction_now()
    if seat == state.controller[f]:
        giver, ok = f, move.frm == -1 and state.controller[move.to] != seat
    else:
        answering = any(o.frm == f and state.controller[o.to] == seat for o in state.offers)
        giver = move.frm
        ok = not answering and giver >= 0 and move.to == f and state.controller[giver] == seat
    if not ok or move.to not in partners(state, giver):
        return False
    return holds(state.hands[giver], move.extra) and 1 <= move.n <= len(state.hands[move.to])


def offer_answers(state: BlocState, o: Offer) -> list[Move]:
    """Accepting gives ``o.want`` cards of the asked faction's choice; only while the two share a district."""
    out = []
    if o.to in partners(state, o.frm):
        out = [Move("accept", n=o.id, extra=c) for c in combos(state.hands[o.to], o.want)]
    return [*out, Move("decline", n=o.id)]


def partners(state: BlocState, f: int) -> list[int]:
    """Factions that share a district with ``f`` (clash or not): they may exchange loot cards."""
    return [g for g in state.order if g != f and any(row[f] and row[g] for row in state.blocs)]


def exchange(state: BlocState, move: Move, events: list[Event]) -> None:
    """A gift, a trade offer or its answer (cards part C1). The channel hears how many cards, never which."""
    k, acting = move.kind, state.faction_now()
    giver = move.frm if move.frm >= 0 else acting
    if k == "give":
        state.hands[giver].remove(move.extra[0])
        state.hands[move.to].append(move.extra[0])
        say(events, state, "give", f"{named(giver)} give a loot card to the {named(move.to)}.", giver)
    elif k == "offer":
        old = [o.id for o in state.offers if o.frm == giver]
        state.offers = [o for o in state.offers if o.frm != giver]
        state.offers_made += 1
        state.offers.append(Offer(state.offers_made, giver, move.to, list(move.extra), move.n))
        n = len(move.extra)
        say(events, state, "offer", f"{named(giver)} offer the {named(move.to)} a trade (#{state.offers_made}"
            f"): {n} card{'s' if n != 1 else ''} for {move.n}"
            + (f"; it replaces their offer #{old[0]}." if old else "."), giver)
    else:
        o = next(o for o in state.offers if o.id == move.n)
        state.offers.remove(o)
        if k == "decline":
            say(events, state, "decline", f"{named(o.to)} decline trade #{o.id}.", o.to)
            return
        for card in o.cards:
            state.hands[o.frm].remove(card)
            state.hands[o.to].append(card)
        for card in move.extra:
            state.hands[o.to].remove(card)
            state.hands[o.frm].append(card)
        say(events, state, "trade", f"{named(o.to)} accept trade #{o.id}: {len(o.cards)} card"
            f"{'s' if len(o.cards) != 1 else ''} to the {named(o.to)}, {len(move.extra)} to the "
            f"{named(o.frm)}.", o.to)


def lapse(state: BlocState, events: list[Event], *, all_of_them: bool = False) -> None:
    """Offers lapse when step 2 ends, or when one of their cards leaves the offering hand."""
    for o in list(state.offers):
        if all_of_them or not holds(state.hands[o.frm], o.cards):
            state.offers.remove(o)
            if all_of_them:  # (an offer whose card was just played goes quietly: saying so would show the card)
                events.append(Event("lapse", None, f"Trade offer #{o.id} lapses: the turn's actions ended."))


def why_no_exchange(state: BlocState, seat: int, move: Move) -> str:
    if not exchanging(state):
        return ("Loot cards change hands only during a faction's actions (its step 2), while no other decision "
                "is open.")
    f = state.faction_now()
    if move.kind in ("accept", "decline"):
        o = next((o for o in state.offers if o.id == move.n), None)
        if o is None:
            return f"There is no open trade offer #{move.n}."
        if state.controller[o.to] != seat:
            return f"Offer #{o.id} was made to the {named(o.to)}, not to you."
        if o.to not in partners(state, o.frm):
            return f"The {named(o.frm)} and the {named(o.to)} no longer share a district: decline offer #{o.id}."
        if len(move.extra) != o.want:
            return f"Offer #{o.id} asks for {o.want} card{'s' if o.want != 1 else ''}: name that many of yours."
        return f"The {named(o.to)} do not hold {' and '.join(LOOT_NAMES[c] for c in move.extra)}."
    giver = move.frm if move.frm >= 0 else f
    if f not in (giver, move.to) or giver == move.to:
        return f"Exchanges are made with the {named(f)}, whose turn it is."
    if state.controller[giver] != seat:
        return f"You do not play the {named(giver)}."
    if move.to not in partners(state, giver):
        return f"The {named(giver)} and the {named(move.to)} share no district."
    if move.kind == "offer" and state.controller[move.to] == seat:
        return "Both factions are yours: give the cards instead."
    if not holds(state.hands[giver], move.extra):
        return f"The {named(giver)} do not hold {' and '.join(LOOT_NAMES[c] for c in move.extra)}."
    if move.kind == "offer" and not 1 <= move.n <= len(state.hands[move.to]):
        return f"The {named(move.to)} hold {len(state.hands[move.to])} cards: ask for 1 to that many."
    return "That exchange is not allowed now."


def offer_prompt(o: Offer) -> str:
    cards = " and ".join(LOOT_NAMES[c] for c in o.cards)
    return (f"{named(o.to)}: offer #{o.id}: the {named(o.frm)} offer you {cards} for {o.want} of your cards "
            "(you choose which). Accept or decline? Their turn goes on meanwhile.")


def exchange_decisions(state: BlocState, taken: int) -> list[Decision]:
    """The decisions beside the acting faction's step 2 (seat ``taken`` owes the turn itself): the answers owed to its
    trade offers, which run alongside the turn, and the other side's chance to give or offer, which nothing waits
    for. At most one per seat."""
    out: list[Decision] = []
    seats = {taken}
    f = state.faction_now()
    for o in state.offers:  # offers the acting faction made: their answers run alongside its turn
        seat = state.controller[o.to]
        if o.frm == f and seat not in seats:
            seats.add(seat)
            out.append(Decision(seat, "trade", offer_prompt(o), private=True, clock="decision",
                                default=f"decline {o.id}", alongside=True))
    for g in partners(state, f):  # the other side of an exchange may give or offer, nothing waits
        seat = state.controller[g]
        if seat not in seats and state.hands[g]:
            seats.add(seat)
            out.append(Decision(seat, "exchange", f"You may give the {named(f)} loot cards or offer them a "
                                "trade while they play (or just wait).", private=True, clock="none",
                                optional=True))
    return out
