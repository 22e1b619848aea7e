"""tables.situation: one position worked out once. What it derives agrees with the engine along random games of every
game, and a request asks the engine once per position: a test counts the calls of a player's clicks."""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.base import Result
from engine.rng import Rng
from tables import Actor, TableService
from tables.catalog import default_catalog
from tables.core import POSITION_WEIGHT, Situations
from tables.menu import MenuNode
from tables.situation import Situation
from tests.tables.helpers import ALICE, BOB, CARL, lobby, read, started, whose_turn

GAMES = [g.key for g in default_catalog().all()]


@pytest.mark.parametrize("key", GAMES)
def test_what_a_situation_derives_agrees_with_the_engine_along_random_games(key: str) -> None:
    game = default_catalog().get(key)
    assert game is not None
    for seed in range(3):
        rng = Rng(seed)
        seats = max(game.min_players, 2) + seed % max(1, game.max_players - max(game.min_players, 2) + 1)
        state = game.new_game(seats, game.resolve_options({}, seats), seed)
        before = Situation.of(game, state)
        for _ in range(400):
            sit = Situation.of(game, state)
            assert sit.over == game.is_over(state)
            assert sit.to_act == game.to_act(state)
            assert sit.may_act == game.may_act(state)
            assert sit.revealed_ply == game.revealed_ply(state)
            for seat in range(seats):
                assert sit.decision(seat) == game.decision(state, seat)
                assert sit.goes_on(seat) == game.goes_on(state, seat)
            if sit.over:
                assert sit.decisions == () and sit.tells(before, None)
                break
            seat = sorted(sit.may_act)[0]
            offered = sit.offered(seat)
            assert [c.notation for c in offered] == [game.format_move(m) for m in game.menu_moves(state, seat)]
            move = game.sample_move(state, seat, rng)
            state, _ = sit.apply(seat, move)
            after = Situation.of(game, state)
            if after.tells(sit, seat):  # a board: the mover's turn does not go on, and the public record moved on
                assert not after.goes_on(seat)
                assert after.over or after.revealed_ply != sit.revealed_ply
            before = sit


def test_a_secret_pick_is_not_told_and_a_resolved_turn_is() -> None:
    game = default_catalog().get("block")
    assert game is not None
    state = game.new_game(2, game.resolve_options({}, 2), 3)
    sit = Situation.of(game, state)
    assert sit.tells(None, None), "a start (no position before it) is told"
    told = Counter[bool]()
    while not sit.over and sit.ply < 60:
        seat = sorted(sit.to_act)[0]
        state, _ = sit.apply(seat, game.sample_move(state, seat, Rng(sit.ply)))
        after = Situation.of(game, state)
        resolved = after.revealed_ply != sit.revealed_ply  # the picks were revealed together
        assert after.tells(sit, seat) == (resolved or after.over)
        told[after.tells(sit, seat)] += 1
        sit = after
    assert told[True] and told[False], "both a secret pick and a resolved turn were seen"


# --- a request asks the engine once per position ----------------------------------------------------------------


class Counted:
    """Counts the platform's calls of some of a game's methods (on the catalogue's instance the service uses); the
    engine's calls of its own methods (a view that reads a seat's decision) are the game's business."""

    NAMES = ("load", "decisions", "describe_move", "menu_moves")

    def __init__(self, game: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: Counter[str] = Counter()
        self.menus: Counter[tuple[int, int]] = Counter()
        for name in self.NAMES:
            owner = game.text if name == "describe_move" else game  # (a move's label is the game's text)
            monkeypatch.setattr(owner, name, self._counting(name, getattr(owner, name)))

    def _counting(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not sys._getframe(1).f_globals.get("__name__", "").startswith("engine."):
                self.calls[name] += 1
                if name == "menu_moves":  # whose menu, in which position (the state object)
                    self.menus[(id(args[0]), args[1])] += 1
            return real(*args, **kwargs)
        return wrapper

    def take(self) -> Counter[str]:
        calls, self.calls, self.menus = self.calls, Counter(), Counter()
        return calls


def named(node: MenuNode) -> int:
    """How many moves an entry of a menu names when it is shown: a move one, a range of moves its first and last,
    a group none (its own name)."""
    if node.leaf:
        return 1
    return 2 if " … " in node.label else 0


PLAYERS = {1: [ALICE], 2: [ALICE, BOB], 3: [ALICE, BOB, CARL]}


@pytest.mark.parametrize("key", GAMES)
async def test_a_click_loads_the_state_once_and_asks_for_decisions_at_most_twice(
        svc: TableService, key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pick a player makes through the menu, as the Discord layer asks for it (one request per click): the
    state is loaded at most once, at the first click at a version (the next clicks at that version use the
    situation kept by the service's core; none when the position was kept as the move that made it was stored), the
    decisions worked out at most twice (the position found, the one left), the menu
    built once, and a move described only where the menu shows it."""
    game = svc.game(key)
    people = PLAYERS[max(game.min_players, 2)]
    tid, _ = await started(svc, *people, game=key)
    counted = Counted(game, monkeypatch)
    clicks = 0
    for _ in range(8):
        table = await read(svc, tid)
        if table.status != "active":
            break
        state = type(game).load(game, table.state or {})
        seat = sorted(type(game).may_act(game, state))[0]
        actor: Actor = people[seat]
        path: tuple[int, ...] = ()
        counted.take()
        for level in range(8):  # one click per level of the menu, the first entry each time
            step = await svc.pick(tid, actor, table.version, path)
            menus = counted.menus
            calls = counted.take()
            clicks += 1
            # at most once per version: none when the position was kept as the last move stored it
            assert calls["load"] <= (1 if level == 0 else 0), calls
            assert calls["decisions"] <= 2, calls
            assert max(menus.values(), default=0) <= 1, menus  # each seat's menu in each position is built once
            kept = svc.core.situations.of(table, game)  # (the position kept for this version: its menu not again)
            assert menus[(id(kept.state), seat)] <= (1 if level == 0 else 0), menus
            # the moves named on the player's screen: the entries of the level shown (the Discord layer reads their
            # labels as it shows them) and the trail of entries picked to get there (each names at most two)
            shown = (1 if step.node.leaf else sum(named(c) for c in step.node.children)) + 2 * len(step.path)
            counted.take()  # (what the test itself read)
            assert calls["describe_move"] <= shown, (calls, step.trail)
            if step.preview is not None:
                await svc.submit(actor, step.node.choice.notation, table_id=tid, version=table.version)
                calls = counted.take()
                assert calls["load"] == 0 and calls["decisions"] <= 2, calls  # (the position kept)
            if step.node.leaf:
                break
            path = (*step.path, 0)
    assert clicks >= 8


@pytest.mark.parametrize("key", GAMES)
async def test_the_position_kept_after_a_move_is_the_one_stored(svc: TableService, key: str) -> None:
    """The situation the service keeps as a move is stored (and the next click at that version uses) is the stored
    position: the same state once dumped, the same moves offered to every seat as the position loaded afresh."""
    game = svc.game(key)
    people = PLAYERS[max(game.min_players, 2)]
    tid, _ = await started(svc, *people, game=key)
    rng = Rng(7)
    for played in range(12):
        table = await read(svc, tid)
        if table.status != "active":
            break
        fresh = Situation.of(game, game.load(table.state or {}))
        hits = svc.core.situations.hits
        kept = svc.core.situations.of(table, game)
        if played:  # (the start's position is not kept: loaded at the first request)
            assert svc.core.situations.hits == hits + 1, "the position the last move stored was kept"
        assert game.dump(kept.state) == table.state
        for seat in range(len(people)):
            assert [c.notation for c in kept.offered(seat)] == [c.notation for c in fresh.offered(seat)]
        seat = sorted(fresh.may_act)[0]
        move = game.sample_move(fresh.state, seat, rng)
        await svc.submit(people[seat], game.format_move(move), table_id=tid, version=table.version)


async def test_every_table_in_play_keeps_its_newest_position(svc: TableService) -> None:
    """With more tables in play than the service once kept positions (one per version, 32 in all: at 200 tables every
    request loaded its position again), each table's next request finds the position its last move stored; a table
    read at an older version than the one kept loads that position without displacing the newer one."""
    game = svc.game("breaks")
    tables = []
    for i in range(40):
        tid = await lobby(svc, ALICE, BOB, channel=5000 + i)
        await svc.start(tid, ALICE)
        tables.append(tid)
    before = {}
    for tid in tables:  # one move at each table, in turn
        table, actor, notation = await whose_turn(svc, tid)
        before[tid] = table
        await svc.submit(actor, notation, table_id=tid, version=table.version)
    hits, misses = svc.core.situations.hits, svc.core.situations.misses
    for tid in tables:
        assert svc.core.situations.of(await read(svc, tid), game).state is not None
    assert (svc.core.situations.hits - hits, svc.core.situations.misses - misses) == (40, 0)
    old = before[tables[0]]  # a request that read the row before the move
    assert game.dump(svc.core.situations.of(old, game).state) == old.state
    assert svc.core.situations.of(await read(svc, tables[0]), game) is not None
    assert svc.core.situations.misses - misses == 1, "the older read displaced the newest position"


async def test_a_finished_games_position_is_not_kept(svc: TableService) -> None:
    """The position of a game the engine has ended is not kept (no request plays on from it): the move that ends it
    drops the table's entry."""
    tid, _ = await started(svc, ALICE, BOB)
    table = await read(svc, tid)
    game = svc.game("breaks")
    sit = svc.core.situations.of(table, game)
    assert len(svc.core.situations) == 1
    ended = Situation(game, sit.state, (), Result(scores=(1.0, 0.0), ranks=(1, 2), winners=frozenset({0})))
    svc.core.situations.keep(dataclasses.replace(table, version=table.version + 1), ended)
    assert len(svc.core.situations) == 0


async def test_kept_positions_stay_within_their_weight_weighed_again_when_used(svc: TableService) -> None:
    """Positions are kept within a weight (a position and the moves its menus offer: a BLOCK drop's menus hold
    ~1,300), the least recently used going first; a position is weighed again when it is used, since menus are built
    after it is kept."""
    game = svc.game("breaks")
    budget = 3 * POSITION_WEIGHT + 40
    svc.core.situations = Situations(weight=budget)
    tables = []
    for i in range(5):
        tid = await lobby(svc, ALICE, BOB, channel=6000 + i)
        await svc.start(tid, ALICE)
        table, actor, notation = await whose_turn(svc, tid)
        await svc.submit(actor, notation, table_id=tid, version=table.version)
        tables.append(tid)
    kept = svc.core.situations
    assert 1 <= len(kept) <= 3 and kept.weight <= budget
    hits = kept.hits
    kept.of(await read(svc, tables[-1]), game)
    assert kept.hits == hits + 1, "the newest table's position is kept"
    kept.of(await read(svc, tables[0]), game)
    assert kept.hits == hits + 1, "the oldest went first"
    svc.core.situations = kept = Situations()
    table = await read(svc, tables[0])
    sit = kept.of(table, game)
    weight, offered = kept.weight, sit.moves_offered()
    for seat in range(2):
        sit.offered(seat)
    assert sit.moves_offered() > offered
    assert kept.of(table, game) is sit
    assert kept.weight == weight + sit.moves_offered() - offered
