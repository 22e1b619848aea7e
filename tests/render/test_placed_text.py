"""``render.common.Glyphs`` on a canvas remembers where a text's glyphs fall (``_PLACED``, by face, text, x and
anchor), so that a text set again is not laid out glyph by glyph again: the pixels must be those of the text set
glyph by glyph, wherever and however it is set, the first time and every time after, and the memory stays bounded."""

from __future__ import annotations

from PIL import Image

from render import common
from render.common import PANEL, YELLOW, Canvas, Glyphs, Palette, Surface, palette_image, ramp

TEXTS = ("Ava 12", "Blocs: 3 in the city, 2 on the mat", "  ", "Zoë · 李小龙")


def _palette() -> Palette:
    return Palette(palette_image(ramp(PANEL, YELLOW, 24) + ramp(PANEL, (255, 255, 255), 24)))


def _set_all(face: Glyphs, target: Canvas | Surface) -> list[tuple[int, int, int, int]]:
    """Every text at fractions of x that round differently (ties to even: 80.5 and 81.5 go opposite ways), by each
    anchor, one under the other."""
    boxes = []
    y = 14.0
    for text in TEXTS:
        for x in (80.0, 80.5, 81.5, 81.25, 100.75):
            for anchor in ("l", "m", "r"):
                boxes.append(face.paste(target, (x if anchor == "l" else x + 400, y), text, anchor=anchor))
                y += 32  # (apart: a text set on the panel overwrites what its box covers)
    return boxes


def test_a_text_set_again_falls_where_glyph_by_glyph_puts_it() -> None:
    """The regular face on a canvas is exactly glyph by glyph (the bold one differs by a rounding where its glyphs
    overlap: see test_palette_canvas); both set the same pixels the first time and from what was remembered."""
    table = Image.new("RGB", (900, 1960), PANEL)
    palette = _palette()
    for bold in (False, True):
        face = Glyphs(18, YELLOW, bold=bold)
        surface = Surface(table)
        reference_boxes = _set_all(face, surface)
        reference = palette.quantize(surface.image)
        common._PLACED.clear()
        pictures = []
        for _ in range(2):  # first found, then every place taken from what was remembered
            canvas = Canvas(palette.background(table), palette, table)
            assert _set_all(face, canvas) == reference_boxes
            pictures.append(canvas.image.tobytes())
        assert pictures[0] == pictures[1]
        if not bold:
            assert pictures[0] == reference.tobytes()
        assert any(key[0] is face and key[1] == "Ava 12" and key[2] == 81.5 for key in common._PLACED)


def test_the_places_remembered_are_bounded() -> None:
    table = Image.new("RGB", (400, 40), PANEL)
    palette = _palette()
    face = Glyphs(18, YELLOW)
    canvas = Canvas(palette.background(table), palette, table)
    for k in range(common.PLACED_KEPT + 500):  # a text that changes on every board
        face.paste(canvas, (4.0, 20.0), f"Move {k}")
        assert len(common._PLACED) <= common.PLACED_KEPT
    assert (face, f"Move {common.PLACED_KEPT + 499}", 4.0, "l") in common._PLACED  # the newest stays
