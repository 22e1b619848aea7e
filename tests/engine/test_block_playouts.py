"""Random playouts of BLOCK for 1–6 players, with invariants checked after every pick.

The chooser prefers making a combo over passing, so letters get circled and penalty turns happen. Combos and
scores are re-derived here from the grid, independently of the engine, and compared with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from engine.block import Block
from engine.block.game import NUMBER_DICE, SHAPE_DIE, BlockState
from engine.block.shapes import oriented
from engine.block.view import BlockPlayer
from engine.rng import Rng

G = Block()
SEEDS = range(3)
SIZES = (3, 4, 5, 6, 7)


def cell(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, "abcdefg".index(name[0])


def neighbours(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def connected(cells: list[tuple[int, int]]) -> bool:
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        here = todo.pop()
        for other in cells:
            if other not in seen and neighbours(here, other):
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


def score(player: BlockPlayer) -> int:
    """The rules page's final score, from the view alone."""
    grid, combos = player["grid"], player["combos"]
    made = {(c["type"], c["size"]) for c in combos}
    total = sum(c["size"] for c in combos)  # every combo scores its size, the bonus 8
    total += sum(10 for kind in ("identical", "consecutive") if all((kind, n) in made for n in SIZES))
    total += 2 * sum(1 for row in grid if all(v is not None for v in row))
    total -= 5 * sum(1 for row in grid[11:] if any(isinstance(v, int) for v in row))
    return total


def check_sheet(player: BlockPlayer, crossed: list[str]) -> None:
    grid = player["grid"]
    assert len(grid) == 14 and all(len(row) == 7 for row in grid)
    assert all(v is None or v == "X" or (isinstance(v, int) and 0 <= v <= 9) for row in grid for v in row)
    used: set[tuple[int, int]] = set()
    kinds = set()
    for combo in player["combos"]:
        cells = [cell(n) for n in combo["cells"]]
        values = [grid[r][c] for r, c in cells]
        assert all(isinstance(v, int) for v in values), "X or empty cells in a combo"
        assert not used & set(cells), "a cell in two combos"
        used |= set(cells)
        assert 3 <= len(cells) <= 8 and combo["size"] == len(cells)
        if combo["type"] == "identical":
            assert len(set(values)) == 1 and connected(cells)
        else:
            assert all(b == a + 1 for a, b in zip(values, values[1:], strict=False))
            assert all(neighbours(a, b) for a, b in zip(cells, cells[1:], strict=False))
        key = (combo["type"], combo["size"]) if combo["size"] < 8 else ("bonus", 8)
        assert key not in kinds, f"{key} made twice"
        kinds.add(key)
    for letter in player["letters"]:
        n = "ABCDE".index(letter) + 3
        assert ("identical", n) in kinds and ("consecutive", n) in kinds
    assert player["score"] == score(player)


def filled(grid: list[list[Any]]) -> Iterator[tuple[int, int, Any]]:
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v is not None:
                yield r, c, v


def pick(state: BlockState, seat: int, rng: Rng) -> Any:
    """Mostly a combo when there is one, and mostly a drop that keeps the stack low, so that games last, letters
    get circled and penalties drop; otherwise any legal pick."""
    moves = G.legal_moves(state, seat)
    combos = [m for m in moves if m.kind == "combo"]
    if combos and rng.below(10) < 8:
        return rng.choice(combos)
    if moves[0].kind in ("drop", "penalty") and rng.below(10) < 8:
        sheet = state.work[seat]
        shape = state.blocks["ABCDE".index(G.step(state, seat)[-1])] if moves[0].kind == "penalty" else ""

        tops = sheet.tops()
        heights: dict[tuple[str, str, int], int] = {}
        for m in moves:
            key = (m.shape or shape, m.orientation, m.column)
            if key not in heights:
                landed = sheet.landing(oriented(*key[:2]), m.column, tops)
                heights[key] = max(r for r, _ in landed or [(99, 0)])
        low = min(heights.values())
        return rng.choice([m for m in moves if heights[(m.shape or shape, m.orientation, m.column)] == low])
    return rng.choice(moves)


def playout(seats: int, seed: int) -> tuple[BlockState, dict[str, int]]:
    state = G.new_game(seats, {}, seed)
    rng = Rng(seed * 7 + seats)
    log: list[tuple[int, str]] = []
    seen = {"penalty_turns": 0, "letters": 0, "turns": 0}
    for _ in range(20000):
        if G.is_over(state):
            break
        seat = rng.choice(sorted(G.to_act(state)))
        move = pick(state, seat, rng)
        before = state
        state, _ = G.apply(state, seat, move)
        log.append((seat, G.format_move(move)))
        public = G.view(state, None)
        json.dumps(public)
        if state.dice:
            assert all(d in die for d, die in zip(state.dice, (*NUMBER_DICE, SHAPE_DIE), strict=True))
        for p, player in enumerate(public["players"]):
            check_sheet(player, state.crossed)
            check_sheet(G.view(state, p)["players"][p], state.crossed)
            # committed cells never change; picks stay private until the turn resolves
            for r, c, v in filled(before.sheets[p].grid):
                assert state.sheets[p].grid[r][c] == v
            if state.turn == before.turn and state.phase == before.phase:
                assert player["grid"] == before.sheets[p].grid
        if state.solo:
            assert all(0 <= n <= 4 for n in state.notches)
            assert all(a >= b for a, b in zip(state.notches, before.notches, strict=True))
        if state.turn != before.turn:
            seen["turns"] += 1
            seen["penalty_turns"] += bool(before.penalty)
        seen["letters"] = max(seen["letters"], sum(len(p["letters"]) for p in public["players"]))
    else:
        pytest.fail("the game did not end")
    assert G.dump(G.replay(seats, {}, seed, log)) == G.dump(state)
    return state, seen


@pytest.mark.parametrize("seats", range(1, 7))
def test_random_playouts_keep_every_invariant(seats: int) -> None:
    totals = {"penalty_turns": 0, "letters": 0}
    for seed in SEEDS:
        state, seen = playout(seats, seed)
        result = G.result(state)
        assert result is not None
        if state.solo:
            assert state.crossed_line[0] or all(n == 4 for n in state.notches)
            assert result.reason.split(": ")[-1] in ("rookie", "stacker", "architect", "master", "legend")
        else:
            assert any(state.crossed_line), "a multiplayer game ends when someone crosses the line"
            best = max(result.scores)
            assert result.winners == {p for p in range(seats) if result.scores[p] == best}
        assert [float(x) for x in G.scores(state)] == list(result.scores)
        totals["penalty_turns"] += seen["penalty_turns"]
        totals["letters"] += seen["letters"]
    assert totals["letters"] > 0, "no letter was ever circled: the playouts miss the BLOCK rules"
    if seats >= 2:
        assert totals["penalty_turns"] > 0, "no penalty turn happened"
