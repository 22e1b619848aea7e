"""What ``BlocByBloc.view`` returns: the typed contract between the engine and its renderer.

Cells are written ``C3``; factions are 0 Workers, 1 Students, 2 Neighbors, 3 Prisoners. A seat's view adds the
loot hands of the factions it plays; every other hand shows only as a count, and the decks, the manifestation
cards under the tiles and the agenda of nobody are never in a view.
"""

# No ``from __future__ import annotations`` here: TypedDict reads NotRequired only from evaluated annotations.
from typing import NotRequired, TypedDict

from engine.base import ResultView


class OccupationView(TypedDict):
    faction: int
    kind: str  # start, hall, kitchen, strike, workshop, center, hacker, garden, cafe, factory, hideout


class CellView(TypedDict):
    cell: str
    tile: str  # d01…d26, hw1…hw3, overpass
    name: str
    type: str  # Workers Students Neighbors Prisoners State Public Commercial Highway
    pid: int  # police ID (0: a highway tile)
    rotation: int
    difficulty: int  # the face-up side's (0: a highway tile)
    liberated: bool
    shops: list[int]  # each shopping centre: 0 clean, 1 graffiti, 2 burned
    metro: bool
    circle: bool
    blocs: list[int]  # by faction
    occupation: OccupationView | None
    cops: int
    van: int  # -1 none, else its damage 0–2
    connections: list[str]


class ConnectionView(TypedDict):
    id: str
    a: str
    b: str
    highway: str  # the highway tile's cell for a link, "" for a street
    barricades: int


class FactionView(TypedDict):
    faction: int
    name: str
    seat: int  # the seat playing it (-1: not in play)
    in_play: bool
    blocs_city: int
    blocs_mat: int
    occupations_mat: list[str]
    loot: int  # cards in hand
    hand: list[str]  # card names: only in the view of the seat that plays this faction


class OfferView(TypedDict):
    id: int
    by: int  # the offering faction
    to: int  # the faction asked
    cards: int  # how many cards are offered
    want: int  # how many are asked for
    names: list[str]  # the offered cards: only for the seats of the two factions


class LastView(TypedDict):
    """The latest move, public: who made it, what it did in words, and the districts it touched."""

    faction: int  # -1: not a faction's (the police, a Sunrise step)
    text: str  # e.g. "the Workers moved 2 blocs from C3 to C4"
    cells: list[str]  # the districts it touched, e.g. ["C3", "C4"]


class AgendaOptionView(TypedDict):
    kind: str  # "C" Win Cooperatively (needs the success as well), "A" Win Alone
    text: str  # its objectives, to its holder ("your occupations in at least 3 State districts")
    name: str  # a Win Alone option's name ("Vanguardist"), else ""


class AgendaView(TypedDict):
    faction: int
    number: int  # 1–10
    name: str
    options: list[AgendaOptionView]


class ScenarioView(TypedDict):
    key: str
    name: str
    goal: str  # one line
    progress: str  # how far the goal is, in words ("3 of 7 highway connections barricaded")
    done: int  # how far the goal is: done of needed (done == needed: the goal holds)
    needed: int


class BlocView(TypedDict):
    game: str
    viewer: int | None
    phase: str  # start | sunset | sunrise | over
    ply: int
    night: int
    countdown: int  # nights left, counting this one
    morale: int  # 1 Timid … 5 Deadly
    morale_name: str
    draws: int  # police ops cards per turn at this morale
    cells: list[CellView]
    connections: list[ConnectionView]
    factions: list[FactionView]
    order: list[int]  # this night's turn order (factions)
    acting: int  # the faction deciding now (-1: none)
    to_act: list[int]
    dice: list[int]  # the acting faction's unused action dice
    pending: str  # "" or the open decision outside a turn: start, stop, split
    prompt: str
    staging_cops: int
    staging_vans: int
    vans_destroyed: int
    barricades_left: int
    police_deck: int
    police_discard: list[str]  # the top three, newest last
    last_police: list[str]  # the police ops cards of the current turn
    lockdown: int  # the faction a Metro Lockdown lies in front of (-1: none)
    loot_deck: int
    offers: list[OfferView]  # open trade offers, oldest first
    difficulty: str
    result: ResultView | None
    mode: str  # "coop" fully cooperative, "semi" semi-cooperative (secret agendas)
    scenario: ScenarioView | None
    agendas: list[AgendaView]  # the viewer's own factions' agendas while the game runs; every faction's once over
    winners: list[int]  # the factions that won, once over (empty while playing, and when everybody lost)
    last: NotRequired[LastView]  # the latest move, once the engine records one (drawn on top and in the city)
