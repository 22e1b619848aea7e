"""BLOCK as a PNG, 600 px wide and as tall as it needs, so that a phone (which shows it 400 px wide) reads every
text at 9 px or more: a strip with the turn, who is still picking, the dice and the BLOCK board, then every player's
score sheet, two side by side; a seat's own view draws its own sheet alone and large, with everyone's name, state
and score under it (the public board has every sheet).

Input is exactly ``Block.view()`` (see ``docs/dev/block-view.md``); output is PNG bytes.

Speed: the image is drawn straight into a palette (``P``) image. Every layout's empty table (felt, strips,
empty sheets with their grids, labels and score-track frames, the board's frames, the legend) is drawn once
in RGB with anti-aliasing and mapped to the palette; every filled cell (a number, an X, a piece of a combo's
outline), dice, badges and every piece of text are sprites mapped to the same palette once and cached. A
render copies the table (a byte per pixel), pastes sprites, draws a few axis-aligned rectangles with palette
indices (highlights, the board's shapes) and encodes the PNG without a quantising pass.

Reading the sheets without relying on colour: penalty cells are dark, hatched and hold a white X; combos are
circled by a pen outline that joins their cells; rows beyond the Game Over line are shaded under a thick
dashed line; the last turn's cells are outlined with black-and-yellow dashes and a seat's own picks of this
turn with a solid double line; made combos are filled circles, circled letters have a ring and crossed
letters a stroke; every state (thinking, submitted, winner, crossed, active, drops now) also has a word.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, wraps
from typing import Any, ParamSpec, TypeVar

from PIL import Image, ImageDraw

from engine.base import ResultView
from engine.block import Block
from engine.block.game import STAR
from engine.block.shapes import DIE_SHAPES, SHAPES
from engine.block.sheet import BONUS, COLUMNS, CONSECUTIVE, HEIGHT, LETTERS, SIZES, WIDTH, X, parse_cell
from engine.block.sheet import LINE as GAME_OVER_INDEX
from engine.block.view import BlockPlayer, BlockView, Breakdown, ComboView
from render.common import (
    BLUE,
    FAINT,
    FELT_CENTRE,
    FELT_EDGE,
    INK,
    MUTED,
    ORANGE,
    PANEL,
    PANEL_EDGE,
    STRIP,
    VERMILLION,
    WHITE,
    YELLOW,
    Box,
    Colour,
    Drawn,
    bold_stroke,
    clean_text,
    draw_text,
    encode_png,
    felt,
    fit_text,
    join_names,
    note_text,
    number_text,
    ramp,
    recording,
    rounded_mask,
    seat_names,
    star_points,
    text_width,
)

# --- the game's facts (from the engine, never copied) ----------------------------------------------------------
LINE = GAME_OVER_INDEX + 1  # the first row (1-based) beyond the Game Over line; the view says so too
LETTER_SET = frozenset(LETTERS)
MAX_SEATS = Block.max_players
# The shape die's tetrominoes as (row from top, col) cells: the view names the die's face, not its cells.
TETROMINOES = {face: SHAPES[face] for face in DIE_SHAPES}
LADDER = ((0, "rookie", "<30"), (30, "stacker", "30-39"), (40, "architect", "40-49"), (50, "master", "50-59"),
          (60, "legend", "60+"))

# --- colours -------------------------------------------------------------------------------------------------
PAPER: Colour = (250, 247, 238)
PAPER_EDGE: Colour = (188, 182, 164)
GRID: Colour = (184, 188, 200)
FRAME: Colour = (84, 90, 106)
BEYOND: Colour = (222, 214, 234)  # rows beyond the Game Over line: darker than the paper, and hatched
BEYOND_HATCH: Colour = (200, 190, 218)
LABEL: Colour = (96, 100, 114)  # printed labels on the paper
PRINT: Colour = (176, 174, 166)  # faint printed numbers in empty boxes
X_FILL: Colour = (58, 60, 74)
X_HATCH: Colour = (74, 76, 94)
PEN = BLUE  # combo outlines, made combos, circled letters
IDENT_FILL: Colour = (255, 237, 168)
CONSEC_FILL: Colour = (204, 232, 250)
HAZARD = YELLOW  # the last turn: yellow dashes on a black band
PENDING = VERMILLION  # a seat's own picks this turn: a solid band with a white core
SLOT: Colour = (20, 70, 50)  # a BLOCK board slot (on the strip)
SLOT_EDGE: Colour = (60, 120, 92)
TILE: Colour = (238, 232, 214)  # a solo tile
TILE_EDGE: Colour = (150, 140, 112)

# Colours that tell things apart, with the words drawn with them (tests/render/test_colour_cues.py). BLOCK tells
# the players apart by their seat number and name, never by colour (every sheet is drawn alike); the one pair of
# colours that tells two kinds apart is the fill of a combo's cells, identical or consecutive, which stays apart
# to every viewer (CIEDE2000 > 30 to a deuteranope and a protanope), and whose kind the numbers in it show too
# (all equal, or a run) and each sheet's score track names in words.
PLAYER_COLOURS: dict[str, Colour] = {"identical combo": IDENT_FILL, "consecutive combo": CONSEC_FILL}
SECOND_CUE: dict[str, str] = {"identical combo": "ident.", "consecutive combo": "consec."}

# --- the palette ---------------------------------------------------------------------------------------------
_GROUNDS = (PAPER, BEYOND, STRIP, SLOT, PANEL, TILE)


def _palette_colours() -> list[Colour]:
    """Every colour the image uses, with the anti-aliasing ramps between colours that meet."""
    colours = [PAPER, PAPER_EDGE, GRID, FRAME, BEYOND, BEYOND_HATCH, LABEL, PRINT, X_FILL, X_HATCH, PEN, IDENT_FILL,
               CONSEC_FILL, HAZARD, PENDING, SLOT, SLOT_EDGE, TILE, TILE_EDGE, INK, WHITE, MUTED, FAINT, ORANGE,
               YELLOW, VERMILLION, BLUE, STRIP, PANEL, PANEL_EDGE, FELT_EDGE, FELT_CENTRE]  # first: exact
    colours += ramp(FELT_EDGE, FELT_CENTRE, 28)
    pairs = [
        (PAPER, INK), (PAPER, LABEL), (PAPER, PRINT), (PAPER, GRID), (PAPER, FRAME), (PAPER, PEN), (PAPER, X_FILL),
        (PAPER, VERMILLION), (PAPER, YELLOW), (PAPER, MUTED), (PAPER, BEYOND), (PAPER, PAPER_EDGE),
        (PAPER, WHITE), (PAPER, ORANGE),
        (BEYOND, INK), (BEYOND, PEN), (BEYOND, GRID), (BEYOND, BEYOND_HATCH), (BEYOND, LABEL),
        (IDENT_FILL, INK), (IDENT_FILL, PEN), (CONSEC_FILL, INK), (CONSEC_FILL, PEN), (GRID, PEN),
        (X_FILL, WHITE), (X_FILL, X_HATCH), (X_FILL, GRID), (X_HATCH, WHITE),
        (PEN, WHITE), (INK, WHITE), (VERMILLION, WHITE), (YELLOW, INK), (ORANGE, INK), (MUTED, INK),
        (STRIP, WHITE), (STRIP, MUTED), (STRIP, YELLOW), (STRIP, INK), (STRIP, PANEL_EDGE), (STRIP, SLOT),
        (STRIP, FAINT),
        (SLOT, WHITE), (SLOT, MUTED), (SLOT, YELLOW), (SLOT, SLOT_EDGE), (SLOT, INK), (SLOT, FAINT),
        (PANEL, WHITE), (PANEL, MUTED), (PANEL, YELLOW), (PANEL, PANEL_EDGE), (PANEL, INK), (PANEL, FAINT),
        (TILE, INK), (TILE, TILE_EDGE), (TILE, PEN), (TILE, SLOT),
        (FELT_CENTRE, PAPER), (FELT_EDGE, PAPER), (FELT_CENTRE, YELLOW), (FELT_EDGE, YELLOW),
        (FELT_CENTRE, PANEL), (FELT_EDGE, PANEL),
    ]
    for bg, fg in pairs:
        colours += ramp(bg, fg, 4)
    return colours


@cache
def _build_palette() -> Image.Image:
    unique: list[Colour] = []
    for c in _palette_colours():
        # Pillow maps colours through a cache of 6-bit buckets: keep colours apart so that each maps to itself
        if all(max(abs(c[0] - u[0]), abs(c[1] - u[1]), abs(c[2] - u[2])) > 6 for u in unique):
            unique.append(c)
    if len(unique) > 256:  # pragma: no cover - caught by the tests
        raise ValueError(f"{len(unique)} colours do not fit in a PNG palette")
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in unique for v in c], rawmode="RGB")
    return pal




def _quant(img: Image.Image) -> Image.Image:
    """An RGB image mapped to the palette (nearest colour, no dithering)."""
    return img.convert("RGB").quantize(palette=_build_palette(), dither=Image.Dither.NONE)


@cache
def ix(colour: Colour) -> int:
    """The palette index a colour maps to (the one sprites of that colour use)."""
    return _quant(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))  # type: ignore[return-value]


# --- sprites: text, pills, badges ------------------------------------------------------------------------------
_P = ParamSpec("_P")
_R = TypeVar("_R")


def replayed(maxsize: int | None = None) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """A cache for a function that draws text (a sprite, the empty table) that tells :func:`recording` about
    that text at every call, not only the first: each call is a paste of what it made."""

    def wrap(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        def build(*args: Any, **kwargs: Any) -> tuple[_R, tuple[Drawn, ...]]:
            with recording() as seen:
                out = fn(*args, **kwargs)
            return out, tuple(seen)

        cached = lru_cache(maxsize=maxsize)(build)

        @wraps(fn)
        def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            out, seen = cached(*args, **kwargs)  # type: ignore[arg-type]
            for d in seen:
                note_text(d.text, d.size, d.decorative)
            return out

        return call

    return wrap


def _sym(text: str) -> str:
    """Text for the font: the star the font lacks becomes ``*``."""
    return clean_text(str(text).replace("\u2605", "*"))


@replayed(2048)
def text_sprite(text: str, size: int, fg: Colour, bg: Colour, bold: bool = False) -> Image.Image:
    stroke = bold_stroke(size) if bold else 0
    pad = 1 + math.ceil(stroke)
    width = max(1, math.ceil(text_width(text, size, bold))) + 2 * pad
    height = int(size * 1.3) + 2 * math.ceil(stroke)
    img = Image.new("RGB", (width, height), bg)
    draw_text(ImageDraw.Draw(img), (pad, height / 2), text, size, fg, anchor="lm", bold=bold)
    return _quant(img)


def put(img: Image.Image, sprite: Image.Image, x: float, cy: float, anchor: str = "l") -> Box:
    """Paste an opaque sprite with ``cy`` its vertical middle; ``anchor`` l/m/r says what ``x`` is."""
    if anchor == "m":
        x -= sprite.width / 2
    elif anchor == "r":
        x -= sprite.width
    left, top = round(x), round(cy - sprite.height / 2)
    img.paste(sprite, (left, top))
    return (left, top, left + sprite.width, top + sprite.height)


@lru_cache(maxsize=1024)
def fit(text: str, size: int, max_width: float, bold: bool = False) -> str:
    return fit_text(text, size, max(10.0, max_width - (2 * bold_stroke(size) + 2)), bold)


def put_text(img: Image.Image, x: float, cy: float, text: str, size: int, fg: Colour, bg: Colour,
             bold: bool = False, anchor: str = "l", max_width: float | None = None) -> Box:
    if max_width is not None:
        text = fit(text, size, max_width, bold)
    return put(img, text_sprite(text, size, fg, bg, bold), x, cy, anchor)


def _icon(draw: ImageDraw.ImageDraw, icon: str, box: tuple[float, float, float, float], colour: Colour,
          ground: Colour) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if icon == "check":
        draw.line([(x0 + 0.08 * w, y0 + 0.55 * h), (x0 + 0.4 * w, y0 + 0.85 * h), (x0 + 0.95 * w, y0 + 0.15 * h)],
                  fill=colour, width=max(2, round(w * 0.2)), joint="curve")
    elif icon == "wait":  # an hourglass
        draw.polygon([(x0 + 0.1 * w, y0), (x1 - 0.1 * w, y0), (x0 + 0.5 * w, y0 + 0.5 * h)], fill=colour)
        draw.polygon([(x0 + 0.1 * w, y1), (x1 - 0.1 * w, y1), (x0 + 0.5 * w, y0 + 0.5 * h)], fill=colour)
    elif icon == "star":
        draw.polygon(star_points(x0 + w / 2, y0 + h * 0.53, w * 0.52, w * 0.22), fill=colour)
    elif icon == "warn":
        draw.polygon([(x0 + w / 2, y0), (x1, y1), (x0, y1)], fill=colour)
        draw.rectangle((x0 + 0.44 * w, y0 + 0.3 * h, x0 + 0.56 * w, y0 + 0.7 * h), fill=ground)
        draw.rectangle((x0 + 0.44 * w, y0 + 0.78 * h, x0 + 0.56 * w, y0 + 0.9 * h), fill=ground)
    elif icon == "cross":
        k = max(2, round(w * 0.22))
        draw.line([(x0, y0), (x1, y1)], fill=colour, width=k)
        draw.line([(x0, y1), (x1, y0)], fill=colour, width=k)
    elif icon == "line":  # a dashed line: crossed the Game Over line
        for i in range(3):
            a = x0 + i * w / 3
            draw.rectangle((a, y0 + 0.38 * h, a + w / 5, y0 + 0.62 * h), fill=colour)


@replayed(512)
def pill(text: str, size: int, fg: Colour, bg: Colour, ground: Colour, icon: str = "", pad: int = 8,
         bold: bool = True, outline: Colour | None = None) -> Image.Image:
    """A rounded badge (text, optionally an icon before it) on ``ground``, as an opaque sprite."""
    s = 4
    height = size + pad + 2
    icon_w = int(size * 0.9) if icon else 0
    text_w = math.ceil(text_width(text, size, bold) + 2 * (bold_stroke(size) if bold else 0))
    width = pad + (icon_w + 6 if icon else 0) + text_w + pad
    big = Image.new("RGB", (width * s, height * s), ground)
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius=height * s // 2, fill=outline or bg)
    if outline:
        draw.rounded_rectangle((2 * s, 2 * s, width * s - 1 - 2 * s, height * s - 1 - 2 * s),
                               radius=height * s // 2 - 2 * s, fill=bg)
    if icon:
        top = (height - icon_w) / 2
        _icon(draw, icon, (pad * s, top * s, (pad + icon_w) * s, (top + icon_w) * s), fg, bg)
    img = big.reduce(s)
    draw_text(ImageDraw.Draw(img), (width - pad - text_w / 2, height / 2), text, size, fg, anchor="mm", bold=bold)
    return _quant(img)


@replayed(512)
def seat_badge(seat: int, size: int, ground: Colour) -> Image.Image:
    """The seat's number in a disc: how the board's "circled by" names a player."""
    s = 4
    big = Image.new("RGB", (size * s, size * s), ground)
    draw = ImageDraw.Draw(big)
    draw.ellipse((0, 0, size * s - 1, size * s - 1), fill=INK)
    draw.ellipse((2 * s, 2 * s, size * s - 1 - 2 * s, size * s - 1 - 2 * s), fill=WHITE)
    img = big.reduce(s)
    draw_text(ImageDraw.Draw(img), (size / 2, size / 2 + 1), str(seat + 1), int(size * 0.62), INK, anchor="mm",
              bold=True)
    return _quant(img)


# --- geometry ------------------------------------------------------------------------------------------------
# Every picture is W pixels wide, portrait: a phone shows it 400 px wide, so a text of TEXT_MIN pixels is seen
# TEXT_MIN * 400 / W = 9.3 px high there (issue 24 needs 9); on a desktop it is shown at its own size.
W = 600
TEXT_MIN = 14
G = 8  # between cards, and around the edge
P = 6  # inside a card
FOOT_H = 122  # the legend strip
HEAD_TALL = 104  # a tall card's name block: name and score, the badges, two lines of what the last turn did
TRACK_TALL = 156  # a tall card's score track and breakdown, under the grid
INFO_MIN = 226  # a wide card's info column
HEAD_WIDE = 124
LAST_WIDE = 62  # a wide card's lines of what the last turn did, under its breakdown
MARK_GAP = 4  # between the grid and its column of row marks


def _cols(c: int) -> tuple[int, int, int]:
    """Row-label width, marks column width (a row's +2 / -5, drawn only where earned) and column-label band for
    cell size ``c``."""
    return max(20, round(0.6 * c)), max(32, round(0.62 * c)), max(16, round(0.4 * c))


@dataclass(frozen=True)
class SheetGeom:
    """One card's geometry; every coordinate is relative to the card's top-left corner."""

    variant: str  # "tall": name on top, track under the grid; "wide": name and track right of the grid
    w: int
    h: int
    c: int  # cell size (grid pitch)
    gx: int  # the grid's left line
    gy: int  # the grid's top line (above row 14)
    rl: int
    pw: int
    lb: int
    head: Box
    ident: tuple[Box, ...]  # the score track's boxes for sizes 3–7
    consec: tuple[Box, ...]
    letters: tuple[Box, ...]
    bonus: Box
    track_head: int  # the y of the track's header row
    breakdown: Box
    last: Box  # what the last turn did, in words

    def cell(self, row: int, col: int) -> tuple[int, int]:
        """The top-left grid-line pixel of a cell (row 0 = row 1, at the bottom)."""
        return self.gx + col * self.c, self.gy + (HEIGHT - 1 - row) * self.c

    @property
    def grid_box(self) -> Box:
        return (self.gx, self.gy, self.gx + WIDTH * self.c, self.gy + HEIGHT * self.c)

    def marks_x(self) -> int:
        """The centre of the marks column (a row's +2, -5, or both as -3)."""
        return self.gx + WIDTH * self.c + MARK_GAP + self.pw // 2


def _tall(w: int, h: int) -> SheetGeom | None:
    c = next((c for c in range(72, 15, -1)
              if sum(_cols(c)[:2]) + WIDTH * c + MARK_GAP + 2 * P <= w
              and 2 * P + HEAD_TALL + 2 * _cols(c)[2] + HEIGHT * c + TRACK_TALL <= h), None)
    if c is None:
        return None
    rl, pw, lb = _cols(c)
    block = rl + WIDTH * c + MARK_GAP + pw
    gx = (w - block) // 2 + rl
    gy = P + HEAD_TALL + lb
    ty = gy + HEIGHT * c + lb + 6
    left, right = P + 4, w - P - 4
    label_w = math.ceil(text_width("consec.", 15, bold=True)) + 10
    bonus_w = math.ceil(text_width("bonus", 15, bold=True)) + 12
    col = min(50, (right - left - label_w - bonus_w) // 5)
    bs = min(col - 4, 32)
    x = left + label_w
    rows = (ty + 40, ty + 76, ty + 112)  # centres: identical, consecutive, letters
    ident = tuple((x + i * col + (col - bs) // 2, rows[0] - bs // 2, x + i * col + (col + bs) // 2, rows[0] + bs // 2)
                  for i in range(5))
    consec = tuple((a, rows[1] - bs // 2, b, rows[1] + bs // 2) for a, _, b, _ in ident)
    letters = tuple((a, rows[2] - bs // 2, b, rows[2] + bs // 2) for a, _, b, _ in ident)
    bx = x + 5 * col + 6
    mid = (rows[0] + rows[1]) // 2
    bonus = (bx + (bonus_w - 6 - bs) // 2, mid - bs // 2, bx + (bonus_w - 6 + bs) // 2, mid + bs // 2)
    return SheetGeom("tall", w, h, c, gx, gy, rl, pw, lb, (P, P, w - P, P + 64), ident, consec, letters,
                     bonus, ty + 12, (left, ty + 134, right, ty + TRACK_TALL - 4), (P, P + 64, w - P, P + HEAD_TALL))


def _wide(w: int, h: int) -> SheetGeom | None:
    c = next((c for c in range(72, 15, -1)
              if _cols(c)[0] + _cols(c)[1] + WIDTH * c + MARK_GAP + 6 + 2 * P + 16 + INFO_MIN <= w
              and 2 * P + 2 * _cols(c)[2] + HEIGHT * c + 1 <= h), None)
    if c is None or h < 2 * P + HEAD_WIDE + 22 + 6 * 28 + 90 + LAST_WIDE:
        return None
    rl, pw, lb = _cols(c)
    gx = P + rl
    gy = (h - HEIGHT * c - 2 * lb) // 2 + lb
    x0 = gx + WIDTH * c + MARK_GAP + 6 + pw + 16
    x1 = w - P
    head = (x0, P, x1, P + HEAD_WIDE)
    ty = P + HEAD_WIDE + 8
    room = h - P - ty - 22 - 92 - LAST_WIDE
    rh = max(28, min(46, room // 6))
    bs = min(rh - 6, 38)
    k = min(1.0, (x1 - x0) / 250)
    cols = tuple(x0 + round(v * k) for v in (20, 78, 146, 212))  # centres: size, identical, consecutive, letter
    row = [ty + 22 + rh * i + rh // 2 for i in range(6)]
    ident = tuple((cols[1] - bs // 2, row[i] - bs // 2, cols[1] + bs // 2, row[i] + bs // 2) for i in range(5))
    consec = tuple((cols[2] - bs // 2, row[i] - bs // 2, cols[2] + bs // 2, row[i] + bs // 2) for i in range(5))
    letters = tuple((cols[3] - bs // 2, row[i] - bs // 2, cols[3] + bs // 2, row[i] + bs // 2) for i in range(5))
    mid = (cols[1] + cols[2]) // 2
    bonus = (mid - bs // 2, row[5] - bs // 2, mid + bs // 2, row[5] + bs // 2)
    bottom = ty + 22 + 6 * rh + 10
    return SheetGeom("wide", w, h, c, gx, gy, rl, pw, lb, head, ident, consec, letters, bonus, ty + 10,
                     (x0, bottom, x1, min(h - P - LAST_WIDE, bottom + 88)), (x0, h - P - LAST_WIDE, x1, h - P))


def sheet_geom(w: int, h: int, prefer: str = "") -> SheetGeom:
    options = [g for g in (_tall(w, h), _wide(w, h)) if g is not None]
    if prefer:
        options = [g for g in options if g.variant == prefer] or options
    if not options:  # pragma: no cover - every layout below has room for one
        raise ValueError(f"no sheet fits {w}x{h}")
    return max(options, key=lambda g: (g.c, g.variant == "wide"))


@dataclass(frozen=True)
class Layout:
    """Where everything goes, top to bottom: the strip (title, what is going on, the dice, the BLOCK board or the
    solo ladder), the sheets, (solo) the tile tracks, (a seat's own view) the standings, the legend."""

    w: int
    h: int
    solo: bool
    sheet: SheetGeom  # the geometry of every drawn card (there is one size per picture)
    cards: tuple[tuple[int, int], ...]  # each card's top-left corner, by seat (seats not drawn: see ``drawn``)
    slots: tuple[Box, ...]  # multiplayer: the BLOCK board's five slots (in the top strip)
    tracks: Box | None  # solo: the panel with the five tracks
    ladder: Box | None  # solo: the ladder (in the top strip)
    standings: Box | None  # a seat's own view with others: everyone's name, score and state
    dice_x: int
    dice_y: int  # the dice row's middle
    top_h: int  # the strip's height
    text_box: Box  # the strip's lines of words
    drawn: tuple[int, ...]  # the seats whose sheets are drawn
    focus: int | None = None  # the seat whose own view this is (its sheet alone, large)

    def geom(self, seat: int) -> SheetGeom:
        return self.sheet


FOCUS_FROM = 2  # from this many players, a seat's own view draws its sheet alone, large, and everyone's scores
TEXT_TOP = 52  # the strip: the title row, then up to five lines of words, the dice, the board
TEXT_LINES = 5
LINE_H = 25
DIE = 62
SLOTS_H = 176
LADDER_H = 112


def _strip_geom(solo: bool, own: bool) -> tuple[int, int, Box, int]:
    """(dice row middle, the board's or ladder's top, the lines' box, the strip's height); ``own``: a seat's own
    view, with up to three lines of what it does now."""
    lines = TEXT_LINES if own or solo else 3
    text_box = (G + 4, TEXT_TOP, W - G - 4, TEXT_TOP + lines * LINE_H)
    dice_top = text_box[3] + 6
    board_top = dice_top + DIE + 12
    return dice_top + DIE // 2, board_top, text_box, board_top + (LADDER_H if solo else SLOTS_H) + 10


@cache
def layout(seats: int, focus: int | None = None) -> Layout:
    """The layout for ``seats`` players (1 is the solo board); ``focus``: the seat whose own view this is (from
    :data:`FOCUS_FROM` players its sheet is drawn alone, large, with everyone's standing under it)."""
    seats = max(1, min(MAX_SEATS, seats))
    solo = seats == 1
    own = focus is not None and seats >= FOCUS_FROM
    dice_y, board_top, text_box, top_h = _strip_geom(solo, own)
    top = top_h + G
    slots: tuple[Box, ...] = ()
    ladder = tracks = standings = None
    if solo:
        ladder = (G, board_top, W - G, board_top + LADDER_H)
    else:
        sw = (W - 2 * G - 4 * 6) // 5
        slots = tuple((G + i * (sw + 6), board_top, G + i * (sw + 6) + sw, board_top + SLOTS_H) for i in range(5))
    if solo or own:
        sheet = sheet_geom(W - 2 * G, 600, prefer="wide")
        drawn_seat = 0 if solo else focus
        assert drawn_seat is not None
        cards = [(G, top)] * seats
        y = top + sheet.h + G
        if solo:
            tracks = (G, y, W - G, y + 560)
            y = tracks[3] + G
        else:
            standings = (G, y, W - G, y + 44 + seats * 38)
            y = standings[3] + G
        return Layout(W, y + FOOT_H, solo, sheet, tuple(cards), slots, tracks, ladder, standings, G + 4, dice_y,
                      top_h, text_box, (drawn_seat,), focus if not solo else None)
    cw = (W - 3 * G) // 2
    sheet = sheet_geom(cw, 740, prefer="tall")
    rows = -(-seats // 2)
    cards = []
    for seat in range(seats):
        r, k = divmod(seat, 2)
        x = G + k * (cw + G) if not (seats % 2 and seat == seats - 1 and seats > 1) else (W - sheet.w) // 2
        cards.append((x, top + r * (sheet.h + G)))
    h = top + rows * (sheet.h + G) + FOOT_H
    return Layout(W, h, False, sheet, tuple(cards), slots, None, None, None, G + 4, dice_y, top_h, text_box,
                  tuple(range(seats)))


# --- cells ----------------------------------------------------------------------------------------------------
N, E, S, W_, NE, SE, SW, NW = 1, 2, 4, 8, 16, 32, 64, 128
_DIAGONALS = ((NE, N, E), (SE, S, E), (SW, S, W_), (NW, N, W_))


def _norm_mask(mask: int) -> int:
    """Drop the diagonal bits that change nothing (a corner fills only when both its sides join)."""
    for d, a, b in _DIAGONALS:
        if mask & d and not (mask & a and mask & b):
            mask &= ~d
    return mask


@replayed(4096)
def cell_sprite(c: int, token: str, beyond: bool, kind: str = "", mask: int = 0) -> Image.Image:
    """A filled cell with its four grid lines ((c + 1) pixels square): a number, an X, and for a cell in a
    combo (``kind`` identical/consecutive) the pen outline joined to its neighbours in ``mask``."""
    s = 4
    n = c + 1
    ground = BEYOND if beyond else PAPER
    big = Image.new("RGB", (n * s, n * s), GRID)
    draw = ImageDraw.Draw(big)
    draw.rectangle((s, s, c * s - 1, c * s - 1), fill=ground)
    if token == "X":
        draw.rectangle((s, s, c * s - 1, c * s - 1), fill=X_FILL)
        step = max(6, c // 5) * s
        for k in range(-n * s, n * s, step):
            draw.line((k, n * s, k + n * s, 0), fill=X_HATCH, width=max(1, c // 16) * s)
        draw.rectangle((0, 0, n * s - 1, s - 1), fill=GRID)
        draw.rectangle((0, c * s, n * s - 1, n * s - 1), fill=GRID)
        draw.rectangle((0, 0, s - 1, n * s - 1), fill=GRID)
        draw.rectangle((c * s, 0, n * s - 1, n * s - 1), fill=GRID)
        a, b = 0.27 * n * s, 0.73 * n * s
        width = max(3, round(c * 0.11)) * s
        draw.line((a, a, b, b), fill=WHITE, width=width)
        draw.line((a, b, b, a), fill=WHITE, width=width)
    elif kind:
        fill = IDENT_FILL if kind == "identical" else CONSEC_FILL
        m = max(3, round(c * 0.1))  # the tube's inset from the grid line
        t = max(2, round(c * 0.07))  # its outline
        r = max(3, round(c * 0.3))
        mid = n / 2
        for colour, grow in ((PEN, t), (fill, 0)):
            lo, hi = 1 + m - grow, c - m + grow

            def rect(x0: float, y0: float, x1: float, y1: float, colour: Colour = colour) -> None:
                draw.rectangle((x0 * s, y0 * s, x1 * s - 1, y1 * s - 1), fill=colour)

            draw.rounded_rectangle((lo * s, lo * s, hi * s - 1, hi * s - 1), radius=(r + grow) * s, fill=colour)
            if mask & N:
                rect(lo, 0, hi, mid)
            if mask & S:
                rect(lo, mid, hi, n)
            if mask & E:
                rect(mid, lo, n, hi)
            if mask & W_:
                rect(0, lo, mid, hi)
        for d, _, _ in _DIAGONALS:
            if mask & d:
                x0, x1 = (mid, n) if d in (NE, SE) else (0, mid)
                y0, y1 = (0, mid) if d in (NE, NW) else (mid, n)
                draw.rectangle((x0 * s, y0 * s, x1 * s - 1, y1 * s - 1), fill=fill)
    img = big.reduce(s)
    if token not in ("X", ""):
        size = int(c * (0.7 if len(token) == 1 else 0.5))
        draw_text(ImageDraw.Draw(img), (n / 2, n / 2 + 1), token, size, INK, anchor="mm", bold=True)
    return _quant(img)


@replayed(512)
def mark_sprite(text: str, size: int, fill: Colour, ground: Colour) -> Image.Image:
    """A made mark: a filled disc with white bold text (a made combo, a full row's +2, a -5)."""
    s = 4
    big = Image.new("RGB", (size * s, size * s), ground)
    ImageDraw.Draw(big).ellipse((0, 0, size * s - 1, size * s - 1), fill=fill)
    img = big.reduce(s)
    fsize = int(size * (0.56 if len(text) == 1 else 0.5))
    draw_text(ImageDraw.Draw(img), (size / 2, size / 2 + 1), text, fsize, WHITE, anchor="mm", bold=True)
    return _quant(img)


@replayed(512)
def letter_sprite(letter: str, size: int, circled: bool, crossed: bool) -> Image.Image:
    """A BLOCK letter on the score track: a pen ring when circled, a stroke when crossed off."""
    s = 4
    big = Image.new("RGB", (size * s, size * s), PAPER)
    draw = ImageDraw.Draw(big)
    if circled:
        ring = max(2, size // 11) * s
        draw.ellipse((0, 0, size * s - 1, size * s - 1), fill=PEN)
        draw.ellipse((ring, ring, size * s - 1 - ring, size * s - 1 - ring), fill=PAPER)
    img = big.reduce(s)
    draw = ImageDraw.Draw(img)
    colour = INK if circled else (PRINT if crossed else LABEL)
    draw_text(draw, (size / 2, size / 2 + 1), letter, max(TEXT_MIN, int(size * 0.58)), colour, anchor="mm", bold=True)
    if crossed:
        w = max(2, size // 10)
        draw.line((size * 0.08, size * 0.92, size * 0.92, size * 0.08), fill=INK, width=w)
    return _quant(img)


# --- dice and shapes --------------------------------------------------------------------------------------------


@replayed(512)
def die_sprite(face: str, shape_die: bool, starred: bool = False) -> Image.Image:
    """A die showing ``face``; ``starred``: a ★ the player has given this value (a small star in the corner)."""
    s = 4
    size = DIE
    big = Image.new("RGB", (size * s, size * s), STRIP)
    draw = ImageDraw.Draw(big)
    body, ink = (INK, WHITE) if shape_die else (WHITE, INK)
    draw.rounded_rectangle((0, 0, size * s - 1, size * s - 1), radius=12 * s, fill=MUTED if shape_die else body)
    if shape_die:
        draw.rounded_rectangle((3 * s, 3 * s, (size - 3) * s - 1, (size - 3) * s - 1), radius=10 * s, fill=body)
    if face == STAR:
        draw.polygon(star_points(size * s / 2, size * s * 0.53, size * s * 0.34, size * s * 0.14), fill=ink)
    elif shape_die and face in TETROMINOES:
        cells = TETROMINOES[face]
        rows = max(r for r, _ in cells) + 1
        cols = max(c for _, c in cells) + 1
        q = 11 * s
        ox, oy = (size * s - cols * q) / 2, (size * s - rows * q) / 2
        for r, c in cells:
            draw.rectangle((ox + c * q + s, oy + r * q + s, ox + (c + 1) * q - s, oy + (r + 1) * q - s), fill=ink)
    if starred:
        draw.polygon(star_points(size * s * 0.8, size * s * 0.2, size * s * 0.15, size * s * 0.065), fill=VERMILLION)
    img = big.reduce(s)
    if face != STAR and not (shape_die and face in TETROMINOES):
        draw_text(ImageDraw.Draw(img), (size / 2, size / 2 + 1), face[:2], 36, ink, anchor="mm", bold=True)
    return _quant(img)


def _shape_cells(cells: list[list[int]]) -> list[tuple[int, int]]:
    return [(r, c) for r, c in cells]


def draw_shape(draw: ImageDraw.ImageDraw, cells: Sequence[tuple[int, int]], cx: float, cy: float, q: int,
               fill: Colour, edge: Colour) -> None:
    """A shape as squares of ``q`` pixels centred on (cx, cy), with palette indices (crisp, axis-aligned)."""
    if not cells:
        return
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    x0, y0 = round(cx - cols * q / 2), round(cy - rows * q / 2)
    for r, c in cells:
        draw.rectangle((x0 + c * q, y0 + r * q, x0 + (c + 1) * q, y0 + (r + 1) * q), fill=ix(fill), outline=ix(edge))


# --- the empty table -------------------------------------------------------------------------------------------
def _draw_line(draw: ImageDraw.ImageDraw, geom: SheetGeom, ox: int, oy: int, line: int, index: bool) -> None:
    """The Game Over line: a thick black band with vermillion dashes, under row ``line``."""
    y = oy + geom.gy + (HEIGHT - (line - 1)) * geom.c
    x0, x1 = ox + geom.gx - geom.rl + 2, ox + geom.gx + WIDTH * geom.c + 4 + geom.pw

    def col(c: Colour) -> Any:
        return ix(c) if index else c

    draw.rectangle((x0, y - 3, x1, y + 3), fill=col(INK))
    k = x0 + 4
    while k < x1 - 4:
        draw.rectangle((k, y - 1, min(k + 13, x1 - 4), y + 1), fill=col(VERMILLION))
        k += 22


def _sheet_base(geom: SheetGeom, line: int) -> Image.Image:
    """An empty score sheet (RGB, on transparent corners)."""
    w, h, c = geom.w, geom.h, geom.c
    img = Image.new("RGB", (w, h), PAPER)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=12, fill=PAPER, outline=PAPER_EDGE, width=2)
    gx, gy = geom.gx, geom.gy
    end_x, end_y = gx + WIDTH * c, gy + HEIGHT * c
    beyond_top = HEIGHT - line + 1  # rows drawn above the line (row indices on screen 0..)
    draw.rectangle((gx - 1, gy - 1, end_x + 1, end_y + 1), fill=FRAME)
    hatch = Image.new("RGB", (c - 1, c - 1), BEYOND)
    hd = ImageDraw.Draw(hatch)
    step = max(7, c // 4)
    for k in range(-c, 2 * c, step):
        hd.line((k, c, k + c, 0), fill=BEYOND_HATCH, width=1)
    for k in range(HEIGHT):
        y = gy + k * c
        for col in range(WIDTH):
            x = gx + col * c
            draw.rectangle((x, y, x + c, y + c), fill=GRID)
            if k < beyond_top:
                img.paste(hatch, (x + 1, y + 1))
            else:
                draw.rectangle((x + 1, y + 1, x + c - 1, y + c - 1), fill=PAPER)
    lsize = max(14, int(c * 0.4))
    mid_x = gx - geom.rl // 2 - 2
    for k in range(HEIGHT):
        row = HEIGHT - k
        draw_text(draw, (mid_x, gy + k * c + c / 2), str(row), lsize, LABEL, anchor="mm", bold=True)
    for col in range(WIDTH):
        cx = gx + col * c + c / 2
        draw_text(draw, (cx, gy - geom.lb / 2 - 1), COLUMNS[col], lsize, LABEL, anchor="mm", bold=True)
        draw_text(draw, (cx, end_y + geom.lb / 2 + 2), COLUMNS[col], lsize, LABEL, anchor="mm", bold=True)
    _draw_line(draw, geom, 0, 0, line, index=False)
    # the score track's frames
    for i, n in enumerate(SIZES):
        for box in (geom.ident[i], geom.consec[i]):
            _empty_box(draw, box, str(n))
    _empty_box(draw, geom.bonus, "8")
    hs = 15
    if geom.variant == "tall":
        x = geom.ident[0][0] - 10
        for label, box in (("ident.", geom.ident[0]), ("consec.", geom.consec[0]), ("BLOCK", geom.letters[0])):
            draw_text(draw, (x, (box[1] + box[3]) / 2), label, hs, LABEL, anchor="rm", bold=True)
        for i, n in enumerate(SIZES):
            box = geom.ident[i]
            draw_text(draw, ((box[0] + box[2]) / 2, geom.track_head), str(n), hs, LABEL, anchor="mm", bold=True)
        bx = (geom.bonus[0] + geom.bonus[2]) / 2
        draw_text(draw, (bx, geom.track_head), "bonus", hs, LABEL, anchor="mm", bold=True)
        x0 = geom.ident[0][0] - 4
        x1 = geom.ident[-1][2] + 4
        draw.line((x0, geom.track_head + 11, x1, geom.track_head + 11), fill=GRID, width=1)
        draw.line((geom.bonus[0] - 14, geom.track_head - 8, geom.bonus[0] - 14, geom.letters[0][3]), fill=GRID,
                  width=1)
    else:
        y = geom.track_head
        xs = ((geom.ident[0][0] - 46, "size"), ((geom.ident[0][0] + geom.ident[0][2]) / 2, "ident."),
              ((geom.consec[0][0] + geom.consec[0][2]) / 2, "consec."),
              ((geom.letters[0][0] + geom.letters[0][2]) / 2, "BLOCK"))
        for lx, label in xs:
            draw_text(draw, (lx, y), label, hs, LABEL, anchor="lm" if label == "size" else "mm", bold=True)
        for i, n in enumerate(SIZES):
            box = geom.ident[i]
            draw_text(draw, (geom.ident[0][0] - 34, (box[1] + box[3]) / 2), str(n), 18, LABEL, anchor="mm",
                      bold=True)
        box = geom.bonus
        draw_text(draw, (geom.ident[0][0] - 34, (box[1] + box[3]) / 2), "8", 18, LABEL, anchor="mm", bold=True)
        draw_text(draw, (geom.letters[0][0], (box[1] + box[3]) / 2), "bonus", 15, LABEL, anchor="lm", bold=True)
        draw.line((geom.head[0], y + 11, geom.head[2], y + 11), fill=GRID, width=1)
    for i, letter in enumerate(LETTERS):
        box = geom.letters[i]
        draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), letter,
                  max(TEXT_MIN, int((box[2] - box[0]) * 0.58)), LABEL, anchor="mm", bold=True)
    return img


def _empty_box(draw: ImageDraw.ImageDraw, box: Box, text: str) -> None:
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=GRID, width=2)
    draw_text(draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 1), text, max(TEXT_MIN, int((x1 - x0) * 0.5)), PRINT,
              anchor="mm", bold=True)


def _legend(img: Image.Image, lay: Layout) -> None:
    """The legend strip at the bottom: how the highlights read, in two columns."""
    draw = ImageDraw.Draw(img)
    y0 = lay.h - FOOT_H
    draw.rectangle((0, y0, lay.w, lay.h), fill=STRIP)
    draw.line((0, y0, lay.w, y0), fill=PANEL_EDGE, width=1)
    size = 15
    q = 20
    x = cy = 0

    def swatch(kind: str) -> None:
        nonlocal x
        box = (x, cy - q // 2, x + q, cy + q // 2)
        if kind == "last":
            draw.rectangle(box, fill=PAPER)
            _hazard(draw, [(box[0], box[1], box[2], box[1] + 4), (box[0], box[3] - 4, box[2], box[3]),
                           (box[0], box[1], box[0] + 4, box[3]), (box[2] - 4, box[1], box[2], box[3])], index=False)
        elif kind == "mine":
            draw.rectangle(box, fill=PAPER)
            _solid(draw, [(box[0], box[1], box[2], box[1] + 4), (box[0], box[3] - 4, box[2], box[3]),
                          (box[0], box[1], box[0] + 4, box[3]), (box[2] - 4, box[1], box[2], box[3])], index=False)
        elif kind == "x":
            img.paste(cell_sprite(q, "X", False).convert("RGB"), (x, cy - q // 2))
        elif kind in ("identical", "consecutive"):
            tile = cell_sprite(q + 8, "5", False, kind, 0).convert("RGB").crop((4, 4, q + 5, q + 5))
            img.paste(tile, (x, cy - q // 2))
        elif kind == "beyond":
            draw.rectangle(box, fill=BEYOND, outline=GRID)
            draw.rectangle((box[0], box[3] - 3, box[2], box[3]), fill=INK)
            draw.rectangle((box[0] + 3, box[3] - 2, box[0] + 11, box[3] - 1), fill=VERMILLION)
        elif kind == "made":
            sprite = mark_sprite("4", q + 6, PEN, STRIP).convert("RGB")
            img.paste(sprite, (x, cy - sprite.height // 2))
        x += q + 8

    items = [("last", "last turn"), ("x", "penalty cell"), ("identical", "ident. combo: same"),
             ("consecutive", "consec. combo: a run"), ("beyond", "beyond the line: -5 a row"),
             ("made", "combo made")]
    if lay.focus is not None or lay.solo:
        items.insert(1, ("mine", "picks not yet revealed"))
    col_w = (lay.w - 2 * G) // 2
    for i, (kind, text) in enumerate(items):
        x = G + 4 + (i % 2) * col_w
        cy = y0 + 22 + (i // 2) * 26
        swatch(kind)
        draw_text(draw, (x, cy), text, size, WHITE, anchor="lm")


def _hazard(draw: ImageDraw.ImageDraw, bands: Iterable[Box], index: bool = True) -> None:
    """Black bands with yellow dashes, aligned on a global grid so that joined bands read as one line."""
    black, yellow = (ix(INK), ix(HAZARD)) if index else (INK, HAZARD)
    for x0, y0, x1, y1 in bands:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=black)
        horizontal = x1 - x0 >= y1 - y0
        a, b = (x0, x1) if horizontal else (y0, y1)
        k = a - a % 14
        while k < b:
            lo, hi = max(a + 1, k), min(b - 1, k + 7)
            if lo < hi:
                if horizontal:
                    draw.rectangle((lo, y0 + 1, hi - 1, y1 - 2), fill=yellow)
                else:
                    draw.rectangle((x0 + 1, lo, x1 - 2, hi - 1), fill=yellow)
            k += 14


def _box_bands(box: Box, width: int) -> list[Box]:
    x0, y0, x1, y1 = box
    return [(x0, y0, x1, y0 + width), (x0, y1 - width, x1, y1), (x0, y0, x0 + width, y1), (x1 - width, y0, x1, y1)]


def _solid(draw: ImageDraw.ImageDraw, bands: Iterable[Box], index: bool = True) -> None:
    """A solid vermillion band with a white core: a seat's own picks this turn."""
    red, white = (ix(PENDING), ix(WHITE)) if index else (PENDING, WHITE)
    for x0, y0, x1, y1 in bands:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=red)
    for x0, y0, x1, y1 in bands:
        if x1 - x0 >= y1 - y0:
            cy = (y0 + y1) // 2
            draw.rectangle((x0 + 2, cy, x1 - 3, cy), fill=white)
        else:
            cx = (x0 + x1) // 2
            draw.rectangle((cx, y0 + 2, cx, y1 - 3), fill=white)


def _slot_base(draw: ImageDraw.ImageDraw, box: Box, letter: str, size: int) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=SLOT, outline=SLOT_EDGE, width=2)
    draw_text(draw, (x0 + 10, y0 + 24), letter, 34, WHITE, anchor="lm", bold=True)
    draw_text(draw, (x1 - 8, y0 + 26), f"for {size}s", 15, MUTED, anchor="rm", bold=True)


def background(seats: int, focus: int | None = None) -> Image.Image:
    """The empty table of a layout, mapped to the palette (a seat's own view: the same for every seat)."""
    return _background(seats, focus is not None)


@replayed(16)
def _background(seats: int, own: bool) -> Image.Image:
    lay = layout(seats, 0 if own else None)
    img = felt((lay.w, lay.h))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, lay.w, lay.top_h), fill=STRIP)
    draw.line((0, lay.top_h, lay.w, lay.top_h), fill=PANEL_EDGE, width=1)
    draw_text(draw, (G + 4, 28), "BLOCK", 32, WHITE, anchor="lm", bold=True)
    _legend(img, lay)
    for seat in lay.drawn:
        x, y = lay.cards[seat]
        geom = lay.geom(seat)
        img.paste(_sheet_base(geom, LINE), (x, y), rounded_mask((geom.w, geom.h), 12))
    if lay.slots:
        for i, box in enumerate(lay.slots):
            _slot_base(draw, box, LETTERS[i], SIZES[i])
    if lay.tracks:
        _tracks_base(img, draw, lay.tracks)
    if lay.ladder:
        _ladder_base(draw, lay.ladder)
    if lay.standings:
        x0, y0, x1, y1 = lay.standings
        draw.rounded_rectangle(lay.standings, radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
        draw_text(draw, (x0 + 14, y0 + 22), "EVERYONE", 16, MUTED, anchor="lm", bold=True)
    return _quant(img)


# --- the solo board -----------------------------------------------------------------------------------------------
NOTCHES = 5  # 0..3 and GO!


def _track_geom(box: Box) -> tuple[list[tuple[int, int]], int, int, int]:
    """Per track (x0, x1); the top of the first notch; a notch's height; the header's middle."""
    x0, y0, x1, y1 = box
    gap = 12
    tw = (x1 - x0 - 2 * 16 - 4 * gap) // 5
    xs = [(x0 + 16 + i * (tw + gap), x0 + 16 + i * (tw + gap) + tw) for i in range(5)]
    top = y0 + 120
    nh = (y1 - 56 - top) // NOTCHES
    return xs, top, nh, y0 + 86


def tile_box(lay: Layout, slot: int, notch: int) -> Box:
    """Solo: where the tile of ``slot`` (0 = A) is drawn when it sits at ``notch`` (4 = GO!)."""
    assert lay.tracks is not None
    xs, top, nh, _ = _track_geom(lay.tracks)
    a, b = xs[slot]
    ny = top + max(0, min(NOTCHES - 1, notch)) * nh
    return (a + 6, ny + 30, b - 6, ny + nh - 8)


def _tracks_base(img: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
    draw_text(draw, (x0 + 18, y0 + 26), "SOLO BOARD", 20, WHITE, anchor="lm", bold=True)
    draw_text(draw, (x0 + 18, y0 + 52), "Each turn a tile slides down a notch; at GO! it drops into your grid",
              15, MUTED, anchor="lm")
    xs, top, nh, _ = _track_geom(box)
    for a, b in xs:
        for k in range(NOTCHES):
            ny = top + k * nh
            go = k == NOTCHES - 1
            draw.rounded_rectangle((a, ny + 3, b, ny + nh - 3), radius=8, fill=SLOT,
                                   outline=YELLOW if go else SLOT_EDGE, width=3 if go else 1)
            draw_text(draw, (a + 8, ny + 16), "GO!" if go else f"notch {k}", 14 if not go else 16,
                      YELLOW if go else MUTED, anchor="lm", bold=True)
        draw.line(((a + b) // 2, top - 4, (a + b) // 2, top + 3), fill=SLOT_EDGE, width=3)
    draw_text(draw, (x0 + 18, y1 - 26), "A tile at GO! does not drop on you if you circled its letter (protected).",
              15, MUTED, anchor="lm")


def _ladder_base(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    draw_text(draw, (x0, y0 + 12), "SOLO LADDER", 15, MUTED, anchor="lm", bold=True)
    bw = (x1 - x0 - 4 * 6) // 5
    for i, (_, name, band) in enumerate(LADDER):
        a = x0 + i * (bw + 6)
        draw.rounded_rectangle((a, y0 + 30, a + bw, y1 - 26), radius=8, fill=SLOT, outline=SLOT_EDGE, width=1)
        draw_text(draw, (a + bw / 2, y0 + 54), name, 18, WHITE, anchor="mm", bold=True)
        draw_text(draw, (a + bw / 2, y0 + 80), band, 16, MUTED, anchor="mm")


# --- reading the view -----------------------------------------------------------------------------------------------
def _cells(names: Iterable[str]) -> set[tuple[int, int]]:
    return {parse_cell(name) for name in names}


# --- drawing a sheet ------------------------------------------------------------------------------------------------
def _outline_bands(geom: SheetGeom, ox: int, oy: int, cells: set[tuple[int, int]], width: int) -> list[Box]:
    """Bands along the grid lines around the union of ``cells`` (its outer edges only)."""
    bands = []
    h = width // 2
    c = geom.c
    for r, col in cells:
        x, y = geom.cell(r, col)
        x, y = x + ox, y + oy
        if (r + 1, col) not in cells:
            bands.append((x - h, y - h, x + c + h + 1, y + h + 1 + (width % 2 == 0) * 0))
        if (r - 1, col) not in cells:
            bands.append((x - h, y + c - h, x + c + h + 1, y + c + h + 1))
        if (r, col - 1) not in cells:
            bands.append((x - h, y - h, x + h + 1, y + c + h + 1))
        if (r, col + 1) not in cells:
            bands.append((x + c - h, y - h, x + c + h + 1, y + c + h + 1))
    return bands


def _combo_masks(combos: list[ComboView]) -> dict[tuple[int, int], tuple[str, int]]:
    """Each combo cell's kind and its neighbours in the same combo."""
    out: dict[tuple[int, int], tuple[str, int]] = {}
    for combo in combos:
        kind = combo["type"]
        cells = _cells(combo["cells"])
        for r, c in cells:
            mask = 0
            for bit, (dr, dc) in ((N, (1, 0)), (S, (-1, 0)), (E, (0, 1)), (W_, (0, -1)), (NE, (1, 1)),
                                  (SE, (-1, 1)), (SW, (-1, -1)), (NW, (1, -1))):
                if (r + dr, c + dc) in cells:
                    mask |= bit
            out[(r, c)] = (kind, _norm_mask(mask))
    return out


def _made(combos: list[ComboView]) -> tuple[set[int], set[int], bool]:
    ident, consec, bonus = set(), set(), False
    for combo in combos:
        size = combo["size"]
        if size == BONUS:
            bonus = True
        elif combo["type"] == CONSECUTIVE:
            consec.add(size)
        else:
            ident.add(size)
    return ident, consec, bonus


def _sheet(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: BlockView, seat: int,
           name: str, crossed: set[str]) -> None:
    geom = lay.geom(seat)
    ox, oy = lay.cards[seat]
    player = view["players"][seat]
    line = view["line"]
    c = geom.c
    grid = player["grid"]
    combos = _combo_masks(player["combos"])
    for r in range(HEIGHT):
        for col in range(WIDTH):
            value = grid[r][col]
            if value is None:
                continue
            kind, mask = combos.get((r, col), ("", 0))
            token = str(value)
            if token == X:
                kind, mask = "", 0
            x, y = geom.cell(r, col)
            img.paste(cell_sprite(c, token, r + 1 >= line, kind, mask), (ox + x, oy + y))
    _draw_line(draw, geom, ox, oy, line, index=True)

    # rows: +2 for a full row, -5 for a row beyond the line holding a number (both: -3), only where earned
    marks_x = geom.marks_x()
    msize = min(geom.pw, c) - 2
    full = set(player["full_rows"])
    for r in range(HEIGHT):
        cy = oy + geom.gy + (HEIGHT - 1 - r) * c + c / 2
        plus = r + 1 in full
        minus = r + 1 >= line and any(isinstance(v, int) for v in grid[r])
        if plus or minus:
            text = "-3" if plus and minus else ("+2" if plus else "-5")
            put(img, mark_sprite(text, msize, VERMILLION if minus else INK, PAPER), ox + marks_x, cy, "m")

    # highlights: the last turn (dashed), this turn's own picks (solid, only in the seat's own view)
    recent = player["recent"]
    last = _cells(recent.get("placed", ())) | _cells(recent.get("penalty", ())) | _cells(recent.get("combo", ()))
    if last:
        _hazard(draw, _outline_bands(geom, ox, oy, last, 5))
    if "mine" in view and view.get("viewer") == seat:
        pending = _cells(view["mine"]["placed"])
        if pending:
            _solid(draw, _outline_bands(geom, ox, oy, pending, 7))

    # what the last turn added to the margins: a full row's +2, a circled letter
    for r in recent.get("rows", ()):
        cy = oy + geom.gy + (HEIGHT - r) * c + c // 2
        half = msize // 2 + 4
        _hazard(draw, _box_bands((ox + marks_x - half, cy - half, ox + marks_x + half + 1, cy + half + 1), 3))
    for letter in recent.get("letters", ()):
        x0, y0, x1, y1 = geom.letters[LETTERS.index(letter)]
        _hazard(draw, _box_bands((ox + x0 - 6, oy + y0 - 6, ox + x1 + 7, oy + y1 + 7), 3))

    # the score track
    ident, consec, bonus = _made(player["combos"])
    letters = set(player["letters"])
    for i, n in enumerate(SIZES):
        for made, box in ((ident, geom.ident[i]), (consec, geom.consec[i])):
            if n in made:
                size = box[2] - box[0] + 6
                put(img, mark_sprite(str(n), size, PEN, PAPER), ox + (box[0] + box[2]) / 2,
                    oy + (box[1] + box[3]) / 2, "m")
        letter = LETTERS[i]
        if letter in letters or letter in crossed:
            box = geom.letters[i]
            size = box[2] - box[0] + 6
            put(img, letter_sprite(letter, size, letter in letters, letter in crossed),
                ox + (box[0] + box[2]) / 2, oy + (box[1] + box[3]) / 2, "m")
    if bonus:
        box = geom.bonus
        put(img, mark_sprite("8", box[2] - box[0] + 6, PEN, PAPER), ox + (box[0] + box[2]) / 2,
            oy + (box[1] + box[3]) / 2, "m")
    _breakdown(img, geom, ox, oy, player["breakdown"])
    _head(img, draw, lay, view, seat, player, name)


def _breakdown(img: Image.Image, geom: SheetGeom, ox: int, oy: int, parts: Breakdown) -> None:
    x0, y0, x1, y1 = geom.breakdown
    items = [("ident.", parts["identical"]), ("consec.", parts["consecutive"]), ("bonus", parts["bonus"]),
             ("columns", parts["columns"]), ("rows", parts["rows"]), ("beyond", parts["beyond"])]
    if geom.variant == "tall":
        items.append(("=", parts["total"]))
        sprites = [(text_sprite(label, 15, LABEL, PAPER), text_sprite(number_text(value), 15, INK, PAPER, True))
                   for label, value in items]
        while len(sprites) > 1 and sum(a.width + b.width + 12 for a, b in sprites) - 9 > x1 - x0:
            sprites.pop(-2)  # a small card keeps the total and as many parts as fit
        width = sum(a.width + b.width + 12 for a, b in sprites) - 9
        x = ox + max(x0, (x0 + x1 - width) // 2)
        cy = oy + (y0 + y1) / 2
        for a, b in sprites:
            x = put(img, a, x, cy)[2] + 3
            x = put(img, b, x, cy)[2] + 9
        return
    col_w = (x1 - x0) // 2
    for i, (label, value) in enumerate(items):
        x = ox + x0 + (i % 2) * col_w
        cy = oy + y0 + 12 + (i // 2) * 24
        if cy > oy + y1:
            break
        put_text(img, x, cy, label, 16, LABEL, PAPER)
        put_text(img, x + col_w - 14, cy, number_text(value), 16, INK, PAPER, bold=True, anchor="r")


def _rung(score: int) -> str:
    return [name for floor, name, _ in LADDER if score >= floor or floor == 0][-1]


def _status_pills(view: BlockView, seat: int, player: BlockPlayer, ground: Colour = PAPER,
                  brief: bool = False) -> list[Image.Image]:
    """A sheet's state in words: thinking / submitted / the result, whose view it is, the line crossed; ``brief``
    (the standings): the first and "YOU" only."""
    result = view["result"]
    out = []
    if result and view["solo"]:  # no one to beat: the ladder's rung instead of "winner"
        out.append(pill(_rung(player["score"]), 16, INK, YELLOW, ground, "star"))
    elif result:
        rank = result["ranks"][seat]
        if seat in result["winners"]:
            out.append(pill("WINNER", 16, INK, YELLOW, ground, "star"))
        elif rank > 1:
            out.append(pill({2: "2nd", 3: "3rd"}.get(rank, f"{rank}th"), 16, WHITE, LABEL, ground))
    elif player["waiting"]:
        out.append(pill("thinking", 16, INK, WHITE, ground, "wait", outline=INK))
    else:
        out.append(pill("submitted", 16, WHITE, INK, ground, "check"))
    if view.get("viewer") == seat:
        out.append(pill("YOU", 15, INK, ORANGE, ground))
    if brief:
        return out
    if player["crossed_line"]:
        out.append(pill("crossed the line", 15, WHITE, VERMILLION, ground, "line"))
    elif player["recent"].get("stuck"):
        out.append(pill("no room", 15, WHITE, VERMILLION, ground, "cross"))
    if not view["solo"] and view["first"] == seat and view["phase"] == "play":
        out.append(pill("first", 15, INK, MUTED, ground))
    return out


def _head(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: BlockView, seat: int,
          player: BlockPlayer, name: str) -> None:
    geom = lay.geom(seat)
    ox, oy = lay.cards[seat]
    x0, y0, x1, y1 = geom.head
    x0, y0, x1, y1 = x0 + ox, y0 + oy, x1 + ox, y1 + oy
    pills = _status_pills(view, seat, player)
    score = number_text(player["score"])
    badge = seat_badge(seat, 30, PAPER)
    if geom.variant == "tall":
        cy = y0 + 16
        put(img, badge, x0, cy)
        right = put_text(img, x1, cy + 2, score, 32, INK, PAPER, bold=True, anchor="r")[0]
        right = put_text(img, right - 4, cy + 6, "score", 14, LABEL, PAPER, anchor="r")[0]
        put_text(img, x0 + 36, cy, name, 20, INK, PAPER, bold=True, max_width=right - 8 - x0 - 36)
        x, cy = x0, y0 + 48
    else:
        cy = y0 + 16
        put(img, badge, x0, cy)
        put_text(img, x0 + 38, cy, name, 24, INK, PAPER, bold=True, max_width=x1 - x0 - 38)
        cy2 = y0 + 96
        right = put_text(img, x0, cy2, "score", 16, LABEL, PAPER)[2]
        put_text(img, right + 8, cy2 - 2, score, 40, INK, PAPER, bold=True)
        x, cy = x0, y0 + 52
    for sprite in pills:
        if x + sprite.width > x1:
            break
        x = put(img, sprite, x, cy)[2] + 6
    last = _last_words(view, seat)
    if last:
        lx0, ly0, lx1, ly1 = geom.last
        for k, part in enumerate(_wrap(last, 15, lx1 - lx0 - 4, 2)):
            put_text(img, ox + lx0 + 2, oy + ly0 + 10 + k * 19, part, 15, INK, PAPER)


def _winner_border(draw: ImageDraw.ImageDraw, lay: Layout, seat: int) -> None:
    x, y = lay.cards[seat]
    geom = lay.geom(seat)
    draw.rounded_rectangle((x - 3, y - 3, x + geom.w + 2, y + geom.h + 2), radius=14,
                           outline=ix(YELLOW), width=4)


# --- the strip ----------------------------------------------------------------------------------------------------
def _result_line(view: BlockView, result: ResultView, names: list[str]) -> str:
    winners, scores = result["winners"], result["scores"]
    if view["solo"]:
        return f"Game over: {_sym(result['reason'])}"
    if not winners:
        return "Game over"
    best = number_text(scores[winners[0]])
    if len(winners) == 1:
        text = f"Game over: {names[winners[0]]} wins with {best}"
    else:
        text = f"Game over: {join_names(names[w] for w in winners)} tie with {best}"
    others = sorted((p for p in range(len(scores)) if p not in winners), key=lambda p: -scores[p])
    if others:
        text += "; " + ", ".join(f"{names[p]} {number_text(scores[p])}" for p in others)
    return text


def _status_line(view: BlockView, names: list[str]) -> str:
    phase = view["phase"]
    if view["result"]:
        return _result_line(view, view["result"], names)
    waiting = view["to_act"]
    head = "Setup: everyone writes their number in row 1. " if phase == "setup" else ""
    if view["solo"]:
        return head + ("Your move" if waiting else "")
    if not waiting:
        return head + "Every pick is in"
    if len(waiting) == len(names):
        return head + f"Waiting for all {len(names)} players"
    return head + "Waiting for " + join_names(names[p] for p in waiting)


def _wrap(text: str, size: int, width: float, lines: int, bold: bool = False) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` (measured as drawn: bold text is wider)."""
    out: list[str] = []
    current = ""
    room = width - (2 * bold_stroke(size) + 2 if bold else 0)
    for word in text.split():
        trial = f"{current} {word}".strip()
        if text_width(trial, size, bold) <= room or not current:
            current = trial
        else:
            out.append(current)
            current = word
    if current:
        out.append(current)
    if len(out) > lines:
        out = out[: lines - 1] + [fit(" ".join(out[lines - 1:]), size, width, bold)]
    return [fit(line, size, width, bold) for line in out]


def _strip(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: BlockView,
           names: list[str]) -> None:
    phase = view["phase"]
    label = {"setup": "SETUP", "over": "GAME OVER"}.get(phase, f"TURN {view['turn']}")
    x = G + 4 + math.ceil(text_width("BLOCK", 32, bold=True)) + 16
    x = put(img, pill(label, 18, INK, WHITE if phase != "over" else YELLOW, STRIP), x, 28)[2] + 10
    if view["solo"]:
        put(img, pill("SOLO", 18, INK, MUTED, STRIP), x, 28)
    x0, y0, x1, y1 = lay.text_box
    room = x1 - x0
    max_lines = (y1 - y0) // LINE_H
    lines = [(part, 19, WHITE) for part in _wrap(_status_line(view, names), 19, room, 2, bold=True)]
    own = "mine" in view and phase != "over"
    if own:
        mine = view["mine"]
        text = f"Now: {_sym(mine['todo'])}" if mine["todo"] else mine["note"] or "You are done for this turn"
        stars = [str(v) for v in mine["stars"]]
        if stars:
            text += f"  (* = {', '.join(stars)})"
        lines += [(part, 18, YELLOW) for part in _wrap(text, 18, room - 110, max_lines - len(lines), bold=True)]
    elif phase == "play" and not view["solo"]:
        lines += [(part, 16, MUTED) for part in
                  _wrap("Each player picks in secret; the sheets update when everyone is in.", 16, room,
                                         max_lines - len(lines))]
    cy = y0 + LINE_H // 2
    for i, (part, size, colour) in enumerate(lines[:max_lines]):
        x = x0
        if own and colour == YELLOW and lines[i - 1][2] != YELLOW:
            put(img, pill("YOUR VIEW", 15, INK, ORANGE, STRIP), x, cy)
        if own and colour == YELLOW:
            x += 110
        put_text(img, x, cy, part, size, colour, STRIP, bold=colour != MUTED)
        cy += LINE_H
    _dice(img, lay, view)
    if lay.slots:
        _board(img, draw, lay, view)
    if lay.ladder:
        _ladder(img, draw, lay, view)


def _dice(img: Image.Image, lay: Layout, view: BlockView) -> None:
    dice = view["dice"]
    x = lay.dice_x
    cy = lay.dice_y
    if not dice:
        put_text(img, x, cy, "Dice not rolled yet", 20, MUTED, STRIP, bold=True)
        return
    stars = iter(view["mine"]["stars"] if "mine" in view else ())
    for i, face in enumerate(dice):
        shape = i == 4
        text, starred = str(face), False
        if face == STAR and not shape:  # in the own view, a ★ the player has valued shows its value
            chosen = next(stars, None)
            if chosen is not None:
                text, starred = str(chosen), True
        put(img, die_sprite(text, shape, starred), x + i * (DIE + 8) + (8 if shape else 0), cy)
    nx = x + 5 * (DIE + 8) + 18
    room = lay.w - G - 4 - nx
    penalty = view["penalty"]
    if penalty and not view["solo"] and view["phase"] != "over":
        put(img, pill(f"BLOCK {penalty} drops!", 18, WHITE, VERMILLION, STRIP, "warn", pad=8), nx, cy)
    elif STAR in dice and view["phase"] != "over":
        text = "* on a number die: pick any value 0-9" if STAR in dice[:4] else "* on the shape die: any shape"
        parts = _wrap(text, 15, room, 3)
        for k, part in enumerate(parts):
            put_text(img, nx, cy + (k - (len(parts) - 1) / 2) * 20, part, 15, MUTED, STRIP)


def _board(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: BlockView) -> None:
    penalty = view["penalty"]
    for block, box in zip(view["blocks"], lay.slots, strict=True):
        x0, y0, x1, y1 = box
        cells = _shape_cells(block["cells"])
        rows = max(r for r, _ in cells) + 1
        cols = max(c for _, c in cells) + 1
        q = min(18, 54 // rows, (x1 - x0 - 20) // cols)
        draw_shape(draw, cells, (x0 + x1) / 2, y0 + 80, q, TILE, INK)
        by = block["circled_by"]
        if block["crossed"]:
            a = 6
            for k in range(-5, 6):  # a big light cross over the whole slot
                colour = ix(INK) if abs(k) == 5 else ix(MUTED)
                draw.line((x0 + a, y0 + a + k, x1 - a, y1 - a + k), fill=colour, width=1)
                draw.line((x0 + a, y1 - a + k, x1 - a, y0 + a + k), fill=colour, width=1)
            state = pill("crossed", 15, INK, WHITE, SLOT, "cross")
        elif penalty == block["letter"]:
            draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=12, outline=ix(VERMILLION), width=5)
            state = pill("DROPS", 15, WHITE, VERMILLION, SLOT, "warn")
        elif by:
            state = pill("active", 15, INK, YELLOW, SLOT)
        else:
            state = None
        cy = y0 + 124
        if state is not None:
            put(img, state, (x0 + x1) / 2, cy, "m")
        elif not by:
            put_text(img, (x0 + x1) / 2, cy, "not circled", 15, MUTED, SLOT, anchor="m")
        if by:  # who circled it, by seat number (the sheets carry the same number)
            per_row = max(1, (x1 - x0 - 8) // 26)
            for k, p in enumerate(by):
                r, i = divmod(k, per_row)
                n = min(per_row, len(by) - r * per_row)
                bx = (x0 + x1) / 2 - n * 13 + i * 26 + 1
                put(img, seat_badge(p, 24, SLOT), bx, cy + 28 + r * 26)


def _ladder(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: BlockView) -> None:
    assert lay.ladder is not None
    x0, y0, x1, y1 = lay.ladder
    score = view["players"][0]["score"]
    band = max(i for i, (floor, _, _) in enumerate(LADDER) if score >= floor or i == 0)
    bw = (x1 - x0 - 4 * 6) // 5
    a = x0 + band * (bw + 6)
    over = view["phase"] == "over"
    draw.rounded_rectangle((a - 2, y0 + 24, a + bw + 2, y1 - 20), radius=9, outline=ix(YELLOW), width=4)
    word = f"you: {score}" if not over else f"final: {score}"
    put(img, pill(word, 15, INK, YELLOW, STRIP, "star" if over else ""), a + bw / 2, y1 - 10, "m")


def _standings(img: Image.Image, lay: Layout, view: BlockView, names: list[str]) -> None:
    """A seat's own view: every player's seat number, name, state and score, one a row."""
    assert lay.standings is not None
    x0, y0, x1, _ = lay.standings
    for p, player in enumerate(view["players"]):
        x = x0 + 14
        cy = y0 + 60 + p * 38
        put(img, seat_badge(p, 26, PANEL), x, cy)
        right = put_text(img, x1 - 14, cy, number_text(player["score"]), 22, WHITE, PANEL, bold=True,
                         anchor="r")[0] - 10
        for sprite in reversed(_status_pills(view, p, player, PANEL, brief=True)):
            right = put(img, sprite, right, cy, "r")[0] - 6
        put_text(img, x + 34, cy, names[p], 18, WHITE, PANEL, bold=True, max_width=right - x - 40)


def _last_words(view: BlockView, seat: int) -> str:
    """What the seat's last resolved turn did, in words ("" before the first)."""
    player = view["players"][seat]
    recent = player["recent"]
    moves = recent.get("moves", [])
    if not moves and not recent.get("stuck"):
        return ""
    words = []
    combo_cells = set(recent.get("combo", ()))
    for move in moves:
        kind, *rest = move.split()
        if kind == "write" and rest:
            words.append(f"wrote {seat + 1} in {rest[0]}")
        elif kind == "drop" and rest:
            words.append(f"dropped {rest[0]}")
        elif kind == "penalty":
            words.append(f"took a BLOCK penalty ({len(recent.get('penalty', ()))} X)")
        elif kind == "slide" and rest:
            words.append(f"slid {rest[0]}")
        elif kind == "pass":
            words.append("no combo")
    if combo_cells:
        combo = next((c for c in player["combos"] if set(c["cells"]) == combo_cells), None)
        if combo is None:
            words.append(f"combo of {len(combo_cells)}")
        elif combo["size"] == BONUS:
            words.append("bonus combo of 8")
        else:
            words.append(f"{'ident.' if combo['type'] != CONSECUTIVE else 'consec.'} combo of {combo['size']}")
    for row in recent.get("rows", ()):
        words.append(f"full row {row} +2")
    for letter in recent.get("letters", ()):
        words.append(f"circled {letter}")
    if recent.get("stuck"):
        words.append("no room for the shape")
    return "Last: " + ", ".join(words)


def _tiles(img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, view: BlockView) -> None:
    assert lay.tracks is not None
    xs, _, _, head_y = _track_geom(lay.tracks)
    player = view["players"][0]
    slid_last = set(player["recent"].get("slides", ()))
    slid_now = set(view["mine"]["slides"]) if "mine" in view else set()
    step = view["mine"]["step"] if "mine" in view else ""
    own_letters = set(player["letters"])
    for i, ((a, b), block) in enumerate(zip(xs, view["blocks"], strict=True)):
        letter = block["letter"]
        # circled_by follows the sheets as the turn began; the own sheet may have circled the letter since
        protected = 0 in block["circled_by"] or letter in own_letters
        put_text(img, (a + b) / 2, head_y - 6, f"{letter} · for {SIZES[i]}s", 18, WHITE, PANEL, bold=True,
                 anchor="m")
        notch = block.get("notch", 0)
        if protected:
            put(img, pill("protected", 14, INK, YELLOW, PANEL), (a + b) / 2, head_y + 22, "m")
        elif notch == NOTCHES - 1:  # at GO!: its shape dropped into the grid (or drops now)
            word = "dropping" if step == f"penalty:{letter}" else "dropped"
            put(img, pill(word, 14, WHITE, VERMILLION, PANEL), (a + b) / 2, head_y + 22, "m")
        tx0, ty0, tx1, ty1 = tile_box(lay, i, notch)
        if letter in slid_last:
            _hazard(draw, _box_bands((tx0 - 5, ty0 - 5, tx1 + 6, ty1 + 6), 4))
        if letter in slid_now:
            _solid(draw, _box_bands((tx0 - 5, ty0 - 5, tx1 + 6, ty1 + 6), 5))
        draw.rounded_rectangle((tx0, ty0, tx1, ty1), radius=8, fill=ix(TILE), outline=ix(TILE_EDGE), width=2)
        put_text(img, tx0 + 8, ty0 + 16, letter, 22, INK, TILE, bold=True)
        cells = _shape_cells(block["cells"])
        rows = max(r for r, _ in cells) + 1
        cols = max(c for _, c in cells) + 1
        q = max(6, min(18, (ty1 - ty0 - 12) // rows, (tx1 - tx0 - 44) // cols))
        draw_shape(draw, cells, (tx0 + 30 + tx1) / 2, (ty0 + ty1) / 2, q, PEN, INK)


def view_layout(view: BlockView) -> Layout:
    """The layout a view is drawn with: a seat's own view with others draws its own sheet alone, large."""
    seats = len(view["players"])
    return layout(seats, view["viewer"] if "viewer" in view and seats >= FOCUS_FROM else None)


def cell_box(lay: Layout, seat: int, row: int, col: int) -> Box:
    """The pixel box of a cell (row 0 = row 1) on ``seat``'s sheet, its grid lines included."""
    geom = lay.geom(seat)
    x, y = geom.cell(row, col)
    ox, oy = lay.cards[seat]
    return (ox + x, oy + y, ox + x + geom.c, oy + y + geom.c)


# --- the whole image ------------------------------------------------------------------------------------------------
def render(view: BlockView, names: Sequence[str]) -> bytes:
    """The sheets for one ``Block.view()`` as PNG bytes; ``names`` are display names by seat."""
    seats = len(view["players"])
    lay = view_layout(view)
    img = background(seats, lay.focus).copy()
    draw = ImageDraw.Draw(img)
    shown = seat_names(names, seats)
    crossed = {b["letter"] for b in view["blocks"] if b["crossed"]}
    winners = set(view["result"]["winners"]) if view["result"] else set()
    for seat in lay.drawn:
        if seat in winners and not lay.solo:
            _winner_border(draw, lay, seat)
        _sheet(img, draw, lay, view, seat, shown[seat], crossed)
    _strip(img, draw, lay, view, shown)
    if lay.tracks:
        _tiles(img, draw, lay, view)
    if lay.standings:
        _standings(img, lay, view, shown)
    # drawn in the palette already; zlib level 3 makes these flat images a fifth smaller than level 1 in the
    # same time
    return encode_png(img, level=3)


__all__ = ["PLAYER_COLOURS", "SECOND_CUE", "Layout", "SheetGeom", "cell_box", "ix", "layout", "parse_cell", "render",
           "tile_box", "view_layout"]
