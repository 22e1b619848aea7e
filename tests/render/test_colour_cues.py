"""Colour is never the only cue: each game's player, faction and owner colours stay apart for colour-blind viewers,
or carry a second cue a phone can read.

Each renderer names the colours that tell players (seats, factions, tile owners) apart in ``PLAYER_COLOURS`` and
the text drawn with each (a letter, a number, a word) in ``SECOND_CUE``. Two colours closer than
``render.colour_vision.APART`` (CIEDE2000) to a viewer with normal vision, deuteranopia or protanopia (Machado 2009
at full severity) must both have a second cue, the two different, and every such cue must be drawn on the game's
public board at least 9 px high when the picture is shown 400 px wide. A game whose pictures never tell players
apart by colour (Breaks: by name and P1–P4) names none.
"""

from __future__ import annotations

import importlib
from itertools import combinations
from typing import Any

import pytest

from bench.phone_text import NEEDED, PHONE, pictures
from render.colour_vision import APART, KINDS, delta_e, simulate
from tables.catalog import default_catalog

ENTRIES = {e.key: e for e in default_catalog().entries()}


def close_pairs(colours: dict[str, Any]) -> list[tuple[str, str, str, float]]:
    """Pairs of colour names closer than APART to some viewer: (a, b, viewer, difference)."""
    out = []
    for kind in ("normal", *KINDS):
        for a, b in combinations(colours, 2):
            d = delta_e(simulate(colours[a], kind), simulate(colours[b], kind))
            if d < APART:
                out.append((a, b, kind, d))
    return out


@pytest.mark.parametrize("key", list(ENTRIES))
def test_close_colours_carry_different_second_cues(key: str) -> None:
    module = importlib.import_module(f"render.{key}")
    colours, cues = module.PLAYER_COLOURS, module.SECOND_CUE
    assert isinstance(colours, dict) and set(cues) <= set(colours)
    for a, b, kind, d in close_pairs(colours):
        assert cues.get(a) and cues.get(b), f"{a} and {b} are {d:.1f} apart to {kind}: each needs a second cue"
        assert cues[a] != cues[b], f"{a} and {b} ({d:.1f} apart to {kind}) have the same cue {cues[a]!r}"


@pytest.mark.parametrize("key", list(ENTRIES))
def test_the_second_cues_are_readable_on_the_public_board(key: str) -> None:
    module = importlib.import_module(f"render.{key}")
    needed = {name for a, b, _, _ in close_pairs(module.PLAYER_COLOURS) for name in (a, b)}
    if not needed:
        return  # every pair stays apart: colour alone tells them apart for every viewer
    readable = {t.text for p in pictures(key) if p.who == "public"
                for t in p.texts if t.size * min(1.0, PHONE / p.width) >= NEEDED}
    missing = [name for name in sorted(needed)
               if not any(module.SECOND_CUE[name] in text for text in readable)]
    assert not missing, f"cues never drawn at {NEEDED} px on a phone: {[module.SECOND_CUE[n] for n in missing]}"
