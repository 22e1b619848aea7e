"""engine.state's generated dump (``_dump_of``) gives the dict a loop over the fields with ``getattr`` gives: every
field's JSON key in the fields' order, a scalar taken as it is, everything else through its converter; for the
games' real states too (random positions of each game, compared as JSON text, so key order counts)."""

from __future__ import annotations

import dataclasses
import json
import typing
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.rng import Rng
from engine.state import _converters, codec
from tables.catalog import default_catalog


def by_loop(obj: Any) -> dict[str, Any]:
    """The dump as it was written before: a loop over the fields."""
    hints = typing.get_type_hints(type(obj))
    return {f.metadata.get("json", f.name): _converters(hints[f.name])[0](getattr(obj, f.name))
            for f in dataclasses.fields(obj) if f.init}


@dataclass
class Leaf:
    n: int
    word: str | None = None


@dataclass
class Mixed:
    zeta: int  # (declared before alpha: the dump keeps the declared order, not the alphabet's)
    alpha: str = field(metadata={"json": "a"})
    leaves: list[Leaf] = field(default_factory=list)
    maybe: Leaf | None = None
    grid: list[list[int | None]] = field(default_factory=list)
    pairs: tuple[tuple[int, str], ...] = ()
    table: dict[str, list[int]] = field(default_factory=dict)
    extra: Any = None
    flag: bool = False
    ratio: float = 0.5
    hidden: int = field(default=7, init=False)


def test_a_dump_is_the_fields_in_order_as_converted() -> None:
    obj = Mixed(3, "x", [Leaf(1), Leaf(2, "two")], Leaf(5), [[1, None], []], ((1, "a"),), {"k": [1, 2]},
                {"deep": [{"a": 1}]}, True, 1.5)
    dumped = codec(Mixed).dump(obj)
    assert json.dumps(dumped) == json.dumps(by_loop(obj))
    assert list(dumped) == ["zeta", "a", "leaves", "maybe", "grid", "pairs", "table", "extra", "flag", "ratio"]
    assert dumped["pairs"] == [[1, "a"]] and dumped["maybe"] == {"n": 5, "word": None}
    # the dump holds copies: changing it leaves the state alone
    dumped["leaves"][0]["n"] = 99
    dumped["grid"][0][0] = 99
    dumped["extra"]["deep"][0]["a"] = 99
    assert obj.leaves[0].n == 1 and obj.grid[0][0] == 1 and obj.extra == {"deep": [{"a": 1}]}
    assert codec(Mixed).load(codec(Mixed).dump(obj)) == obj


@pytest.mark.parametrize("entry", default_catalog().all(), ids=lambda g: g.key)
def test_each_games_states_dump_as_before(entry: Any) -> None:
    game = entry
    seats = game.min_players if game.min_players > 1 else min(2, game.max_players)
    state = game.new_game(seats, game.resolve_options({}, seats), 5)
    rng = Rng(5)
    for _ in range(60):
        assert json.dumps(codec(type(state)).dump(state)) == json.dumps(by_loop(state))
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        state = game.apply(state, seat, game.sample_move(state, seat, rng))[0]
