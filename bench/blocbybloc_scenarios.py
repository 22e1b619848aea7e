"""Bloc by Bloc's scenarios played by tables of bots (issue 25): per scenario, mode and police difficulty, the win rate
of a table of hard bots and of a table of medium bots, and in the semi-cooperative game how often a faction won
alone, each with its 95% Wilson interval.

Every game is one line of JSON appended to ``--out`` as soon as it ends, so a run can be stopped at any time and
resumed (games already in the file are skipped: a cell is its scenario, mode, players, difficulty and level, and
its games are seeds 1000, 1001, ...), or extended (a larger ``--games``). Games are played round by round, one of
each cell per round, so a run stopped early has about as many games in every cell. ``--report`` only prints the
table of what the file holds.

Run from the repository root (one process, niced, on a shared machine)::

    nice python -m bench.blocbybloc_scenarios --games 100                     # every cell, up to 100 games each
    nice python -m bench.blocbybloc_scenarios --scenario traffic,abolish --levels hard --difficulty hard
    python -m bench.blocbybloc_scenarios --report                             # the table so far

The hard bot plays at its default budget (its turn planner looks at about 1,500 positions a move; a count, not a
clock, so its games are reproducible), the medium bot one move ahead. 4 players by default (each seat one
faction; the semi-cooperative game needs 3 or 4): a 2-player game plays the same four factions.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.tournament import wilson
from bots import choose
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.agendas import AGENDAS, ALONE, alone
from engine.blocbybloc.scenarios import SCENARIOS, SEMI, progress
from engine.rng import Rng

OUT = Path("bench/results/blocbybloc_scenarios.jsonl")  # tracked: the games played so far outlast a checkout
MAX_PLIES = 5000
FIRST_SEED = 1000
ORDER = {key: i for i, key in enumerate(SCENARIOS)}  # the tables' rows: scenarios as the rules list them


@dataclass(frozen=True)
class Cell:
    scenario: str
    mode: str
    players: int
    difficulty: str
    level: str

    def key(self) -> tuple[str, str, int, str, str]:
        return self.scenario, self.mode, self.players, self.difficulty, self.level


def play(cell: Cell, seed: int) -> dict[str, Any]:
    """One game of a table of ``cell.level`` bots; what it came to, as a record."""
    game = BlocByBloc()
    options = game.resolve_options({"scenario": cell.scenario, "mode": cell.mode, "difficulty": cell.difficulty})
    state = game.new_game(cell.players, options, seed)
    rng = Rng(seed * 7919 + 1)
    start = time.process_time()
    moves = 0
    for _ in range(MAX_PLIES):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        move = choose(game, state, seat, cell.level, rng, iterations=200)  # a fixed search: the planner untimed
        state, _ = game.apply(state, seat, move)
        moves += 1
    won_alone = alone(state, state.winners[0]) if len(state.winners) == 1 and cell.mode == SEMI else None
    done, needed = progress(state)
    return {
        "scenario": cell.scenario, "mode": cell.mode, "players": cell.players, "difficulty": cell.difficulty,
        "level": cell.level, "seed": seed, "over": game.is_over(state), "won": bool(state.winners),
        "winners": len(state.winners), "alone": won_alone is not None,
        "alone_with": won_alone.name if won_alone is not None else "",  # the Win Alone option that won ("": none)
        "factions": len(state.order), "night": state.night, "progress": [done, needed], "reason": state.reason,
        "moves": moves,
        "agendas": [AGENDAS[state.agendas[f]].name for f in state.order] if cell.mode == SEMI else [],
        "cpu_s": round(time.process_time() - start, 2),
    }


def cells(scenarios: Sequence[str], modes: Sequence[str], players: int, difficulties: Sequence[str],
          levels: Sequence[str]) -> list[Cell]:
    out = []
    for key in scenarios:
        s = SCENARIOS[key]
        if players not in s.players:
            continue
        for mode in modes:
            if mode not in s.modes or (mode == SEMI and players < 3):
                continue
            for difficulty in difficulties:
                for level in levels:
                    out.append(Cell(key, mode, players, difficulty, level))
    return out


def load(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def schedule(todo: list[Cell], done: set[tuple[Any, ...]], games: int) -> Iterator[tuple[Cell, int]]:
    """Round by round: each cell's next seed not yet in the file, until every cell has ``games``."""
    for i in range(games):
        for cell in todo:
            seed = FIRST_SEED + i
            if (*cell.key(), seed) not in done:
                yield cell, seed


def table(records: list[dict[str, Any]]) -> str:
    """The markdown table of ``records``: per cell, games, wins (95% CI), Win Alone (semi), the goal's progress
    at the end (the median game's share of it), nights played on average, CPU seconds of the median game."""
    by: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        by[(r["scenario"], r["mode"], r["players"], r["difficulty"], r["level"])].append(r)
    police = {"easy": 0, "medium": 1, "hard": 2}
    lines = ["| scenario | mode | players | police | table | games | table won (95% CI) | won alone (95% CI) | "
             "goal reached at the end, median | nights | CPU s a game, median |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(by, key=lambda k: (ORDER.get(k[0], 99), k[1], k[2], k[4], police.get(k[3], 9))):
        rs = by[key]
        n = len(rs)
        won = sum(1 for r in rs if r["won"] and not r["alone"])  # the insurrection's (or the goal's) success
        lone = sum(1 for r in rs if r["alone"])
        lo, hi = wilson(won, n)
        alone_cell = "–"
        if key[1] == SEMI:
            a_lo, a_hi = wilson(lone, n)
            alone_cell = f"{lone}/{n} = {lone / n:.0%} ({a_lo:.0%}–{a_hi:.0%})"
        fractions = sorted(r["progress"][0] / max(1, r["progress"][1]) for r in rs)
        median = fractions[len(fractions) // 2]
        nights = sum(r["night"] for r in rs) / n
        cpu = sorted(r["cpu_s"] for r in rs)[n // 2]
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {key[4]} | {n} | {won}/{n} = {won / n:.0%} "
                     f"({lo:.0%}–{hi:.0%}) | {alone_cell} | {median:.0%} | {nights:.1f} | {cpu:.1f} |")
    return "\n".join(lines)


WIN_ALONE = tuple(o.name for a in AGENDAS.values() for o in a.options if o.kind == ALONE)  # D4's Win Alone options


def alone_table(records: list[dict[str, Any]]) -> str:
    """The markdown table of the semi-cooperative games of ``records``, per scenario and table level (the police
    difficulties together): for each Win Alone option, the games its agenda was dealt in and those it won alone;
    and the games the goal was won in, with how many factions won them on average (a Win Cooperatively option
    met)."""
    by: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if r["mode"] == SEMI:
            by[(r["scenario"], r["level"])].append(r)
    lines = ["| scenario | table | games | " + " | ".join(f"{name}: dealt, won alone" for name in WIN_ALONE)
             + " | goal won | factions winning it, mean |",
             "|---|---|---|" + "---|" * len(WIN_ALONE) + "---|---|"]
    for key in sorted(by, key=lambda k: (ORDER.get(k[0], 99), k[1])):
        rs = by[key]
        cols = [f"{sum(1 for r in rs if name in r['agendas'])}, {sum(1 for r in rs if r['alone_with'] == name)}"
                for name in WIN_ALONE]
        goal = [r for r in rs if r["won"] and not r["alone"]]
        mean = f"{sum(r['winners'] for r in goal) / len(goal):.1f} of {rs[0]['factions']}" if goal else "–"
        lines.append(f"| {key[0]} | {key[1]} | {len(rs)} | " + " | ".join(cols) + f" | {len(goal)} | {mean} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per cell (those in --out count)")
    parser.add_argument("--scenario", default=",".join(SCENARIOS), help="scenario keys, comma-separated")
    parser.add_argument("--mode", default="coop,semi", help="modes (each where its scenario allows it)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--difficulty", default="hard,medium,easy", help="police difficulties")
    parser.add_argument("--levels", default="hard,medium", help="the tables: each a table of one level")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--report", action="store_true", help="only print the table of --out")
    args = parser.parse_args(argv)
    if args.report:
        records = load(args.out)
        print(table(records) + "\n\n" + alone_table(records))
        return 0
    scenarios = [s for s in args.scenario.split(",") if s]
    unknown = [s for s in scenarios if s not in SCENARIOS]
    if unknown:
        parser.error(f"no scenario {', '.join(unknown)} (the ten: {', '.join(SCENARIOS)})")
    todo = cells(scenarios, args.mode.split(","), args.players, args.difficulty.split(","), args.levels.split(","))
    done = {(r["scenario"], r["mode"], r["players"], r["difficulty"], r["level"], r["seed"]) for r in load(args.out)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    print(f"{len(todo)} cells, up to {args.games} games each, into {args.out}", flush=True)
    with args.out.open("a") as out:
        for cell, seed in schedule(todo, done, args.games):
            record = play(cell, seed)
            out.write(json.dumps(record) + "\n")
            out.flush()
            print(f"{cell.scenario} {cell.mode} {cell.difficulty} {cell.level} seed {seed}: "
                  f"{'won alone' if record['alone'] else 'won' if record['won'] else 'lost'} "
                  f"(night {record['night']}, {record['cpu_s']} CPU s)", flush=True)
    records = load(args.out)
    print(table(records) + "\n\n" + alone_table(records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
