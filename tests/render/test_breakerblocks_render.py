"""The Breaker Blocks board: real views from random games in, portrait PNGs 800 px wide out (readable on a phone
at 400 px), the last turn in words and marked on its cells, nothing hidden shown."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping

import pytest
from PIL import Image

from engine.breakerblocks import BreakerBlocks
from engine.breakerblocks.board import MODULES, parse_cell
from engine.breakerblocks.game import BreakerState
from engine.breakerblocks.view import BreakerView
from engine.rng import Rng
from render import breakerblocks as bb
from render.breakerblocks import render
from render.common import recording, text_width
from tests.render.png_helpers import decode
from tests.view_schema import problems

G = BreakerBlocks()
NAMES = ["Мария", "Zoë Åström"]
LONG = ["Alexandra-Marguerite", "محمد"]


def states(options: Mapping[str, object], seed: int, limit: int = 400) -> list[BreakerState]:
    s = G.new_game(2, G.resolve_options(options), seed)
    rng = Rng(seed)
    out = [s]
    while not G.is_over(s) and len(out) < limit:
        s, _ = G.apply(s, s.turn, G.sample_move(s, s.turn, rng))
        out.append(s)
    return out


def check(view: BreakerView, names: list[str] = NAMES) -> bytes:
    """Render with the recorder on: the picture is 800 px wide and every needed text is at least 9 px when it is
    shown 400 px wide."""
    assert not problems(view, BreakerView)
    with recording() as texts:
        png = render(view, names)
    img = decode(png, rgb=False)  # (only the size is read)
    assert img.width == 800 and 1200 < img.height < 2600 and len(png) < 200 * 1024
    small = [t for t in texts if not t.decorative and t.size * 400 / img.width < 9]
    assert not small, small[:5]
    return png


@pytest.mark.parametrize("options", [{}, {"blind": True}, {"power_overwhelming": True}])
def test_random_games_render_every_few_moves(options: dict[str, object]) -> None:
    for s in states(options, 3)[::9]:
        check(G.view(s, None))
        check(G.view(s, 0), LONG)


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
        assert render(G.view(s, 1), NAMES) != render(G.view(other, 1), NAMES)
        return
    pytest.fail("no position with a hidden module in the second hand")


def test_different_positions_and_names_give_different_images() -> None:
    seq = states({}, 6)
    images = {render(G.view(s, None), NAMES) for s in seq[:30]}
    assert len(images) >= 25
    assert render(G.view(seq[10], None), ["Ann", "Bo"]) != render(G.view(seq[10], None), NAMES)


def test_the_last_turn_is_said_in_words_with_who_and_where() -> None:
    """Every move of the last turn is in the "Last:" line, in words (no notation such as "play 2L e3")."""
    seen = set()
    for s in states({}, 9)[1:120]:
        view = G.view(s, None)
        last = view["last"]
        assert last is not None
        with recording() as texts:
            render(view, LONG)
        said = " ".join(t.text for t in texts)
        text = bb.last_text(view, LONG)
        assert text.startswith(f"Last: {LONG[last['seat']]} ")
        assert text in said  # (its lines, each whole)
        for move in last["moves"]:
            verb = move.split()[0]
            seen.add(verb)
            assert not re.search(r"\b(play|draw|move|destroy|take|keep|return|rearrange|automate) ", text[6:])
            cells = re.findall(r"\b[a-i][1-9]\b", move)
            for cell in cells:
                assert cell in text or (cell in bb.CORE_NAMES and "into the core" in text), (move, text)
    assert {"draw", "play"} <= seen


def test_the_last_turns_cells_are_dashed_on_the_board() -> None:
    """Each cell the last turn touched has the black-and-yellow dashes around it; a cell it did not touch has
    none."""
    for s in states({}, 12)[4:60:7]:
        view = G.view(s, None)
        assert view["last"] is not None
        img = decode(render(view, NAMES))
        touched = set(view["last"]["cells"])

        def dashed(name: str, img: Image.Image = img) -> bool:
            a, b, c, _ = bb._box(parse_cell(name))
            edge = [img.getpixel((x, b + 2)) for x in range(a + 2, c - 2)]
            return sum(1 for p in edge if p == bb.HAZARD) >= 10

        for name in touched:
            assert dashed(name), name
        for name in ("a1", "i9", "a9"):
            if name not in touched:
                assert not dashed(name)


def test_the_public_picture_addresses_nobody() -> None:
    """No "you"/"your" on the public picture, in any state (a module's follow-up included)."""
    pending = 0
    for options in ({}, {"blind": True}):
        for s in states(options, 21)[::3]:
            view = G.view(s, None)
            pending += bool(view["pending"])
            with recording() as texts:
                render(view, LONG)
            for t in texts:
                assert not re.search(r"\byou(r)?\b", t.text, re.I), t.text
    assert pending


def test_module_names_are_whole_on_their_tiles() -> None:
    """A module's tile shows its full name on two lines that fit the tile at the size every text has."""
    for kind in MODULES:
        top, bottom = bb.TILE_NAME[kind]
        assert (top.rstrip("-") + bottom).upper() == kind.upper()
        for part in (top, bottom):
            assert text_width(part, bb.SMALL, bold=True) <= bb.CELL - 10


def test_colour_cues_are_the_seat_numbers() -> None:
    assert bb.PLAYER_COLOURS.keys() == bb.SECOND_CUE.keys()
    assert len(set(bb.SECOND_CUE.values())) == len(bb.SECOND_CUE)
    s = states({}, 5)[30]
    with recording() as texts:
        render(G.view(s, None), NAMES)
    for cue in bb.SECOND_CUE.values():
        assert any(t.text == cue and t.size * 400 / 800 >= 9 for t in texts)
