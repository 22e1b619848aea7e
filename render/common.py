"""Shared drawing helpers for the board renderers: fonts, palette, text, shapes, PNG encoding.

Everything here is pure. Text costs far more than pasting a sprite, so renderers build
sprites once, on first use (never at import): :class:`Label` for fixed text and badges, :class:`Glyphs` (a sprite
per character) to set the text that changes, such as names. The only state is a few caches of fonts and
masks; their values are never modified (masks are only read: ``putalpha`` copies them).
"""

from __future__ import annotations

import io
import math
import re
import struct
import threading
import types
import unicodedata
import weakref
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from fontTools.ttLib import TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont, ImagePalette, features

Colour = tuple[int, int, int]
Box = tuple[int, int, int, int]
Point = tuple[float, float]


def hex_colour(code: str) -> Colour:
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


# --- palette -----------------------------------------------------------------------------
# Okabe–Ito, safe for the common colour-vision deficiencies. Meaning is never carried by
# colour alone: every highlight also has a shape, a thickness, a pattern or a word.
BLACK = hex_colour("#000000")
ORANGE = hex_colour("#E69F00")
SKY = hex_colour("#56B4E9")
GREEN = hex_colour("#009E73")
YELLOW = hex_colour("#F0E442")
BLUE = hex_colour("#0072B2")
VERMILLION = hex_colour("#D55E00")
PURPLE = hex_colour("#CC79A7")

WHITE = (255, 255, 255)
INK = (24, 24, 28)  # near-black for text on light surfaces
MUTED = (176, 196, 186)  # secondary text on the felt
FAINT = (120, 150, 136)  # placeholders on the felt
CARD_EDGE = (150, 150, 160)

FELT_CENTRE = (22, 92, 62)
FELT_EDGE = (10, 52, 35)
PANEL = (12, 58, 40)
PANEL_EDGE = (44, 104, 78)
STRIP = (8, 36, 25)


# --- fonts ---------------------------------------------------------------------------------
# Text is set in the first face that has each character (per-glyph fallback), so names come out in their own
# script. The files and their licences are in data/fonts (see its README).
FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"


@dataclass(frozen=True)
class Face:
    file: str
    bold_file: str | None = None  # a real bold face; without one, bold is the regular face with a stroke
    shaped: bool = False  # needs complex shaping (joining, reordering, right to left): Raqm layout


FACES = (
    Face("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),  # Latin (accents too), Greek, Cyrillic
    Face("NotoSansHebrew-Regular.ttf", shaped=True),
    Face("NotoSansArabic-Regular.ttf", shaped=True),
    Face("NotoSansDevanagari-Regular.ttf", shaped=True),
    Face("NotoSansThai-Regular.ttf", shaped=True),
    Face("DroidSansFallback.ttf"),  # Chinese, Japanese, Korean
)
PRIMARY = 0


@cache
def _raqm() -> bool:
    """Whether Pillow has Raqm for shaped scripts (asked on the first font loaded, not at import)."""
    return bool(features.check("raqm"))


@cache
def _coverage(index: int) -> frozenset[int]:
    """The code points face ``index`` has a glyph for (its cmap)."""
    return frozenset(TTFont(FONT_DIR / FACES[index].file, lazy=True).getBestCmap())


@cache
def face_of(ch: str) -> int | None:
    """The first face that can draw ``ch``, or None."""
    code = ord(ch)
    for i in range(len(FACES)):
        if code in _coverage(i):
            return i
    return None


@cache
def _font(index: int, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    face = FACES[index]
    file = face.bold_file if bold and face.bold_file else face.file
    engine = ImageFont.Layout.RAQM if face.shaped and _raqm() else ImageFont.Layout.BASIC
    return ImageFont.truetype(str(FONT_DIR / file), size, layout_engine=engine)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The main face (Noto Sans) at ``size`` pixels; for text in any script use :func:`draw_text`/:func:`text_width`."""
    return _font(PRIMARY, size, bold)


def _stroke(index: int, size: int, bold: bool) -> float:
    """The stroke that makes a face without a bold file read as bold."""
    return bold_stroke(size) if bold and FACES[index].bold_file is None else 0


_JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiners stay inside a run
_MIRROR = str.maketrans("()[]{}<>", ")(][}{><")


ISOLATE, END_ISOLATE = "\u2068", "\u2069"  # Unicode's first-strong isolate and its end: around a name


def isolate(name: str) -> str:
    """``name`` marked as one piece of text for :func:`draw_text`, when it has right-to-left letters: two such
    names side by side ("محمد, נועה") keep their order instead of merging into one right-to-left stretch. The
    marks take no room and are never drawn."""
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        return ISOLATE + name + END_ISOLATE
    return name


def _direction(text: str) -> list[bool]:
    """Per character, whether it is set right to left. The picture's text is English, so everything runs left to
    right except right-to-left letters (Hebrew, Arabic) and whatever lies between two of them (the spaces and
    numbers inside a name). A space between a right-to-left name and the English around it belongs to the
    English: "محمد wins" keeps its space and its order. A name marked by :func:`isolate` is a stretch of its
    own: what lies between two marked names belongs to the English."""
    strong: list[str] = []
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if ch in (ISOLATE, END_ISOLATE):
            strong.append("I")
        elif kind in ("NSM", "BN") and strong:  # a mark or joiner goes with the letter it follows
            strong.append(strong[-1])
        else:
            strong.append("R" if kind in ("R", "AL") else "L" if kind == "L" else "N")
    rtl = [k == "R" for k in strong]
    last_r = None
    for i, kind in enumerate(strong):
        if kind in ("L", "I"):
            last_r = None
        elif kind == "R":
            if last_r is not None:
                for k in range(last_r + 1, i):
                    rtl[k] = True
            last_r = i
    return rtl


@lru_cache(maxsize=4096)  # texts change with every move: bounded
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """``text`` split into (face, substring) runs, each drawn in one face and one direction, in reading (logical)
    order. Spaces, combining marks and joiners stay in the run they follow when they run the same way; a
    character no face has must have been removed by :func:`clean_text`."""
    return tuple((face, part) for face, part, _ in _runs(text))


@lru_cache(maxsize=4096)  # texts change with every move: bounded
def _runs(text: str) -> tuple[tuple[int, str, bool], ...]:
    out: list[tuple[int, str, bool]] = []
    rtl = _direction(text)
    for ch, back in zip(text, rtl, strict=True):
        if ch in (ISOLATE, END_ISOLATE):
            continue  # marks for _direction, never drawn
        index = face_of(ch)
        same_way = bool(out) and out[-1][2] == back
        joins = same_way and (ch.isspace() or ch in _JOINERS or unicodedata.category(ch).startswith("M"))
        if joins or (same_way and index == out[-1][0]):
            out[-1] = (out[-1][0], out[-1][1] + ch, back)
        else:
            out.append((PRIMARY if index is None else index, ch, back))
    return tuple(out)


@lru_cache(maxsize=4096)  # texts change with every move: bounded
def visual_runs(text: str) -> tuple[tuple[int, str, bool], ...]:
    """The runs of ``text`` (face, substring, right to left) in the order they are set from the left: each
    stretch of right-to-left runs is reversed. A right-to-left run in a shaped face is laid out by Raqm; in
    another face (digits, spaces, brackets between Hebrew words) its characters are reversed here, numbers kept
    whole and brackets mirrored."""
    parts = list(_runs(text))
    i = 0
    while i < len(parts):
        if not parts[i][2]:
            i += 1
            continue
        j = i
        while j < len(parts) and parts[j][2]:
            j += 1
        parts[i:j] = parts[i:j][::-1]
        i = j
    out = []
    for face, part, back in parts:
        if back and not (FACES[face].shaped and _raqm()):
            part = "".join(reversed(re.findall(r"\d+(?:[.,:]\d+)*|\D", part))).translate(_MIRROR)
        out.append((face, part, back))
    return tuple(out)


@lru_cache(maxsize=8192)
def _length(index: int, size: int, bold: bool, part: str) -> float:
    """The advance of one run (Pillow lays the run out again at every call: the same names and labels recur in
    every picture)."""
    return _font(index, size, bold).getlength(part)


def text_width(text: str, size: int, bold: bool = False) -> float:
    """The advance of ``text`` as :func:`draw_text` sets it."""
    return sum(_length(i, size, bold, part) for i, part in runs(text))


@dataclass(frozen=True)
class Drawn:
    """One text as a renderer set it: its words, its pixel size in the picture, and whether a player can do
    without it (a decoration, a repeat of what is said bigger elsewhere)."""

    text: str
    size: int
    decorative: bool = False


_drawn: ContextVar[list[Drawn] | None] = ContextVar("render_drawn", default=None)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """While open, every text the renderers put in a picture (drawn, or pasted as a label or glyph by glyph) is
    added to the yielded list: a test reads the sizes to check what a phone shows."""
    seen: list[Drawn] = []
    token = _drawn.set(seen)
    try:
        yield seen
    finally:
        _drawn.reset(token)


def recording_on() -> bool:
    """Whether :func:`recording` is open (a renderer that pastes parts it kept tells their texts only then)."""
    return _drawn.get() is not None


def note_text(text: str, size: int, decorative: bool = False) -> None:
    """Tell :func:`recording` about a text set some other way (a renderer that draws big and shrinks says the
    size the text ends at)."""
    seen = _drawn.get()
    if seen is not None and text.strip():
        seen.append(Drawn(text.replace(ISOLATE, "").replace(END_ISOLATE, ""), size, decorative))


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    size: int,
    fill: Colour,
    anchor: str = "la",
    bold: bool = False,
    decorative: bool = False,
) -> None:
    """Text at ``xy`` with a Pillow anchor, each run in the face that has its characters; ``bold`` uses the bold
    face (or a stroke where a face has none). ``decorative`` marks text a player can do without (see
    :class:`Drawn`)."""
    note_text(text, size, decorative)
    _set(draw, xy, text, size, fill, anchor, bold)


def _set(draw: ImageDraw.ImageDraw, xy: Point, text: str, size: int, fill: Colour, anchor: str, bold: bool) -> None:
    parts = visual_runs(text)
    x, y = xy
    if anchor[0] != "l":
        width = sum(_length(i, size, bold, part) for i, part, _ in parts)
        x -= width / 2 if anchor[0] == "m" else width
    for i, part, back in parts:
        f = _font(i, size, bold)
        stroke = _stroke(i, size, bold)
        shaped_rtl = back and FACES[i].shaped and _raqm()
        draw.text((x, y), part, font=f, fill=fill, anchor="l" + anchor[1], stroke_width=stroke, stroke_fill=fill,
                  direction="rtl" if shaped_rtl else None)
        x += _length(i, size, bold, part)


ELLIPSIS = "…"
_FOLD = str.maketrans({"\u2212": "-", "\u00d7": "x"})


def clean_text(text: str, drop_symbols: bool = False) -> str:
    """``text`` reduced to what the faces can draw: a character no face has is folded to one that can (``ﬁ`` ->
    ``fi``), else becomes ``?`` (letters, digits) or, with ``drop_symbols``, is dropped (emoji…); control
    characters go, runs of space become one space."""
    out = []
    for ch in text.translate(_FOLD):
        category = unicodedata.category(ch)
        if ch.isspace():
            out.append(" ")
        elif (category in ("Cc", "Cs", "Co", "Cn") or (category == "Cf" and ch not in _JOINERS)
              or ch in "\ufe0e\ufe0f" or (drop_symbols and category == "So")):
            continue  # controls, variation selectors; emoji and pictographs in names, even where a face has them
        elif face_of(ch) is not None:
            out.append(ch)
        else:
            folded = "".join(c for c in unicodedata.normalize("NFKD", ch) if face_of(c) is not None and c != " ")
            if folded:
                out.append(folded)
            elif not drop_symbols or category[0] in "LN":
                out.append("?")
    return " ".join("".join(out).split())


def clean_name(name: str, fallback: str) -> str:
    """A display name the faces can draw, without emoji; ``fallback`` when nothing of it is left to draw."""
    text = clean_text(name, drop_symbols=True)
    useful = sum(1 for c in text if c.isalnum())
    if useful == 0 or text.count("?") > useful:
        return fallback
    return text


def seat_names(names: Sequence[str], seats: int) -> list[str]:
    """One clean display name per seat ("Player N" where a name is missing or unusable)."""
    key = tuple(n if isinstance(n, str) else "" for n in names[:seats])
    return list(_seat_names(key, seats))


@lru_cache(maxsize=1024)  # (the same table's names on every board)
def _seat_names(names: tuple[str, ...], seats: int) -> tuple[str, ...]:
    out = []
    for p in range(seats):
        raw = names[p] if p < len(names) else ""
        out.append(isolate(clean_name(raw, f"Player {p + 1}")))
    return tuple(out)


def number_text(value: Any) -> str:
    """A score or count as text: whole numbers without a decimal point; "-" for anything that isn't a number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` truncated with an ellipsis so that it fits in ``max_width`` pixels."""
    if text_width(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def wrap_text(text: str, size: int, width: float, lines: int = 0, bold: bool = False,
              face: Glyphs | None = None) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width`` pixels, each cut with an ellipsis where one word is
    longer than a line; with ``lines``, at most that many, the last one holding the rest, cut short. With ``face``
    (text set by a :class:`Glyphs` of that size and weight), measured by its glyphs' advances: a sum a trial, not a
    layout by FreeType."""
    fits: Callable[[str], bool] = (lambda t: face.width(t) <= width) if face is not None else \
        (lambda t: text_width(t, size, bold) <= width)
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if not line or fits(trial):
            line = trial
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    if lines and len(out) > lines:
        out = out[:lines - 1] + [" ".join(out[lines - 1:])]
    return [face.fit(x, width) if face is not None else fit_text(x, size, width, bold) for x in out]


def bold_stroke(size: int) -> float:
    """Stroke width that makes the regular face read as bold at ``size`` (fractional strokes work)."""
    return max(0.5, size / 32)


@dataclass(frozen=True)
class Label:
    """A pre-drawn RGBA sprite (text, a pill, a badge) placed by its vertical middle."""

    image: Image.Image
    pad: int = 0  # transparent margin left and right of the visible width
    text: str = ""  # the words it shows, for recording(); empty for a badge without words
    size: int = 0
    decorative: bool = False

    @property
    def width(self) -> int:
        return self.image.width - 2 * self.pad

    @property
    def height(self) -> int:
        return self.image.height

    def paste(self, img: Image.Image | Surface, xy: Point, anchor: str = "l", under: Under = None) -> Box:
        """Paste with ``xy`` = (x, middle y); ``anchor`` l/m/r says what x is. Returns the visible box. ``under``
        as for :meth:`Canvas.paste`."""
        x, y = xy
        if anchor == "m":
            x -= self.width / 2
        elif anchor == "r":
            x -= self.width
        left, top = round(x), round(y - self.image.height / 2)
        put(img, self.image, (left - self.pad, top), under)
        if self.text:
            note_text(self.text, self.size, self.decorative)
        return (left, top, left + self.width, top + self.image.height)


def text_label(text: str, size: int, fill: Colour, bold: bool = False, pad: int = 2,
               decorative: bool = False) -> Label:
    """``text`` as a transparent sprite (anti-aliased against any background)."""
    stroke = bold_stroke(size) if bold else 0
    pad += math.ceil(stroke)
    width = math.ceil(text_width(text, size, bold))
    height = int(size * 1.5) + 2 * math.ceil(stroke)
    image = Image.new("RGBA", (width + 2 * pad, height), fill + (0,))
    _set(ImageDraw.Draw(image), (pad, height / 2), text, size, fill, "lm", bold)
    return Label(image, pad, text, size, decorative)


@lru_cache(maxsize=512)
def _string_label(text: str, size: int, fill: Colour, bold: bool) -> Label:
    """A :class:`Glyphs` string set whole: without words of its own (the glyphs note the string they set)."""
    return replace(text_label(text, size, fill, bold, pad=4), text="")


K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """What was made, by key, up to ``budget`` bytes (each value's by ``size``), the least recently used first out:
    for things made from texts that change with the moves, which a count would not bound. Shared by threads; a
    value made twice at once is kept once (:meth:`put` returns the one kept)."""

    def __init__(self, budget: int, size: Callable[[V], int]) -> None:
        self.items: OrderedDict[K, V] = OrderedDict()
        self.budget, self.bytes = budget, 0
        self._size = size
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> V:
        with self._lock:
            old = self.items.get(key)
            if old is not None:
                return old
            self.items[key] = value
            self.bytes += self._size(value)
            while len(self.items) > 1 and self.bytes > self.budget:
                _, gone = self.items.popitem(last=False)
                self.bytes -= self._size(gone)
            return value


def _label_bytes(label: Label) -> int:
    return 4 * label.image.width * label.image.height


def label_cache(budget: int = 2 << 20) -> Callable[[Callable[..., Label]], Callable[..., Label]]:
    """Remember what a function making :class:`Label` s returns, by its arguments, up to ``budget`` bytes of their
    pictures (a :class:`Kept`): for labels of texts that change with the moves."""
    def wrap(make: Callable[..., Label]) -> Callable[..., Label]:
        kept: Kept[tuple[Any, ...], Label] = Kept(budget, _label_bytes)

        @wraps(make)
        def cached(*args: Any) -> Label:
            label = kept.get(args)
            return label if label is not None else kept.put(args, make(*args))

        cached.kept = kept.items  # type: ignore[attr-defined]  # (for tests)
        return cached
    return wrap


def pill_label(text: str, size: int, fg: Colour, bg: Colour, icon: str | None = None, pad: int = 8,
               bold: bool = True, decorative: bool = False) -> Label:
    """A rounded badge with ``text`` and optionally a shape (see :data:`SHAPES`) before it."""
    height = size + pad + 2
    icon_size = int(size * 0.85) if icon else 0
    text_w = math.ceil(text_width(text, size, bold))
    width = pad + (icon_size + 5 if icon else 0) + text_w + pad
    image = Image.new("RGBA", (width, height), bg + (255,))
    if icon:
        image.alpha_composite(shape_sprite(icon, icon_size, fg), (pad, (height - icon_size) // 2))
    _set(ImageDraw.Draw(image), (width - pad - text_w, height / 2), text, size, fg, "lm", bold)
    image.putalpha(rounded_mask((width, height), height // 2))
    return Label(image, 0, text, size, decorative)


GLYPH_CAP = 3000  # characters a Glyphs keeps as sprites; text beyond them is set as a whole string
LINES_BYTES = 8 << 20  # the bytes of the lines every Glyphs face keeps set for a Canvas, together (a line that
# changes every move is soon gone)
_TOUCHED = [0] + [255] * 255  # an alpha's pixels that show anything
PLACED_KEPT = 4096  # texts whose places on a canvas the faces remember, together (see Glyphs.paste)


@dataclass(frozen=True, eq=False)
class _Line:
    """A text's glyphs set for a :class:`Canvas` over one flat colour: its pixels in the palette (an ``L`` picture of
    palette indices) and the ``1`` mask of those it touches, both cut to the box of the pixels it touches (``at``,
    in its line's box: a paste through a mask tests every pixel, and the rows above and below the letters and the
    glyphs' pads touch none); or, over anything else, an RGBA sprite that :meth:`Canvas.paste` blends."""

    size: tuple[int, int]
    tile: Any = None  # Pillow's core images, at hand for the paste
    mask: Any = None
    sprite: Image.Image | None = None
    at: tuple[int, int, int, int] | None = None  # the tile's box in the line's box (None: it touches no pixel)

    @property
    def bytes(self) -> int:
        w, h = self.size
        return 64 + (4 * w * h if self.sprite is not None else w * h + (w + 7) // 8 * h)


class Glyphs:
    """One face (size, colour, weight) as a sprite per character, to set text by pasting.

    FreeType renders every glyph of every string again (~20 µs a character, twice that in bold); pasting a ready
    glyph costs ~8 µs. A character's sprite is made the first time the face sets it, for any character a face
    draws on its own (making a face draws nothing, so a module's faces cost nothing until it renders). Text in a
    script that needs shaping (Arabic joins its letters, Hebrew runs right to left) is set as a whole string with
    :func:`draw_text` instead, and cached.

    On a :class:`Canvas` a text is set straight in the palette: its glyphs' coverage (alpha) is laid on one mask
    where they would be pasted one by one (overlapping coverage adds up as blending the glyphs one after the other
    does), and where the text lies on one flat colour each coverage level is mapped to the palette index of the
    face's colour blended over it at that level (:meth:`Palette.shades`): no RGB picture, no blending, no
    quantising. A line is kept for the next board (in :data:`_LINES`, which every face shares: one budget,
    :data:`LINES_BYTES`), keyed by the face, the palette, the text, where its glyphs fall and the colour under it.
    """

    def __init__(self, size: int, fill: Colour, bold: bool = False) -> None:
        self.size, self.fill, self.bold = size, fill, bold
        self._advance: dict[str, float] = {}
        self._sprites: dict[str, Label] = {}
        self._alpha: dict[str, Any] = {}  # each sprite's coverage, Pillow's core image
        self._wide: dict[str, int] = {}  # each sprite's width
        self._pad = self._high = 0  # every sprite's (one face, one text_label height and pad)
        self._height = int(size * 1.5)
        self._face = (size, fill, bold)  # (its lines' key in the kept lines all faces share)

    def _add(self, c: str) -> bool:
        """Make ``c``'s sprite; False when ``c`` cannot be set on its own."""
        index = face_of(c)
        if index is None or FACES[index].shaped or len(self._advance) >= GLYPH_CAP:
            return False
        if not c.isspace():
            sprite = replace(text_label(c, self.size, self.fill, self.bold, pad=4), text="")  # (noted whole)
            self._alpha[c] = sprite.image.getchannel("A").im
            self._wide[c] = sprite.image.width
            self._pad, self._high = sprite.pad, sprite.image.height
            self._sprites[c] = sprite
        self._advance[c] = _font(index, self.size, self.bold).getlength(c)  # (last: the sprite is there first)
        return True

    def _by_glyph(self, text: str) -> bool:
        advance = self._advance
        return all(c in advance or self._add(c) for c in text)

    def width(self, text: str) -> float:
        if self._by_glyph(text):
            advance = self._advance
            return sum(advance[c] for c in text)
        return text_width(text, self.size, self.bold)

    def fit(self, text: str, max_width: float) -> str:
        """``text`` cut short with an ellipsis so that it fits in ``max_width`` pixels."""
        if self.width(text) <= max_width:
            return text
        lo, hi = 0, len(text)
        while lo < hi:  # longest prefix that fits with the ellipsis
            mid = (lo + hi + 1) // 2
            if self.width(text[:mid].rstrip() + ELLIPSIS) <= max_width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + ELLIPSIS

    def paste(self, img: Image.Image | Surface, xy: Point, text: str, anchor: str = "l", decorative: bool = False,
              under: Under = None) -> Box:
        """Set ``text`` with ``xy`` = (x, middle y), ``anchor`` l/m/r; returns the box it takes. ``decorative``
        as for :func:`draw_text`, ``under`` as for :meth:`Canvas.paste` (on a canvas the text is set whole, its
        glyphs where they would be pasted one by one, found once for a text, an ``x`` and an ``anchor``:
        :data:`_PLACED`)."""
        note_text(text, self.size, decorative)
        x, y = xy
        half = self._height // 2
        if isinstance(img, Canvas):
            key = (self, text, x, anchor)
            placed = _PLACED.get(key)
            if placed is None:
                placed = self._place(text, x, anchor)
                if len(_PLACED) >= PLACED_KEPT:
                    with suppress(KeyError, RuntimeError, StopIteration):  # (another thread's at the same time)
                        del _PLACED[next(iter(_PLACED))]  # (the oldest first out)
                _PLACED[key] = placed
            left, total, start, rel, right = placed
            if rel is None:
                _string_label(text, self.size, self.fill, self.bold).paste(img, (left, y), under=under)
            elif rel:
                self._set(img, text, start, rel, right, y, under)
            return (round(left), round(y) - half, round(left + total), round(y) + half)
        left, total = self._start(text, x, anchor)
        x = left
        if not self._by_glyph(text):
            _string_label(text, self.size, self.fill, self.bold).paste(img, (x, y), under=under)
            return (round(left), round(y) - half, round(left + total), round(y) + half)
        sprites, advance = self._sprites, self._advance
        for c in text:
            sprite = sprites.get(c)
            if sprite is not None:
                sprite.paste(img, (x, y))
            x += advance[c]
        return (round(left), round(y) - half, round(left + total), round(y) + half)

    def _start(self, text: str, x: float, anchor: str) -> tuple[float, float]:
        """Where ``text`` set at ``x`` by ``anchor`` ("l", "m" or "r") begins, and its advance."""
        total = self.width(text)
        if anchor == "m":
            return x - total / 2, total
        if anchor == "r":
            return x - total, total
        return x, total

    def _place(self, text: str, x: float, anchor: str) -> tuple[float, float, int, tuple[int, ...] | None, int]:
        """Where :meth:`paste` sets ``text`` on a canvas at ``x`` by ``anchor``: (its left, its advance, its first
        glyph's left edge, every glyph's left edge from that one, the end of its last pixels); the edges None when
        the text is set as a whole string, empty when it shows no glyph."""
        left, total = self._start(text, x, anchor)
        x = left
        if not self._by_glyph(text):
            return (left, total, 0, None, 0)
        sprites, advance, wide = self._sprites, self._advance, self._wide
        places: list[int] = []
        right = 0
        for c in text:
            if c in sprites:
                at = round(x)
                places.append(at)
                right = max(right, at + wide[c])
            x += advance[c]
        if not places:
            return (left, total, 0, (), 0)
        start = places[0]
        return (left, total, start, tuple(p - start for p in places), right)

    def _set(self, canvas: Canvas, text: str, start: int, rel: tuple[int, ...], right: int, y: float,
             under: Under) -> None:
        """``text``'s glyph sprites with their left edges (without their pad) at ``start`` + ``rel``, the last pixel of
        any before ``right``, centred on ``y``."""
        height = self._high
        left, top = start - self._pad, round(y - height / 2)
        width = right - start
        box = (left, top, left + width, top + height)
        bg = canvas.flat(box, under)
        key = (self._face, id(canvas.palette), text, rel, bg)  # (a palette lives as long as its module)
        line = _LINES.get(key)
        if line is None:
            alpha, wide = self._alpha, self._wide
            glyphs = [c for c in text if c in alpha]
            cover = Image.new("L", (width, height), 0)
            core = cover.im
            for at, c in zip(rel, glyphs, strict=True):  # the fill at each glyph's coverage: as blending one by one
                core.paste(255, (at, 0, at + wide[c], height), alpha[c])
            if bg is None:
                sprite = Image.new("RGBA", (width, height), self.fill + (0,))
                sprite.putalpha(cover)
                line = _Line((width, height), sprite=sprite)
            else:
                inked = cover.getbbox()  # (the pixels its glyphs touch at all)
                if inked is not None:
                    cover = cover.crop(inked)
                    core = cover.im
                line = _Line(cover.size, core.point(canvas.palette.shades(self.fill, bg), "L"),
                             core.point(_TOUCHED, "1"), at=inked)
            line = _LINES.put(key, line)
        if line.sprite is not None:
            canvas.paste(line.sprite, (left, top), under)
        elif line.at is not None:
            x0, y0, x1, y1 = line.at
            canvas._core.paste(line.tile, (left + x0, top + y0, left + x1, top + y1), line.mask)


def _line_bytes(line: _Line) -> int:
    return line.bytes


_LINES: Kept[tuple[Any, ...], _Line] = Kept(LINES_BYTES, _line_bytes)  # every face's lines set for a Canvas
# where each face set each text on a canvas, by (face, text, x, anchor): what Glyphs._place found (the same text at
# the same x falls on the same pixels); up to PLACED_KEPT, the oldest first out (texts that change every move pass)
_PLACED: dict[tuple[Any, ...], tuple[float, float, int, tuple[int, ...] | None, int]] = {}


# --- shapes ----------------------------------------------------------------------------------
def dashed_rect(draw: ImageDraw.ImageDraw, box: Box, fill: Colour | int, width: int = 2, dash: int = 10,
                gap: int = 7) -> None:
    """A rectangle outline made of dashes (the pattern, not just the colour, carries meaning). Each dash is drawn
    as ``draw.rectangle`` fills it, by Pillow's own drawing (its Python wrapper costs more than the dash)."""
    x0, y0, x1, y1 = box
    if isinstance(draw, _InkDraw) and isinstance(fill, tuple):  # a canvas's: the colour's index in its palette
        fill = draw._palette.ink(fill)
    _, ink = draw._getink(None, fill)
    rect = draw.draw.draw_rectangle

    def run(a: int, b: int, fixed: int, horizontal: bool) -> None:
        pos = a
        while pos < b:
            end = min(pos + dash, b)
            if horizontal:
                rect((pos, fixed, end, fixed + width - 1), ink, 1)
            else:
                rect((fixed, pos, fixed + width - 1, end), ink, 1)
            pos = end + gap

    run(x0, x1, y0, True)
    run(x0, x1, y1 - width + 1, True)
    run(y0, y1, x0, False)
    run(y0, y1, x1 - width + 1, False)


def star_points(cx: float, cy: float, r_out: float, r_in: float, points: int = 5) -> list[Point]:
    out = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


# Suit shapes in a unit square, drawn as filled circles and polygons.
ShapeOp = tuple[str, Sequence[float]]


def _heart(flip: bool) -> list[ShapeOp]:
    def y(v: float) -> float:
        return 1 - v if flip else v

    r = 0.255
    ops: list[ShapeOp] = [
        ("ellipse", (0.27 - r, y(0.31) - r, 0.27 + r, y(0.31) + r)),
        ("ellipse", (0.73 - r, y(0.31) - r, 0.73 + r, y(0.31) + r)),
        ("polygon", (0.03, y(0.40), 0.5, y(0.99), 0.97, y(0.40), 0.5, y(0.25))),
    ]
    if flip:  # shift the heart up and narrow the space for a stem
        ops = [(kind, tuple(v - 0.13 if i % 2 else v for i, v in enumerate(vals))) for kind, vals in ops]
    return ops


SHAPES: dict[str, list[ShapeOp]] = {
    "H": _heart(False),
    "S": _heart(True) + [("polygon", (0.5, 0.55, 0.76, 1.0, 0.24, 1.0))],
    "D": [("polygon", (0.5, 0.0, 0.9, 0.5, 0.5, 1.0, 0.1, 0.5))],
    "C": [
        ("ellipse", (0.285, 0.02, 0.715, 0.45)),
        ("ellipse", (0.02, 0.34, 0.45, 0.77)),
        ("ellipse", (0.55, 0.34, 0.98, 0.77)),
        ("polygon", (0.5, 0.3, 0.3, 0.6, 0.5, 0.7, 0.7, 0.6)),
        ("polygon", (0.5, 0.5, 0.76, 1.0, 0.24, 1.0)),
    ],
    "*": [("polygon", tuple(v for p in star_points(0.5, 0.53, 0.52, 0.22) for v in p))],
    ">": [("polygon", (0.12, 0.0, 0.98, 0.5, 0.12, 1.0))],
    "o": [("ellipse", (0.0, 0.0, 1.0, 1.0))],
}


@cache
def shape_mask(shape: str, size: int, supersample: int = 4) -> Image.Image:
    """An anti-aliased ``L`` mask of a suit (``S``, ``H``, ``D``, ``C``), a star (``*``), a play
    triangle (``>``) or a disc (``o``)."""
    big = size * supersample
    mask = Image.new("L", (big, big), 0)
    d = ImageDraw.Draw(mask)
    for kind, vals in SHAPES[shape]:
        pts = [v * big for v in vals]
        if kind == "ellipse":
            d.ellipse(pts, fill=255)
        else:
            d.polygon(list(zip(pts[0::2], pts[1::2], strict=True)), fill=255)
    return mask.resize((size, size), Image.Resampling.LANCZOS)


def shape_sprite(shape: str, size: int, colour: Colour) -> Image.Image:
    """An RGBA sprite of a shape in ``colour`` with anti-aliased edges (a new image each call)."""
    sprite = Image.new("RGBA", (size, size), colour + (0,))
    sprite.putalpha(shape_mask(shape, size))
    return sprite


@cache
def rounded_mask(size: tuple[int, int], radius: int, supersample: int = 4) -> Image.Image:
    """An anti-aliased ``L`` mask of a rounded rectangle filling ``size``."""
    w, h = size
    big = Image.new("L", (w * supersample, h * supersample), 0)
    ImageDraw.Draw(big).rounded_rectangle((0, 0, w * supersample - 1, h * supersample - 1),
                                          radius=radius * supersample, fill=255)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def felt(size: tuple[int, int]) -> Image.Image:
    """A dark table background: a soft radial light over deep green."""
    w, h = size
    glow = Image.radial_gradient("L").resize((w, h), Image.Resampling.BILINEAR)
    return Image.composite(Image.new("RGB", size, FELT_EDGE), Image.new("RGB", size, FELT_CENTRE), glow)


# --- palette images ---------------------------------------------------------------------------
def mix(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` blended towards ``b`` by ``t`` (0..1)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def ramp(a: Colour, b: Colour, steps: int) -> list[Colour]:
    """``steps`` + 1 colours from ``a`` to ``b`` inclusive."""
    return [mix(a, b, i / steps) for i in range(steps + 1)]


def palette_image(colours: Iterable[Colour]) -> Image.Image:
    """A ``P`` image whose palette is ``colours`` (deduplicated, at most 256) for :func:`encode_png`."""
    unique = list(dict.fromkeys(colours))
    if len(unique) > 256:
        raise ValueError(f"{len(unique)} colours do not fit in a PNG palette")
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in unique for v in c], rawmode="RGB")
    return pal


# --- drawing straight into the palette -----------------------------------------------------------
PALETTE_BYTES = 16 << 20  # what a palette keeps of prepared sprites and tiles, in bytes of pixels (per palette)
FLAT_KEPT = 8192  # places whose flatness a palette remembers (texts at places that vary: cleared when full)
EXACT_SEEN = 64  # backgrounds an EXACT paste of one sprite remembers having seen, to keep a tile when one repeats


class Palette:
    """A fixed palette (from :func:`palette_image`) to draw pictures in, with what drawing in it has learnt: each
    sprite in the palette's colours, and each sprite composited over each background it was pasted on.

    A picture drawn in RGB and quantised at the end (:func:`encode_png` with a palette) costs a pass over every
    pixel to map, on top of blending every sprite's pixels in RGB. A :class:`Canvas` starts from a background
    already in the palette and pastes ready tiles of palette indices instead: a sprite's opaque pixels come from
    its own colours mapped once, and its edges (anti-aliasing, shadows) from the tile made the first time the
    sprite met the same background pixels under them. The tiles are exactly what quantising the RGB blend gives,
    except that the background under an edge is the palette's colour rather than the RGB one (a felt gradient
    drawn before quantising): a difference of a few levels on a few pixels, which the render tests bound.

    What is kept, and for how long: a sprite's entry (its mapped colours, masks and tiles) is kept by the sprite's
    ``id`` and holds the sprite only weakly, so it goes when the sprite goes: a sprite made for one board (a line
    of text that changes every move) leaves nothing behind, and one kept by its maker (a ``@cache``'d label, a
    :class:`Glyphs` line) is ready for the next board. The entries are also bounded, oldest first out, by count
    (``sprites`` entries, ``tiles`` tiles) and by ``budget`` bytes of pixels (a tile pasted over the canvas's own
    pixels, :data:`EXACT`, is kept only when the same pixels come back). Shared by the threads that render."""

    def __init__(self, image: Image.Image, sprites: int = 4096, tiles: int = 16384,
                 budget: int = PALETTE_BYTES) -> None:
        self.image = image
        self._lock = threading.Lock()
        self._sprites: OrderedDict[int, _Prepared] = OrderedDict()
        self._dead: deque[tuple[int, weakref.ref[Image.Image]]] = deque()  # sprites gone: entries to drop
        self._ink: dict[Colour, int] = {}
        self._shades: dict[tuple[Colour, Colour], list[int]] = {}
        self._flat: dict[tuple[int, Box], Colour | None] = {}  # by table (kept in _tables) and place
        self._tables: dict[int, Image.Image] = {}
        self._keep = (sprites, tiles, budget)
        self.tiles = 0  # tiles kept, over every entry
        self.bytes = 0  # bytes kept, over every entry (see _Prepared.bytes)

    def quantize(self, image: Image.Image) -> Image.Image:
        """``image`` (RGB) mapped to the nearest colours of the palette, without dithering."""
        return image.quantize(palette=self.image, dither=Image.Dither.NONE)

    def ink(self, colour: Colour) -> int:
        """The index ``colour`` becomes when quantised: what a shape drawn in ``colour`` is drawn with."""
        index = self._ink.get(colour)
        if index is None:
            index = self._ink[colour] = self.quantize(Image.new("RGB", (1, 1), colour)).tobytes()[0]
        return index

    def shades(self, fill: Colour, bg: Colour) -> list[int]:
        """For each coverage 0..255, the index of ``fill`` blended over ``bg`` at that coverage (as ``Image.paste``
        blends through a mask), mapped as :meth:`quantize` maps: how a text in ``fill`` is set on ``bg``."""
        key = (fill, bg)
        lut = self._shades.get(key)
        if lut is None:
            strip = Image.new("RGB", (256, 1), bg)
            strip.paste(fill, (0, 0, 256, 1), Image.frombytes("L", (256, 1), bytes(range(256))))
            lut = self._shades[key] = list(self.quantize(strip).tobytes())
        return lut

    def flat(self, table: Image.Image, box: Box) -> Colour | None:
        """The one colour ``table`` has all over ``box``, or None (remembered by place)."""
        key = (id(table), box)
        try:
            return self._flat[key]
        except KeyError:
            pass
        x0, y0, x1, y1 = box
        w, h = table.size
        colours = table.crop((max(0, x0), max(0, y0), min(w, x1), min(h, y1))).getcolors(1)
        colour = cast(Colour, colours[0][1]) if colours else None
        with self._lock:
            if len(self._flat) >= FLAT_KEPT:
                self._flat.clear()
            self._flat[key] = colour
        return colour

    def prepared(self, sprite: Image.Image) -> _Prepared:
        """``sprite``'s entry: made the first time, kept while the sprite lives (and the bounds allow)."""
        if sprite.mode == "P":  # already in the palette: nothing to make or keep
            return _Prepared(None, sprite, None, False)
        key = id(sprite)
        with self._lock:
            if self._dead:
                self._drop_dead()
            prep = self._sprites.get(key)
            if prep is not None and prep.ref is not None and prep.ref() is sprite:
                self._sprites.move_to_end(key)
                return prep
        prep = _prepare(sprite, self)
        dead = self._dead
        object.__setattr__(prep, "ref", weakref.ref(sprite, lambda ref: dead.append((key, ref))))
        with self._lock:
            old = self._sprites.pop(key, None)
            if old is not None:
                self._forget(old)
            self._sprites[key] = prep
            self.bytes += prep.bytes
            self._trim()
        return prep

    def tile(self, prep: _Prepared, key: tuple[Any, ...]) -> Any:
        """The tile (Pillow's core image) ``prep``'s sprite keeps for ``key`` (what lies under it), or None."""
        tiles = prep.tiles
        if not tiles:
            return None
        with self._lock:
            entry = tiles.get(key)
            return None if entry is None else entry[0]

    def keep(self, prep: _Prepared, key: tuple[Any, ...], tile: Any, size: int,
             context: Image.Image | None = None) -> None:
        """Keep ``tile`` (``size`` bytes) in ``prep``'s entry for ``key``, with the background picture it was made
        over, if any, so that its id stays its own while the entry lives."""
        with self._lock:
            sprite = prep.ref() if prep.ref is not None else None
            if sprite is None or self._sprites.get(id(sprite)) is not prep:
                return  # the entry went meanwhile (or was never kept)
            if key in prep.tiles:
                return
            prep.tiles[key] = (tile, context, size)
            object.__setattr__(prep, "bytes", prep.bytes + size)
            self.bytes += size
            self.tiles += 1
            self._trim()

    def seen(self, prep: _Prepared, below: bytes) -> bool:
        """Whether ``prep``'s sprite was pasted over ``below`` (an EXACT background) before; notes it if not."""
        mark = hash(below)
        with self._lock:
            if mark in prep.seen:
                return True
            if len(prep.seen) >= EXACT_SEEN:
                prep.seen.clear()
            prep.seen.add(mark)
            return False

    def blank(self, prep: _Prepared, sprite: Image.Image) -> Image.Image:
        """``prep``'s mask of the pixels an EXACT paste reads (see :attr:`_Prepared.blank`), made the first time."""
        if prep.blank is not None:
            return prep.blank
        blank = sprite.getchannel("A").point(lambda a: 0 if 0 < a < 255 else 255)
        with self._lock:
            if prep.blank is None:
                object.__setattr__(prep, "blank", blank)
                object.__setattr__(prep, "bytes", prep.bytes + blank.width * blank.height)
                if self._sprites.get(id(sprite)) is prep:
                    self.bytes += blank.width * blank.height
                    self._trim()
        return blank  # (another thread's, made the same way, may be kept instead)

    def _forget(self, prep: _Prepared) -> None:
        self.bytes -= prep.bytes
        self.tiles -= len(prep.tiles)

    def _drop_dead(self) -> None:
        sprites, dead = self._sprites, self._dead
        while dead:
            key, ref = dead.popleft()
            prep = sprites.get(key)
            if prep is not None and prep.ref is ref:
                del sprites[key]
                self._forget(prep)

    def _trim(self) -> None:
        sprites, tiles, budget = self._keep
        while self._sprites and (len(self._sprites) > sprites or self.tiles > tiles or self.bytes > budget):
            _, prep = self._sprites.popitem(last=False)
            self._forget(prep)

    def table_key(self, table: Image.Image) -> int:
        """A number for ``table`` in this palette's keys (the table is kept, so that the number stays its own)."""
        with self._lock:
            self._tables[id(table)] = table
        return id(table)

    def background(self, image: Image.Image) -> Image.Image:
        """An RGB picture (an empty table) in the palette: the first layer of a :class:`Canvas`."""
        return self.quantize(image.convert("RGB"))


@dataclass(frozen=True, eq=False)
class _Prepared:
    """A sprite ready to paste into a palette picture (with Pillow's core images of its tile and mask at hand), and
    the tiles of its edges over the backgrounds it met."""

    ref: weakref.ref[Image.Image] | None  # the sprite (None when not kept: a palette sprite)
    tile: Image.Image  # "P": its colours in the palette, for its opaque pixels
    touched: Image.Image | None  # "1": the pixels it covers at all; None when it covers every pixel of its box
    edges: bool  # whether it has partly transparent pixels (edges, shadows: what a tile is made for)

    def __post_init__(self) -> None:  # Pillow's core images, at hand for each paste
        object.__setattr__(self, "core", self.tile.im)
        object.__setattr__(self, "mask", self.touched.im if self.touched is not None else None)
        w, h = self.tile.size
        size = 256 + w * h + (self.touched is not None) * ((w + 7) // 8) * h
        object.__setattr__(self, "bytes", size)
        if self.touched is not None:
            band = _full_rows(self.touched)
            if band is not None:
                r0, r1 = band
                object.__setattr__(self, "band", band)
                object.__setattr__(self, "ends", (self.mask.crop((0, 0, w, r0)), self.mask.crop((0, r1, w, h))))
                object.__setattr__(self, "parts", self.split(self.core))
                # (its tile again, cut in three, and the ends' masks: counted against the palette's budget too)
                object.__setattr__(self, "bytes", size + w * h + ((w + 7) // 8) * (h - (r1 - r0)))

    def split(self, tile: Any) -> Any:
        """A tile of this sprite as :meth:`put` pastes it: whole, or in three bands of rows (see :attr:`band`)."""
        if self.band is None:
            return tile
        (r0, r1), (w, h) = self.band, self.tile.size
        return (tile.crop((0, 0, w, r0)), tile.crop((0, r0, w, r1)), tile.crop((0, r1, w, h)))

    def put(self, core: Any, parts: Any, x: int, y: int) -> None:
        """Paste a tile split by :meth:`split` into ``core`` at ``x``, ``y``: the band of rows the sprite covers
        whole without a mask (a copy of rows; through a mask Pillow tests every pixel: ten times the cost of a
        card), the rows above and below it through theirs."""
        (r0, r1), (w, h) = self.band, self.tile.size
        top, middle, bottom = parts
        if r0:
            core.paste(top, (x, y, x + w, y + r0), self.ends[0])
        core.paste(middle, (x, y + r0, x + w, y + r1))
        if r1 < h:
            core.paste(bottom, (x, y + r1, x + w, y + h), self.ends[1])

    core: Any = None
    mask: Any = None
    band: Any = None  # the rows (first, end) it covers whole, when they are most of it: pasted without a mask
    ends: Any = None  # the masks of the rows above and below the band
    parts: Any = None  # its opaque tile split around the band
    blank: Image.Image | None = None  # "L": 0 where the sprite is partly transparent, else 255 (made when needed)
    bytes: int = 0  # its pixels, and its tiles' (with their keys)
    tiles: dict[tuple[Any, ...], tuple[Any, Image.Image | None, int]] = field(default_factory=dict)
    seen: set[int] = field(default_factory=set)  # EXACT backgrounds met once (hashes)


def _full_rows(touched: Image.Image) -> tuple[int, int] | None:
    """The longest run of rows ``touched`` covers whole, as (first, end), when it is at least half of them (and
    16): what a paste can copy without a mask."""
    w, h = touched.size
    data = touched.convert("L").tobytes()
    full = b"\xff" * w
    best, start = (0, 0), -1
    for r in range(h + 1):
        if r < h and data[r * w:(r + 1) * w] == full:
            if start < 0:
                start = r
        elif start >= 0:
            if r - start > best[1] - best[0]:
                best = (start, r)
            start = -1
    return best if best[1] - best[0] >= max(16, h // 2) else None


def _prepare(sprite: Image.Image, palette: Palette) -> _Prepared:
    rgb = sprite.convert("RGB")
    if sprite.mode != "RGBA":
        return _Prepared(None, palette.quantize(rgb), None, False)
    alpha = sprite.getchannel("A")
    low, _ = alpha.getextrema()
    touched = None if low == 255 else alpha.point(lambda a: 255 if a else 0).convert("1")
    return _Prepared(None, palette.quantize(rgb), touched, any(alpha.histogram()[1:255]))


Ink = Colour | int  # a colour, or its index in a palette picture


class Surface:
    """A picture being drawn: an RGB copy of ``background``, sprites pasted over their own transparency, shapes
    drawn through :attr:`draw` in :meth:`ink` colours. The renderers draw on a :class:`Canvas`, its palette
    twin; this one is the reference the canvas is checked against (quantised, the two must agree)."""

    def __init__(self, background: Image.Image) -> None:
        self.image = background.copy()
        self.draw = ImageDraw.Draw(self.image)

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def ink(self, colour: Colour) -> Ink:
        return colour

    def paste(self, sprite: Image.Image, xy: tuple[int, int]) -> None:
        """``sprite`` with its top left corner at ``xy`` (parts outside the picture are cut off)."""
        self.image.paste(sprite, xy, sprite if sprite.mode == "RGBA" else None)


EXACT = "exact"  # a paste over what was drawn before it: the pixels under its edges are read (see Canvas.paste)
Under = Colour | str | Image.Image | None


class Canvas(Surface):
    """A picture drawn in a :class:`Palette` over ``table``, the RGB picture its ``background`` was mapped from:
    pastes of RGB or RGBA sprites (blended as ``Image.paste`` with the sprite as its own mask blends them in RGB,
    then mapped), and shapes drawn with :meth:`ink` colours through :attr:`draw` (Pillow's shapes are not
    anti-aliased: the same pixels as in RGB). Text is pasted (:class:`Label`, :class:`Glyphs`), never drawn on a
    canvas: Pillow sets text into a palette picture without anti-aliasing.

    A sprite's opaque pixels need nothing under them; its partly transparent ones (edges, shadows) are blended
    with what :meth:`paste` is told lies under them: by default the empty table (the tile is made from ``table``
    and kept for that place, or for that colour where the table is flat there), a colour (a chip, a pill drawn
    before), a picture of the sprite's size (what lies under it wherever it goes: a card on a card of the same
    fan, whatever their faces), or :data:`EXACT`, the canvas's own pixels, read at each paste."""

    def __init__(self, background: Image.Image, palette: Palette, table: Image.Image) -> None:
        self.image = _png_rows(background)
        self.draw = ImageDraw.Draw(self.image)
        self.palette = palette
        self.table = table
        self._table = palette.table_key(table)
        self.draw = cast(ImageDraw.ImageDraw, _InkDraw(self.draw, palette))
        self._core = self.image.im  # (drawing changes its pixels, never the object)

    def ink(self, colour: Colour) -> Ink:
        return self.palette.ink(colour)

    def flat(self, box: Box, under: Under) -> Colour | None:
        """The one colour under ``box`` (what :meth:`paste` is told lies there, or the table's own where it is flat
        there), or None."""
        if under is None:
            return self.palette.flat(self.table, box)
        return under if isinstance(under, tuple) else None

    def paste(self, sprite: Image.Image, xy: tuple[int, int], under: Under = None) -> None:
        prep = self.palette.prepared(sprite)
        x, y = xy
        box = (x, y, x + sprite.width, y + sprite.height)
        # Pillow's own paste, without Image.paste's checks (the canvas is its own loaded copy; the box has the
        # tile's size; Pillow clips what falls outside): a third of the cost of a small paste
        core = self._core
        if not prep.edges:
            if prep.mask is None:
                core.paste(prep.core, box)
            elif prep.band is None:
                core.paste(prep.core, box, prep.mask)
            else:
                prep.put(core, prep.parts, x, y)
            return
        palette = self.palette
        exact = False
        if isinstance(under, Image.Image):
            key: tuple[Any, ...] = (id(under),)
        elif under == EXACT:
            below = self.image.crop(box)
            below.paste(0, (0, 0, sprite.width, sprite.height), palette.blank(prep, sprite))
            key = (below.tobytes(),)
            exact = True
        elif under is None:
            key = (self._table, x, y)
        else:
            key = (under,)
        tile = palette.tile(prep, key)
        if tile is None:
            flat = None
            if isinstance(under, Image.Image):
                rgb = under.convert("RGB")
            elif exact:
                rgb = self.image.crop(box).convert("RGB")
            elif under is None:
                rgb = self.table.crop(box)
                colours = rgb.getcolors(1)
                if colours:  # the table is one colour there: the same tile serves that colour anywhere
                    flat = (colours[0][1],)
                    tile = palette.tile(prep, flat)
            else:
                rgb = Image.new("RGB", sprite.size, under)
            size = 64 + sprite.width * sprite.height
            if tile is None:
                rgb.paste(sprite, (0, 0), sprite)
                tile = prep.split(palette.quantize(rgb).im)
                if flat is not None:
                    palette.keep(prep, flat, tile, size)
            if exact:  # kept when the same pixels come back (a one-off background would only fill the cache)
                if palette.seen(prep, key[0]):
                    palette.keep(prep, key, tile, size + len(key[0]))
            else:
                palette.keep(prep, key, tile, size, under if isinstance(under, Image.Image) else None)
        if prep.mask is None:
            core.paste(tile, box)
        elif prep.band is None:
            core.paste(tile, box, prep.mask)
        else:
            prep.put(core, tile, x, y)


class _InkDraw:
    """An ``ImageDraw`` on a palette picture that takes RGB colours too: a ``fill`` or ``outline`` given as a colour
    is drawn with its :meth:`Palette.ink` (Pillow would add the colour to the picture's palette instead)."""

    def __init__(self, draw: ImageDraw.ImageDraw, palette: Palette) -> None:
        self._draw, self._palette = draw, palette

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._draw, name)
        if not callable(method):
            return method
        ink = self._palette.ink

        def inked(*args: Any, **kwargs: Any) -> Any:
            fill, outline = kwargs.get("fill"), kwargs.get("outline")
            if fill.__class__ is tuple:
                kwargs["fill"] = ink(fill)
            if outline.__class__ is tuple:
                kwargs["outline"] = ink(outline)
            return method(*args, **kwargs)

        setattr(self, name, inked)  # (found directly from now on)
        return inked


def put(img: Image.Image | Surface, sprite: Image.Image, xy: tuple[int, int], under: Under = None) -> None:
    """Paste ``sprite`` (over its own transparency, if it has any) into a picture or a :class:`Surface`;
    ``under`` says a :class:`Canvas` what lies under it."""
    if isinstance(img, Canvas):
        img.paste(sprite, xy, under)
    elif isinstance(img, Surface):
        img.paste(sprite, xy)
    else:
        img.paste(sprite, xy, sprite if sprite.mode == "RGBA" else None)


# --- encoding --------------------------------------------------------------------------------
_deflate: types.ModuleType
try:  # ISA-L's deflate: the same format, four to five times faster than zlib at level 1 on these pictures
    from isal import isal_zlib as _deflate
except ImportError:  # pragma: no cover - the requirements install it; zlib makes the same kind of file
    _deflate = zlib
DEFLATE = getattr(_deflate, "__name__", "zlib").rpartition(".")[2]


def _chunk(kind: bytes, data: bytes | memoryview) -> bytes:
    crc = _deflate.crc32(data, _deflate.crc32(kind))
    return b"".join((struct.pack(">I", len(data)), kind, data, struct.pack(">I", crc)))


def png_chunk(kind: bytes, data: bytes | memoryview) -> bytes:
    """One chunk of a PNG file: its length, kind, data and CRC."""
    return _chunk(kind, data)


# A picture may be deflated in bands of whole rows (Breaks, Blockers!), each band on its own and kept by what it shows,
# so that a band shown a moment before is neither drawn nor deflated again; the bands follow one another in one zlib
# stream (:func:`zlib_stream`).
ADLER = 65521  # Adler-32's modulus


@dataclass(frozen=True)
class Band:
    """Rows of a picture deflated on their own (a raw deflate stream ended by a sync flush, so that bands follow one
    another in one zlib stream), with the Adler-32 and the length of the rows' bytes (each row after its filter
    byte); ``texts``: the texts its rows set, for a renderer that records them (Blockers!' parts)."""

    data: bytes
    adler: int
    length: int
    texts: tuple[Drawn, ...] | None = None


def deflate_band(rows: memoryview | bytes, texts: tuple[Drawn, ...] | None = None) -> Band:
    """``rows`` deflated as one band (level 1)."""
    packer = _deflate.compressobj(1, _deflate.DEFLATED, -15)
    return Band(packer.compress(rows) + packer.flush(_deflate.Z_SYNC_FLUSH), _deflate.adler32(rows), len(rows), texts)


def adler_after(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from theirs and the second's length (zlib's
    ``adler32_combine``)."""
    rem = length % ADLER
    low = ((first & 0xFFFF) + (second & 0xFFFF) + ADLER - 1) % ADLER
    high = ((first >> 16) + (second >> 16) + rem * ((first & 0xFFFF) + ADLER - 1)) % ADLER
    return (high << 16) | low


def zlib_stream(bands: Sequence[Band]) -> bytes:
    """One zlib stream of the bands' rows, in order: a header, the bands' deflated data, an empty final block and the
    Adler-32 of them all."""
    adler = 1
    for band in bands:
        adler = adler_after(adler, band.adler, band.length)
    return b"".join((b"\x78\x01", *(band.data for band in bands), b"\x03\x00", struct.pack(">I", adler)))


def _png_rows(background: Image.Image) -> Image.Image:
    """A copy of ``background`` (a "P" picture) whose pixels lie in a buffer laid out as a PNG's rows, each after
    its filter byte (0: none), for :func:`encode_png` to deflate as it is: no copy of the picture to add the filter
    bytes. (Pillow maps the buffer with a stride of a row and its filter byte; the picture is drawn into, so it is
    marked writable: its pixels are the buffer's.) A picture of another mode, or empty, is copied as usual."""
    width, height = background.size
    if background.mode != "P" or not width or not height:
        return background.copy()
    background.load()
    rows = bytearray((width + 1) * height + 1)  # (Pillow asks for a whole last stride: one byte more)
    image = Image.frombuffer("P", (width, height), memoryview(rows)[1:], "raw", "P", width + 1, 1)  # type: ignore[arg-type]
    image.readonly = 0
    image.im.paste(background.im, (0, 0, width, height))
    colours = background.im.getpalette("RGB", "RGB")
    image.im.putpalette("RGB", "RGB", colours)  # (and its ImagePalette, clean: nothing to load again)
    image.palette = ImagePalette.ImagePalette("RGB", colours)
    image._png_rows = (image.im, memoryview(rows)[:-1])  # type: ignore[attr-defined]
    return image


def encode_png(image: Image.Image, palette: Image.Image | None = None, level: int = 1,
               height: int | None = None) -> bytes:
    """Encode as PNG, fast. With ``palette`` (from :func:`palette_image`) each pixel is first mapped to
    the nearest palette colour, without dithering: a third of the bytes to filter and deflate, which
    makes encoding several times faster and the file smaller. Flat drawings lose nothing visible
    if the palette holds the anti-aliasing ramps between the colours that meet. An image already drawn in
    palette mode (a :class:`Canvas`) needs no ``palette``; ``level`` is the deflate level (1 is fastest).

    A palette picture is written here, rows unfiltered (filters do not help palette indices) and deflated by
    :data:`DEFLATE`; other modes by Pillow. ISA-L's level 3 is its slowest and no smaller on these pictures than
    its level 1 or 2 (BLOCK's 5-player sheets: 7.3 ms and 74 KB against 1.3 ms and 71 KB), so 2 is its most. A
    :class:`Canvas`'s own picture is deflated straight from its buffer (see :func:`_png_rows`). ``height``: only
    the picture's top rows, that many (a board drawn on a table taller than it needs), as a crop to them would
    give, without the crop's copy."""
    if height is not None and not 0 < height <= image.height:
        raise ValueError(f"height {height} is not within the picture's {image.height} rows")
    if height is not None and (getattr(image, "_png_rows", None) or (None,))[0] is not image.im:
        image, height = image.crop((0, 0, image.width, height)), None  # (not a canvas's own rows: cut it)
    if palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    if image.mode != "P":
        buf = io.BytesIO()
        image.save(buf, format="PNG", optimize=False, compress_level=level)
        return buf.getvalue()
    width, rows_of = image.size
    height = rows_of if height is None else height
    mapped = getattr(image, "_png_rows", None)
    data: bytes | memoryview
    if mapped is not None and mapped[0] is image.im:  # (still its own pixels: nothing replaced them)
        data = memoryview(mapped[1])[:(width + 1) * height]
    else:
        rows = Image.new("P", (width + 1, height), 0)  # each row after its filter byte: 0, none
        rows.paste(image, (1, 0))
        data = rows.tobytes()
    colours = bytes(image.getpalette("RGB") or [0, 0, 0])
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", colours),
        _chunk(b"IDAT", _deflate.compress(data, min(level, 2) if DEFLATE == "isal_zlib" else level)),
        _chunk(b"IEND", b""),
    ))


def join_names(names: Iterable[str]) -> str:
    items = list(names)
    if len(items) <= 2:
        return " & ".join(items)
    return ", ".join(items[:-1]) + " & " + items[-1]
