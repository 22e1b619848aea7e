"""tables.workers: pool sizes from the environment, and glibc's malloc as the bot's processes set it."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

import pytest

from tables.workers import MMAP_THRESHOLD, count_setting, map_large_blocks


@pytest.mark.parametrize(("raw", "expected"), [
    (None, 3), ("", 3), ("  ", 3), ("2", 2), (" 4 ", 4), ("1", 1), ("0", 3), ("-1", 3), ("two", 3), ("1.5", 3),
])
def test_a_count_setting_is_a_whole_number_in_range_else_the_default(raw: str | None, expected: int) -> None:
    env = {} if raw is None else {"WORKERS": raw}
    assert count_setting("WORKERS", 3, 1, env) == expected


@pytest.mark.skipif(not sys.platform.startswith("linux") or not ctypes.util.find_library("c"), reason="glibc")
def test_glibc_takes_the_bots_malloc_setting() -> None:
    assert map_large_blocks()
    assert map_large_blocks(MMAP_THRESHOLD)


def test_the_operators_glibc_tunables_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=131072")
    assert not map_large_blocks()
