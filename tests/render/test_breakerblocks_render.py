"""The Breaker Blocks board: real views from random games in, landscape PNGs out, nothing hidden shown."""

from __future__ import annotations

import copy

import pytest

from engine.breakerblocks import BreakerBlocks
from engine.breakerblocks.game import BreakerState
from engine.breakerblocks.view import BreakerView
from engine.rng import Rng
from render.breakerblocks import render
from tests.render.png_helpers import decode
from tests.view_schema import problems

G = BreakerBlocks()
NAMES = ["Мария", "Zoë Åström"]


def states(options: dict[str, object], seed: int, limit: int = 400) -> list[BreakerState]:
    s = G.new_game(2, G.resolve_options(options), seed)
    rng = Rng(seed)
    out = [s]
    while not G.is_over(s) and len(out) < limit:
        s, _ = G.apply(s, s.turn, G.sample_move(s, s.turn, rng))
        out.append(s)
    return out


def check(view: BreakerView) -> bytes:
    assert not problems(view, BreakerView)
    png = render(view, NAMES)
    img = decode(png, rgb=False)  # (only the size is read)
    assert img.size == (1200, 800) and len(png) < 200 * 1024
    return png


@pytest.mark.parametrize("options", [{}, {"blind": True}, {"power_overwhelming": True}])
def test_random_games_render_every_few_moves(options: dict[str, object]) -> None:
    for s in states(options, 3)[::9]:
        check(G.view(s, None))
        check(G.view(s, 0))


def test_the_public_image_never_shows_a_face_down_module() -> None:
    """Blind Action: swapping which modules a player holds changes their own view, never the public image."""
    for s in states({"blind": True}, 4)[::5]:
        held = [i for i, k in enumerate(s.hands[1]) if k in ("annihilate", "agitate", "aggravate", "accelerate")]
        if not held:
            continue
        other = copy.deepcopy(s)
        kinds = ["annihilate", "agitate", "aggravate", "accelerate"]
        for i in held:
            other.hands[1][i] = kinds[(kinds.index(other.hands[1][i]) + 1) % 4]
        assert render(G.view(s, None), NAMES) == render(G.view(other, None), NAMES)
        assert render(G.view(s, 0), NAMES) == render(G.view(other, 0), NAMES)
        return
    pytest.fail("no position with a hidden module in the second hand")


def test_different_positions_and_names_give_different_images() -> None:
    seq = states({}, 6)
    images = {render(G.view(s, None), NAMES) for s in seq[:30]}
    assert len(images) >= 25
    assert render(G.view(seq[10], None), ["Ann", "Bo"]) != render(G.view(seq[10], None), NAMES)
