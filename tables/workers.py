"""How many worker processes a pool keeps, from a setting in the environment (the bots' pool, the pictures' pool),
and how a process of the bot sets glibc's malloc.

A setting that is not a whole number in range is logged and the pool's default used: a bot with a typo in its
``.env`` still starts.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys
from collections.abc import Mapping

log = logging.getLogger(__name__)


def cores() -> int:
    """The cores this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on Linux)
        return max(1, os.cpu_count() or 1)


def count_setting(name: str, default: int, minimum: int, env: Mapping[str, str] | None = None) -> int:
    """The whole number ``name`` holds in ``env`` (by default the process's environment), at least ``minimum``;
    ``default`` when it is unset, empty or not such a number (the last logged)."""
    raw = (os.environ if env is None else env).get(name, "").strip()
    if not raw:
        return default
    try:
        count = int(raw)
    except ValueError:
        count = minimum - 1
    if count >= minimum:
        return count
    log.warning("%s must be a whole number of worker processes, %d or more, not %r: using %d", name, minimum, raw,
                default)
    return default


MMAP_THRESHOLD = 64 * 1024
"""Blocks of this many bytes and more are mapped apart by glibc's malloc and given back whole when freed. Its default,
128 KB and rising with the blocks freed, kept the board pictures (PNGs of 40-130 KB, made in the render worker and
received in the bot's process) in its heaps, whose free holes grew the bot's RSS by ~1.2 MB per 1,000 moves of Bloc
by Bloc (bench.memory, bench/README.md)."""
_M_MMAP_THRESHOLD = -3  # mallopt's parameter (glibc's malloc.h)


def map_large_blocks(threshold: int = MMAP_THRESHOLD) -> bool:
    """Set glibc's malloc in this process to map blocks of ``threshold`` bytes and more apart; whether it took (not on
    another C library, nor where the environment's ``GLIBC_TUNABLES`` sets the threshold: the operator's word)."""
    if not sys.platform.startswith("linux") or "glibc.malloc.mmap_threshold" in os.environ.get("GLIBC_TUNABLES", ""):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, threshold) == 1)
