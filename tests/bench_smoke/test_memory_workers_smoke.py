"""bench.memory with the pictures in a render worker process (``--workers``) and glibc's malloc set
(``--mmap-threshold``): the run ends, each sample has the worker's RSS, the setting is told. No figure is asserted
beyond its shape: memory is the bench's business."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.memory import children_rss_mb, main, malloc_mb, set_malloc
from tables import renderer


def test_no_children_no_figure_and_nothing_set() -> None:
    assert set_malloc(0, 0) == []
    assert children_rss_mb() is None or children_rss_mb() > 0  # (another test's worker may still be alive)


def test_a_short_run_with_a_render_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(renderer.WORKERS_SETTING, "0")  # (the run sets both; restored after the test)
    monkeypatch.setenv("GLIBC_TUNABLES", "")
    out = tmp_path / "memory.json"
    assert main(["--game", "breaks", "--players", "2", "--moves", "10", "--warmup", "1", "--settle", "0",
                 "--workers", "1", "--mmap-threshold", "65536", "--json", str(out)]) == 0
    res = json.loads(out.read_text())
    assert all(s["render_rss"] > 10 for s in res["samples"])  # a worker drew the pictures (its own RSS)
    assert "render_rss_mb_per_1000" in res
    printed = capsys.readouterr().out
    assert "render_rss" in printed
    if malloc_mb() is not None:  # glibc: mallopt took it
        assert "malloc: mmap_threshold=65536" in printed
