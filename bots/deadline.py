"""When a planner stops looking and answers with the best it has found so far.

Live, a bot's planner has a time on the clock (:func:`time.perf_counter`), a share of its budget from the call, the
rest left for its last look and for answering; in tests and fixed-search benchmarks it has none, so that its choice
does not depend on the machine's speed (every planner's search is bounded anyway, by a count).
"""

from __future__ import annotations

import time
from collections.abc import Callable

SHARE = 0.9  # of the budget, from the planner's call: the deadline (the rest: the last look, answering)


class Deadline:
    """A time on ``clock``, or none (``at=None``: never passed)."""

    def __init__(self, at: float | None, clock: Callable[[], float] = time.perf_counter) -> None:
        self.at = at
        self.clock = clock
        self.looks = 0  # positions looked at so far (by look())

    @classmethod
    def of(cls, budget_ms: float, timed: bool, clock: Callable[[], float] = time.perf_counter) -> Deadline:
        """:data:`SHARE` of ``budget_ms`` from now when ``timed``, else none."""
        return cls(clock() + SHARE * budget_ms / 1000.0 if timed else None, clock)

    @property
    def timed(self) -> bool:
        return self.at is not None

    def passed(self) -> bool:
        return self.at is not None and self.clock() >= self.at

    def look(self) -> bool:
        """Whether the search may look at one more position (``False``: the deadline has passed). The first look of
        a search is never cut: there is always a move found."""
        self.looks += 1
        return self.at is None or self.looks == 1 or self.clock() < self.at
