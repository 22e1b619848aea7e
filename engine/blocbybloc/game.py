"""Bloc by Bloc for 2–4 players (2 players run two factions each): fully cooperative, or (``mode=semi``, 3–4
players) semi-cooperative, each faction holding a secret agenda card (:mod:`engine.blocbybloc.agendas`) that may let
it win alone; either on one of the ten scenarios (``scenario=``, :mod:`engine.blocbybloc.scenarios`).

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
hears how many cards moved, never which. An agenda is in its holder's view and private info only, until the game
ends (then in every view, with the winners); a search's determinization redraws the other factions' agendas.

This class is the game's contract: what is asked of whom, the legal moves, notation, views, persistence and what
each seat may know. The rules it calls are plain functions over the state, one module per part of them:
:mod:`~engine.blocbybloc.setup`, :mod:`~engine.blocbybloc.actions` (what a faction may do in its turn),
:mod:`~engine.blocbybloc.turn` (doing it), :mod:`~engine.blocbybloc.exchanges`, :mod:`~engine.blocbybloc.pending`
(the other decisions and their answers), :mod:`~engine.blocbybloc.night`, :mod:`~engine.blocbybloc.sunrise`,
:mod:`~engine.blocbybloc.manifestations` and :mod:`~engine.blocbybloc.police`; :mod:`~engine.blocbybloc.common`
holds what they share. Its words for players (move labels, menu groups, the status line) are
:mod:`~engine.blocbybloc.text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from engine.base import Decision, Event, Game, NotationError, OptionError, OptionSpec, Result, Turns
from engine.blocbybloc import police as pol
from engine.blocbybloc.actions import district_actions, faction_actions
from engine.blocbybloc.agendas import AGENDAS, deck_of, redraw
from engine.blocbybloc.city import City, cell_name
from engine.blocbybloc.exchanges import (
    ALL_OFFERS,
    EXCHANGES,
    MENU_OFFERS,
    NO_OFFERS,
    exchange,
    exchange_decisions,
    exchanging,
    lapse,
    offer_legal,
    side_moves,
    why_no_exchange,
)
from engine.blocbybloc.last import mover_faction, record, touched, view_of
from engine.blocbybloc.model import BARRICADES, BLOCS, FACTIONS, LETTERS, LOOT_NAMES, BlocState, Pending
from engine.blocbybloc.moves import ADVANCED, ATTACKS, Move, format_move, parse
from engine.blocbybloc.night import semi
from engine.blocbybloc.pending import (
    answer,
    one_holder,
    open_now,
    pending_decision,
    pending_moves,
    pending_of,
    turn_decision,
    turn_key,
)
from engine.blocbybloc.scenarios import COOP, MODES, NONE, SCENARIOS, SEMI, goal_words, progress, scenario, why_not
from engine.blocbybloc.setup import new_state
from engine.blocbybloc.turn import act
from engine.blocbybloc.view import AgendaView, BlocView, CellView, FactionView, ScenarioView
from engine.rng import Rng
from engine.state import dump_state, load_state

FORMAT_VERSION = 1
DIFFICULTIES = ("easy", "medium", "hard")


_CellParts = tuple[str, str, str, str, int, bool, bool, bool, int, tuple[str, ...]]
_ConnectionParts = tuple[str, str, str, str]
_city_parts: dict[int, tuple[City, list[_CellParts], list[_ConnectionParts]]] = {}
CITY_PARTS = 64  # the cities whose fixed parts of a view are kept (one per table being viewed; ~7 KB each)
_CELL_NAMES = tuple(cell_name(cell) for cell in range(25))  # (one string each, shared by every city's parts)


def city_parts(city: City) -> tuple[list[_CellParts], list[_ConnectionParts]]:
    """What a view says of ``city`` that its moves never change, made once per city: by cell its name, tile key,
    tile name, type, police ID, highway, metro and circle, repressed difficulty and connections; each connection's
    id, ends and highway in words."""
    kept = _city_parts.get(id(city))
    if kept is not None and kept[0] is city:  # (the city itself is kept with its parts: its id is not reused)
        return kept[1], kept[2]
    cells: list[_CellParts] = []
    for cell in range(25):
        tile = city.tile(cell)
        cells.append((_CELL_NAMES[cell], tile.key, tile.name, tile.type, tile.pid, tile.highway, tile.metro,
                      tile.circle, tile.difficulty, tuple(c.id for c in city.touching[cell])))
    conns = [(c.id, _CELL_NAMES[c.a], _CELL_NAMES[c.b], _CELL_NAMES[c.highway] if c.highway is not None else "")
             for c in city.connections]
    while len(_city_parts) >= CITY_PARTS:  # the oldest out (another thread may be at it too)
        try:
            _city_parts.pop(next(iter(_city_parts)), None)
        except (StopIteration, RuntimeError):
            break
    _city_parts[id(city)] = (city, cells, conns)
    return cells, conns


def scenario_view(state: BlocState) -> ScenarioView | None:
    s = scenario(state)
    if s is None:
        return None
    done, needed = progress(state)
    return {"key": s.key, "name": s.name, "goal": s.goal, "progress": goal_words(state), "done": done,
            "needed": needed}


def agenda_views(state: BlocState, factions: Iterable[int]) -> list[AgendaView]:
    """The agenda cards of ``factions`` (those that hold one), as views show them."""
    out: list[AgendaView] = []
    for f in factions:
        if state.agendas[f]:
            card = AGENDAS[state.agendas[f]]
            out.append({"faction": f, "number": card.number, "name": card.name,
                        "options": [{"kind": o.kind, "text": o.text, "name": o.name} for o in card.options]})
    return out


class BlocByBloc(Game[BlocState, Move, BlocView]):
    key = "blocbybloc"
    name = "Bloc by Bloc"
    min_players = 2
    max_players = 4
    turns = Turns.SEQUENTIAL
    hidden_information = True  # loot hands, the decks, the manifestation cards, the agendas
    cooperative = True
    options = (
        OptionSpec("difficulty", str, "hard", "Police ops deck: easy, medium or hard (Paramilitary Operations)",
                   DIFFICULTIES),
        OptionSpec("city", str, "random", "The beginner city or a random one", ("random", "beginner")),
        OptionSpec("beginner", bool, False, "Beginner game: countdown 6 (8 with 3 players), Easy"),
        OptionSpec("overpass", bool, False, "Use the Highway Overpass instead of Highway 3 (random city)"),
        OptionSpec("mode", str, COOP, "coop: all win or lose together; semi: each faction also holds a secret agenda "
                   "(3–4 players)", MODES),
        OptionSpec("scenario", str, NONE, "One of the ten scenarios, with its own setup and goal (random city)",
                   (NONE, *SCENARIOS)),
    )

    def __init__(self) -> None:
        super().__init__()
        from engine.blocbybloc.text import BlocByBlocText  # (here: the words import the rules)

        self.text = BlocByBlocText(self)

    # --- setup ------------------------------------------------------------------------------------------
    def resolve_options(self, given: Mapping[str, Any] | None = None, seats: int | None = None) -> dict[str, Any]:
        """A scenario played in one mode only gets that mode unless ``mode`` is given; then options that can't make
        a game (for ``seats`` players, when known) are refused, saying why."""
        opts = super().resolve_options(given, seats)
        s = SCENARIOS.get(opts["scenario"])
        if s is not None and len(s.modes) == 1 and "mode" not in (given or {}):
            opts["mode"] = s.modes[0]
        why = why_not(opts["scenario"], opts["mode"], seats, city=opts["city"], beginner=opts["beginner"],
                      overpass=opts["overpass"])
        if why:
            raise OptionError(why)
        return opts

    def plays_together(self, options: Mapping[str, Any]) -> bool:
        return options.get("mode", COOP) != SEMI

    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> BlocState:
        self.check_seats(seats)
        return new_state(seats, self.resolve_options(options, seats), seed)

    # --- the contract -----------------------------------------------------------------------------------
    def decisions(self, state: BlocState) -> tuple[Decision, ...]:
        if state.outcome:
            return ()
        if state.pending:  # the first open; Start placements and repression splits all at once (alongside it)
            return tuple(pending_decision(state, p, alongside=i > 0)
                         for i, p in enumerate(open_now(state)))
        main = turn_decision(state)
        if not exchanging(state):
            return (main,)
        return (main, *exchange_decisions(state, main.seat))

    def to_act(self, state: BlocState) -> frozenset[int]:
        if state.outcome:
            return frozenset()
        if state.pending:
            return frozenset(state.controller[p.faction] for p in open_now(state))
        f = state.faction_now()
        return frozenset((state.controller[f], *(state.controller[o.to] for o in state.offers if o.frm == f)))

    def pending_of(self, state: BlocState, seat: int) -> Pending | None:
        """The pending decision ``seat`` owes now, if any (what ``decisions`` asks of it, with its details)."""
        return pending_of(state, seat)

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
            p = pending_of(state, seat)
            return pending_moves(state, p) if p is not None else []
        if seat != state.controller[state.faction_now()]:
            return side_moves(state, seat, offers)
        return faction_actions(state, state.faction_now(), offers)

    def menu_moves(self, state: BlocState, seat: int) -> list[Move]:
        """Every legal move but the trade offers of several cards, which are typed (`offer S medic banner for 2`):
        with a big hand they run to thousands."""
        return self._moves(state, seat, MENU_OFFERS)

    def sample_move(self, state: BlocState, seat: int, rng: Rng) -> Move:
        """A random move among the menu's (every legal move but the trade offers of several cards): those number
        2^n for a hand of n cards (no hand limit: a looter's 20 cards made 1.2 million), so drawing among all legal
        moves would list them all, for a draw that is almost surely such an offer."""
        moves = self._moves(state, seat, MENU_OFFERS)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move")
        return moves[rng.below(len(moves))]

    def district_actions(self, state: BlocState, f: int, cell: int) -> list[Move]:
        """Faction ``f``'s actions on the district ``cell`` itself, part of ``legal_moves``: bots use it to see what
        blocs sent to a district could do there, without listing every move."""
        return district_actions(state, f, cell)

    def search_moves(self, state: BlocState, seat: int) -> list[Move]:
        """Bots make no exchanges of their own: an offer or a gift changes nothing their heuristics value, so they
        would offer for ever and give at random. Offered a trade, they accept it (the table is on one side)."""
        moves = self._moves(state, seat, NO_OFFERS)
        kept = [m for m in moves if m.kind != "give" and m.kind != "decline"]
        if any(m.kind == "decline" for m in moves) and not any(m.kind == "accept" and m.n for m in kept):
            kept += [m for m in moves if m.kind == "decline"]  # nothing to give back: decline
        return kept or moves

    def is_legal(self, state: BlocState, seat: int, move: Move) -> bool:
        if move.kind == "offer":
            return offer_legal(state, seat, move)
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
        f = mover_faction(state, seat, move)
        cells, turn, first, run = touched(state, seat, f, move), turn_key(state), len(events), state.run
        asked = pending_of(state, seat) if state.pending else None
        declined = asked is not None and one_holder(asked) and move.kind in ("pass", "accept")
        if move.kind in EXCHANGES or (move.kind == "accept" and move.n):
            exchange(state, move, events)
        elif state.pending:
            answer(state, seat, move, events, rng)
        else:
            act(state, state.faction_now(), move, events, rng)
        if state.offers:
            lapse(state, events)
        record(state, f, move, cells, turn, events[first:], run, declined)
        state.rng = rng.state

    def fast_apply(self, state: BlocState, seat: int, move: Move) -> None:
        """As :meth:`perform` with its events kept: the state's last action (``record``) is made from them, so a
        simulation's state is the same as :meth:`apply`'s."""
        self.perform(state, seat, move, [])

    def result(self, state: BlocState) -> Result | None:
        """Fully cooperative: every seat wins, or none. Semi-cooperative: the seats of the winning factions rank
        first (1.0) and beat the others (0.0); when nobody won, everybody lost together, which reads as a
        cooperative loss (a competitive result needs a winner)."""
        if not state.outcome:
            return None
        seats = self.seat_count(state)
        if semi(state) and state.winners:
            won = frozenset(state.controller[f] for f in state.winners)
            return Result(scores=tuple(1.0 if s in won else 0.0 for s in range(seats)),
                          ranks=tuple(1 if s in won else 2 for s in range(seats)), winners=won, reason=state.reason,
                          cooperative=False)
        win = state.outcome == "win"
        return Result(scores=tuple(1.0 if win else 0.0 for _ in range(seats)), ranks=tuple(1 for _ in range(seats)),
                      winners=frozenset(range(seats)) if win else frozenset(), reason=state.reason, cooperative=True)

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

    def previewed(self, decision: Decision, move: Move) -> bool:
        return False

    def why_illegal(self, state: BlocState, seat: int, move: Move) -> str:
        if move.kind in EXCHANGES or (move.kind == "accept" and move.n):
            return why_no_exchange(state, seat, move)
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

    # --- views ---------------------------------------------------------------------------------------------
    def view(self, state: BlocState, seat: int | None) -> BlocView:
        parts, conn_parts = city_parts(state.city)
        rotations, liberated, shops, blocs = state.rotations, state.liberated, state.shops, state.blocs
        owners, kinds, cops, vans = state.occ_owner, state.occ_kind, state.cops, state.vans
        cells: list[CellView] = [{
            "cell": name, "tile": key, "name": tile_name, "type": type_, "pid": pid, "rotation": rotations[cell],
            "difficulty": 0 if highway else difficulty - (1 if liberated[cell] else 0),  # (state.difficulty's)
            "liberated": liberated[cell], "shops": list(shops[cell]), "metro": metro, "circle": circle,
            "blocs": list(blocs[cell]),
            "occupation": {"faction": owners[cell], "kind": kinds[cell]} if owners[cell] >= 0 else None,
            "cops": cops[cell], "van": vans[cell], "connections": list(conns),
        } for cell, (name, key, tile_name, type_, pid, highway, metro, circle, difficulty, conns) in enumerate(parts)]
        mine = {f for f in range(4) if seat is not None and state.controller[f] == seat}
        in_city = [sum(row[f] for row in blocs) for f in range(4)]  # (state.in_city's, once a faction)
        factions: list[FactionView] = []
        for f in range(4):
            factions.append({
                "faction": f, "name": FACTIONS[f], "seat": state.controller[f], "in_play": f in state.order,
                "blocs_city": in_city[f], "blocs_mat": BLOCS - in_city[f] if f in state.order else 0,
                "occupations_mat": list(state.mats[f]), "loot": len(state.hands[f]),
                "hand": [LOOT_NAMES[c] for c in state.hands[f]] if f in mine else [],
            })
        acting = -1 if state.outcome else self.acting_faction(state)
        to_act = sorted(self.to_act(state))
        prompt = self.decisions(state)[0].prompt if not state.outcome else state.reason
        p = state.pending[0] if state.pending and not state.outcome else None
        if p is not None and one_holder(p) and seat != state.controller[p.faction]:
            # asked of one card's holder (cards.md decision 21): everyone else sees only that the game waits for a
            # reaction, not the question, its choices or whom it asks (a private scan's prompt is the bare card name,
            # played in the open anyway: the renderer tells it from the public reorder of a pooled reveal by it)
            prompt = "Police Scanner" if p.kind == "scan" else ""
            to_act = []
            acting = state.faction_now() if state.phase == "sunset" else -1  # a turn's faction is no secret
        barricades = state.barricades
        out: BlocView = {
            "game": self.key, "viewer": seat, "phase": state.phase, "ply": state.ply, "night": state.night,
            "countdown": state.countdown, "morale": state.morale, "morale_name": pol.MORALE[state.morale - 1],
            "draws": pol.DRAWS[state.morale - 1], "cells": cells,
            "connections": [{"id": cid, "a": a, "b": b, "highway": highway, "barricades": barricades.get(cid, 0)}
                            for cid, a, b, highway in conn_parts],
            "factions": factions, "order": state.night_order(), "acting": acting,
            "to_act": to_act, "dice": list(state.dice),
            "pending": state.pending[0].kind if state.pending else "",
            "prompt": prompt,
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
            "mode": state.options.get("mode", COOP), "scenario": scenario_view(state),
            "agendas": agenda_views(state, range(4) if state.outcome else sorted(mine)),
            "winners": list(state.winners),
        }
        last = view_of(state)
        if last is not None:
            out["last"] = last
        return out

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
        agendas = agenda_views(state, sorted(mine))
        if agendas:  # dealt at setup: DMed then
            out["agendas"] = agendas
        return out

    def turn_of(self, state: BlocState) -> object:
        """A faction's turn (two players run two factions each: the next one may be the same player's)."""
        return (state.night, state.phase, state.turn) if state.phase == "sunset" else None

    # --- persistence, search --------------------------------------------------------------------------------
    def dump(self, state: BlocState) -> dict[str, Any]:
        """Stored Bloc by Bloc games have no ``game`` key (the kit's default writes one): this keeps their format."""
        return dump_state(state, format=FORMAT_VERSION)

    def load(self, data: Mapping[str, Any]) -> BlocState:
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown Bloc by Bloc state format {data.get('format')!r}")
        if "last" not in data:  # stored before the latest move was recorded
            data = {**data, "last": None}
        if "agendas" not in data:  # stored before the semi-cooperative game: fully cooperative, no counts needed
            data = {**data, "agendas": [0, 0, 0, 0], "burned": 0, "vans_destroyed_by": [0, 0, 0, 0]}
        if "winners" not in data:  # stored before winners were recorded: fully cooperative, all or none won
            data = {**data, "winners": list(data["order"]) if data.get("outcome") == "win" else []}
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
        """Other factions' hands and agendas, the loot and police decks' order and the unseen manifestation cards
        are redrawn; the seat's own hands and agenda and everything public stay."""
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
        redraw(out, mine, rng, *deck_of(state))
        hidden = [c for c in range(25) if out.under[c]]
        cards = sorted([out.under[c] for c in hidden] + list(out.spare))
        rng.shuffle(cards)
        for i, c in enumerate(hidden):
            out.under[c] = cards[i]
        out.spare = cards[len(hidden):]
        self.reseed(out, rng)
        return out
