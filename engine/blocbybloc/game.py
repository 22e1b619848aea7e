"""Bloc by Bloc, fully cooperative, for 2–4 players (2 players run two factions each).

Rules: ``../shared/rulebooks/bloc-by-bloc.txt`` as decided in ``../shared/rules/bloc-by-bloc/`` (city, play, police,
cards). The city is :mod:`engine.blocbybloc.city`, the police deck and its algorithms :mod:`engine.blocbybloc.police`,
the moves and their notation :mod:`engine.blocbybloc.moves`. Every step is one pick from the legal moves of the seat
that owes a decision: Start placement; each action of a faction's Sunset turn (the die is part of the move), its
loot cards and occupation abilities; a stop or allow by the faction with the most blocs where an advanced action
is declared; the card to discard after a draw-and-keep; a Lookouts reroll; the Police Scanner's order; the split
of losses in a mixed clash; the Sunrise loot windows; where a Medic Kit puts its blocs; the manifestation cards'
choices. Dice, reaction rolls, the police ops step, repression, liberation and the end checks run by themselves.

Loot exchanges run beside the acting faction's turn (cards part C1): in its step 2, it and any faction it shares a
district with may give each other cards, or offer a trade (these cards for so many of yours, your pick). An offer
to another player is an answer owed alongside the turn (``Decision.alongside``: the turn goes on; unanswered it is
declined); the other side's chance to give or offer is an ``optional`` decision that nothing waits for. The channel
hears how many cards moved, never which. Agendas and scenarios come with their own issue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations_with_replacement, permutations
from typing import Any

from engine.base import CANCEL, Decision, Event, Game, NotationError, OptionSpec, Result, Turns
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import (
    STATE,
    TILES,
    beginner_layout,
    cell_name,
    manifestation_deck,
    random_layout,
    routes_from,
)
from engine.blocbybloc.model import (
    BARRICADES,
    FACTIONS,
    LETTERS,
    LOOT_NAMES,
    MANIFESTATION_NAMES,
    MAX_BARRICADES,
    OCCUPATION_NAMES,
    BlocState,
    Offer,
    Pending,
    loot_deck,
    occupations_of,
)
from engine.blocbybloc.moves import ADVANCED, ATTACKS, MOLOTOVS, STRENGTH, Move, blocs, describe, format_move, parse
from engine.blocbybloc.view import BlocView, CellView, FactionView
from engine.rng import Rng
from engine.state import dump_state, load_state

FORMAT_VERSION = 1
DIFFICULTIES = ("easy", "medium", "hard")
END, ALLOW, STOP, PASS = Move("end"), Move("allow"), Move("stop"), Move("pass")
# what keeps an open run of attacks open (play part D2): die boosts, looks, free draws
KEEPS_RUN = ("energy", "scanner", "jammer", "workshop")  # (exchanges never touch a run: they are no actions)
EXCHANGES = ("give", "offer", "decline")  # with ``accept N …``: loot exchanges, from either side (cards part C1)
OWN_TURN = ("keep", "lookout", "scan")  # pending decisions inside the acting faction's own turn
TOGETHER = ("start", "split")  # pending decisions open at once, answered in any order (play part D2)
ALL_OFFERS, MENU_OFFERS, NO_OFFERS = "all", "menu", "none"  # which trade offers a list of moves holds
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
          "communique": "{f} do not play Communiqué.", "squat": "{f} build no occupation (Squatting Wave).",
          "fever": "{f} place no more barricades (Barricade Fever).", "reveal": "{f} discard no revealed card."}
"""What a pass says, by the pending decision's action (a window) or kind."""


def _struck(who: str, one: bool, defeated: str, evicted: str) -> str:
    """A police attack in words, the verbs agreeing with ``who`` (``one``: singular), naming only what happened:
    "2 cops in C5 defeat 3 blocs and evict the Neighbors' Faction Start.", "1 cop in B5 evicts …"."""
    s = "s" if one else ""
    done = ([f"defeat{s} {defeated}"] if defeated else []) + ([f"evict{s} {evicted}"] if evicted else [])
    return f"{who} {' and '.join(done) or 'defeat' + s + ' nothing'}."


def _text(f: int) -> str:
    return FACTIONS[f]


def _submultisets(cards: list[str]) -> list[tuple[str, ...]]:
    """Every sub-multiset of the Molotovs in ``cards`` (sorted tuples), the empty one first."""
    return [(), *_combos([c for c in cards if c in MOLOTOVS])]


def _holds(hand: list[str], cards: Sequence[str]) -> bool:
    """Whether ``hand`` holds every one of ``cards`` (as many of each as named)."""
    return all(hand.count(c) >= list(cards).count(c) for c in set(cards))


def _combos(cards: list[str], size: int = 0) -> list[tuple[str, ...]]:
    """The different sets of cards one may take from ``cards`` (sorted tuples): all non-empty ones, or those of
    ``size`` cards."""
    counts = {c: cards.count(c) for c in sorted(set(cards))}
    out: list[tuple[str, ...]] = [()]
    for card, k in counts.items():
        out = [prev + (card,) * i for prev in out for i in range(k + 1)]
    return sorted((c for c in out if (len(c) == size if size else c)), key=lambda c: (len(c), c))


class BlocByBloc(Game[BlocState, Move, BlocView]):
    key = "blocbybloc"
    name = "Bloc by Bloc"
    min_players = 2
    max_players = 4
    turns = Turns.SEQUENTIAL
    hidden_information = True  # loot hands, the decks, the manifestation cards
    cooperative = True
    summary = ("Cooperative insurrection in a 5×5 city: move blocs, barricade, loot, build occupations and fight "
               "the police deck, then liberate districts before the military arrives.")
    options = (
        OptionSpec("difficulty", str, "hard", "Police ops deck: easy, medium or hard (Paramilitary Operations)",
                   DIFFICULTIES),
        OptionSpec("city", str, "random", "The beginner city or a random one", ("random", "beginner")),
        OptionSpec("beginner", bool, False, "Beginner game: countdown 6 (8 with 3 players), Easy"),
        OptionSpec("overpass", bool, False, "Use the Highway Overpass instead of Highway 3 (random city)"),
    )

    # --- setup ------------------------------------------------------------------------------------------
    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> BlocState:
        self.check_seats(seats)
        opts = self.resolve_options(options)
        rng = Rng(seed)
        city_seed = rng.next64() & 0xFFFFFFFF
        if opts["city"] == "beginner":
            layout = beginner_layout(city_seed)
        else:
            layout = random_layout(city_seed, seats, overpass=opts["overpass"])
        deck_rest = manifestation_deck()
        for card in layout.manifestations:
            deck_rest.remove(card)
        factions = list(range(4))
        rng.shuffle(factions)
        if seats == 2:
            order, controller = factions, [0] * 4
            for i, f in enumerate(order):
                controller[f] = i % 2
        else:
            order = factions[:seats]  # seat i (lobby join order) plays factions[i]
            controller = [-1] * 4
            for seat, f in enumerate(order):
                controller[f] = seat
        city = layout.city
        difficulty = "easy" if opts["beginner"] else opts["difficulty"]
        cops, vans = [0] * 25, [-1] * 25
        for cell in city.districts:
            tile = city.tile(cell)
            if tile.type == STATE or tile.key == "d23":
                cops[cell], vans[cell] = 3, 0
        loot = loot_deck()
        rng.shuffle(loot)
        hands: list[list[str]] = [[] for _ in range(4)]
        for f in order:
            hands[f] = [loot.pop(), loot.pop()]
        if opts["beginner"]:
            countdown = 8 if seats == 3 else 6
        else:
            countdown = 8
        state = BlocState(
            options=opts, rng=0, tiles=list(layout.tiles), rotations=list(layout.rotations),
            under=list(layout.manifestations), spare=deck_rest, city_seed=layout.seed, order=order,
            controller=controller, liberated=[False] * 25,
            shops=[[0] * TILES[t].shops for t in layout.tiles], blocs=[[0, 0, 0, 0] for _ in range(25)],
            occ_owner=[-1] * 25, occ_kind=[""] * 25, mats=[occupations_of(f) if f in order else [] for f in range(4)],
            cops=cops, vans=vans, vans_box=0, barricades={}, morale=1,
            police_deck=pol.police_deck(difficulty, rng), police_discard=[], lockdown=-1,
            loot_deck=loot, loot_discard=[], hands=hands, countdown=countdown,
        )
        state.pending = [Pending("start", f) for f in order]
        state.rng = rng.state
        return state

    # --- the contract -----------------------------------------------------------------------------------
    def decisions(self, state: BlocState) -> tuple[Decision, ...]:
        if state.outcome:
            return ()
        if state.pending:  # the first open; Start placements and repression splits all at once (alongside it)
            return tuple(self._pending_decision(state, p, alongside=i > 0)
                         for i, p in enumerate(self._open_now(state)))
        main = self._turn_decision(state)
        if not self._exchanging(state):
            return (main,)
        out, seats = [main], {main.seat}
        f = state.faction_now()
        for o in state.offers:  # offers the acting faction made: their answers run alongside its turn
            seat = state.controller[o.to]
            if o.frm == f and seat not in seats:
                seats.add(seat)
                out.append(Decision(seat, "trade", self._offer_prompt(o), private=True, clock="decision",
                                    default=f"decline {o.id}", alongside=True))
        for g in self._partners(state, f):  # the other side of an exchange may give or offer, nothing waits
            seat = state.controller[g]
            if seat not in seats and state.hands[g]:
                seats.add(seat)
                out.append(Decision(seat, "exchange", f"You may give the {_text(f)} loot cards or offer them a "
                                    "trade while they play (or just wait).", private=True, clock="none",
                                    optional=True))
        return tuple(out)

    def _offer_prompt(self, o: Offer) -> str:
        cards = " and ".join(LOOT_NAMES[c] for c in o.cards)
        return (f"{_text(o.to)}: offer #{o.id}: the {_text(o.frm)} offer you {cards} for {o.want} of your cards "
                "(you choose which). Accept or decline? Their turn goes on meanwhile.")

    def _open_now(self, state: BlocState) -> list[Pending]:
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

    def pending_of(self, state: BlocState, seat: int) -> Pending | None:
        """The pending decision ``seat`` owes now, if any (what ``decisions`` asks of it, with its details)."""
        return next((p for p in self._open_now(state) if state.controller[p.faction] == seat), None)

    def _pending_decision(self, state: BlocState, p: Pending, alongside: bool = False) -> Decision:
        seat = state.controller[p.faction]
        name = _text(p.faction)
        if p.kind == "start":
            return Decision(seat, "start", f"{name}: choose the district of your Faction Start.",
                            clock="decision", default=self.format_move(self._start_default(state, p.faction)),
                            alongside=alongside)
        if p.kind == "stop":
            actor = state.faction_now()
            return Decision(seat, "stop", f"{name}: {_text(actor)} declared `{p.action}` where you have the "
                            "most blocs. Allow or stop it?", clock="decision", default="allow")
        if p.kind == "split":
            return Decision(seat, "split", f"{name}: {p.hits} cop{'s' if p.hits > 1 else ''} attack"
                            f"{'' if p.hits > 1 else 's'} in {cell_name(p.cell)}; choose which "
                            "blocs are defeated.", clock="decision",
                            default=self.format_move(Move("split", cell=p.cell, losses=tuple(p.default))),
                            alongside=alongside)
        window = {"repression": "Police Repression", "liberation": "District Liberation"}.get(p.action, "")
        asked = "reorder" if p.kind == "scan" and p.action == "reveal" else p.kind  # the pooled reveal, not a card
        prompt = PROMPTS[asked].format(f=name, roll=p.hits, window=window,
                                        where=cell_name(p.cell) if p.cell >= 0 else "")
        own = p.kind in OWN_TURN
        # choices that show a hand (the cards drawn, the seen police cards, a card one holds) are never public
        # (Lookouts and Communique are asked only of their holders, which the prompt on the board says anyway)
        private = p.kind in ("keep", "window") or (p.kind == "scan" and p.action != "reveal")
        own = own and p.action != "reveal"
        return Decision(seat, p.kind, prompt, private=private, clock="turn" if own else "decision",
                        default=self._pending_default(state, p))

    def _turn_decision(self, state: BlocState) -> Decision:
        f = state.faction_now()
        dice = " ".join(str(d) for d in sorted(state.dice)) or "none"
        seat = state.controller[f]
        holds = any(state.hands[g] for g in state.order if state.controller[g] == seat)  # its menu names cards
        return Decision(seat, "turn", f"{_text(f)}: your actions (dice {dice}).", private=holds, clock="turn",
                        default="end")

    def _pending_default(self, state: BlocState, p: Pending) -> str:
        if p.kind == "keep":
            return f"discard {p.cards[-1]}"  # an unanswered choice keeps the cards drawn first
        if p.kind == "lookout":
            return "accept"
        if p.kind == "scan":
            return "order " + " ".join(str(i + 1) for i in range(len(p.cards)))
        if p.kind == "place":
            return f"place {cell_name(self._placements(state, p.faction)[0])}"
        if p.kind == "fever":
            return self._fever_default(state, p)
        if p.kind == "rout":
            return "rout " + cell_name(next(c for c in self._near(state, p.cell) if state.cops[c]))
        if p.kind == "burn":
            return "burn " + cell_name(self._vans_in_range(state, p.cell, p.hits)[0])
        return "pass"

    def to_act(self, state: BlocState) -> frozenset[int]:
        if state.outcome:
            return frozenset()
        if state.pending:
            return frozenset(state.controller[p.faction] for p in self._open_now(state))
        f = state.faction_now()
        return frozenset((state.controller[f], *(state.controller[o.to] for o in state.offers if o.frm == f)))

    def acting_faction(self, state: BlocState) -> int:
        """The faction the seat to act is deciding for."""
        if state.pending:
            return state.pending[0].faction
        return state.faction_now()

    def legal_moves(self, state: BlocState, seat: int) -> list[Move]:
        return self._moves(state, seat, ALL_OFFERS)

    def _moves(self, state: BlocState, seat: int, offers: str) -> list[Move]:
        """The seat's legal moves, with every trade offer (``ALL_OFFERS``: their number doubles with each card in
        hand), the offers of one card (``MENU_OFFERS``), or none (``NO_OFFERS``)."""
        if state.outcome:
            return []
        if state.pending:
            p = self.pending_of(state, seat)
            return self._pending_moves(state, p) if p is not None else []
        if seat != state.controller[state.faction_now()]:
            return self._side_moves(state, seat, offers)
        return self._actions(state, state.faction_now(), offers)

    def menu_moves(self, state: BlocState, seat: int) -> list[Move]:
        """Every legal move but the trade offers of several cards, which are typed (`offer S medic banner for 2`):
        with a big hand they run to thousands."""
        return self._moves(state, seat, MENU_OFFERS)

    def _pending_moves(self, state: BlocState, p: Pending) -> list[Move]:
        if p.kind == "start":
            return [Move("start", cell=c) for c in self._start_cells(state, p.faction)]
        if p.kind == "stop":
            return [ALLOW, STOP]
        if p.kind == "split":
            return [Move("split", cell=p.cell, losses=tuple(s)) for s in self._splits(state, p)]
        if p.kind == "keep":
            return [Move("discard", extra=(c,)) for c in sorted(set(p.cards))]
        if p.kind == "lookout":
            return [Move("reroll"), Move("accept")]
        if p.kind == "scan":
            return [Move("order", extra=tuple(str(i + 1) for i in perm))
                    for perm in permutations(range(len(p.cards)))]
        if p.kind == "place":
            return [Move("place", cell=c) for c in self._placements(state, p.faction)]
        if p.kind == "communique":
            return [Move("communique"), PASS]
        if p.kind == "fever":
            return [*(Move("wall", conn=c) for c in self._walls(state, p.faction)), PASS]
        if p.kind == "squat":
            return [*self._squats(state, p.faction, p.cell, p.hits), PASS]
        if p.kind == "rout":
            return [Move("rout", cell=c) for c in dict.fromkeys(self._near(state, p.cell)) if state.cops[c]]
        if p.kind == "burn":
            return [Move("burn", cell=c) for c in self._vans_in_range(state, p.cell, p.hits)]
        if p.kind == "reveal":
            return [*(Move("drop", n=i + 1) for i in range(len(p.cards))), PASS]
        return [*self._window_plays(state, p.faction, p.action), PASS]

    # --- setup decisions ----------------------------------------------------------------------------------
    def _start_cells(self, state: BlocState, f: int) -> list[int]:
        city = state.city
        return [c for c in city.districts if city.tile(c).type == FACTIONS[f] and city.tile(c).circle
                and state.occ_owner[c] < 0]

    def _start_default(self, state: BlocState, f: int) -> Move:
        cells = self._start_cells(state, f)
        best = min(cells, key=lambda c: (state.difficulty(c), TILES[state.tiles[c]].pid))
        return Move("start", cell=best)

    # --- what a faction may do in step 2 ----------------------------------------------------------------
    def _occ(self, state: BlocState, f: int, kind: str) -> tuple[int, int]:
        """(the cell of f's occupation ``kind`` or -1, its uses per turn: 2 liberated, 1, 0 if not built)."""
        cell = state.occupation_cell(f, kind)
        return cell, (0 if cell < 0 else 2 if state.liberated[cell] else 1)

    def _left(self, state: BlocState, f: int, kind: str) -> int:
        return self._occ(state, f, kind)[1] - state.used.get(kind, 0)

    def _free_moves(self, state: BlocState, f: int) -> int:
        """Movements without a die: Free Transit, then the Social Center's."""
        return state.free_moves[f] + max(0, self._left(state, f, "center"))

    def _basic_loot(self, state: BlocState, f: int, burn: bool) -> bool:
        """Comrade Cafe: the owner's graffiti loots (burn loots too, liberated) are basic actions."""
        cafe, uses = self._occ(state, f, "cafe")
        return uses > 0 and (not burn or state.liberated[cafe])

    def _basic_build(self, state: BlocState, f: int, cell: int) -> bool:
        """Strike Hall: building and swapping in its district and adjacent ones (liberated: every district of its
        district's type too) are basic actions."""
        hall, uses = self._occ(state, f, "strike")
        if not uses:
            return False
        city = state.city
        if cell == hall or cell in city.adjacent[hall]:
            return True
        return state.liberated[hall] and city.tile(cell).type == city.tile(hall).type

    def _basic(self, state: BlocState, f: int, move: Move) -> bool:
        if move.kind == "loot":
            return self._basic_loot(state, f, move.burn)
        return move.kind in ("build", "swap") and self._basic_build(state, f, move.cell)

    def _garden_cells(self, state: BlocState, f: int) -> list[int]:
        garden, uses = self._occ(state, f, "garden")
        if not uses:
            return []
        if not state.liberated[garden]:
            return [garden]
        kind = state.city.tile(garden).type
        return [c for c in state.city.districts if state.city.tile(c).type == kind]

    def _actions(self, state: BlocState, f: int, offers: str = NO_OFFERS) -> list[Move]:
        city = state.city
        dice = sorted(set(state.dice))
        hand = state.hands[f]
        out: list[Move] = []
        metro = state.lockdown < 0
        move_dice = ([0] if self._free_moves(state, f) > 0 else []) + dice
        pool = BARRICADES - sum(state.barricades.values())
        walls: set[str] = set()  # connections offered already (from their other end)
        blocked = [state.police(c) for c in range(25)]
        bikes = "bicycles" in hand
        for cell in city.districts:
            mine = state.blocs[cell][f]
            if not mine:
                continue
            if not state.police(cell):
                routes = routes_from(city, cell, blocked, metro=metro) if move_dice or bikes else []
                for dest in routes:
                    for n in range(1, mine + 1):
                        out += [Move("move", d, cell, dest, n) for d in move_dice]
                        if bikes:
                            out.append(Move("bicycles", cell=cell, to=dest, n=n))
                if pool > 0:
                    for conn in city.touching[cell]:
                        if state.barricades.get(conn.id, 0) < MAX_BARRICADES and conn.id not in walls:
                            walls.add(conn.id)
                            out += [Move("barricade", d, conn=conn.id) for d in dice]
            out += self.district_actions(state, f, cell)  # after the movements, before the escapes
            if state.police(cell):
                if "clothes" in hand:
                    for dest in sorted(city.adjacent[cell]):
                        out += [Move("clothes", cell=cell, to=dest, n=n) for n in range(1, min(2, mine) + 1)]
                if "fireworks" in hand and state.cops[cell] >= 1:
                    for conn in city.touching[cell]:
                        out += [Move("fireworks", cell=cell, conn=conn.id, n=n)
                                for n in range(1, min(2, state.cops[cell]) + 1)]
        out += self._ability_options(state, f, dice, pool)
        out += self._card_options(state, f, dice, pool)
        out += self._turn_exchanges(state, f, offers)
        out.append(END)
        return out

    def district_actions(self, state: BlocState, f: int, cell: int) -> list[Move]:
        """Faction ``f``'s actions on the district ``cell`` itself, with every die and card that may pay: attacks on
        its police (defeat, kick, van), or else loots, builds and swaps there. Part of ``legal_moves``; bots use it
        to see what blocs sent to a district could do there, without listing every move."""
        mine = state.blocs[cell][f]
        if not mine:
            return []
        dice = sorted(set(state.dice))
        diff = state.difficulty(cell)
        if not state.police(cell):
            return self._advanced_options(state, f, cell, dice, diff)
        out: list[Move] = []
        if dice and state.attacked.get(f"{f}:{cell}", 0) < mine:
            hand = state.hands[f]
            strong = [d for d in dice if d >= diff]
            if state.cops[cell] >= 1:
                out += [Move("defeat", d, cell, extra=m) for m in _submultisets(hand) for d in strong]
            if state.cops[cell] >= 2:
                out += [Move("kick", d, cell, conn=c.id) for c in state.city.touching[cell] for d in strong]
            if state.vans[cell] >= 0:
                out += [Move("van", d, cell, extra=m) for m in _submultisets(hand) for d in strong]
        return out

    # --- loot exchanges (cards part C1): beside the acting faction's step 2, from either side ---------------
    def _exchanging(self, state: BlocState) -> bool:
        """Exchanges are open: step 2 of a faction's turn, with no decision open in it."""
        return state.phase == "sunset" and not state.pending and not state.outcome

    def _turn_exchanges(self, state: BlocState, f: int, offers: str) -> list[Move]:
        """What the acting faction's own panel offers: gifts both ways with the factions of the same player (two
        players), gifts and trade offers to the others, and the answers to offers made to it."""
        seat = state.controller[f]
        out: list[Move] = []
        for g in self._partners(state, f):
            out += [Move("give", to=g, extra=(c,)) for c in sorted(set(state.hands[f]))]
            if state.controller[g] == seat:
                out += [Move("give", to=f, extra=(c,), frm=g) for c in sorted(set(state.hands[g]))]
            else:
                out += self._offers(state, f, g, -1, offers)
        for o in state.offers:
            if o.to == f:
                out += self._answers(state, o)
        return out

    def search_moves(self, state: BlocState, seat: int) -> list[Move]:
        """Bots make no exchanges of their own: an offer or a gift changes nothing their heuristics value, so they
        would offer for ever and give at random. Offered a trade, they accept it (the table is on one side)."""
        moves = self._moves(state, seat, NO_OFFERS)
        kept = [m for m in moves if m.kind != "give" and m.kind != "decline"]
        if any(m.kind == "decline" for m in moves) and not any(m.kind == "accept" and m.n for m in kept):
            kept += [m for m in moves if m.kind == "decline"]  # nothing to give back: decline
        return kept or moves

    def _side_moves(self, state: BlocState, seat: int, offers: str) -> list[Move]:
        """A seat besides the acting one: the answer to its oldest open offer, else its gifts and offers."""
        f = state.faction_now()
        offer = next((o for o in state.offers if o.frm == f and state.controller[o.to] == seat), None)
        if offer is not None:
            return self._answers(state, offer)
        out: list[Move] = []
        for g in self._partners(state, f):
            if state.controller[g] == seat:
                out += [Move("give", to=f, extra=(c,), frm=g) for c in sorted(set(state.hands[g]))]
                out += self._offers(state, g, f, g, offers)
        return out

    def _offers(self, state: BlocState, g: int, to: int, frm: int, offers: str) -> list[Move]:
        """Trade offers of ``g`` to ``to``: any of its cards for 1… (as many as ``to`` holds) of ``to``'s."""
        if offers == NO_OFFERS:
            return []
        wants = range(1, len(state.hands[to]) + 1)
        sets = _combos(state.hands[g]) if offers == ALL_OFFERS else [(c,) for c in sorted(set(state.hands[g]))]
        return [Move("offer", to=to, n=n, extra=cards, frm=frm) for cards in sets for n in wants]

    def _offer_legal(self, state: BlocState, seat: int, move: Move) -> bool:
        """``move in legal_moves`` for a trade offer, without listing them all."""
        if not self._exchanging(state) or not move.extra or list(move.extra) != sorted(move.extra):
            return False
        f = state.faction_now()
        if seat == state.controller[f]:
            giver, ok = f, move.frm == -1 and state.controller[move.to] != seat
        else:
            answering = any(o.frm == f and state.controller[o.to] == seat for o in state.offers)
            giver = move.frm
            ok = not answering and giver >= 0 and move.to == f and state.controller[giver] == seat
        if not ok or move.to not in self._partners(state, giver):
            return False
        return _holds(state.hands[giver], move.extra) and 1 <= move.n <= len(state.hands[move.to])

    def _answers(self, state: BlocState, o: Offer) -> list[Move]:
        """Accepting gives ``o.want`` cards of the asked faction's choice; only while the two share a district."""
        out = []
        if o.to in self._partners(state, o.frm):
            out = [Move("accept", n=o.id, extra=c) for c in _combos(state.hands[o.to], o.want)]
        return [*out, Move("decline", n=o.id)]

    def _partners(self, state: BlocState, f: int) -> list[int]:
        """Factions that share a district with ``f`` (clash or not): they may exchange loot cards."""
        return [g for g in state.order if g != f and any(row[f] and row[g] for row in state.blocs)]

    def _advanced_options(self, state: BlocState, f: int, cell: int, dice: list[int], diff: int) -> list[Move]:
        out: list[Move] = []
        crowbar = "crowbar" in state.hands[f]

        def dice_for(basic: bool) -> list[tuple[int, tuple[str, ...]]]:
            if basic:
                return [(d, ()) for d in dice]
            return [(d, ()) for d in dice if d >= diff] + ([(d, ("crowbar",)) for d in dice if d < diff]
                                                            if crowbar else [])

        if f"loot:{cell}" not in state.stopped and not state.liberated[cell]:
            shops = state.shops[cell]
            if 0 in shops:
                out += [Move("loot", d, cell, extra=x) for d, x in dice_for(self._basic_loot(state, f, False))]
            if 1 in shops:
                out += [Move("loot", d, cell, burn=True, extra=x)
                        for d, x in dice_for(self._basic_loot(state, f, True))]
        if state.mats[f] and state.may_build(f, cell):
            kind = "build" if state.occ_owner[cell] < 0 else "swap"
            if f"{kind}:{cell}" not in state.stopped:
                options = dice_for(self._basic_build(state, f, cell))
                out += [Move(kind, d, cell, occ=o, extra=x) for d, x in options for o in sorted(set(state.mats[f]))]
        return out

    def _ability_options(self, state: BlocState, f: int, dice: list[int], pool: int) -> list[Move]:
        out: list[Move] = []
        if dice and self._left(state, f, "hall") > 0 and state.on_mat(f) > 0:
            out += [Move("hall", d) for d in dice]
        if dice and self._left(state, f, "hacker") > 0:
            out += [Move("hacker", d) for d in dice]
        if self._left(state, f, "workshop") > 0:
            out.append(Move("workshop"))
        if dice and pool > 0:
            city = state.city
            for cell in self._garden_cells(state, f):
                if not state.blocs[cell][f] or state.police(cell):
                    continue
                for combo in self._spread(state, [c.id for c in city.touching[cell]], 3, pool):
                    out += [Move("garden", d, extra=combo) for d in dice]
        return out

    def _spread(self, state: BlocState, conns: list[str], k: int, pool: int) -> list[tuple[str, ...]]:
        """The ways to put up to ``k`` barricades on ``conns`` (as many as room and the pool allow)."""
        room = {c: MAX_BARRICADES - state.barricades.get(c, 0) for c in conns}
        total = min(k, pool, sum(room.values()))
        if total <= 0:
            return []
        return [combo for combo in combinations_with_replacement(sorted(c for c in conns if room[c] > 0), total)
                if all(combo.count(c) <= room[c] for c in set(combo))]

    def _card_options(self, state: BlocState, f: int, dice: list[int], pool: int) -> list[Move]:
        hand = state.hands[f]
        out: list[Move] = []
        if "energy" in hand:
            out += [Move("energy", d) for d in dice if d < 6]
        if "jammer" in hand and not state.used.get("jammer"):
            out.append(Move("jammer"))
        if "scanner" in hand and state.police_deck:
            out.append(Move("scanner"))
        if "megaphone" in hand and state.on_mat(f) > 0:
            out += [Move("megaphone", cell=c) for c in range(25) if state.occ_owner[c] == f]
        if "dumpster" in hand and pool > 0:
            city = state.city
            seen: set[tuple[str, ...]] = set()
            for cell in city.districts:
                if state.blocs[cell][f] and not state.police(cell):
                    for combo in self._spread(state, [c.id for c in city.touching[cell]], 2, pool):
                        if len(combo) == 2 and combo not in seen:
                            seen.add(combo)
                            out.append(Move("dumpster", extra=combo))
        return out

    def is_legal(self, state: BlocState, seat: int, move: Move) -> bool:
        if move.kind == "offer":
            return self._offer_legal(state, seat, move)
        return move in self._moves(state, seat, NO_OFFERS)

    def normalise_move(self, state: BlocState, seat: int, move: Move) -> Move:
        """``give S medic from W`` typed by the Workers in their own turn is their plain gift."""
        if move.kind in ("give", "offer") and move.frm >= 0 and state.phase == "sunset" and \
                move.frm == state.faction_now():
            return replace(move, frm=-1)
        return move

    # --- applying ----------------------------------------------------------------------------------------
    def perform(self, state: BlocState, seat: int, move: Move, events: list[Event]) -> None:
        rng = Rng(state.rng)
        state.ply += 1
        if move.kind in EXCHANGES or (move.kind == "accept" and move.n):
            self._exchange(state, move, events)
        elif state.pending:
            self._answer(state, seat, move, events, rng)
        else:
            self._act(state, state.faction_now(), move, events, rng)
        if state.offers:
            self._lapse(state, events)
        state.rng = rng.state

    def _answer(self, state: BlocState, seat: int, move: Move, events: list[Event], rng: Rng) -> None:
        p = self.pending_of(state, seat) or state.pending[0]
        if move.kind == "pass":  # said, so that the board a pass brings tells it (it may be all that happened)
            said = PASSED.get(p.action or p.kind, "{f} pass.")
            self._say(events, state, "pass", said.format(f=_text(p.faction)), p.faction)
        if p.kind == "start":
            self._place_start(state, p, move, events, rng)
        elif p.kind == "stop":
            self._answer_stop(state, move, events, rng)
        elif p.kind == "split":
            self._answer_split(state, p, move, events, rng)
        elif p.kind == "keep":
            state.pending.pop(0)
            card = move.extra[0]
            kept = list(p.cards)
            kept.remove(card)
            state.hands[p.faction] += kept
            state.loot_discard.append(card)
            self._say(events, state, "discard", f"{_text(p.faction)} keep {len(kept)} card"
                      f"{'s' if len(kept) != 1 else ''} and discard {LOOT_NAMES[card]}.", p.faction)
            if p.action == "roll":  # the loot's reaction roll, after the choice
                self._reaction(state, p.faction, p.cell, events, rng)
        elif p.kind == "lookout":
            state.pending.pop(0)
            roll = p.hits
            if move.kind == "reroll":
                state.hands[p.faction].remove("lookouts")
                state.loot_discard.append("lookouts")
                roll = 1 + rng.below(6)
                self._say(events, state, "lookouts", f"{_text(p.faction)} play Lookouts: the reaction die is rolled "
                          f"again: {roll}.", p.faction)
            gained = self._roll_effect(state, p.faction, p.cell, roll, events, rng)
            if p.action:
                self._carry_on(state, p.faction, self.parse_move(p.action), gained, events, rng)
        elif p.kind == "scan":
            state.pending.pop(0)
            order = [p.cards[int(i) - 1] for i in move.extra]  # top first
            state.police_deck += order[::-1]
            if p.action == "reveal":  # the revealed cards are public: so is their new order
                self._say(events, state, "reveal", f"{_text(p.faction)} put the revealed cards back: "
                          + ", ".join(pol.CARDS[c].name for c in order) + " (top first).", p.faction)
                if not state.pending:
                    self._next_night(state, events, rng)
                return
            self._say(events, state, "scanner", f"{_text(p.faction)} put the police ops cards back in an order "
                      "of their choosing.", p.faction)
        elif p.kind == "place":
            state.pending.pop(0)
            state.blocs[move.cell][p.faction] += 1
            self._say(events, state, "medic", f"A {_text(p.faction)} bloc saved by a Medic Kit goes to "
                      f"{cell_name(move.cell)}.", p.faction)
            if not state.pending:
                self._liberation_window(state, events, rng)
        elif p.kind == "communique":
            state.pending.pop(0)
            if move.kind == "communique":
                state.hands[p.faction].remove("communique")
                state.loot_discard.append("communique")
                state.pending = []
                self._say(events, state, "communique", f"{_text(p.faction)} play Communiqué: the card resolves one "
                          "level higher.", p.faction)
                self._resolve_liberation(state, p.cell, True, events, rng)
            elif not state.pending:
                self._resolve_liberation(state, p.cell, False, events, rng)
        elif p.kind in ("fever", "squat", "rout", "burn", "reveal"):
            state.pending.pop(0)
            self._manifest_answer(state, p, move, events, rng)
        else:  # a Sunrise window
            state.pending.pop(0)
            self._window_answer(state, p, move, events, rng)

    def _say(self, events: list[Event], state: BlocState, kind: str, text: str, f: int | None = None) -> None:
        seat = state.controller[f] if f is not None else None
        events.append(Event(kind, seat, text))

    def _place_start(self, state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
        state.pending = [q for q in state.pending if q is not p]
        f = p.faction
        state.occ_owner[move.cell], state.occ_kind[move.cell] = f, "start"
        state.mats[f].remove("start")
        state.blocs[move.cell][f] += 1
        self._say(events, state, "start", f"{_text(f)} start in {self._where(state, move.cell)}.", f)
        if not state.pending:
            self._first_faction(state, events, rng)
            self._begin_turn(state, events, rng)

    def _first_faction(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        rolling = list(state.order)
        while True:
            rolls = {f: 1 + rng.below(6) for f in rolling}
            top = max(rolls.values())
            events.append(Event("roll", None, "First-faction roll: " + ", ".join(
                f"{_text(f)} {r}" for f, r in rolls.items()) + "."))
            rolling = [f for f in rolling if rolls[f] == top]
            if len(rolling) == 1:
                break
        state.first = state.order.index(rolling[0])
        state.phase = "sunset"
        state.turn = 0
        events.append(Event("first", None, f"{_text(rolling[0])} take the first-faction marker."))

    def _begin_turn(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        f = state.faction_now()
        state.dice, state.used, state.stopped, state.run = [], {}, [], -1
        start = state.occupation_cell(f, "start")
        if start >= 0 and state.on_mat(f) > 0:
            state.blocs[start][f] += 1
            self._say(events, state, "form", f"{_text(f)} form a bloc at their Start ({cell_name(start)}).", f)
        n = state.in_city(f)
        count = (3 if n < 6 else 4 if n <= 8 else 5) + state.momentum[f]
        state.momentum[f] = 0
        state.dice = sorted(1 + rng.below(6) for _ in range(count))
        self._say(events, state, "dice", f"Night {state.night}: {_text(f)}, played by {{p{state.controller[f]}}}, "
                  f"roll {' '.join(str(d) for d in state.dice)}.", f)

    def _spend(self, state: BlocState, f: int, die: int) -> None:
        if die > 0:
            state.dice.remove(die)
        elif state.free_moves[f] > 0:
            state.free_moves[f] -= 1
        else:
            state.used["center"] = state.used.get("center", 0) + 1

    def _play_card(self, state: BlocState, f: int, card: str) -> None:
        state.hands[f].remove(card)
        state.loot_discard.append(card)

    def _exchange(self, state: BlocState, move: Move, events: list[Event]) -> None:
        """A gift, a trade offer or its answer (cards part C1). The channel hears how many cards, never which."""
        k, acting = move.kind, state.faction_now()
        giver = move.frm if move.frm >= 0 else acting
        if k == "give":
            state.hands[giver].remove(move.extra[0])
            state.hands[move.to].append(move.extra[0])
            self._say(events, state, "give", f"{_text(giver)} give a loot card to the {_text(move.to)}.", giver)
        elif k == "offer":
            old = [o.id for o in state.offers if o.frm == giver]
            state.offers = [o for o in state.offers if o.frm != giver]
            state.offers_made += 1
            state.offers.append(Offer(state.offers_made, giver, move.to, list(move.extra), move.n))
            n = len(move.extra)
            self._say(events, state, "offer", f"{_text(giver)} offer the {_text(move.to)} a trade (#{state.offers_made}"
                      f"): {n} card{'s' if n != 1 else ''} for {move.n}"
                      + (f"; it replaces their offer #{old[0]}." if old else "."), giver)
        else:
            o = next(o for o in state.offers if o.id == move.n)
            state.offers.remove(o)
            if k == "decline":
                self._say(events, state, "decline", f"{_text(o.to)} decline trade #{o.id}.", o.to)
                return
            for card in o.cards:
                state.hands[o.frm].remove(card)
                state.hands[o.to].append(card)
            for card in move.extra:
                state.hands[o.to].remove(card)
                state.hands[o.frm].append(card)
            self._say(events, state, "trade", f"{_text(o.to)} accept trade #{o.id}: {len(o.cards)} card"
                      f"{'s' if len(o.cards) != 1 else ''} to the {_text(o.to)}, {len(move.extra)} to the "
                      f"{_text(o.frm)}.", o.to)

    def _lapse(self, state: BlocState, events: list[Event], *, all_of_them: bool = False) -> None:
        """Offers lapse when step 2 ends, or when one of their cards leaves the offering hand."""
        for o in list(state.offers):
            if all_of_them or not _holds(state.hands[o.frm], o.cards):
                state.offers.remove(o)
                if all_of_them:  # (an offer whose card was just played goes quietly: saying so would show the card)
                    events.append(Event("lapse", None, f"Trade offer #{o.id} lapses: the turn's actions ended."))

    def _act(self, state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
        keeps = move.kind in KEEPS_RUN or (move.kind in ATTACKS and move.cell == state.run)
        if state.run >= 0 and not keeps:
            cell, state.run = state.run, -1
            if self._reaction(state, f, cell, events, rng, then=move):
                return  # Lookouts asked first; the move carries on after
            self._carry_on(state, f, move, self._kitchen_gave(events), events, rng)
            return
        self._do(state, f, move, events, rng)

    def _carry_on(self, state: BlocState, f: int, move: Move | None, gained: bool, events: list[Event],
                  rng: Rng) -> None:
        """After the roll that closed a run: the move that closed it, if it is still possible."""
        if move is None or state.outcome:
            return
        if move.kind == "end":
            if not gained:  # People's Kitchen dice from that roll: the turn goes on
                self._end_turn(state, f, events, rng)
            return
        if move not in self._actions(state, f):
            text = self.format_move(move)
            events.append(Event(CANCEL, state.controller[f], f"`{text}` is no longer possible after the police "
                                "reaction: nothing spent.", {"move": text}))
            return
        self._do(state, f, move, events, rng)

    def _do(self, state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
        k = move.kind
        if k == "end":
            self._end_turn(state, f, events, rng)
        elif k in ADVANCED:
            stopper = self._stopper(state, f, move.cell)
            if stopper >= 0:
                state.pending.insert(0, Pending("stop", stopper, cell=move.cell, action=self.format_move(move)))
                self._say(events, state, "declare", f"{_text(f)} declare `{self.format_move(move)}`; "
                          f"{_text(stopper)} may stop it.", f)
                return
            self._advanced(state, f, move, events, rng)
        elif k in ATTACKS:
            self._spend(state, f, move.die)
            self._attack(state, f, move, events)
        elif k in ("move", "bicycles", "clothes"):
            if k == "move":
                self._spend(state, f, move.die)
                how = "a free movement" if move.die == 0 else f"die {move.die}"
            else:
                self._play_card(state, f, k)
                how = LOOT_NAMES[k]
            state.blocs[move.cell][f] -= move.n
            state.blocs[move.to][f] += move.n
            self._cap_attacks(state, f, move.cell)
            self._say(events, state, "move", f"{_text(f)} move {blocs(move.n)} {cell_name(move.cell)} → "
                      f"{cell_name(move.to)} ({how}).", f)
        elif k in ("barricade", "dumpster", "garden"):
            conns = (move.conn,) if k == "barricade" else move.extra
            if k == "dumpster":
                self._play_card(state, f, "dumpster")
            else:
                self._spend(state, f, move.die)
            placed = []
            for conn in conns:
                if sum(state.barricades.values()) < BARRICADES and state.barricades.get(conn, 0) < MAX_BARRICADES:
                    state.barricades[conn] = state.barricades.get(conn, 0) + 1
                    placed.append(conn)
            how = {"barricade": "", "dumpster": " (Dumpster Barricade)", "garden": " (Guerrilla Garden)"}[k]
            self._say(events, state, "barricade", f"{_text(f)} barricade {', '.join(placed)}{how}.", f)
        elif k == "hall":
            self._spend(state, f, move.die)
            state.used["hall"] = state.used.get("hall", 0) + 1
            cell = state.occupation_cell(f, "hall")
            state.blocs[cell][f] += 1
            self._say(events, state, "hall", f"{_text(f)} form a bloc at their Assembly Hall ({cell_name(cell)}).", f)
        elif k == "hacker":
            self._spend(state, f, move.die)
            state.used["hacker"] = state.used.get("hacker", 0) + 1
            self._draw_keep(state, f, 2, 1, "Hacker Space", events, rng)
        elif k == "workshop":
            state.used["workshop"] = state.used.get("workshop", 0) + 1
            got = self._draw_loot(state, f, 1, rng)
            self._say(events, state, "workshop", f"{_text(f)} draw {len(got)} free loot card (Propaganda "
                      "Workshop).", f)
        else:
            self._card(state, f, move, events, rng)

    def _card(self, state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
        """A loot card of the 'your turn' window played on its own."""
        k = move.kind
        self._play_card(state, f, k)
        if k == "energy":
            state.dice.remove(move.die)
            state.dice = sorted([*state.dice, min(6, move.die + 2)])
            self._say(events, state, "card", f"{_text(f)} play Energy Drinks: a {move.die} becomes a "
                      f"{min(6, move.die + 2)}.", f)
        elif k == "jammer":
            state.used["jammer"] = 1
            self._say(events, state, "card", f"{_text(f)} play Radio Jammer: one police ops card fewer this turn.",
                      f)
        elif k == "megaphone":
            state.blocs[move.cell][f] += 1
            self._say(events, state, "card", f"{_text(f)} play Megaphone: a bloc forms in {cell_name(move.cell)}.",
                      f)
        elif k == "scanner":
            seen = state.police_deck[-3:][::-1]  # top first
            del state.police_deck[-len(seen):]
            state.pending.insert(0, Pending("scan", f, cards=seen))
            self._say(events, state, "card", f"{_text(f)} play Police Scanner and look at the top {len(seen)} police "
                      "ops cards.", f)
        elif k == "fireworks":
            conn = state.city.by_id[move.conn]
            dest = conn.other(move.cell)
            state.cops[move.cell] -= move.n
            state.cops[dest] += move.n
            gone = state.barricades.pop(move.conn, 0)
            extra = f", {gone} barricade{'s' if gone > 1 else ''} dismantled" if gone else ""
            self._say(events, state, "card", f"{_text(f)} play Fireworks: {move.n} cop{'s' if move.n > 1 else ''} "
                      f"driven from {cell_name(move.cell)} into {cell_name(dest)}{extra}.", f)
            self._reaction(state, f, move.cell, events, rng)

    def _draw_keep(self, state: BlocState, f: int, draw: int, keep: int, source: str, events: list[Event],
                   rng: Rng) -> None:
        got = self._draw_loot(state, f, draw, rng, into_hand=False)
        self._say(events, state, "draw", f"{_text(f)} draw {len(got)} loot card{'s' if len(got) != 1 else ''} "
                  f"({source}), keeping {min(keep, len(got))}.", f)
        if len(got) > keep:
            state.pending.insert(0, Pending("keep", f, cards=got))
        else:
            state.hands[f] += got

    @staticmethod
    def _where(state: BlocState, cell: int) -> str:
        return f"{TILES[state.tiles[cell]].name} ({cell_name(cell)})"

    @staticmethod
    def _kitchen_gave(events: list[Event]) -> bool:
        return bool(events) and events[-1].kind == "kitchen"

    def _cap_attacks(self, state: BlocState, f: int, cell: int) -> None:
        key = f"{f}:{cell}"
        if state.attacked.get(key, 0) > state.blocs[cell][f]:
            state.attacked[key] = state.blocs[cell][f]

    def _stopper(self, state: BlocState, f: int, cell: int) -> int:
        counts = state.blocs[cell]
        top = max(counts)
        leaders = [g for g in range(4) if counts[g] == top]
        if len(leaders) == 1 and leaders[0] != f:
            return leaders[0]
        return -1

    def _answer_stop(self, state: BlocState, move: Move, events: list[Event], rng: Rng) -> None:
        p = state.pending.pop(0)
        f = state.faction_now()
        declared = self.parse_move(p.action)
        if move.kind == "stop":
            state.stopped.append(f"{declared.kind}:{declared.cell}")
            self._say(events, state, "stopped", f"{_text(p.faction)} stop `{p.action}`: the die goes back to "
                      f"{_text(f)}.", p.faction)
            return
        self._say(events, state, "allowed", f"{_text(p.faction)} allow `{p.action}`.", p.faction)
        self._advanced(state, f, declared, events, rng)

    def _advanced(self, state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
        basic = self._basic(state, f, move)
        self._spend(state, f, move.die)
        if move.crowbar:
            self._play_card(state, f, "crowbar")
        cell = move.cell
        if move.kind == "loot":
            shops = state.shops[cell]
            i = shops.index(1 if move.burn else 0)
            shops[i] += 1
            mark = "burn" if move.burn else "graffiti"
            self._say(events, state, "loot", f"{_text(f)} loot in {cell_name(cell)} ({mark}).", f)
            hideout, uses = self._occ(state, f, "hideout")
            if uses:
                self._draw_keep(state, f, 3, 3 if state.liberated[hideout] else 2, "Scavenger's Hideout", events,
                                rng)
            else:
                got = self._draw_loot(state, f, 1, rng)
                self._say(events, state, "draw", f"{_text(f)} draw {len(got)} loot card.", f)
        elif move.kind == "build":
            state.mats[f].remove(move.occ)
            state.occ_owner[cell], state.occ_kind[cell] = f, move.occ
            self._say(events, state, "build", f"{_text(f)} build {OCCUPATION_NAMES[move.occ]} in "
                      f"{self._where(state, cell)}.", f)
        elif move.kind == "swap":
            old_f, old = state.occ_owner[cell], state.occ_kind[cell]
            state.mats[old_f].append(old)
            state.mats[f].remove(move.occ)
            state.occ_owner[cell], state.occ_kind[cell] = f, move.occ
            whose = "their own" if old_f == f else f"the {_text(old_f)}'"
            self._say(events, state, "swap", f"{_text(f)} swap {whose} {OCCUPATION_NAMES[old]} for "
                      f"{OCCUPATION_NAMES[move.occ]} in {cell_name(cell)}.", f)
        if basic:
            return  # made basic by an occupation: no reaction roll
        if state.pending and state.pending[0].kind == "keep":
            state.pending[0].cell, state.pending[0].action = cell, "roll"  # the roll follows the choice of cards
            return
        self._reaction(state, f, cell, events, rng)

    def _attack(self, state: BlocState, f: int, move: Move, events: list[Event]) -> None:
        cell, city = move.cell, state.city
        key = f"{f}:{cell}"
        state.attacked[key] = state.attacked.get(key, 0) + 1
        state.run = cell
        strength = 0
        for card in move.molotovs:
            self._play_card(state, f, card)
            strength += STRENGTH[card]
        if move.molotovs:
            bonus = max(0, self._left(state, f, "factory"))
            if bonus:
                state.used["factory"] = state.used.get("factory", 0) + bonus
                strength += 2 * bonus
        hits = 1 + strength
        with_cards = f" with {' + '.join(LOOT_NAMES[c] for c in move.molotovs)}" if move.molotovs else ""
        if move.kind == "defeat":
            n = min(hits, state.cops[cell])
            state.cops[cell] -= n
            self._say(events, state, "attack", f"{_text(f)} defeat {n} cop{'s' if n > 1 else ''} in "
                      f"{cell_name(cell)}{with_cards}.", f)
        elif move.kind == "kick":
            conn = city.by_id[move.conn]
            dest = conn.other(cell)
            state.cops[cell] -= 2
            state.cops[dest] += 2
            gone = state.barricades.pop(move.conn, 0)
            extra = f", {gone} barricade{'s' if gone > 1 else ''} dismantled" if gone else ""
            self._say(events, state, "attack", f"{_text(f)} kick 2 cops out of {cell_name(cell)} into "
                      f"{cell_name(dest)} by {move.conn}{extra}.", f)
        else:
            state.vans[cell] += hits
            if state.vans[cell] >= 3:
                state.vans[cell] = -1
                state.vans_box += 1
                state.vans_destroyed += 1
                self._say(events, state, "attack", f"{_text(f)} destroy the van in {cell_name(cell)}{with_cards}!",
                          f)
            else:
                word = "on its side" if state.vans[cell] == 1 else "upside down"
                self._say(events, state, "attack", f"{_text(f)} attack the van in {cell_name(cell)}{with_cards}: "
                          f"{word}.", f)

    def _reaction(self, state: BlocState, f: int, cell: int, events: list[Event], rng: Rng,
                  then: Move | None = None) -> bool:
        """Roll the reaction die for an action in ``cell``. True when the roller holds Lookouts: the roll waits for
        its answer (and ``then``, the move that closed a run, carries on after it)."""
        roll = 1 + rng.below(6)
        if "lookouts" in state.hands[f]:
            state.pending.insert(0, Pending("lookout", f, cell=cell, hits=roll,
                                            action=self.format_move(then) if then is not None else ""))
            self._say(events, state, "reaction", f"Reaction roll {roll} in {cell_name(cell)}.", f)
            return True
        self._roll_effect(state, f, cell, roll, events, rng)
        return False

    def _roll_effect(self, state: BlocState, f: int, cell: int, roll: int, events: list[Event], rng: Rng) -> bool:
        """Apply a reaction roll; True when People's Kitchen dice were gained."""
        if roll == 1:
            if pol.staging_cops(state) > 0:
                state.cops[cell] += 1
                self._say(events, state, "reaction", f"Reaction roll 1: a cop arrives in {cell_name(cell)}.", f)
            else:
                self._say(events, state, "reaction", "Reaction roll 1: no cop left in staging.", f)
        elif roll == 2:
            self._say(events, state, "reaction", "Reaction roll 2: a police ops card.", f)
            self._draw_police(state, events, rng)
        elif roll == 6 and state.occupation_cell(f, "kitchen") >= 0:
            k = state.occupation_cell(f, "kitchen")
            extra = [1 + rng.below(6) for _ in range(2 if state.liberated[k] else 1)]
            state.dice = sorted(state.dice + extra)
            self._say(events, state, "kitchen", f"Reaction roll 6: People's Kitchen! Extra di"
                      f"{'ce' if len(extra) > 1 else 'e'} {' '.join(map(str, extra))}.", f)
            return True
        else:
            self._say(events, state, "reaction", f"Reaction roll {roll}: nothing happens.", f)
        return False

    # --- decks --------------------------------------------------------------------------------------------
    def _draw_loot(self, state: BlocState, f: int, n: int, rng: Rng, into_hand: bool = True) -> list[str]:
        """Draw ``n`` loot cards (fewer if both piles run out), reshuffling the discard pile as the cards part
        says; into ``f``'s hand unless ``into_hand`` is false (a keep decision holds them)."""
        got = []
        for _ in range(n):
            if not state.loot_deck:
                state.loot_deck, state.loot_discard = state.loot_discard, []
                rng.shuffle(state.loot_deck)
            if not state.loot_deck:
                break
            got.append(state.loot_deck.pop())
            if not state.loot_deck and state.loot_discard:
                state.loot_deck, state.loot_discard = state.loot_discard, []
                rng.shuffle(state.loot_deck)
        if into_hand:
            state.hands[f] += got
        return got

    def _draw_police(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        if not state.police_deck:
            state.police_deck, state.police_discard = state.police_discard, []
            rng.shuffle(state.police_deck)
        if not state.police_deck:
            events.append(Event("police", None, "The police ops deck is empty: nothing happens."))
            return
        cid = state.police_deck.pop()
        card = pol.CARDS[cid]
        state.last_police.append(cid)
        if card.morale:
            pol.raise_morale(state)
        if not state.police_deck and state.police_discard:
            state.police_deck, state.police_discard = state.police_discard, []
            rng.shuffle(state.police_deck)
        lines = self._resolve_police(state, card, rng)
        morale = f" Morale: {pol.MORALE[state.morale - 1]}." if card.morale else ""
        events.append(Event("police", None, f"🚨 {card.name} ({'highest' if card.highest else 'lowest'} ID): "
                            + "; ".join(lines) + "." + morale, {"card": cid}))
        if card.kind not in ("lockdown", "chief"):
            state.police_discard.append(cid)

    def _resolve_police(self, state: BlocState, card: pol.PoliceCard, rng: Rng) -> list[str]:
        city = state.city
        if card.kind == "advance":
            return pol.advance(state, city, lambda c: city.tile(c).type == card.target, card.highest)
        if card.kind == "paramilitary":
            lines = pol.reinforce(state, city, 1, card.highest)
            return lines + pol.advance(state, city, pol.occupied(state), card.highest)
        if card.kind in ("heavy", "light"):
            return pol.reinforce(state, city, 2 if card.kind == "heavy" else 1, card.highest)
        if card.kind == "emergency":
            return pol.emergency(state, city)
        if card.kind == "maneuvers":
            return pol.maneuvers(state, city)
        if card.kind == "retreat":
            return pol.retreat(state, city)
        if card.kind == "rotation":
            return pol.rotation(state, city)
        if card.kind == "lockdown":
            order = state.order
            state.lockdown = order[(order.index(state.faction_now()) + 1) % len(order)]
            return [f"no metro for anyone until the end of the {_text(state.lockdown)}' next turn"]
        # Chief of Police Fired: a new deck of everything else; this card starts the discard pile
        state.police_deck += state.police_discard
        state.police_discard = [card.id]
        rng.shuffle(state.police_deck)
        return ["the police ops deck is reshuffled"]

    # --- end of a turn, the night ---------------------------------------------------------------------
    def _end_turn(self, state: BlocState, f: int, events: list[Event], rng: Rng) -> None:
        self._lapse(state, events, all_of_them=True)  # step 2 is over
        for _ in range(max(0, self._left(state, f, "workshop"))):  # untaken Workshop draws are taken now
            state.used["workshop"] = state.used.get("workshop", 0) + 1
            got = self._draw_loot(state, f, 1, rng)
            self._say(events, state, "workshop", f"{_text(f)} draw {len(got)} free loot card (Propaganda "
                      "Workshop).", f)
        state.dice = []
        state.last_police = []
        draws = max(0, pol.DRAWS[state.morale - 1] - (1 if state.used.get("jammer") else 0))
        jammed = " (Radio Jammer: one fewer)" if state.used.get("jammer") else ""
        self._say(events, state, "ops", f"{_text(f)} end their actions: {draws} police ops card"
                  f"{'s' if draws != 1 else ''} ({pol.MORALE[state.morale - 1]}){jammed}.", f)
        for _ in range(draws):
            self._draw_police(state, events, rng)
        state.free_moves[f] = 0  # Free Transit lasts one turn
        if state.lockdown == f:  # the card lay in front of f since before this turn: its next turn is over
            state.lockdown = -1
            state.police_discard.append("PO33")
            events.append(Event("lockdown", None, "Metro Lockdown ends: the metro runs again."))
        state.turn += 1
        if state.turn < len(state.order):
            self._begin_turn(state, events, rng)
            return
        self._sunrise(state, events, rng)

    def _sunrise(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        state.phase = "sunrise"
        state.last_police = []
        state.shields, state.paints, state.medics, state.banners = {}, [], [], {}
        for cell in state.city.districts:
            if state.vans[cell] > 0:
                state.vans[cell] = 0
        events.append(Event("sunrise", None, f"☀️ Sunrise of night {state.night}: police repression (vans "
                            "repaired)."))
        self._open_window(state, "repression", events, rng)

    # --- the Sunrise loot windows (cards part C3) ----------------------------------------------------------
    def _window_plays(self, state: BlocState, f: int, window: str) -> list[Move]:
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

    def _open_window(self, state: BlocState, window: str, events: list[Event], rng: Rng) -> None:
        state.window, state.window_turn, state.window_passes = window, 0, 0
        self._next_in_window(state, events, rng)

    def _next_in_window(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        """Ask the next faction (this night's order, round after round) with a card to play; close the window
        once a whole round has passed."""
        order = state.night_order()
        while state.window_passes < len(order):
            f = order[state.window_turn % len(order)]
            state.window_turn += 1
            if self._window_plays(state, f, state.window):
                state.pending.append(Pending("window", f, action=state.window))
                return
            state.window_passes += 1
        window, state.window = state.window, ""
        if window == "repression":
            self._vans_attack(state, events, rng)
        else:
            self._liberate(state, events, rng)

    def _window_answer(self, state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
        f = p.faction
        if move.kind == "pass":
            state.window_passes += 1
        else:
            state.window_passes = 0
            self._play_card(state, f, move.kind)
            key = str(move.cell)
            if move.kind == "shield":
                state.shields[key] = state.shields.get(key, 0) + 1
                text = f"Shield Wall: 2 cops in {cell_name(move.cell)} will not attack"
            elif move.kind == "paint":
                state.paints.append(move.cell)
                text = f"Paint Bombs: the van in {cell_name(move.cell)} will not attack"
            elif move.kind == "medic":
                state.medics.append([f, move.cell])
                text = f"Medic Kit: up to 2 {_text(f)} blocs defeated in {cell_name(move.cell)} will be saved"
            else:
                state.banners[key] = state.banners.get(key, 0) + 1
                text = f"Banner Drop: {cell_name(move.cell)} counts 2 more blocs for liberation"
            self._say(events, state, "card", f"{_text(f)} play {text}.", f)
        self._next_in_window(state, events, rng)

    # --- Police Repression ----------------------------------------------------------------------------------
    def _vans_attack(self, state: BlocState, events: list[Event], rng: Rng) -> None:
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
                                                            blocs(lost) if lost else "", self._evict(state, cell))))
        for cell in sorted(city.districts, key=lambda c: city.tile(c).pid):
            c, n = self._attackers(state, cell), sum(state.blocs[cell])
            if c <= 0 or (n == 0 and state.occ_owner[cell] < 0):
                continue
            factions = [g for g in range(4) if state.blocs[cell][g]]
            if c < n and len(factions) > 1:
                state.pending.append(Pending("split", self._chooser(state, cell), cell=cell, hits=c,
                                             default=self._default_split(state, cell, c)))
        if not state.pending:
            self._repress(state, events, rng)

    def _attackers(self, state: BlocState, cell: int) -> int:
        return max(0, state.cops[cell] - 2 * state.shields.get(str(cell), 0))

    def _chooser(self, state: BlocState, cell: int) -> int:
        counts = state.blocs[cell]
        top = max(counts)
        for f in state.night_order():
            if counts[f] == top:
                return f
        raise AssertionError("no chooser")

    def _default_split(self, state: BlocState, cell: int, hits: int) -> list[int]:
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

    def _splits(self, state: BlocState, p: Pending) -> list[list[int]]:
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

    def _answer_split(self, state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
        state.pending = [q for q in state.pending if q is not p]
        p.answer = list(move.losses)
        self._say(events, state, "split", f"{_text(p.faction)} choose the losses in {cell_name(p.cell)}: "
                  + ", ".join(f"{_text(f)} {k}" for f, k in enumerate(move.losses) if k) + ".", p.faction)
        state.pending.append(p)
        if all(q.answer for q in state.pending):
            self._repress(state, events, rng)

    def _repress(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        chosen = {p.cell: p.answer for p in state.pending}
        state.pending = []
        city = state.city
        for cell in sorted(city.districts, key=lambda c: city.tile(c).pid):
            c, n = self._attackers(state, cell), sum(state.blocs[cell])
            if c <= 0 or (n == 0 and state.occ_owner[cell] < 0):
                continue
            shield = " (Shield Wall)" if str(cell) in state.shields else ""
            if c >= n:
                for f in range(4):
                    state.defeated[cell][f] += state.blocs[cell][f]
                state.blocs[cell] = [0, 0, 0, 0]
                evicted = self._evict(state, cell) if c > n else ""
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
            lost = ", ".join(f"{k} {_text(f)} bloc{'s' if k > 1 else ''}" for f, k in enumerate(losses) if k)
            events.append(Event("repression", None, _struck(f"{c} cop{'s' if c > 1 else ''} in {cell_name(cell)}"
                                                            f"{shield}", c == 1, lost, "")))
        self._medics(state, events)
        if not state.pending:
            self._liberation_window(state, events, rng)

    def _medics(self, state: BlocState, events: list[Event]) -> None:
        """Medic Kits place the blocs they saved (cards part C2): one decision per bloc, where it goes."""
        for f, cell in state.medics:
            saved = min(2, state.defeated[cell][f])
            state.defeated[cell][f] -= saved
            if not saved:
                continue
            if not self._placements(state, f):
                events.append(Event("medic", None, f"The Medic Kit finds no {_text(f)} occupation left: the "
                                    "blocs go back to the mat."))
                continue
            state.pending += [Pending("place", f, cell=cell) for _ in range(saved)]
        state.medics = []

    def _placements(self, state: BlocState, f: int) -> list[int]:
        city = state.city
        return sorted((c for c in range(25) if state.occ_owner[c] == f), key=lambda c: city.tile(c).pid)

    def _evict(self, state: BlocState, cell: int) -> str:
        """The district's occupation goes back to its owner's mat: what was evicted, in words ("" for none)."""
        owner = state.occ_owner[cell]
        if owner < 0:
            return ""
        kind = state.occ_kind[cell]
        state.mats[owner].append(kind)
        state.occ_owner[cell], state.occ_kind[cell] = -1, ""
        return f"the {_text(owner)}' {OCCUPATION_NAMES[kind]}"

    # --- District Liberation ----------------------------------------------------------------------------------
    def _liberation_window(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        self._open_window(state, "liberation", events, rng)

    def _liberate(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        """One snapshot of the districts that qualify, then each liberated in turn, lowest police ID first."""
        city = state.city
        q = [c for c in city.districts if not state.liberated[c] and city.tile(c).liberatable
             and state.occ_owner[c] >= 0
             and sum(state.blocs[c]) + 2 * state.banners.get(str(c), 0) >= 2 * state.difficulty(c)]
        state.liberating = sorted(q, key=lambda c: city.tile(c).pid)
        state.reveal = [0, 0, -1]
        self._liberate_next(state, events, rng)

    def _liberate_next(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        while state.liberating:
            cell = state.liberating.pop(0)
            state.shops[cell] = []
            state.liberated[cell] = True
            card = state.under[cell]
            pol.raise_morale(state, -1)
            events.append(Event("liberation", None, f"✊ {self._where(state, cell)} is liberated! Manifestation: "
                                f"{MANIFESTATION_NAMES[card]} (level {state.difficulty(cell)}); police morale falls "
                                f"to {pol.MORALE[state.morale - 1]}.", {"card": card}))
            holders = [f for f in state.night_order() if state.blocs[cell][f] and "communique" in state.hands[f]]
            if holders:
                state.pending += [Pending("communique", f, cell=cell) for f in holders]
                return
            self._resolve_liberation(state, cell, False, events, rng, carry_on=False)
            if state.pending:
                return  # the card's choices first; then the next district
        if self._pooled_reveal(state, events):
            return
        self._next_night(state, events, rng)

    def _resolve_liberation(self, state: BlocState, cell: int, communique: bool, events: list[Event], rng: Rng,
                            carry_on: bool = True) -> None:
        card, state.under[cell] = state.under[cell], ""
        level = min(5, state.difficulty(cell) + (1 if communique else 0))
        liberators = [f for f in state.night_order() if state.blocs[cell][f]]
        for line in self._manifest(state, card, cell, level, liberators, state.reveal, rng):
            events.append(Event("manifestation", None, line))
        if carry_on and not state.pending:
            self._liberate_next(state, events, rng)

    def _pooled_reveal(self, state: BlocState, events: list[Event]) -> bool:
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

    def _manifest(self, state: BlocState, card: str, cell: int, level: int, liberators: list[int],
                  reveal: list[int], rng: Rng) -> list[str]:
        """A manifestation card's effect at ``level`` (L1–L5), with its default choices (cards part C3)."""
        city = state.city
        lv = max(1, min(5, level)) - 1

        names = ", ".join(_text(f) for f in liberators)
        if card == "mass_looting":
            n = (1, 1, 2, 2, 3)[lv]
            for f in liberators:
                self._draw_loot(state, f, n, rng)
            return [f"{names} each draw {n} loot card{'s' if n > 1 else ''}."]
        if card == "crowd_swells":
            n = (1, 1, 2, 2, 3)[lv]
            for f in liberators:
                state.blocs[cell][f] += min(n, state.on_mat(f))
            return [f"{names} each form up to {blocs(n)} in {cell_name(cell)}."]
        if card == "barricade_fever":
            n = (1, 1, 2, 3, 4)[lv]
            builders = [f for f in liberators if self._walls(state, f)]  # those with room for a barricade
            for f in builders:
                state.pending.append(Pending("fever", f, cell=cell, hits=n))
            if not builders:
                return ["Barricade Fever: no room for a barricade around the liberators' districts."]
            each = "each " if len(builders) > 1 else ""
            return [f"{', '.join(_text(f) for f in builders)} may {each}build up to {n} "
                    f"barricade{'s' if n > 1 else ''} around districts where they have blocs."]
        if card == "free_transit":
            n = (1, 1, 1, 2, 2)[lv]
            for f in liberators:
                state.free_moves[f] += n
            return [f"{names} each get {n} free movement{'s' if n > 1 else ''} next turn."]
        if card == "momentum":
            n = (1, 1, 1, 1, 2)[lv]
            for f in liberators:
                state.momentum[f] += n
            return [f"{names} each roll {n} more action di{'ce' if n > 1 else 'e'} next turn."]
        if card == "squatting_wave":
            builders = [f for f in liberators if self._squats(state, f, cell, lv + 1)]  # those who can build
            for f in builders:
                state.pending.append(Pending("squat", f, cell=cell, hits=lv + 1))
            if not builders:
                return [f"Squatting Wave: no liberator can build an occupation next to {cell_name(cell)}."]
            each = "each " if len(builders) > 1 else ""
            return [f"{', '.join(_text(f) for f in builders)} may {each}build an occupation next to "
                    f"{cell_name(cell)}, free."]
        if card == "police_rout":
            n = min((1, 1, 2, 3, 4)[lv], sum(state.cops[c] for c in self._near(state, cell)))  # as many as there are
            if n:
                state.pending.append(Pending("rout", liberators[0], cell=cell, hits=n))
                return [f"Police Rout: {n} cop{'s' if n > 1 else ''} from {cell_name(cell)} and around "
                        f"go{'' if n > 1 else 'es'} to staging."]
            return [f"Police Rout: no cop in or around {cell_name(cell)}."]
        if card == "tactical_collapse":
            area = self._near(state, cell) if lv < 3 else list(city.districts)
            gone = [c for c in area if state.cops[c] == 1 and state.vans[c] < 0]
            for c in gone:
                state.cops[c] = 0
            return [f"{len(gone)} solo cop{'s' if len(gone) != 1 else ''} collapse back to staging."]
        if card == "riot_van_burns":
            vans = self._vans_in_range(state, cell, lv + 1)
            if not vans:
                return ["Riot Van Burns: no van in range."]
            if len(vans) > 1:
                state.pending.append(Pending("burn", liberators[0], cell=cell, hits=lv + 1))
                return ["Riot Van Burns: a van in range burns."]
            return [self._burn_van(state, vans[0], lv + 1)]
        if card in ("leaked_patrol_routes", "whistleblower"):
            n = (1, 1, 2, 3, 4)[lv]
            reveal[0] += n
            if card == "whistleblower":
                reveal[1] += (1, 1, 1, 1, 2)[lv]
            if reveal[2] < 0 or state.night_order().index(liberators[0]) < state.night_order().index(reveal[2]):
                reveal[2] = liberators[0]  # the earliest liberating faction of the pooled cards chooses
            return [f"{n} police ops card{'s' if n > 1 else ''} to reveal after the liberations."]
        if card == "police_demoralized":
            n = (0, 0, 1, 1, 2)[lv]
            pol.raise_morale(state, -n)
            return [f"Police morale falls {n} more step{'s' if n != 1 else ''}: {pol.MORALE[state.morale - 1]}."]
        if lv < 3:
            for f in liberators:
                self._draw_loot(state, f, 1, rng)
            return [f"General Strike: {names} each draw a loot card."]
        if state.countdown < 8:
            state.countdown += 1
            return ["General Strike: one more night before the military arrives."]
        for f in liberators:
            self._draw_loot(state, f, 2, rng)
        return [f"General Strike: {names} each draw 2 loot cards."]

    # --- manifestation choices (cards part C3) -------------------------------------------------------------------
    def _near(self, state: BlocState, cell: int) -> list[int]:
        city = state.city
        return [cell, *sorted(city.adjacent[cell], key=lambda c: city.tile(c).pid)]

    def _walls(self, state: BlocState, f: int) -> list[str]:
        """Connections with room around districts where ``f`` has blocs (Barricade Fever; clashes allowed)."""
        if sum(state.barricades.values()) >= BARRICADES:
            return []
        city = state.city
        return sorted({c.id for cell in city.districts if state.blocs[cell][f] for c in city.touching[cell]
                       if state.barricades.get(c.id, 0) < MAX_BARRICADES})

    def _fever_default(self, state: BlocState, p: Pending) -> str:
        city = state.city
        room = [c for c in city.touching[p.cell] if state.barricades.get(c.id, 0) < MAX_BARRICADES]
        if not room or sum(state.barricades.values()) >= BARRICADES:
            return "pass"
        return "wall " + min(room, key=lambda c: (state.barricades.get(c.id, 0), c.id)).id

    def _squats(self, state: BlocState, f: int, cell: int, level: int) -> list[Move]:
        city = state.city
        types = {FACTIONS[f]} | ({"Public"} if level >= 4 else set()) | ({STATE} if level >= 5 else set())
        return [Move("squat", cell=c, occ=o) for c in sorted(city.adjacent[cell])
                if city.tile(c).circle and state.occ_owner[c] < 0 and not state.police(c)
                and city.tile(c).type in types for o in sorted(set(state.mats[f]))]

    def _vans_in_range(self, state: BlocState, cell: int, level: int) -> list[int]:
        city = state.city
        area = self._near(state, cell) if level < 5 else [cell, *sorted(city.districts, key=lambda c: city.tile(c).pid)]
        return [c for c in dict.fromkeys(area) if state.vans[c] >= 0]

    def _burn_van(self, state: BlocState, van: int, level: int) -> str:
        state.vans[van] = -1
        if level >= 4 or state.options.get("scenario") == "abolish":
            state.vans_box += 1
            state.vans_destroyed += 1
            return f"The van in {cell_name(van)} burns: destroyed."
        return f"The van in {cell_name(van)} is sent back to staging."

    def _manifest_answer(self, state: BlocState, p: Pending, move: Move, events: list[Event], rng: Rng) -> None:
        f = p.faction
        if p.kind == "fever" and move.kind == "wall":
            state.barricades[move.conn] = state.barricades.get(move.conn, 0) + 1
            self._say(events, state, "manifestation", f"{_text(f)} barricade {move.conn} (Barricade Fever).", f)
            p.hits -= 1
            if p.hits > 0 and self._walls(state, f):
                state.pending.insert(0, p)
        elif p.kind == "squat" and move.kind == "squat":
            state.mats[f].remove(move.occ)
            state.occ_owner[move.cell], state.occ_kind[move.cell] = f, move.occ
            self._say(events, state, "manifestation", f"{_text(f)} build {OCCUPATION_NAMES[move.occ]} in "
                      f"{self._where(state, move.cell)} (Squatting Wave).", f)
        elif p.kind == "rout":
            state.cops[move.cell] -= 1
            self._say(events, state, "manifestation", f"A cop leaves {cell_name(move.cell)} (Police Rout).", f)
            p.hits -= 1
            if p.hits > 0 and any(state.cops[c] for c in self._near(state, p.cell)):
                state.pending.insert(0, p)
        elif p.kind == "burn":
            self._say(events, state, "manifestation", self._burn_van(state, move.cell, p.hits), f)
        elif p.kind == "reveal":
            if move.kind == "drop":
                card = p.cards.pop(move.n - 1)
                state.police_discard.append(card)
                self._say(events, state, "reveal", f"{_text(f)} discard {pol.CARDS[card].name} unresolved.", f)
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
                self._next_night(state, events, rng)
            else:
                self._liberate_next(state, events, rng)


    def _next_night(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        city = state.city
        for f in state.order:
            if state.in_city(f) == 0:
                self._finish(state, events, "loss", f"The {_text(f)} have no bloc left in the city: the "
                             "insurrection implodes.")
                return
        states = [c for c in city.districts if city.tile(c).type == STATE]
        if all(state.occ_owner[c] >= 0 for c in states):
            self._finish(state, events, "win", "Every State district holds an occupation: the insurrection "
                         "succeeds!")
            return
        if state.countdown <= 1:
            self._finish(state, events, "loss", "Time runs out: the military arrives.")
            return
        state.countdown -= 1
        state.night += 1
        state.first = (state.first + 1) % len(state.order)
        state.turn = 0
        state.attacked = {}
        state.phase = "sunset"
        events.append(Event("night", None, f"🌙 Night {state.night} ({state.countdown} left): "
                            f"{_text(state.faction_now())} go first."))
        self._begin_turn(state, events, rng)

    def _finish(self, state: BlocState, events: list[Event], outcome: str, reason: str) -> None:
        state.outcome, state.reason, state.phase = outcome, reason, "over"
        events.append(Event("end", None, reason))

    def result(self, state: BlocState) -> Result | None:
        if not state.outcome:
            return None
        seats = max(state.controller) + 1
        won = state.outcome == "win"
        return Result(scores=tuple(1.0 if won else 0.0 for _ in range(seats)), ranks=tuple(1 for _ in range(seats)),
                      winners=frozenset(range(seats)) if won else frozenset(), reason=state.reason, cooperative=True)

    # --- notation ------------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        return parse(text)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def public_notation(self, notation: str) -> str:
        """Gifts and trades say how many cards, never which: ``give S (1 card)``, ``accept 3 (2 cards)``."""
        try:
            move = self.parse_move(notation)
        except NotationError:
            return notation
        if move.kind not in ("give", "offer") and not (move.kind == "accept" and move.n):
            return notation
        n = len(move.extra)
        cards = f"({n} card{'s' if n != 1 else ''})"
        if move.kind == "accept":
            return f"accept {move.n} {cards}"
        words = [move.kind, LETTERS[move.to], cards, *(["for", str(move.n)] if move.kind == "offer" else [])]
        return " ".join(words + ([f"from {LETTERS[move.frm]}"] if move.frm >= 0 else []))

    def describe_move(self, state: BlocState, seat: int, move: Move) -> str:
        if move.kind == "order" and state.pending and state.pending[0].kind == "scan":
            seen = state.pending[0].cards
            return "Top first: " + ", then ".join(pol.CARDS[seen[int(i) - 1]].name for i in move.extra)
        where = self._where(state, move.cell) if move.cell >= 0 else ""
        return describe(move, where)

    def previewed(self, state: BlocState, seat: int, move: Move) -> bool:
        return False

    def menu_groups(self, state: BlocState, seat: int, move: Move) -> tuple[str, ...]:
        """Action, then district (and for a move its destination): each level a short list."""
        k = move.kind
        if k == "move":
            return ("Move blocs", f"from {self._where(state, move.cell)}", f"to {self._where(state, move.to)}")
        if k == "barricade":
            return ("Barricade", f"on {move.conn}")
        if k == "loot":
            return ("Loot", f"in {self._where(state, move.cell)}")
        if k in ("build", "swap"):
            return (f"{k.title()} an occupation", f"in {self._where(state, move.cell)}")
        if k in ATTACKS:
            return ("Attack", f"in {self._where(state, move.cell)}")
        if k in ("bicycles", "clothes"):
            return (f"Play {LOOT_NAMES[k]}", f"from {self._where(state, move.cell)}")
        if k in ("dumpster", "fireworks", "energy", "megaphone"):
            return (f"Play {LOOT_NAMES[k]}",)
        if k in ("hall", "hacker", "workshop", "garden"):
            return ("Occupation abilities",)
        if k in ("give", "offer"):
            giver = move.frm if move.frm >= 0 else state.faction_now()
            what = "Give a loot card" if k == "give" else "Offer a trade"
            pair = f"{_text(giver)} → {_text(move.to)}"
            if k == "give":
                return (what, pair)
            return (what, pair, "give " + " and ".join(LOOT_NAMES[c] for c in move.extra))
        if (k == "decline" or (k == "accept" and move.n)) and seat == state.controller[state.faction_now()]:
            return (f"Answer trade offer #{move.n}",)  # in the turn's menu; alone, the answers are buttons
        return ()

    def why_illegal(self, state: BlocState, seat: int, move: Move) -> str:
        if move.kind in EXCHANGES or (move.kind == "accept" and move.n):
            return self._why_no_exchange(state, seat, move)
        if state.pending:
            return "First answer the decision that is open (see the menu or `/move` autocomplete)."
        if move.die and move.die not in state.dice:
            return f"You have no die showing {move.die} (dice: {' '.join(map(str, state.dice)) or 'none'})."
        if (move.kind in ADVANCED + ATTACKS and move.die and move.cell >= 0 and not move.crowbar
                and move.die < state.difficulty(move.cell)):
            return f"That needs a die of at least {state.difficulty(move.cell)} in {cell_name(move.cell)}."
        card = next((c for c in (move.kind, *move.extra) if c in LOOT_NAMES and c not in state.hands[
            state.faction_now()]), None)
        if card:
            return f"You have no {LOOT_NAMES[card]} card."
        return "That move is not allowed now (see the menu or `/move` autocomplete for legal moves)."

    def _why_no_exchange(self, state: BlocState, seat: int, move: Move) -> str:
        if not self._exchanging(state):
            return ("Loot cards change hands only during a faction's actions (its step 2), while no other decision "
                    "is open.")
        f = state.faction_now()
        if move.kind in ("accept", "decline"):
            o = next((o for o in state.offers if o.id == move.n), None)
            if o is None:
                return f"There is no open trade offer #{move.n}."
            if state.controller[o.to] != seat:
                return f"Offer #{o.id} was made to the {_text(o.to)}, not to you."
            if o.to not in self._partners(state, o.frm):
                return f"The {_text(o.frm)} and the {_text(o.to)} no longer share a district: decline offer #{o.id}."
            if len(move.extra) != o.want:
                return f"Offer #{o.id} asks for {o.want} card{'s' if o.want != 1 else ''}: name that many of yours."
            return f"The {_text(o.to)} do not hold {' and '.join(LOOT_NAMES[c] for c in move.extra)}."
        giver = move.frm if move.frm >= 0 else f
        if f not in (giver, move.to) or giver == move.to:
            return f"Exchanges are made with the {_text(f)}, whose turn it is."
        if state.controller[giver] != seat:
            return f"You do not play the {_text(giver)}."
        if move.to not in self._partners(state, giver):
            return f"The {_text(giver)} and the {_text(move.to)} share no district."
        if move.kind == "offer" and state.controller[move.to] == seat:
            return "Both factions are yours: give the cards instead."
        if not _holds(state.hands[giver], move.extra):
            return f"The {_text(giver)} do not hold {' and '.join(LOOT_NAMES[c] for c in move.extra)}."
        if move.kind == "offer" and not 1 <= move.n <= len(state.hands[move.to]):
            return f"The {_text(move.to)} hold {len(state.hands[move.to])} cards: ask for 1 to that many."
        return "That exchange is not allowed now."

    # --- views ---------------------------------------------------------------------------------------------
    def view(self, state: BlocState, seat: int | None) -> BlocView:
        city = state.city
        cells: list[CellView] = []
        for cell in range(25):
            tile = city.tile(cell)
            conns = [c.id for c in city.touching[cell]]
            cells.append({
                "cell": cell_name(cell), "tile": tile.key, "name": tile.name, "type": tile.type,
                "pid": tile.pid, "rotation": state.rotations[cell], "difficulty": state.difficulty(cell)
                if not tile.highway else 0, "liberated": state.liberated[cell], "shops": list(state.shops[cell]),
                "metro": tile.metro, "circle": tile.circle, "blocs": list(state.blocs[cell]),
                "occupation": ({"faction": state.occ_owner[cell], "kind": state.occ_kind[cell]}
                               if state.occ_owner[cell] >= 0 else None),
                "cops": state.cops[cell], "van": state.vans[cell], "connections": conns,
            })
        mine = {f for f in range(4) if seat is not None and state.controller[f] == seat}
        factions: list[FactionView] = []
        for f in range(4):
            factions.append({
                "faction": f, "name": FACTIONS[f], "seat": state.controller[f], "in_play": f in state.order,
                "blocs_city": state.in_city(f), "blocs_mat": state.on_mat(f) if f in state.order else 0,
                "occupations_mat": list(state.mats[f]), "loot": len(state.hands[f]),
                "hand": [LOOT_NAMES[c] for c in state.hands[f]] if f in mine else [],
            })
        acting = -1 if state.outcome else self.acting_faction(state)
        return {
            "game": self.key, "viewer": seat, "phase": state.phase, "ply": state.ply, "night": state.night,
            "countdown": state.countdown, "morale": state.morale, "morale_name": pol.MORALE[state.morale - 1],
            "draws": pol.DRAWS[state.morale - 1], "cells": cells,
            "connections": [{"id": c.id, "a": cell_name(c.a), "b": cell_name(c.b),
                             "highway": cell_name(c.highway) if c.highway is not None else "",
                             "barricades": state.barricades.get(c.id, 0)} for c in city.connections],
            "factions": factions, "order": state.night_order(), "acting": acting,
            "to_act": sorted(self.to_act(state)), "dice": list(state.dice),
            "pending": state.pending[0].kind if state.pending else "",
            "prompt": self.decisions(state)[0].prompt if not state.outcome else state.reason,
            "staging_cops": pol.staging_cops(state), "staging_vans": pol.staging_vans(state),
            "vans_destroyed": state.vans_destroyed, "barricades_left": BARRICADES - sum(state.barricades.values()),
            "police_deck": len(state.police_deck), "police_discard": [pol.CARDS[c].name for c in
                                                                       state.police_discard[-3:]],
            "last_police": [pol.CARDS[c].name for c in state.last_police],
            "lockdown": state.lockdown, "loot_deck": len(state.loot_deck),
            "offers": [{"id": o.id, "by": o.frm, "to": o.to, "cards": len(o.cards), "want": o.want,
                        "names": [LOOT_NAMES[c] for c in o.cards] if mine & {o.frm, o.to} else []}
                       for o in state.offers],
            "difficulty": state.options["difficulty"] if not state.options["beginner"] else "easy",
            "result": r.to_json() if (r := self.result(state)) else None,
        }

    def seat_count(self, state: BlocState) -> int:
        return max(state.controller) + 1

    def private_info(self, state: BlocState, seat: int) -> dict[str, Any]:
        """Only the seat's own loot hands and the trade offers it takes part in: a DM when they change, not each
        time the city does."""
        mine = {f for f in state.order if state.controller[f] == seat}
        out: dict[str, Any] = {FACTIONS[f]: list(state.hands[f]) for f in sorted(mine)}
        offers = [[o.id, o.frm, o.to, o.cards, o.want] for o in state.offers if mine & {o.frm, o.to}]
        if offers:
            out["offers"] = offers
        return out

    def turn_of(self, state: BlocState) -> object:
        """A faction's turn (two players run two factions each: the next one may be the same player's)."""
        return (state.night, state.phase, state.turn) if state.phase == "sunset" else None

    def status_line(self, state: BlocState) -> str:
        if state.outcome:
            return state.reason
        f = self.acting_faction(state)
        head = f"Night {state.night}, {state.countdown} left · morale {pol.MORALE[state.morale - 1]} · "
        if state.pending and state.pending[0].kind == "start":
            return head + "the factions place their Starts"
        owes = "to choose" if self.decisions(state)[0].clock == "decision" else "to act"  # (outside its turn)
        return head + f"{_text(f)} ({{p{state.controller[f]}}}) {owes}"

    def alt_text(self, view: BlocView, names: Sequence[str]) -> str:
        occupied = sum(1 for c in view["cells"] if c["occupation"])
        states = [c for c in view["cells"] if c["type"] == STATE]
        held = sum(1 for c in states if c["occupation"])
        return (f"Bloc by Bloc, night {view['night']} ({view['countdown']} left), police morale "
                f"{view['morale_name']}. {held} of {len(states)} State districts occupied, {occupied} occupations "
                f"in all, {sum(c['cops'] for c in view['cells'])} cops and "
                f"{sum(1 for c in view['cells'] if c['van'] >= 0)} vans in the city.")

    # --- persistence, search --------------------------------------------------------------------------------
    def dump(self, state: BlocState) -> dict[str, Any]:
        """Stored Bloc by Bloc games have no ``game`` key (the kit's default writes one): this keeps their format."""
        return dump_state(state, format=FORMAT_VERSION)

    def load(self, data: Mapping[str, Any]) -> BlocState:
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown Bloc by Bloc state format {data.get('format')!r}")
        return load_state(BlocState, data)

    @staticmethod
    def _known_cards(state: BlocState, mine: set[int]) -> list[list[str]]:
        """By faction, the cards in other factions' hands that the seat playing ``mine`` knows of: those offered to
        it in a trade, a crowbar declared with an advanced action that waits on a stop, a Communiqué or Lookouts
        its holder is being asked to play."""
        known: list[list[str]] = [[], [], [], []]
        for o in state.offers:
            if o.to in mine and o.frm not in mine:
                known[o.frm] += o.cards
        for p in state.pending:
            if p.kind == "stop" and "crowbar" in p.action.split():
                known[state.faction_now()].append("crowbar")
            elif p.kind in ("communique", "lookout"):
                known[p.faction].append("communique" if p.kind == "communique" else "lookouts")
        for f in mine:
            known[f] = []
        for f in range(4):  # never more than the hand holds (several asks may name the same card)
            hand = list(state.hands[f])
            kept = []
            for card in known[f]:
                if card in hand:
                    hand.remove(card)
                    kept.append(card)
            known[f] = kept
        return known

    def determinize(self, state: BlocState, seat: int, rng: Rng) -> BlocState:
        """Other factions' hands, the loot and police decks' order and the unseen manifestation cards are
        redrawn; the seat's own hands and everything public stay."""
        out = state.clone()
        mine = {f for f in range(4) if state.controller[f] == seat}
        # cards another faction alone is looking at: drawn to keep some (loot), seen with a Police Scanner (police)
        drawn = [p for p in out.pending if p.faction not in mine and p.kind == "keep"]
        scanned = [p for p in out.pending if p.faction not in mine and p.kind == "scan" and p.action != "reveal"]
        unseen = sorted(list(out.loot_deck) + [c for f in range(4) if f not in mine for c in out.hands[f]]
                        + [c for p in drawn for c in p.cards])
        known = self._known_cards(out, mine)
        for f in range(4):
            for card in known[f]:
                unseen.remove(card)
        rng.shuffle(unseen)  # from a canonical order: the result depends on what the seat sees only
        for f in range(4):
            if f not in mine:
                k = len(out.hands[f]) - len(known[f])
                out.hands[f], unseen = known[f] + unseen[:k], unseen[k:]
        for p in drawn:
            p.cards, unseen = unseen[:len(p.cards)], unseen[len(p.cards):]
        out.loot_deck = unseen
        for o in out.offers:  # offers between others: their cards are drawn from the offering hand as dealt
            if not mine & {o.frm, o.to}:
                hand = sorted(out.hands[o.frm])
                rng.shuffle(hand)
                o.cards = sorted(hand[:len(o.cards)])
        out.police_deck = sorted(out.police_deck + [c for p in scanned for c in p.cards])
        rng.shuffle(out.police_deck)
        for p in scanned:
            p.cards = [out.police_deck.pop() for _ in p.cards]
        hidden = [c for c in range(25) if out.under[c]]
        cards = sorted([out.under[c] for c in hidden] + list(out.spare))
        rng.shuffle(cards)
        for i, c in enumerate(hidden):
            out.under[c] = cards[i]
        out.spare = cards[len(hidden):]
        self.reseed(out, rng)
        return out

