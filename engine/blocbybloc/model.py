"""The state of a Bloc by Bloc game and the pieces it counts (play part D1, cards part C2)."""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import Any

from engine.blocbybloc.city import FACTION_TYPES, TILES, City, build_city
from engine.state import copy_state

T = typing.TypeVar("T")

FACTIONS = ("Workers", "Students", "Neighbors", "Prisoners")
LETTERS = "WSNP"  # faction letters in notation
BLOCS = 10
BARRICADES = 40
MAX_BARRICADES = 3  # per connection

COMMON = ("start", "hall", "kitchen")
OWN_OCCUPATIONS = {0: ("strike", "workshop"), 1: ("center", "hacker"), 2: ("garden", "cafe"),
                   3: ("factory", "hideout")}
OCCUPATION_NAMES = {
    "start": "Faction Start", "hall": "Assembly Hall", "kitchen": "People's Kitchen",
    "strike": "Strike Hall", "workshop": "Propaganda Workshop", "center": "Social Center", "hacker": "Hacker Space",
    "garden": "Guerrilla Garden", "cafe": "Comrade Cafe", "factory": "Molotov Factory",
    "hideout": "Scavenger's Hideout",
}

LOOT_COPIES = (
    ("molotov1", 8), ("molotov2", 4), ("molotov3", 2), ("fireworks", 5), ("medic", 5), ("shield", 3), ("paint", 2),
    ("banner", 3), ("communique", 2), ("bicycles", 4), ("dumpster", 4), ("energy", 3), ("lookouts", 3),
    ("crowbar", 3), ("megaphone", 3), ("clothes", 2), ("scanner", 2), ("jammer", 2),
)
LOOT_NAMES = {
    "molotov1": "Molotovs +1", "molotov2": "Molotovs +2", "molotov3": "Molotovs +3", "fireworks": "Fireworks",
    "medic": "Medic Kit", "shield": "Shield Wall", "paint": "Paint Bombs", "banner": "Banner Drop",
    "communique": "Communiqué", "bicycles": "Bicycles", "dumpster": "Dumpster Barricade",
    "energy": "Energy Drinks", "lookouts": "Lookouts", "crowbar": "Crowbar", "megaphone": "Megaphone",
    "clothes": "Change of Clothes", "scanner": "Police Scanner", "jammer": "Radio Jammer",
}
MANIFESTATION_NAMES = {
    "mass_looting": "Mass Looting", "crowd_swells": "The Crowd Swells", "barricade_fever": "Barricade Fever",
    "free_transit": "Free Transit", "momentum": "Momentum", "squatting_wave": "Squatting Wave",
    "police_rout": "Police Rout", "tactical_collapse": "Tactical Collapse", "riot_van_burns": "Riot Van Burns",
    "leaked_patrol_routes": "Leaked Patrol Routes", "whistleblower": "Whistleblower",
    "police_demoralized": "Police Demoralized", "general_strike": "General Strike",
}


class ByLayout(typing.Generic[T]):
    """What ``build`` makes of a city's tiles and rotations, kept for the latest city: recognised by the lists'
    contents (two lists of 25 compared; a state loaded from storage has lists of its own, equal to the last ones)
    without building the key a cache would look up. The kept entry is one tuple, replaced whole: a thread reads it
    once."""

    def __init__(self, build: typing.Callable[[tuple[str, ...], tuple[int, ...]], T]) -> None:
        self._build = build
        self._last: tuple[Any, ...] = (None, None, None)  # the tiles and rotations (copies), the value

    def __call__(self, tiles: list[str], rotations: list[int]) -> T:
        last = self._last
        if tiles == last[0] and rotations == last[1]:
            return typing.cast(T, last[2])
        value = self._build(tuple(tiles), tuple(rotations))
        self._last = (list(tiles), list(rotations), value)
        return value


_city_of = ByLayout(build_city)


def loot_deck() -> list[str]:
    return [card for card, copies in LOOT_COPIES for _ in range(copies)]


def occupations_of(faction: int) -> list[str]:
    return [*COMMON, *OWN_OCCUPATIONS[faction]]


@dataclass
class Pending:
    """A decision owed outside the acting faction's turn panel, or the step that waits on it."""

    kind: str  # start stop split keep lookout scan window place communique
    faction: int  # the faction that answers
    cell: int = -1
    action: str = ""  # stop: the declared action; lookout: the move to carry on with after the roll
    hits: int = 0  # split: the cops attacking; lookout: the roll
    default: list[int] = field(default_factory=list)  # split: the default losses by faction
    answer: list[int] = field(default_factory=list)  # split: the losses chosen (empty: not yet)
    cards: list[str] = field(default_factory=list)  # keep: the cards drawn; scan: the police cards seen (top first)


@dataclass
class Last:
    """The latest move, public: the faction that made it, what it did in words (the channel's own line for it),
    the districts it touched, its kind, and the faction turn it was made in ("night.turn"; "" outside Sunset)."""

    faction: int
    text: str
    cells: list[int] = field(default_factory=list)
    kind: str = ""
    turn: str = ""


@dataclass
class Offer:
    """An open trade offer (cards part C1): the offering faction's cards for ``want`` cards of the other side's,
    its pick when it accepts. Open until answered, or until step 2 ends or one of its cards leaves the hand."""

    id: int
    frm: int  # the offering faction
    to: int  # the faction asked
    cards: list[str]  # the offered cards (sorted)
    want: int  # how many cards the other side gives, of its choice


@dataclass
class BlocState:
    options: dict[str, Any] = field(metadata={"shared": True})
    rng: int
    tiles: list[str] = field(metadata={"shared": True})
    rotations: list[int] = field(metadata={"shared": True})
    under: list[str]  # the manifestation card under each cell ("" once drawn)
    spare: list[str] = field(metadata={"shared": True})  # the 3 manifestation cards left in the box, unseen
    city_seed: int
    order: list[int]  # factions in play, in seat order (turn order from the first-faction marker)
    controller: list[int]  # by faction: the seat playing it (-1: not in play)
    liberated: list[bool]
    shops: list[list[int]]  # by cell: each shopping centre 0 clean, 1 graffiti, 2 burned
    blocs: list[list[int]]  # by cell, by faction
    occ_owner: list[int]  # by cell (-1: none)
    occ_kind: list[str]  # by cell ("" none)
    mats: list[list[str]]  # by faction: occupations on its mat
    cops: list[int]  # by cell
    vans: list[int]  # by cell: -1 none, else damage 0 upright, 1 on its side, 2 upside down
    vans_box: int  # destroyed vans
    barricades: dict[str, int]  # by connection id
    morale: int  # 1 Timid … 5 Deadly
    police_deck: list[str]  # the top card is the last
    police_discard: list[str]
    lockdown: int  # the faction the Metro Lockdown card lies in front of (-1: none)
    loot_deck: list[str]
    loot_discard: list[str]
    hands: list[list[str]]  # by faction
    countdown: int  # nights left, counting the current one
    night: int = 1
    first: int = 0  # index into order: the first-faction marker
    phase: str = "start"  # start | sunset | sunrise | over
    turn: int = 0  # index into this night's turn order (0 = the first faction)
    dice: list[int] = field(default_factory=list)
    used: dict[str, int] = field(default_factory=dict)  # this turn's uses: hall workshop hacker social factory jammer
    stopped: list[str] = field(default_factory=list)  # "loot:12": action kinds barred in a district this turn
    attacked: dict[str, int] = field(default_factory=dict)  # "f:cell" → attack actions this night
    run: int = -1  # the district of the open run of attacks (-1: none)
    free_moves: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # Free Transit, by faction
    momentum: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # Momentum dice owed, by faction
    pending: list[Pending] = field(default_factory=list)
    offers: list[Offer] = field(default_factory=list)  # open trade offers, oldest first
    offers_made: int = 0  # trade offers made this game (their numbers)
    window: str = ""  # an open Sunrise loot window: "repression" or "liberation"
    window_turn: int = 0  # index into the night's order of the faction asked next
    window_passes: int = 0  # factions in a row that passed (or had nothing to play)
    shields: dict[str, int] = field(default_factory=dict)  # cell → Shield Walls played this Sunrise
    paints: list[int] = field(default_factory=list)  # cells whose van a Paint Bombs stopped this Sunrise
    medics: list[list[int]] = field(default_factory=list)  # [faction, cell] per Medic Kit played this Sunrise
    defeated: list[list[int]] = field(default_factory=list)  # by cell, by faction: blocs defeated this Sunrise
    banners: dict[str, int] = field(default_factory=dict)  # cell → Banner Drops played this Sunrise
    liberating: list[int] = field(default_factory=list)  # cells still to liberate this Sunrise, in order
    reveal: list[int] = field(default_factory=lambda: [0, 0, -1])  # pooled reveal: cards, discards, chooser
    vans_destroyed: int = 0
    vans_destroyed_by: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # by faction: by its attacks
    burned: int = 0  # burn tokens ever placed (play part D4's ``burned``)
    agendas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # by faction: its agenda card (0: none)
    last_police: list[str] = field(default_factory=list)  # the police ops cards of the latest turn or Sunrise
    last: Last | None = field(default=None, metadata={"shared": True})  # the latest move (None: none yet, or a game
    # stored before it was recorded); never changed in place (each move records a new one), so copies share it
    outcome: str = ""  # "" while playing, then "win" or "loss"
    winners: list[int] = field(default_factory=list)  # the factions that won, once over (fully cooperative: all)
    reason: str = ""
    ply: int = 0

    @property
    def city(self) -> City:
        """The city of the tiles (built once per layout; the latest one found without a key: :class:`ByLayout`)."""
        return _city_of(self.tiles, self.rotations)

    def clone(self) -> BlocState:
        return copy_state(self)

    def faction_now(self) -> int:
        """The faction whose Sunset turn it is."""
        return self.order[(self.first + self.turn) % len(self.order)]

    def night_order(self) -> list[int]:
        n = len(self.order)
        return [self.order[(self.first + i) % n] for i in range(n)]

    def difficulty(self, cell: int) -> int:
        tile = TILES[self.tiles[cell]]
        return tile.difficulty - (1 if self.liberated[cell] else 0)

    def police(self, cell: int) -> bool:
        return self.cops[cell] > 0 or self.vans[cell] >= 0

    def in_city(self, faction: int) -> int:
        return sum(row[faction] for row in self.blocs)

    def on_mat(self, faction: int) -> int:
        return BLOCS - self.in_city(faction)

    def may_build(self, faction: int, cell: int) -> bool:
        tile = TILES[self.tiles[cell]]
        return tile.circle and tile.type in (FACTION_TYPES[faction], "State", "Public")

    def occupation_cell(self, faction: int, kind: str) -> int:
        kinds = self.occ_kind
        if kind not in kinds:  # (most asks: none built; the scan is C's)
            return -1
        owners = self.occ_owner
        return next((c for c, k in enumerate(kinds) if k == kind and owners[c] == faction), -1)
