"""Every text a player needs is readable on a phone: at least 9 px high when the picture is shown 400 px wide.

``bench.phone_text`` renders each game's public board and private views at every seat count (every seat's view at
the largest) from random games, recording each text with its size (``render.common.recording``). A text a
player can do without is marked decorative where it is drawn, and only those are left out. Run
``python -m bench.phone_text --worst 5`` for the table this checks.
"""

from __future__ import annotations

import pytest

from bench.phone_text import NEEDED, survey
from tables.catalog import default_catalog

GAMES = [e.key for e in default_catalog().entries()]


@pytest.mark.parametrize("key", GAMES)
def test_every_needed_text_is_readable_at_400_px(key: str) -> None:
    seen = survey([key])
    # A renderer draws the parts that never change once per process and pastes them after (their text is recorded
    # when drawn, at the one size they are always shown): so the first picture must record text, not every one.
    assert seen and seen[0].size, "the first picture drew no needed text at all"
    small = sorted((s for s in seen if s.size and s.on_phone < NEEDED), key=lambda s: s.on_phone)
    assert not small, "\n".join(
        f"{s.on_phone:.1f} px at 400: {s.text[:50]!r} ({s.seats} seats, {s.who}, {s.width} px wide, stage {s.stage})"
        for s in small[:10])
