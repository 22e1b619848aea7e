"""Boards drawn straight into their palette (render.common.Canvas) against the same boards drawn in RGB and quantised
at the end, as every board was drawn before: the pictures must agree within a stated tolerance. Also the PNG writer
for palette pictures, and the canvas's own pastes and caches.

Tolerance: anti-aliased edges and shadows that fall on the felt's gradient are blended, on a canvas, with the
gradient's palette colour instead of its exact RGB value, so a few of their pixels may end one palette step away.
A Breaks board has none (every sprite there is told what lies under it; text is set on flat colours or blended
over the table): it must be the very same picture. In Blockers! a few
single pixels (one or two a board, at most) where a tile's edge meets the captured marker's frame have no ramp in the
palette and may change nearest colour by more, as may a few pixels of a Breaker Blocks text that runs into its
panel's border; everything else is identical.
"""

from __future__ import annotations

import io
import random
import zlib
from typing import Any, cast

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.rng import Rng
from render import blocbybloc, blockers, breakerblocks, breaks, common
from render.common import (
    _LINES,
    EXACT,
    FELT_CENTRE,
    FELT_EDGE,
    LINES_BYTES,
    PANEL,
    WHITE,
    YELLOW,
    Canvas,
    Glyphs,
    Palette,
    Surface,
    encode_png,
    felt,
    palette_image,
    ramp,
    shape_sprite,
    text_label,
)
from tables.catalog import default_catalog
from tests.render.png_helpers import decode
from tests.render.test_breaks_render import NAMES, OPTION_SETS, playout

MAX_LEVELS = 32  # the largest difference of one colour channel allowed at a pixel
MAX_FAR_SHARE = 0.00002  # Blockers!: the share of pixels allowed past MAX_LEVELS (single anti-aliased pixels of a
# colour pair the palette has no ramp for, whose nearest colour moves with the background's last bit)
NAMES5 = ["Alice", "Bob", "Carmen", "Dmitri", "Eun-ji"]
CATALOG = default_catalog()
MAX_SHARE = 0.002  # the share of a board's pixels allowed to differ at all


def difference(a: Image.Image, b: Image.Image) -> tuple[int, float]:
    """The largest channel difference and the share of pixels that differ, between two pictures in RGB."""
    assert a.size == b.size
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    biggest = max(int(hi) for _, hi in diff.getextrema())  # type: ignore[misc]
    changed = diff.convert("L").point(lambda v: 255 if v else 0).histogram()[255]
    return biggest, changed / (a.width * a.height)


def far_share(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels where some channel differs by more than :data:`MAX_LEVELS`."""
    bands = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).split()
    far = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2]).point(
        lambda v: 255 if v > MAX_LEVELS else 0)
    return far.histogram()[255] / (a.width * a.height)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("own", [False, True])
def test_breaks_palette_board_is_the_rgb_board(seats: int, own: bool) -> None:
    boards = 0
    for k, options in enumerate(OPTION_SETS):
        views = playout(seats, cast(dict[str, Any], options), 11 + k, own)
        for view in views[::9] + views[-1:]:
            png = breaks.render(view, NAMES)
            drawn = decode(png, rgb=False)
            assert drawn.mode == "P"
            reference = breaks._S.PALETTE.quantize(breaks.render_rgb(view, NAMES))
            assert difference(drawn, reference) == (0, 0.0), (options, view["ply"])
            boards += 1
    assert boards >= 30


def views_of(key: str, seats: int, options: dict[str, Any], seed: int, every: int) -> list[Any]:
    """Every ``every``-th position of one random game (and its last): the public view and the mover's own."""
    game = CATALOG.get(key)
    assert game is not None
    state = game.new_game(seats, game.resolve_options(options), seed)
    rng = Rng(seed)
    views = []
    for ply in range(5000):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        game.fast_apply(state, seat, game.sample_move(state, seat, rng))
        if ply % every == 0 or not game.to_act(state):
            views += [game.view(state, None), game.view(state, seat)]
    return views


@pytest.mark.parametrize(("seats", "mode"), [(2, "basic"), (3, "basic"), (4, "basic"), (5, "basic"),
                                             (2, "advanced")])
def test_blockers_palette_board_is_the_rgb_board(seats: int, mode: str) -> None:
    boards = 0
    for seed in (1, 2):
        for view in views_of("blockers", seats, {"mode": mode}, seed, 7):
            drawn = decode(blockers.render(view, NAMES5), rgb=False)
            assert drawn.mode == "P"
            reference = blockers._S.PALETTE.quantize(blockers.render_rgb(view, NAMES5))
            biggest, share = difference(drawn, reference)
            far = far_share(drawn, reference)
            assert share <= MAX_SHARE and far <= MAX_FAR_SHARE, (view["ply"], biggest, share, far)
            boards += 1
    assert boards >= 10


def test_breakerblocks_palette_board_is_the_rgb_board() -> None:
    boards = 0
    for seed in (1, 2, 3):
        for view in views_of("breakerblocks", 2, {}, seed, 5):
            drawn = decode(breakerblocks.render(view, NAMES5), rgb=False)
            assert drawn.mode == "P"
            reference = breakerblocks._board_palette().quantize(breakerblocks.render_rgb(view, NAMES5))
            biggest, share = difference(drawn, reference)
            far = far_share(drawn, reference)
            assert share <= MAX_SHARE and far <= MAX_FAR_SHARE, (view["ply"], biggest, share, far)
            boards += 1
    assert boards >= 10


@pytest.mark.parametrize("seats", [2, 4])
def test_blocbybloc_palette_picture_is_the_rgb_picture(seats: int) -> None:
    boards = 0
    for view in views_of("blocbybloc", seats, {}, 4, 25):
        drawn = decode(blocbybloc._draw(view, NAMES5[:seats]), rgb=False)  # (render() keeps the last pictures)
        assert drawn.mode == "P"
        reference = blocbybloc._board_palette().quantize(blocbybloc.render_rgb(view, NAMES5[:seats]))
        biggest, share = difference(drawn, reference)
        far = far_share(drawn, reference)
        assert share <= MAX_SHARE and far <= MAX_FAR_SHARE, (view["ply"], biggest, share, far)
        boards += 1
    assert boards >= 4


@pytest.mark.parametrize("deflate", ["installed", "zlib"])
def test_palette_png_round_trips_indices_and_colours(deflate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if deflate == "zlib":  # the writer without ISA-L (what a machine without the isal package uses)
        monkeypatch.setattr(common, "_deflate", zlib)
        monkeypatch.setattr(common, "DEFLATE", "zlib")
    rnd = random.Random(5)
    colours = [(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)) for _ in range(200)]
    img = Image.new("P", (97, 61))
    img.putpalette([v for c in colours for v in c])
    img.putdata([rnd.randrange(len(colours)) if y % 7 else 3 for y in range(61) for _ in range(97)])
    png = encode_png(img)
    back = decode(png, rgb=False)
    assert back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()
    # an RGB picture quantised on the way, as before
    rgb = img.convert("RGB")
    assert decode(encode_png(rgb, palette_image(colours))).tobytes() == rgb.tobytes()


@pytest.mark.parametrize("deflate", ["installed", "zlib"])
def test_a_canvas_picture_is_written_from_its_own_rows(deflate: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A canvas draws into a buffer laid out as the PNG's rows (encode_png deflates it as it is): the file holds
    exactly the pixels drawn, by every way of drawing, and the same file as the picture copied (the generic
    writer); a picture made from it (a crop, a copy) is written from its own pixels."""
    if deflate == "zlib":
        monkeypatch.setattr(common, "_deflate", zlib)
        monkeypatch.setattr(common, "DEFLATE", "zlib")
    palette, table = _palette(), _table()
    background = palette.background(table)
    canvas = Canvas(background, palette, table)
    assert decode(encode_png(canvas.image), rgb=False).tobytes() == background.tobytes()  # the table, untouched
    canvas.paste(shape_sprite("o", 30, YELLOW), (10, 10))
    canvas.draw.rectangle((90, 60, 150, 110), fill=canvas.ink(WHITE))
    canvas.draw.line((0, 119, 159, 0), fill=canvas.ink(YELLOW), width=3)
    Glyphs(18, YELLOW).paste(canvas, (84.0, 30.0), "Ava 12", under=PANEL)
    assert background.tobytes() != canvas.image.tobytes()  # (the background was copied, not drawn on)
    back = decode(encode_png(canvas.image), rgb=False)
    assert back.tobytes() == canvas.image.tobytes()
    assert back.getpalette() == canvas.image.getpalette()
    assert encode_png(canvas.image) == encode_png(canvas.image.copy())
    crop = canvas.image.crop((5, 5, 100, 90))
    assert decode(encode_png(crop), rgb=False).tobytes() == crop.tobytes()
    top = canvas.image.crop((0, 0, canvas.image.width, 70))  # the top rows only: the same file as a crop to them
    assert encode_png(canvas.image, height=70) == encode_png(top) == encode_png(canvas.image.copy(), height=70)
    assert decode(encode_png(canvas.image, height=70), rgb=False).tobytes() == top.tobytes()
    with pytest.raises(ValueError):
        encode_png(canvas.image, height=canvas.image.height + 1)


def test_glyphs_on_the_table_match_glyph_by_glyph() -> None:
    """Text said to lie on the table: set in the palette where the table is flat there (the same pixels as glyph by
    glyph), blended as a sprite over the felt's gradient (within the tolerance); glyphs that overlap (a bold face
    set tight) add up as pasting them one after the other does (but for a rounding: one palette step, one pixel
    of 4,000 here, as when the glyphs were composited before the palette)."""
    palette, table = _palette(), _table()
    face = Glyphs(30, YELLOW, bold=True)
    canvas, surface = Canvas(palette.background(table), palette, table), Surface(table)
    for target in (canvas, surface):
        face.paste(target, (84.0, 20.0), "WAVY 77")  # on the flat panel half
        face.paste(target, (2.0, 60.0), "WAVY")  # on the felt
    reference = palette.quantize(surface.image)
    panel = (80, 0, 160, 50)
    assert difference(canvas.image.crop(panel), reference.crop(panel)) == (0, 0.0)
    biggest, _ = difference(canvas.image, reference)
    assert biggest <= MAX_LEVELS
    tight = Glyphs(30, YELLOW, bold=True)
    tight._by_glyph("WAVY")
    tight._advance = {c: w * 0.6 for c, w in tight._advance.items()}  # glyphs overlapping their neighbours
    canvas, surface = Canvas(palette.background(table), palette, table), Surface(table)
    for target in (canvas, surface):
        tight.paste(target, (84.0, 20.0), "WAVY")
    biggest, share = difference(canvas.image.crop(panel), palette.quantize(surface.image).crop(panel))
    assert biggest <= MAX_LEVELS and share <= 0.001  # (a rounding where two glyphs' edges meet: one pixel)


def _palette() -> Palette:
    colours = ramp(FELT_EDGE, FELT_CENTRE, 40)
    for bg in (PANEL, WHITE, FELT_EDGE, FELT_CENTRE):
        for fg in (YELLOW, (0, 0, 0), (24, 24, 28)):
            colours += ramp(bg, fg, 8)
    return Palette(palette_image(colours), sprites=8, tiles=8)


def _table() -> Image.Image:
    table = felt((160, 120))
    ImageDraw.Draw(table).rectangle((80, 0, 159, 119), fill=PANEL)
    return table


def test_canvas_pastes_blend_like_rgb_pastes() -> None:
    """Over the table's gradient and its flat panel, over a colour drawn first, and over another sprite (EXACT):
    the canvas gives what blending in RGB and quantising gives, within the tolerance, and the same pixels where
    the table is flat."""
    palette, table = _palette(), _table()
    disc, star = shape_sprite("o", 30, YELLOW), shape_sprite("*", 22, (24, 24, 28))
    canvas, surface = Canvas(palette.background(table), palette, table), Surface(table)
    for target in (canvas, surface):
        target.paste(disc, (10, 10))  # on the felt
        target.paste(disc, (100, 10))  # on the panel
        target.paste(disc, (145, 100))  # over two edges of the picture: cut off
        target.draw.rectangle((90, 60, 150, 110), fill=target.ink(WHITE))
        target.paste(star, (100, 70)) if target is surface else canvas.paste(star, (100, 70), WHITE)
        target.paste(star, (104, 14)) if target is surface else canvas.paste(star, (104, 14), EXACT)
    reference = palette.quantize(surface.image)
    biggest, share = difference(canvas.image, reference)
    assert biggest <= MAX_LEVELS
    right = (80, 0, 160, 120)  # the flat half: every pixel the same
    assert difference(canvas.image.crop(right), reference.crop(right)) == (0, 0.0)
    # the same pastes again hit the caches and draw the same picture
    again = Canvas(palette.background(table), palette, table)
    again.paste(disc, (10, 10))
    again.paste(disc, (100, 10))
    again.paste(disc, (145, 100))
    again.draw.rectangle((90, 60, 150, 110), fill=again.ink(WHITE))
    again.paste(star, (100, 70), WHITE)
    again.paste(star, (104, 14), EXACT)
    assert again.image.tobytes() == canvas.image.tobytes()


def test_a_tall_sprite_is_pasted_by_bands_of_rows() -> None:
    """A sprite that covers whole most of its rows (a card with rounded corners and a shadow) is pasted as a band
    copied without a mask and the rows above and below through theirs: the same pixels as one masked paste, cut
    off at the picture's edges too, on the table and over a colour."""
    palette, table = _palette(), _table()
    card = Image.new("RGBA", (40, 60), (0, 0, 0, 0))
    ImageDraw.Draw(card).rounded_rectangle((0, 0, 36, 56), radius=8, fill=WHITE + (255,))
    card.paste((0, 0, 0, 90), (37, 4, 40, 60))  # a shadow at the right: partly transparent
    prep = palette.prepared(card)
    assert prep.band is not None and prep.band[1] - prep.band[0] >= 30
    canvas, surface = Canvas(palette.background(table), palette, table), Surface(table)
    for target in (canvas, surface):
        target.paste(card, (90, 40))
        target.paste(card, (130, 85))  # cut off at the right and the bottom
        target.paste(card, (125, -25))  # and at the top
        target.paste(card, (20, 30)) if target is surface else canvas.paste(card, (20, 30), FELT_CENTRE)
    reference = palette.quantize(surface.image)
    right = (80, 0, 160, 120)
    assert difference(canvas.image.crop(right), reference.crop(right)) == (0, 0.0)
    assert difference(canvas.image, reference)[0] <= MAX_LEVELS


def test_a_wrong_background_shows() -> None:
    """What ``under`` says matters: a sprite pasted over a colour drawn first, but said to lie on the table, gets
    the table's colours at its edges (this is what the board test above would catch)."""
    palette, table = _palette(), _table()
    disc = shape_sprite("o", 30, YELLOW)
    right, wrong = (Canvas(palette.background(table), palette, table) for _ in range(2))
    for canvas in (right, wrong):
        canvas.draw.rectangle((90, 60, 150, 110), fill=canvas.ink(WHITE))
    right.paste(disc, (100, 70), WHITE)
    wrong.paste(disc, (100, 70))
    assert difference(right.image, wrong.image)[0] > MAX_LEVELS


def test_glyphs_set_whole_on_a_canvas_match_glyph_by_glyph() -> None:
    palette, table = _palette(), _table()
    face = Glyphs(22, YELLOW, bold=True)
    canvas, surface = Canvas(palette.background(table), palette, table), Surface(table)
    for k, x in enumerate((81.0, 81.3, 81.5, 81.8)):  # where each glyph lands depends on the fraction
        xy = (x, 15 + 27 * k)
        boxes = [face.paste(canvas, xy, "Ava 12", under=PANEL),
                 face.paste(surface, xy, "Ava 12")]
        assert boxes[0] == boxes[1]
    assert difference(canvas.image, palette.quantize(surface.image)) == (0, 0.0)


def test_caches_are_bounded_and_never_confuse_sprites() -> None:
    palette, table = _palette(), _table()
    alive = []  # kept by their maker, so that their entries stay (up to the bounds)
    for k in range(40):
        sprite = shape_sprite("o", 10 + k % 5, YELLOW if k % 2 else (0, 0, 0))  # new objects: ids get reused
        if k % 3 == 0:
            alive.append(sprite)
        canvas = Canvas(palette.background(table), palette, table)
        canvas.paste(sprite, (90 + k % 3, 20))
        assert len(palette._sprites) <= 8 and palette.tiles <= 8
        check = Surface(table)
        check.paste(sprite, (90 + k % 3, 20))
        box = (90, 20, 110, 45)
        assert difference(canvas.image.crop(box), palette.quantize(check.image).crop(box)) == (0, 0.0)


def _kept_bytes(palette: Palette) -> int:
    """What the palette's entries hold, counted again from them (the running total must agree)."""
    return sum(prep.bytes for prep in palette._sprites.values())


def test_a_sprite_made_for_one_board_leaves_nothing_behind() -> None:
    """The palette holds its sprites weakly: once a sprite is gone (a label made for one board), so is its entry,
    with its tiles; a sprite its maker keeps stays ready."""
    palette, table = Palette(_palette().image), _table()
    kept = shape_sprite("o", 20, YELLOW)
    for k in range(200):
        canvas = Canvas(palette.background(table), palette, table)
        canvas.paste(kept, (10, 10))
        once = shape_sprite("*", 12 + k % 9, YELLOW)  # a new picture every board
        canvas.paste(once, (20 + k % 50, 60))
        canvas.paste(once, (100, 60), WHITE)
        del once, canvas
        palette.prepared(kept)  # (entries of sprites gone are dropped at the next look-up)
        assert len(palette._sprites) == 1
        assert palette.bytes == _kept_bytes(palette)
    assert palette._sprites[id(kept)].tiles  # its tile over the felt at (10, 10), found again on every board


def test_one_off_text_keeps_the_caches_under_their_budgets() -> None:
    """Boards with a text that changes every time (a move counter, a name never seen again), set by Glyphs and
    as labels its caller keeps for a while: the palette's bytes and the Glyphs' lines stay under their budgets
    however many boards are drawn, and the running totals agree with what the entries hold."""
    budget = 256 << 10
    palette, table = Palette(_palette().image, budget=budget), _table()
    face = Glyphs(18, YELLOW)
    labels = []
    for k in range(600):
        canvas = Canvas(palette.background(table), palette, table)
        face.paste(canvas, (4.0, 20.0), f"Move {k}: Ava played {k * 7919 % 1000}")  # EXACT-free, over the felt
        face.paste(canvas, (84.0, 50.0), f"#{k}", under=PANEL)
        labels.append(text_label(f"turn {k}", 16, YELLOW))  # a caller's cache, never emptied
        labels[-1].paste(canvas, (4, 90), under=EXACT)
        labels[-1].paste(canvas, (4, 90), under=EXACT)  # the same pixels under it again: kept
        assert palette.bytes == _kept_bytes(palette) <= budget
        assert _LINES.bytes <= LINES_BYTES
        assert palette.tiles == sum(len(prep.tiles) for prep in palette._sprites.values())
    assert len(palette._sprites) > 10  # (the budget, not a count, is what bounds them here)


def test_palette_png_is_smaller_than_the_rgb_one() -> None:
    view = playout(4, {}, 3)[30]
    png = breaks.render(view, NAMES)
    buf = io.BytesIO()
    breaks.render_rgb(view, NAMES).save(buf, format="PNG", compress_level=1)
    assert len(png) < len(buf.getvalue()) / 2


def test_label_cache_is_bounded_by_bytes() -> None:
    """Labels of texts that change with every move are remembered up to the budget, the newest kept, and a label
    asked for again while kept is the same object (so its palette entry stays ready)."""
    budget = 64 << 10
    make = common.label_cache(budget)(lambda text: text_label(text, 16, YELLOW))
    first = make("Move 0")
    assert make("Move 0") is first
    for k in range(1, 500):
        make(f"Move {k}: Ava played {k * 7919 % 1000}")
        kept = make.kept  # type: ignore[attr-defined]
        assert sum(4 * label.image.width * label.image.height for label in kept.values()) <= budget
    assert ("Move 499: Ava played " + str(499 * 7919 % 1000),) in kept
    assert ("Move 0",) not in kept and len(kept) == budget // (4 * 197 * 24)  # (each 197 x 24 pixels)
