"""One registration per game (issue 9): every catalogue entry is complete, and the catalogue, the rules pages,
the README and the benchmarks agree."""

from __future__ import annotations

import re
import subprocess
import sys
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


def test_importing_the_games_draws_nothing_and_renderers_load_on_first_render() -> None:
    """The catalogue attaches each renderer lazily and no renderer draws at import (a bot's worker took ~8 s to
    start on a busy machine when importing a game drew every sprite): in a fresh interpreter, building the
    catalogue and importing every renderer makes no image and loads no font, and a renderer's module is imported
    by its first render."""
    script = """
import sys
import PIL.Image
import PIL.ImageFont

calls = []
for module, name in ((PIL.Image, "new"), (PIL.ImageFont, "truetype")):
    def counted(*args, _original=getattr(module, name), _name=name, **kwargs):
        calls.append(_name)
        return _original(*args, **kwargs)
    setattr(module, name, counted)

from tables.catalog import default_catalog

catalog = default_catalog()
assert not [m for m in sys.modules if m.startswith("render")], "the catalogue imports no renderer"
import render.blocbybloc, render.block, render.blockers, render.breakerblocks, render.breaks  # noqa: E401
assert calls == [], f"importing the renderers drew: {calls}"
sys.modules.pop("render.breaks")
entry = catalog.entry("breaks")
state = entry.rules.new_game(2, {}, 1)
assert entry.render(entry.rules.view(state, None), ["a", "b"]).startswith(b"\\x89PNG")
assert "render.breaks" in sys.modules and calls, "the first render imports the renderer and draws"
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
