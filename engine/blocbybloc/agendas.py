"""The agenda deck of the semi-cooperative game (play part D4): ten cards of two options each. ``C`` options (Win
Cooperatively) need the insurrection, or the scenario's goal, to succeed at this check as well; ``A`` options (Win
Alone) do not, and are checked at every Next Night step (D3 step 3). This module holds the cards as data and
words; the engine checks their objectives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

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


def describe(number: int) -> str:
    """The card in words, both options: "Vanguardist — win together: …; or win alone: …"."""
    agenda = AGENDAS[number]
    parts = [("win alone" if o.kind == ALONE else "win together") + ": " + o.text for o in agenda.options]
    return f"{agenda.name}: {parts[0]}; or {parts[1]}."


def deal(state: BlocState, rng: Rng, removed: tuple[int, ...] = (), infighting: bool = False) -> None:
    """One agenda card face down to each faction in play, the rest to the box unseen (play part D4); ``removed``
    cards leave the deck first (Asymmetrical Struggle's Nihilist). Let the Infighting Begin! (D5): the Vanguardist
    and the Nihilist are taken out, one of the other 8 set aside per faction, the 2 shuffled in with them, one
    dealt to each faction."""
    factions = list(state.order)
    if infighting:
        others = [n for n in AGENDAS if n not in (VANGUARDIST, NIHILIST)]
        rng.shuffle(others)
        cards = others[:len(factions)] + [VANGUARDIST, NIHILIST]
    else:
        cards = [n for n in AGENDAS if n not in removed]
    rng.shuffle(cards)
    for f, card in zip(factions, cards, strict=False):
        state.agendas[f] = card
