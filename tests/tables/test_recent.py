"""tables.recent.Recent: the values last put or read, up to a count, the least recently used first out."""

from __future__ import annotations

from tables.recent import Recent


def test_the_least_recently_used_goes_first() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # read: now the most recent
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), len(kept)) == (1, None, 3, 2)
    kept.put("a", 4)  # put again: replaced and most recent
    kept.put("d", 5)
    assert (kept.get("a"), kept.get("c"), kept.get("d")) == (4, None, 5)
    kept.pop("a")
    kept.pop("no such key")
    assert (kept.get("a"), len(kept)) == (None, 1)
