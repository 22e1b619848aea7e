"""The ten scenarios of the mini expansion (play part D5): what each changes at setup and the goal that replaces the
insurrection's. This module holds them as data; setup reads the changes and the Next Night step the goals.

Every scenario plays on a random city. 2 and 4 players take the usual setup and then the changes; 3 players take
the 4-player setup (four State districts, no Stadium) with three factions, then the scenario's 3-player line (its
changes replace or add to the 4-player ones as the table says; a scenario without one uses its 4-player changes).
"""

from __future__ import annotations

from dataclasses import dataclass

COOP, SEMI = "coop", "semi"
MODES = (COOP, SEMI)
NONE = "none"
FIRST_HIGHWAY = "highway"  # in ``replace``: the regular highway whose cell comes first in reading order


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
             Lineup(replace=(("d15", "d26"),), police=("State", "d26"), cops=4, countdown=8)),
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
             Lineup(police=STATE_POLICE, start=3, countdown=6)),
    Scenario("asymmetrical", "Asymmetrical Struggle",
             "Every faction has an occupation in a State district, or occupations in all its own districts.",
             (COOP, SEMI), (2, 3, 4),
             Lineup(police=STATE_POLICE, cops=4),
             Lineup(replace=(("d12", "d23"),), police=("State", "d23"), cops=4),
             removed_agendas=(10,)),
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
             gate="no faction can win while a riot cop or van is in either Autonomous Zone"),
    Scenario("infighting", "Let the Infighting Begin!",
             "Every State district holds an occupation; the agenda deal favours the Vanguardist and the Nihilist.",
             (SEMI,), (3, 4),
             Lineup(replace=(("d12", "d26"),), police=("State", "d21"), cops=4, start=3, countdown=6),
             Lineup(replace=(("d12", "d26"),), police=("State", "d21"), cops=4, start=4, countdown=6)),
    Scenario("smash", "Smash the State",
             "Every State district holds an occupation and is liberated.",
             (COOP, SEMI), (2, 3, 4),
             Lineup(police=STATE_POLICE, cops=4),
             Lineup(replace=(("d12", "d23"),), police=("State", "d23"), cops=4)),
    Scenario("zone-2", "Autonomous Zone Phase II",
             "Every liberatable district next to an Autonomous Zone liberated, and no police in either zone.",
             (COOP,), (2, 4),
             Lineup(replace=(("d21", "d25"), (FIRST_HIGHWAY, "d24")), police=STATE_POLICE, cops=4, start=2),
             None),
)}

MODE_WORDS = {COOP: "fully cooperative", SEMI: "semi-cooperative (secret agendas)"}


def why_not(scenario: str, mode: str, seats: int | None, *, city: str = "random", beginner: bool = False,
            overpass: bool = False) -> str:
    """Why these options can't make a game for ``seats`` players ("" when they can; ``seats=None``: not known
    yet, so only what the options alone rule out)."""
    if mode == SEMI and seats is not None and seats < 3:
        return "The semi-cooperative game (`mode=semi`) needs 3 or 4 players: with 2, each runs two factions and " \
               "plays fully cooperatively."
    if scenario == NONE:
        if mode == SEMI and beginner:
            return "The beginner game is fully cooperative: use `mode=coop`, or leave out `beginner`."
        return ""
    s = SCENARIOS[scenario]
    if beginner or city == "beginner":
        left = "beginner" if beginner else "city"
        return f"Scenarios play on a random city, not the beginner game: leave out `{left}`."
    if overpass and any(new == "overpass" for _, new in s.setup.replace):
        return f"{s.name} already puts the Highway Overpass in the city: leave out `overpass`."
    if mode not in s.modes:
        allowed = " or ".join(f"`mode={m}`" for m in s.modes)
        return f"{s.name} is played {MODE_WORDS[s.modes[0]]} only: use {allowed}." if len(s.modes) == 1 else \
            f"{s.name} is played with {allowed}."
    if seats is not None and seats not in s.players:
        counts = ", ".join(str(n) for n in s.players[:-1]) + f" or {s.players[-1]}"
        return f"{s.name} is for {counts} players, not {seats}."
    return ""


def lineup(scenario: str, seats: int) -> Lineup | None:
    """The setup changes of ``scenario`` for ``seats`` players (None: no scenario)."""
    if scenario == NONE:
        return None
    s = SCENARIOS[scenario]
    return s.three if seats == 3 and s.three is not None else s.setup


def lobby_lines() -> list[str]:
    """One line per scenario for the lobby: its name, its goal, the modes and player counts it allows."""
    out = []
    for s in SCENARIOS.values():
        counts = "–".join((str(s.players[0]), str(s.players[-1]))) if s.players == tuple(
            range(s.players[0], s.players[-1] + 1)) else " or ".join(map(str, s.players))
        modes = "/".join(s.modes)
        out.append(f"`{s.key}` {s.name} ({counts} players, {modes}): {s.goal}")
    return out
