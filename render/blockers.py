"""The Blockers! board as a PNG, laid out for a phone: a portrait picture 800 px wide, the 9x9 board across its
width, whose turn and the last move in words above it, a seat's rack under it (in its own view), then the players
and how to read the board.

Input is exactly ``Blockers.view()`` (see ``docs/dev/blockers-view.md``); output is PNG bytes. Discord shows a
picture about 400 px wide on a phone, half this size: every text a player needs is drawn at least 18 px high
here (9 px there). The empty table of each layout (strips, the board with its sections, faint symbols and
labels, the cards, the legend), every tile, badges and fixed labels are drawn once, on first use; a render
copies the table, pastes sprites and sets the text that changes glyph by glyph.

Reading the board without relying on colour: every tile has its colour's letter (Y B G R P) in a
corner *and* its colour's pattern (plain, diagonal stripes, dots, bars, checks); the players to
act have a thick border and a "TO PLAY" badge; the last move is said in words over the board and has a
dashed outline on it, its row and column labels are marked, and a capture shows the captured tile's colour,
crossed out, on the square's edge.
"""

from __future__ import annotations

import hashlib
import math
import struct
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

from PIL import Image, ImageDraw

from engine.base import ResultView
from engine.blockers.board import COLOURS, NUMBERS, ROWS, SECTIONS, SIZE, WILD, col_of, row_of, square_index
from engine.blockers.view import BlockersLast, BlockersView, TileView
from render import common
from render.common import (
    BLUE,
    EXACT,
    FAINT,
    FELT_CENTRE,
    FELT_EDGE,
    GREEN,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PURPLE,
    SHAPES,
    STRIP,
    VERMILLION,
    WHITE,
    YELLOW,
    Band,
    Box,
    Canvas,
    Colour,
    Drawn,
    Glyphs,
    Kept,
    Label,
    Palette,
    Surface,
    Under,
    dashed_rect,
    draw_text,
    join_names,
    mix,
    note_text,
    number_text,
    palette_image,
    pill_label,
    put,
    ramp,
    recording,
    rounded_mask,
    seat_names,
    shape_sprite,
    star_points,
    text_label,
    text_width,
    zlib_stream,
)
from render.common import deflate_band as _deflate
from render.common import png_chunk as _chunk

# --- the game's facts (from the engine, never copied) ------------------------------------------------
COLUMNS = "".join(NUMBERS)
SYMBOLS = SECTIONS

# Okabe–Ito hues; each colour also has a letter, a pattern and a plate of its own. The plate (the tile's centre,
# under the face) is what still tells the colours apart on a phone under colour-blindness, where a pattern is a
# few pixels: green and purple, alike to deuteranopes and protanopes, get a pale and a dark plate.
TILE: dict[str, Colour] = {"yellow": YELLOW, "blue": BLUE, "green": GREEN, "red": VERMILLION, "purple": PURPLE}
PLATE: dict[str, Colour] = {"yellow": YELLOW, "blue": BLUE, "green": mix(GREEN, WHITE, 0.74), "red": VERMILLION,
                            "purple": mix(PURPLE, (0, 0, 0), 0.58)}
LETTER = {"yellow": "Y", "blue": "B", "green": "G", "red": "R", "purple": "P"}
# What tells the players apart: each one's tile colour, with its letter drawn wherever the colour is (a tile's
# corner, a player's and a captured colour's swatch, the captured tile's mark): read by the colour-blind checks.
PLAYER_COLOURS: dict[str, Colour] = {f"{c} tiles": TILE[c] for c in COLOURS}
SECOND_CUE: dict[str, str] = {f"{c} tiles": LETTER[c] for c in COLOURS}
PATTERN = {"yellow": "plain", "blue": "stripes", "green": "dots", "red": "bars", "purple": "checks"}
# the face's ink on its plate, and the corner letter's on the tile's colour (contrast >= 4.5 : 1 each)
FACE_INK: dict[str, Colour] = {"yellow": INK, "blue": WHITE, "green": INK, "red": INK, "purple": WHITE}
LETTER_INK: dict[str, Colour] = {"yellow": INK, "blue": WHITE, "green": INK, "red": INK, "purple": INK}

# The last move: white dashes on a black ring, a colour no tile has (orange would be close to red).
HIGHLIGHT = WHITE
SHADOW_ALPHA = 100

# --- geometry --------------------------------------------------------------------------------------
# 800 px wide: shown 400 px wide on a phone, a text must be 18 px here (9 px there). Heights depend on the layout.
W = 800
GAP = 10
STRIP_H = 56  # the title, the pills and the move number
STATUS = 118  # whose turn (or the result), then the last move on one or two lines
CELL = 80
INSET = 3  # between a square's edge and its tile
TILE_SIZE = CELL - 2 * INSET
MARGIN = 30  # the labels' band around the grid
BOARD_TOP = STRIP_H + STATUS
BOARD_BOX: Box = (GAP, BOARD_TOP, W - GAP, BOARD_TOP + 2 * MARGIN + SIZE * CELL)
GRID_X, GRID_Y = BOARD_BOX[0] + MARGIN, BOARD_BOX[1] + MARGIN
# the row and column labels' centres, a pixel outwards of the band's middle: a marked label (a disc of the
# highlight) stays clear of the outline band of the squares beside it
LABEL_X = (GRID_X - MARGIN // 2 - 1, GRID_X + SIZE * CELL + MARGIN // 2 + 1)
LABEL_Y = (GRID_Y - MARGIN // 2 - 1, GRID_Y + SIZE * CELL + MARGIN // 2 + 1)
X0, X1 = GAP, W - GAP  # the cards' and the rack's sides
HEADING = 40  # the "PLAYERS" line over the cards
CARD_GAP = 8
PAD = 14  # inside a card
BASIC_CARD, ADVANCED_CARD = 100, 198
RACK_TILE = 108
RACK_HEAD = 40  # "YOUR RACK" over the rack's tiles
MINI = 34  # public tiles of a finished colour, the captured tile's colour
SWATCH = 40  # a player's colour, by the name
SMALL = 34  # swatches of captured colours
MARKER_BADGE = 20  # the "x" on the captured tile
LEGEND_ROW = 44
LEGEND = 3 * LEGEND_ROW + 16

FELT: Colour = mix(FELT_EDGE, FELT_CENTRE, 0.5)  # flat: a gradient over a tall picture costs encoding time
SECTION_LIGHT: Colour = (30, 86, 64)
SECTION_DARK: Colour = (18, 64, 46)
GRID_LINE: Colour = (8, 40, 27)
SECTION_LINE: Colour = (96, 150, 124)
SYMBOL_ON = {True: mix(SECTION_LIGHT, WHITE, 0.17), False: mix(SECTION_DARK, WHITE, 0.15)}


def square_box(row: int, col: int) -> Box:
    """The pixel box of the square at ``row`` (0 = A) and ``col`` (0 = column 1), edges included."""
    x, y = GRID_X + col * CELL, GRID_Y + row * CELL
    return (x, y, x + CELL, y + CELL)


def _light(row: int, col: int) -> bool:
    return (row // 3 + col // 3) % 2 == 0


@dataclass(frozen=True)
class Layout:
    """Where things go under the board, for one number of players, mode and kind of view."""

    cards: tuple[Box, ...]  # by seat
    rack: Box | None  # "Your rack", in a seat's own view
    legend: Box  # how to read the board
    height: int  # the picture's


@cache
def layout(seats: int, advanced: bool, private: bool) -> Layout:
    """The picture for ``seats`` players; ``private``: a seat's own view, with its rack under the board."""
    y = BOARD_BOX[3] + GAP
    rack = None
    if private:
        rows = 2 if advanced else 1
        rack = (X0, y, X1, y + RACK_HEAD + rows * (RACK_TILE + 10) + 6)
        y = rack[3] + GAP
    y += HEADING
    card_h = ADVANCED_CARD if advanced else BASIC_CARD
    cards = tuple((X0, y + i * (card_h + CARD_GAP), X1, y + i * (card_h + CARD_GAP) + card_h) for i in range(seats))
    y = (cards[-1][3] if cards else y) + GAP
    legend = (X0, y, X1, y + LEGEND)
    return Layout(cards=cards, rack=rack, legend=legend, height=legend[3] + GAP)


def marker_box(row: int, col: int) -> Box:
    """Where the last move's captured tile is shown: on the right of the square's lower edge (its upper edge on
    the last row), clear of the faces and of every tile's colour letter (top left)."""
    x0, y0, x1, y1 = square_box(row, col)
    size = MINI + 6 + MARKER_BADGE // 2
    edge = y1 if row < SIZE - 1 else y0
    return (x1 - size - 2, edge - size // 2, x1 - 2, edge - size // 2 + size)


# --- symbols and tiles ----------------------------------------------------------------------------
Op = tuple[str, Sequence[float], int]  # kind, unit-square coordinates, fill (255 draws, 0 erases)


def _sun() -> list[Op]:
    ops: list[Op] = [("ellipse", (0.27, 0.27, 0.73, 0.73), 255)]
    for k in range(8):
        a = k * math.pi / 4
        tip = (0.5 + 0.5 * math.cos(a), 0.5 + 0.5 * math.sin(a))
        left = (0.5 + 0.3 * math.cos(a - 0.2), 0.5 + 0.3 * math.sin(a - 0.2))
        right = (0.5 + 0.3 * math.cos(a + 0.2), 0.5 + 0.3 * math.sin(a + 0.2))
        ops.append(("polygon", (*tip, *left, *right), 255))
    return ops


SYMBOL_OPS: dict[str, list[Op]] = {
    "sun": _sun(),
    "moon": [("ellipse", (0.06, 0.06, 0.94, 0.94), 255), ("ellipse", (0.34, -0.08, 1.1, 0.68), 0)],
    "star": [("polygon", tuple(v for p in star_points(0.5, 0.54, 0.52, 0.21) for v in p), 255)],
    "heart": [(kind, tuple(v * 0.92 + 0.04 for v in vals), 255) for kind, vals in SHAPES["H"]],
    "triangle": [("polygon", (0.5, 0.04, 0.98, 0.9, 0.02, 0.9), 255)],
    "diamond": [("polygon", (0.5, 0.0, 0.88, 0.5, 0.5, 1.0, 0.12, 0.5), 255)],
    "circle": [("ellipse", (0.1, 0.1, 0.9, 0.9), 255)],
    "square": [("rectangle", (0.1, 0.1, 0.9, 0.9), 255)],
    "cross": [("rectangle", (0.34, 0.02, 0.66, 0.98), 255), ("rectangle", (0.02, 0.34, 0.98, 0.66), 255)],
}


@cache
def symbol_mask(symbol: str, size: int, supersample: int = 4) -> Image.Image:
    """An anti-aliased ``L`` mask of one of the nine section symbols."""
    big = size * supersample
    mask = Image.new("L", (big, big), 0)
    d = ImageDraw.Draw(mask)
    for kind, vals, fill in SYMBOL_OPS[symbol]:
        pts = [v * big for v in vals]
        if kind == "ellipse":
            d.ellipse(pts, fill=fill)
        elif kind == "rectangle":
            d.rectangle(pts, fill=fill)
        else:
            d.polygon(list(zip(pts[0::2], pts[1::2], strict=True)), fill=fill)
    return mask.resize((size, size), Image.Resampling.LANCZOS)


def symbol_sprite(symbol: str, size: int, colour: Colour) -> Image.Image:
    sprite = Image.new("RGBA", (size, size), colour + (0,))
    sprite.putalpha(symbol_mask(symbol, size))
    return sprite


def _pattern(draw: ImageDraw.ImageDraw, kind: str, size: int, fill: Colour) -> None:
    """The colour's texture over the whole tile (the face is drawn over it on a plate)."""
    step = max(5, size // 6)
    line = max(2, size // 22)
    if kind == "stripes":
        for k in range(-size, 2 * size, step):
            draw.line((k, size, k + size, 0), fill=fill, width=line)
    elif kind == "bars":
        for y in range(step // 2, size, step):
            draw.rectangle((0, y, size, y + line - 1), fill=fill)
    elif kind == "dots":
        r = max(1.2, size / 28)
        for i, y in enumerate(range(step // 2, size + step, step)):
            for x in range((step // 2) * (i % 2), size + step, step):
                draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    elif kind == "checks":
        for y in range(0, size, step):
            for x in range(0, size, step):
                if (x // step + y // step) % 2 == 0:
                    draw.rectangle((x, y, x + step - 1, y + step - 1), fill=fill)


def _pattern_ink(colour: Colour, ink: Colour) -> Colour:
    return mix(colour, ink, 0.3)


def _edge(colour: Colour) -> Colour:
    return mix(colour, (0, 0, 0), 0.35)


def _face_size(size: int) -> int:
    return int(size * 0.58)


def corner_letter(size: int) -> int:
    """The colour letter's size in the corner of a tile ``size`` wide (22 px on the board's)."""
    return max(11, round(size * 0.3))


def swatch_letter(size: int) -> int:
    """The colour letter's size on a swatch ``size`` wide."""
    return int(size * 0.56)


def _draw_face(tile: Image.Image, face: str, size: int, ink: Colour, centre: tuple[float, float]) -> None:
    draw = ImageDraw.Draw(tile)
    cx, cy = centre
    if face in SYMBOL_OPS:
        s = int(size * 0.56)
        tile.alpha_composite(symbol_sprite(face, s, ink), (round(cx - s / 2), round(cy - s / 2)))
    elif face == WILD:  # a ring with a bold W: the one tile that fits anywhere
        r = size * 0.33
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=max(2, size // 22))
        draw_text(draw, (cx, cy + 1), "W", int(size * 0.4), ink, anchor="mm", bold=True)
    else:
        draw_text(draw, (cx, cy + 1), face if len(face) == 1 else "?", _face_size(size), ink, anchor="mm", bold=True)


@cache
def tile_sprite(colour: str, face: str | None, size: int, corner: bool = True, shadow: int = 2) -> Image.Image:
    """A tile: a rounded square in its colour and pattern, the face big on a plain plate in the middle,
    and (``corner``) the colour's letter top left. ``face=None`` is a swatch: the letter is the face."""
    base, plate, ink, letter = TILE[colour], PLATE[colour], FACE_INK[colour], LETTER[colour]
    tile = Image.new("RGBA", (size, size), base + (255,))
    draw = ImageDraw.Draw(tile)
    _pattern(draw, PATTERN[colour], size, _pattern_ink(base, LETTER_INK[colour]))
    radius = max(4, size // 7)
    if face is None:
        inner = int(size * 0.16)
        draw.rounded_rectangle((inner, inner, size - 1 - inner, size - 1 - inner), radius=4, fill=plate)
        draw_text(draw, (size / 2, size / 2 + 1), letter, swatch_letter(size), ink, anchor="mm", bold=True)
    else:
        inset = max(3, size // 7)
        draw.rounded_rectangle((inset, inset, size - 1 - inset, size - 1 - inset), radius=radius - 1, fill=plate)
        shift = 0
        if corner:
            lsize = corner_letter(size)
            draw.rounded_rectangle((0, 0, inset + lsize * 0.8, inset + lsize * 0.85), radius=radius, fill=base)
            draw_text(draw, (3, 1), letter, lsize, LETTER_INK[colour], anchor="lt", bold=True)
            shift = round(size * 0.05)
        centre = (size / 2 + shift, size / 2 + shift + (1 if corner else 0))
        _draw_face(tile, face, size, ink, centre)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=radius, outline=_edge(base), width=max(1, size // 40))
    mask = rounded_mask((size, size), radius)
    out = Image.new("RGBA", (size + shadow, size + shadow), (0, 0, 0, 0))
    if shadow:
        dark = Image.new("RGBA", (size, size), (0, 0, 0, 255))
        dark.putalpha(mask.point(lambda v: v * SHADOW_ALPHA // 255))
        out.alpha_composite(dark, (shadow, shadow))
    tile.putalpha(mask)
    out.alpha_composite(tile)
    return out


def _paste(img: Image.Image | Surface, sprite: Image.Image, xy: tuple[int, int], under: Under = None) -> None:
    put(img, sprite, xy, under)


@cache
def square_tile(colour: str, face: str, light: bool) -> Image.Image:
    """A board tile already laid on its square's shade: an opaque ``RGB`` sprite, pasted without a mask
    (five times faster than compositing). It covers the square inside its grid lines but for ``INSET``."""
    sprite = tile_sprite(colour, face, TILE_SIZE)
    square = Image.new("RGBA", sprite.size, (SECTION_LIGHT if light else SECTION_DARK) + (255,))
    square.alpha_composite(sprite)
    return square.convert("RGB")


@cache
def captured_marker(colour: str) -> Image.Image:
    """The captured tile's colour (its swatch, with its letter) in a frame of the highlight, with a black "x"
    badge on its corner (the words over the board say which tile it was)."""
    tile = tile_sprite(colour, None, MINI, shadow=0)
    pad, badge = 3, MARKER_BADGE
    size = MINI + 2 * pad
    out = Image.new("RGBA", (size + badge // 2, size + badge // 2), HIGHLIGHT + (0,))
    ox = oy = badge // 2
    draw = ImageDraw.Draw(out)
    draw.rounded_rectangle((ox - 1, oy - 1, ox + size, oy + size), radius=8, fill=INK)
    draw.rounded_rectangle((ox, oy, ox + size - 1, oy + size - 1), radius=7, fill=HIGHLIGHT)
    out.alpha_composite(tile, (ox + pad, oy + pad))
    out.alpha_composite(shape_sprite("o", badge + 2, HIGHLIGHT), (0, 0))
    out.alpha_composite(shape_sprite("o", badge - 2, INK), (2, 2))
    draw = ImageDraw.Draw(out)
    a, b = 7, badge - 5
    draw.line((a, a, b, b), fill=HIGHLIGHT, width=2)
    draw.line((a, b, b, a), fill=HIGHLIGHT, width=2)
    return out


def _note_tile(colour: str, face: str | None, size: int, corner: bool = True) -> None:
    """Tell :func:`render.common.recording` the texts of a tile pasted from the cache (drawn only once)."""
    if face is None:
        note_text(LETTER[colour], swatch_letter(size))
        return
    if corner:
        note_text(LETTER[colour], corner_letter(size))
    if face == WILD:
        note_text("W", int(size * 0.4))
    elif len(face) == 1:
        note_text(face, _face_size(size))


def _paste_tile(img: Image.Image | Surface, colour: str, face: str | None, size: int, xy: tuple[int, int],
                corner: bool = True, shadow: int = 2) -> None:
    _paste(img, tile_sprite(colour, face, size, corner, shadow), xy)
    _note_tile(colour, face, size, corner)


# --- fixed text, drawn once --------------------------------------------------------------------------
TITLE = "BLOCKERS!"
TITLE_SIZE = 32
LABEL_SIZE = 20


@cache
def _coordinate_badge(text: str) -> Label:
    """A row or column label of the last move: dark on a disc of the highlight (all the same size, so a
    narrow "I" does not read as an "0")."""
    size = 26
    disc = shape_sprite("o", size, HIGHLIGHT)
    draw_text(ImageDraw.Draw(disc), (size / 2, size / 2 + 1), text, LABEL_SIZE, INK, anchor="mm", bold=True)
    return Label(disc, text=text, size=LABEL_SIZE)


NAME = Glyphs(26, WHITE, bold=True)
SCORE = Glyphs(34, WHITE, bold=True)
HEAD = Glyphs(28, YELLOW, bold=True)
BODY = Glyphs(22, WHITE, bold=True)
NOTE = Glyphs(20, MUTED)
NUMBER = Glyphs(22, WHITE, bold=True)


def _last_move_key() -> Label:
    """The legend of the last move: a dashed swatch (its outline on the board) and its name."""
    text = text_label("LAST MOVE", 19, HIGHLIGHT, bold=True)
    img = Image.new("RGBA", (30 + 10 + text.image.width, max(30, text.height)), HIGHLIGHT + (0,))
    cy = img.height // 2
    dashed_rect(ImageDraw.Draw(img), (0, cy - 14, 28, cy + 14), HIGHLIGHT, width=3, dash=7, gap=4)
    text.paste(img, (40, cy))
    return Label(img, text="LAST MOVE", size=19)


# --- the palette -------------------------------------------------------------------------------------
def _shade(c: Colour, alpha: int = SHADOW_ALPHA) -> Colour:
    return mix(c, (0, 0, 0), alpha / 255)


def _palette() -> Image.Image:
    """Every colour the board uses, with the anti-aliasing ramps where two of them meet."""
    colours = ramp(FELT_EDGE, FELT_CENTRE, 32)
    grounds = (SECTION_LIGHT, SECTION_DARK, PANEL)
    for ground in grounds:
        colours += ramp(ground, _shade(ground), 2)
    for c in COLOURS:
        base, plate, ink, lett = TILE[c], PLATE[c], FACE_INK[c], LETTER_INK[c]
        pattern, edge = _pattern_ink(base, lett), _edge(base)
        colours += ramp(plate, ink, 5) + ramp(base, plate, 2) + ramp(base, lett, 5) + ramp(base, pattern, 2)
        colours += ramp(pattern, lett, 3) + ramp(base, edge, 2)
        for ground in (*grounds, HIGHLIGHT):
            colours += ramp(edge, ground, 2)
        colours += [mix(edge, _shade(g), 0.5) for g in grounds]
    edges = [  # (background, foreground) pairs that meet at anti-aliased edges
        (SECTION_LIGHT, SYMBOL_ON[True]), (SECTION_DARK, SYMBOL_ON[False]), (SECTION_LIGHT, GRID_LINE),
        (SECTION_DARK, GRID_LINE), (SECTION_LIGHT, SECTION_LINE), (SECTION_DARK, SECTION_LINE),
        (SECTION_LIGHT, HIGHLIGHT), (SECTION_DARK, HIGHLIGHT), (SECTION_LIGHT, INK), (SECTION_DARK, INK),
        (PANEL, SECTION_LINE), (PANEL, INK),
        (PANEL, WHITE), (PANEL, MUTED), (PANEL, YELLOW), (PANEL, PANEL_EDGE), (PANEL, FAINT), (PANEL, HIGHLIGHT),
        (STRIP, WHITE), (STRIP, MUTED), (STRIP, YELLOW), (STRIP, HIGHLIGHT), (FELT_CENTRE, MUTED),
        (FELT_EDGE, MUTED), (FELT_CENTRE, WHITE),
        (YELLOW, INK), (HIGHLIGHT, INK), (MUTED, INK), (WHITE, INK), (PANEL_EDGE, WHITE), (PANEL_EDGE, PANEL),
    ]
    for bg, fg in edges:
        colours += ramp(bg, fg, 4)
    return palette_image(colours)


# --- fixed labels and the palette, drawn once, on first use ----------------------------------------------------
class _Sprites:
    """The fixed labels and the palette, each drawn the first time a render needs it (and kept); tiles, badges and
    the empty tables are cached functions: importing the module draws nothing."""

    @cached_property
    def TITLE_END(self) -> int:
        return GAP + 4 + int(text_width(TITLE, TITLE_SIZE, bold=True)) + 4

    @cached_property
    def TO_PLAY(self) -> Label:
        return pill_label("TO PLAY", 20, INK, YELLOW, icon=">")

    @cached_property
    def WINNER(self) -> Label:
        return pill_label("WINNER", 20, INK, YELLOW, icon="*")

    @cached_property
    def YOU(self) -> Label:
        return pill_label("YOU", 20, INK, MUTED, pad=6)

    @cached_property
    def ORDINAL(self) -> dict[int, Label]:
        return {n: pill_label({2: "2nd", 3: "3rd"}.get(n, f"{n}th"), 20, WHITE, PANEL_EDGE) for n in range(2, 6)}

    @cached_property
    def FINISHED(self) -> Label:
        return pill_label("FINISHED", 20, INK, MUTED, pad=6)

    @cached_property
    def ADVANCED_PILL(self) -> Label:
        return pill_label("ADVANCED", 20, INK, MUTED)

    @cached_property
    def PRIVATE_PILL(self) -> Label:
        return pill_label("PRIVATE VIEW", 20, INK, WHITE)

    @cached_property
    def OVER_PILL(self) -> Label:
        return pill_label("GAME OVER", 20, INK, WHITE)

    @cached_property
    def HEAD_ICON(self) -> dict[str, Label]:
        return {">": Label(shape_sprite(">", 22, YELLOW)), "*": Label(shape_sprite("*", 26, YELLOW))}

    @cached_property
    def NO_MOVES(self) -> Label:
        return text_label("New game: no moves yet", 22, MUTED)

    @cached_property
    def NO_CAPTURES(self) -> Label:
        return text_label("no captures", 20, FAINT)

    @cached_property
    def CAPTURED_WORD(self) -> Label:
        return text_label("captured", 20, MUTED)

    @cached_property
    def PUBLIC_WORD(self) -> Label:
        return text_label("public:", 20, MUTED)

    @cached_property
    def SCORE_WORD(self) -> Label:
        return text_label("score", 20, MUTED)

    @cached_property
    def STAT_WORD(self) -> dict[str, Label]:
        return {w: text_label(w, 20, MUTED) for w in ("groups", "rack", "pile")}

    @cached_property
    def LAST_MOVE(self) -> Label:
        return _last_move_key()

    @cached_property
    def PALETTE(self) -> Palette:
        return Palette(_palette())


_S = _Sprites()


# --- the empty table ----------------------------------------------------------------------------------
def _board(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    draw.rounded_rectangle(BOARD_BOX, radius=14, fill=PANEL, outline=PANEL_EDGE, width=2)
    faint = int(CELL * 0.42)
    for r in range(SIZE):
        for c in range(SIZE):
            x0, y0, x1, y1 = square_box(r, c)
            light = _light(r, c)
            draw.rectangle((x0, y0, x1, y1), fill=SECTION_LIGHT if light else SECTION_DARK, outline=GRID_LINE)
            symbol = SYMBOLS[(r // 3) * 3 + c // 3]
            _paste(img, symbol_sprite(symbol, faint, SYMBOL_ON[light]),
                   (x0 + (CELL - faint) // 2 + 1, y0 + (CELL - faint) // 2 + 1))
    end_x, end_y = GRID_X + SIZE * CELL, GRID_Y + SIZE * CELL
    for k in range(0, SIZE + 1, 3):
        x, y = GRID_X + k * CELL, GRID_Y + k * CELL
        draw.rectangle((x - 1, GRID_Y - 1, x + 1, end_y + 1), fill=SECTION_LINE)
        draw.rectangle((GRID_X - 1, y - 1, end_x + 1, y + 1), fill=SECTION_LINE)
    for k in range(SIZE):
        mid = GRID_X + k * CELL + CELL // 2
        for y in LABEL_Y:
            draw_text(draw, (mid, y), COLUMNS[k], LABEL_SIZE, MUTED, anchor="mm", bold=True)
        mid = GRID_Y + k * CELL + CELL // 2
        for x in LABEL_X:
            draw_text(draw, (x, mid), ROWS[k], LABEL_SIZE, MUTED, anchor="mm", bold=True)


def _card(img: Image.Image, box: Box) -> None:
    """An empty card (anti-aliased corners over the felt)."""
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    card = Image.new("RGBA", size, PANEL + (255,))
    ImageDraw.Draw(card).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=14, fill=PANEL,
                                           outline=PANEL_EDGE, width=2)
    card.putalpha(rounded_mask(size, 14))
    _paste(img, card, (x0, y0))


def _strong(img: Surface, box: Box) -> None:
    """The thick yellow border of a player to act (or a winner) over a card of the base."""
    img.draw.rounded_rectangle(box, radius=14, outline=img.ink(YELLOW), width=5)


def _legend_sprite(size: tuple[int, int]) -> Image.Image:
    """How to read the board, under the players: three rows of a sample and its words."""
    w, h = size
    img = Image.new("RGBA", size, PANEL + (0,))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=14, outline=PANEL_EDGE, width=2)

    def words(x: float, y: float, text: str) -> float:
        draw_text(draw, (x, y), text, 20, WHITE, anchor="lm")
        return x + text_width(text, 20) + 26

    y = 8 + LEGEND_ROW // 2
    x: float = PAD
    draw.rectangle((x - 1, y - 16, x + 31, y + 16), outline=INK, width=6)
    dashed_rect(draw, (int(x), y - 15, int(x) + 30, y + 15), HIGHLIGHT, width=4, dash=8, gap=4)
    x = words(x + 42, y, "the last move")
    marker = captured_marker("blue")
    _paste(img, marker, (int(x) - 4, y - marker.height // 2 - 4))
    x = words(x + marker.width + 4, y, "what it captured")
    _paste(img, tile_sprite("purple", WILD, 48, corner=False, shadow=0), (int(x), y - 24))
    words(x + 56, y, "wild: any square")

    y += LEGEND_ROW
    draw.rectangle((PAD, y - 16, PAD + 32, y + 16), fill=SECTION_LIGHT)
    _paste(img, symbol_sprite("moon", 20, SYMBOL_ON[True]), (PAD + 6, y - 10))
    words(PAD + 44, y, "a tile fits its column's number, its row's letter or its section's symbol")

    y += LEGEND_ROW
    x = PAD
    for c in COLOURS:
        _paste(img, tile_sprite(c, None, 34, shadow=0), (int(x), y - 17))
        x += 40
    x = words(x + 6, y, "a letter and a pattern each")
    draw.rounded_rectangle((x, y - 16, x + 32, y + 16), radius=6, outline=YELLOW, width=4)
    words(x + 44, y, "to play (at the end: won)")
    return img


TOP_END = BOARD_BOX[3] + GAP  # the strips and the board are the same in every layout; below them they differ


@cache
def _top() -> Image.Image:
    """The strips and the empty board, the same in every layout (about 2.7 MB)."""
    img = Image.new("RGB", (W, TOP_END), FELT)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, W, BOARD_TOP - GAP), fill=STRIP)
    draw.line((0, STRIP_H, W, STRIP_H), fill=PANEL_EDGE, width=1)
    draw.line((0, BOARD_TOP - GAP, W, BOARD_TOP - GAP), fill=PANEL_EDGE, width=1)
    draw_text(draw, (GAP + 4, STRIP_H // 2), TITLE, TITLE_SIZE, WHITE, anchor="lm", bold=True)
    _board(img, draw)
    return img


@cache
def _below(seats: int, advanced: bool, private: bool) -> Image.Image:
    """What is under the board in one layout: the rack's frame, the empty cards, the legend (ten layouts at most,
    about 2 MB each)."""
    lay = layout(seats, advanced, private)
    img = Image.new("RGB", (W, lay.height), FELT)
    draw = ImageDraw.Draw(img)
    heading = lay.cards[0][1] - HEADING // 2 - 2
    draw_text(draw, (X0 + 4, heading), "PLAYERS", 20, MUTED, anchor="lm", bold=True)
    draw_text(draw, (X1 - 4, heading), "score = groups + most-captured colour \u00b7 lowest wins", 20, MUTED,
              anchor="rm")
    for box in lay.cards:
        _card(img, box)
    if lay.rack:
        x0, y0, x1, _ = lay.rack
        _card(img, lay.rack)
        draw_text(draw, (x0 + PAD, y0 + RACK_HEAD // 2 + 2), "YOUR RACK", 20, YELLOW, anchor="lm", bold=True)
        draw_text(draw, (x1 - PAD, y0 + RACK_HEAD // 2 + 2), "only you see this", 20, MUTED, anchor="rm")
    x0, y0, x1, y1 = lay.legend
    _paste(img, _legend_sprite((x1 - x0, y1 - y0)), (x0, y0))
    return img.crop((0, TOP_END, W, lay.height))


def base(seats: int, advanced: bool, private: bool) -> Image.Image:
    """The empty table of one layout (strips, board, cards, the rack's frame, the legend): a new image to draw on."""
    below = _below(seats, advanced, private)
    img = Image.new("RGB", (W, TOP_END + below.height))
    img.paste(_top(), (0, 0))
    img.paste(below, (0, TOP_END))
    return img


@cache
def _table(seats: int, advanced: bool, private: bool) -> Image.Image:
    """The empty table of one layout, kept: what a board is drawn over."""
    return base(seats, advanced, private)


@cache
def _background(seats: int, advanced: bool, private: bool) -> Image.Image:
    """The empty table of one layout in the board's palette."""
    return _S.PALETTE.background(_table(seats, advanced, private))


def forget_tables() -> None:
    """Drop the drawn empty tables (a test that records every text a picture sets draws them again)."""
    _top.cache_clear()
    _below.cache_clear()
    _table.cache_clear()
    _background.cache_clear()
    _ground.cache_clear()
    _png_head.cache_clear()
    global _PARTS, _BANDS
    _PARTS, _BANDS = _parts(), _bands()
    with _IDLE_LOCK:
        _IDLE.clear()


# --- text that changes -----------------------------------------------------------------------------
def _result_line(result: ResultView, names: list[str]) -> str:
    winners, scores = result["winners"], result["scores"]
    if not winners:
        return "Game over"
    best = number_text(scores[winners[0]])
    if len(winners) == 1:
        line = f"{names[winners[0]]} wins with {best}"
        others = sorted(s for i, s in enumerate(scores) if i != winners[0])
        if others:
            line += " vs " + ", ".join(number_text(s) for s in others)
        return line
    return f"Tie: {join_names(names[w] for w in winners)} ({best} each)"


def _headline(view: BlockersView, names: list[str]) -> tuple[str, str]:
    """The status line and its icon (``>`` to play, ``*`` result)."""
    short = [HEAD.fit(n, 300) for n in names]
    if view["phase"] == "over":
        result = view["result"]
        return (_result_line(result, short) if result else "Game over"), "*"
    acting = view["to_act"]
    if not acting:
        return "", ">"
    return f"{join_names(short[p] for p in acting)} to play", ">"


def _move_lines(last: BlockersLast, names: list[str], room: float) -> list[str]:
    """The last move in words, on one line of ``room`` pixels or, with a capture, two."""
    who = BODY.fit(names[last["seat"]], 260)
    if last["pass"]:
        return [f"{who} passed (no legal move)"]
    tile, captured = last["tile"], last["captured"]
    if tile is None:
        return [f"{who} played {last['move']}"]
    text = f"{who} played {tile['colour']} {tile['face']} on {last['square']}"
    if not captured:
        return [text]
    more = f"capturing {captured['colour']} {captured['face']}"
    if BODY.width(f"{text}, {more}") <= room:
        return [f"{text}, {more}"]
    return [f"{text},", more]


# --- drawing -------------------------------------------------------------------------------------------
def _tiles(img: Surface, board: list[list[TileView | None]]) -> None:
    """The tiles, row by row: a row is a part (:func:`_part`), most of them the same as on the board before."""
    for r, row in enumerate(board):
        if not any(row):
            continue
        y0 = square_box(r, 0)[1] + INSET
        box = (GRID_X + INSET, y0, GRID_X + SIZE * CELL - 1, y0 + TILE_SIZE + 2)  # (its tiles and their shadows)
        key = ("row", r, *((cell["colour"], cell["face"]) if cell else None for cell in row))
        _part(img, box, key, _row_drawing(img, r, row))


def _row_drawing(img: Surface, r: int, row: list[TileView | None]) -> Callable[[], None]:
    def draw() -> None:
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x0, y0, _, _ = square_box(r, c)
            put(img, square_tile(cell["colour"], cell["face"], _light(r, c)), (x0 + INSET, y0 + INSET))
            _note_tile(cell["colour"], cell["face"], TILE_SIZE)
    return draw


def _last_move(img: Surface, draw: ImageDraw.ImageDraw, last: BlockersLast | None) -> None:
    if last is None or last["square"] is None:
        return
    square = square_index(last["square"])
    r, c = row_of(square), col_of(square)
    x0, y0, x1, y1 = square_box(r, c)
    draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=img.ink(INK), width=7)
    dashed_rect(draw, (x0 - 1, y0 - 1, x1 + 1, y1 + 1), img.ink(HIGHLIGHT), width=5, dash=10, gap=6)
    mid_x, mid_y = (x0 + x1) // 2, (y0 + y1) // 2
    for y in LABEL_Y:
        _coordinate_badge(COLUMNS[c]).paste(img, (mid_x, y), anchor="m")
    for x in LABEL_X:
        _coordinate_badge(ROWS[r]).paste(img, (x, mid_y), anchor="m")
    captured = last["captured"]
    if captured:
        mx, my, _, _ = marker_box(r, c)
        _paste(img, captured_marker(captured["colour"]), (mx, my), EXACT)  # (on the tile that captured it)
        _note_tile(captured["colour"], None, MINI)


def _stat(img: Surface, x: float, cy: float, word: str, value: int) -> float:
    """``word`` in the muted face then ``value`` in bold; returns where the next one may start."""
    x = _S.STAT_WORD[word].paste(img, (x, cy))[2] + 6
    return NUMBER.paste(img, (x, cy), number_text(value))[2] + 20


def _captures(img: Surface, left: float, right: float, cy: float, captured: dict[str, int]) -> None:
    """Small swatches with counts, right aligned at ``right`` (the word "captured" before them when
    there is room after ``left``); the most-captured colour is the one that counts."""
    counts = [(c, captured[c]) for c in COLOURS if captured.get(c)]
    if not counts:
        _S.NO_CAPTURES.paste(img, (right, cy), anchor="r")
        return
    gap = 12
    widths = [SMALL + 5 + NUMBER.width(str(n)) for _, n in counts]
    x = right - sum(widths) - gap * (len(counts) - 1)
    if x - 8 - _S.CAPTURED_WORD.width >= left:
        _S.CAPTURED_WORD.paste(img, (x - 8, cy), anchor="r")
    for (c, n), w in zip(counts, widths, strict=True):
        _paste_tile(img, c, None, SMALL, (round(x), round(cy - SMALL / 2)), shadow=0)
        NUMBER.paste(img, (x + SMALL + 5, cy), str(n))
        x += w + gap


def _player(img: Surface, box: Box, view: BlockersView, seat: int, name: str, advanced: bool) -> None:
    player = view["players"][seat]
    over = view["phase"] == "over"
    result = view["result"]
    acting = not over and seat in view["to_act"]
    winner = bool(over and result and seat in result["winners"])
    if acting or winner:
        _strong(img, box)
    x0, y0, x1, y1 = box
    colours = player["colours"]

    # name row: swatches, name, badges, score
    cy = y0 + 32
    x: float = x0 + PAD
    for c in colours[:2]:
        _paste_tile(img, c, None, SWATCH, (int(x), cy - SWATCH // 2))
        x += SWATCH + 6
    score_left = SCORE.paste(img, (x1 - PAD, cy), number_text(player["score"]), anchor="r")[0]
    right = _S.SCORE_WORD.paste(img, (score_left - 8, cy + 2), anchor="r")[0] - 14
    tags: list[Label] = []
    if acting:
        tags.append(_S.TO_PLAY)
    elif winner:
        tags.append(_S.WINNER)
    elif over and result and result["ranks"][seat] in _S.ORDINAL:
        tags.append(_S.ORDINAL[result["ranks"][seat]])
    if view["viewer"] == seat:
        tags.append(_S.YOU)
    for tag in reversed(tags):
        right = tag.paste(img, (right, cy), anchor="r")[0] - 8
    name_x = x + 6
    NAME.paste(img, (name_x, cy), NAME.fit(name, right - 4 - name_x))

    racks, piles = player["rack_counts"], player["pile_counts"]
    bottom = y1 - 28
    if not advanced:
        c = colours[0]
        x = _stat(img, x0 + PAD, bottom, "groups", player["groups"])
        x = _stat(img, x, bottom, "rack", racks[c])
        x = _stat(img, x, bottom, "pile", piles[c])
        _captures(img, x, x1 - PAD, bottom, player["captured"])
        return

    # advanced: one row per colour, then groups and captures
    finished = set(player["finished"])
    public = player["public"]
    row_y = cy + 50
    for c in colours[:2]:
        _paste_tile(img, c, None, SMALL, (x0 + PAD + 3, row_y - SMALL // 2), shadow=0)
        x = x0 + PAD + SMALL + 16
        if c in finished:
            x = _S.FINISHED.paste(img, (x, row_y))[2] + 14
            tiles = public.get(c, [])
            if tiles:
                x = _S.PUBLIC_WORD.paste(img, (x, row_y))[2] + 8
            for face in tiles[:5]:
                _paste_tile(img, c, face, MINI, (int(x), row_y - MINI // 2), corner=False, shadow=0)
                x += MINI + 6
        else:
            x = _stat(img, x, row_y, "rack", racks[c])
            _stat(img, x, row_y, "pile", piles[c])
        row_y += 44
    x = _stat(img, x0 + PAD, bottom, "groups", player["groups"])
    _captures(img, x, x1 - PAD, bottom, player["captured"])


def _rack(img: Surface, box: Box, view: BlockersView) -> None:
    seat = view["viewer"]
    if "rack" not in view or seat is None:
        return
    rack = view["rack"]
    x0, y0 = box[0], box[1]
    y = y0 + RACK_HEAD
    me = view["players"][seat]
    finished = set(me["finished"]) if view["mode"] == "advanced" else set()
    for c in me["colours"]:
        tiles = rack[c]
        x = x0 + PAD
        if len(rack) > 1:
            _paste_tile(img, c, None, SWATCH, (x, y + (RACK_TILE - SWATCH) // 2))
            x += SWATCH + 14
        for face in tiles:
            _paste_tile(img, c, face, RACK_TILE, (x, y))
            x += RACK_TILE + 12
        if c in finished:
            _S.FINISHED.paste(img, (x + 4, y + RACK_TILE // 2))
        y += RACK_TILE + 10


def _strip(img: Surface, view: BlockersView, reason: str) -> None:
    """The title's strip: the pills, and the move number (and a result's reason with no room below) on the right."""
    cy = STRIP_H // 2
    x = _S.TITLE_END + 12
    if view["mode"] == "advanced":
        x = _S.ADVANCED_PILL.paste(img, (x, cy))[2] + 10
    if view["phase"] == "over":
        x = _S.OVER_PILL.paste(img, (x, cy))[2] + 10
    if "rack" in view:
        x = _S.PRIVATE_PILL.paste(img, (x, cy))[2] + 10
    extra = " \u00b7 ".join(b for b in (reason, f"move {view['ply']}") if b)
    NOTE.paste(img, (W - GAP - 4, cy), NOTE.fit(extra, W - GAP - 4 - x - 10), anchor="r")


def _status(img: Surface, view: BlockersView, names: list[str]) -> None:
    """Over the board: the title's strip, then whose turn (or the result) and the last move in words."""
    _strip(img, view, _lines(img, view, names))


def _lines(img: Surface, view: BlockersView, names: list[str]) -> str:
    """Under the title's strip: whose turn (or the result), then the last move in words. Returns the result's reason
    if there is no room for it under the last move (the strip says it), else ""."""
    x0, top = X0 + 4, STRIP_H
    text, icon = _headline(view, names)
    if text:
        cy = top + 25
        left = _S.HEAD_ICON[icon].paste(img, (x0 + 2, cy))[2] + 10
        HEAD.paste(img, (left, cy), HEAD.fit(text, X1 - 4 - left))
    result = view["result"]
    reason = result["reason"] if view["phase"] == "over" and result else ""
    last = view["last"]
    line1, line2 = top + 62, top + 92
    if last is None:
        _S.NO_MOVES.paste(img, (x0, line1))
        lines: list[str] = []
    else:
        x = _S.LAST_MOVE.paste(img, (x0, line1))[2] + 12
        lines = _move_lines(last, names, X1 - 4 - x)
        for cy, line in zip((line1, line2), lines, strict=False):
            BODY.paste(img, (x, cy), BODY.fit(line, X1 - 4 - x))
    if reason and len(lines) < 2:
        NOTE.paste(img, (x0, line2), NOTE.fit(reason[:1].upper() + reason[1:], X1 - 4 - x0))
        reason = ""
    return reason


# --- parts kept as drawn ----------------------------------------------------------------------------
PARTS_BYTES = 8 << 20  # what the kept parts of boards may hold, in bytes of pixels (a part of 5 boards' worth or so)
BANDS_BYTES = 4 << 20  # what the kept deflated bands may hold, in bytes (a board's band is 20–50 KB)

Part = list  # [the palette's pixels of its box (Image), the texts set in it (tuple[Drawn, ...]) or None]


def _parts() -> Kept[tuple[object, ...], Part]:
    """Parts of boards as drawn on a canvas (the palette's pixels of a box, and the texts set in it), by what they
    show: a part that shows the same as on a board drawn a moment before is pasted, not drawn again. The public board
    of a move, its mover's own view and the next mover's share their board and most of their cards; from one move to
    the next most players' cards stay the same. Up to :data:`PARTS_BYTES`, the least recently used first out."""
    return Kept(PARTS_BYTES, lambda part: part[0].width * part[0].height)


_PARTS = _parts()


def _part(img: Surface, box: Box, key: tuple[object, ...], draw: Callable[[], None]) -> None:
    """Draw what ``draw`` draws inside ``box`` (over the empty table there: nothing else may draw in it), or, on a
    canvas, paste it as it was drawn before for the same ``key`` (which must say all that it shows). While a
    recorder is open (:func:`render.common.recording`) the texts a part sets are recorded with it and told the
    recorder again when it is pasted (a part kept without them is drawn again). On a :class:`Surface` (the RGB
    reference) it is always drawn."""
    if not isinstance(img, Canvas):
        draw()
        return
    x0, y0, x1, y1 = box
    recorder = common.recording_on()
    kept = _PARTS.get(key)
    if kept is not None and (kept[1] is not None or not recorder):
        part, texts = kept
        img.image.im.paste(part.im, (x0, y0, x1, y1))
        _tell(texts)
        return
    if not recorder:
        draw()
        _PARTS.put(key, [img.image.crop(box), None])
        return
    with recording() as seen:
        draw()
    _tell(seen)
    kept = _PARTS.put(key, [img.image.crop(box), tuple(seen)])
    if kept[1] is None:  # (kept before without its texts: now with them)
        kept[1] = tuple(seen)


def _tell(texts: Sequence[Drawn] | None) -> None:
    """Tell the recorder (if one is open) the texts of a part pasted as it was drawn before."""
    for t in texts or ():
        note_text(t.text, t.size, t.decorative)


def _card_drawing(img: Surface, box: Box, view: BlockersView, seat: int, name: str, advanced: bool
                  ) -> Callable[[], None]:
    return lambda: _player(img, box, view, seat, name, advanced)


# --- bands: the picture deflated in strips of rows, each kept by what it shows ----------------------------------



def _bands() -> Kept[tuple[object, ...], Band]:
    """The deflated bands of the parts of boards (:func:`_part`) by the part's key and where it lies, and of the empty
    table between them: a band that shows the same as in a picture encoded a moment before is not drawn, pasted nor
    deflated again. Up to :data:`BANDS_BYTES`, the least recently used first out."""
    return Kept(BANDS_BYTES, lambda band: len(band.data) + 100)


_BANDS = _bands()






Shape = tuple[int, bool, bool]  # seats, advanced, private: one layout


def _part_rows(shape: Shape) -> tuple[tuple[int, int], ...]:
    """The rows of each part of a picture of ``shape`` that spans whole rows of it, top down: the title's strip, the
    lines under it (whose turn, the last move), the board, the rack, the cards (a part's box is its frame's and one
    row more)."""
    lay = layout(*shape)
    rows = [(0, STRIP_H + 1), (STRIP_H + 1, BOARD_TOP), (BOARD_BOX[1], BOARD_BOX[3] + 1)]
    if lay.rack:
        rows.append((lay.rack[1], lay.rack[3] + 1))
    rows += [(card[1], card[3] + 1) for card in lay.cards]
    return tuple(rows)


@cache
def _layout_bands(shape: Shape) -> tuple[tuple[int, int, bool], ...]:
    """The bands of a picture of ``shape``: (first row, end row, whether a part lies there), covering it top down:
    the parts' rows and the empty table's between and after them."""
    out: list[tuple[int, int, bool]] = []
    y = 0
    for y0, y1 in _part_rows(shape):
        if y0 > y:
            out.append((y, y0, False))
        out.append((y0, y1, True))
        y = y1
    height = layout(*shape).height
    if height > y:
        out.append((y, height, False))
    return tuple(out)


@cache
def _pristine(shape: Shape) -> memoryview:
    """The empty table of ``shape`` in the palette, as a PNG's rows (each after its filter byte, 0)."""
    background = _background(*shape)
    width = background.width
    rows = bytearray((width + 1) * background.height)
    pixels = background.tobytes()
    for y in range(background.height):
        rows[y * (width + 1) + 1:(y + 1) * (width + 1)] = pixels[y * width:(y + 1) * width]
    return memoryview(bytes(rows))


@cache
def _ground(shape: Shape, y0: int, y1: int) -> bytes:
    """What the empty table shows in rows ``y0``–``y1`` of ``shape`` (a digest: the same rows in two layouts or at
    two heights, as the board's or a card's, make the same key)."""
    width = W + 1
    return hashlib.blake2b(_pristine(shape)[y0 * width:y1 * width], digest_size=16).digest()


@cache
def _png_head(shape: Shape) -> bytes:
    """The PNG's signature, header and palette for a picture of ``shape``."""
    background = _background(*shape)
    colours = bytes(background.getpalette("RGB") or [0, 0, 0])
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     _chunk(b"IHDR", struct.pack(">IIBBBBB", background.width, background.height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", colours)))


class BandCanvas(Canvas):
    """A :class:`~render.common.Canvas` of one layout drawn again and again (it is not copied from the empty table for
    each picture): before a part is drawn its rows are set back to the empty table's (:meth:`clear`); a part whose
    band is kept (:data:`_BANDS`) is not drawn at all, nor are the empty table's rows between the parts. One canvas
    draws one picture at a time (:func:`_canvas`)."""

    def __init__(self, shape: Shape) -> None:
        super().__init__(_background(*shape), _S.PALETTE, _table(*shape))
        self.shape = shape
        self.rows: memoryview = self.image._png_rows[1]  # type: ignore[attr-defined]  # (its pixels, as a PNG's rows)
        self.bands: dict[int, Band] = {}  # by first row: the bands kept, not drawn in this picture
        self.keys: dict[int, tuple[object, ...] | None] = {}  # by first row: the bands drawn, the keys to keep them by
        self.texts: dict[int, tuple[Drawn, ...]] = {}  # by first row: the texts of a band drawn under a recorder

    def clear(self, y0: int, y1: int) -> None:
        """Set rows ``y0``–``y1`` back to the empty table's."""
        width = W + 1
        self.rows[y0 * width:y1 * width] = _pristine(self.shape)[y0 * width:y1 * width]

    def png(self) -> bytes:
        """The picture as PNG bytes: each band kept, or deflated from the canvas (and kept by its key)."""
        width = W + 1
        bands = []
        for y0, y1, drawn in _layout_bands(self.shape):
            band = self.bands.get(y0)
            if band is None and not drawn:  # (the empty table's rows)
                ground = ("ground", _ground(self.shape, y0, y1))
                band = _BANDS.get(ground)
                if band is None:
                    band = _BANDS.put(ground, _deflate(_pristine(self.shape)[y0 * width:y1 * width]))
            elif band is None:
                if y0 not in self.keys:
                    raise RuntimeError(f"rows {y0}–{y1} of a Blockers! board were neither drawn nor kept")
                band = _deflate(self.rows[y0 * width:y1 * width], self.texts.get(y0))
                key = self.keys[y0]
                if key is not None:
                    _BANDS.put(key, band)
            bands.append(band)
        return _png_head(self.shape) + _chunk(b"IDAT", zlib_stream(bands)) + _chunk(b"IEND", b"")


_IDLE: dict[Shape, list[BandCanvas]] = {}  # canvases not drawing, by layout (two at most each)
_IDLE_LOCK = threading.Lock()


def _canvas(shape: Shape) -> BandCanvas:
    """A canvas of ``shape`` for one picture: an idle one, or a new one (pictures drawn at once in threads each
    get their own)."""
    with _IDLE_LOCK:
        idle = _IDLE.get(shape)
        canvas = idle.pop() if idle else None
    if canvas is None:
        return BandCanvas(shape)
    canvas.bands.clear()
    canvas.keys.clear()
    canvas.texts.clear()
    return canvas


def _release(canvas: BandCanvas) -> None:
    with _IDLE_LOCK:
        idle = _IDLE.setdefault(canvas.shape, [])
        if len(idle) < 2:
            idle.append(canvas)


@dataclass
class _Piece:
    """A part of the picture that spans whole rows: where, its key (None: drawn for every picture, never kept) and
    how it is drawn."""

    box: Box
    key: tuple[object, ...] | None
    draw: Callable[[], None] = field(compare=False)


def _place(img: Surface, piece: _Piece) -> None:
    """Draw a piece, or on a :class:`BandCanvas` take its band as kept (its rows are then neither drawn, pasted nor
    deflated, and the recorder is told the texts kept with it), or set its rows back to the empty table and draw it
    (a part as :func:`_part` draws it: pasted if it is kept, at another place or in another layout)."""
    box, key = piece.box, piece.key
    if isinstance(img, BandCanvas):
        y0, y1 = box[1], box[3]
        # (a part drawn the same wherever it lies, over the same empty table's rows, is the same band)
        one = (y0, y1, True) in _layout_bands(img.shape)  # (else it covers several bands: drawn, not kept)
        band_key = None if key is None or not one else (key, _ground(img.shape, y0, y1))
        recorder = common.recording_on()
        if key is not None and band_key is not None:
            kept = _PARTS.get(key)  # (its texts, if it is kept: the band's are the same)
            band = _BANDS.get(band_key)
            texts = kept[1] if kept is not None and kept[1] is not None else band.texts if band is not None else None
            if band is not None and (texts is not None or not recorder):
                img.bands[y0] = band
                _tell(texts)
                return
        img.clear(y0, y1)
        img.keys[y0] = band_key
        for start, _, drawn in _layout_bands(img.shape):
            if drawn and y0 < start < y1:
                img.keys[start] = None
        if recorder and key is not None:
            with recording() as seen:
                _part(img, box, key, piece.draw)
            _tell(seen)
            img.texts[y0] = tuple(seen)
            return
    if key is None:
        piece.draw()
    else:
        _part(img, box, key, piece.draw)


def draw_board(view: BlockersView, names: Sequence[str], img: Surface) -> Surface:
    """Draw the position of ``view`` on ``img``, a copy of the empty table of its layout (or a :class:`BandCanvas`
    of it). The board, each player's card, and in a seat's own view the rack and the strips over the board are parts
    (:func:`_part`), each keyed by the part of the view it shows; so are the lines over the board (whose turn, the
    last move), which all the pictures of a move show, but not a public board's strip (no other picture shows it).
    At the end the result's reason may go in the strip: the strip and the lines are then one part."""
    players = view["players"]
    seats = len(players)
    advanced = view["mode"] == "advanced"
    lay = layout(seats, advanced, "rack" in view)
    shown = seat_names(names, seats)
    board, last = view["board"], view["last"]

    def board_part() -> None:
        _tiles(img, board)
        _last_move(img, img.draw, last)

    pieces = [_Piece((BOARD_BOX[0], BOARD_BOX[1], BOARD_BOX[2] + 1, BOARD_BOX[3] + 1),
                     ("board", repr(board), repr(last)), board_part)]
    over, result, to_act = view["phase"] == "over", view["result"], view["to_act"]
    ended = repr(result) if over else ""
    for seat in range(seats):
        x0, y0, x1, y1 = lay.cards[seat]
        key: tuple[object, ...] = ("card", advanced, y1 - y0, repr(players[seat]), ended,
                                   not over and seat in to_act, view["viewer"] == seat, shown[seat])
        pieces.append(_Piece((x0, y0, x1 + 1, y1 + 1), key,
                             _card_drawing(img, lay.cards[seat], view, seat, shown[seat], advanced)))
    if lay.rack:
        rack = lay.rack
        viewer = view["viewer"]
        key = ("rack", advanced, repr(view.get("rack")), repr(players[viewer]) if viewer is not None else "")
        pieces.append(_Piece((rack[0], rack[1], rack[2] + 1, rack[3] + 1), key, lambda: _rack(img, rack, view)))
    if over:  # (the result's reason may go in the strip: one part)
        top: tuple[object, ...] | None = None
        if "rack" in view:
            top = ("top", view["mode"], view["phase"], ended, tuple(to_act), repr(last), view["ply"], tuple(shown))
        pieces.append(_Piece((0, 0, W, BOARD_TOP), top, lambda: _status(img, view, shown)))
    else:  # the lines under the strip are the same in a move's three pictures; the strip's pills are not
        def lines() -> None:
            _lines(img, view, shown)  # (no result: no reason left for the strip)

        pieces.append(_Piece((0, STRIP_H + 1, W, BOARD_TOP), ("lines", tuple(to_act), repr(last), tuple(shown)),
                             lines))
        strip = ("top", view["mode"], view["ply"]) if "rack" in view else None
        pieces.append(_Piece((0, 0, W, STRIP_H + 1), strip, lambda: _strip(img, view, "")))
    for piece in pieces:
        _place(img, piece)
    return img


def _shape_of(view: BlockersView) -> Shape:
    return len(view["players"]), view["mode"] == "advanced", "rack" in view


def render_rgb(view: BlockersView, names: Sequence[str]) -> Image.Image:
    """The board drawn in RGB, before any palette: the reference :func:`render` is checked against."""
    return draw_board(view, names, Surface(_table(*_shape_of(view)))).image


def render(view: BlockersView, names: Sequence[str]) -> bytes:
    """The board for one ``Blockers.view()`` as PNG bytes; ``names`` are display names by seat. Drawn straight
    into the board's palette (:class:`~render.common.Canvas`) on a canvas of its layout kept from the picture before
    (:class:`BandCanvas`), and deflated band by band: the bands that show what they showed in a picture a moment
    before (the board in a move's three pictures, most cards, the empty table's rows) are neither drawn nor deflated
    again."""
    canvas = _canvas(_shape_of(view))
    try:
        draw_board(view, names, canvas)
        return canvas.png()
    finally:
        _release(canvas)


__all__ = ["HIGHLIGHT", "PLAYER_COLOURS", "SECOND_CUE", "Layout", "layout", "marker_box", "render", "render_rgb",
           "square_box"]
