"""What a faction may do in step 2 of its Sunset turn (play part D2): movements, barricades, actions in a district
(loots, builds, swaps, attacks), occupation abilities, loot cards played on their own, exchanges, ending the
turn; each with every die or card that may pay for it."""

from __future__ import annotations

from itertools import combinations_with_replacement

from engine.blocbybloc.city import routes_from
from engine.blocbybloc.common import left, occ, submultisets
from engine.blocbybloc.exchanges import NO_OFFERS, turn_exchanges
from engine.blocbybloc.model import BARRICADES, MAX_BARRICADES, BlocState
from engine.blocbybloc.moves import Move

END = Move("end")


def free_moves(state: BlocState, f: int) -> int:
    """Movements without a die: Free Transit, then the Social Center's."""
    return state.free_moves[f] + max(0, left(state, f, "center"))


def basic_loot(state: BlocState, f: int, burn: bool) -> bool:
    """Comrade Cafe: the owner's graffiti loots (burn loots too, liberated) are basic actions."""
    cafe, uses = occ(state, f, "cafe")
    return uses > 0 and (not burn or state.liberated[cafe])


def basic_build(state: BlocState, f: int, cell: int) -> bool:
    """Strike Hall: building and swapping in its district and adjacent ones (liberated: every district of its
    district's type too) are basic actions."""
    hall, uses = occ(state, f, "strike")
    if not uses:
        return False
    city = state.city
    if cell == hall or cell in city.adjacent[hall]:
        return True
    return state.liberated[hall] and city.tile(cell).type == city.tile(hall).type


def is_basic(state: BlocState, f: int, move: Move) -> bool:
    if move.kind == "loot":
        return basic_loot(state, f, move.burn)
    return move.kind in ("build", "swap") and basic_build(state, f, move.cell)


def garden_cells(state: BlocState, f: int) -> list[int]:
    garden, uses = occ(state, f, "garden")
    if not uses:
        return []
    if not state.liberated[garden]:
        return [garden]
    return state.city.of_type(state.city.tile(garden).type)


def faction_actions(state: BlocState, f: int, offers: str = NO_OFFERS) -> list[Move]:
    city = state.city
    dice = sorted(set(state.dice))
    pool = BARRICADES - sum(state.barricades.values())
    walls: set[str] = set()  # connections offered already (from their other end)
    moving = _Moving(state, f, dice)
    out: list[Move] = []
    for cell in city.districts:
        if state.blocs[cell][f]:
            out += cell_actions(state, f, cell, moving, dice, pool, walls)
    out += ability_options(state, f, dice, pool)
    out += card_options(state, f, dice, pool)
    out += turn_exchanges(state, f, offers)
    out.append(END)
    return out


class _Moving:
    """What a turn's bloc movements need, worked out once for every district: the dice that may pay (0: a free
    movement), the districts the police block, the Metro Lockdown, a Bicycles card."""

    def __init__(self, state: BlocState, f: int, dice: list[int]) -> None:
        self.dice = ([0] if free_moves(state, f) > 0 else []) + dice
        self.blocked = [state.police(c) for c in range(25)]
        self.metro = state.lockdown < 0
        self.bikes = "bicycles" in state.hands[f]


def cell_actions(state: BlocState, f: int, cell: int, moving: _Moving, dice: list[int], pool: int,
                 walls: set[str] | None) -> list[Move]:
    """The part of :func:`faction_actions` from the faction's blocs in ``cell``: movements from it, barricades on
    its connections (those not in ``walls`` yet, which gets them; ``None``: none listed), its district actions,
    the escapes from a clash there."""
    city = state.city
    hand = state.hands[f]
    mine = state.blocs[cell][f]
    out: list[Move] = []
    if not state.police(cell):
        move_dice, bikes = moving.dice, moving.bikes
        routes = routes_from(city, cell, moving.blocked, metro=moving.metro) if move_dice or bikes else []
        for dest in routes:
            for n in range(1, mine + 1):
                out += [Move("move", d, cell, dest, n) for d in move_dice]
                if bikes:
                    out.append(Move("bicycles", cell=cell, to=dest, n=n))
        if pool > 0 and walls is not None:
            for conn in city.touching[cell]:
                if state.barricades.get(conn.id, 0) < MAX_BARRICADES and conn.id not in walls:
                    walls.add(conn.id)
                    out += [Move("barricade", d, conn=conn.id) for d in dice]
    out += district_actions(state, f, cell)  # after the movements, before the escapes
    if state.police(cell):
        if "clothes" in hand:
            for dest in sorted(city.adjacent[cell]):
                out += [Move("clothes", cell=cell, to=dest, n=n) for n in range(1, min(2, mine) + 1)]
        if "fireworks" in hand and state.cops[cell] >= 1:
            for conn in city.touching[cell]:
                out += [Move("fireworks", cell=cell, conn=conn.id, n=n)
                        for n in range(1, min(2, state.cops[cell]) + 1)]
    return out


DISTRICT_KINDS = frozenset(("loot", "build", "swap", "defeat", "kick", "van"))
"""The kinds of move :func:`district_actions` lists (and nothing else)."""
CELL_KINDS = DISTRICT_KINDS | {"move", "bicycles", "clothes", "fireworks"}
"""The kinds of move :func:`cell_actions` lists, each with the district of the blocs it is made from as its cell (and
listed nowhere else)."""


def is_action(state: BlocState, f: int, move: Move) -> bool:
    """``move in faction_actions(state, f)``, without listing them all: a movement or a barricade is checked as those
    lists make them, another move from the blocs of one district among that district's actions only (its district
    actions for a loot, a build, a swap or an attack)."""
    k = move.kind
    if k == "barricade":
        conn = move.conn
        if move != Move("barricade", move.die, conn=conn) or move.die not in state.dice or \
                state.barricades.get(conn, 0) >= MAX_BARRICADES or BARRICADES - sum(state.barricades.values()) <= 0:
            return False
        city = state.city
        return any(state.blocs[c][f] and not state.police(c) and any(x.id == conn for x in city.touching[c])
                   for c in city.districts)
    if k not in CELL_KINDS:
        return move in faction_actions(state, f)
    cell = move.cell
    if cell not in state.city.districts or not state.blocs[cell][f]:
        return False
    if k in DISTRICT_KINDS:
        return move in district_actions(state, f, cell)
    dice = sorted(set(state.dice))
    moving = _Moving(state, f, dice)
    if k in ("move", "bicycles"):
        made = Move("move", move.die, cell, move.to, move.n) if k == "move" else \
            Move("bicycles", cell=cell, to=move.to, n=move.n)
        return (move == made and not state.police(cell) and 1 <= move.n <= state.blocs[cell][f]
                and (move.die in moving.dice if k == "move" else moving.bikes)
                and move.to in routes_from(state.city, cell, moving.blocked, metro=moving.metro))
    return move in cell_actions(state, f, cell, moving, dice, 0, None)


def district_actions(state: BlocState, f: int, cell: int) -> list[Move]:
    """Faction ``f``'s actions on the district ``cell`` itself, with every die and card that may pay: attacks on
    its police (defeat, kick, van), or else loots, builds and swaps there. Part of ``legal_moves``; bots use it
    to see what blocs sent to a district could do there, without listing every move."""
    mine = state.blocs[cell][f]
    if not mine:
        return []
    dice = sorted(set(state.dice))
    diff = state.difficulty(cell)
    if not state.police(cell):
        return advanced_options(state, f, cell, dice, diff)
    out: list[Move] = []
    if dice and state.attacked.get(f"{f}:{cell}", 0) < mine:
        hand = state.hands[f]
        strong = [d for d in dice if d >= diff]
        if state.cops[cell] >= 1:
            out += [Move("defeat", d, cell, extra=m) for m in submultisets(hand) for d in strong]
        if state.cops[cell] >= 2:
            out += [Move("kick", d, cell, conn=c.id) for c in state.city.touching[cell] for d in strong]
        if state.vans[cell] >= 0:
            out += [Move("van", d, cell, extra=m) for m in submultisets(hand) for d in strong]
    return out


def advanced_options(state: BlocState, f: int, cell: int, dice: list[int], diff: int) -> list[Move]:
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
            out += [Move("loot", d, cell, extra=x) for d, x in dice_for(basic_loot(state, f, False))]
        if 1 in shops:
            out += [Move("loot", d, cell, burn=True, extra=x)
                    for d, x in dice_for(basic_loot(state, f, True))]
    if state.mats[f] and state.may_build(f, cell):
        kind = "build" if state.occ_owner[cell] < 0 else "swap"
        if f"{kind}:{cell}" not in state.stopped:
            options = dice_for(basic_build(state, f, cell))
            out += [Move(kind, d, cell, occ=o, extra=x) for d, x in options for o in sorted(set(state.mats[f]))]
    return out


def ability_options(state: BlocState, f: int, dice: list[int], pool: int) -> list[Move]:
    out: list[Move] = []
    if dice and left(state, f, "hall") > 0 and state.on_mat(f) > 0:
        out += [Move("hall", d) for d in dice]
    if dice and left(state, f, "hacker") > 0:
        out += [Move("hacker", d) for d in dice]
    if left(state, f, "workshop") > 0:
        out.append(Move("workshop"))
    if dice and pool > 0:
        city = state.city
        for cell in garden_cells(state, f):
            if not state.blocs[cell][f] or state.police(cell):
                continue
            for combo in spread(state, [c.id for c in city.touching[cell]], 3, pool):
                out += [Move("garden", d, extra=combo) for d in dice]
    return out


def spread(state: BlocState, conns: list[str], k: int, pool: int) -> list[tuple[str, ...]]:
    """The ways to put up to ``k`` barricades on ``conns`` (as many as room and the pool allow)."""
    room = {c: MAX_BARRICADES - state.barricades.get(c, 0) for c in conns}
    total = min(k, pool, sum(room.values()))
    if total <= 0:
        return []
    return [combo for combo in combinations_with_replacement(sorted(c for c in conns if room[c] > 0), total)
            if all(combo.count(c) <= room[c] for c in set(combo))]


def card_options(state: BlocState, f: int, dice: list[int], pool: int) -> list[Move]:
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
                # as many as the pool and the room allow, down to one (cards.md decision 23)
                for combo in spread(state, [c.id for c in city.touching[cell]], 2, pool):
                    if combo not in seen:
                        seen.add(combo)
                        out.append(Move("dumpster", extra=combo))
    return out
