"""The ten scenarios of the mini expansion (play part D5): what each changes at setup and the goal that replaces the
insurrection's. This module holds them as data and checks the goals (:func:`goal_met`, :func:`gated`, with
:func:`progress` and :func:`goal_words` for the board and the bots); setup reads the changes and the Next Night
step the goals.

Every scenario plays on a random city. 2 and 4 players take the usual setup and then the changes; 3 players take
the 4-player setup (four State districts, no Stadium) with three factions, then the scenario's 3-player line (its
changes replace or add to the 4-player ones as the table says; a scenario without one uses its 4-player changes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.blocbybloc.city import COMMERCIAL, FACTION_TYPES, STATE, City
from engine.blocbybloc.city import FIRST_HIGHWAY as FIRST_HIGHWAY  # in ``replace``: see city.replace_in_place

if TYPE_CHECKING:
    from engine.blocbybloc.model import BlocState

COOP, SEMI = "coop", "semi"
MODES = (COOP, SEMI)
NONE = "none"


@dataclass(frozen=True)
class Lineup:
    """A scenario's setup changes for one player count (play part D5)."""

    replace: tuple[tuple[str, str], ...] = ()  # (old tile, new tile): the new one takes the old one's cell
    police: tuple[str, ...] = ()  # "own police": a van in each of these tiles' districts ("State": every State one)
    cops: int = 3  # cops with each van
    start: int = 1  # blocs at each Faction Start
    countdown: int = 8


@dataclass(frozen=True)
class Scenario:
    key: str  # the lobby's ``scenario=`` value
    name: str
    goal: str  # one line: what the factions must achieve (the lobby and the board show it)
    modes: tuple[str, ...]
    players: tuple[int, ...]
    setup: Lineup  # 2 and 4 players
    three: Lineup | None  # 3 players (None: not allowed)
    removed_police: tuple[str, ...] = ()  # police ops cards out of the deck
    removed_agendas: tuple[int, ...] = ()  # agenda cards out of the deck before the deal (semi)
    gate: str = ""  # a condition that blocks every win while it holds, in words ("" none)
    note: str = ""  # what else sets it apart, in words for the lobby ("" nothing)
    brief: str = ""  # the goal short enough for a choice typed in /game new's options, beside the scenario's key and
    # name within Discord's 100 characters ("": the goal itself fits)


STATE_POLICE = ("State",)
ZONES = ("d24", "d25")  # the Autonomous Zones

SCENARIOS: dict[str, Scenario] = {s.key: s for s in (
    Scenario("traffic", "Routine Traffic Stop",
             "Every highway connection holds at least one barricade.",
             (COOP,), (2, 3, 4),
             Lineup(replace=(("d01", "overpass"),), police=STATE_POLICE, cops=5, countdown=6),
             Lineup(replace=(("d01", "overpass"),), police=STATE_POLICE, cops=5, countdown=8)),
    Scenario("company-town", "Burn Down the Company Town",
             "Every shopping centre of every Commercial district is burned.",
             (COOP,), (2, 3, 4),
             Lineup(replace=(("d15", "d26"),), police=("State", "d26"), cops=4, countdown=6),
             Lineup(replace=(("d15", "d26"),), police=("State", "d26"), cops=4, countdown=8),
             brief="Every Commercial shopping centre burned."),
    Scenario("abolish", "Abolish the Police",
             "All six riot vans destroyed and no riot cop left in the city.",
             (COOP,), (2, 3, 4),
             Lineup(police=("d13", "d21", "d08", "d09", "d10", "d11"), start=3),
             Lineup(police=("d13", "d21", "d08", "d09", "d10", "d11"), start=4),
             removed_police=("emergency",)),
    Scenario("occupy", "Occupy Everything",
             "Every faction holds its own occupation in each of its own districts.",
             (COOP,), (2, 3, 4),
             Lineup(police=STATE_POLICE, start=3, countdown=6),
             Lineup(police=STATE_POLICE, start=3, countdown=6),
             brief="Each faction occupies every one of its own districts."),
    Scenario("asymmetrical", "Asymmetrical Struggle",
             "Every faction has an occupation in a State district, or occupations in all its own districts.",
             (COOP, SEMI), (2, 3, 4),
             Lineup(police=STATE_POLICE, cops=4),
             Lineup(replace=(("d12", "d23"),), police=("State", "d23"), cops=4),
             removed_agendas=(10,), brief="Each faction holds a State district or all its own."),
    Scenario("collective", "Collective Liberation",
             "At least ten districts liberated.",
             (COOP,), (2, 3, 4),
             Lineup(police=("d13", "d12", "d21", "d22"), start=2),
             Lineup(police=("d13", "d12", "d21", "d22"), start=4)),
    Scenario("zone-1", "Autonomous Zone Phase I",
             "Every State district holds an occupation, with no police in either Autonomous Zone.",
             (COOP, SEMI), (2, 3, 4),
             Lineup(replace=(("d12", "d24"), ("d21", "d25")), police=("State", "d22"), start=3, countdown=6),
             Lineup(replace=(("d12", "d24"), ("d21", "d25")), police=("State", "d22"), start=3, countdown=8),
             gate="no faction can win while a riot cop or van is in either Autonomous Zone",
             brief="Every State district occupied, no police in either Zone."),
    Scenario("infighting", "Let the Infighting Begin!",
             "Every State district holds an occupation.",
             (SEMI,), (3, 4),
             Lineup(replace=(("d12", "d26"),), police=("State", "d21"), cops=4, start=3, countdown=6),
             Lineup(replace=(("d12", "d26"),), police=("State", "d21"), cops=4, start=4, countdown=6),
             note="The agenda deal favours the Vanguardist and the Nihilist."),
    Scenario("smash", "Smash the State",
             "Every State district holds an occupation and is liberated.",
             (COOP, SEMI), (2, 3, 4),
             Lineup(police=STATE_POLICE, cops=4),
             Lineup(replace=(("d12", "d23"),), police=("State", "d23"), cops=4)),
    Scenario("zone-2", "Autonomous Zone Phase II",
             "Every liberatable district next to an Autonomous Zone liberated, and no police in either zone.",
             (COOP,), (2, 4),
             Lineup(replace=(("d21", "d25"), (FIRST_HIGHWAY, "d24")), police=STATE_POLICE, cops=4, start=2),
             None, brief="Zones police-free, each liberatable neighbour liberated."),
)}

MODE_WORDS = {COOP: "fully cooperative", SEMI: "semi-cooperative (secret agendas)"}


def why_not(scenario: str, mode: str, seats: int | None, *, city: str = "random", beginner: bool = False,
            overpass: bool = False) -> str:
    """Why these options can't make a game for ``seats`` players ("" when they can; ``seats=None``: not known
    yet, so only what the options alone rule out)."""
    s = None if scenario == NONE else SCENARIOS[scenario]
    if s is not None and (beginner or city == "beginner"):
        left = "beginner" if beginner else "city"
        return f"Scenarios play on a random city, not the beginner game: leave out `{left}`."
    if overpass and city == "beginner":
        return "The Highway Overpass is for a random city (the beginner city is fixed): leave out `overpass` or " \
               "`city`."
    if s is not None and seats is not None and seats not in s.players:
        counts = ", ".join(str(n) for n in s.players[:-1]) + f" or {s.players[-1]}"
        return f"{s.name} is for {counts} players, not {seats}."
    if mode == SEMI and seats is not None and seats < 3:
        return "The semi-cooperative game (`mode=semi`) needs 3 or 4 players: with 2, each runs two factions and " \
               "plays fully cooperatively."
    if s is None:
        if mode == SEMI and beginner:
            return "The beginner game is fully cooperative: use `mode=coop`, or leave out `beginner`."
        return ""
    if overpass and any(new == "overpass" for _, new in s.setup.replace):
        return f"{s.name} already puts the Highway Overpass in the city: leave out `overpass`."
    if mode not in s.modes:
        allowed = " or ".join(f"`mode={m}`" for m in s.modes)
        return f"{s.name} is played {MODE_WORDS[s.modes[0]]} only: use {allowed}." if len(s.modes) == 1 else \
            f"{s.name} is played with {allowed}."
    return ""


def lineup(scenario: str, seats: int) -> Lineup | None:
    """The setup changes of ``scenario`` for ``seats`` players (None: no scenario)."""
    if scenario == NONE:
        return None
    s = SCENARIOS[scenario]
    return s.three if seats == 3 and s.three is not None else s.setup


def lobby_lines() -> list[str]:
    """One line per scenario, as the rules list them (docs/games/blocbybloc.md holds these lines): its key, name,
    the player counts and modes it allows, its goal and what else sets it apart."""
    out = []
    for s in SCENARIOS.values():
        counts = "–".join((str(s.players[0]), str(s.players[-1]))) if s.players == tuple(
            range(s.players[0], s.players[-1] + 1)) else " or ".join(map(str, s.players))
        modes = " or ".join(s.modes)
        out.append(f"`{s.key}` **{s.name}** ({counts} players, {modes}): {s.goal}" + (f" {s.note}" if s.note else ""))
    return out


def scenario_of(state: BlocState) -> str:
    """The game's scenario key (``none`` for the base game and games stored before scenarios)."""
    return str(state.options.get("scenario", NONE))


def scenario(state: BlocState) -> Scenario | None:
    """The game's scenario (None: the base game)."""
    return SCENARIOS.get(scenario_of(state))


def seats_of(state: BlocState) -> int:
    """The player count whose lineup applies: 3 when three factions are in play, else 4 (2 and 4 players share
    every line)."""
    return 3 if len(state.order) == 3 else 4


# --- goals (play part D3 step 2, D5's success predicates, D6.13) --------------------------------------------
def _zone_cells(city: City) -> list[int]:
    return [c for c in city.districts if city.tiles[c] in ZONES]


def zone_neighbours(city: City) -> list[int]:
    """Autonomous Zone Phase II's districts (D6.13): the liberatable districts adjacent to either Autonomous Zone
    (a zone adjacent to the other counts too)."""
    zones = _zone_cells(city)
    return sorted({n for z in zones for n in city.adjacent[z] if city.tile(n).liberatable})


def _holds_own(state: BlocState, city: City, f: int) -> bool:
    return all(state.occ_owner[c] == f for c in city.of_type(FACTION_TYPES[f]))


def _police_in_zones(state: BlocState, city: City) -> bool:
    return any(state.police(c) for c in _zone_cells(city))


def _count(items: list[bool]) -> tuple[int, int]:
    return sum(items), len(items)


def _occupied_states(state: BlocState) -> tuple[int, int]:
    return _count([state.occ_owner[c] >= 0 for c in state.city.of_type(STATE)])


def _traffic(state: BlocState) -> tuple[int, int]:
    # "Highway entrances" = highway connections (D6.13): each district-to-district link through a highway tile.
    return _count([state.barricades.get(c.id, 0) > 0 for c in state.city.connections if c.highway is not None])


def _company_town(state: BlocState) -> tuple[int, int]:
    city = state.city
    return _count([mark == 2 for c in city.of_type(COMMERCIAL) for mark in state.shops[c]])


def _abolish(state: BlocState) -> tuple[int, int]:
    # six vans destroyed, then every cop out: one step per van and per cop off the 30 (done = needed exactly when
    # all six are in the box and no cop is in the city)
    return min(state.vans_destroyed, 6) + 30 - sum(state.cops), 36


def _occupy(state: BlocState) -> tuple[int, int]:
    city = state.city
    return _count([state.occ_owner[c] == f for f in state.order for c in city.of_type(FACTION_TYPES[f])])


def _asymmetrical(state: BlocState) -> tuple[int, int]:
    city = state.city
    states = city.of_type(STATE)
    return _count([any(state.occ_owner[c] == f for c in states) or _holds_own(state, city, f) for f in state.order])


def _collective(state: BlocState) -> tuple[int, int]:
    return min(sum(state.liberated), 10), 10


def _smash(state: BlocState) -> tuple[int, int]:
    return _count([state.occ_owner[c] >= 0 and state.liberated[c] for c in state.city.of_type(STATE)])


def _zone_two(state: BlocState) -> tuple[int, int]:
    city = state.city
    done, needed = _count([state.liberated[c] for c in zone_neighbours(city)])
    return done + (0 if _police_in_zones(state, city) else 1), needed + 1


PROGRESS: dict[str, Callable[[BlocState], tuple[int, int]]] = {
    NONE: _occupied_states, "traffic": _traffic, "company-town": _company_town, "abolish": _abolish,
    "occupy": _occupy, "asymmetrical": _asymmetrical, "collective": _collective, "zone-1": _occupied_states,
    "infighting": _occupied_states, "smash": _smash, "zone-2": _zone_two,
}


def progress(state: BlocState) -> tuple[int, int]:
    """How far the goal is: (done, needed), with done == needed exactly when :func:`goal_met` holds."""
    return PROGRESS[scenario_of(state)](state)


def goal_met(state: BlocState) -> bool:
    """The success predicate of play part D3 step 2: without a scenario, every State district holds an occupation;
    with one, its own predicate (D5). Gates (:func:`gated`) are not part of it."""
    done, needed = progress(state)
    return done >= needed


def gated(state: BlocState) -> bool:
    """Autonomous Zone Phase I's gate (D5): a riot cop or van in either Autonomous Zone blocks every win (D3 steps
    3 and 4) while it holds. False in every other game."""
    key = scenario_of(state)
    return key != NONE and bool(SCENARIOS[key].gate) and _police_in_zones(state, state.city)


def goal_words(state: BlocState) -> str:
    """The goal's progress in words: "3 of 7 highway connections barricaded"."""
    key = scenario_of(state)
    done, needed = progress(state)
    city = state.city
    if key == "traffic":
        return f"{done} of {needed} highway connections barricaded"
    if key == "company-town":
        return f"{done} of {needed} Commercial shopping centres burned"
    if key == "abolish":
        cops = sum(state.cops)
        return f"{min(state.vans_destroyed, 6)} of 6 riot vans destroyed, {cops} riot cop{'s' * (cops != 1)} " \
               "in the city"
    if key == "occupy":
        return f"{done} of {needed} own districts hold their faction's occupation"
    if key == "asymmetrical":
        return f"{done} of {needed} factions with a State occupation or all their own districts"
    if key == "collective":
        return f"{min(sum(state.liberated), 10)} of 10 districts liberated"
    if key == "smash":
        return f"{done} of {needed} State districts occupied and liberated"
    if key == "zone-2":
        near = zone_neighbours(city)
        lib = sum(state.liberated[c] for c in near)
        police = "police in an Autonomous Zone" if _police_in_zones(state, city) else "no police in the zones"
        return f"{lib} of {len(near)} districts next to the Autonomous Zones liberated, {police}"
    words = f"{done} of {needed} State districts occupied"
    if gated(state):
        words += " (police in an Autonomous Zone: no win yet)"
    return words

