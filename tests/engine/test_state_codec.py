"""The state codec (engine/state.py): dump, load and copy derived from a dataclass's type hints.

Games declare each state field once; these tests pin the codec's behaviour and prove that games stored by the
version before it (the hand-written dumps, ``tests/engine/data/*-format1.json``) still load to the same JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.state import codec, copy_state, dump_state, load_state
from tables.catalog import default_catalog

DATA = Path(__file__).parent / "data"


@dataclass
class Inner:
    name: str = field(metadata={"json": "n"})
    cells: tuple[tuple[int, int], ...] = ()


@dataclass
class Outer:
    count: int
    maybe: str | None
    inners: list[Inner]
    table: dict[str, list[int]]
    grid: list[list[int | str | None]]
    extra: Any
    shared: dict[str, Any] = field(metadata={"shared": True})
    optional_inner: Inner | None = None


def sample() -> Outer:
    return Outer(count=3, maybe=None, inners=[Inner("a", ((1, 2), (3, 4)))], table={"x": [1, 2]},
                 grid=[[1, "X", None]], extra={"k": [1, {"d": 2}]}, shared={"opt": True},
                 optional_inner=Inner("b"))


def test_dump_is_json_and_loads_back_equal() -> None:
    obj = sample()
    data = dump_state(obj, format=1)
    text = json.dumps(data)
    assert data["format"] == 1 and data["inners"] == [{"n": "a", "cells": [[1, 2], [3, 4]]}]
    back = load_state(Outer, json.loads(text))
    assert back == obj and isinstance(back.inners[0].cells[0], tuple)


def test_copy_is_deep_except_where_shared() -> None:
    obj = sample()
    twin = copy_state(obj)
    assert twin == obj
    twin.inners[0].name = "changed"
    twin.table["x"].append(9)
    twin.grid[0][0] = 7
    twin.extra["k"][1]["d"] = 5
    assert obj == sample(), "the copy shares no mutable part"
    assert twin.shared is obj.shared, "a field marked shared is never mutated, so it is not copied"


def test_unsupported_types_are_refused() -> None:
    @dataclass
    class Bad:
        keys: dict[int, str]

    with pytest.raises(TypeError):
        codec(Bad)


@pytest.mark.parametrize("key", ["breaks", "blockers", "block"])
def test_games_stored_before_the_codec_still_load(key: str) -> None:
    stored = json.loads((DATA / f"{key}-format1.json").read_text())
    game = default_catalog().get(key)
    assert game is not None
    state = game.load(stored)
    again = game.dump(state)
    stored.pop("last_round", None)  # Blockers! dropped it with the rules change (final turns per player)
    assert again == stored
    assert game.dump(game.clone(state)) == stored
