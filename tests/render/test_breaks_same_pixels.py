"""Breaks boards keep what a picture shares with the pictures drawn a moment before (render/breaks.py: panels kept as
drawn, bands of rows kept deflated, a canvas per layout drawn again and again). That must never change a picture. Two
checks over every picture of seeded games of 2, 3 and 4 players (all option sets, awkward names), drawn in the order a
table draws them (a move's public board, then its mover's own view, now and then another seat's):

- each picture decodes to the very pixels the renderer drew before any of this was kept: a digest of its palette
  and its palette indices, per picture, in ``breaks_pixels.json`` (made with the renderer of commit b8719ea, which
  drew every picture from nothing: ``python -m tests.render.test_breaks_same_pixels --write``);
- each picture is the straightforward reference, :func:`render.breaks.render_rgb` (the board drawn in RGB on a copy
  of the empty table, every part drawn) mapped to the palette: the same pixels.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import zlib
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.rng import Rng
from tables.catalog import default_catalog
from tests.render.png_helpers import idat, shown

FIXTURE = Path(__file__).with_name("breaks_pixels.json")
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"jokers": True},
    {"aces_wild": True},
    {"scoring": "court"},
    {"decks": 2},
    {"decks": 2, "jokers": True, "aces_wild": True, "scoring": "court", "tiebreak": "cards_left", "recycles": 0},
]
NAME_SETS = [
    ["Alice", "Bartholomew", "Chen Wei", "Dana"],
    ["A" * 60, "Zoë Åström", "李小龙", "🎲🎲"],
    ["محمد", "נועה", "Мария", "Alexandra-Marguerite"],
]
GAMES = [(seats, k) for seats in (2, 3, 4) for k in range(2)]  # 6 games: (players, game number)
HEAD, TAIL = 150, 60  # the pictures of a game's first moves and of its last, the final round and the end


def game_pictures(seats: int, k: int) -> list[tuple[Any, list[str]]]:
    """(view, names) of the first :data:`HEAD` and the last :data:`TAIL` pictures of one seeded game, in the order a
    table draws them (see :func:`every_picture`)."""
    pictures = list(every_picture(seats, k))
    return pictures[:HEAD] + pictures[max(HEAD, len(pictures) - TAIL):]


def every_picture(seats: int, k: int) -> Iterator[tuple[Any, list[str]]]:
    """(view, names) of every picture of one seeded game, in the order a table draws them: after each move the
    public board and the mover's own view; every fifth move also the next seat's own view, and the public board
    under the names of the next game (the same position with other names)."""
    game = default_catalog().get("breaks")
    assert game is not None
    index = 2 * (seats - 2) + k  # (each option set once)
    seed = 100 * seats + k
    names = NAME_SETS[k % len(NAME_SETS)][:seats]
    others = NAME_SETS[(k + 1) % len(NAME_SETS)][:seats]
    state = game.new_game(seats, game.resolve_options(OPTION_SETS[index]), seed)
    rng = Rng(seed)
    yield json.loads(json.dumps(game.view(state, None))), names
    for move in range(5000):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        game.fast_apply(state, seat, game.sample_move(state, seat, rng))
        yield json.loads(json.dumps(game.view(state, None))), names
        yield json.loads(json.dumps(game.view(state, seat))), names
        if move % 5 == 4:
            yield json.loads(json.dumps(game.view(state, (seat + 1) % seats))), names
            yield json.loads(json.dumps(game.view(state, None))), others


def digest(png: bytes) -> str:
    """The picture's palette and palette indices, decoded, as a short digest (the PNG's bytes may differ)."""
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.mode == "P"
    h = hashlib.blake2b(digest_size=10)
    h.update(repr(img.size).encode())
    h.update(bytes(img.getpalette("RGB") or []))
    h.update(img.tobytes())
    return h.hexdigest()


def write_fixture() -> None:
    from render import breaks

    out = {f"{seats}-{k}": [digest(breaks.render(view, names)) for view, names in game_pictures(seats, k)]
           for seats, k in GAMES}
    FIXTURE.write_text(json.dumps(out, indent=0) + "\n")


@pytest.mark.parametrize(("seats", "k"), GAMES)
def test_every_picture_has_the_pixels_drawn_before(seats: int, k: int) -> None:
    from render import breaks

    expected = json.loads(FIXTURE.read_text())[f"{seats}-{k}"]
    pictures = game_pictures(seats, k)
    assert len(pictures) == len(expected) >= 200
    wrong = [i for i, ((view, names), want) in enumerate(zip(pictures, expected, strict=True))
             if digest(breaks.render(view, names)) != want]
    assert not wrong, f"{len(wrong)} of {len(pictures)} pictures changed, first at {wrong[:5]}"


@pytest.mark.parametrize(("seats", "k"), GAMES)
def test_every_picture_is_the_reference_drawing(seats: int, k: int) -> None:
    """Every picture drawn (in a table's order, so that what is kept is used), every fourth of them against the same
    board drawn whole on a copy of the empty table (:func:`render.breaks.render_whole`: the same pixels) and drawn in
    RGB and mapped to the palette (:func:`render.breaks.render_rgb`: the same but for a few pixels where the glyphs
    of a long name overlap and the canvas adds their coverage up, as tests/render/test_palette_canvas.py allows)."""
    from render import breaks

    for i, (view, names) in enumerate(game_pictures(seats, k)):
        png = breaks.render(view, names)
        if i % 4:
            continue
        drawn = Image.open(io.BytesIO(png))
        whole = Image.open(io.BytesIO(breaks.render_whole(view, names)))
        assert drawn.size == whole.size and drawn.tobytes() == whole.tobytes(), (i, view["ply"])
        assert drawn.getpalette() == whole.getpalette()
        reference = breaks._S.PALETTE.quantize(breaks.render_rgb(view, names))
        diff = ImageChops.difference(drawn.convert("RGB"), reference.convert("RGB"))
        levels = max(int(hi) for _, hi in diff.getextrema())  # type: ignore[misc]
        changed = diff.convert("L").point(lambda v: 255 if v else 0).histogram()[255]
        assert levels <= 8 and changed <= 32, (i, view["ply"], levels, changed)


def forget_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing kept of earlier pictures (panels, fans, bands, idle canvases); the empty tables and sprites stay."""
    from render import breaks

    monkeypatch.setattr(breaks, "_PARTS", breaks._parts())
    monkeypatch.setattr(breaks, "_FANS", breaks._fans())
    monkeypatch.setattr(breaks, "_BANDS", breaks._bands())
    monkeypatch.setattr(breaks, "_IDLE", {})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_kept_bands_make_the_picture_drawn_from_nothing(seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bands are used (each section's kept band is taken, and kept panels pasted), and a picture made of kept
    bands is the picture drawn with nothing kept, as a player gets it (its rows and other chunks: ISA-L may deflate
    the same rows to other bytes in a process with threads, png_helpers.shown); its stream is a valid zlib stream
    (Adler-32 checked) of unfiltered rows."""
    from render import breaks

    pictures = game_pictures(seats, 0)[:120]
    forget_kept(monkeypatch)
    hits = Counter[str]()
    get, part, fan = breaks._BANDS.get, breaks._PARTS.get, breaks._FANS.get

    def counted(key: tuple[Any, ...]) -> Any:
        found = get(key)
        hits[f"{key[0]} {'hit' if found is not None else 'miss'}"] += 1
        return found

    def counted_part(key: tuple[Any, ...]) -> Any:
        found = part(key)
        hits[f"panel part {'hit' if found is not None else 'miss'}"] += 1
        return found

    def counted_fan(key: tuple[Any, ...]) -> Any:
        found = fan(key)
        hits[f"fan {'hit' if found is not None else 'miss'}"] += 1
        return found

    monkeypatch.setattr(breaks._BANDS, "get", counted)
    monkeypatch.setattr(breaks._PARTS, "get", counted_part)
    monkeypatch.setattr(breaks._FANS, "get", counted_fan)
    kept = [breaks.render(view, names) for view, names in pictures]
    assert all(hits[f"{kind} hit"] for kind in ("head", "piles", "panels", "foot", "panel part", "fan")), hits
    for (view, names), png in zip(pictures[::9], kept[::9], strict=True):
        forget_kept(monkeypatch)
        again = breaks.render(view, names)
        same = Image.open(io.BytesIO(again)).tobytes() == Image.open(io.BytesIO(png)).tobytes()
        assert shown(again) == shown(png), (view["ply"], view["viewer"], "the same pixels" if same else "other pixels")
        rows = zlib.decompress(idat(png))
        width, height = 800, breaks.LAYOUTS[seats].height
        assert len(rows) == (width + 1) * height and all(rows[y * (width + 1)] == 0 for y in range(height))
        pixels = Image.open(io.BytesIO(breaks.render_whole(view, names))).tobytes()
        assert b"".join(rows[y * (width + 1) + 1:(y + 1) * (width + 1)] for y in range(height)) == pixels


def test_pictures_drawn_in_threads_at_once_are_the_pictures_drawn_one_by_one(monkeypatch: pytest.MonkeyPatch
                                                                             ) -> None:
    from render import breaks
    from render.common import recording_on

    pictures = game_pictures(3, 1)[:90] + game_pictures(2, 1)[:60]
    forget_kept(monkeypatch)
    assert not recording_on(), "a recorder of texts was left open (pictures would be drawn whole here)"
    alone = [breaks.render(view, names) for view, names in pictures]
    forget_kept(monkeypatch)
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda p: breaks.render(*p), pictures))
    # What a player's picture is: its pixels (palette indices) and its other chunks (size, palette). Its deflated
    # bytes may differ by a few bytes for the same rows when drawn four at once (seen in ~1 of 10 runs), so they are
    # not compared here. Session 18 traced it to ISA-L's deflate itself: the very same rows, copied to private bytes,
    # deflated twice in a row in one thread gave two streams (both inflate to the rows) that part at the band's third
    # byte (a run of equal pixels taken from there or one byte later); only with several threads drawing, never with
    # stdlib zlib in their place, never in one thread (150 runs of 270 pictures: 92,261 band deflates, each rows one
    # stream). A render worker draws in one thread. bench/README.md, "Threads make other deflated bytes".
    differ = [i for i, (a, b) in enumerate(zip(alone, together, strict=True)) if shown(a) != shown(b)]
    where = [(pictures[i][0]["ply"], pictures[i][0]["viewer"]) for i in differ[:5]]
    assert not differ, f"{len(differ)} of {len(pictures)} pictures differ: {differ[:10]}; plies and viewers {where}"
    assert all(len(idle) <= 2 for idle in breaks._IDLE.values())


def test_what_is_kept_stays_within_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over many pictures the kept panels, fans and bands stay within their budgets (the least recently used go
    first)."""
    from render import breaks

    forget_kept(monkeypatch)
    monkeypatch.setattr(breaks, "_PARTS", breaks.Kept(1 << 20, lambda part: part.width * part.height))
    monkeypatch.setattr(breaks, "_FANS", breaks.Kept(300_000, lambda part: part.width * part.height))
    monkeypatch.setattr(breaks, "_BANDS", breaks.Kept(200_000, lambda band: len(band.data) + 100))
    for view, names in game_pictures(4, 1)[:150]:
        breaks.render(view, names)
        assert breaks._PARTS.bytes <= 1 << 20 and breaks._FANS.bytes <= 300_000 and breaks._BANDS.bytes <= 200_000
    assert len(breaks._PARTS.items) >= 3 and len(breaks._FANS.items) >= 5 and len(breaks._BANDS.items) >= 10


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write_fixture()
