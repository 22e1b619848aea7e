"""Bloc by Bloc's pictures with a scenario and in the semi-cooperative game: the board names the scenario, its goal and
the mode; a seat's own picture shows its agenda (its name, both options, the one that wins alone said in words);
nobody else's picture shows it while the game runs, and every picture shows every agenda once it is over. Every
text is drawn at 18 px or more (9 px on a phone showing the picture 400 px wide), read from what the renderer
records."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.agendas import AGENDAS, ALONE
from engine.blocbybloc.model import FACTIONS, BlocState
from engine.blocbybloc.scenarios import SCENARIOS, SEMI
from render import blocbybloc as picture
from render.common import recording
from tests.render.png_helpers import decode

G = BlocByBloc()
NAMES = ["alice", "bob", "carol", "dana"]
PHONE_MIN = 18  # px in the 800-px picture: 9 px when a phone shows it 400 px wide


def words(view: dict, seats: int) -> tuple[list[str], bytes]:
    """Every text the picture of ``view`` sets, and the picture (drawn afresh: the renderer's cache is skipped)."""
    picture._recent.clear()
    with recording() as seen:
        png = picture.render(view, NAMES[:seats])  # type: ignore[arg-type]
    small = [(s.text, s.size) for s in seen if not s.decorative and s.size < PHONE_MIN]
    assert not small, f"texts under 9 px on a phone: {small[:5]}"
    return [s.text for s in seen], png


def playing(seats: int, scenario: str, seed: int, plies: int = 12) -> BlocState:
    """A semi-cooperative game some random moves in (and still going)."""
    state = G.new_game(seats, {"mode": SEMI, "scenario": scenario}, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if G.result(state) is not None:
            break
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, rng.choice(G.legal_moves(state, seat)))
    return state


def secret_words(state: BlocState, faction: int) -> list[str]:
    agenda = AGENDAS[state.agendas[faction]]
    return [agenda.name, *(o.text for o in agenda.options)]


def cases() -> Iterator[tuple[int, str, int]]:
    semi = ["none", *(k for k, s in SCENARIOS.items() if SEMI in s.modes)]
    for i, scenario in enumerate(semi):
        yield 3 + i % 2, scenario, 11 + i


@pytest.mark.parametrize(("seats", "scenario", "seed"), list(cases()))
def test_the_board_names_the_scenario_and_mode_and_only_a_seat_sees_its_agenda(seats: int, scenario: str,
                                                                             seed: int) -> None:
    state = playing(seats, scenario, seed)
    assert G.result(state) is None and all(state.agendas[f] for f in state.order)
    public, png = words(dict(G.view(state, None)), seats)
    text = " ".join(public)
    assert decode(png).width == picture.W
    assert "SEMI-COOPERATIVE" in text
    if scenario != "none":
        assert f"SCENARIO: {SCENARIOS[scenario].name}" in text and SCENARIOS[scenario].goal.split()[0] in text
    told = " ".join(t for t in public if not t.startswith("Goal:"))  # (Infighting's goal names two cards: public)
    for f in state.order:
        assert not any(secret in told for secret in secret_words(state, f)), (FACTIONS[f], "public picture")
    for seat in range(seats):
        mine = [f for f in state.order if state.controller[f] == seat]
        own = " ".join(t for t in words(dict(G.view(state, seat)), seats)[0] if not t.startswith("Goal:"))
        for f in mine:
            agenda = AGENDAS[state.agendas[f]]
            assert f"Your secret agenda: {agenda.name}" in own
            for o in agenda.options:  # every option's words, wrapped over lines: its first and last word
                first, last = o.text.split()[0], o.text.split()[-1]
                assert first in own and last in own
            assert ("WIN ALONE" in own) == any(o.kind == ALONE for f in mine for o in AGENDAS[state.agendas[f]].options)
        for f in state.order:
            if f not in mine and state.agendas[f] not in {state.agendas[g] for g in mine}:
                assert AGENDAS[state.agendas[f]].name not in own, (seat, FACTIONS[f])


def test_once_over_every_picture_shows_every_agenda_and_who_won() -> None:
    state = playing(4, "smash", 5)
    lone = state.order[1]
    state.agendas[lone] = 8  # the Vanguardist: its option 2 wins alone
    state.outcome, state.phase, state.winners = "win", "over", [lone]
    state.reason = f"The {FACTIONS[lone]} win alone: Vanguardist."
    for seat in (None, 0):
        text = " ".join(words(dict(G.view(state, seat)), 4)[0])
        assert f"WON BY THE {FACTIONS[lone].upper()}" in text and "WON" in text
        for f in state.order:
            assert f"Agenda: {AGENDAS[state.agendas[f]].name}" in text
        assert "WIN ALONE (Vanguardist)" in text and "Your secret agenda" not in text
