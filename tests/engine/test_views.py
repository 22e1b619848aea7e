"""Every view a game produces conforms to the view type it declares (``engine/<game>/view.py``).

The renderers read views as typed, without defensive parsing, so this is what keeps a picture from failing: along
random games of every registered game and seat count, the public view, every seat's view and a preview of a legal
pick all hold exactly the declared keys with values of the declared types. A schema that cannot fail is no check,
so the last tests show that it refuses views that are wrong in each way the renderers would trip on.
"""

from __future__ import annotations

import copy
import typing

import pytest

from engine.base import Game
from engine.blocbybloc.view import BlocView
from engine.block.view import BlockView
from engine.blockers.view import BlockersView
from engine.breakerblocks.view import BreakerView
from engine.breaks.view import BreaksView
from engine.rng import Rng
from tables.catalog import default_catalog
from tests.view_schema import problems, view_type

GAMES = default_catalog().all()


def _cases() -> list[tuple[Game, int, int]]:
    return [(g, seats, seed) for g in GAMES for seats in range(g.min_players, g.max_players + 1) for seed in (1,)]


@pytest.mark.parametrize(("game", "seats", "seed"), _cases(), ids=lambda v: getattr(v, "key", str(v)))
def test_every_view_along_a_random_game_conforms(game: Game, seats: int, seed: int) -> None:
    hint = view_type(game)
    assert typing.is_typeddict(hint), f"{game.key}.view is not typed with a TypedDict"
    state = game.new_game(seats, {}, seed)
    rng = Rng(seed)
    for ply in range(600):
        for seat in (None, *range(seats)):
            view = game.view(state, seat)
            assert not problems(view, hint), (ply, seat, problems(view, hint)[:5])
        if game.is_over(state):
            return
        acting = sorted(game.to_act(state))
        seat = acting[rng.below(len(acting))]
        move = game.sample_move(state, seat, rng)
        if ply % 7 == 0:
            preview = game.preview_view(state, seat, move)
            assert not problems(preview, hint), (ply, "preview", problems(preview, hint)[:5])
        state, _ = game.apply(state, seat, move)
    pytest.fail(f"{game.key} did not finish in 600 plies")


def test_the_declared_view_types() -> None:
    by_key = {g.key: view_type(g) for g in GAMES}
    assert by_key == {"breaks": BreaksView, "blockers": BlockersView, "block": BlockView,
                      "breakerblocks": BreakerView, "blocbybloc": BlocView}


@pytest.mark.parametrize("damage", ["missing key", "extra key", "wrong type", "bad item", "bool for int"])
def test_the_check_refuses_a_damaged_view(damage: str) -> None:
    game = next(g for g in GAMES if g.key == "block")
    view = copy.deepcopy(dict(game.view(game.new_game(3, {}, 5), 0)))
    if damage == "missing key":
        del view["players"][1]["breakdown"]
    elif damage == "extra key":
        view["blocks"][0]["colour"] = "red"
    elif damage == "wrong type":
        view["dice"] = "1 2 3"
    elif damage == "bad item":
        view["players"][0]["grid"][3][2] = 4.5
    else:
        view["turn"] = True
    assert problems(view, BlockView)
