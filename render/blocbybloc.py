"""Bloc by Bloc as a PNG for a phone: a portrait picture 800 px wide, the status on top, the 5×5 city, then the
police and the factions below it in large type.

Input is exactly ``BlocByBloc.view()`` (:mod:`engine.blocbybloc.view`); output is PNG bytes.

Every text is at least 18 px in the 800 px picture (9 px when a phone shows it 400 px wide). Reading it without
relying on colour: every district names its type in words under its name ("STATE", "WORKERS"…), a liberated one
has a dashed border and the word LIBERATED; blocs are chips with the faction's letter and a count (W S N P);
cops a dark chip "3 COPS", a van "VAN" with its damage in words; an occupation a square-cornered chip with its
faction's letter and name; shopping centres are squares marked S (clean), G (graffiti) or X (burned); a barricade
is a striped box with its count on the street or highway link it blocks. Each row of the city is as tall as its
busiest district, so a crowded district grows instead of spilling. The last move, when the view has it, is a line
in words on top and a dashed outline on the districts it touched; every faction the game waits for is tagged in
the faction list. A question only its holder may see (Lookouts, Communiqué, Police Scanner) shows on the public
picture as "waiting for a reaction", without its card, choices or faction (rules, cards.md decision 21).
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial

from PIL import Image, ImageDraw

from engine.blocbybloc.view import AgendaView, BlocView, CellView
from render.common import (
    EXACT,
    GREEN,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PURPLE,
    VERMILLION,
    WHITE,
    YELLOW,
    Canvas,
    Colour,
    Glyphs,
    Kept,
    Label,
    Palette,
    Surface,
    Under,
    dashed_rect,
    encode_png,
    label_cache,
    mix,
    note_text,
    recording_on,
    seat_names,
    text_label,
    wrap_text,
)

W = 800  # px: shown 400 px wide on a phone, so 18 px here is 9 px there (the least a needed text may be)
SMALL, TEXT, BIG, TITLE = 18, 20, 24, 28
MARGIN, GAP = 6, 10
FRAME_W, FRAME_H = 18, 24  # the city's frame: its rows' letters on the left, its columns' numbers above it
GRID_X = MARGIN + FRAME_W  # the city's left edge
TILE = (W - GRID_X - MARGIN - 4 * GAP) // 5  # 146: a district's width
PAD = 6  # inside a district
CHIP_H = SMALL + 10
FACTION_COLOURS: tuple[Colour, ...] = (YELLOW, PURPLE, GREEN, VERMILLION)  # Okabe-Ito: Workers Students ...
LETTERS = "WSNP"
NAMES = ("Workers", "Students", "Neighbors", "Prisoners")
PLAYER_COLOURS: dict[str, Colour] = dict(zip(NAMES, FACTION_COLOURS, strict=True))
SECOND_CUE: dict[str, str] = dict(zip(NAMES, LETTERS, strict=True))  # drawn on every chip of that colour
TYPE_FILL: dict[str, Colour] = {
    "Workers": mix(YELLOW, WHITE, 0.55), "Students": mix(PURPLE, WHITE, 0.6), "Neighbors": mix(GREEN, WHITE, 0.7),
    "Prisoners": mix(VERMILLION, WHITE, 0.7), "State": (246, 246, 246), "Public": (208, 208, 212),
    "Commercial": (196, 218, 238), "Highway": (70, 74, 82),
}
ROAD = (140, 140, 146)
COP = (30, 50, 110)
VAN = (20, 20, 20)
VAN_HIT = (150, 30, 30)
TABLE = (16, 72, 48)
LIBERATED = (30, 120, 60)
BARRICADE = (255, 214, 120)  # a barricade's box (not a faction's yellow: striped, with its count)
MARK = (255, 255, 255)  # the last move's dashed outline (on the dark table, around a district)
FRAME = (215, 225, 215)  # the city's row letters and column numbers (on the dark table)
SHORT = {"start": "Start", "hall": "Hall", "kitchen": "Kitchen", "strike": "Strike", "workshop": "Workshop",
         "center": "Social", "hacker": "Hacker", "garden": "Garden", "cafe": "Cafe", "factory": "Molotov",
         "hideout": "Scavenger"}
DAMAGE = ("VAN", "VAN 1/3", "VAN 2/3")  # hits taken of the three that destroy it
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HIDDEN = ("lookout", "communique")  # questions asked of one card's holder: never named on the public picture
ASKED = {  # what a faction the game waits for is doing, in words for everybody (the prompt says "you")
    "start": "choosing the district of their Faction Start",
    "stop": "deciding whether to allow or stop an action where they have the most blocs",
    "split": "choosing which of their blocs the cops defeat",
    "keep": "choosing the loot card to discard",
    "window": "a Sunrise window is open: playing a loot card or passing",
    "place": "placing a bloc a Medic Kit saved",
    "fever": "placing barricades (Barricade Fever)",
    "squat": "building an occupation for free, or passing (Squatting Wave)",
    "rout": "choosing a cop to send to staging (Police Rout)",
    "burn": "choosing the van that burns (Riot Van Burns)",
    "reveal": "discarding revealed police ops cards, or keeping them",
    "reorder": "putting the revealed police ops cards back in an order",
    "trade": "answering a trade offer",
}
LEGEND = ("Grey bands between districts: streets; a striped box on one: its barricades. Districts: #police "
          "ID and type; difficulty in the ring; M metro; S G X shopping centres (clean, graffiti, burned); an "
          "empty ring: room for an occupation. Blocs and occupations by faction letter W S N P; VAN 1/3: a van "
          "hit once of the three hits that destroy it.")


@cache
def _face(size: int, fill: Colour, bold: bool) -> Glyphs:
    """A face set glyph by glyph (:class:`render.common.Glyphs`): most texts of a board change with the moves (the
    status, the last move, the police's and the factions' lines), and setting each string anew with FreeType, and
    laying out a whole line again for every word a wrap tries, cost more than the rest of the picture."""
    return Glyphs(size, fill, bold)


@lru_cache(maxsize=2048)  # (the texts set with _put come back on every board; a few change with the moves)
def _width(text: str, size: int, bold: bool = False) -> float:
    """The advance of ``text`` (as :func:`render.common.text_width`: the glyphs' advances, one sum)."""
    return _face(size, WHITE, bold).width(text)  # (the advance does not depend on the colour)


def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` cut short with an ellipsis to fit ``max_width`` (as :func:`render.common.fit_text`)."""
    return _face(size, WHITE, bold).fit(text, max_width)


@lru_cache(maxsize=1024)
def _wrap(text: str, size: int, width: float, bold: bool = False) -> tuple[str, ...]:
    """``text`` broken at spaces into lines that fit ``width`` (as :func:`render.common.wrap_text`, measured by
    the glyphs' advances: one sum a trial, not a layout by FreeType); remembered (the legend, the police's and
    the factions' lines come back on every board)."""
    return tuple(wrap_text(text, size, width, bold=bold, face=_face(size, WHITE, bold)))


@label_cache()  # (bounded by bytes: the chips' words and the palette's sample)
def _label(text: str, size: int, fill: Colour, bold: bool) -> Label:
    return text_label(text, size, fill, bold)


def _put(img: Image.Image | Surface, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str = "l",
         bold: bool = False, under: Under = None) -> float:
    """``text`` with its vertical middle at ``xy``, set glyph by glyph; returns where it ends on the right.
    ``under`` as for :meth:`render.common.Canvas.paste` (what was drawn under it: its colour). Placed as a whole
    label of it would be (:meth:`render.common.Label.paste`: centred or right-aligned by its width in whole pixels)."""
    x, y = xy
    wide = math.ceil(_width(text, size, bold))
    if anchor != "l":
        x -= wide / 2 if anchor == "m" else wide
    _face(size, fill, bold).paste(img, (x, y), text, under=under)
    return round(x) + wide


def _lines(img: Surface, x: float, y: float, text: str, size: int, fill: Colour, width: float,
           bold: bool = False, step: int = 0) -> float:
    """``text`` wrapped to ``width`` from the top ``y`` (on the table's colour); returns the y below it."""
    step = step or size + 8
    face = _face(size, fill, bold)
    for line in _wrap(text, size, width, bold):
        face.paste(img, (x, y + step / 2), line)
        y += step
    return y


@lru_cache(maxsize=512)
def chip(text: str, fill: Colour, fg: Colour = INK, square: bool = False, size: int = SMALL) -> Label:
    """A chip with ``text`` on ``fill``, outlined in ink; its corners are transparent (rounded unless ``square``)."""
    label = _label(text, size, fg, True)
    w, h = label.width + 14, size + 10
    image = Image.new("RGBA", (w, h), fill + (0,))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, w - 1, h - 1), radius=4 if square else h // 2, fill=fill + (255,),
                                            outline=INK + (255,), width=2)
    label.paste(image, (7, h / 2))
    return Label(image, 0, text, size)


# --- the city's layout ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Where each district lies: the city's rows as tall as their busiest district."""

    top: int
    rows: tuple[int, ...]  # each row's height

    def box(self, cell: str) -> tuple[int, int, int, int]:
        r, c = "ABCDE".index(cell[0]), int(cell[1]) - 1
        x = GRID_X + c * (TILE + GAP)
        y = self.top + FRAME_H + sum(self.rows[:r]) + r * GAP
        return x, y, x + TILE, y + self.rows[r]

    def centre(self, cell: str) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(cell)
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def bottom(self) -> int:
        return self.top + FRAME_H + sum(self.rows) + 4 * GAP


@lru_cache(maxsize=256)
def _heading(name: str, type_: str, liberated: bool) -> tuple[tuple[str, ...], str]:
    """A district's name in lines (four at most, the last cut if need be), and its kind line."""
    lines = _wrap(name, SMALL, TILE - 2 * PAD, bold=True)
    if len(lines) > 4:
        lines = (*lines[:3], fit_text(" ".join(lines[3:]), SMALL, TILE - 2 * PAD, True))
    return lines, "LIBERATED" if liberated else type_.upper()


def _pieces(c: CellView) -> list[Label]:
    """What a district shows in chips: its difficulty and police ID, then what stands on it now (blocs, police,
    the occupation, shops and the metro)."""
    out = [_ring(str(c["difficulty"])), _label(f"#{c['pid']}", SMALL, INK, False)]
    out += [chip(f"{LETTERS[f]}{n}", FACTION_COLOURS[f]) for f, n in enumerate(c["blocs"]) if n]
    if c["cops"]:
        out.append(chip(f"{c['cops']} COP{'S' if c['cops'] > 1 else ''}", COP, WHITE))
    if c["van"] >= 0:
        out.append(chip(DAMAGE[c["van"]], VAN if c["van"] == 0 else VAN_HIT, WHITE))
    occ = c["occupation"]
    if occ is not None:
        out.append(chip(f"{LETTERS[occ['faction']]} {SHORT[occ['kind']]}", FACTION_COLOURS[occ["faction"]],
                        square=True))
    elif c["circle"]:
        out.append(_ring(""))
    out += [_shop(s) for s in c["shops"]]
    if c["metro"]:
        out.append(chip("M", (30, 30, 30), WHITE, square=True))
    return out


@lru_cache(maxsize=16)
def _ring(digit: str) -> Label:
    """A ring: a district's difficulty (a digit, in a thin ring), or empty (in a thick one): room for an
    occupation."""
    d = CHIP_H + 2
    image = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((1, 1, d - 2, d - 2), outline=INK + (255,), width=2 if digit else 4,
                                  fill=WHITE + (255,))
    if digit:
        _label(digit, TEXT, INK, True).paste(image, (d / 2, d / 2), "m")
    return Label(image, 0, digit, TEXT)


@lru_cache(maxsize=4)
def _shop(state: int) -> Label:
    return chip("SGX"[state], ((255, 255, 255), (250, 120, 200), (20, 20, 20))[state], INK if state < 2 else WHITE,
                square=True)


def _flow(items: list[Label], width: int) -> list[list[Label]]:
    """``items`` in rows that fit ``width``, 4 px apart."""
    rows: list[list[Label]] = [[]]
    x = 0
    for item in items:
        if rows[-1] and x + item.width > width:
            rows.append([])
            x = 0
        rows[-1].append(item)
        x += item.width + 4
    return rows if rows[0] else []


def _needed(c: CellView, key: str | None = None) -> int:
    """How tall a district must be to hold its heading and its pieces (remembered by the district's ``repr``,
    ``key`` when the caller made it already: most districts are the same from one board to the next)."""
    if c["type"] == "Highway":
        return 60
    key = repr(c) if key is None else key
    height = _heights.get(key)
    if height is None:
        height = _heights[key] = _height(c)
        while len(_heights) > 4096:
            _heights.pop(next(iter(_heights)), None)
    return height


_heights: dict[str, int] = {}  # the heights of the districts of the last boards, by the district's repr


def _height(c: CellView) -> int:
    lines, _ = _heading(c["name"], c["type"], c["liberated"])
    rows = _flow(_pieces(c), TILE - 2 * PAD)
    return PAD + 24 * (len(lines) + 1) + 4 + len(rows) * (CHIP_H + 6) + PAD


def _tile(img: Surface, draw: ImageDraw.ImageDraw, c: CellView, box: tuple[int, int, int, int],
          key: str | None = None) -> None:
    """A district in ``box``, its pixels kept (:func:`_kept`) while the same district comes back at the same height
    (most of a board's districts do not change with a move): what lies in its box before it is drawn is the table
    and the ends of the streets at its sides' middles, which it covers whole, so its box's pixels depend on
    nothing but the district and its height. ``key``: the district's ``repr``, when the caller made it already."""
    x0, y0, x1, y1 = box
    _kept(img, (x0, y0, x1 + 1, y1 + 1), ("district", y1 - y0, repr(c) if key is None else key),
          lambda: _draw_tile(img, draw, c, box), partial(_tile_texts, c))  # (a box's right and bottom edges are drawn)


def _tile_texts(c: CellView) -> list[tuple[str, int, bool]]:
    """The texts a district shows (its heading and its chips' words), as drawing it tells the recorder."""
    if c["type"] == "Highway":
        return []
    lines, kind = _heading(c["name"], c["type"], c["liberated"])
    return [(line, SMALL, False) for line in (*lines, kind)] + [
        (item.text, item.size, item.decorative) for item in _pieces(c) if item.text]


def _kept(img: Surface, area: tuple[int, int, int, int], key: tuple[object, ...], draw: Callable[[], None],
          texts: Callable[[], list[tuple[str, int, bool]]], store: Kept[tuple[object, ...], Image.Image] | None = None
          ) -> None:
    """``draw`` what fills ``area``, or on a canvas paste its pixels kept from a board that drew it with the same
    ``key``: for parts whose pixels depend on nothing but the key (the table under them, and what they cover
    whole). ``texts`` are what the kept pixels show, told to the recorder as drawing them tells them. (``repr``
    of a view's part keys it: equal reprs are equal parts; the same part built in another order only misses.)"""
    if not isinstance(img, Canvas):
        draw()
        return
    store = _areas if store is None else store
    full = (id(img.palette), *key)
    kept = store.get(full)
    if kept is None:
        draw()
        store.put(full, img.image.crop(area))
        return
    img._core.paste(kept.im, area)  # (Pillow's own paste: the same pixels, without Image.paste's checks)
    if recording_on():
        for text, size, decorative in texts():
            note_text(text, size, decorative)


def _area_bytes(area: Image.Image) -> int:
    return 200 + area.width * area.height


AREAS_BYTES = 16 << 20  # the parts' pixels kept (a district ~148 x 104-200 bytes, ~28 KB: some 600 of them; 20
# tables at once keep ~400 districts that a move leaves as they were, each drawn again when it is gone: 2 MB held
# 100 and redrew 90 % of the districts, ~1.4 ms a picture)
_areas: Kept[tuple[object, ...], Image.Image] = Kept(AREAS_BYTES, _area_bytes)
BARE_BYTES = 6 << 20  # districts without their pieces, by tile and height (20 tables at once: ~170, 4.5 MB)
_bare: Kept[tuple[object, ...], Image.Image] = Kept(BARE_BYTES, _area_bytes)
CITIES_BYTES = 2 << 20  # whole cities kept (~0.6-1 MB each): the public picture and the mover's of one move share it
_cities: Kept[tuple[object, ...], Image.Image] = Kept(CITIES_BYTES, _area_bytes)


def _draw_tile(img: Surface, draw: ImageDraw.ImageDraw, c: CellView, box: tuple[int, int, int, int]) -> None:
    """A district: its bare box and heading (kept by its tile and height: :func:`_bare_tile`; a highway tile's box
    by its size), then its pieces.
    Every move changes some district's pieces, and with many tables at once their districts do not stay kept
    whole (:data:`_areas`); the bare districts are as many as the tiles and heights, whichever the tables."""
    x0, y0, x1, y1 = box
    fill = TYPE_FILL[c["type"]]
    if c["type"] == "Highway":  # (its links and its name are drawn over it with the city's)
        _kept(img, (x0, y0, x1 + 1, y1 + 1), ("highway", x1 - x0, y1 - y0),
              lambda: draw.rounded_rectangle(box, radius=10, fill=fill), lambda: [], _bare)
        return
    lines, _ = _heading(c["name"], c["type"], c["liberated"])
    _kept(img, (x0, y0, x1 + 1, y1 + 1), ("bare", x1 - x0, y1 - y0, c["name"], c["type"], c["liberated"]),
          partial(_bare_tile, img, draw, c, box), partial(_heading_texts, c), _bare)
    y = y0 + PAD + 24 * len(lines) + 28
    for row in _flow(_pieces(c), TILE - 2 * PAD):
        x = x0 + PAD
        for item in row:
            item.paste(img, (x, y + (CHIP_H + 2) / 2), under=fill)
            x += item.width + 4
        y += CHIP_H + 6


def _heading_texts(c: CellView) -> list[tuple[str, int, bool]]:
    """The texts of a district's heading (its name's lines and its kind), as drawing it tells the recorder."""
    lines, kind = _heading(c["name"], c["type"], c["liberated"])
    return [(line, SMALL, False) for line in (*lines, kind)]


def _bare_tile(img: Surface, draw: ImageDraw.ImageDraw, c: CellView, box: tuple[int, int, int, int]) -> None:
    """A district's box, its border (a liberated one's too) and its heading: what its tile, its state of
    liberation and its box's size decide, whatever stands on it (its pixels depend on nothing else: drawn on the
    table, with whole-pixel corners)."""
    x0, y0, x1, y1 = box
    fill = TYPE_FILL[c["type"]]
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=INK, width=2)
    if c["liberated"]:
        draw.rounded_rectangle(box, radius=10, outline=LIBERATED, width=6)
        dashed_rect(draw, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), WHITE, width=3, dash=8)
    lines, kind = _heading(c["name"], c["type"], c["liberated"])
    y = y0 + PAD
    for line in lines:
        _put(img, (x0 + PAD, y + 12), line, SMALL, INK, "l", True, under=fill)
        y += 24
    _put(img, (x0 + PAD, y + 12), kind, SMALL, LIBERATED if c["liberated"] else mix(INK, fill, 0.25), "l",
         c["liberated"], under=fill)


def _streets(draw: ImageDraw.ImageDraw, view: BlocView, at: Layout, highways: bool) -> None:
    """Streets as grey bands across the gap between the districts they join (drawn before the districts);
    highway links bending across their highway tile (drawn after them)."""
    for conn in view["connections"]:
        if bool(conn["highway"]) != highways:
            continue
        if conn["highway"]:
            ends = [_side(at, conn[k], conn["highway"]) for k in ("a", "b")]
            inner = [_side(at, conn["highway"], conn[k]) for k in ("a", "b")]
            hx, hy = at.centre(conn["highway"])
            mx = (inner[0][0] + inner[1][0]) / 2
            my = (inner[0][1] + inner[1][1]) / 2
            bend = (hx + (mx - hx) * 0.35, hy + (my - hy) * 0.35)
            path = [ends[0], inner[0], bend, inner[1], ends[1]]
            draw.line(path, fill=(215, 215, 215), width=16, joint="curve")
            draw.line(path, fill=(90, 90, 96), width=6, joint="curve")
        else:
            a, b = _side(at, conn["a"], conn["b"]), _side(at, conn["b"], conn["a"])
            if a[0] == b[0]:
                draw.rectangle((a[0] - 8, min(a[1], b[1]) - 5, a[0] + 8, max(a[1], b[1]) + 5), fill=ROAD)
            else:
                draw.rectangle((min(a[0], b[0]) - 5, a[1] - 8, max(a[0], b[0]) + 5, a[1] + 8), fill=ROAD)


def _side(at: Layout, cell: str, towards: str) -> tuple[float, float]:
    """The middle of ``cell``'s side that faces the orthogonal neighbour ``towards``."""
    x0, y0, x1, y1 = at.box(cell)
    dr = "ABCDE".index(towards[0]) - "ABCDE".index(cell[0])
    dc = int(towards[1]) - int(cell[1])
    if dc:
        return (x1 if dc > 0 else x0), (y0 + y1) / 2
    return (x0 + x1) / 2, (y1 if dr > 0 else y0)


def _barricades(img: Surface, draw: ImageDraw.ImageDraw, view: BlocView, at: Layout) -> None:
    for conn in view["connections"]:
        n = conn["barricades"]
        if not n:
            continue
        if conn["highway"]:  # on the highway tile, towards the corner the link turns
            hx, hy = at.centre(conn["highway"])
            inner = [_side(at, conn["highway"], conn[k]) for k in ("a", "b")]
            mx = hx + ((inner[0][0] + inner[1][0]) / 2 - hx) * 0.35
            my = hy + ((inner[0][1] + inner[1][1]) / 2 - hy) * 0.35
        else:
            (ax, ay), (bx, by) = _side(at, conn["a"], conn["b"]), _side(at, conn["b"], conn["a"])
            mx, my = (ax + bx) / 2, (ay + by) / 2
        across = not conn["highway"] and conn["a"][0] == conn["b"][0]  # a street between side-by-side districts
        hw, hh = (11, 20) if across else (22, 11)  # the box lies in the gap, over the districts' padding only
        draw.rounded_rectangle((mx - hw, my - hh, mx + hw, my + hh), radius=5, fill=BARRICADE, outline=INK, width=2)
        for k in (-1, 1):  # hazard stripes either side of the count
            if across:
                draw.line((mx - 9, my + k * 14 + 3, mx + 9, my + k * 14 - 3), fill=INK, width=3)
            else:
                draw.line((mx + k * 15 - 3, my + 9, mx + k * 15 + 3, my - 9), fill=INK, width=3)
        _put(img, (mx, my), str(n), TEXT, INK, "m", True, under=BARRICADE)


# --- who is asked, and the words on top ----------------------------------------------------------------------------
def owing(view: BlocView) -> list[int]:
    """The factions the game waits for now (empty when a question only its holder may see is open and the
    picture is not that holder's)."""
    if view["result"] is not None:
        return []
    if hidden(view):
        return []
    seats = set(view["to_act"])
    factions = view["factions"]
    out: list[int] = []
    for f in view["order"]:
        if factions[f]["seat"] not in seats:
            continue
        mine = [g for g in view["order"] if factions[g]["seat"] == factions[f]["seat"]]
        if len(mine) > 1:  # two players: one seat plays two factions; say which one is asked
            named = [g for g in mine if view["prompt"].startswith(factions[g]["name"] + ":")]
            if view["pending"] == "start":
                named = [g for g in mine if "start" in factions[g]["occupations_mat"]]
            elif view["acting"] in mine and not view["pending"]:
                named = [view["acting"]]
            if named and f not in named:
                continue
        out.append(f)
    return out


def hidden(view: BlocView) -> bool:
    """Whether the open question is one only its holder may see, and this picture is not the holder's."""
    kind = view["pending"]
    one_holder = kind in HIDDEN or (kind == "scan" and "Police Scanner" in view["prompt"])
    return one_holder and not _prompt_is_mine(view)


def _prompt_is_mine(view: BlocView) -> bool:
    """Whether the view's prompt asks a faction of the picture's own seat (a prompt begins with the name of the
    faction it asks: "Workers: ...")."""
    return view["viewer"] is not None and view["viewer"] in view["to_act"] and any(
        fv["seat"] == view["viewer"] and view["prompt"].startswith(fv["name"] + ":") for fv in view["factions"])


def status(view: BlocView, names: list[str]) -> str:
    """What the game waits for, in words for the picture's viewer: the prompt itself in the view of the seat it
    asks, otherwise who is asked and what about (never an option of a one-holder question)."""
    if view["result"] is not None:
        return view["result"]["reason"]
    if hidden(view):
        return "Waiting for a reaction: a question only its card's holder sees."
    factions = view["factions"]
    asked = owing(view)
    if _prompt_is_mine(view):
        return view["prompt"]
    kind = view["pending"]
    if kind == "scan":
        kind = "reorder"
    if not asked:
        return ""
    who = _join([f"the {factions[f]['name']} ({_who(names, factions[f]['seat'])})" for f in asked])
    if not kind and view["acting"] in asked:
        dice = view["dice"]
        left = f"{len(dice)} {'die' if len(dice) == 1 else 'dice'} left ({' '.join(map(str, sorted(dice)))})" \
            if dice else "no dice left"
        return f"The {factions[view['acting']]['name']}' turn ({_who(names, factions[view['acting']]['seat'])}): " \
            f"{left}."
    if not kind and view["offers"]:
        kind = "trade"
    return f"Waiting for {who}: {ASKED.get(kind, 'a decision')}."


def _who(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --- the panel below the city --------------------------------------------------------------------------------------
def _goal(img: Surface, view: BlocView, y: float) -> float:
    """The goal and how far it is (the scenario's, with its name; else the base game's), and the mode when it is
    the semi-cooperative one: in words, so the goal is on every board."""
    x = MARGIN + 8
    width = W - 2 * x
    scenario = view["scenario"]
    semi = view["mode"] == "semi"
    if scenario is None:
        states = [c for c in view["cells"] if c["type"] == "State"]
        held = sum(1 for c in states if c["occupation"] is not None)
        y = _lines(img, x, y, "Goal: Every State district holds an occupation.", SMALL, WHITE, width)
        y = _lines(img, x, y, f"So far: {held} of {len(states)} State districts occupied.", SMALL, YELLOW, width)
    else:
        y = _lines(img, x, y, f"SCENARIO: {scenario['name']}", TEXT, WHITE, width, True)
        y = _lines(img, x, y, f"Goal: {scenario['goal']}", SMALL, WHITE, width)
        if scenario.get("progress"):  # (views stored before it was kept have none)
            y = _lines(img, x, y, f"So far: {scenario['progress']}.", SMALL, YELLOW, width)
    if semi:
        y = _lines(img, x, y, "SEMI-COOPERATIVE: each faction holds a secret agenda; a Win Alone agenda met at the "
                   "end of a night wins for its faction alone.", SMALL, MUTED, width)
    return y + 10


def _agenda_lines(agenda: AgendaView, own: bool) -> list[tuple[str, Colour, bool]]:
    """An agenda in words (its name, both options, the one that wins alone said so): for its holder while the game
    runs, for everybody once it is over."""
    out: list[tuple[str, Colour, bool]] = [((f"Your secret agenda: {agenda['name']}" if own
                                             else f"Agenda: {agenda['name']}"), YELLOW, True)]
    for i, o in enumerate(agenda["options"], 1):
        text = o["text"] if own else re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "they", o["text"]))
        if o["kind"] == "A":
            out.append((f"{i}. WIN ALONE ({o['name']}): {text}", WHITE, True))
        else:
            out.append((f"{i}. Win together: {text}, if the goal is reached", WHITE, False))
    return out


def _police(img: Surface, draw: ImageDraw.ImageDraw, view: BlocView, y: float) -> float:
    x = MARGIN + 8
    _put(img, (x, y + 14), "POLICE MORALE", TEXT, WHITE, "l", True)
    y += 34
    bw = (W - 2 * x - 4 * 6) / 5
    track = [(f"{'» ' if view['morale'] == i + 1 else ''}{name} {(1, 2, 2, 2, 3)[i]}", SMALL, False)
             for i, name in enumerate(("Timid", "Alert", "Bold", "Brutal", "Deadly"))]

    def morale(top: float) -> None:
        for i, (text, size, _) in enumerate(track):
            bx = x + i * (bw + 6)
            current = view["morale"] == i + 1
            draw.rounded_rectangle((bx, top, bx + bw, top + 34), radius=8, fill=(180, 40, 40) if current else PANEL,
                                   outline=WHITE if current else PANEL_EDGE, width=4 if current else 2)
            _put(img, (bx + bw / 2, top + 17), text, size, WHITE if current else MUTED, "m", current,
                 under=(180, 40, 40) if current else PANEL)

    if y == int(y):  # the track on the table (its pixels kept: one paste; the level changes a few times a game)
        _kept(img, (x, int(y), math.ceil(x + 4 * (bw + 6) + bw) + 1, int(y) + 35), ("morale", view["morale"]),
              lambda: morale(y), lambda: track)
    else:
        morale(y)
    y += 44
    width = W - 2 * x
    y = _lines(img, x, y, f"Police ops cards a turn: {view['draws']}. Staging: {view['staging_cops']} cops, "
               f"{view['staging_vans']} van{'s' if view['staging_vans'] != 1 else ''}. Vans destroyed: "
               f"{view['vans_destroyed']}. Barricades left: {view['barricades_left']}.", SMALL, WHITE, width)
    y = _lines(img, x, y, f"Police ops deck {view['police_deck']} · loot deck {view['loot_deck']} · "
               f"difficulty {view['difficulty']}", SMALL, MUTED, width)
    if view["lockdown"] >= 0 and view["result"] is None:
        y = _lines(img, x, y, f"METRO LOCKDOWN until the {view['factions'][view['lockdown']]['name']}' next turn "
                   "ends", SMALL, YELLOW, width, True)
    recent = view["last_police"] or view["police_discard"][::-1]
    if recent:
        title = "This turn's police ops: " if view["last_police"] else "Latest police ops: "
        y = _lines(img, x, y, title + "; ".join(recent[-4:]) + ".", SMALL, WHITE, width)
    return y


def _factions(img: Surface, draw: ImageDraw.ImageDraw, view: BlocView, names: list[str], y: float) -> float:
    x = MARGIN + 8
    _put(img, (x, y + 14), "FACTIONS, IN THIS NIGHT'S TURN ORDER", TEXT, WHITE, "l", True)
    y += 34
    asked = set(owing(view))

    def badge(top: float, f: int) -> None:
        draw.rounded_rectangle((x + 6, top, x + 48, top + 42), radius=8, fill=FACTION_COLOURS[f], outline=INK, width=2)
        _put(img, (x + 27, top + 21), LETTERS[f], BIG, INK, "m", True, under=FACTION_COLOURS[f])

    for f in view["order"]:
        fv = view["factions"][f]
        acting = view["acting"] == f and f in asked and not view["pending"]
        won = view["result"] is not None and view["mode"] == "semi" and f in view["winners"]
        tag = "TURN" if acting else "ASKED" if f in asked else "WON" if won else ""
        top = y
        y += 8
        if y == int(y):  # the faction's letter on the table (its pixels kept: one paste)
            _kept(img, (x + 6, int(y), x + 49, int(y) + 43), ("faction", f), partial(badge, y, f),
                  partial(list, [(LETTERS[f], BIG, False)]))
        else:
            badge(y, f)
        tx = x + 58
        right = W - x - 10
        if tag:
            label = chip(("» " if acting else "") + tag, WHITE, INK)
            label.paste(img, (right - label.width, y + 13))
            right -= label.width + 8
        who = fit_text(f"{fv['name']} · {_who(names, fv['seat'])}", BIG, right - tx, True)
        _put(img, (tx, y + 13), who, BIG, WHITE, "l", True)
        y += 32
        blocs = f"Blocs: {fv['blocs_city']} in the city, {fv['blocs_mat']} on the mat · loot cards: {fv['loot']}"
        y = _lines(img, tx, y, blocs, SMALL, WHITE, W - x - 10 - tx)
        mat = ", ".join(SHORT[o] for o in fv["occupations_mat"]) or "none"
        y = _lines(img, tx, y, f"Occupations on the mat: {mat}", SMALL, MUTED, W - x - 10 - tx)
        for agenda in (a for a in view["agendas"] if a["faction"] == f):  # its holder's, or all once it is over
            for text, colour, bold in _agenda_lines(agenda, view["result"] is None):
                y = _lines(img, tx, y, text, SMALL, colour, W - x - 10 - tx, bold)
        if fv["hand"]:  # the seat's own hand (the view of the seat that plays this faction)
            _put(img, (tx, y + 15), "Your hand:", SMALL, YELLOW, "l", True)
            cards = [chip(f"{i}. {card}", (255, 246, 200), INK, square=True) for i, card in enumerate(fv["hand"], 1)]
            y += 32
            for row in _flow(cards, int(W - x - 10 - tx)):
                cx = tx
                for card in row:
                    card.paste(img, (cx, y + CHIP_H / 2))
                    cx += card.width + 4
                y += CHIP_H + 6
        y += 8
        draw.rounded_rectangle((x - 4, top, W - x + 4, y), radius=10, outline=WHITE if tag else PANEL_EDGE,
                               width=4 if tag else 2)
        if tag:
            dashed_rect(draw, (x, int(top) + 4, W - x, int(y) - 4), WHITE, width=2, dash=10)
        y += 8
    return y


def _dice_and_offers(img: Surface, draw: ImageDraw.ImageDraw, view: BlocView, y: float) -> float:
    x = MARGIN + 8
    if view["dice"] and view["acting"] >= 0:
        _put(img, (x, y + 22), f"{view['factions'][view['acting']]['name']}' dice left:", TEXT, WHITE, "l", True)
        dx = x + 12 + _width(f"{view['factions'][view['acting']]['name']}' dice left:", TEXT, True)
        for d in view["dice"]:
            draw.rounded_rectangle((dx, y + 2, dx + 40, y + 42), radius=8, fill=WHITE, outline=INK, width=2)
            _put(img, (dx + 20, y + 22), str(d), BIG, INK, "m", True, under=WHITE)
            dx += 48
        y += 52
    for o in view["offers"]:  # open trade offers (their cards only in the views of their two sides)
        what = f": {', '.join(o['names'])}" if o["names"] else ""
        by, to = view["factions"][o["by"]]["name"], view["factions"][o["to"]]["name"]
        y = _lines(img, x, y, f"Trade offer #{o['id']}, the {by} to the {to}: {o['cards']} card"
                   f"{'s' if o['cards'] != 1 else ''} for {o['want']} of theirs{what}", SMALL, YELLOW, W - 2 * x)
    return y


def layout(view: BlocView, names: Sequence[str], reprs: Sequence[str] | None = None) -> Layout:
    """Where the city lies in the picture of ``view``: below the title, the status and the last move, each row as
    tall as its busiest district (``reprs``: the districts' ``repr``, when the caller made them already)."""
    shown = seat_names(names, max(f["seat"] for f in view["factions"]) + 1)
    y = 50 + 28 * len(_wrap(status(view, shown), TEXT, W - 2 * (MARGIN + 8), bold=True))
    last = view.get("last")
    if last is not None and last["text"]:
        y += 28 * len(_wrap(f"Last: {last['text']}", TEXT, W - 2 * (MARGIN + 8)))
    keys = reprs if reprs is not None else [repr(c) for c in view["cells"]]
    return Layout(y + 6, tuple(max(104, *(_needed(c, k) for c, k in zip(view["cells"], keys, strict=True)
                                          if c["cell"][0] == r)) for r in "ABCDE"))


def _city(img: Surface, view: BlocView, at: Layout, marked: tuple[str, ...], reprs: Sequence[str]) -> None:
    """The streets, the districts, the highways' links and names, the barricades and the last move's marks: all
    within 4 px of the districts' boxes (on the table, nothing drawn there before)."""
    draw = img.draw
    _streets(draw, view, at, False)
    for c, key in zip(view["cells"], reprs, strict=True):
        _tile(img, draw, c, at.box(c["cell"]), key)
    _streets(draw, view, at, True)
    for c in view["cells"]:
        if c["type"] == "Highway":  # its name over the links that cross it
            x0, y0, x1, _ = at.box(c["cell"])
            # over the links (not one colour): a whole label, as it always was (set glyph by glyph there, the
            # pixels where its bold letters' edges overlap came out different)
            _label("HIGHWAY", SMALL, WHITE, True).paste(img, ((x0 + x1) / 2, y0 + 18), "m", under=EXACT)
    _barricades(img, draw, view, at)
    for r in "ABCDE":  # the frame: moves and the last move name districts by row and column (``A4``)
        _, y0, _, y1 = at.box(f"{r}1")
        _put(img, (MARGIN + FRAME_W / 2 - 2, (y0 + y1) / 2), r, SMALL, FRAME, "m", True)
    for column in "12345":
        x0, _, x1, _ = at.box(f"A{column}")
        _put(img, ((x0 + x1) / 2, at.top + FRAME_H / 2 - 2), column, SMALL, FRAME, "m", True)
    for cell in marked:  # the districts the last move touched: a dashed white outline in the gap around them
        x0, y0, x1, y1 = at.box(cell)
        dashed_rect(draw, (x0 - 4, y0 - 4, x1 + 4, y1 + 4), MARK, width=3, dash=9)


def _city_texts(view: BlocView) -> list[tuple[str, int, bool]]:
    """The texts :func:`_city` sets, in its order."""
    out = [text for c in view["cells"] for text in _tile_texts(c)]
    out += [("HIGHWAY", SMALL, False) for c in view["cells"] if c["type"] == "Highway"]
    out += [(str(conn["barricades"]), TEXT, False) for conn in view["connections"] if conn["barricades"]]
    return out + [(label, SMALL, False) for label in "ABCDE12345"]


# --- the whole picture ---------------------------------------------------------------------------------------------
def render(view: BlocView, names: Sequence[str]) -> bytes:
    """The picture of one ``BlocByBloc.view()`` as PNG bytes; ``names`` are display names by seat.

    Views that make the same picture (the public one and a seat's without cards or questions of its own) are
    drawn once and reused (a small cache keyed by what is drawn)."""
    drawn = dict(view)
    shown = seat_names(names, max(f["seat"] for f in view["factions"]) + 1)
    drawn["viewer"] = view["viewer"] if _own(view) else None
    reprs = [repr(c) for c in view["cells"]]  # (each district's: made once, for this key and the city's parts)
    del drawn["cells"]
    # (equal reprs are equal views; the same view built in another order only misses)
    key = (repr([drawn, shown]), *reprs)
    with _drawing:  # a move's pictures render in threads at once: the second waits for the first, then reuses it
        png = _recent.get(key)
        if png is None:
            png = _draw(view, shown, reprs)
            _recent[key] = png
            while len(_recent) > 8:
                _recent.pop(next(iter(_recent)))
    return png


def _own(view: BlocView) -> bool:
    """Whether the view shows something only its seat sees (a hand, an offer's cards, a question for it)."""
    seat = view["viewer"]
    if seat is None:
        return False
    return (any(f["hand"] for f in view["factions"]) or any(o["names"] for o in view["offers"])
            or seat in view["to_act"] or (bool(view["agendas"]) and view["result"] is None))


_recent: dict[tuple[str, ...], bytes] = {}  # the last pictures drawn, by what they show
_drawing = threading.Lock()
TALL = 3400  # the picture is drawn this tall and cut to what is drawn (a seat with many cards and its agenda: ~2,300)


@cache
def _table() -> Image.Image:
    return Image.new("RGB", (W, TALL), TABLE)


@cache
def _background() -> Image.Image:
    return _board_palette().background(_table())


@cache
def _board_palette() -> Palette:
    """The board's palette, with what drawing in it learns."""
    return Palette(_palette())


def render_rgb(view: BlocView, names: Sequence[str]) -> Image.Image:
    """The picture drawn in RGB, before any palette: the reference :func:`render` is checked against."""
    shown = seat_names(names, max(f["seat"] for f in view["factions"]) + 1)
    img = Surface(_table())
    return img.image.crop((0, 0, W, int(draw_board(view, shown, img)) + 10))


def _draw(view: BlocView, names: list[str], reprs: Sequence[str] | None = None) -> bytes:
    """The picture drawn straight into its palette (:class:`~render.common.Canvas`), its rows down to the board's
    end encoded (straight from the canvas's rows: no crop). The canvas is the last picture's, made empty again
    (:func:`_canvas`)."""
    img = _canvas()
    height = int(draw_board(view, names, img, reprs)) + 10
    png = encode_png(img.image, height=height)
    _done(img, height)  # (not when drawing failed: that canvas is dropped)
    return png


_spare: list[Canvas] = []  # an empty canvas: the last picture's, its pixels made the table's again
_spare_lock = threading.Lock()


@cache
def _table_index() -> int | None:
    """The palette index every pixel of the empty table has (None if it had several)."""
    colours = _background().getcolors(1)
    index = None if colours is None else colours[0][1]
    return index if isinstance(index, int) else None


def _canvas() -> Canvas:
    """An empty canvas: the spare one, or a new one (a copy of the mapped table, 2.7 MB: allocating, clearing and
    copying it cost a tenth of a picture)."""
    with _spare_lock:
        if _spare:
            return _spare.pop()
    return Canvas(_background(), _board_palette(), _table())


def _done(img: Canvas, height: int) -> None:
    """Make ``img``, a picture drawn and encoded ``height`` rows tall, the spare canvas: its pixels set back to the
    table's (one fill of those rows: :func:`draw_board` draws nothing below the end it returns, which the
    picture's rows reach beyond)."""
    index = _table_index()
    if index is None:
        return
    img.image.im.paste(index, (0, 0, W, min(height, TALL)))
    with _spare_lock:
        if not _spare:
            _spare.append(img)


def draw_board(view: BlocView, names: list[str], img: Surface, reprs: Sequence[str] | None = None) -> float:
    """Draw the picture of ``view`` on ``img`` (the empty table, TALL pixels); returns how far down it reaches.
    ``reprs``: its districts' ``repr`` (the keys of their kept pixels), when the caller made them already."""
    reprs = reprs if reprs is not None else [repr(c) for c in view["cells"]]
    draw = img.draw
    x = MARGIN + 8
    _put(img, (x, 24), "BLOC BY BLOC", TITLE, WHITE, "l", True)
    if view["result"] is None:
        night = f"Night {view['night']} · {view['countdown']} night{'s' if view['countdown'] != 1 else ''} left" \
            " (this one too)"
        _put(img, (W - x, 24), night, BIG, WHITE, "r", True)
        y = 50.0
    else:
        won = bool(view["result"]["winners"])
        head = "THE INSURRECTION SUCCEEDS" if won else "THE INSURRECTION FAILS"
        if view["mode"] == "semi":
            winners = [view["factions"][f]["name"].upper() for f in view["winners"]]
            head = ("WON BY THE " + _join(winners)) if winners else "EVERYONE LOSES"
        _put(img, (W - x, 24), fit_text(head, TEXT, W - 2 * x - 200, True), TEXT,
             YELLOW if won else (255, 150, 150), "r", True)
        y = 50.0
    y = _lines(img, x, y, status(view, names), TEXT, YELLOW, W - 2 * x, True, step=28)
    last = view.get("last")
    if last is not None and last["text"]:
        y = _lines(img, x, y, f"Last: {last['text']}", TEXT, WHITE, W - 2 * x, False, step=28)
    at = layout(view, names, reprs)
    marked = tuple(last["cells"]) if last is not None else ()
    key = ("city", at.top, at.rows, *reprs, repr(view["connections"]), marked)
    _kept(img, (0, at.top - 4, W, at.bottom + 5), key, partial(_city, img, view, at, marked, reprs),
          partial(_city_texts, view), _cities)  # (the marks of the last move reach 4 px around the districts)
    y = at.bottom + 10
    draw.line((MARGIN, y, W - MARGIN, y), fill=PANEL_EDGE, width=2)
    y = _goal(img, view, y + 10)
    y = _police(img, draw, view, y) + 10
    y = _factions(img, draw, view, names, y)
    y = _dice_and_offers(img, draw, view, y)
    return _lines(img, x, y + 6, LEGEND, SMALL, MUTED, W - 2 * x)


@cache
def _palette() -> Image.Image:
    """A palette taken once from a drawn sample (every colour the boards use, and their blends), so that each
    board is mapped to it and encoded as a palette PNG, fast and small."""
    sample = Image.new("RGB", (W, 400), TABLE)
    draw = ImageDraw.Draw(sample)
    for i, fill in enumerate(TYPE_FILL.values()):
        draw.rounded_rectangle((i * 90, 0, i * 90 + 80, 60), radius=10, fill=fill, outline=INK, width=2)
        _label("Ag 09 STATE", SMALL, INK, True).paste(sample, (i * 90 + 4, 30))
    for i, colour in enumerate((*FACTION_COLOURS, COP, VAN_HIT, VAN, (250, 120, 200), (255, 246, 200),
                                (180, 40, 40), WHITE)):
        chip("W3 COPS", colour, WHITE if i in (4, 5, 6, 9) else INK).paste(sample, (10 + 70 * i, 100))
    for i, colour in enumerate((WHITE, MUTED, YELLOW, INK, (255, 150, 150))):
        _label("Ag 0123 BLOC", TEXT, colour, True).paste(sample, (10 + 150 * i, 160))
    draw.rectangle((10, 200, 200, 216), fill=ROAD)
    draw.rectangle((220, 200, 300, 216), fill=BARRICADE)
    draw.line((10, 240, 400, 240), fill=(215, 215, 215), width=16)
    draw.line((10, 240, 400, 240), fill=(90, 90, 96), width=6)
    draw.rectangle((10, 260, 200, 300), fill=PANEL, outline=PANEL_EDGE, width=2)
    draw.rectangle((220, 260, 400, 300), outline=LIBERATED, width=6)
    return sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


__all__ = ["FACTION_COLOURS", "PLAYER_COLOURS", "SECOND_CUE", "render", "render_rgb"]
