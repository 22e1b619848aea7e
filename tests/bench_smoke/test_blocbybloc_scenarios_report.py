"""bench.blocbybloc_scenarios' report (issue 25): the main table counts a cell's wins, Win Alone apart, and the
semi-cooperative table counts, per scenario and table, the games each Win Alone agenda was dealt in and won alone
with, and the goals won with how many factions winning them. A real game's record goes through both."""

from __future__ import annotations

from typing import Any

from bench.blocbybloc_scenarios import WIN_ALONE, Cell, alone_table, play, table


def record(scenario: str, mode: str, level: str, seed: int, *, won: bool = False, winners: int = 0,
           alone_with: str = "", agendas: tuple[str, ...] = (), difficulty: str = "hard") -> dict[str, Any]:
    return {"scenario": scenario, "mode": mode, "players": 4, "difficulty": difficulty, "level": level,
            "seed": seed, "over": True, "won": won, "winners": winners, "alone": bool(alone_with),
            "alone_with": alone_with, "factions": 4, "night": 6, "progress": [1, 3], "reason": "",
            "moves": 100, "agendas": list(agendas), "cpu_s": 1.0}


SEMI_GAMES = [
    record("smash", "semi", "hard", 1000, won=True, winners=1, alone_with="Nihilist",
           agendas=("Mass Line", "Abolitionist", "Nihilist", "Communard")),
    record("smash", "semi", "hard", 1001, won=True, winners=3,
           agendas=("Vanguardist", "Sectarian", "Nihilist", "Communard")),
    record("smash", "semi", "hard", 1002, agendas=("Vanguardist", "Mutual Aid", "Autonomist", "Communard")),
    record("smash", "semi", "hard", 1003, won=True, winners=2, difficulty="easy",
           agendas=("Autonomist", "Mass Line", "Expropriator", "Communard")),
    record("smash", "semi", "medium", 1000, agendas=("Mass Line", "Abolitionist", "Nihilist", "Communard")),
    record("smash", "coop", "hard", 1000, won=True, winners=4),
]


def rows(markdown: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in markdown.splitlines()[2:]]


def test_the_win_alone_options_are_d4s_three() -> None:
    assert WIN_ALONE == ("Vanguardist", "Sectarian", "Nihilist")


def test_the_semi_table_counts_agendas_dealt_and_won_alone_by_scenario_and_table() -> None:
    got = {(r[0], r[1]): r[2:] for r in rows(alone_table(SEMI_GAMES))}
    assert set(got) == {("smash", "hard"), ("smash", "medium")}  # (the cooperative game has no row)
    # 4 games, police pooled: Vanguardist dealt twice, Sectarian once, Nihilist twice and won alone once; two goals
    # won (not the lone win), by 3 and 2 factions
    assert got[("smash", "hard")] == ["4", "2, 0", "1, 0", "2, 1", "2", "2.5 of 4"]
    assert got[("smash", "medium")] == ["1", "0, 0", "0, 0", "1, 0", "0", "–"]


def test_the_main_table_counts_a_lone_win_apart_from_the_tables() -> None:
    got = {(r[0], r[1], r[3], r[4]): r for r in rows(table(SEMI_GAMES))}
    hard = got[("smash", "semi", "hard", "hard")]
    assert hard[5] == "3"  # games at the Hard police
    assert hard[6].startswith("1/3 = 33%")  # the goal won once; the lone win is not the table's
    assert hard[7].startswith("1/3 = 33%")
    assert got[("smash", "coop", "hard", "hard")][7] == "–"


def test_a_played_game_is_a_record_both_tables_read() -> None:
    game = play(Cell("infighting", "semi", 3, "easy", "easy"), 1000)  # random bots: quick
    assert game["over"] and len(game["agendas"]) == 3
    assert game["alone_with"] in ("", *WIN_ALONE) and game["alone"] == bool(game["alone_with"])
    assert rows(table([game]))[0][:6] == ["infighting", "semi", "3", "easy", "easy", "1"]
    assert rows(alone_table([game]))[0][:3] == ["infighting", "easy", "1"]
