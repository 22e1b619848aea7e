"""The hard bot's Bloc by Bloc turn planner.

A faction's dice are known once its turn starts, so its turn is planned as a whole: a beam search over sequences of
its actions (moves, attacks, builds, loots, barricades, cards) on a determinization of the seat's view, each
sequence scored by :func:`bots.blocbybloc.forecast` (what the coming Sunrise would leave), and the first action of
the best sequence is played (or ``end`` when no sequence beats stopping). The search is replanned at each
decision, so a reaction roll or a police card that changes the position changes the plan.

Actions that differ only by which die pays are searched once (the lowest die that can pay), bloc movements only
towards districts that serve a purpose (State districts and their neighbours, shops, occupation circles, the
faction's occupations, clashes), and swaps only of another faction's occupation, where whose occupation it is counts
(the semi-cooperative game, Asymmetrical Struggle). Decisions outside the turn (where the Faction Start goes,
Sunrise cards, manifestation choices, and in the semi-cooperative game whether to stop a rival's action, such as a
swap of its occupation) take the move whose position :func:`forecast` values most, or a simple rule (always allow a
partner's action in the fully cooperative game; reroll a reaction of 1 or 2 with Lookouts; keep the best cards;
losses in a shared clash as the rules' default split).

Nothing hidden is read: every simulation runs on ``Game.determinize(state, seat, rng)``; ties keep the order of
the moves, so a choice is reproducible.

Live (``timed``), the search also has a deadline on the clock (:class:`bots.deadline.Deadline`: a share of the
budget from the call): it looks at the most promising positions first (the beam's best sequences first, and from
each the actions not seen before, then those that were best earlier in the search; at the first depth, attacks,
builds, swaps and loots before the rest) and stops when the deadline passes, with the best sequence found so far.
Untimed (tests, ``bench.blocbybloc_scenarios``) it looks at its whole count of positions. A search the deadline does
not cut chooses exactly the move of the untimed search: the positions it looked at out of order are put back in
order before a depth is judged.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

from bots.blocbybloc import CARD_WORTH, city_geo, forecast
from bots.deadline import Deadline
from bots.mcts import DEFAULT_BUDGET_MS
from engine.base import Game
from engine.blocbybloc.night import semi
from engine.blocbybloc.scenarios import scenario_of
from engine.rng import Rng

BEAM = 5  # sequences kept at each depth
DEPTH = 8  # actions planned ahead at most
EVALUATIONS = 1500  # positions a turn's search may look at, at the default budget (a move's follow-ups count as
# one, and a depth is finished once begun: 1,600-2,700 forecasts at worst, about 1 s; bench.tournament measures it)
POLICE_HARM = {"paramilitary": 5, "heavy": 4, "emergency": 3, "light": 3, "advance": 2, "maneuvers": 1,
               "lockdown": 1, "chief": 0, "rotation": 0, "retreat": -1}


def plan(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng,
         budget_ms: float = DEFAULT_BUDGET_MS, timed: bool = False,
         clock: Callable[[], float] = time.perf_counter) -> Any:
    """The hard bot's move, or ``None`` to leave it to the search (trade answers). The turn's search looks at a
    number of positions in proportion to ``budget_ms`` (a count, so that a choice is reproducible); live
    (``timed``: ``bots.choose`` without a fixed search) it also stops at :data:`bots.deadline.SHARE` of ``budget_ms`` on
    ``clock`` from this call, with the best found so far.

    The cyclic garbage collector is paused while it searches: the search makes tens of thousands of state copies
    (lists of lists, no reference cycles: freed as soon as they are dropped), and the collector, set off every few
    hundred of them, spent a fifth of the time looking through them for nothing."""
    if state.outcome:
        return None
    paused = gc.isenabled()
    if paused:  # (else already paused, by another thread's search, which turns it back on)
        gc.disable()
    try:
        deadline = Deadline.of(budget_ms, timed, clock)
        return _plan(game, state, seat, moves, rng, budget_ms, deadline)
    finally:
        if paused:
            gc.enable()


def _plan(game: Game[Any, Any, Any], state: Any, seat: int, moves: list[Any], rng: Rng, budget_ms: float,
          deadline: Deadline) -> Any:
    det = game.determinize(state, seat, rng)
    legal = {game.format_move(m): m for m in moves}
    if state.pending:
        p = game.pending_of(det, seat)  # type: ignore[attr-defined]
        if p is None:
            return None
        if p.kind == "stop" and semi(det):  # a rival's action: its own worth decides (a swap of its occupation)
            move = _best_after(game, det, seat, moves, deadline)
        else:
            move = _pending_choice(game, det, seat, p, moves, deadline)
    elif state.controller[state.faction_now()] == seat:
        move = _turn(game, det, seat, moves, limit(budget_ms), deadline)
    else:
        return None
    if move is None:
        return None
    return legal.get(game.format_move(move))


# --- decisions outside the turn -------------------------------------------------------------------------------
def _pending_choice(game: Game[Any, Any, Any], det: Any, seat: int, p: Any, moves: list[Any],
                    deadline: Deadline | None = None) -> Any:
    kinds = {m.kind for m in moves}
    if p.kind == "stop":
        return next((m for m in moves if m.kind == "allow"), None)
    if p.kind == "lookout":
        want = "reroll" if p.hits in (1, 2) else "accept"
        return next((m for m in moves if m.kind == want), None)
    if p.kind == "keep":
        return min(moves, key=lambda m: CARD_WORTH.get(m.extra[0], 0.3) if m.extra else 9.0)
    if p.kind == "scan":
        return _scan_order(p.cards, moves)
    if p.kind == "reveal":
        harm = [POLICE_HARM.get(_police_kind(c), 1) for c in p.cards]
        worst = max(range(len(harm)), key=lambda i: harm[i])
        if harm[worst] >= 2:
            return next((m for m in moves if m.kind == "drop" and m.n == worst + 1), None)
        return next((m for m in moves if m.kind == "pass"), None)
    if p.kind == "communique":
        return next((m for m in moves if m.kind == "communique"), None)
    if p.kind == "split":
        default = tuple(p.default)
        return next((m for m in moves if m.kind == "split" and tuple(m.losses) == default), None)
    if "accept" in kinds or "decline" in kinds:
        return None
    return _best_after(game, det, seat, moves, deadline)


def _worth(state: Any, seat: int) -> float:
    """:func:`forecast` for ``seat``: its own in the semi-cooperative game, the table's otherwise."""
    return forecast(state, seat) if semi(state) else forecast(state)


def _police_kind(card: str) -> str:
    from engine.blocbybloc.police import CARDS

    return CARDS[card].kind


def _scan_order(cards: list[str], moves: list[Any]) -> Any:
    """The least harmful police cards on top (they are drawn first; the worst wait longest)."""
    def harm(m: Any) -> tuple[int, ...]:
        return tuple(POLICE_HARM.get(_police_kind(cards[int(i) - 1]), 1) for i in m.extra)

    return min(moves, key=harm)


def _best_after(game: Game[Any, Any, Any], det: Any, seat: int, moves: list[Any],
                deadline: Deadline | None = None) -> Any:
    """The move whose position is worth most (ties: the first); past the ``deadline``, the best looked at."""
    best, best_value = None, -1e18
    for move in moves:
        if deadline is not None and not deadline.look():
            break
        after = game.clone(det)
        game.fast_apply(after, seat, move)
        v = _worth(after, seat)
        if v > best_value:
            best, best_value = move, v
    return best


# --- the turn ------------------------------------------------------------------------------------------------
def _settle(game: Game[Any, Any, Any], state: Any, seat: int) -> None:
    """Answer, inside a simulated turn, the decisions it raises (a stop: allowed; cards drawn; a Lookouts roll)."""
    for _ in range(8):
        if state.outcome or not state.pending:
            return
        p = state.pending[0]
        if p.kind not in ("stop", "keep", "lookout", "scan"):
            return
        who = state.controller[p.faction]
        moves = game.legal_moves(state, who)
        move = _pending_choice(game, state, who, p, moves) if moves else None
        if move is None:
            return
        game.fast_apply(state, who, move)


def _purposeful(state: Any, f: int) -> set[int]:
    """Districts worth moving blocs to: State districts and their neighbours, shops, occupation circles this faction
    may build in, its occupations, districts to liberate, and clashes."""
    g = city_geo(state)
    out: set[int] = set()
    for c in g.districts:
        occupied = state.occ_owner[c] >= 0
        if (c in g.states or g.near_state[c] or state.occ_owner[c] == f or state.police(c)
                or any(s < 2 for s in state.shops[c])
                or (occupied and g.liberatable[c] and not state.liberated[c])
                or (not occupied and state.may_build(f, c))):
            out.add(c)
    out |= _goal_cells(state, g)
    return out


def _goal_cells(state: Any, g: Any) -> set[int]:
    """The districts a scenario's goal needs blocs in besides those above: the ends of the highway connections (Routine
    Traffic Stop), the Autonomous Zones with their neighbours (Phase I and II), the Commercial districts left to
    burn (the Company Town) and the own districts (Occupy Everything), with the districts next to them."""
    key = scenario_of(state)
    if key == "traffic":
        return {e for _, a, b in g.highways for e in (a, b)}
    if key in ("zone-1", "zone-2"):
        return {*g.zones, *g.zone_near, *(a for z in g.zones for a in g.adjacent[z])}
    if key == "company-town":  # the Commercial districts still to burn, and next door (to clear their police)
        return {a for c in g.commercial if any(m < 2 for m in state.shops[c]) for a in (c, *g.adjacent[c])}
    if key == "occupy":  # the own districts and next door
        return {a for own in g.own for c in own for a in (c, *g.adjacent[c])}
    return set()


ADVANCED_KINDS = ("loot", "build", "swap", "defeat", "kick", "van")
SKIPPED = ("give", "offer", "accept", "decline", "end")


def _owners_count(state: Any) -> bool:
    """Whether whose occupation stands in a district changes what a position is worth: in the semi-cooperative game
    (agendas: the Vanguardist's and Insurrectionist's State districts, Mutual Aid's occupation for every faction)
    and in Asymmetrical Struggle (every faction an occupation in a State district). Elsewhere a swap only trades one
    of the city's occupations for another, and the search leaves swaps out to spend its positions on the rest."""
    return bool(semi(state)) or scenario_of(state) == "asymmetrical"


def _rival_swap(state: Any, f: int, m: Any) -> bool:
    """A swap that puts ``f``'s occupation where another faction's stood."""
    return m.kind == "swap" and state.occ_owner[m.cell] != f


def _candidates(game: Game[Any, Any, Any], state: Any, seat: int, f: int) -> list[Any]:
    """The turn's moves worth searching: each action once, paid by the lowest die that can pay it, and bloc
    movements of 1, 2, all but one or all the blocs of a district towards a district that serves a purpose. Swaps
    only where whose occupation it is counts (:func:`_owners_count`), and only of another faction's occupation."""
    dice = sorted(set(state.dice))
    low = dice[0] if dice else 0
    moves = game.search_moves(state, seat)  # (no trade offers: a big hand makes millions)
    free = any(m.kind == "move" and m.die == 0 for m in moves)  # a free movement: no die spent
    useful = _purposeful(state, f)
    swaps = _owners_count(state)
    out = []
    best_die: dict[tuple[Any, ...], int] = {}
    for m in moves:
        k = m.kind
        if k in SKIPPED or (k == "swap" and not (swaps and _rival_swap(state, f, m))):
            continue
        if k in ("move", "bicycles"):
            mine = state.blocs[m.cell][f]
            if m.to not in useful or m.n not in (1, 2, mine - 1, mine):
                continue
            if k == "bicycles" and dice:
                continue
            if k == "move" and (m.die not in (0, low) or (m.die == low and free)):
                continue
        elif k in ("barricade", "garden", "hall", "hacker"):
            if m.die != low:
                continue
        elif k in ADVANCED_KINDS:
            key = (k, m.cell, m.conn, m.occ, m.burn, m.molotovs)
            rank = m.die + (10 if m.crowbar else 0)  # a crowbar only when no die can pay
            if best_die.get(key, 99) <= rank:
                continue
            best_die[key] = rank
        out.append(m)
    return [m for m in out if m.kind not in ADVANCED_KINDS
            or best_die[(m.kind, m.cell, m.conn, m.occ, m.burn, m.molotovs)] == m.die + (10 if m.crowbar else 0)]


def limit(budget_ms: float) -> int:
    """Positions a turn's search may look at for a budget."""
    return max(50, int(EVALUATIONS * min(1.0, budget_ms / DEFAULT_BUDGET_MS)))  # (a smaller budget: fewer)


def _turn(game: Game[Any, Any, Any], det: Any, seat: int, moves: list[Any], evaluations: int,
          deadline: Deadline | None = None) -> Any:
    f = det.faction_now()
    end = next((m for m in moves if m.kind == "end"), None)
    best_value = _worth(det, seat)
    best_first: Any = end
    beam: list[tuple[float, Any, Any]] = [(best_value, det, None)]
    spent = 0  # positions evaluated: the search stops deepening past ``evaluations`` (a count: reproducible)
    timed = deadline is not None and deadline.timed
    earlier: dict[Any, float] = {}  # live: the best rank each action had so far (the order to look at them)
    cut = False
    for depth in range(DEPTH):
        if spent > evaluations:
            break
        children: list[tuple[float, float, Any, Any]] = []
        for _, state, first in beam:
            if timed and not deadline.look():  # type: ignore[union-attr]  # (listing the candidates costs too)
                cut = True
                break
            options = _candidates(game, state, seat, f)
            spent += len(options)
            order: Any = range(len(options))
            if timed:
                order = sorted(order, key=_promise(options, earlier, depth))
            looked: list[tuple[int, tuple[float, float, Any, Any]]] = []
            for n, i in enumerate(order):
                if timed and n and not deadline.look():  # type: ignore[union-attr]  # (the first: looked above)
                    cut = True
                    break
                move = options[i]
                after = game.clone(state)
                game.fast_apply(after, seat, move)
                _settle(game, after, seat)
                v = _worth(after, seat)
                rank = v
                sent = move.kind in ("move", "bicycles") and _open(after, f)
                acts = _actions_in(game, after, f, move.to) if sent else []
                if acts:  # blocs sent in to act there are worth what they can do there
                    rank = max(v, _follow_up(game, after, seat, acts))
                    spent += 1
                looked.append((i, (rank, v, after, first if first is not None else move)))
                if timed and earlier.get(move, -1e18) < rank:
                    earlier[move] = rank
            if timed:
                looked.sort(key=lambda x: x[0])  # (back in the listed order: ties as the untimed search breaks them)
            children += [child for _, child in looked]
            if cut:
                break
        if not children:
            break
        top = max(children, key=lambda x: x[1])
        if top[1] > best_value + 1e-9:
            best_value, best_first = top[1], top[3]
        if cut:
            break
        children.sort(key=lambda x: -x[0])
        beam = []
        for rank, _, after, first in children:
            if len(beam) >= BEAM:
                break
            if not _open(after, f):
                continue  # the turn is over (or waits on someone): nothing more to plan from here
            beam.append((rank, after, first))
        if not beam:
            break
    return best_first


def _promise(options: list[Any], earlier: dict[Any, float], depth: int) -> Callable[[int], tuple[float, ...]]:
    """The order a live search looks at ``options`` in, most promising first: at the first depth attacks, builds,
    swaps and loots, then the rest as listed; deeper, the actions the search has not met yet (what the sequence so far
    opened up), then the others by the best rank they had earlier."""
    if depth == 0:
        return lambda i: (0.0 if options[i].kind in ADVANCED_KINDS else 1.0,)

    def key(i: int) -> tuple[float, ...]:
        rank = earlier.get(options[i])
        return (0.0,) if rank is None else (1.0, -rank)

    return key


def _open(state: Any, f: int) -> bool:
    """The faction's turn goes on with nothing waiting."""
    return not state.outcome and not state.pending and state.phase == "sunset" and state.faction_now() == f


def _follow_up(game: Game[Any, Any, Any], state: Any, seat: int, actions: list[Any]) -> float:
    """The best position one of these actions leads to."""
    best = -1e18
    for move in actions:
        after = game.clone(state)
        game.fast_apply(after, seat, move)
        _settle(game, after, seat)
        best = max(best, _worth(after, seat))
    return best


def _actions_in(game: Game[Any, Any, Any], state: Any, f: int, cell: int) -> list[Any]:
    """What blocs just sent to ``cell`` could do there, from the engine's actions on that district
    (``district_actions``; listing every legal move is what costs): van and defeat attacks with the lowest die
    that can pay (no Molotovs card or one), and a build of the first occupation in the faction's supply with the
    lowest die (a crowbar only when no die can pay), or where whose occupation it is counts (:func:`_owners_count`)
    a swap of another faction's occupation for that one."""
    actions = game.district_actions(state, f, cell)  # type: ignore[attr-defined]
    attacks = [m for m in actions if m.kind in ("van", "defeat") and len(m.extra) <= 1]
    builds = [m for m in actions if m.kind == "build"]
    loots = [m for m in actions if m.kind == "loot" and not m.extra]  # a loot's worth is the scenario's or agenda's
    out = []
    if loots and (scenario_of(state) == "company-town" or any(state.agendas)):
        out.append(min(loots, key=lambda m: (not m.burn, m.die)))
    if attacks:
        low = min(m.die for m in attacks)
        out += [m for m in attacks if m.die == low]
    if builds:
        out.append(min(builds, key=lambda m: (m.occ, bool(m.extra), m.die)))
    swaps = [m for m in actions if _rival_swap(state, f, m)] if _owners_count(state) else []
    if swaps:
        out.append(min(swaps, key=lambda m: (m.occ, bool(m.extra), m.die)))
    return out
