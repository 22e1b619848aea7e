"""One registration per game (issue 9): every catalogue entry is complete, and the catalogue, the rules pages,
the README and the benchmarks agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench import pipeline, playouts
from engine.base import Game
from tables.catalog import DOCS, Catalog, GameEntry, default_catalog
from tests.tables.hidden_game import HighCard

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = default_catalog().entries()
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.key for e in ENTRIES])
def test_every_entry_is_complete(entry: GameEntry) -> None:
    game = entry.rules
    assert isinstance(game, Game)
    assert entry.rules_page == DOCS / f"{entry.key}.md" and entry.rules_page.exists()
    page = entry.rules_page.read_text(encoding="utf-8")
    assert page.startswith(f"# {game.name}"), "the rules page is titled with the game's name"
    assert "\n## In one screen\n" in page, "/rules opens with the page's one-screen summary"
    state = game.new_game(game.min_players, {}, 1)
    names = [f"P{i + 1}" for i in range(game.min_players)]
    assert entry.render(game.view(state, None), names).startswith(PNG)
    assert entry.render(game.view(state, 0), names).startswith(PNG)
    assert isinstance(entry.playout_target, int) and entry.playout_target > 0


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.key for e in ENTRIES])
def test_every_option_lists_its_values_for_autocomplete(entry: GameEntry) -> None:
    """/game new's options autocomplete offers each option's listed values: an option without them (Bloc by Bloc's
    beginner= and overpass= were) is never suggested."""
    for spec in entry.rules.options:
        assert spec.choices and spec.default in spec.choices, spec.name


def test_rules_pages_readme_and_catalogue_agree() -> None:
    keys = {e.key for e in ENTRIES}
    assert {p.stem for p in DOCS.glob("*.md")} == keys, "a rules page for every game and no other"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert set(re.findall(r"\(docs/games/([a-z-]+)\.md\)", readme)) == keys, "the README links every rules page"


def test_the_benchmarks_know_every_registered_game() -> None:
    bench_readme = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    for entry in ENTRIES:
        assert f"--game {entry.key}" in bench_readme, f"bench/README.md shows how to benchmark {entry.key}"
        row = playouts.measure(entry.rules, entry.rules.min_players, seconds=0.0, seed=1)
        assert row.games == 1 and row.plies > 0
    assert pipeline.default_catalog is default_catalog  # the pipeline benchmark looks games up in the catalogue


def test_a_catalogue_refuses_duplicates_and_unknown_keys() -> None:
    catalog = Catalog([HighCard()])
    assert catalog.get("highcard") is not None and "highcard" in catalog
    with pytest.raises(LookupError, match="no renderer"):
        catalog.entry("highcard").render({}, [])  # a bare game registered for engine-only tests has no picture
    with pytest.raises(ValueError, match="duplicate"):
        catalog.add(HighCard())
    with pytest.raises(KeyError):
        catalog.entry("no-such-game")
    assert catalog.get("no-such-game") is None


async def test_the_pipeline_benchmark_runs_through_the_table_service() -> None:
    """bench.pipeline wraps the storage layer's writes to time them: one short game keeps it in step with
    Database.record_moves (a new parameter there once broke the benchmark, and no test saw it)."""
    res = await pipeline.run(1, [2], seed=1, warmup=0, game_key="breaks")
    assert res["overall"]["moves"] > 0
