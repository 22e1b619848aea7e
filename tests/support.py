"""Bots for tests, the list of bots whose databases the conftest closes after each test, and how slow this machine
runs now, to scale the few wall-clock limits the tests keep.

A plain module (not the conftest) so that tests and the conftest share one list.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path

from cogs.client import Blockhouse, Settings
from tables.catalog import Catalog

OPEN_BOTS: list[Blockhouse] = []


def make_bot(db_path: Path, registry: Catalog | None = None, first_seed: int = 1,
             clock: Callable[[], float] | None = None) -> Blockhouse:
    """A fresh, unstarted bot on the given database file (a restart is a new bot on the same file).

    Game seeds count up from ``first_seed`` so every test run deals the same cards.
    """
    seeds = itertools.count(first_seed)
    bot = Blockhouse(Settings(token="test-token", database=str(db_path)), registry, seeds=lambda: next(seeds),
                     clock=clock)
    OPEN_BOTS.append(bot)
    return bot


# --- wall-clock limits ------------------------------------------------------------------------------------------
# No test waits a fixed time for something to happen: each waits for the event itself. What is left on the wall
# clock are guards against a hang (simcord's settle limit, a bound on a worker's answer), and a guard must not fire
# because the machine is slow or busy. Each is scaled by slowness(): the wall-clock time of a fixed piece of
# pure-Python work now, over what it takes on a quiet development machine. It covers a slower CPU and a busy one
# alike (with both cores taken by other work it reads about 2), and is measured again every few seconds, so a
# machine that gets busy during the session scales its limits up.
CALIBRATION_S = 0.010  # _calibration() on a quiet development machine (2 cores, 2026-11-26)
REMEASURE_S = 5.0
_measured: list[float] = []  # [factor, when]


def _calibration() -> float:
    started = time.perf_counter()
    total = 0
    for i in range(100_000):
        total += i * i % 7
    return time.perf_counter() - started if total >= 0 else 0.0


def slowness() -> float:
    """How many times slower than a quiet development machine this one runs now (never less than 1)."""
    now = time.monotonic()
    if not _measured or now - _measured[1] > REMEASURE_S:  # the median of three: one quick sample can't lower it
        _measured[:] = [max(1.0, sorted(_calibration() for _ in range(3))[1] / CALIBRATION_S), now]
    return _measured[0]


def scaled(seconds: float) -> float:
    """A wall-clock guard of ``seconds`` on a quiet development machine, scaled to this machine as it runs now."""
    return seconds * slowness()
