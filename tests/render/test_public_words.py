"""The public picture speaks to everyone: no line on it is addressed to one player ("Students: your actions",
"Your move"). Checked on every game's public board at every seat count from two, over random positions (a solo
game's board has one reader, its player, and may say "you")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bench.phone_text import NAMES, positions
from render.common import recording
from tables.catalog import GameEntry, default_catalog

ADDRESSED = re.compile(r"\byou(r|rs|rself)?\b", re.IGNORECASE)
ENTRIES = default_catalog().entries()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.key for e in ENTRIES])
def test_no_public_picture_addresses_one_player(entry: GameEntry[Any]) -> None:
    game = entry.rules
    for seats in sorted({max(2, game.min_players), game.max_players}):  # the fewest (from two) and the most
        for _, state in positions(game, seats, seed=8):
            with recording() as texts:
                entry.render(game.view(state, None), NAMES[:seats])
            addressed = sorted({t.text for t in texts if ADDRESSED.search(t.text)})
            assert not addressed, f"{seats} seats: {addressed}"
