"""How many boards the channel gets in a Bloc by Bloc game.

Plays games through the real :class:`~tables.service.TableService` on a SQLite file in a temporary directory, one
human actor per seat (no bots: every move is a request, as when people play), and counts the public board posts
each game sends to its channel: the start's and every request's (``Outcome.public`` posts that carry a table
version, which only a board does). Pictures are not drawn (``render=False``): a board post is counted whether or
not its PNG is made.

Each move is the one a bot of ``--bot`` level would pick (:func:`bots.choose`, in this process, reproducible from
``--seed``): ``medium`` (the default) plays one move ahead for the table's good, so games run their nights as
people's do; ``easy`` picks at random among the moves near the medium bot's best (games then lose a faction more
often). Prints, by number of players, the boards per game (min, median, max), the moves per game and the boards per
faction turn.

Run from the repo root: ``python -m bench.blocbybloc_posts [--games 10] [--players 2,3,4] [--bot medium]
[--seed S]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bots import choose
from engine.rng import Rng
from storage import Database
from tables import renderer
from tables.catalog import default_catalog
from tables.outcome import Actor, Outcome
from tables.service import TableService

GAME_KEY = "blocbybloc"
DEFAULT_GAMES = 10
DEFAULT_SEED = 20261127
MAX_MOVES = 3000  # a game longer than this is cut (none is: 8 nights at most)


def boards(outcome: Outcome) -> int:
    """The board posts among a request's public posts (a board carries the table version it shows)."""
    return sum(1 for post in outcome.public if post.version is not None)


@dataclass
class Game:
    players: int
    moves: int
    boards: int
    turns: int  # faction turns played (Sunset turns begun)
    nights: int
    outcome: str


async def play(service: TableService, db: Database, rng: Rng, players: int, channel: int, bot: str) -> Game:
    game = service.game(GAME_KEY)
    actors = [Actor(user_id=channel * 10 + i, name=f"Player {i + 1}") for i in range(players)]
    out = await service.open_lobby(guild_id=1, channel_id=channel, host=actors[0], game_key=GAME_KEY)
    assert out.table_id is not None
    table_id = out.table_id
    for actor in actors[1:]:
        await service.join(table_id, actor)
    posted = boards(await service.start(table_id, actors[0]))
    moves = 0
    turns: set[tuple[int, int]] = set()
    state = None
    while moves < MAX_MOVES:
        table = await db.get_table(table_id)
        assert table is not None and table.state is not None
        state = game.load(table.state)
        if table.status != "active":
            break
        if state.phase == "sunset":
            turns.add((state.night, state.turn))
        seat = sorted(game.to_act(state))[0]
        move = choose(game, state, seat, bot, rng)
        outcome = await service.submit(actors[seat], game.format_move(move), channel_id=channel)  # (a move the
        # game cancels, its roll having changed the city, is no error: it says "Not played")
        posted += boards(outcome)
        moves += 1
    assert state is not None
    return Game(players, moves, posted, len(turns), state.night, state.outcome or "cut")


async def run(games: int, players: Sequence[int], seed: int, bot: str) -> list[Game]:
    rng = Rng(seed)
    out: list[Game] = []
    with tempfile.TemporaryDirectory(prefix="blockhouse-bbb-posts-") as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        try:
            service = TableService(db, default_catalog(), seeds=lambda: rng.next64() >> 1, render=False)
            channel = 1000
            for _ in range(games):  # player counts interleaved
                for n in players:
                    channel += 1
                    out.append(await play(service, db, rng, n, channel, bot))
        finally:
            await db.close()
    return out


def spread(values: Sequence[float]) -> str:
    return f"{min(values):g} / {statistics.median(values):g} / {max(values):g}"


def report(results: Sequence[Game], players: Sequence[int]) -> str:
    lines = [f"{'players':<8} {'games':>5}  {'boards/game min/med/max':<24} {'moves/game min/med/max':<23} "
             f"{'boards per faction turn (median)':<10}"]
    for n in players:
        group = [g for g in results if g.players == n]
        if not group:
            continue
        per_turn = statistics.median(g.boards / max(1, g.turns) for g in group)
        lines.append(f"{n:<8} {len(group):>5}  {spread([g.boards for g in group]):<24} "
                     f"{spread([g.moves for g in group]):<23} {per_turn:.2f}")
    everyone = [g.boards for g in results]
    lines.append(f"{'all':<8} {len(results):>5}  {spread(everyone):<24} {spread([g.moves for g in results]):<23}")
    ends = {o: sum(1 for g in results if g.outcome == o) for o in sorted({g.outcome for g in results})}
    lines.append("outcomes: " + ", ".join(f"{o} {k}" for o, k in ends.items()))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    # pictures drawn in this process's threads, as this bench has always measured (the bot's default on two cores
    # or more is a render worker process, which bench.load measures)
    os.environ.setdefault(renderer.WORKERS_SETTING, "0")
    p = argparse.ArgumentParser(prog="python -m bench.blocbybloc_posts", description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per player count (default %(default)s)")
    p.add_argument("--players", default="2,3,4", help="comma-separated player counts (default %(default)s)")
    p.add_argument("--bot", default="medium", choices=("easy", "medium"), help="who picks the moves (default "
                   "%(default)s)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed for deals and moves (default %(default)s)")
    args = p.parse_args(argv)
    players = [int(x) for x in args.players.split(",")]
    t0 = time.perf_counter()
    results = asyncio.run(run(args.games, players, args.seed, args.bot))
    print(f"Bloc by Bloc board posts per game, through TableService ({args.bot} bot's moves, seed {args.seed}, "
          f"{time.perf_counter() - t0:.0f} s)")
    print(report(results, players))


if __name__ == "__main__":
    main()
