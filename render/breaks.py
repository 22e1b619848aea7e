"""The Breaks board as a PNG: one panel per player around a column with the piles.

Input is exactly ``Breaks.view()``; output is PNG bytes. Card faces, card backs, badges, fixed labels and the
empty table of each layout are drawn once, each on first use (importing the module draws nothing). A render copies
the table, pastes sprites and draws only the text that changes (names, headline, last move).

Reading the board without relying on colour: suits have their own shapes *and* a
four-colour deck; the players to act have a thick border, a ``P1`` badge in yellow and a
"TO PLAY" badge; the last move's slots have a dashed outline and a "last move" label.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from PIL import Image, ImageDraw

from engine.base import ResultView
from engine.breaks.cards import JOKER, RANKS, SUITS
from engine.breaks.game import SLOTS
from engine.breaks.view import BreaksOptions, BreaksView
from render.common import (
    BLUE,
    CARD_EDGE,
    ELLIPSIS,
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
    palette_image,
    pill_label,
    ramp,
    rounded_mask,
    seat_names,
    shape_sprite,
    text_label,
    text_width,
)

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

W = 1200
HEADER = 58
FOOTER = 50
GAP = 12  # between panels
PAD = 14  # inside a panel
NAME_ROW = 48
LABEL_ROW = 30  # slot numbers under the cards
STACK_ROW = 46  # the stacks, when they have a row of their own
SLOT_GAP = 12
NAME_SIZE = 28
HEADLINE_SIZE = 26
TITLE = "BREAKS"


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    img.paste(sprite, xy, sprite)


# --- card sprites ------------------------------------------------------------------------------
@dataclass(frozen=True)
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
        word = int(style.index * 0.4)
        size = mid_bottom - mid_top - word - 6
        face.alpha_composite(shape_sprite("*", size, JOKER_INK), (cx - size // 2, mid_top))
        draw_text(draw, (cx, mid_bottom), "JOKER", word, JOKER_INK, anchor="ms", bold=True)
    else:
        size = min(style.centre, mid_bottom - mid_top - 4)
        face.alpha_composite(shape_sprite(code[1], size, SUIT_INK[code[1]]), (cx - size // 2, cy - size // 2))
    if court:  # the court letter again, small, so J/Q/K read even from the centre
        draw_text(draw, (w - 11, mid_bottom - 5), code[0], int(style.index * 0.5), SUIT_INK[code[1]], anchor="rs",
                  bold=True)
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
    draw_text(draw, (style.w // 2, style.h // 2), "empty", 18, FAINT, anchor="mm")
    return img


# --- layouts ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    height: int
    style: CardStyle
    middle: Box  # the pile column
    panels: tuple[Box, ...]  # by seat
    spare: Box | None  # an unused grid cell (three players)
    stacks_row: bool  # stacks in a row under the name (wide cards) or in a column right of the slots

    def slot_x(self, seat: int, slot: int) -> int:
        return self.panels[seat][0] + PAD + slot * (self.style.w + SLOT_GAP)

    def baseline(self, seat: int) -> int:
        """Where the bottom card of every slot of ``seat`` ends; fans grow up from here."""
        return self.panels[seat][3] - PAD - LABEL_ROW

    def stack_box(self, seat: int) -> Box:
        x0, y0, x1, y1 = self.panels[seat]
        if self.stacks_row:
            return (x0 + PAD, y0 + 8 + NAME_ROW, x1 - PAD, y0 + 8 + NAME_ROW + STACK_ROW)
        return (self.slot_x(seat, SLOTS) + 2, y0 + 8 + NAME_ROW + 6, x1 - 8, y1 - PAD)


def _layout(seats: int) -> Layout:
    if seats == 2:  # tall panels: the stacks go in a row under the name and the cards get the width
        height, mid_w, style = 675, 180, CardStyle(w=142, h=198, strip=54, index=52, radius=12)
    else:
        height, mid_w, style = 900, 200, CardStyle(w=100, h=140, strip=40, index=40, radius=8)
    panel_w = (W - mid_w - 4 * GAP) // 2
    top, bottom = HEADER + GAP, height - FOOTER - GAP
    left = (GAP, GAP + panel_w)
    right = (W - GAP - panel_w, W - GAP)
    middle = (left[1] + GAP, top, right[0] - GAP, bottom)
    if seats == 2:
        cells = [(left[0], top, left[1], bottom), (right[0], top, right[1], bottom)]
    else:
        row_h = (bottom - top - GAP) // 2
        rows = ((top, top + row_h), (bottom - row_h, bottom))
        cells = [(x[0], y[0], x[1], y[1]) for y in rows for x in (left, right)]
    spare = cells[seats] if seats < len(cells) else None
    return Layout(height=height, style=style, middle=middle, panels=tuple(cells[:seats]), spare=spare,
                  stacks_row=seats == 2)


LAYOUTS = {n: _layout(n) for n in (2, 3, 4)}
PILE_STYLE = CardStyle(w=72, h=100, strip=28, index=28, radius=6)  # the discard pile's top card, face up


def _badge(radius: int) -> Image.Image:
    outer, inner = shape_sprite("o", 2 * radius, INK), shape_sprite("o", 2 * radius - 4, WHITE)
    outer.alpha_composite(inner, (2, 2))
    return outer


# --- fixed text, drawn once ----------------------------------------------------------------------


@cache
def _slot_label(slot: int, cards: int, last_move: bool) -> Label:
    """Under a slot: its number and how many cards it holds; a pill where the last move touched it."""
    text = f"{slot + 1}" if cards == 0 else f"{slot + 1} \u00b7 {cards} card{'s' * (cards != 1)}"
    if last_move:
        return pill_label(text, 16, INK, HIGHLIGHT, pad=7, bold=True)
    return text_label(text, 17, MUTED, bold=True)


# faces for the text that changes, set glyph by glyph
NAME = Glyphs(NAME_SIZE, WHITE, bold=True)  # player names and scores
HEAD = Glyphs(HEADLINE_SIZE, YELLOW, bold=True)  # whose turn, the result
BODY = Glyphs(22, WHITE, bold=True)  # the last move, "drawn by", stack counts
NOTE = Glyphs(17, MUTED)  # options, points per stack, cards left
PILE = Glyphs(30, WHITE, bold=True)
BADGE_NUMBER = Glyphs(20, INK, bold=True)


def _last_move_key() -> Label:
    """The footer's legend: a dashed swatch (the outline style of the last move) and its name."""
    text = text_label("LAST MOVE", 17, HIGHLIGHT, bold=True)
    img = Image.new("RGBA", (36 + 10 + text.image.width, max(24, text.height)), HIGHLIGHT + (0,))
    cy = img.height // 2
    dashed_rect(ImageDraw.Draw(img), (0, cy - 11, 36, cy + 11), HIGHLIGHT, width=3, dash=7, gap=4)
    text.paste(img, (46, cy))
    return Label(img)


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
        (FELT_CENTRE, BACK), (FELT_EDGE, MUTED),
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
    draw_text(draw, (x0 + 20, y0 + 24), "HOW TO READ THE TABLE", 18, MUTED, anchor="lm", bold=True)
    x, y, step = x0 + 20, y0 + 64, 52
    draw.rounded_rectangle((x, y - 16, x + 44, y + 16), radius=6, outline=YELLOW, width=5)
    draw_text(draw, (x + 60, y), "thick border: to play (at the end: won)", 18, WHITE, anchor="lm")
    y += step
    dashed_rect(draw, (x, y - 16, x + 44, y + 16), HIGHLIGHT, width=4, dash=8, gap=4)
    draw_text(draw, (x + 60, y), "dashed outline: last move", 18, WHITE, anchor="lm")
    y += step
    draw.rounded_rectangle((x + 6, y - 18, x + 38, y + 18), radius=4, fill=COURT_TINT, outline=COURT_EDGE)
    draw_text(draw, (x + 60, y), "J Q K: can break, when just drawn", 18, WHITE, anchor="lm")
    y += step
    draw.rounded_rectangle((x + 6, y - 18, x + 38, y + 18), radius=4, fill=WHITE, outline=CARD_EDGE)
    _paste(img, shape_sprite("*", 24, JOKER_INK), (x + 10, y - 12))
    draw_text(draw, (x + 60, y), "star: wild (Joker, or Aces if wild)", 18, WHITE, anchor="lm")
    y += step
    draw_text(draw, (x, y), "Cards fan upward: the top card is the one", 17, MUTED, anchor="lm")
    draw_text(draw, (x, y + 24), "that counts, the bottom card sits lowest.", 17, MUTED, anchor="lm")
    draw_text(draw, (x, y + 60), "Moves: draw, place 2, discard,", 17, MUTED, anchor="lm")
    draw_text(draw, (x, y + 84), "break P2 1 onto 3, merge 1 onto 2, done", 17, MUTED, anchor="lm")


@cache
def _table(layout: Layout) -> Image.Image:
    """Everything that does not depend on the position: felt, strips, empty panels, fixed labels."""
    img = felt((W, layout.height))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, W, HEADER), fill=STRIP)
    draw.rectangle((0, layout.height - FOOTER, W, layout.height), fill=STRIP)
    draw.line((0, HEADER, W, HEADER), fill=PANEL_EDGE, width=1)
    draw.line((0, layout.height - FOOTER, W, layout.height - FOOTER), fill=PANEL_EDGE, width=1)
    draw_text(draw, (GAP + 4, HEADER // 2), TITLE, 30, WHITE, anchor="lm", bold=True)
    for seat, box in enumerate(layout.panels):
        draw.rounded_rectangle(box, radius=14, fill=PANEL, outline=PANEL_EDGE, width=2)
        if not layout.stacks_row:
            sx0, sy0, sx1, _ = layout.stack_box(seat)
            draw_text(draw, ((sx0 + sx1) // 2, sy0), "STACKS", 15, MUTED, anchor="mt", bold=True)
    mx0, my0, mx1, _ = layout.middle
    half = (mx1 - mx0) // 2
    for i, label in enumerate(("DRAW", "DISCARD")):
        draw_text(draw, (mx0 + half // 2 + i * half, my0 + 10), label, 17, MUTED, anchor="mt", bold=True)
    if layout.spare:
        _legend(img, layout.spare)
    return img


# --- everything drawn once, on first use ------------------------------------------------------------------
class _Sprites:
    """The sprites, fixed labels and palette, each drawn the first time a render needs it (and kept; card decks and
    empty tables are cached per style and layout): importing the module draws nothing."""

    @cached_property
    def TITLE_END(self) -> int:
        return GAP + 4 + int(text_width(TITLE, 30))

    @cached_property
    def PILE_BACK(self) -> Image.Image:
        return _back(72, 100)

    @cached_property
    def STACK_BACK(self) -> Image.Image:
        return _back(50, 70, radius=5)

    @cached_property
    def MINI_BACK(self) -> Image.Image:
        return _back(28, 40, radius=4)

    @cached_property
    def BADGE(self) -> Image.Image:
        return _badge(15)

    @cached_property
    def SEAT_BADGE(self) -> dict[tuple[int, bool], Label]:
        return {(seat, on): pill_label(f"P{seat + 1}", 20, INK, YELLOW if on else MUTED, pad=7)
                for seat in range(4) for on in (False, True)}

    @cached_property
    def TO_PLAY(self) -> Label:
        return pill_label("TO PLAY", 17, INK, YELLOW, icon=">")

    @cached_property
    def WINNER(self) -> Label:
        return pill_label("WINNER", 17, INK, YELLOW, icon="*")

    @cached_property
    def ORDINAL(self) -> dict[int, Label]:
        return {n: pill_label({2: "2nd", 3: "3rd"}.get(n, f"{n}th"), 17, WHITE, PANEL_EDGE) for n in range(2, 5)}

    @cached_property
    def NEW_STACK(self) -> Label:
        return pill_label("new!", 15, INK, HIGHLIGHT, pad=6)

    @cached_property
    def PHASE_PILL(self) -> dict[str, Label]:
        return {"final": pill_label("FINAL ROUND", 16, INK, HIGHLIGHT), "over": pill_label("GAME OVER", 16, INK, WHITE)}

    @cached_property
    def HINT(self) -> dict[str, Label]:
        return {h: text_label(h, 18, MUTED) for h in ("merge or done", "place, break or discard", "draw or merge")}

    @cached_property
    def HEAD_ICON(self) -> dict[str, Label]:
        return {">": Label(shape_sprite(">", 20, YELLOW)), "*": Label(shape_sprite("*", 24, YELLOW))}

    @cached_property
    def DRAWN_BY(self) -> Label:
        return text_label("DRAWN BY", 16, YELLOW, bold=True)

    @cached_property
    def NO_MOVES(self) -> Label:
        return text_label("New game: no moves yet", 20, MUTED)

    @cached_property
    def LAST_MOVE(self) -> Label:
        return _last_move_key()

    @cached_property
    def PALETTE(self) -> Image.Image:
        return _palette()


_S = _Sprites()


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
    """The headline and a hint (a key of :attr:`_Sprites.HINT` or "") for the header strip."""
    short = [HEAD.fit(n, 240) for n in names]
    if view["phase"] == "over" and view["result"]:
        return _result_line(view["result"], short), ""
    who = join_names(short[p] for p in view["to_act"])
    if view["phase"] == "final":
        return f"Final merge round: {who}", "merge or done"
    if view["pending"]:
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


# --- drawing -------------------------------------------------------------------------------------
def _card(deck: Deck, code: str, aces_wild: bool, covered: bool = False) -> Image.Image:
    """A card's sprite; ``covered`` when another card of its sequence lies on it (its bottom strip shows)."""
    return deck[(code, aces_wild and code[0] == "A", covered)]


def _fan(img: Image.Image, style: CardStyle, x: int, baseline: int, cards: Sequence[str], aces_wild: bool) -> int:
    """Draw a sequence growing upward from ``baseline`` (bottom card lowest, top card highest and
    whole); returns the fan's top edge."""
    if not cards:
        _paste(img, _empty_slot(style), (x, baseline - style.h))
        return baseline - style.h
    step = style.strip
    if len(cards) > MAX_FAN:
        step = style.strip * (MAX_FAN - 1) // (len(cards) - 1)
    deck = _deck(style)
    top = baseline
    for i, code in enumerate(cards):
        top = baseline - style.h - i * step
        _paste(img, _card(deck, code, aces_wild, covered=i < len(cards) - 1), (x, top))
    return top


def _stack_points(points: Sequence[int]) -> list[str]:
    return [f"+{p}" for p in points]


def _stacks_row(img: Image.Image, draw: ImageDraw.ImageDraw, box: Box, stacks: Sequence[int],
                court: bool, fresh: bool, cards_left: int | None) -> None:
    """Completed stacks on one line: a small face-down pile, "3 stacks", per-stack points in court scoring."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) // 2
    bw, bh = _S.MINI_BACK.size
    layers = min(len(stacks), 4)
    px, py = x0 + 2, cy - bh // 2 + layers
    if not stacks:
        dashed_rect(draw, (px, py, px + bw - 2, py + bh - 2), FAINT, width=2, dash=5, gap=4)
    for i in range(layers):
        _paste(img, _S.MINI_BACK, (px + i * 2, py - i * 2))
    if fresh:
        dashed_rect(draw, (px - 5, py - 2 * layers - 3, px + bw + 2 * layers + 4, py + bh + 3), HIGHLIGHT, width=3,
                    dash=6, gap=3)
    count = len(stacks)
    x = BODY.paste(img, (px + bw + 2 * layers + 14, cy), f"{count} stack" if count == 1 else f"{count} stacks")[2]
    x += 10
    if fresh:
        x = _S.NEW_STACK.paste(img, (x, cy))[2] + 10
    right = x1
    if cards_left is not None:
        right = NOTE.paste(img, (right, cy), f"{cards_left} cards left", anchor="r")[0] - 10
    if court and stacks:
        NOTE.paste(img, (x, cy), NOTE.fit(" ".join(_stack_points(stacks)), right - x))


def _stacks(img: Image.Image, draw: ImageDraw.ImageDraw, box: Box, stacks: Sequence[int],
            court: bool, fresh: bool, cards_left: int | None) -> None:
    """Completed stacks as a small face-down pile with a count badge, in a column; per-stack points in
    court scoring."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) // 2
    bw, bh = _S.STACK_BACK.size
    layers = min(len(stacks), 5)
    px, py = cx - bw // 2 - layers, y0 + 24 + 4 * layers
    if not stacks:
        dashed_rect(draw, (px, py, px + bw - 2, py + bh - 2), FAINT, width=2, dash=6, gap=5)
    for i in range(layers):
        _paste(img, _S.STACK_BACK, (px + i * 2, py - i * 4))
    count_y = py - 4 * max(0, layers - 1) + bh // 2
    _paste(img, _S.BADGE, (cx - _S.BADGE.width // 2, count_y - _S.BADGE.height // 2))
    BADGE_NUMBER.paste(img, (cx, count_y), str(len(stacks)), anchor="m")
    y = py + bh + 18
    if fresh:
        dashed_rect(draw, (px - 7, py - 4 * layers - 5, px + bw + 9, py + bh + 5), HIGHLIGHT, width=3, dash=7,
                    gap=4)
        _S.NEW_STACK.paste(img, (cx, y), anchor="m")
        y += 26
    if court and stacks:
        lines: list[str] = []
        line = ""
        for word in _stack_points(stacks):
            trial = f"{line} {word}".strip()
            if line and NOTE.width(trial) > x1 - x0:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
        if len(lines) > 3:
            lines = lines[:2] + [ELLIPSIS]
        for text in lines:
            NOTE.paste(img, (cx, y), text, anchor="m")
            y += 21
    if cards_left is not None:
        NOTE.paste(img, (cx, y1 - 10), f"{cards_left} left", anchor="m")


def _panel(img: Image.Image, draw: ImageDraw.ImageDraw, layout: Layout, view: BreaksView, seat: int,
           name: str) -> None:
    box = layout.panels[seat]
    x0, y0, x1, y1 = box
    style = layout.style
    player = view["players"][seat]
    options = view["options"]
    result = view["result"]
    acting = seat in view["to_act"]
    winner = result is not None and seat in result["winners"]
    if acting or winner:
        draw.rounded_rectangle(box, radius=14, outline=YELLOW, width=6)

    # name row: seat badge, name, status badge, score
    cy = y0 + 8 + NAME_ROW // 2
    badge = _S.SEAT_BADGE[(seat, acting or winner)].paste(img, (x0 + PAD, cy))
    score_box = NAME.paste(img, (x1 - PAD, cy), _points(player["score"]), anchor="r")
    tag_right = score_box[0] - 14
    tag: Label | None = None
    if acting:
        tag = _S.TO_PLAY
    elif winner:
        tag = _S.WINNER
    elif result:
        tag = _S.ORDINAL.get(result["ranks"][seat])
    tag_left = tag.paste(img, (tag_right, cy), anchor="r")[0] if tag else tag_right
    name_x = badge[2] + 10
    NAME.paste(img, (name_x, cy), NAME.fit(name, tag_left - 12 - name_x))

    # the three slots, and the last move's outline
    last = view["last"]
    touched = {(p, slot) for p, slot in last["touched"]} if last else set()
    baseline = layout.baseline(seat)
    aces_wild = options["aces_wild"]
    for i, cards in enumerate(player["slots"]):
        sx = layout.slot_x(seat, i)
        top = _fan(img, style, sx, baseline, cards, aces_wild)
        last_move = (seat, i) in touched
        if last_move:
            dashed_rect(draw, (sx - 6, top - 6, sx + style.w + 8, baseline + 7), HIGHLIGHT, width=4, dash=12, gap=6)
        _slot_label(i, len(cards), last_move).paste(img, (sx + style.w // 2, baseline + LABEL_ROW // 2 + 4),
                                                     anchor="m")

    left = player["cards_left"] if options["tiebreak"] == "cards_left" else None
    draw_stacks = _stacks_row if layout.stacks_row else _stacks
    draw_stacks(img, draw, layout.stack_box(seat), player["stack_points"], options["scoring"] == "court",
                bool(last and seat in last["stacked"]), left)


def _middle(img: Image.Image, draw: ImageDraw.ImageDraw, layout: Layout, view: BreaksView,
            names: list[str]) -> None:
    mx0, my0, mx1, _ = layout.middle
    cx = (mx0 + mx1) // 2
    half = (mx1 - mx0) // 2
    bw, bh = _S.PILE_BACK.size
    for i, count in enumerate((view["draw_pile"], view["discard_pile"])):
        px = mx0 + half // 2 + i * half
        x, y = px - bw // 2, my0 + 36
        if count:
            layers = min(4, 1 + count // 12)
            for k in range(layers):
                _paste(img, _S.PILE_BACK, (x - layers + k * 2, y + 6 - k * 2))
        else:
            dashed_rect(draw, (x, y + 6, x + bw - 2, y + bh + 4), FAINT, width=2, dash=7, gap=5)
        PILE.paste(img, (px, y + bh + 32), str(count), anchor="m")
    y = my0 + 36 + bh + 64
    NOTE.paste(img, (cx, y), f"recycles left: {view['recycles_left']}", anchor="m")
    pending, seat = view["pending"], view["pending_seat"]
    if pending is None or seat is None:
        return
    style = layout.style
    top = y + 40
    _S.DRAWN_BY.paste(img, (cx, top), anchor="m")
    BODY.paste(img, (cx, top + 26), BODY.fit(names[seat], mx1 - mx0 - 8), anchor="m")
    card_y = top + 50
    x = cx - style.w // 2
    draw.rounded_rectangle((x - 7, card_y - 7, x + style.w + 7, card_y + style.h + 7), radius=style.radius + 5,
                           outline=YELLOW, width=3)
    _paste(img, _card(_deck(style), pending, view["options"]["aces_wild"]), (x, card_y))


def _header(img: Image.Image, view: BreaksView, names: list[str]) -> None:
    cy = HEADER // 2
    x = _S.TITLE_END + 16
    phase = view["phase"]
    if phase in _S.PHASE_PILL:
        x = _S.PHASE_PILL[phase].paste(img, (x, cy))[2]
    headline, hint = _status(view, names)
    right = W - GAP - 4
    if hint:
        right = _S.HINT[hint].paste(img, (right, cy), anchor="r")[0] - 14
    left = HEAD.paste(img, (right, cy), HEAD.fit(headline, right - x - 50), anchor="r")[0]
    _S.HEAD_ICON["*" if phase == "over" else ">"].paste(img, (left - 10, cy), anchor="r")


def _footer(img: Image.Image, layout: Layout, view: BreaksView, names: list[str]) -> None:
    cy = layout.height - FOOTER // 2
    extra = " \u00b7 ".join(b for b in (_options_text(view["options"]), f"move {view['ply']}") if b)
    room = NOTE.paste(img, (W - GAP - 4, cy), extra, anchor="r")[0] - 20
    last = view["last"]
    if not last:
        _S.NO_MOVES.paste(img, (GAP + 4, cy))
        return
    x = _S.LAST_MOVE.paste(img, (GAP + 4, cy))[2] + 12
    text = f"{BODY.fit(names[last['seat']], 260)} {view['last_said']}"
    if last["stacked"]:
        text += " - completed a stack!"
    BODY.paste(img, (x, cy), BODY.fit(text, room - x))


def render(view: BreaksView, names: Sequence[str]) -> bytes:
    """The board for one ``Breaks.view()`` as PNG bytes; ``names`` are display names by seat."""
    seats = len(view["players"])
    layout = LAYOUTS[seats]
    img = _table(layout).copy()
    draw = ImageDraw.Draw(img)
    shown = seat_names(names, seats)
    _header(img, view, shown)
    for seat in range(seats):
        _panel(img, draw, layout, view, seat, shown[seat])
    _middle(img, draw, layout, view, shown)
    _footer(img, layout, view, shown)
    return encode_png(img, _S.PALETTE)


__all__ = ["render"]
