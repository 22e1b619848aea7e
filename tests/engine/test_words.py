"""The shared words of engine.text: counts that agree with their nouns, seat ranges in words."""

from __future__ import annotations

import pytest

from engine.text import players, plural


@pytest.mark.parametrize(("n", "word", "many", "want"), [
    (0, "cop", "", "0 cops"), (1, "cop", "", "1 cop"), (2, "cop", "", "2 cops"),
    (1, "occupation", "", "1 occupation"), (3, "die", "dice", "3 dice"), (1, "die", "dice", "1 die"),
])
def test_a_count_agrees_with_its_noun(n: int, word: str, many: str, want: str) -> None:
    assert plural(n, word, many) == want


@pytest.mark.parametrize(("low", "high", "want"), [(2, 2, "2 players"), (1, 1, "1 player"), (2, 4, "2–4 players"),
                                                   (1, 6, "1–6 players")])
def test_seat_ranges_in_words(low: int, high: int, want: str) -> None:
    assert players(low, high) == want
