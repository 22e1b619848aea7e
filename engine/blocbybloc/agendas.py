"""The agenda deck of the semi-cooperative game (play part D4): ten cards of two options each. ``C`` options (Win
Cooperatively) need the insurrection, or the scenario's goal, to succeed at this check as well; ``A`` options (Win
Alone) do not, and are checked at every Next Night step (D3 step 3). This module holds the cards as data and
words; the engine checks their objectives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.blocbybloc.city import FACTION_TYPES, PUBLIC, STATE
from engine.blocbybloc.model import BLOCS
from engine.blocbybloc.scenarios import scenario
from engine.rng import Rng

if TYPE_CHECKING:
    from engine.blocbybloc.model import BlocState

COOPERATIVE, ALONE = "C", "A"
VANGUARDIST, SECTARIAN, NIHILIST = 8, 9, 10


@dataclass(frozen=True)
class Option:
    kind: str  # C or A
    text: str  # the objective, in words (second person: read by its holder)
    name: str = ""  # a Win Alone option's name ("Vanguardist")


@dataclass(frozen=True)
class Agenda:
    number: int  # 1–10
    name: str
    options: tuple[Option, Option]


AGENDAS: dict[int, Agenda] = {a.number: a for a in (
    Agenda(1, "Autonomist", (Option("C", "at least 2 of your own districts liberated"),
                             Option("C", "every one of your own districts holds your occupation"))),
    Agenda(2, "Communard", (Option("C", "at least 2 Public districts liberated"),
                            Option("C", "at least 6 districts liberated in all"))),
    Agenda(3, "Insurrectionist", (Option("C", "your occupations in at least 2 State districts"),
                                  Option("C", "a liberated State district holds your occupation"))),
    Agenda(4, "Abolitionist", (Option("C", "at least 2 riot vans destroyed in the game"),
                               Option("C", "at most 8 riot cops in the city"))),
    Agenda(5, "Expropriator", (Option("C", "you hold at least 5 loot cards"),
                               Option("C", "at least 6 burn tokens placed in the game"))),
    Agenda(6, "Mutual Aid", (Option("C", "every faction in play has an occupation in the city"),
                             Option("C", "every faction in play has at least 4 blocs in the city"))),
    Agenda(7, "Mass Line", (Option("C", "all 10 of your blocs in the city"),
                            Option("C", "your blocs in at least 5 different districts"))),
    Agenda(8, "Vanguardist", (Option("C", "your occupations in at least 2 State districts"),
                              Option("A", "your occupations in at least 3 State districts", "Vanguardist"))),
    Agenda(9, "Sectarian", (Option("C", "every one of your own districts holds your occupation"),
                            Option("A", "every one of your own districts liberated and at least 4 of your "
                                        "occupations in the city", "Sectarian"))),
    Agenda(10, "Nihilist", (Option("C", "you destroyed at least 1 riot van"),
                            Option("A", "at least 8 burn tokens placed and at least 2 riot vans destroyed in the "
                                        "game", "Nihilist"))),
)}


def own_districts(state: BlocState, f: int) -> list[int]:
    """The districts of ``f``'s type in the city (play part D4's "own districts")."""
    return state.city.of_type(FACTION_TYPES[f])


def _occupied_by(state: BlocState, f: int, cells: list[int]) -> int:
    return sum(1 for c in cells if state.occ_owner[c] == f)


def _every_own_occupied(state: BlocState, f: int) -> bool:
    own = own_districts(state, f)
    return bool(own) and all(state.occ_owner[c] == f for c in own)


def _objective(state: BlocState, f: int, number: int, index: int) -> bool:
    """Whether faction ``f`` meets option ``index`` (0 or 1) of card ``number`` now: play part D4's table, term by
    term; every term reads the current state but the game's counters ``burned``, ``vans_destroyed`` and
    ``vans_destroyed_by``."""
    states = state.city.of_type(STATE)
    key = (number, index)
    if key == (1, 0):
        return sum(1 for c in own_districts(state, f) if state.liberated[c]) >= 2
    if key in ((1, 1), (9, 0)):
        return _every_own_occupied(state, f)
    if key == (2, 0):
        return sum(1 for c in state.city.of_type(PUBLIC) if state.liberated[c]) >= 2
    if key == (2, 1):
        return sum(1 for c in state.city.districts if state.liberated[c]) >= 6
    if key in ((3, 0), (8, 0)):
        return _occupied_by(state, f, states) >= 2
    if key == (3, 1):
        return any(state.liberated[c] and state.occ_owner[c] == f for c in states)
    if key == (4, 0):
        return state.vans_destroyed >= 2
    if key == (4, 1):
        return sum(state.cops[c] for c in state.city.districts) <= 8
    if key == (5, 0):
        return len(state.hands[f]) >= 5
    if key == (5, 1):
        return state.burned >= 6
    if key == (6, 0):
        return all(any(state.occ_owner[c] == g for c in range(len(state.occ_owner))) for g in state.order)
    if key == (6, 1):
        return all(state.in_city(g) >= 4 for g in state.order)
    if key == (7, 0):
        return state.in_city(f) == BLOCS
    if key == (7, 1):
        return sum(1 for row in state.blocs if row[f] > 0) >= 5
    if key == (8, 1):
        return _occupied_by(state, f, states) >= 3
    if key == (9, 1):
        own = own_districts(state, f)
        return bool(own) and all(state.liberated[c] for c in own) and \
            sum(1 for owner in state.occ_owner if owner == f) >= 4
    if key == (10, 0):
        return state.vans_destroyed_by[f] >= 1
    if key == (10, 1):
        return state.burned >= 8 and state.vans_destroyed >= 2
    raise ValueError(f"no agenda option {key}")


def met(state: BlocState, f: int, option: int) -> bool:
    """Whether faction ``f`` meets every objective of option ``option`` (0 or 1) of its agenda card now; a ``C``
    option's need for the insurrection to succeed is the end check's (:func:`engine.blocbybloc.night.next_night`),
    not this one's. A faction without a card meets nothing."""
    number = state.agendas[f]
    return number > 0 and _objective(state, f, number, option)


def _first_met(state: BlocState, f: int, kind: str) -> Option | None:
    """The first option of kind ``kind`` of ``f``'s agenda whose objectives all hold now (None: none)."""
    number = state.agendas[f]
    return next((o for i, o in enumerate(AGENDAS[number].options) if o.kind == kind and met(state, f, i)),
                None) if number else None


def alone(state: BlocState, f: int) -> Option | None:
    """The Win Alone option of ``f``'s agenda whose objectives all hold now (None: none)."""
    return _first_met(state, f, ALONE)


def together(state: BlocState, f: int) -> Option | None:
    """The first Win Cooperatively option of ``f``'s agenda whose personal objectives all hold now (None: none)."""
    return _first_met(state, f, COOPERATIVE)


def _dealt(factions: list[int], rng: Rng, removed: tuple[int, ...], infighting: bool) -> list[int]:
    """The cards dealt to ``factions`` in order (play part D4; Let the Infighting Begin!'s deal, D5)."""
    if infighting:
        others = [n for n in AGENDAS if n not in (VANGUARDIST, NIHILIST)]
        rng.shuffle(others)
        cards = others[:len(factions)] + [VANGUARDIST, NIHILIST]
    else:
        cards = [n for n in AGENDAS if n not in removed]
    rng.shuffle(cards)
    return cards[:len(factions)]


def deck_of(state: BlocState) -> tuple[tuple[int, ...], bool]:
    """How the game's scenario deals the agendas (play part D5): the cards it removes first, and whether it is Let
    the Infighting Begin!'s deal; the arguments of :func:`deal` and :func:`redraw`."""
    s = scenario(state)
    return (s.removed_agendas, s.key == "infighting") if s is not None else ((), False)


def deal(state: BlocState, rng: Rng, removed: tuple[int, ...] = (), infighting: bool = False) -> None:
    """One agenda card face down to each faction in play, the rest to the box unseen (play part D4); ``removed``
    cards leave the deck first (Asymmetrical Struggle's Nihilist). Let the Infighting Begin! (D5): the Vanguardist
    and the Nihilist are taken out, one of the other 8 set aside per faction, the 2 shuffled in with them, one
    dealt to each faction."""
    for f, card in zip(state.order, _dealt(list(state.order), rng, removed, infighting), strict=True):
        state.agendas[f] = card


def redraw(state: BlocState, mine: set[int], rng: Rng, removed: tuple[int, ...] = (), infighting: bool = False) \
        -> None:
    """Every agenda but those of the factions in ``mine`` drawn again from the cards their seat can't rule out (a
    search must not read them): the deal is made again until it gives ``mine`` the cards they hold, so each other
    faction's card follows the deal's odds given what the seat knows (Let the Infighting Begin!'s deal favours
    the Vanguardist and the Nihilist). Draws depend only on what the seat sees."""
    if not any(state.agendas):
        return
    factions = list(state.order)
    own = [state.agendas[f] for f in factions if f in mine]
    for _ in range(2000):  # the odds of a match are at least 1 in 12 (Infighting's deal, 4 players)
        cards = _dealt(factions, rng, removed, infighting)
        if [c for f, c in zip(factions, cards, strict=True) if f in mine] == own:
            break
    else:  # never met in practice: any cards but the seat's own
        pool = sorted(set(AGENDAS) - set(removed) - set(own))
        rng.shuffle(pool)
        cards = [state.agendas[f] if f in mine else pool.pop() for f in factions]
    for f, card in zip(factions, cards, strict=True):
        state.agendas[f] = card


def third_person(text: str) -> str:
    """An option's objective, written for its holder ("your occupations"), said of its faction ("their")."""
    return re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "they", text))
