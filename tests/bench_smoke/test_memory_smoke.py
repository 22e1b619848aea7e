"""bench.memory runs end to end: a few Breaks games through the real TableService, RSS (and malloc's figures where
glibc gives them) sampled at the start and the end, and with tracing tracemalloc's growths between two points. No
figure is asserted beyond its shape: memory is the bench's business."""

from __future__ import annotations

from bench.memory import malloc_mb, pymalloc_mb, run, slope


def test_slope_is_least_squares() -> None:
    assert slope([]) == 0.0 and slope([(5, 3.0)]) == 0.0
    assert slope([(0, 1.0), (1000, 3.0), (2000, 5.0)]) == 0.002
    assert abs(slope([(0, 0.0), (1, 1.0), (2, 1.0)]) - 0.5) < 1e-12


def test_malloc_figures_are_sizes() -> None:
    heap = malloc_mb()
    if heap is not None:  # (None without glibc)
        used, free = heap
        assert used > 0 and free >= 0
    small = pymalloc_mb()
    assert small is not None, "sys._debugmallocstats read back"
    assert 0 < small[0] <= small[1]


async def test_a_short_run_with_tracing_between_two_points() -> None:
    res = await run("breaks", 2, moves=10, warmup_games=1, seed=5, trace=True, trace_at=(0, 5), top=5)
    samples = res["samples"]
    assert samples[0]["moves"] == res["warmup_moves"] > 0
    assert samples[-1]["moves"] >= res["warmup_moves"] + 10, "the end of the run is sampled"
    assert samples[-1]["games"] > samples[0]["games"] == 1 and samples[-1]["threads"] >= 1
    assert all(s["rss"] > 0 for s in samples)
    assert all(s["pymalloc_used"] <= s["pymalloc_arenas"] for s in samples if "pymalloc_used" in s)
    assert 0 < len(res["growth"]) <= 5 and all(" KB in " in line for line in res["growth"])
