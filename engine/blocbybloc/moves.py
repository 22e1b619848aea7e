"""Bloc by Bloc moves and their notation (parse and format round-trip; case-insensitive when typed).

Cells are written ``C3``, connections ``B3-C3`` (a street) or ``C5:SW`` (a highway link), dice 1–6 (``0``: a free
movement), factions in losses by letter ``W S N P``::

    start C2                         setup: the Faction Start
    move 3 B3 C4 2                   2 blocs from B3 to C4 with a 3 (``move 0 …``: a free movement)
    barricade 2 B3-C3                one barricade
    loot 5 A3 | loot 5 A3 burn       graffiti a clean centre, or burn a graffitied one (``… crowbar``: any die)
    build 6 B1 kitchen | swap 6 B1 hall [crowbar]
    defeat 6 D5 [molotov2 …] | van 6 D5 [molotov1 …] | kick 6 D5 C4-D5
    hall 2 | hacker 3 | workshop | garden 4 B3-C3 B3-C3 B3-B4       occupation abilities
    energy 3 | jammer | scanner | megaphone C4 | bicycles B3 C4 2 | clothes D5 C4 2 | dumpster B3-C3 B3-B4
    fireworks D5 C4-D5 2                                              loot cards of your turn
    end
    allow | stop                     a declared advanced action, by the faction with the most blocs there
    discard molotov1                 the card not kept (Scavenger's Hideout, Hacker Space)
    reroll | accept                  Lookouts, after a reaction roll
    order 2 1 3                      Police Scanner: the seen cards back on top in this order (top first)
    give S medic [from N]            a loot card to the Students, who share a district with you; ``from N``: the
                                     Neighbors give it (the other side of an exchange, in someone else's turn)
    offer S molotov1 medic for 1 [from N]   a trade: these cards for 1 card of the Students', their pick
    accept 3 banner | decline 3      answer trade offer #3 (accepting names the cards you give)
    split C3 W2 S1                   losses in a mixed clash at Sunrise
    shield C3 | paint D5 | medic C3 | banner C3 | communique | pass     Sunrise windows
    place C3                         a bloc saved by a Medic Kit
    wall B3-C3 | squat C4 kitchen | rout C3 | burn D5 | drop 2          manifestation cards' choices
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.base import NotationError
from engine.blocbybloc.city import cell_name, parse_cell
from engine.blocbybloc.model import LETTERS, LOOT_NAMES, OCCUPATION_NAMES

MOLOTOVS = ("molotov1", "molotov2", "molotov3")
STRENGTH = {"molotov1": 1, "molotov2": 2, "molotov3": 3}
BARE = ("end", "allow", "stop", "pass", "reroll", "accept", "jammer", "scanner", "workshop", "communique")
ON_CELL = ("start", "megaphone", "medic", "shield", "paint", "banner", "place", "rout", "burn")
WITH_DIE = ("hall", "energy", "hacker")
ADVANCED = ("loot", "build", "swap")
ATTACKS = ("defeat", "kick", "van")
SPLIT = re.compile(r"^([WSNP])(\d+)$")


@dataclass(unsafe_hash=True, slots=True)  # not frozen: a frozen dataclass's __init__ sets each field through
class Move:  # object.__setattr__, ~6 times slower, and legal_moves builds thousands (never change a Move: it is hashed)
    kind: str
    die: int = 0
    cell: int = -1
    to: int = -1
    n: int = 0
    conn: str = ""
    occ: str = ""
    burn: bool = False
    losses: tuple[int, ...] = ()  # split: by faction
    extra: tuple[str, ...] = ()  # Molotovs played with an attack, "crowbar", connections (dumpster, garden),
    # the scanner's order, the card discarded, the cards given (give, offer, accept; sorted)
    frm: int = -1  # give, offer: the faction giving when it is not the one whose turn it is

    @property
    def crowbar(self) -> bool:
        return "crowbar" in self.extra

    @property
    def molotovs(self) -> tuple[str, ...]:
        return tuple(c for c in self.extra if c in MOLOTOVS)


def _cell(text: str) -> int:
    cell = parse_cell(text)
    if cell is None:
        raise NotationError(f"`{text}` is not a district (A1–E5).")
    return cell


def conn_id(text: str) -> str:
    t = text.strip().upper()
    if re.fullmatch(r"[A-E][1-5]-[A-E][1-5]", t):
        a, b = sorted(t.split("-"), key=lambda c: parse_cell(c) or 0)
        return f"{a}-{b}"
    if re.fullmatch(r"[A-E][1-5]:(NE|SE|SW|NW)", t):
        return t
    raise NotationError(f"`{text}` is not a connection (`B3-C3`, or a highway link `C5:SW`).")


def _die(text: str) -> int:
    die = int(text)
    if not 0 <= die <= 6:
        raise NotationError("A die is 1–6 (0: a free movement).")
    return die


def parse(text: str) -> Move:
    words = text.strip().split()
    if not words:
        raise NotationError("Type a move, e.g. `move 3 B3 C4 2` or `end`.")
    kind, args = words[0].lower(), words[1:]
    try:
        move = _parse(kind, args)
    except (ValueError, IndexError):
        move = None
    if move is None:
        raise NotationError(f"Could not read `{text}`: try `move 3 B3 C4 2`, `build 5 C2 kitchen`, `end`.")
    return move


def _parse(kind: str, args: list[str]) -> Move | None:
    low = [a.lower() for a in args]
    if kind == "accept" and args:
        return Move("accept", n=int(args[0]), extra=_cards(low[1:]))
    if kind in BARE:
        return Move(kind) if not args else None
    if kind in ON_CELL:
        return Move(kind, cell=_cell(args[0])) if len(args) == 1 else None
    if kind in WITH_DIE:
        return Move(kind, _die(args[0])) if len(args) == 1 else None
    if kind == "split" and args:
        losses = [0, 0, 0, 0]
        for w in args[1:]:
            m = SPLIT.match(w.upper())
            if not m:
                raise NotationError(f"`{w}`: write losses as W2 S1 (W S N P).")
            losses[LETTERS.index(m.group(1))] += int(m.group(2))
        return Move("split", cell=_cell(args[0]), losses=tuple(losses))
    if kind == "move" and len(args) == 4:
        return Move("move", _die(args[0]), _cell(args[1]), _cell(args[2]), int(args[3]))
    if kind in ("bicycles", "clothes") and len(args) == 3:
        return Move(kind, cell=_cell(args[0]), to=_cell(args[1]), n=int(args[2]))
    if kind == "barricade" and len(args) == 2:
        return Move("barricade", _die(args[0]), conn=conn_id(args[1]))
    if kind == "dumpster" and 1 <= len(args) <= 2:
        return Move("dumpster", extra=tuple(sorted(conn_id(a) for a in args)))
    if kind == "garden" and 2 <= len(args) <= 4:
        return Move("garden", _die(args[0]), extra=tuple(sorted(conn_id(a) for a in args[1:])))
    if kind == "fireworks" and len(args) == 3:
        return Move("fireworks", cell=_cell(args[0]), conn=conn_id(args[1]), n=int(args[2]))
    if kind == "loot" and 2 <= len(args) <= 4:
        flags = set(low[2:])
        if not flags <= {"burn", "crowbar"} or len(flags) != len(low[2:]):
            return None
        return Move("loot", _die(args[0]), _cell(args[1]), burn="burn" in flags,
                    extra=("crowbar",) if "crowbar" in flags else ())
    if kind in ("build", "swap") and len(args) in (3, 4):
        if low[2] not in OCCUPATION_NAMES:
            raise NotationError(f"No occupation `{args[2]}`: {', '.join(OCCUPATION_NAMES)}.")
        if len(args) == 4 and low[3] != "crowbar":
            return None
        return Move(kind, _die(args[0]), _cell(args[1]), occ=low[2], extra=("crowbar",) if len(args) == 4 else ())
    if kind in ("defeat", "van") and len(args) >= 2:
        cards = low[2:]
        if any(c not in MOLOTOVS for c in cards):
            raise NotationError("Only Molotovs go with an attack: `defeat 6 D5 molotov2`.")
        return Move(kind, _die(args[0]), _cell(args[1]), extra=tuple(sorted(cards)))
    if kind == "kick" and len(args) == 3:
        return Move("kick", _die(args[0]), _cell(args[1]), conn=conn_id(args[2]))
    if kind in ("give", "offer"):
        return _exchange(kind, low)
    if kind == "decline" and len(args) == 1:
        return Move("decline", n=int(args[0]))
    if kind == "wall" and len(args) == 1:
        return Move("wall", conn=conn_id(args[0]))
    if kind == "squat" and len(args) == 2:
        if low[1] not in OCCUPATION_NAMES:
            raise NotationError(f"No occupation `{args[1]}`.")
        return Move("squat", cell=_cell(args[0]), occ=low[1])
    if kind == "drop" and len(args) == 1:
        return Move("drop", n=int(args[0]))
    if kind == "discard" and len(args) == 1:
        if low[0] not in LOOT_NAMES:
            raise NotationError(f"No loot card `{args[0]}`.")
        return Move("discard", extra=(low[0],))
    if kind == "order" and 1 <= len(args) <= 3:
        order = tuple(str(int(a)) for a in args)
        return Move("order", extra=order)
    return None


def _cards(words: list[str]) -> tuple[str, ...]:
    for w in words:
        if w not in LOOT_NAMES:
            raise NotationError(f"No loot card `{w}`: {', '.join(LOOT_NAMES)}.")
    if not words:
        raise NotationError("Name the cards, e.g. `medic` or `molotov1`.")
    return tuple(sorted(words))


def _exchange(kind: str, low: list[str]) -> Move | None:
    """``give S medic [from N]`` and ``offer S molotov1 medic for 1 [from N]``."""
    frm = -1
    if len(low) >= 2 and low[-2] == "from":
        if low[-1].upper() not in LETTERS:
            return None
        frm, low = LETTERS.index(low[-1].upper()), low[:-2]
    if not low or low[0].upper() not in LETTERS:
        return None
    to = LETTERS.index(low[0].upper())
    if kind == "give":
        return Move("give", to=to, extra=_cards(low[1:]), frm=frm) if len(low) == 2 else None
    if len(low) < 4 or low[-2] != "for":
        return None
    return Move("offer", to=to, n=int(low[-1]), extra=_cards(low[1:-2]), frm=frm)


def format_move(move: Move) -> str:
    k = move.kind
    if k in BARE and not move.n:
        return k
    if k in ON_CELL:
        return f"{k} {cell_name(move.cell)}"
    if k in WITH_DIE:
        return f"{k} {move.die}"
    if k == "split":
        return " ".join(["split", cell_name(move.cell), *(f"{LETTERS[f]}{n}" for f, n in enumerate(move.losses) if n)])
    if k == "move":
        return f"move {move.die} {cell_name(move.cell)} {cell_name(move.to)} {move.n}"
    if k in ("bicycles", "clothes"):
        return f"{k} {cell_name(move.cell)} {cell_name(move.to)} {move.n}"
    if k == "barricade":
        return f"barricade {move.die} {move.conn}"
    if k == "dumpster":
        return " ".join(["dumpster", *move.extra])
    if k == "garden":
        return " ".join(["garden", str(move.die), *move.extra])
    if k == "fireworks":
        return f"fireworks {cell_name(move.cell)} {move.conn} {move.n}"
    if k == "loot":
        return " ".join(["loot", str(move.die), cell_name(move.cell), *(["burn"] if move.burn else []), *move.extra])
    if k in ("build", "swap"):
        return " ".join([k, str(move.die), cell_name(move.cell), move.occ, *move.extra])
    if k == "kick":
        return f"kick {move.die} {cell_name(move.cell)} {move.conn}"
    if k in ("give", "offer"):
        words = [k, LETTERS[move.to], *move.extra, *(["for", str(move.n)] if k == "offer" else [])]
        return " ".join(words + ([f"from {LETTERS[move.frm]}"] if move.frm >= 0 else []))
    if k == "accept" and move.n:
        return " ".join(["accept", str(move.n), *move.extra])
    if k == "decline":
        return f"decline {move.n}"
    if k == "wall":
        return f"wall {move.conn}"
    if k == "squat":
        return f"squat {cell_name(move.cell)} {move.occ}"
    if k == "drop":
        return f"drop {move.n}"
    if k in ("defeat", "van"):
        return " ".join([k, str(move.die), cell_name(move.cell), *move.extra])
    if k in ("discard", "order"):
        return " ".join([k, *move.extra])
    raise ValueError(f"unknown move kind {k!r}")


def blocs(n: int) -> str:
    return f"{n} bloc{'s' if n != 1 else ''}"


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
