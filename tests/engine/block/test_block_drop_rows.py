"""BLOCK's drop rows (engine.block.game._drop_row, made for every placement a turn lists) hold moves equal in every
way to ``Move("drop", ...)`` built the ordinary way: same fields in the same order, equal, same hash, same text,
and parsed back from their notation."""

from __future__ import annotations

import dataclasses

import pytest

from engine.block import game as block_game
from engine.block.game import Move


@pytest.mark.parametrize("values", [(1, 2, 4, 7), (3, 3, 5, 5), (2, 2, 2, 9), (1, 1, 1, 1)])
def test_a_rows_moves_are_ordinary_drops(values: tuple[int, ...]) -> None:
    orders = block_game._orders(values)
    for shape in block_game.DIE_SHAPES:
        for orientation in block_game.ORIENTATIONS:
            rows: dict[tuple[str, int], list[Move]] = {}
            row = block_game._drop_row(rows, shape, orientation, 4, orders)
            assert rows == {(orientation, 4): row}
            plain = [Move("drop", shape=shape, orientation=orientation, column=4, values=v) for v in orders]
            assert row == plain
            assert len({m.values for m in row}) == len(orders)  # one move per order, none sharing its fields
            for made, ordinary in zip(row, plain, strict=True):
                assert list(made.__dict__.items()) == list(ordinary.__dict__.items())
                assert hash(made) == hash(ordinary) and repr(made) == repr(ordinary)
                assert dataclasses.asdict(made) == dataclasses.asdict(ordinary)
                text = block_game.format_move(made)
                assert text == block_game.format_move(ordinary)
                assert block_game.parse_move(text) == made
                with pytest.raises(dataclasses.FrozenInstanceError):
                    made.column = 0  # type: ignore[misc]
