"""Bloc by Bloc, fully cooperative, for 2–4 players (2 players run two factions each).

Rules: ``../shared/rulebooks/bloc-by-bloc.txt`` as decided in ``../shared/rules/bloc-by-bloc/`` (city, play, police,
cards). The city is :mod:`engine.blocbybloc.city`, the police deck and its algorithms :mod:`engine.blocbybloc.police`.
Every step is one pick from the legal moves of the seat that owes a decision: Start placement, each action of a
faction's Sunset turn (the die is part of the move), a stop or allow by the faction with the most blocs where an
advanced action is declared, and the split of losses in a mixed clash at Sunrise. Dice, reaction rolls, the
police ops step, repression, liberation and the end checks run by themselves.

This increment has the whole city, setup, every action and attack with its die rule, stopping, reaction rolls,
the full police ops deck, Sunrise (repression with the chooser's split, liberation, every manifestation card with
its default choice) and every end condition. Loot cards are drawn and held but not yet played, and the
faction-specific occupation abilities are not yet active (Faction Start, Assembly Hall and People's Kitchen are).

Notation (case-insensitive; ``<d>`` is the action die spent, cells like ``C3``, connections ``B3-C3`` or ``C5:SW``)::

    start C2                        place the Faction Start (setup)
    move <d> B3 C4 2                move 2 blocs from B3 to C4
    barricade <d> B3-C3             one barricade on a connection
    loot <d> A3 | loot <d> A3 burn  graffiti a clean shopping centre, or burn a graffitied one
    build <d> C2 kitchen            build an occupation from the mat
    swap <d> C2 hall                swap the occupation there for one from the mat
    defeat <d> D5 | kick <d> D5 C4-D5 | van <d> D5      attacks
    hall <d>                        Assembly Hall: form a bloc there
    end                             end the actions of the turn
    allow | stop                    answer to a declared advanced action
    split C3 W2 S1                  losses by faction in a mixed clash at Sunrise (W S N P)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import Decision, Event, Game, NotationError, OptionSpec, Result, Turns
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import (
    FACTION_TYPES,
    STATE,
    TILES,
    beginner_layout,
    cell_name,
    manifestation_deck,
    parse_cell,
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
    Pending,
    loot_deck,
    occupations_of,
)
from engine.blocbybloc.view import (
    BlocView,
    CellView,
    FactionView,
)
from engine.rng import Rng
from engine.state import dump_state, load_state

FORMAT_VERSION = 1
DIFFICULTIES = ("easy", "medium", "hard")
ADVANCED = ("loot", "build", "swap")
ATTACKS = ("defeat", "kick", "van")
BASIC = ("move", "barricade")


@dataclass(frozen=True)
class Move:
    kind: str  # start move barricade loot build swap defeat kick van hall end allow stop split
    die: int = 0
    cell: int = -1
    to: int = -1
    n: int = 0
    conn: str = ""
    occ: str = ""
    burn: bool = False
    losses: tuple[int, ...] = ()  # split: by faction


END, ALLOW, STOP = Move("end"), Move("allow"), Move("stop")
SPLIT = re.compile(r"^([WSNP])(\d+)$")


def _text(f: int) -> str:
    return FACTIONS[f]


class BlocByBloc(Game[BlocState, Move, BlocView]):
    key = "blocbybloc"
    name = "Bloc by Bloc"
    min_players = 2
    max_players = 4
    turns = Turns.SEQUENTIAL
    hidden_information = True  # loot hands, the decks, the manifestation cards
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
        if state.pending:
            p = state.pending[0]
            seat = state.controller[p.faction]
            if p.kind == "start":
                return (Decision(seat, "start", f"{_text(p.faction)}: choose the district of your Faction Start.",
                                 clock="decision", default=self.format_move(self._start_default(state, p.faction))),)
            if p.kind == "stop":
                actor = state.faction_now()
                return (Decision(seat, "stop", f"{_text(p.faction)}: {_text(actor)} declared `{p.action}` where you "
                                 "have the most blocs. Allow or stop it?", clock="decision", default="allow"),)
            return (Decision(seat, "split", f"{_text(p.faction)}: {p.hits} cops attack in {cell_name(p.cell)}; "
                             "choose which blocs are defeated.", clock="decision",
                             default=self.format_move(Move("split", cell=p.cell, losses=tuple(p.default)))),)
        f = state.faction_now()
        dice = " ".join(str(d) for d in sorted(state.dice)) or "none"
        return (Decision(state.controller[f], "turn", f"{_text(f)}: your actions (dice {dice}).",
                         clock="turn", default="end"),)

    def to_act(self, state: BlocState) -> frozenset[int]:
        owed = self.decisions(state)
        return frozenset((owed[0].seat,)) if owed else frozenset()

    def acting_faction(self, state: BlocState) -> int:
        """The faction the seat to act is deciding for."""
        if state.pending:
            return state.pending[0].faction
        return state.faction_now()

    def legal_moves(self, state: BlocState, seat: int) -> list[Move]:
        if state.outcome or seat not in self.to_act(state):
            return []
        if state.pending:
            p = state.pending[0]
            if p.kind == "start":
                return [Move("start", cell=c) for c in self._start_cells(state, p.faction)]
            if p.kind == "stop":
                return [ALLOW, STOP]
            return [Move("split", cell=p.cell, losses=tuple(s)) for s in self._splits(state, p)]
        return self._actions(state, state.faction_now())

    # --- setup decisions ----------------------------------------------------------------------------------
    def _start_cells(self, state: BlocState, f: int) -> list[int]:
        city = state.city
        return [c for c in city.districts if city.tile(c).type == FACTION_TYPES[f] and city.tile(c).circle
                and state.occ_owner[c] < 0]

    def _start_default(self, state: BlocState, f: int) -> Move:
        cells = self._start_cells(state, f)
        best = min(cells, key=lambda c: (state.difficulty(c), TILES[state.tiles[c]].pid))
        return Move("start", cell=best)

    # --- actions of a Sunset turn ------------------------------------------------------------------------
    def _actions(self, state: BlocState, f: int) -> list[Move]:
        city = state.city
        dice = sorted(set(state.dice))
        out: list[Move] = []
        lockdown = state.lockdown >= 0
        free = state.free_moves[f] > 0
        move_dice = ([0] if free else []) + dice
        pool = BARRICADES - sum(state.barricades.values())
        walls: set[str] = set()  # connections offered already (from their other end)
        for cell in city.districts:
            mine = state.blocs[cell][f]
            if not mine:
                continue
            diff = state.difficulty(cell)
            strong = [d for d in dice if d >= diff]
            if not state.police(cell):
                if move_dice:
                    blocked = [state.police(c) for c in range(25)]
                    for dest in routes_from(city, cell, blocked, metro=not lockdown):
                        for n in range(1, mine + 1):
                            out += [Move("move", d, cell, dest, n) for d in move_dice]
                if pool > 0:
                    for conn in city.touching[cell]:
                        if state.barricades.get(conn.id, 0) < MAX_BARRICADES and conn.id not in walls:
                            walls.add(conn.id)
                            out += [Move("barricade", d, conn=conn.id) for d in dice]
                if strong and f"loot:{cell}" not in state.stopped and not state.liberated[cell]:
                    shops = state.shops[cell]
                    if 0 in shops:
                        out += [Move("loot", d, cell) for d in strong]
                    if 1 in shops:
                        out += [Move("loot", d, cell, burn=True) for d in strong]
                if strong and state.mats[f] and state.may_build(f, cell):
                    if state.occ_owner[cell] < 0 and f"build:{cell}" not in state.stopped:
                        out += [Move("build", d, cell, occ=o) for d in strong for o in state.mats[f]]
                    if state.occ_owner[cell] >= 0 and f"swap:{cell}" not in state.stopped:
                        out += [Move("swap", d, cell, occ=o) for d in strong for o in state.mats[f]]
            elif strong and state.attacked.get(f"{f}:{cell}", 0) < mine:
                if state.cops[cell] >= 1:
                    out += [Move("defeat", d, cell) for d in strong]
                if state.cops[cell] >= 2:
                    out += [Move("kick", d, cell, conn=c.id) for c in city.touching[cell] for d in strong]
                if state.vans[cell] >= 0:
                    out += [Move("van", d, cell) for d in strong]
        hall = state.occupation_cell(f, "hall")
        if hall >= 0 and dice and state.on_mat(f) > 0 and state.halls < (2 if state.liberated[hall] else 1):
            out += [Move("hall", d) for d in dice]
        out.append(END)
        return out

    def is_legal(self, state: BlocState, seat: int, move: Move) -> bool:
        return move in self.legal_moves(state, seat)

    # --- applying ----------------------------------------------------------------------------------------
    def perform(self, state: BlocState, seat: int, move: Move, events: list[Event]) -> None:
        rng = Rng(state.rng)
        state.ply += 1
        if move.kind == "start":
            self._place_start(state, move, events, rng)
        elif move.kind in ("allow", "stop"):
            self._answer_stop(state, move, events, rng)
        elif move.kind == "split":
            self._answer_split(state, move, events, rng)
        else:
            self._act(state, state.faction_now(), move, events, rng)
        state.rng = rng.state

    def _say(self, events: list[Event], state: BlocState, kind: str, text: str, f: int | None = None) -> None:
        seat = state.controller[f] if f is not None else None
        events.append(Event(kind, seat, text))

    def _place_start(self, state: BlocState, move: Move, events: list[Event], rng: Rng) -> None:
        p = state.pending.pop(0)
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
        state.dice, state.halls, state.stopped, state.run = [], 0, [], -1
        start = state.occupation_cell(f, "start")
        if start >= 0 and state.on_mat(f) > 0:
            state.blocs[start][f] += 1
            self._say(events, state, "form", f"{_text(f)} form a bloc at their Start ({cell_name(start)}).", f)
        n = state.in_city(f)
        count = (3 if n < 6 else 4 if n <= 8 else 5) + state.momentum[f]
        state.momentum[f] = 0
        state.dice = sorted(1 + rng.below(6) for _ in range(count))
        self._say(events, state, "dice", f"Night {state.night}: {_text(f)} roll "
                  f"{' '.join(str(d) for d in state.dice)}.", f)

    def _spend(self, state: BlocState, f: int, die: int) -> None:
        if die == 0:
            state.free_moves[f] -= 1
        else:
            state.dice.remove(die)

    def _act(self, state: BlocState, f: int, move: Move, events: list[Event], rng: Rng) -> None:
        if state.run >= 0 and not (move.kind in ATTACKS and move.cell == state.run):
            self._close_run(state, f, events, rng)
            if state.outcome:
                return
            if move.kind != "end" and move not in self._actions(state, f):
                self._say(events, state, "cancel", f"`{self.format_move(move)}` is no longer possible after the "
                          "police reaction: nothing spent.", f)
                return
            if move.kind == "end" and self._kitchen_gave(events):
                return  # People's Kitchen dice from that roll: the turn goes on
        if move.kind == "end":
            self._end_turn(state, f, events, rng)
            return
        if move.kind in ADVANCED:
            stopper = self._stopper(state, f, move.cell)
            if stopper >= 0:
                state.pending.insert(0, Pending("stop", stopper, cell=move.cell, action=self.format_move(move)))
                self._say(events, state, "declare", f"{_text(f)} declare `{self.format_move(move)}`; "
                          f"{_text(stopper)} may stop it.", f)
                return
            self._advanced(state, f, move, events, rng)
            return
        self._spend(state, f, move.die)
        if move.kind == "move":
            state.blocs[move.cell][f] -= move.n
            state.blocs[move.to][f] += move.n
            self._cap_attacks(state, f, move.cell)
            how = "free movement" if move.die == 0 else f"die {move.die}"
            self._say(events, state, "move", f"{_text(f)} move {self._blocs(move.n)} {cell_name(move.cell)} → "
                      f"{cell_name(move.to)} ({how}).", f)
        elif move.kind == "barricade":
            state.barricades[move.conn] = state.barricades.get(move.conn, 0) + 1
            self._say(events, state, "barricade", f"{_text(f)} barricade {move.conn} "
                      f"({state.barricades[move.conn]} there).", f)
        elif move.kind == "hall":
            state.halls += 1
            cell = state.occupation_cell(f, "hall")
            state.blocs[cell][f] += 1
            self._say(events, state, "hall", f"{_text(f)} form a bloc at their Assembly Hall ({cell_name(cell)}).", f)
        elif move.kind in ATTACKS:
            self._attack(state, f, move, events)

    @staticmethod
    def _blocs(n: int) -> str:
        return f"{n} bloc{'s' if n != 1 else ''}"

    def _where(self, state: BlocState, cell: int) -> str:
        return f"{TILES[state.tiles[cell]].name} ({cell_name(cell)})"

    def _kitchen_gave(self, events: list[Event]) -> bool:
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
        self._spend(state, f, move.die)
        cell = move.cell
        if move.kind == "loot":
            shops = state.shops[cell]
            i = shops.index(1 if move.burn else 0)
            shops[i] += 1
            if shops[i] == 2:
                state.burned += 1
            got = self._draw_loot(state, f, 1, rng)
            mark = "burn" if move.burn else "graffiti"
            self._say(events, state, "loot", f"{_text(f)} loot in {cell_name(cell)} ({mark}) and draw "
                      f"{len(got)} loot card{'s' if len(got) != 1 else ''}.", f)
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
        self._reaction(state, f, cell, events, rng)

    def _attack(self, state: BlocState, f: int, move: Move, events: list[Event]) -> None:
        cell, city = move.cell, state.city
        key = f"{f}:{cell}"
        state.attacked[key] = state.attacked.get(key, 0) + 1
        state.run = cell
        if move.kind == "defeat":
            state.cops[cell] -= 1
            self._say(events, state, "attack", f"{_text(f)} defeat a cop in {cell_name(cell)}.", f)
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
            state.vans[cell] += 1
            if state.vans[cell] >= 3:
                state.vans[cell] = -1
                state.vans_box += 1
                state.vans_destroyed += 1
                self._say(events, state, "attack", f"{_text(f)} destroy the van in {cell_name(cell)}!", f)
            else:
                word = "on its side" if state.vans[cell] == 1 else "upside down"
                self._say(events, state, "attack", f"{_text(f)} attack the van in {cell_name(cell)}: {word}.", f)

    def _close_run(self, state: BlocState, f: int, events: list[Event], rng: Rng) -> None:
        cell, state.run = state.run, -1
        self._reaction(state, f, cell, events, rng)

    def _reaction(self, state: BlocState, f: int, cell: int, events: list[Event], rng: Rng) -> None:
        roll = 1 + rng.below(6)
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
            self._say(events, state, "kitchen", f"Reaction roll 6: People's Kitchen! Extra die "
                      f"{' '.join(map(str, extra))}.", f)
        else:
            self._say(events, state, "reaction", f"Reaction roll {roll}: nothing happens.", f)

    # --- decks --------------------------------------------------------------------------------------------
    def _draw_loot(self, state: BlocState, f: int, n: int, rng: Rng) -> list[str]:
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
        state.dice = []
        state.last_police = []
        draws = pol.DRAWS[state.morale - 1]
        self._say(events, state, "ops", f"{_text(f)} end their actions: {draws} police ops card"
                  f"{'s' if draws > 1 else ''} ({pol.MORALE[state.morale - 1]}).", f)
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
        city = state.city
        for cell in city.districts:
            if state.vans[cell] > 0:
                state.vans[cell] = 0
        events.append(Event("sunrise", None, f"☀️ Sunrise of night {state.night}: police repression."))
        for cell in city.districts:
            if state.vans[cell] >= 0 and (sum(state.blocs[cell]) > 0 or state.occ_owner[cell] >= 0):
                lost = sum(state.blocs[cell])
                state.blocs[cell] = [0, 0, 0, 0]
                evicted = self._evict(state, cell, "evicts")
                events.append(Event("repression", None, f"The van in {cell_name(cell)} defeats "
                                    f"{self._blocs(lost)}{evicted}."))
        for cell in sorted(city.districts, key=lambda c: city.tile(c).pid):
            c, n = state.cops[cell], sum(state.blocs[cell])
            if c <= 0 or (n == 0 and state.occ_owner[cell] < 0):
                continue
            factions = [g for g in range(4) if state.blocs[cell][g]]
            if c < n and len(factions) > 1:
                state.pending.append(Pending("split", self._chooser(state, cell), cell=cell, hits=c,
                                             default=self._default_split(state, cell, c)))
        if state.pending:
            return
        self._repress(state, events, rng)

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

    def _answer_split(self, state: BlocState, move: Move, events: list[Event], rng: Rng) -> None:
        p = state.pending.pop(0)
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
            c, n = state.cops[cell], sum(state.blocs[cell])
            if c <= 0 or (n == 0 and state.occ_owner[cell] < 0):
                continue
            if c >= n:
                state.blocs[cell] = [0, 0, 0, 0]
                evicted = self._evict(state, cell, "evict" if c > 1 else "evicts") if c > n else ""
                events.append(Event("repression", None, f"{c} cop{'s' if c > 1 else ''} in {cell_name(cell)} "
                                    f"defeat {self._blocs(n)}{evicted}."))
                continue
            losses = chosen.get(cell)
            if losses is None:
                f = next(g for g in range(4) if state.blocs[cell][g])
                losses = [0, 0, 0, 0]
                losses[f] = c
            for f in range(4):
                state.blocs[cell][f] -= losses[f]
            events.append(Event("repression", None, f"{c} cop{'s' if c > 1 else ''} in {cell_name(cell)} defeat "
                                + ", ".join(f"{k} {_text(f)}" for f, k in enumerate(losses) if k) + "."))
        self._liberate(state, events, rng)

    def _evict(self, state: BlocState, cell: int, verb: str) -> str:
        owner = state.occ_owner[cell]
        if owner < 0:
            return ""
        kind = state.occ_kind[cell]
        state.mats[owner].append(kind)
        state.occ_owner[cell], state.occ_kind[cell] = -1, ""
        return f" and {verb} the {_text(owner)}' {OCCUPATION_NAMES[kind]}"

    # --- liberation and manifestation cards ------------------------------------------------------------
    def _liberate(self, state: BlocState, events: list[Event], rng: Rng) -> None:
        city = state.city
        q = [c for c in city.districts if not state.liberated[c] and city.tile(c).liberatable
             and state.occ_owner[c] >= 0 and sum(state.blocs[c]) >= 2 * state.difficulty(c)]
        reveal = [0, 0]
        for cell in sorted(q, key=lambda c: city.tile(c).pid):
            liberators = [f for f in state.night_order() if state.blocs[cell][f]]
            state.shops[cell] = []
            state.liberated[cell] = True
            card, state.under[cell] = state.under[cell], ""
            pol.raise_morale(state, -1)
            level = state.difficulty(cell)
            events.append(Event("liberation", None, f"✊ {self._where(state, cell)} is liberated! Manifestation: "
                                f"{MANIFESTATION_NAMES[card]} (level {level}); police morale falls to "
                                f"{pol.MORALE[state.morale - 1]}.", {"card": card}))
            for line in self._manifest(state, card, cell, level, liberators, reveal, rng):
                events.append(Event("manifestation", None, line))
        if reveal[0]:
            top = state.police_deck[-reveal[0]:][::-1]
            state.revealed = top
            events.append(Event("reveal", None, "Revealed police ops cards (top first): "
                                + ", ".join(pol.CARDS[c].name for c in top) + " (nothing discarded, order kept)."))
        self._next_night(state, events, rng)

    def _manifest(self, state: BlocState, card: str, cell: int, level: int, liberators: list[int],
                  reveal: list[int], rng: Rng) -> list[str]:
        """A manifestation card's effect at ``level`` (L1–L5), with its default choices (cards part C3)."""
        city = state.city
        lv = max(1, min(5, level)) - 1

        def near() -> list[int]:
            return [cell, *sorted(city.adjacent[cell], key=lambda c: city.tile(c).pid)]

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
            return [f"{names} each form up to {self._blocs(n)} in {cell_name(cell)}."]
        if card == "barricade_fever":
            n = (1, 1, 2, 3, 4)[lv]
            placed = 0
            for _ in liberators:
                for _ in range(n):
                    room = [c for c in city.touching[cell] if state.barricades.get(c.id, 0) < MAX_BARRICADES]
                    if not room or sum(state.barricades.values()) >= BARRICADES:
                        break
                    best = min(room, key=lambda c: (state.barricades.get(c.id, 0), c.id))
                    state.barricades[best.id] = state.barricades.get(best.id, 0) + 1
                    placed += 1
            return [f"{placed} barricade{'s' if placed != 1 else ''} around {cell_name(cell)}."]
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
            return ["Squatting Wave: no occupation built (the free build is optional)."]
        if card == "police_rout":
            n = (1, 1, 2, 3, 4)[lv]
            sent = 0
            for c in near():
                k = min(n - sent, state.cops[c])
                state.cops[c] -= k
                sent += k
            return [f"{sent} cop{'s' if sent != 1 else ''} routed to staging."]
        if card == "tactical_collapse":
            area = near() if lv < 3 else list(city.districts)
            gone = [c for c in area if state.cops[c] == 1 and state.vans[c] < 0]
            for c in gone:
                state.cops[c] = 0
            return [f"{len(gone)} solo cop{'s' if len(gone) != 1 else ''} collapse back to staging."]
        if card == "riot_van_burns":
            area = near() if lv < 4 else [cell, *sorted(city.districts, key=lambda c: city.tile(c).pid)]
            van = next((c for c in area if state.vans[c] >= 0), -1)
            if van < 0:
                return ["Riot Van Burns: no van in range."]
            state.vans[van] = -1
            if lv >= 3:
                state.vans_box += 1
                state.vans_destroyed += 1
                return [f"The van in {cell_name(van)} burns: destroyed."]
            return [f"The van in {cell_name(van)} is sent back to staging."]
        if card in ("leaked_patrol_routes", "whistleblower"):
            n = (1, 1, 2, 3, 4)[lv]
            reveal[0] += n
            if card == "whistleblower":
                reveal[1] += (1, 1, 1, 1, 2)[lv]
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
        words = text.strip().split()
        if not words:
            raise NotationError("Type a move, e.g. `move 3 B3 C4 2` or `end`.")
        kind = words[0].lower()
        rest = words[1:]
        try:
            if kind in ("end", "allow", "stop") and not rest:
                return Move(kind)
            if kind == "start" and len(rest) == 1:
                return Move("start", cell=self._cell(rest[0]))
            if kind == "split" and rest:
                losses = [0, 0, 0, 0]
                for w in rest[1:]:
                    m = SPLIT.match(w.upper())
                    if not m:
                        raise NotationError(f"`{w}`: write losses as W2 S1 (W S N P).")
                    losses[LETTERS.index(m.group(1))] += int(m.group(2))
                return Move("split", cell=self._cell(rest[0]), losses=tuple(losses))
            die = int(rest[0]) if rest else -1
            if not 0 <= die <= 6:
                raise NotationError("A die is 1–6 (0: a free movement).")
            args = rest[1:]
            if kind == "hall" and not args:
                return Move("hall", die)
            if kind == "move" and len(args) == 3:
                return Move("move", die, self._cell(args[0]), self._cell(args[1]), int(args[2]))
            if kind == "barricade" and len(args) == 1:
                return Move("barricade", die, conn=self._conn(args[0]))
            if kind == "loot" and len(args) in (1, 2):
                burn = len(args) == 2
                if burn and args[1].lower() != "burn":
                    raise NotationError("`loot <die> <district> [burn]`.")
                return Move("loot", die, self._cell(args[0]), burn=burn)
            if kind in ("build", "swap") and len(args) == 2:
                occ = args[1].lower()
                if occ not in OCCUPATION_NAMES:
                    raise NotationError(f"No occupation `{args[1]}`: {', '.join(OCCUPATION_NAMES)}.")
                return Move(kind, die, self._cell(args[0]), occ=occ)
            if kind in ("defeat", "van") and len(args) == 1:
                return Move(kind, die, self._cell(args[0]))
            if kind == "kick" and len(args) == 2:
                return Move("kick", die, self._cell(args[0]), conn=self._conn(args[1]))
        except ValueError:
            raise NotationError(f"Could not read `{text}`.") from None
        raise NotationError(f"Could not read `{text}`: try `move 3 B3 C4 2`, `build 5 C2 kitchen`, `end`.")

    @staticmethod
    def _cell(text: str) -> int:
        cell = parse_cell(text)
        if cell is None:
            raise NotationError(f"`{text}` is not a district (A1–E5).")
        return cell

    @staticmethod
    def _conn(text: str) -> str:
        t = text.strip().upper()
        if re.fullmatch(r"[A-E][1-5]-[A-E][1-5]", t):
            a, b = sorted(t.split("-"), key=lambda c: parse_cell(c) or 0)
            return f"{a}-{b}"
        if re.fullmatch(r"[A-E][1-5]:(NE|SE|SW|NW)", t):
            return t
        raise NotationError(f"`{text}` is not a connection (`B3-C3`, or a highway link `C5:SW`).")

    def format_move(self, move: Move) -> str:
        k = move.kind
        if k in ("end", "allow", "stop"):
            return k
        if k == "start":
            return f"start {cell_name(move.cell)}"
        if k == "split":
            parts = [f"{LETTERS[f]}{n}" for f, n in enumerate(move.losses) if n]
            return " ".join(["split", cell_name(move.cell), *parts])
        if k == "hall":
            return f"hall {move.die}"
        if k == "move":
            return f"move {move.die} {cell_name(move.cell)} {cell_name(move.to)} {move.n}"
        if k == "barricade":
            return f"barricade {move.die} {move.conn}"
        if k == "loot":
            return f"loot {move.die} {cell_name(move.cell)}" + (" burn" if move.burn else "")
        if k in ("build", "swap"):
            return f"{k} {move.die} {cell_name(move.cell)} {move.occ}"
        if k == "kick":
            return f"kick {move.die} {cell_name(move.cell)} {move.conn}"
        return f"{k} {move.die} {cell_name(move.cell)}"

    def describe_move(self, state: BlocState, seat: int, move: Move) -> str:
        k = move.kind
        die = "free" if move.die == 0 else f"die {move.die}"
        if k == "start":
            return f"Start in {self._where(state, move.cell)}"
        if k == "end":
            return "End my actions (police ops follow)"
        if k == "allow":
            return "Allow it"
        if k == "stop":
            return "Stop it"
        if k == "split":
            return "Lose " + ", ".join(f"{n} {_text(f)}" for f, n in enumerate(move.losses) if n)
        if k == "move":
            return f"Move {cell_name(move.cell)} → {cell_name(move.to)}: {self._blocs(move.n)}, {die}"
        if k == "barricade":
            return f"Barricade {move.conn}, {die}"
        if k == "loot":
            return f"Loot {cell_name(move.cell)} ({'burn' if move.burn else 'graffiti'}), {die}"
        if k in ("build", "swap"):
            return f"{k.title()} {OCCUPATION_NAMES[move.occ]} in {cell_name(move.cell)}, {die}"
        if k == "defeat":
            return f"Defeat a cop in {cell_name(move.cell)}, {die}"
        if k == "kick":
            return f"Kick 2 cops out of {cell_name(move.cell)} by {move.conn}, {die}"
        if k == "van":
            return f"Attack the van in {cell_name(move.cell)}, {die}"
        return f"Assembly Hall: form a bloc, {die}"

    def menu_groups(self, state: BlocState, seat: int, move: Move) -> tuple[str, ...]:
        """Action, then district (and for a move its destination): each level a short list."""
        k = move.kind
        if k in ("start", "end", "allow", "stop", "split", "hall"):
            return ()
        if k == "move":
            return ("Move blocs", f"from {self._where(state, move.cell)}", f"to {self._where(state, move.to)}")
        if k == "barricade":
            return ("Barricade", f"on {move.conn}")
        if k == "loot":
            return ("Loot", f"in {self._where(state, move.cell)}")
        if k in ("build", "swap"):
            return (f"{k.title()} an occupation", f"in {self._where(state, move.cell)}")
        return ("Attack", f"in {self._where(state, move.cell)}")

    def why_illegal(self, state: BlocState, seat: int, move: Move) -> str:
        if state.pending and move.kind not in ("start", "allow", "stop", "split"):
            return "First answer the decision that is open."
        if move.die and move.die not in state.dice:
            return f"You have no die showing {move.die} (dice: {' '.join(map(str, state.dice)) or 'none'})."
        if move.kind in ADVANCED + ATTACKS and move.die and move.cell >= 0 and move.die < state.difficulty(move.cell):
            return f"That needs a die of at least {state.difficulty(move.cell)} in {cell_name(move.cell)}."
        return "That move is not allowed now (see the menu or `/move` autocomplete for legal moves)."

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
            "difficulty": state.options["difficulty"] if not state.options["beginner"] else "easy",
            "result": r.to_json() if (r := self.result(state)) else None,
        }

    def status_line(self, state: BlocState) -> str:
        if state.outcome:
            return state.reason
        return (f"Night {state.night}, {state.countdown} left · morale {pol.MORALE[state.morale - 1]} · "
                f"{_text(self.acting_faction(state))} to act")

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
        return {"format": FORMAT_VERSION, **dump_state(state)}

    def load(self, data: Mapping[str, Any]) -> BlocState:
        if data.get("format") != FORMAT_VERSION:
            raise ValueError(f"unknown Bloc by Bloc state format {data.get('format')!r}")
        return load_state(BlocState, {k: v for k, v in data.items() if k != "format"})

    def clone(self, state: BlocState) -> BlocState:
        return state.clone()

    def determinize(self, state: BlocState, seat: int, rng: Rng) -> BlocState:
        """Other factions' hands, the loot and police decks' order and the unseen manifestation cards are
        redrawn; the seat's own hands and everything public stay."""
        out = state.clone()
        mine = {f for f in range(4) if state.controller[f] == seat}
        unseen = list(out.loot_deck) + [c for f in range(4) if f not in mine for c in out.hands[f]]
        rng.shuffle(unseen)
        for f in range(4):
            if f not in mine:
                k = len(out.hands[f])
                out.hands[f], unseen = unseen[:k], unseen[k:]
        out.loot_deck = unseen
        rng.shuffle(out.police_deck)
        hidden = [c for c in range(25) if out.under[c]]
        cards = [out.under[c] for c in hidden] + list(out.spare)
        rng.shuffle(cards)
        for i, c in enumerate(hidden):
            out.under[c] = cards[i]
        out.spare = cards[len(hidden):]
        self.reseed(out, rng)
        return out

