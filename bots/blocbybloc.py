"""Bloc by Bloc's bots (cooperative): the value of a position for the whole table, which the medium bot maximises one
move ahead and the hard bot's search scores its leaves with."""

from __future__ import annotations

import math
from typing import Any

from engine.base import Game


def blocbybloc_value(game: Game[Any, Any, Any], state: Any, seat: int) -> float:
    """Cooperative (the same for every seat): State districts occupied and safe from the police, liberations and
    blocs gathering where an occupation could be liberated, no faction near zero blocs, blocs kept out of clashes
    they would lose at Sunrise."""
    city = state.city
    x = -2.0
    stateds = [c for c in city.districts if city.tile(c).type == "State"]
    for c in city.districts:
        here = sum(state.blocs[c])
        police = state.cops[c] + (100 if state.vans[c] >= 0 else 0)
        occupied = state.occ_owner[c] >= 0
        if occupied:
            safe = police == 0 or (state.vans[c] < 0 and here > state.cops[c])
            x += (1.2 if c in stateds else 0.25) * (1.0 if safe else 0.3)
            if city.tile(c).liberatable and not state.liberated[c]:
                x += 0.6 * min(1.0, here / (2 * state.difficulty(c)))
        if here and police:  # blocs that Sunrise would defeat
            x -= 0.05 * min(here, police)
    x += 0.5 * sum(state.liberated)
    x += 0.6 * state.vans_destroyed + 0.2 * sum(max(0, state.vans[c]) for c in stateds)  # clearing the way
    x += 0.3 * min(min(state.in_city(f) for f in state.order), 3)
    x += 0.02 * sum(state.in_city(f) for f in state.order)
    return 1.0 / (1.0 + math.exp(-x))  # squashed into (0, 1)
