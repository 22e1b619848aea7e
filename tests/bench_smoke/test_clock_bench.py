"""bench.clock runs on both backends and times the tick the clock runs (its figures are the bench's, not checked
here: no test depends on the machine's speed)."""

from __future__ import annotations

import re

import pytest

from bench import clock
from tests.pg import server_binaries


@pytest.mark.parametrize("postgresql", [False, True], ids=["sqlite", "postgresql"])
def test_the_clock_bench_plays_the_late_turns_on_each_backend(postgresql: bool,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    if postgresql and server_binaries() is None:
        pytest.skip("PostgreSQL's server binaries are missing (apt-get install postgresql)")
    # the late games are those of ids 2-9, a guild each: shard 0 of 2 owns the even ids' (2, 4, 6, 8)
    assert clock.main(["--games", "40", "--overdue", "8", "--shards", "0/2"]
                      + (["--postgresql"] if postgresql else [])) == 0
    out = capsys.readouterr().out
    backends = re.findall(r"^  (\w+):$", out, re.M)
    assert backends == (["SQLite", "PostgreSQL"] if postgresql else ["SQLite"])
    played = [int(n) for n in re.findall(r"start-up with (\d+) late turns played out", out)]
    assert played == [4] * len(backends), out
    assert out.count("scheduler tick (median of 200)") == len(backends)
