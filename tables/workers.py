"""How many worker processes a pool keeps, from a setting in the environment (the bots' pool, the pictures' pool).

A setting that is not a whole number in range is logged and the pool's default used: a bot with a typo in its
``.env`` still starts.
"""

from __future__ import annotations

import logging
import os
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
