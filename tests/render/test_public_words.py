"""The public picture speaks to everyone: no line on it is addressed to one player ("Students: your actions",
"Your move"). Checked on every game's public board at every seat count from two, over the random positions of
bench.phone_text (a solo game's board has one reader, its player, and may say "you")."""

from __future__ import annotations

import re

import pytest

from bench.phone_text import pictures
from tables.catalog import default_catalog

ADDRESSED = re.compile(r"\byou(r|rs|rself)?\b", re.IGNORECASE)
KEYS = [e.key for e in default_catalog().entries()]


@pytest.mark.parametrize("key", KEYS)
def test_no_public_picture_addresses_one_player(key: str) -> None:
    addressed = sorted({(p.seats, t.text) for p in pictures(key) if p.who == "public" and p.seats >= 2
                        for t in p.texts if ADDRESSED.search(t.text)})
    assert not addressed, addressed
