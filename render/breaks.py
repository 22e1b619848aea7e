"""The Breaks board as a PNG, 800 px wide for phones: the piles in a strip under the header, one panel per player
in a grid of two columns (two rows from three players on), the last move in words at the foot.

Input is exactly ``Breaks.view()``; output is PNG bytes. Card faces, card backs, badges, fixed labels and the
empty table of each layout are drawn once, each on first use (importing the module draws nothing). A render pastes
sprites and draws only the text that changes (names, headline, last move), and only in the sections of the board
that show something other than in the pictures drawn a moment before: the others' bands of rows are kept deflated,
panels and fans of cards kept as drawn (see "kept parts and bands" below).

Reading the board without relying on colour: suits have their own shapes *and* a
four-colour deck; the players to act have a thick border, a ``P1`` badge in yellow and a
"TO PLAY" badge; the last move's slots (or the discard pile) have a dashed outline and a tag.
Every needed text is at least 18 px high, 9 px when a phone shows the picture 400 px wide.
The discard pile is face down: it shows how many cards it holds, and to a player their own discards.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from PIL import Image, ImageChops, ImageDraw

from engine.base import ResultView
from engine.breaks.cards import JOKER, RANKS, SUITS
from engine.breaks.view import BreaksOptions, BreaksView
from render.common import (
    BLUE,
    CARD_EDGE,
    EXACT,
    FAINT,
    FELT_CENTRE,
    FELT_EDGE,
    GREEN,
    INK,
    MUTED,
    ORANGE,
    PANEL,
    PANEL_EDGE,
    STRIP,
    VERMILLION,
    WHITE,
    YELLOW,
    Band,
    Box,
    Canvas,
    Colour,
    Glyphs,
    Kept,
    Label,
    Palette,
    Surface,
    dashed_rect,
    draw_text,
    encode_png,
    felt,
    join_names,
    mix,
    palette_image,
    pill_label,
    put,
    ramp,
    recording_on,
    rounded_mask,
    seat_names,
    shape_sprite,
    text_label,
    text_width,
    zlib_stream,
)
from render.common import deflate_band as _deflate
from render.common import png_chunk as _chunk

MAX_FAN = 4  # a slot holds at most four cards between turns; more would be squeezed into the same height

# Four-colour deck (Okabe–Ito hues on white); each suit also has its own shape.
SUIT_INK: dict[str, Colour] = {"S": INK, "H": VERMILLION, "D": BLUE, "C": GREEN}
JOKER_INK: Colour = (140, 50, 115)
COURT_TINT: Colour = (246, 240, 222)
COURT_EDGE: Colour = (200, 190, 160)
BACK: Colour = (28, 74, 140)
BACK_LINE: Colour = (58, 110, 178)
BACK_EDGE: Colour = (12, 30, 60)
HIGHLIGHT = ORANGE  # the last move; always dashed and labelled as well
SHADOW = 3  # card shadow offset
SHADOW_ALPHA = 90

W = 800  # a phone shows it 400 px wide: a text needs 18 px here to be 9 px there
HEADER = 52
PILES = 222  # the strip with the draw pile, the discard pile and the card just drawn
FOOTER = 100  # the last move in words, on up to two lines
GAP = 10  # between panels
PAD = 12  # inside a panel
NAME_ROW = 46
STACK_ROW = 44  # the stacks and the score, under the name
LABEL_ROW = 32  # slot numbers under the cards
SLOT_GAP = 12
NAME_SIZE = 24
HEADLINE_SIZE = 26
TITLE = "BREAKS"


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(sprite, xy, sprite)


@cache
def _shape(shape: str, size: int, colour: Colour) -> Image.Image:
    """A shape sprite, kept (a palette canvas learns each sprite once)."""
    return shape_sprite(shape, size, colour)


# --- card sprites ------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)  # (one of a kind, a key of @cache'd sprites looked up on every card: by identity)
class CardStyle:
    w: int
    h: int
    strip: int  # visible part of a card covered by the next one in a fan
    index: int  # font size of the rank in the corners
    radius: int

    @property
    def pip(self) -> int:
        return int(self.index * 0.68)

    @property
    def centre(self) -> int:
        return int(self.w * 0.46)


def _index(draw: ImageDraw.ImageDraw, card: Image.Image, style: CardStyle, code: str, baseline: int,
           wild: bool) -> None:
    """Rank and suit shape on one line, left aligned, with ``baseline`` under the rank."""
    cap = int(style.index * 0.71)
    x = 7
    if code == JOKER:
        label, ink, shape = "JK", JOKER_INK, "*"
    else:
        label, ink, shape = ("10" if code[0] == "T" else code[0]), SUIT_INK[code[1]], code[1]
    draw_text(draw, (x, baseline), label, style.index, ink, anchor="ls", bold=True)
    x += int(text_width(label, style.index)) + 5
    card.alpha_composite(shape_sprite(shape, style.pip, ink), (x, baseline - cap // 2 - style.pip // 2))
    if wild:  # a wild Ace carries the Joker's star
        star = style.pip - 4
        card.alpha_composite(shape_sprite("*", star, JOKER_INK), (style.w - star - 6, baseline - cap // 2 - star // 2))


def _face(style: CardStyle, code: str, wild: bool = False, strip: bool = True) -> Image.Image:
    """One card face with its drop shadow, as RGBA: corner index, big centre shape, and (``strip``) the index
    again in the bottom strip, which is what stays visible when another card covers it. The top card of a
    sequence is drawn without it, so that every card of a sequence shows its rank exactly once."""
    w, h = style.w, style.h
    court = code != JOKER and code[0] in "JQK"
    face = Image.new("RGBA", (w, h), WHITE + (255,))
    draw = ImageDraw.Draw(face)
    cap = int(style.index * 0.71)
    top_base = 7 + cap
    strip_base = h - (style.strip - cap) // 2
    mid_top, mid_bottom = top_base + 6, h - style.strip - 2
    if court:  # court cards can break: a tinted frame makes them stand out
        draw.rounded_rectangle((6, mid_top, w - 7, mid_bottom), radius=6, fill=COURT_TINT, outline=COURT_EDGE)
    cx, cy = w // 2, (mid_top + mid_bottom) // 2
    if code == JOKER:  # a star over the word, both in the Joker's own colour
        word = max(19, int(style.index * 0.4))
        size = mid_bottom - mid_top - word - 6
        face.alpha_composite(shape_sprite("*", size, JOKER_INK), (cx - size // 2, mid_top))
        draw_text(draw, (cx, mid_bottom), "JOKER", word, JOKER_INK, anchor="ms", bold=True)
    else:
        size = min(style.centre, mid_bottom - mid_top - 4)
        face.alpha_composite(shape_sprite(code[1], size, SUIT_INK[code[1]]), (cx - size // 2, cy - size // 2))
    if court:  # the court letter again, small, so J/Q/K read even from the centre
        draw_text(draw, (w - 11, mid_bottom - 5), code[0], max(19, int(style.index * 0.5)), SUIT_INK[code[1]],
                  anchor="rs", bold=True)
    _index(draw, face, style, code, top_base, wild)
    if strip:
        _index(draw, face, style, code, strip_base, wild)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=style.radius, outline=CARD_EDGE, width=1)
    return _with_shadow(face, style.radius, SHADOW, SHADOW_ALPHA)


def _with_shadow(face: Image.Image, radius: int, offset: int, alpha: int) -> Image.Image:
    """``face`` with rounded, anti-aliased corners over a soft shadow ``offset`` pixels down-right."""
    w, h = face.size
    mask = rounded_mask((w, h), radius)
    out = Image.new("RGBA", (w + offset, h + offset), (0, 0, 0, 0))
    shadow = Image.new("RGBA", (w, h), (0, 0, 0, 255))
    shadow.putalpha(mask.point(lambda v: v * alpha // 255))
    out.alpha_composite(shadow, (offset, offset))
    face = face.copy()
    face.putalpha(mask)
    out.alpha_composite(face, (0, 0))
    return out


def _back(w: int, h: int, radius: int = 6) -> Image.Image:
    """A face-down card: blue with a white rim and a diagonal lattice."""
    face = Image.new("RGBA", (w, h), BACK + (255,))
    draw = ImageDraw.Draw(face)
    step = max(6, w // 6)
    for k in range(-h, w + h, step):
        draw.line((k, 0, k + h, h), fill=BACK_LINE, width=2)
        draw.line((k, h, k + h, 0), fill=BACK_LINE, width=2)
    inset = max(3, w // 14)
    draw.rounded_rectangle((inset, inset, w - 1 - inset, h - 1 - inset), radius=max(2, radius - 2),
                           outline=WHITE, width=2)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, outline=BACK_EDGE, width=1)
    return _with_shadow(face, radius, 2, 110)


Deck = Mapping[tuple[str, bool, bool], Image.Image]  # (code, shown as wild, covered below) -> sprite


@cache
def _deck(style: CardStyle) -> Deck:
    faces = {}
    for strip in (False, True):
        faces.update({(r + s, False, strip): _face(style, r + s, strip=strip) for s in SUITS for r in RANKS})
        faces[(JOKER, False, strip)] = _face(style, JOKER, strip=strip)
        faces.update({("A" + s, True, strip): _face(style, "A" + s, wild=True, strip=strip) for s in SUITS})
    return faces


@cache
def _empty_slot(style: CardStyle) -> Image.Image:
    img = Image.new("RGBA", (style.w + 1, style.h + 1), FAINT + (0,))
    draw = ImageDraw.Draw(img)
    dashed_rect(draw, (0, 0, style.w, style.h), FAINT, width=2, dash=9, gap=7)
    draw_text(draw, (style.w // 2, style.h // 2), "empty", 20, FAINT, anchor="mm")
    return img


# --- layouts ---------------------------------------------------------------------------------
CARD = CardStyle(w=108, h=150, strip=42, index=42, radius=10)  # the tableaus' cards and the card just drawn
PANEL_H = 8 + NAME_ROW + STACK_ROW + CARD.h + (MAX_FAN - 1) * CARD.strip + 6 + LABEL_ROW + PAD


@dataclass(frozen=True, eq=False)  # (one per player count, a key of @cache'd tables: by identity)
class Layout:
    height: int
    style: CardStyle
    piles: Box  # the strip with the piles and the card just drawn
    panels: tuple[Box, ...]  # by seat
    spare: Box | None  # an unused grid cell (three players): how to read the table

    @property
    def middle(self) -> Box:  # (the piles' strip, by its older name)
        return self.piles

    def slot_x(self, seat: int, slot: int) -> int:
        return self.panels[seat][0] + PAD + slot * (self.style.w + SLOT_GAP)

    def baseline(self, seat: int) -> int:
        """Where the bottom card of every slot of ``seat`` ends; fans grow up from here."""
        return self.panels[seat][3] - PAD - LABEL_ROW

    def stack_box(self, seat: int) -> Box:
        x0, y0, x1, _ = self.panels[seat]
        return (x0 + PAD, y0 + 8 + NAME_ROW, x1 - PAD, y0 + 8 + NAME_ROW + STACK_ROW)

    def pile_x(self, i: int) -> int:
        """The middle of the draw pile (0) and of the discard pile (1)."""
        return self.piles[0] + 70 + i * 170

    def pile_back(self, i: int, layers: int, k: int, size: tuple[int, int]) -> tuple[int, int]:
        """Where the ``k``-th back (from the bottom) of pile ``i`` lies when it shows ``layers`` backs of ``size``."""
        return (self.pile_x(i) - size[0] // 2 - layers + k * 2, self.piles[1] + 46 - k * 2)

    @property
    def held(self) -> tuple[int, int]:
        """Where the card just drawn lies (its top left corner)."""
        x0, y0, x1, y1 = self.piles
        return (x1 - PAD - CARD.w, y0 + (y1 - y0 - CARD.h) // 2)


def _layout(seats: int) -> Layout:
    rows = 1 if seats == 2 else 2
    panel_w = (W - 3 * GAP) // 2
    piles = (GAP, HEADER + GAP, W - GAP, HEADER + GAP + PILES)
    top = piles[3] + GAP
    cells = [(GAP + c * (panel_w + GAP), top + r * (PANEL_H + GAP), GAP + c * (panel_w + GAP) + panel_w,
              top + r * (PANEL_H + GAP) + PANEL_H) for r in range(rows) for c in range(2)]
    height = top + rows * (PANEL_H + GAP) + FOOTER
    spare = cells[seats] if seats < len(cells) else None
    return Layout(height=height, style=CARD, piles=piles, panels=tuple(cells[:seats]), spare=spare)


LAYOUTS = {n: _layout(n) for n in (2, 3, 4)}


# --- fixed text, drawn once ----------------------------------------------------------------------
@cache
def _slot_label(slot: int, cards: int, last_move: bool) -> Label:
    """Under a slot: its number and how many cards it holds; a pill where the last move touched it."""
    text = f"{slot + 1}" if cards == 0 else f"{slot + 1} \u00b7 {cards} card{'s' * (cards != 1)}"
    if last_move:
        return pill_label(text, 19, INK, HIGHLIGHT, pad=7, bold=True)
    return text_label(text, 20, MUTED, bold=True)


# faces for the text that changes, set glyph by glyph
NAME = Glyphs(NAME_SIZE, WHITE, bold=True)  # player names and scores
HEAD = Glyphs(HEADLINE_SIZE, YELLOW, bold=True)  # whose turn, the result
BODY = Glyphs(22, WHITE, bold=True)  # the last move, "drawn by", stack counts
NOTE = Glyphs(20, MUTED)  # options, points per stack, cards left, recycles
PILE = Glyphs(26, WHITE, bold=True)  # how many cards a pile holds
CHIP_RANK = {ink: Glyphs(20, ink, bold=True) for ink in (*SUIT_INK.values(), JOKER_INK)}  # the viewer's discards
CHIP_W, CHIP_H = 58, 32
HELD_WORDS = 150  # room for "DRAWN BY" and the drawer's name, left of the card just drawn


def _last_move_key() -> Label:
    """The footer's legend: a dashed swatch (the outline style of the last move) and its name."""
    text = text_label("LAST MOVE", 19, HIGHLIGHT, bold=True)
    img = Image.new("RGBA", (36 + 10 + text.image.width, max(24, text.height)), HIGHLIGHT + (0,))
    cy = img.height // 2
    dashed_rect(ImageDraw.Draw(img), (0, cy - 11, 36, cy + 11), HIGHLIGHT, width=3, dash=7, gap=4)
    text.paste(img, (46, cy))
    return Label(img, 0, "LAST MOVE", 19)


# --- the palette ------------------------------------------------------------------------------------
def _palette() -> Image.Image:
    """Every colour the board uses, with the anti-aliasing ramps where two of them meet."""
    def shade(c: Colour, alpha: int) -> Colour:
        return mix(c, (0, 0, 0), alpha / 255)

    colours = ramp(FELT_EDGE, FELT_CENTRE, 40) + [shade(c, SHADOW_ALPHA) for c in ramp(FELT_EDGE, FELT_CENTRE, 8)]
    edges = [  # (background, foreground) pairs that meet at anti-aliased edges
        (PANEL, WHITE), (PANEL, MUTED), (PANEL, YELLOW), (PANEL, PANEL_EDGE), (PANEL, FAINT),
        (PANEL, shade(PANEL, SHADOW_ALPHA)), (PANEL, INK), (PANEL, HIGHLIGHT), (PANEL, BACK),
        (STRIP, WHITE), (STRIP, MUTED), (STRIP, YELLOW), (STRIP, HIGHLIGHT), (STRIP, FAINT),
        (FELT_CENTRE, WHITE), (FELT_CENTRE, MUTED), (FELT_CENTRE, YELLOW), (FELT_EDGE, WHITE),
        (FELT_CENTRE, BACK), (FELT_EDGE, MUTED), (FELT_CENTRE, HIGHLIGHT), (FELT_EDGE, HIGHLIGHT),
        (WHITE, INK), (WHITE, VERMILLION), (WHITE, BLUE), (WHITE, GREEN), (WHITE, JOKER_INK),
        (WHITE, CARD_EDGE), (WHITE, COURT_EDGE), (WHITE, shade(WHITE, SHADOW_ALPHA)), (WHITE, PANEL),
        (COURT_TINT, INK), (COURT_TINT, VERMILLION), (COURT_TINT, BLUE), (COURT_TINT, GREEN),
        (COURT_TINT, COURT_EDGE),
        (YELLOW, INK), (HIGHLIGHT, INK), (MUTED, INK), (PANEL_EDGE, WHITE), (PANEL_EDGE, PANEL),
        (BACK, BACK_LINE), (BACK, WHITE), (BACK, BACK_EDGE), (BACK_EDGE, PANEL),
    ]
    for bg, fg in edges:
        colours += ramp(bg, fg, 5)
    colours += [shade(c, SHADOW_ALPHA) for c in (STRIP, BACK, CARD_EDGE)]
    return palette_image(colours)


# --- the empty tables ---------------------------------------------------------------------------
def _legend(img: Image.Image, box: Box) -> None:
    """How to read the board, in the spare cell of the three-player layout."""
    draw = ImageDraw.Draw(img)
    x0, y0 = box[0], box[1]
    draw.rounded_rectangle(box, radius=14, outline=PANEL_EDGE, width=2)
    draw_text(draw, (x0 + 18, y0 + 26), "HOW TO READ THE TABLE", 19, MUTED, anchor="lm", bold=True)
    x, y, step = x0 + 18, y0 + 72, 50
    draw.rounded_rectangle((x, y - 16, x + 44, y + 16), radius=6, outline=YELLOW, width=5)
    draw_text(draw, (x + 58, y), "thick border: to play", 20, WHITE, anchor="lm")
    y += step
    dashed_rect(draw, (x, y - 16, x + 44, y + 16), HIGHLIGHT, width=4, dash=8, gap=4)
    draw_text(draw, (x + 58, y), "dashed outline: last move", 20, WHITE, anchor="lm")
    y += step
    draw.rounded_rectangle((x + 6, y - 18, x + 38, y + 18), radius=4, fill=COURT_TINT, outline=COURT_EDGE)
    draw_text(draw, (x + 58, y), "J Q K just drawn: can break", 20, WHITE, anchor="lm")
    y += step
    draw.rounded_rectangle((x + 6, y - 18, x + 38, y + 18), radius=4, fill=WHITE, outline=CARD_EDGE)
    _paste(img, shape_sprite("*", 24, JOKER_INK), (x + 10, y - 12))
    draw_text(draw, (x + 58, y), "star: wild card", 20, WHITE, anchor="lm")
    y += step - 4
    for line in ("Cards fan upward: the top", "card is the one that counts.", "",
                 "draw \u00b7 place 2 \u00b7 discard", "break P2 1 onto 3", "merge 1 onto 2 \u00b7 done"):
        if line:
            draw_text(draw, (x, y), line, 19, MUTED, anchor="lm")
        y += 27 if line else 10


@cache
def _table(layout: Layout) -> Image.Image:
    """Everything that does not depend on the position: felt, strips, empty panels, fixed labels."""
    img = felt((W, layout.height))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, W, HEADER), fill=STRIP)
    draw.rectangle((0, layout.height - FOOTER, W, layout.height), fill=STRIP)
    draw.line((0, HEADER, W, HEADER), fill=PANEL_EDGE, width=1)
    draw.line((0, layout.height - FOOTER, W, layout.height - FOOTER), fill=PANEL_EDGE, width=1)
    draw_text(draw, (GAP + 4, HEADER // 2), TITLE, 26, WHITE, anchor="lm", bold=True)
    for box in layout.panels:
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=PANEL_EDGE, width=2)
    draw.rounded_rectangle(layout.piles, radius=14, outline=PANEL_EDGE, width=2)
    _, py0, _, _ = layout.piles
    for i, label in enumerate(("DRAW", "DISCARD")):
        draw_text(draw, (layout.pile_x(i), py0 + 14), label, 19, MUTED, anchor="mt", bold=True)
    if layout.spare:
        _legend(img, layout.spare)
    return img


@cache
def _background(layout: Layout) -> Image.Image:
    """The empty table of ``layout`` in the board's palette."""
    return _S.PALETTE.background(_table(layout))


# --- everything drawn once, on first use ------------------------------------------------------------------
class _Sprites:
    """The sprites, fixed labels and palette, each drawn the first time a render needs it (and kept; card decks and
    empty tables are cached per style and layout): importing the module draws nothing."""

    @cached_property
    def TITLE_END(self) -> int:
        return GAP + 4 + int(text_width(TITLE, 26, bold=True))

    @cached_property
    def PILE_BACK(self) -> Image.Image:
        return _back(72, 100)

    @cached_property
    def HELD_BACK(self) -> Image.Image:
        return _back(CARD.w, CARD.h, radius=CARD.radius)

    @cached_property
    def MINI_BACK(self) -> Image.Image:
        return _back(26, 36, radius=4)

    @cached_property
    def SEAT_BADGE(self) -> dict[tuple[int, bool], Label]:
        return {(seat, on): pill_label(f"P{seat + 1}", 20, INK, YELLOW if on else MUTED, pad=7)
                for seat in range(4) for on in (False, True)}

    @cached_property
    def TO_PLAY(self) -> Label:
        return pill_label("TO PLAY", 19, INK, YELLOW, icon=">")

    @cached_property
    def WINNER(self) -> Label:
        return pill_label("WINNER", 19, INK, YELLOW, icon="*")

    @cached_property
    def ORDINAL(self) -> dict[int, Label]:
        return {n: pill_label({2: "2nd", 3: "3rd"}.get(n, f"{n}th"), 19, WHITE, PANEL_EDGE) for n in range(2, 5)}

    @cached_property
    def NEW_STACK(self) -> Label:
        return pill_label("new!", 19, INK, HIGHLIGHT, pad=6)

    @cached_property
    def PHASE_PILL(self) -> dict[str, Label]:
        return {"final": pill_label("FINAL ROUND", 19, INK, HIGHLIGHT), "over": pill_label("GAME OVER", 19, INK, WHITE)}

    @cached_property
    def HINT(self) -> dict[str, Label]:
        return {h: text_label(h, 20, MUTED) for h in ("may merge, or done", "place, break or discard",
                                                       "draw or merge")}

    @cached_property
    def HEAD_ICON(self) -> dict[str, Label]:
        return {">": Label(shape_sprite(">", 20, YELLOW)), "*": Label(shape_sprite("*", 24, YELLOW))}

    @cached_property
    def DRAWN_BY(self) -> Label:
        return text_label("DRAWN BY", 19, YELLOW, bold=True)

    @cached_property
    def FACE_DOWN(self) -> Label:
        return text_label("face down", 19, MUTED)

    @cached_property
    def YOURS(self) -> Label:
        return text_label("yours:", 19, MUTED, bold=True)

    @cached_property
    def NO_MOVES(self) -> Label:
        return text_label("New game: no moves yet", 22, MUTED)

    @cached_property
    def LAST_MOVE(self) -> Label:
        return _last_move_key()

    @cached_property
    def PALETTE(self) -> Palette:
        return Palette(_palette())


_S = _Sprites()

# Breaks tells players apart by name and seat number (P1-P4), never by colour: yellow marks the players to act
# (with a TO PLAY tag and a thick border), the same for every seat. Suits have colours and shapes of their own.
PLAYER_COLOURS: dict[str, Colour] = {}
SECOND_CUE: dict[str, str] = {}


# --- text that changes ------------------------------------------------------------------------------
def _points(n: float) -> str:
    return f"{int(n)} pt" if int(n) == 1 else f"{int(n)} pts"


def _result_line(result: ResultView, names: list[str]) -> str:
    winners = list(result["winners"])
    scores = [int(s) for s in result["scores"]]
    if len(winners) == 1:
        best = scores[winners[0]]
        line = f"{names[winners[0]]} wins " + "-".join(str(s) for s in sorted(scores, reverse=True))
        if sum(1 for s in scores if s == best) > 1:
            line += " on cards left"
        return line
    return f"Tie: {join_names(names[w] for w in winners)} ({_points(scores[winners[0]])} each)"


def _status(view: BreaksView, names: list[str]) -> tuple[str, str]:
    """The headline and a hint (a key of :attr:`_Sprites.HINT` or "")."""
    short = [HEAD.fit(n, 200) for n in names]
    if view["phase"] == "over" and view["result"]:
        return _result_line(view["result"], short), ""
    who = join_names(short[p] for p in view["to_act"])
    if view["phase"] == "final":
        return f"{who} to merge", "may merge, or done"
    if view["pending_seat"] is not None:
        return f"{who} to play", "place, break or discard"
    return f"{who} to play", "draw or merge"


def _options_text(options: BreaksOptions) -> str:
    bits = []
    if options["decks"] != 1:
        bits.append(f"{options['decks']} decks")
    if options["jokers"]:
        bits.append("jokers")
    if options["aces_wild"]:
        bits.append("aces wild")
    if options["scoring"] == "court":
        bits.append("court scoring")
    if options["tiebreak"] == "cards_left":
        bits.append("tiebreak: cards left")
    return " \u00b7 ".join(bits)


def _wrap(face: Glyphs, text: str, width: int, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` pixels, cut at spaces (the last one cut short if need be)."""
    out: list[str] = []
    words = text.split(" ")
    line = ""
    for k, word in enumerate(words):
        trial = f"{line} {word}" if line else word
        if face.width(trial) <= width or not line:
            line = trial
            continue
        if len(out) == lines - 1:
            return out + [face.fit(" ".join([line] + words[k:]), width)]
        out.append(line)
        line = word
    return out + [face.fit(line, width)]


# --- drawing -------------------------------------------------------------------------------------
def _card_key(code: str, aces_wild: bool, covered: bool = False) -> tuple[str, bool, bool]:
    """A card's key in a :data:`Deck`; ``covered`` when another card of its sequence lies on it (its bottom strip
    shows)."""
    return (code, aces_wild and code[0] == "A", covered)


def _card(deck: Deck, code: str, aces_wild: bool, covered: bool = False) -> Image.Image:
    """A card's sprite (see :func:`_card_key`)."""
    return deck[_card_key(code, aces_wild, covered)]


def _fan(img: Surface, style: CardStyle, x: int, baseline: int, cards: Sequence[str], aces_wild: bool) -> int:
    """Draw a sequence growing upward from ``baseline`` (bottom card lowest, top card highest and
    whole); returns the fan's top edge."""
    if not cards:
        put(img, _empty_slot(style), (x, baseline - style.h))
        return baseline - style.h
    step = style.strip
    if len(cards) > MAX_FAN:
        step = style.strip * (MAX_FAN - 1) // (len(cards) - 1)
    deck = _deck(style)
    kinds = _kinds(style)
    top = baseline
    below: tuple[int, ...] = ()  # the kinds of the cards under this one, the nearest first
    for i, code in enumerate(cards):
        top = baseline - style.h - i * step
        key = _card_key(code, aces_wild, covered=i < len(cards) - 1)
        under = _fan_under(style, below) if step == style.strip else EXACT
        put(img, deck[key], (x, top), under if i else None)
        below = (kinds[key], *below)
    return top


def _edges(style: CardStyle) -> Image.Image:
    """Every card sprite's partly transparent pixels (rounded corners, shadow): where a card shows what is under it."""
    deck = _deck(style)
    edges = Image.new("L", next(iter(deck.values())).size, 0)
    for sprite in deck.values():
        edges = ImageChops.lighter(edges, sprite.getchannel("A").point(lambda a: 255 if 0 < a < 255 else 0))
    return edges


@cache
def _kinds(style: CardStyle) -> dict[tuple[str, bool, bool], int]:
    """The cards of a deck in kinds, by their key in the deck (not by sprite: render threads may each have made a deck
    of their own the first time, ``functools.cache`` keeping one of them): two cards of a kind show the same pixels
    under the edges of a card one, two or three steps above them in a fan, where the cards between do not cover them
    (the Joker's star reaches there; every other face shows white and its outline)."""
    deck = _deck(style)
    edges = _edges(style)
    opaque = Image.new("L", edges.size, 255)  # where every card covers what is under it
    for sprite in deck.values():
        opaque = ImageChops.darker(opaque, sprite.getchannel("A").point(lambda a: 255 if a == 255 else 0))
    clear = Image.new("RGBA", edges.size, (0, 0, 0, 0))
    signatures: dict[tuple[bytes, ...], int] = {}
    out = {}
    for key, sprite in deck.items():
        marks = []
        seen = edges
        for k in range(1, MAX_FAN):
            layer = clear.copy()
            layer.paste(sprite, (0, k * style.strip))
            marks.append(Image.composite(layer, clear, seen).tobytes())
            cover = Image.new("L", edges.size, 0)
            cover.paste(opaque, (0, k * style.strip))  # this card hides what is under it from the next one down
            seen = ImageChops.subtract(seen, cover)
        out[key] = signatures.setdefault(tuple(marks), len(signatures))
    return out


@cache
def _fan_under(style: CardStyle, below: tuple[int, ...]) -> Image.Image:
    """What lies under the edges of a card with cards of the ``below`` kinds under it in its fan (the nearest first,
    each a step lower, all on a panel), as a picture of the card sprite's size: one card of each kind stands for
    the others (see :func:`_kinds`)."""
    deck = _deck(style)
    kinds = _kinds(style)
    first: dict[int, Image.Image] = {}
    for key, sprite in deck.items():
        first.setdefault(kinds[key], sprite)
    out = Image.new("RGB", next(iter(deck.values())).size, PANEL)
    for k in range(len(below), 0, -1):  # the lowest card first
        card = first[below[k - 1]]
        out.paste(card, (0, k * style.strip), card)
    return out


@cache
def _chip() -> Image.Image:
    """A discard chip's white card (its corners not anti-aliased, as drawn on the board before: the same pixels)."""
    img = Image.new("RGBA", (CHIP_W + 1, CHIP_H + 1), WHITE + (0,))
    ImageDraw.Draw(img).rounded_rectangle((0, 0, CHIP_W, CHIP_H), radius=6, fill=WHITE, outline=CARD_EDGE)
    return img


@cache
def _pile_under(layout: Layout, i: int, layers: int, k: int) -> Image.Image:
    """What lies under the ``k``-th back of pile ``i`` (of ``layers``): the empty table and the backs below it."""
    back = _S.PILE_BACK
    x, y = layout.pile_back(i, layers, k, back.size)
    out = _table(layout).crop((x, y, x + back.width, y + back.height))
    for j in range(k):
        bx, by = layout.pile_back(i, layers, j, back.size)
        out.paste(back, (bx - x, by - y), back)
    return out


@cache
def _mini_under(k: int) -> Image.Image:
    """What lies under the ``k``-th back of a player's pile of completed stacks: the panel and the backs below."""
    back = _S.MINI_BACK
    out = Image.new("RGB", back.size, PANEL)
    for j in range(k):
        out.paste(back, (2 * (j - k), 2 * (k - j)), back)
    return out


def _held_frame(draw: ImageDraw.ImageDraw, at: tuple[int, int], ink: Colour) -> None:
    """The yellow frame around the card just drawn (its top left corner ``at``)."""
    hx, hy = at
    draw.rounded_rectangle((hx - 6, hy - 6, hx + CARD.w + 6, hy + CARD.h + 6), radius=CARD.radius + 4,
                           outline=ink, width=3)


@cache
def _held_under(layout: Layout, size: tuple[int, int]) -> Image.Image:
    """What lies under the card just drawn (a sprite of ``size``): the empty table and the yellow frame."""
    hx, hy = layout.held
    around = _table(layout).crop((hx - 10, hy - 10, hx + size[0] + 10, hy + size[1] + 10))
    _held_frame(ImageDraw.Draw(around), (10, 10), YELLOW)
    return around.crop((10, 10, 10 + size[0], 10 + size[1]))


def _stack_points(points: Sequence[int]) -> list[str]:
    return [f"+{p}" for p in points]


def _stacks_row(img: Surface, draw: ImageDraw.ImageDraw, box: Box, stacks: Sequence[int], score: int,
                court: bool, fresh: bool, cards_left: int | None) -> None:
    """Under the name: completed stacks as a small face-down pile, "2 stacks" (and "new!" when the last move made one),
    the points of each stack in court scoring, cards left with that tiebreak, and the score on the right."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    bw, bh = _S.MINI_BACK.size
    layers = min(len(stacks), 4)
    px, py = x0 + 2, cy - bh // 2 + layers
    if not stacks:
        dashed_rect(draw, (px, py, px + bw - 2, py + bh - 2), FAINT, width=2, dash=5, gap=4)
    for i in range(layers):
        put(img, _S.MINI_BACK, (px + i * 2, py - i * 2), _mini_under(i) if i else None)
    if fresh:
        dashed_rect(draw, (px - 5, py - 2 * layers - 3, px + bw + 2 * layers + 4, py + bh + 3), HIGHLIGHT,
                    width=3, dash=6, gap=3)
    right = NAME.paste(img, (x1, cy), _points(score), anchor="r")[0] - 12
    if cards_left is not None:
        right = NOTE.paste(img, (right, cy), f"{cards_left} left", anchor="r")[0] - 10
    count = len(stacks)
    x = BODY.paste(img, (px + bw + 2 * layers + 12, cy), f"{count} stack" if count == 1 else f"{count} stacks")[2]
    x += 10
    if fresh:
        x = _S.NEW_STACK.paste(img, (x, cy))[2] + 10
    if court and stacks and right - x > 30:
        NOTE.paste(img, (x, cy), NOTE.fit(" ".join(_stack_points(stacks)), right - x))


def _panel(img: Surface, draw: ImageDraw.ImageDraw, layout: Layout, view: BreaksView, seat: int,
           name: str) -> None:
    box = layout.panels[seat]
    x0, y0, x1, _ = box
    style = layout.style
    player = view["players"][seat]
    options = view["options"]
    result = view["result"]
    acting = seat in view["to_act"]
    winner = result is not None and seat in result["winners"]
    if acting or winner:
        draw.rounded_rectangle(box, radius=14, outline=YELLOW, width=6)

    # name row: seat badge, name, status tag
    cy = y0 + 8 + NAME_ROW // 2
    badge = _S.SEAT_BADGE[(seat, acting or winner)].paste(img, (x0 + PAD, cy))
    tag: Label | None = None
    if acting:
        tag = _S.TO_PLAY
    elif winner:
        tag = _S.WINNER
    elif result:
        tag = _S.ORDINAL.get(result["ranks"][seat])
    tag_left = tag.paste(img, (x1 - PAD, cy), anchor="r")[0] if tag else x1 - PAD
    name_x = badge[2] + 10
    NAME.paste(img, (name_x, cy), NAME.fit(name, tag_left - 12 - name_x))

    # the three slots, and the last move's outline
    last = view["last"]
    touched = {(p, slot) for p, slot in last["touched"]} if last else set()
    baseline = layout.baseline(seat)
    aces_wild = options["aces_wild"]
    for i, cards in enumerate(player["slots"]):
        sx = layout.slot_x(seat, i)
        if isinstance(img, BandCanvas):
            top = _kept_fan(img, style, sx, baseline, cards, aces_wild)
        else:
            top = _fan(img, style, sx, baseline, cards, aces_wild)
        last_move = (seat, i) in touched
        if last_move:
            dashed_rect(draw, (sx - 5, top - 5, sx + style.w + 6, baseline + 6), HIGHLIGHT, width=4, dash=12,
                        gap=6)
        _slot_label(i, len(cards), last_move).paste(img, (sx + style.w // 2, baseline + LABEL_ROW // 2 + 5),
                                                     anchor="m")

    left = player["cards_left"] if options["tiebreak"] == "cards_left" else None
    _stacks_row(img, draw, layout.stack_box(seat), player["stack_points"], player["score"],
                options["scoring"] == "court", bool(last and seat in last["stacked"]), left)


def _piles(img: Surface, draw: ImageDraw.ImageDraw, layout: Layout, view: BreaksView,
           names: list[str]) -> None:
    """The draw pile and the face-down discard pile with their counts (the viewer's own discards named), and the
    card just drawn: its face to its drawer, its back to everyone else."""
    x0, y0, x1, y1 = layout.piles
    bw, bh = _S.PILE_BACK.size
    last = view["last"]
    for i, count in enumerate((view["draw_pile"], view["discard_pile"])):
        px = layout.pile_x(i)
        x, y = px - bw // 2, y0 + 40
        if count:
            layers = min(4, 1 + count // 12)
            for k in range(layers):
                put(img, _S.PILE_BACK, layout.pile_back(i, layers, k, (bw, bh)),
                    _pile_under(layout, i, layers, k) if k else None)
        else:
            dashed_rect(draw, (x, y + 6, x + bw - 2, y + bh + 4), FAINT, width=2, dash=7, gap=5)
        PILE.paste(img, (px, y + bh + 28), str(count), anchor="m")
        if i == 1 and last is not None and last["move"] == "discard":  # the last move: a discard
            dashed_rect(draw, (x - 14, y - 6, x + bw + 12, y + bh + 12), HIGHLIGHT, width=4, dash=10, gap=5)
    NOTE.paste(img, (layout.pile_x(0), y1 - 20), f"recycles left: {view['recycles_left']}", anchor="m")
    if view["discard_pile"]:
        _S.FACE_DOWN.paste(img, (layout.pile_x(1), y1 - 20), anchor="m")
    mine = view["my_discards"]
    dx = layout.pile_x(1) + bw // 2 + 30
    hx = layout.held[0]  # the card just drawn
    seat = view["pending_seat"]
    words = hx - 18 - HELD_WORDS  # where "DRAWN BY" and the drawer's name begin
    if mine:  # the viewer's own discards, newest first (the others' stay unknown)
        _S.YOURS.paste(img, (dx, y0 + 26))
        _chips(img, (dx, y0 + 46, (hx if seat is None else words) - 20, y1 - 8), list(reversed(mine)))
    hy = layout.held[1]
    if seat is None:
        headline, hint = _status(view, names)
        if hint:
            _S.HINT[hint].paste(img, (x1 - PAD, (y0 + y1) // 2), anchor="r")
        return
    pending = view["pending"]
    sprite = _card(_deck(CARD), pending, view["options"]["aces_wild"]) if pending else _S.HELD_BACK
    _held_frame(draw, layout.held, YELLOW)
    put(img, sprite, (hx, hy), _held_under(layout, sprite.size))  # (its shadow meets the yellow frame)
    tx = hx - 18
    _S.DRAWN_BY.paste(img, (tx, hy + 24), anchor="r")
    BODY.paste(img, (tx, hy + 56), BODY.fit(names[seat], tx - (words if mine else dx)), anchor="r")
    if not mine:
        _S.HINT["place, break or discard"].paste(img, (tx, hy + CARD.h - 20), anchor="r")


def _chips(img: Surface, box: Box, cards: list[str]) -> None:
    """Cards as small white chips (rank and suit shape) in rows within ``box``; "+N" for those that do not fit."""
    x0, y0, x1, y1 = box
    per_row = max(1, (x1 - x0 + 6) // (CHIP_W + 6))
    rows = max(1, (y1 - y0 + 6) // (CHIP_H + 6))
    room = per_row * rows
    shown = cards if len(cards) <= room else cards[:room - 1]
    for k, code in enumerate(shown):
        x, y = x0 + (k % per_row) * (CHIP_W + 6), y0 + (k // per_row) * (CHIP_H + 6)
        put(img, _chip(), (x, y))
        if code == JOKER:
            label, ink, shape = "JK", JOKER_INK, "*"
        else:
            label, ink, shape = ("10" if code[0] == "T" else code[0]), SUIT_INK[code[1]], code[1]
        face = CHIP_RANK[ink]
        right = face.paste(img, (x + 6, y + CHIP_H // 2), label, under=WHITE)[2]
        put(img, _shape(shape, 18, ink), (right + 3, y + CHIP_H // 2 - 9), WHITE)
    if len(shown) < len(cards):
        k = len(shown)
        x, y = x0 + (k % per_row) * (CHIP_W + 6), y0 + (k // per_row) * (CHIP_H + 6)
        NOTE.paste(img, (x + 4, y + CHIP_H // 2), f"+{len(cards) - len(shown)}")


def _header(img: Surface, view: BreaksView, names: list[str]) -> None:
    cy = HEADER // 2
    x = _S.TITLE_END + 14
    phase = view["phase"]
    if phase in _S.PHASE_PILL:
        x = _S.PHASE_PILL[phase].paste(img, (x, cy))[2]
    headline, _ = _status(view, names)
    right = W - GAP - 4
    left = HEAD.paste(img, (right, cy), HEAD.fit(headline, right - x - 40), anchor="r")[0]
    _S.HEAD_ICON["*" if phase == "over" else ">"].paste(img, (left - 10, cy), anchor="r")


def _footer(img: Surface, layout: Layout, view: BreaksView, names: list[str]) -> None:
    top = layout.height - FOOTER
    cy = top + 24
    extra = " \u00b7 ".join(b for b in (_options_text(view["options"]), f"move {view['ply']}") if b)
    last = view["last"]
    if not last:
        NOTE.paste(img, (W - GAP - 4, cy), extra, anchor="r")
        _S.NO_MOVES.paste(img, (GAP + 4, top + FOOTER // 2))
        return
    x = _S.LAST_MOVE.paste(img, (GAP + 4, cy))[2] + 16
    NOTE.paste(img, (W - GAP - 4, cy), NOTE.fit(extra, W - GAP - 4 - x), anchor="r")
    text = f"{BODY.fit(names[last['seat']], 300)} {view['last_said']}"
    if last["stacked"]:
        text += ", and completed a stack!"
    for k, line in enumerate(_wrap(BODY, text, W - 2 * GAP - 8, 2)):
        BODY.paste(img, (GAP + 4, top + 58 + 30 * k), line)


def draw_board(view: BreaksView, names: Sequence[str], img: Surface) -> Surface:
    """Draw the position of ``view`` on ``img``, a copy of the empty table of its layout."""
    seats = len(view["players"])
    layout = LAYOUTS[seats]
    draw = img.draw
    shown = seat_names(names, seats)
    _header(img, view, shown)
    for seat in range(seats):
        _panel(img, draw, layout, view, seat, shown[seat])
    _piles(img, draw, layout, view, shown)
    _footer(img, layout, view, shown)
    return img


def render_rgb(view: BreaksView, names: Sequence[str]) -> Image.Image:
    """The board drawn in RGB, before any palette: the reference :func:`render` is checked against."""
    return draw_board(view, names, Surface(_table(LAYOUTS[len(view["players"])]))).image


def render_whole(view: BreaksView, names: Sequence[str]) -> bytes:
    """The board drawn whole on a copy of the empty table in the palette (:class:`~render.common.Canvas`), nothing
    kept from a picture before: what :func:`render` drew before it kept parts and bands, the same pixels."""
    layout = LAYOUTS[len(view["players"])]
    return encode_png(draw_board(view, names, Canvas(_background(layout), _S.PALETTE, _table(layout))).image)


# --- kept parts and bands ------------------------------------------------------------------------------------------
# The pictures of one move (its public board and its mover's own view) and of the moves before it share most of
# their rows: the panels of the players who did not move, the header until the turn passes, the footer of one move.
# A picture is cut in bands of whole rows, each the rows of one section (the header, the piles' strip, a row of
# panels, the footer) or of the empty table between them; a section's band is kept deflated by what it shows, so that
# a band shown a moment before is neither drawn nor deflated again, and a panel is kept as drawn (its palette
# pixels), so that a row of panels where one panel changed draws that one only. A board is deflated band by band
# into one zlib stream (each band ended by a sync flush): the same pixels; the file a few hundred bytes longer.
PARTS_BYTES = 4 << 20  # the panels kept as drawn, in bytes of pixels (a panel is 163 KB: about 25 of them)
FANS_BYTES = 4 << 20  # the fans of cards kept as drawn, in bytes of pixels (17–31 KB a fan: about 170 of them)
BANDS_BYTES = 16 << 20  # the bands kept deflated, in bytes (a row of panels 9–20 KB, the piles' strip 5–9 KB): the
# bands of the pictures of the last ~300 moves of any tables (at 200 tables, a table's next move comes ~200 moves later:
# with 6 MB, bench's mix of 200 tables drew a picture in 1.38 ms of CPU on average, with 16 MB in 1.11, 32 MB 1.02)
ROW = W + 1  # a PNG row: its filter byte (0, none) and its pixels






def _parts() -> Kept[tuple[object, ...], Image.Image]:
    """Panels as drawn on a canvas (the palette's pixels of the panel's box), by what they show (:func:`_panel_key`),
    up to :data:`PARTS_BYTES`, the least recently used first out."""
    return Kept(PARTS_BYTES, lambda part: part.width * part.height)


def _bands() -> Kept[tuple[object, ...], Band]:
    """The deflated bands of the sections of boards, by what they show (:func:`_sections`), up to
    :data:`BANDS_BYTES`, the least recently used first out."""
    return Kept(BANDS_BYTES, lambda band: len(band.data) + 100)


def _fans() -> Kept[tuple[object, ...], Image.Image]:
    """Fans of cards as drawn on a canvas (the palette's pixels of the box from the fan's top to its bottom card's
    shadow), by their cards: a fan lies on a panel's flat colour, so that it is the same picture in any slot of any
    panel. Up to :data:`FANS_BYTES`, the least recently used first out."""
    return Kept(FANS_BYTES, lambda part: part.width * part.height)


_PARTS = _parts()
_FANS = _fans()
_BANDS = _bands()


def forget_kept() -> None:
    """Forget the kept panels, fans, bands and idle canvases (the empty tables and sprites stay): the next picture is
    drawn whole."""
    global _PARTS, _FANS, _BANDS
    _PARTS, _FANS, _BANDS = _parts(), _fans(), _bands()
    with _IDLE_LOCK:
        _IDLE.clear()


@cache
def _pristine(layout: Layout) -> bytes:
    """The empty table of ``layout`` in the palette, as a PNG's rows (each after its filter byte, 0)."""
    pixels = _background(layout).tobytes()
    rows = bytearray(ROW * layout.height)
    for y in range(layout.height):
        rows[y * ROW + 1:(y + 1) * ROW] = pixels[y * W:(y + 1) * W]
    return bytes(rows)


@cache
def _ground(layout: Layout, y0: int, y1: int) -> Band:
    """Rows ``y0``–``y1`` of the empty table, deflated (the felt between the sections)."""
    return _deflate(memoryview(_pristine(layout))[y0 * ROW:y1 * ROW])


@cache
def _png_head(layout: Layout) -> bytes:
    """The PNG's signature, header and palette for a picture of ``layout``."""
    colours = bytes(_background(layout).getpalette("RGB") or [0, 0, 0])
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     _chunk(b"IHDR", struct.pack(">IIBBBBB", W, layout.height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", colours)))


def _panel_rows(layout: Layout) -> list[tuple[int, int, tuple[int, ...]]]:
    """Each row of panels: its first and end rows (the panels' boxes, their last row included) and its seats."""
    out: dict[tuple[int, int], list[int]] = {}
    for seat, (_, y0, _, y1) in enumerate(layout.panels):
        out.setdefault((y0, y1 + 1), []).append(seat)
    return [(y0, y1, tuple(seats)) for (y0, y1), seats in out.items()]


@cache
def _bands_of(layout: Layout) -> tuple[tuple[int, int, str, tuple[int, ...]], ...]:
    """The bands of a picture of ``layout``, top down, covering it: (first row, end row, section, seats), a section
    being "head", "piles", "panels" (a row of them: its seats), "foot" or "" (the empty table's rows)."""
    _, y0, _, y1 = layout.piles
    sections: list[tuple[int, int, str, tuple[int, ...]]] = [(0, HEADER + 1, "head", ()), (y0, y1 + 1, "piles", ())]
    sections += [(a, b, "panels", seats) for a, b, seats in _panel_rows(layout)]
    sections.append((layout.height - FOOTER, layout.height, "foot", ()))
    out: list[tuple[int, int, str, tuple[int, ...]]] = []
    y = 0
    for a, b, name, seats in sections:
        if a > y:
            out.append((y, a, "", ()))
        out.append((a, b, name, seats))
        y = b
    if layout.height > y:
        out.append((y, layout.height, "", ()))
    return tuple(out)


def _panel_key(layout: Layout, view: BreaksView, seat: int, name: str) -> tuple[object, ...]:
    """Everything :func:`_panel` shows of ``seat``, and where (its layout and seat)."""
    result = view["result"]
    last = view["last"]
    options = view["options"]
    return (len(layout.panels), seat, name, repr(view["players"][seat]), seat in view["to_act"],
            None if result is None else (seat in result["winners"], result["ranks"][seat]),
            None if last is None else (tuple(i for p, i in last["touched"] if p == seat), seat in last["stacked"]),
            options["aces_wild"], options["scoring"], options["tiebreak"])


def _kept_fan(canvas: Canvas, style: CardStyle, x: int, baseline: int, cards: Sequence[str], aces_wild: bool) -> int:
    """:func:`_fan` on a canvas, pasted as drawn before for the same cards (and kept when drawn): nothing else is drawn
    in its box (the last move's outline lies around it), over the panel's flat colour."""
    key = (style, tuple(cards), aces_wild)
    fans = _FANS
    part = fans.get(key)
    if part is not None:
        top = baseline + SHADOW - part.height
        canvas._core.paste(part.im, (x, top, x + part.width, baseline + SHADOW))
        return top
    top = _fan(canvas, style, x, baseline, cards, aces_wild)
    fans.put(key, canvas.image.crop((x, top, x + style.w + SHADOW, baseline + SHADOW)))
    return top


class BandCanvas(Canvas):
    """A :class:`~render.common.Canvas` of one layout drawn again and again (not copied from the empty table for each
    picture): a section's rows are set back to the empty table's before it is drawn; a section whose band is kept is
    not drawn at all, nor are the empty table's rows between the sections. One canvas draws one picture at a time
    (:func:`_canvas`)."""

    def __init__(self, layout: Layout) -> None:
        super().__init__(_background(layout), _S.PALETTE, _table(layout))
        self.layout = layout
        self.rows: memoryview = self.image._png_rows[1]  # type: ignore[attr-defined]  # (its pixels, as a PNG's rows)

    def clear(self, y0: int, y1: int) -> None:
        """Set rows ``y0``–``y1`` back to the empty table's."""
        self.rows[y0 * ROW:y1 * ROW] = memoryview(_pristine(self.layout))[y0 * ROW:y1 * ROW]

    def band(self, y0: int, y1: int) -> Band:
        """Rows ``y0``–``y1`` as drawn, deflated."""
        return _deflate(self.rows[y0 * ROW:y1 * ROW])


_IDLE: dict[int, list[BandCanvas]] = {}  # canvases not drawing, by player count (two at most each)
_IDLE_LOCK = threading.Lock()


def _canvas(layout: Layout) -> BandCanvas:
    """A canvas of ``layout`` for one picture: an idle one, or a new one (pictures drawn at once in threads each
    get their own)."""
    with _IDLE_LOCK:
        idle = _IDLE.get(len(layout.panels))
        canvas = idle.pop() if idle else None
    return canvas if canvas is not None else BandCanvas(layout)


def _release(canvas: BandCanvas) -> None:
    with _IDLE_LOCK:
        idle = _IDLE.setdefault(len(canvas.layout.panels), [])
        if len(idle) < 2:
            idle.append(canvas)


def _draw_panels(canvas: BandCanvas, view: BreaksView, seats: tuple[int, ...], keys: list[tuple[object, ...]],
                 shown: list[str]) -> None:
    """Draw the panels of ``seats`` (their rows set back to the empty table), each pasted as kept or drawn (and
    kept)."""
    layout = canvas.layout
    parts = _PARTS
    for seat, key in zip(seats, keys, strict=True):
        x0, y0, x1, y1 = layout.panels[seat]
        box = (x0, y0, x1 + 1, y1 + 1)
        part = parts.get(key)
        if part is not None:
            canvas._core.paste(part.im, box)
            continue
        _panel(canvas, canvas.draw, layout, view, seat, shown[seat])
        parts.put(key, canvas.image.crop(box))


def _render_kept(view: BreaksView, names: Sequence[str]) -> bytes:
    seats = len(view["players"])
    layout = LAYOUTS[seats]
    shown = seat_names(names, seats)
    headline, hint = _status(view, shown)
    last = view["last"]
    pending = view["pending_seat"]
    bands: list[Band] = []
    canvas: BandCanvas | None = None
    kept = _BANDS
    try:
        for y0, y1, section, row in _bands_of(layout):
            if not section:
                bands.append(_ground(layout, y0, y1))
                continue
            panel_keys: list[tuple[object, ...]] = []
            if section == "head":
                key: tuple[object, ...] = ("head", seats, view["phase"], headline)
            elif section == "piles":
                key = ("piles", seats, view["draw_pile"], view["discard_pile"],
                       last is not None and last["move"] == "discard", view["recycles_left"],
                       tuple(view["my_discards"]), pending, view["pending"], view["options"]["aces_wild"],
                       None if pending is None else shown[pending], hint)
            elif section == "panels":
                panel_keys = [_panel_key(layout, view, seat, shown[seat]) for seat in row]
                key = ("panels", seats, y0, *panel_keys)
            else:
                key = ("foot", seats, view["ply"], repr(last), view["last_said"], _options_text(view["options"]),
                       None if last is None else shown[last["seat"]])
            band = kept.get(key)
            if band is None:
                if canvas is None:
                    canvas = _canvas(layout)
                canvas.clear(y0, y1)
                if section == "head":
                    _header(canvas, view, shown)
                elif section == "piles":
                    _piles(canvas, canvas.draw, layout, view, shown)
                elif section == "panels":
                    _draw_panels(canvas, view, row, panel_keys, shown)
                else:
                    _footer(canvas, layout, view, shown)
                band = kept.put(key, canvas.band(y0, y1))
            bands.append(band)
    finally:
        if canvas is not None:
            _release(canvas)
    return _png_head(layout) + _chunk(b"IDAT", zlib_stream(bands)) + _chunk(b"IEND", b"")


def render(view: BreaksView, names: Sequence[str]) -> bytes:
    """The board for one ``Breaks.view()`` as PNG bytes; ``names`` are display names by seat. Drawn straight into
    the board's palette (:class:`~render.common.Canvas`) on a canvas of its layout kept from the picture before
    (:class:`BandCanvas`), and deflated band by band: the bands that show what they showed in a picture a moment
    before (a move's public board and its mover's view share all but the piles' strip; from one move to the next the
    panels of those who did not move stay) are neither drawn nor deflated again, and a panel kept as drawn is pasted.
    The same pixels as :func:`render_whole`. While a recorder of texts is open (:func:`render.common.recording`) the
    board is drawn whole, every text set."""
    if recording_on():
        return render_whole(view, names)
    return _render_kept(view, names)


__all__ = ["LAYOUTS", "PLAYER_COLOURS", "SECOND_CUE", "render", "render_rgb", "render_whole"]
