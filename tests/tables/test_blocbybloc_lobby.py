"""Bloc by Bloc's options at the table (issue 25): the lobby card says how many players the chosen options need, a
scenario chosen later brings the mode it is played in, a cancelled semi-cooperative game reveals its agendas, and a
profile keeps a semi-cooperative game everybody lost with the semi-cooperative record."""

from __future__ import annotations

import dataclasses

import pytest

from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.agendas import AGENDAS, third_person
from storage.records import ResultRow
from tables import Refusal, TableService
from tables.community import _extra
from tests.tables.helpers import ALICE, BOB, CARL, CH, lobby, read

G = BlocByBloc()


async def card_words(svc: TableService, tid: int) -> str:
    return svc.presenter.lobby_card(await read(svc, tid)).post.description


async def test_the_lobby_card_says_how_many_players_the_options_need(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, game="blocbybloc")
    assert "Needs 2–4 players." in await card_words(svc, tid)
    await svc.set_options(CH, ALICE, "mode=semi")
    assert "Needs 3–4 players." in await card_words(svc, tid)
    await svc.set_options(CH, ALICE, "mode=coop scenario=zone-2")
    assert "Needs 2 or 4 players." in await card_words(svc, tid)


async def test_a_scenario_chosen_later_brings_the_mode_it_is_played_in(svc: TableService) -> None:
    """The table was opened fully cooperative; Let the Infighting Begin! is played semi only, Routine Traffic Stop
    fully cooperative only: each takes its mode, and a mode the host types with it is still checked."""
    tid = await lobby(svc, ALICE, BOB, CARL, game="blocbybloc", options="difficulty=easy")
    await svc.set_options(CH, ALICE, "scenario=infighting")
    options = (await read(svc, tid)).options
    assert (options["scenario"], options["mode"], options["difficulty"]) == ("infighting", "semi", "easy")
    await svc.set_options(CH, ALICE, "scenario=traffic")
    options = (await read(svc, tid)).options
    assert (options["scenario"], options["mode"], options["difficulty"]) == ("traffic", "coop", "easy")
    with pytest.raises(Refusal, match="semi-cooperative"):
        await svc.set_options(CH, ALICE, "scenario=infighting mode=coop")
    assert (await read(svc, tid)).options["scenario"] == "traffic", "a refusal changes nothing"


async def test_a_cancelled_semi_cooperative_game_reveals_every_agenda(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB, CARL, game="blocbybloc", options="mode=semi")
    await svc.start(tid, ALICE)
    table = await read(svc, tid)
    assert table.state is not None
    state = G.load(table.state)
    out = await svc.cancel(CH, ALICE)
    text = out.public[0].description
    assert text.startswith("Game cancelled by Alice.") and "Agendas revealed" in text, text
    for f in state.order:
        assert AGENDAS[state.agendas[f]].name in text
    assert all(name in text for name in ("Alice", "Bob", "Carl")), "each agenda with its player's name"


def test_an_agenda_said_to_everybody_speaks_of_its_faction() -> None:
    """The end of a game quotes the deciding objective to the whole channel: "their occupations", not "your"."""
    for agenda in AGENDAS.values():
        for option in agenda.options:
            said = third_person(option.text)
            assert not {"you", "your"} & set(said.replace(",", " ").split()), said


def row(**changes: object) -> ResultRow:
    fields = {f.name: None for f in dataclasses.fields(ResultRow)}
    base = dict(fields, table_id=1, seat=0, guild_id=7, game="blocbybloc", player="1", user_id=1, name="Alice",
                place=1, seats=3, score=0.0, outcome="loss", left_how="", role="Workers",
                setup="3 players, mode=semi, difficulty=hard", rung="", cooperative=False, rated=True,
                unrated_why="", turns=10, turn_seconds=0.0)
    return ResultRow(**{**base, **changes})  # type: ignore[arg-type]


def test_a_semi_cooperative_game_everybody_lost_counts_in_the_semi_cooperative_record() -> None:
    rows = [row(outcome="win"), row(outcome="loss", cooperative=True, rated=False),
            row(outcome="loss", cooperative=True, setup="3 players, difficulty=hard")]
    words = _extra(rows)
    assert "Semi-cooperative: won 1 of 2 (1 as the only winner)" in words, words
    assert "Together: won 0 of 1" in words, words


def test_the_rules_list_every_scenario_as_the_engine_has_it() -> None:
    """docs/games/blocbybloc.md (the full rules /rules shows) lists the ten scenarios line by line as
    ``scenarios.lobby_lines`` says them: a changed goal or player count changes the rules page too."""
    from pathlib import Path

    from engine.blocbybloc.scenarios import lobby_lines

    rules = (Path(__file__).parents[2] / "docs" / "games" / "blocbybloc.md").read_text(encoding="utf-8")
    missing = [line for line in lobby_lines() if f"- {line}\n" not in rules]
    assert not missing, missing
