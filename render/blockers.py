"""The Blockers! board as a PNG: the 9x9 board on the left, the players (and a seat's rack) on the right.

Input is exactly ``Blockers.view()`` (see ``docs/dev/blockers-view.md``); output is PNG bytes.
The empty table (felt, strips, the board with its sections, faint symbols and labels), every tile,
badges and fixed labels are drawn once, on first use; a render copies the table, pastes sprites and sets the
text that changes glyph by glyph.

Reading the board without relying on colour: every tile has its colour's letter (Y B G R P) in a
corner *and* its colour's pattern (plain, diagonal stripes, dots, bars, checks); the players to
act have a thick border and a "TO PLAY" badge; the last move has a dashed outline, its row and
column labels are marked, and a capture shows the captured tile, crossed out, on the square's corner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from PIL import Image, ImageDraw

from engine.base import ResultView
from engine.blockers.board import COLOURS, NUMBERS, ROWS, SECTIONS, SIZE, WILD, col_of, row_of, square_index
from engine.blockers.view import BlockersLast, BlockersView, TileView
from render.common import (
    BLUE,
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
    Box,
    Colour,
    Glyphs,
    Label,
    dashed_rect,
    draw_text,
    encode_png,
    felt,
    join_names,
    mix,
    number_text,
    palette_image,
    pill_label,
    ramp,
    rounded_mask,
    seat_names,
    shape_sprite,
    star_points,
    text_label,
    text_width,
)

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
PATTERN = {"yellow": "plain", "blue": "stripes", "green": "dots", "red": "bars", "purple": "checks"}
# the face's ink on its plate, and the corner letter's on the tile's colour (contrast >= 4.5 : 1 each)
FACE_INK: dict[str, Colour] = {"yellow": INK, "blue": WHITE, "green": INK, "red": INK, "purple": WHITE}
LETTER_INK: dict[str, Colour] = {"yellow": INK, "blue": WHITE, "green": INK, "red": INK, "purple": INK}

# The last move: white dashes on a black ring, a colour no tile has (orange would be close to red).
HIGHLIGHT = WHITE
SHADOW_ALPHA = 100

# --- geometry --------------------------------------------------------------------------------------
W, H = 1200, 780
HEADER = 58
FOOTER = 50
GAP = 12
TOP, BOTTOM = HEADER + GAP, H - FOOTER - GAP  # the body between the strips
CELL = 66
INSET = 3  # between a square's edge and its tile
TILE_SIZE = CELL - 2 * INSET
BOARD_BOX: Box = (GAP, TOP, GAP + (BOTTOM - TOP), BOTTOM)
MARGIN = (BOARD_BOX[2] - BOARD_BOX[0] - SIZE * CELL) // 2  # the labels' band around the grid
GRID_X, GRID_Y = BOARD_BOX[0] + MARGIN, BOARD_BOX[1] + MARGIN
SIDE_X0, SIDE_X1 = BOARD_BOX[2] + GAP, W - GAP
HEADING = 30  # the "PLAYERS" line over the cards
CARD_GAP = 8
PAD = 14  # inside a card
RACK_TILE = 68
MINI = 32  # public tiles, captured tiles
SWATCH = 34
SMALL = 24  # swatches of captured colours
MARKER_BADGE = 18  # the "x" on the captured tile
LEGEND_MIN = 104  # the least room worth a legend

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
    """Where the cards go on the right, for one number of players, mode and kind of view."""

    cards: tuple[Box, ...]  # by seat
    rack: Box | None  # "Your rack", in a seat's own view
    legend: Box | None  # how to read the board, when there is room for it


@cache
def layout(seats: int, advanced: bool, private: bool) -> Layout:
    """The side column for ``seats`` players; ``private``: a seat's own view, with its rack."""
    top, bottom = TOP + HEADING, BOTTOM
    rack_h = (2 * (RACK_TILE + 12) + 40) if advanced else (RACK_TILE + 60)
    rack = (SIDE_X0, bottom - rack_h, SIDE_X1, bottom) if private else None
    end = rack[1] - CARD_GAP if rack else bottom
    room = end - top - (seats - 1) * CARD_GAP
    card_h = min(196 if advanced else 108, room // max(1, seats))
    if end - (top + seats * (card_h + CARD_GAP)) < LEGEND_MIN:  # no room for the legend: grow the cards
        card_h = min(220 if advanced else 124, room // max(1, seats))
    cards = tuple((SIDE_X0, top + i * (card_h + CARD_GAP), SIDE_X1, top + i * (card_h + CARD_GAP) + card_h)
                  for i in range(seats))
    spare = (cards[-1][3] if cards else top) + CARD_GAP
    legend = (SIDE_X0, spare, SIDE_X1, end) if end - spare >= LEGEND_MIN else None
    return Layout(cards=cards, rack=rack, legend=legend)


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
    return int(size * 0.6)


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
        inner = int(size * 0.22)
        draw.rounded_rectangle((inner, inner, size - 1 - inner, size - 1 - inner), radius=4, fill=plate)
        draw_text(draw, (size / 2, size / 2 + 1), letter, int(size * 0.45), ink, anchor="mm", bold=True)
    else:
        inset = max(3, size // 7)
        draw.rounded_rectangle((inset, inset, size - 1 - inset, size - 1 - inset), radius=radius - 1, fill=plate)
        if corner:
            lsize = max(11, size // 5)
            draw.rounded_rectangle((0, 0, inset + lsize * 0.85, inset + lsize * 0.85), radius=radius, fill=base)
            draw_text(draw, (3, 2), letter, lsize, LETTER_INK[colour], anchor="lt", bold=True)
        centre = (size / 2 + (1 if corner else 0), size / 2 + (2 if corner else 0))
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


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(sprite, xy, sprite)


@cache
def square_tile(colour: str, face: str, light: bool) -> Image.Image:
    """A board tile already laid on its square's shade: an opaque ``RGB`` sprite, pasted without a mask
    (five times faster than compositing). It covers the square inside its grid lines but for ``INSET``."""
    sprite = tile_sprite(colour, face, TILE_SIZE)
    square = Image.new("RGBA", sprite.size, (SECTION_LIGHT if light else SECTION_DARK) + (255,))
    square.alpha_composite(sprite)
    return square.convert("RGB")


@cache
def captured_marker(colour: str, face: str) -> Image.Image:
    """The captured tile, small, in a frame of the highlight, with a black "x" badge on its corner."""
    tile = tile_sprite(colour, face, MINI, corner=False, shadow=0)
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


# --- fixed text, drawn once --------------------------------------------------------------------------
TITLE = "BLOCKERS!"
LABEL_SIZE = 18


@cache
def _coordinate_badge(text: str) -> Label:
    """A row or column label of the last move: dark on a disc of the highlight (all the same size, so a
    narrow "I" does not read as an "0")."""
    size = 26
    disc = shape_sprite("o", size, HIGHLIGHT)
    draw_text(ImageDraw.Draw(disc), (size / 2, size / 2 + 1), text, LABEL_SIZE, INK, anchor="mm", bold=True)
    return Label(disc)


NAME = Glyphs(24, WHITE, bold=True)
SCORE = Glyphs(30, WHITE, bold=True)
HEAD = Glyphs(26, YELLOW, bold=True)
BODY = Glyphs(21, WHITE, bold=True)
NOTE = Glyphs(16, MUTED)
NUMBER = Glyphs(20, WHITE, bold=True)


def _last_move_key() -> Label:
    """The footer's legend: a dashed swatch (the outline of the last move) and its name."""
    text = text_label("LAST MOVE", 17, HIGHLIGHT, bold=True)
    img = Image.new("RGBA", (30 + 10 + text.image.width, max(24, text.height)), HIGHLIGHT + (0,))
    cy = img.height // 2
    dashed_rect(ImageDraw.Draw(img), (0, cy - 12, 28, cy + 12), HIGHLIGHT, width=3, dash=7, gap=4)
    text.paste(img, (40, cy))
    return Label(img)


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
    the empty table are cached functions: importing the module draws nothing."""

    @cached_property
    def TITLE_END(self) -> int:
        return GAP + 4 + int(text_width(TITLE, 30)) + 4  # bold stroke

    @cached_property
    def TO_PLAY(self) -> Label:
        return pill_label("TO PLAY", 16, INK, YELLOW, icon=">")

    @cached_property
    def WINNER(self) -> Label:
        return pill_label("WINNER", 16, INK, YELLOW, icon="*")

    @cached_property
    def YOU(self) -> Label:
        return pill_label("YOU", 14, INK, MUTED, pad=6)

    @cached_property
    def ORDINAL(self) -> dict[int, Label]:
        return {n: pill_label({2: "2nd", 3: "3rd"}.get(n, f"{n}th"), 16, WHITE, PANEL_EDGE) for n in range(2, 6)}

    @cached_property
    def FINISHED(self) -> Label:
        return pill_label("FINISHED", 13, INK, MUTED, pad=6)

    @cached_property
    def ADVANCED_PILL(self) -> Label:
        return pill_label("ADVANCED", 15, INK, MUTED)

    @cached_property
    def PRIVATE_PILL(self) -> Label:
        return pill_label("PRIVATE VIEW", 15, INK, WHITE)

    @cached_property
    def OVER_PILL(self) -> Label:
        return pill_label("GAME OVER", 16, INK, WHITE)

    @cached_property
    def HEAD_ICON(self) -> dict[str, Label]:
        return {">": Label(shape_sprite(">", 20, YELLOW)), "*": Label(shape_sprite("*", 24, YELLOW))}

    @cached_property
    def NO_MOVES(self) -> Label:
        return text_label("New game: no moves yet", 20, MUTED)

    @cached_property
    def NO_CAPTURES(self) -> Label:
        return text_label("no captures", 18, FAINT)

    @cached_property
    def CAPTURED_WORD(self) -> Label:
        return text_label("captured", 18, MUTED)

    @cached_property
    def PUBLIC_WORD(self) -> Label:
        return text_label("public rack:", 15, MUTED)

    @cached_property
    def SCORE_WORD(self) -> Label:
        return text_label("score", 15, MUTED)

    @cached_property
    def STAT_WORD(self) -> dict[str, Label]:
        return {w: text_label(w, 18, MUTED) for w in ("groups", "rack", "pile")}

    @cached_property
    def LAST_MOVE(self) -> Label:
        return _last_move_key()

    @cached_property
    def PALETTE(self) -> Image.Image:
        return _palette()


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
        draw_text(draw, (mid, GRID_Y - MARGIN // 2), COLUMNS[k], LABEL_SIZE, MUTED, anchor="mm", bold=True)
        draw_text(draw, (mid, end_y + MARGIN // 2), COLUMNS[k], LABEL_SIZE, MUTED, anchor="mm", bold=True)
        mid = GRID_Y + k * CELL + CELL // 2
        draw_text(draw, (GRID_X - MARGIN // 2, mid), ROWS[k], LABEL_SIZE, MUTED, anchor="mm", bold=True)
        draw_text(draw, (end_x + MARGIN // 2, mid), ROWS[k], LABEL_SIZE, MUTED, anchor="mm", bold=True)


@cache
def _table() -> Image.Image:
    img = felt((W, H))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, W, HEADER), fill=STRIP)
    draw.rectangle((0, H - FOOTER, W, H), fill=STRIP)
    draw.line((0, HEADER, W, HEADER), fill=PANEL_EDGE, width=1)
    draw.line((0, H - FOOTER, W, H - FOOTER), fill=PANEL_EDGE, width=1)
    draw_text(draw, (GAP + 4, HEADER // 2), TITLE, 30, WHITE, anchor="lm", bold=True)
    _board(img, draw)
    draw_text(draw, (SIDE_X0 + 4, TOP + HEADING // 2 - 2), "PLAYERS", 16, MUTED, anchor="lm", bold=True)
    draw_text(draw, (SIDE_X1 - 4, TOP + HEADING // 2 - 2), "score = groups + most-captured colour: LOWEST WINS",
              15, MUTED, anchor="rm")
    return img


def _card(img: Image.Image, box: Box) -> None:
    """An empty card (anti-aliased corners over the felt)."""
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    card = Image.new("RGBA", size, PANEL + (255,))
    ImageDraw.Draw(card).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=14, fill=PANEL,
                                           outline=PANEL_EDGE, width=2)
    card.putalpha(rounded_mask(size, 14))
    _paste(img, card, (x0, y0))


def _strong(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The thick yellow border of a player to act (or a winner) over a card of the base."""
    draw.rounded_rectangle(box, radius=14, outline=YELLOW, width=5)


def _legend_sprite(size: tuple[int, int]) -> Image.Image:
    """How to read the board, in the room left under the players."""
    w, h = size
    img = Image.new("RGBA", size, PANEL + (0,))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=14, outline=PANEL_EDGE, width=2)
    draw_text(draw, (PAD, 22), "HOW TO READ THE BOARD", 16, MUTED, anchor="lm", bold=True)
    y, step = 62, 46
    x = PAD
    for c in COLOURS:
        _paste(img, tile_sprite(c, None, 30, shadow=0), (x, y - 15))
        x += 36
    draw_text(draw, (x + 8, y), "colours: a letter, a pattern, a centre each", 16, WHITE, anchor="lm")
    rows: list[tuple[str, tuple[str, ...]]] = [
        ("dashed", ("dashed outline: the last move",)),
        ("captured", ("crossed tile: what the last move captured",)),
        ("wild", ("W: wild, fits any square",)),
        ("faint", ("a tile fits its column's number, its row's", "letter or its section's symbol (faint)")),
        ("border", ("thick border: to play (at the end: won)",)),
    ]
    text_x = PAD + 50
    for kind, lines in rows:
        y += step
        if y + 22 * (len(lines) - 1) + 18 > h:
            break
        if kind == "dashed":
            draw.rectangle((PAD - 1, y - 16, PAD + 31, y + 16), outline=INK, width=6)
            dashed_rect(draw, (PAD, y - 15, PAD + 30, y + 15), HIGHLIGHT, width=4, dash=8, gap=4)
        elif kind == "captured":
            marker = captured_marker("blue", "E")
            _paste(img, marker, (PAD - 4, y - marker.height // 2 - 4))
        elif kind == "wild":
            _paste(img, tile_sprite("purple", WILD, 30, corner=False, shadow=0), (PAD, y - 15))
        elif kind == "faint":
            draw.rectangle((PAD, y - 15, PAD + 30, y + 15), fill=SECTION_LIGHT)
            _paste(img, symbol_sprite("moon", 18, SYMBOL_ON[True]), (PAD + 6, y - 9))
        elif kind == "border":
            draw.rounded_rectangle((PAD, y - 15, PAD + 30, y + 15), radius=6, outline=YELLOW, width=4)
        for i, line in enumerate(lines):
            draw_text(draw, (text_x, y + 22 * i), line, 16, WHITE, anchor="lm")
        y += 22 * (len(lines) - 1)
    return img


SIDE_BOX: Box = (SIDE_X0, TOP, SIDE_X1 + 1, BOTTOM + 1)


@cache
def side(seats: int, advanced: bool, private: bool) -> Image.Image:
    """The right-hand column of one layout with its empty cards (and the legend), opaque, to paste over
    the table (ten layouts at most, about 1 MB each)."""
    lay = layout(seats, advanced, private)
    img = _table().copy()
    for box in lay.cards:
        _card(img, box)
    if lay.rack:
        x0, y0, x1, _ = lay.rack
        _card(img, lay.rack)
        draw = ImageDraw.Draw(img)
        draw_text(draw, (x0 + PAD, y0 + 20), "YOUR RACK", 16, YELLOW, anchor="lm", bold=True)
        draw_text(draw, (x1 - PAD, y0 + 20), "only you see this", 15, MUTED, anchor="rm")
    if lay.legend:
        x0, y0, x1, y1 = lay.legend
        _paste(img, _legend_sprite((x1 - x0, y1 - y0)), (x0, y0))
    return img.crop(SIDE_BOX)


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
    """The header's line and its icon (``>`` to play, ``*`` result)."""
    short = [HEAD.fit(n, 240) for n in names]
    if view["phase"] == "over":
        result = view["result"]
        return (_result_line(result, short) if result else "Game over"), "*"
    acting = view["to_act"]
    if not acting:
        return "", ">"
    return f"{join_names(short[p] for p in acting)} to play", ">"


def _move_text(last: BlockersLast, names: list[str]) -> str:
    who = BODY.fit(names[last["seat"]], 260)
    if last["pass"]:
        return f"{who} passed (no legal move)"
    tile, captured = last["tile"], last["captured"]
    if tile is None:
        return f"{who}: {last['move']}"
    text = f"{who} played {tile['colour']} {tile['face']} on {last['square']}"
    if captured:
        text += f", capturing {captured['colour']} {captured['face']}"
    return text


# --- drawing -------------------------------------------------------------------------------------------
def _tiles(img: Image.Image, board: list[list[TileView | None]]) -> None:
    for r, row in enumerate(board):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x0, y0, _, _ = square_box(r, c)
            img.paste(square_tile(cell["colour"], cell["face"], _light(r, c)), (x0 + INSET, y0 + INSET))


def _last_move(img: Image.Image, draw: ImageDraw.ImageDraw, last: BlockersLast | None) -> None:
    if last is None or last["square"] is None:
        return
    square = square_index(last["square"])
    r, c = row_of(square), col_of(square)
    x0, y0, x1, y1 = square_box(r, c)
    draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=INK, width=7)
    dashed_rect(draw, (x0 - 1, y0 - 1, x1 + 1, y1 + 1), HIGHLIGHT, width=5, dash=10, gap=6)
    end_x, end_y = GRID_X + SIZE * CELL, GRID_Y + SIZE * CELL
    mid_x, mid_y = (x0 + x1) // 2, (y0 + y1) // 2
    for y in (GRID_Y - MARGIN // 2, end_y + MARGIN // 2):
        _coordinate_badge(COLUMNS[c]).paste(img, (mid_x, y), anchor="m")
    for x in (GRID_X - MARGIN // 2, end_x + MARGIN // 2):
        _coordinate_badge(ROWS[r]).paste(img, (x, mid_y), anchor="m")
    captured = last["captured"]
    if captured:
        marker = captured_marker(captured["colour"], captured["face"])
        centre = MARKER_BADGE // 2 + MINI // 2 + 3  # the captured tile's centre sits on the square's corner
        mx = x1 - centre if c < SIZE - 1 else x1 - marker.width + 4
        my = y1 - centre if r < SIZE - 1 else y1 - marker.height + 4
        _paste(img, marker, (mx, my))


def _stat(img: Image.Image, x: float, cy: float, word: str, value: int) -> float:
    """``word`` in the muted face then ``value`` in bold; returns where the next one may start."""
    x = _S.STAT_WORD[word].paste(img, (x, cy))[2] + 5
    return NUMBER.paste(img, (x, cy), number_text(value))[2] + 16


def _captures(img: Image.Image, left: float, right: float, cy: float, captured: dict[str, int]) -> None:
    """Small swatches with counts, right aligned at ``right`` (the word "captured" before them when
    there is room after ``left``); the most-captured colour is the one that counts."""
    counts = [(c, captured[c]) for c in COLOURS if captured.get(c)]
    if not counts:
        _S.NO_CAPTURES.paste(img, (right, cy), anchor="r")
        return
    gap = 12
    widths = [SMALL + 4 + NUMBER.width(str(n)) for _, n in counts]
    x = right - sum(widths) - gap * (len(counts) - 1)
    if x - 8 - _S.CAPTURED_WORD.width >= left:
        _S.CAPTURED_WORD.paste(img, (x - 8, cy), anchor="r")
    for (c, n), w in zip(counts, widths, strict=True):
        sprite = tile_sprite(c, None, SMALL, shadow=0)
        _paste(img, sprite, (round(x), round(cy - sprite.height / 2)))
        NUMBER.paste(img, (x + SMALL + 4, cy), str(n))
        x += w + gap


def _player(img: Image.Image, box: Box, view: BlockersView, seat: int, name: str, advanced: bool) -> None:
    player = view["players"][seat]
    over = view["phase"] == "over"
    result = view["result"]
    acting = not over and seat in view["to_act"]
    winner = bool(over and result and seat in result["winners"])
    if acting or winner:
        _strong(ImageDraw.Draw(img), box)
    x0, y0, x1, y1 = box
    colours = player["colours"]

    # name row: swatches, name, badge, score; the rows spread out a little in taller cards
    slack = max(0, (y1 - y0) - (196 if advanced else 104)) // 3
    cy = y0 + 28 + slack
    x: float = x0 + PAD
    for c in colours[:2]:
        _paste(img, tile_sprite(c, None, SWATCH), (int(x), cy - SWATCH // 2))
        x += SWATCH + 6
    score_left = SCORE.paste(img, (x1 - PAD, cy), number_text(player["score"]), anchor="r")[0]
    right = _S.SCORE_WORD.paste(img, (score_left - 6, cy + 2), anchor="r")[0] - 12
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
    name_x = x + 4
    NAME.paste(img, (name_x, cy), NAME.fit(name, right - 4 - name_x))

    racks, piles = player["rack_counts"], player["pile_counts"]
    bottom = y1 - 24 - slack
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
    row_y = cy + 46
    for c in colours[:2]:
        _paste(img, tile_sprite(c, None, SMALL, shadow=0), (x0 + PAD + 4, row_y - SMALL // 2))
        x = x0 + PAD + 38
        if c in finished:
            x = _S.FINISHED.paste(img, (x, row_y))[2] + 12
            tiles = public.get(c, [])
            if tiles:
                x = _S.PUBLIC_WORD.paste(img, (x, row_y))[2] + 8
            for face in tiles[:5]:
                _paste(img, tile_sprite(c, face, MINI, corner=False, shadow=0), (x, row_y - MINI // 2))
                x += MINI + 5
        else:
            x = _stat(img, x, row_y, "rack", racks[c])
            _stat(img, x, row_y, "pile", piles[c])
        row_y += MINI + 10
    x = _stat(img, x0 + PAD, bottom, "groups", player["groups"])
    _captures(img, x, x1 - PAD, bottom, player["captured"])


def _rack(img: Image.Image, box: Box, view: BlockersView) -> None:
    seat = view["viewer"]
    if "rack" not in view or seat is None:
        return
    rack = view["rack"]
    x0, y0 = box[0], box[1]
    y = y0 + 38
    me = view["players"][seat]
    finished = set(me["finished"]) if view["mode"] == "advanced" else set()
    for c in me["colours"]:
        tiles = rack[c]
        x = x0 + PAD
        if len(rack) > 1:
            _paste(img, tile_sprite(c, None, SWATCH), (x, y + (RACK_TILE - SWATCH) // 2))
            x += SWATCH + 14
        for face in tiles:
            sprite = tile_sprite(c, face, RACK_TILE)
            _paste(img, sprite, (x, y))
            x += RACK_TILE + 8
        if c in finished:
            _S.FINISHED.paste(img, (x + 4, y + RACK_TILE // 2))
        y += RACK_TILE + 12


def _header(img: Image.Image, view: BlockersView, names: list[str]) -> None:
    cy = HEADER // 2
    x = _S.TITLE_END + 14
    if view["mode"] == "advanced":
        x = _S.ADVANCED_PILL.paste(img, (x, cy))[2] + 10
    if view["phase"] == "over":
        x = _S.OVER_PILL.paste(img, (x, cy))[2] + 10
    if "rack" in view:
        x = _S.PRIVATE_PILL.paste(img, (x, cy))[2] + 10
    text, icon = _headline(view, names)
    if not text:
        return
    right = W - GAP - 4
    left = HEAD.paste(img, (right, cy), HEAD.fit(text, right - x - 40), anchor="r")[0]
    _S.HEAD_ICON[icon].paste(img, (left - 10, cy), anchor="r")


def _footer(img: Image.Image, view: BlockersView, names: list[str]) -> None:
    cy = H - FOOTER // 2
    extra = f"move {view['ply']}"
    result = view["result"]
    if view["phase"] == "over" and result:
        extra = " \u00b7 ".join(b for b in (NOTE.fit(result["reason"], 300), extra) if b)
    room = NOTE.paste(img, (W - GAP - 4, cy), extra, anchor="r")[0] - 20
    last = view["last"]
    if last is None:
        _S.NO_MOVES.paste(img, (GAP + 4, cy))
        return
    x = _S.LAST_MOVE.paste(img, (GAP + 4, cy))[2] + 12
    BODY.paste(img, (x, cy), BODY.fit(_move_text(last, names), room - x))


def render(view: BlockersView, names: Sequence[str]) -> bytes:
    """The board for one ``Blockers.view()`` as PNG bytes; ``names`` are display names by seat."""
    players = view["players"]
    seats = len(players)
    advanced = view["mode"] == "advanced"
    lay = layout(seats, advanced, "rack" in view)
    img = _table().copy()
    img.paste(side(seats, advanced, "rack" in view), SIDE_BOX[:2])
    draw = ImageDraw.Draw(img)
    shown = seat_names(names, seats)
    _tiles(img, view["board"])
    _last_move(img, draw, view["last"])
    for seat in range(seats):
        _player(img, lay.cards[seat], view, seat, shown[seat], advanced)
    if lay.rack:
        _rack(img, lay.rack, view)
    _header(img, view, shown)
    _footer(img, view, shown)
    return encode_png(img, _S.PALETTE)


__all__ = ["HIGHLIGHT", "Layout", "layout", "render", "square_box"]
