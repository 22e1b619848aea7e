"""Bloc by Bloc as a PNG: the 5×5 city on the left, the police and the factions on the right.

Input is exactly ``BlocByBloc.view()`` (:mod:`engine.blocbybloc.view`); output is PNG bytes.

Reading it without relying on colour: every tile names its type in words ("STATE", "WORKERS"…) under its name, a
liberated tile has a striped border and the word LIBERATED; blocs are chips with the faction's letter (W S N P)
and a count; cops are a dark badge "3 COPS", a van a box "VAN" with its damage in words; an occupation is a
circle with its faction's letter and a short name; shopping centres are squares marked S (clean), G (graffiti)
or X (burned); a barricade count sits on the street or highway link it blocks.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.blocbybloc.view import BlocView, CellView
from render.common import (
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
    YELLOW,
    Box,
    Colour,
    Label,
    encode_png,
    mix,
    seat_names,
    text_label,
)
from render.common import fit_text as common_fit_text

W, H = 1600, 1000
TILE, GAP = 172, 14
GRID_X, GRID_Y = 24, 76
SIDE_X = GRID_X + 5 * TILE + 4 * GAP + 28
FACTION_COLOURS: tuple[Colour, ...] = ((240, 200, 40), (150, 90, 200), (70, 165, 80), (235, 125, 35))
LETTERS = "WSNP"
TYPE_FILL: dict[str, Colour] = {
    "Workers": (250, 236, 170), "Students": (222, 204, 240), "Neighbors": (200, 232, 196),
    "Prisoners": (250, 214, 180), "State": (246, 246, 246), "Public": (206, 206, 210),
    "Commercial": (190, 214, 236), "Highway": (70, 74, 82),
}
ROAD = (120, 120, 126)
COP = (30, 50, 110)
TABLE = (16, 72, 48)
SHORT = {"start": "Start", "hall": "Hall", "kitchen": "Kitchen", "strike": "Strike", "workshop": "Workshop",
         "center": "Social", "hacker": "Hacker", "garden": "Garden", "cafe": "Cafe", "factory": "Molotov",
         "hideout": "Scavenger"}
DAMAGE = ("VAN", "VAN 1/3", "VAN 2/3")  # hits taken of the three that destroy it
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """:func:`render.common.fit_text`, remembered (the same names and lines come back on every board)."""
    return common_fit_text(text, size, max_width, bold)


@lru_cache(maxsize=4096)
def _label(text: str, size: int, fill: Colour, bold: bool) -> Label:
    return text_label(text, size, fill, bold)


def _put(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str = "l",
         bold: bool = False) -> None:
    _label(text, size, fill, bold).paste(img, xy, anchor=anchor)


def _cell_xy(name: str) -> tuple[int, int]:
    row, col = "ABCDE".index(name[0]), int(name[1]) - 1
    return GRID_X + col * (TILE + GAP), GRID_Y + row * (TILE + GAP)


def _centre(name: str) -> tuple[float, float]:
    x, y = _cell_xy(name)
    return x + TILE / 2, y + TILE / 2


@cache
def _background() -> Image.Image:
    img = Image.new("RGB", (W, H), TABLE)  # flat: a gradient costs a third of the time to encode, for nothing
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((SIDE_X - 12, 12, W - 12, H - 12), radius=14, fill=PANEL, outline=PANEL_EDGE, width=2)
    for i, row in enumerate("ABCDE"):
        _put(img, (GRID_X - 14, GRID_Y + i * (TILE + GAP) + TILE / 2), row, 16, MUTED, "m", True)
    for j in range(5):
        _put(img, (GRID_X + j * (TILE + GAP) + TILE / 2, GRID_Y - 12), str(j + 1), 16, MUTED, "m", True)
    return img


def _chip(text: str, fill: Colour, fg: Colour = INK, size: int = 17) -> Label:
    return _pill(text, size, fg, fill)


@lru_cache(maxsize=512)
def _pill(text: str, size: int, fg: Colour, bg: Colour) -> Label:
    label = _label(text, size, fg, True)
    w, h = label.width + 12, size + 10
    image = Image.new("RGBA", (w, h), bg + (255,))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, outline=INK, width=2, fill=bg)
    label.paste(image, (6, h / 2))
    return Label(image)


@lru_cache(maxsize=512)
def _static_tile(cell: str, name: str, type_: str, pid: int, difficulty: int, liberated: bool, metro: bool,
                 sides: tuple[str, ...]) -> Image.Image:
    """What of a tile changes only with liberation: its face, name, type, difficulty, metro and streets."""
    img = Image.new("RGBA", (TILE, TILE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    box: Box = (0, 0, TILE - 1, TILE - 1)
    fill = TYPE_FILL[type_]
    if type_ == "Highway":
        draw.rounded_rectangle(box, radius=10, fill=fill)
        _put(img, (TILE / 2, TILE / 2), "HIGHWAY", 13, WHITE, "m", True)
        return img
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=INK, width=2)
    c = TILE / 2
    for side in sides:  # street stubs: an open side has a road to the edge; a dead end has none
        dx, dy = STEP[side]
        draw.line((c, c + 10, c + dx * TILE / 2, c + 10 + dy * TILE / 2), fill=ROAD, width=14)
    draw.ellipse((c - 9, c + 1, c + 9, c + 19), fill=ROAD)
    if liberated:
        draw.rounded_rectangle(box, radius=10, outline=(30, 120, 60), width=7)
        for i in range(8, TILE - 8, 14):  # a dashed inner border: liberated without relying on colour
            draw.line((i, 6, i + 7, 6), fill=WHITE, width=3)
            draw.line((i, TILE - 7, i + 7, TILE - 7), fill=WHITE, width=3)
    _put(img, (6, 13), f"#{pid}", 13, INK, "l", True)
    words = name.split()
    first, rest = words[0], " ".join(words[1:])
    while rest and text_width_ok(first + " " + rest.split()[0], TILE - 84):
        first, rest = first + " " + rest.split()[0], " ".join(rest.split()[1:])
    _put(img, (38, 13), fit_text(first, 13, TILE - 80, bold=True), 13, INK, "l", True)
    if rest:
        _put(img, (6, 31), fit_text(rest, 13, TILE - 46, bold=True), 13, INK, "l", True)
    kind = ("LIBERATED " if liberated else "") + type_.upper()
    _put(img, (6, 49), fit_text(kind, 12, TILE - 12), 12, (30, 110, 55) if liberated else mix(INK, fill, 0.3), "l",
         liberated)
    draw.ellipse((TILE - 38, 4, TILE - 4, 38), fill=WHITE, outline=INK, width=2)
    _put(img, (TILE - 21, 21), str(difficulty), 20, INK, "m", True)
    if metro:
        draw.ellipse((6, TILE - 30, 30, TILE - 6), fill=(30, 30, 30))
        _put(img, (18, TILE - 18), "M", 14, WHITE, "m", True)
    return img


def text_width_ok(text: str, width: float) -> bool:
    return fit_text(text, 13, width, bold=True) == text


@lru_cache(maxsize=1024)
def _dressed_tile(cell: str, name: str, type_: str, pid: int, difficulty: int, liberated: bool, metro: bool,
                  sides: tuple[str, ...], shops: tuple[int, ...], occupation: tuple[int, str] | None,
                  circle: bool) -> Image.Image:
    """A tile with what changes now and then: its shopping centres and its occupation (one paste per tile)."""
    img = _static_tile(cell, name, type_, pid, difficulty, liberated, metro, sides).copy()
    if type_ == "Highway":
        return img
    draw = ImageDraw.Draw(img)
    fill = TYPE_FILL[type_]
    for i, shop in enumerate(shops):  # shopping centres, bottom right
        sx, sy = TILE - 26 - i * 24, TILE - 28
        bg = (255, 255, 255) if shop == 0 else (250, 120, 200) if shop == 1 else (20, 20, 20)
        draw.rectangle((sx, sy, sx + 20, sy + 20), fill=bg, outline=INK, width=2)
        _put(img, (sx + 10, sy + 10), "SGX"[shop], 13, INK if shop < 2 else WHITE, "m", True)
    if circle:
        ox, oy, r = TILE / 2, TILE - 26, 21
        if occupation is None:
            draw.ellipse((ox - r, oy - r, ox + r, oy + r), outline=INK, width=3, fill=mix(fill, WHITE, 0.5))
        else:
            faction, kind = occupation
            draw.ellipse((ox - r, oy - r, ox + r, oy + r), outline=INK, width=3, fill=FACTION_COLOURS[faction])
            _put(img, (ox, oy - 5), LETTERS[faction], 18, INK, "m", True)
            _put(img, (ox, oy + 11), SHORT[kind], 10, INK, "m", True)
    return img


def _tile(img: Image.Image, c: CellView) -> None:
    x, y = _cell_xy(c["cell"])
    sides = tuple(side for side in STEP if any(_faces(c["cell"], conn, side) for conn in c["connections"]))
    occ = c["occupation"]
    face = _dressed_tile(c["cell"], c["name"], c["type"], c["pid"], c["difficulty"], c["liberated"], c["metro"],
                         sides, tuple(c["shops"]), (occ["faction"], occ["kind"]) if occ else None, c["circle"])
    img.paste(face, (x, y), face)
    cx0 = x + 6
    for f, n in enumerate(c["blocs"]):  # blocs: chips with the faction's letter and a count
        if n:
            chip = _chip(f"{LETTERS[f]}{n}", FACTION_COLOURS[f], INK, 19)
            chip.paste(img, (cx0, y + 75))
            cx0 += chip.width + 3
    police = []
    if c["cops"]:
        police.append(_chip(f"{c['cops']} COP{'S' if c['cops'] > 1 else ''}", COP, WHITE, 18))
    if c["van"] >= 0:
        police.append(_chip(DAMAGE[c["van"]], (20, 20, 20) if c["van"] == 0 else (150, 30, 30), WHITE, 18))
    px = x + 6
    for chip in police:
        chip.paste(img, (px, y + 107))
        px += chip.width + 3


def _faces(cell: str, conn: str, side: str) -> bool:
    """Whether connection ``conn`` (a street ``B3-C3``, or a link ``C5:SW`` through the highway tile beside
    ``cell``) leaves ``cell`` on ``side``."""
    if ":" in conn:
        other = conn.split(":")[0]
    else:
        a, b = conn.split("-")
        other = b if a == cell else a
    dr = "ABCDE".index(other[0]) - "ABCDE".index(cell[0])
    dc = int(other[1]) - int(cell[1])
    return STEP[side] == (dc, dr)


def _highways(img: Image.Image, draw: ImageDraw.ImageDraw, view: BlocView) -> None:
    for conn in view["connections"]:
        if not conn["highway"]:
            continue
        h = _centre(conn["highway"])
        (ax, ay), (bx, by) = _centre(conn["a"]), _centre(conn["b"])
        bend = (h[0] + ((ax + bx) / 2 - h[0]) * 0.3, h[1] + ((ay + by) / 2 - h[1]) * 0.3)  # towards its corner
        ends = [_edge(h, _centre(conn[k])) for k in ("a", "b")]
        draw.line((ends[0], bend, ends[1]), fill=(210, 210, 210), width=16, joint="curve")
        draw.line((ends[0], bend, ends[1]), fill=(90, 90, 96), width=6, joint="curve")


def _edge(h: tuple[float, float], towards: tuple[float, float]) -> tuple[float, float]:
    """The middle of the highway tile's side that faces ``towards`` (an orthogonal neighbour's centre)."""
    dx, dy = towards[0] - h[0], towards[1] - h[1]
    scale = (TILE / 2) / max(abs(dx), abs(dy))
    return h[0] + dx * scale, h[1] + dy * scale


def _barricades(img: Image.Image, draw: ImageDraw.ImageDraw, view: BlocView) -> None:
    for conn in view["connections"]:
        n = conn["barricades"]
        if not n:
            continue
        if conn["highway"]:  # on the highway tile, towards the corner the link turns
            hx, hy = _centre(conn["highway"])
            (ax, ay), (bx, by) = _centre(conn["a"]), _centre(conn["b"])
            mx, my = hx + ((ax + bx) / 2 - hx) * 0.45, hy + ((ay + by) / 2 - hy) * 0.45
        else:
            (ax, ay), (bx, by) = _centre(conn["a"]), _centre(conn["b"])
            mx, my = (ax + bx) / 2, (ay + by) / 2
        draw.rectangle((mx - 20, my - 12, mx + 20, my + 12), fill=YELLOW, outline=INK, width=2)
        for i in range(3):  # hazard stripes
            draw.line((mx - 16 + i * 12, my + 10, mx - 8 + i * 12, my - 10), fill=INK, width=3)
        _chip(f"{n}", WHITE, INK, 14).paste(img, (mx, my), "m")


def _panel(img: Image.Image, draw: ImageDraw.ImageDraw, view: BlocView, names: list[str]) -> None:
    x, y = SIDE_X + 6, 36
    _put(img, (x, y), "BLOC BY BLOC", 30, WHITE, "l", True)
    y += 46
    if view["result"] is not None:
        won = bool(view["result"]["winners"])
        _put(img, (x, y), "THE INSURRECTION SUCCEEDS" if won else "THE INSURRECTION FAILS", 22,
             YELLOW if won else (255, 150, 150), "l", True)
        y += 32
        _put(img, (x, y), fit_text(view["result"]["reason"], 16, W - x - 30), 16, WHITE)
        y += 34
    else:
        _put(img, (x, y), f"Night {view['night']} · {view['countdown']} night{'s' if view['countdown'] != 1 else ''}"
             f" left (this one included)", 20, WHITE, "l", True)
        y += 34
    _put(img, (x, y), "Police morale", 17, MUTED)
    y += 28
    for i, name in enumerate(("Timid", "Alert", "Bold", "Brutal", "Deadly")):
        bx = x + i * 108
        current = view["morale"] == i + 1
        draw.rounded_rectangle((bx, y - 16, bx + 102, y + 16), radius=8, fill=(180, 40, 40) if current else PANEL,
                               outline=WHITE if current else PANEL_EDGE, width=3 if current else 1)
        _put(img, (bx + 51, y), f"{'» ' if current else ''}{name} {(1, 2, 2, 2, 3)[i]}", 15,
             WHITE if current else MUTED, "m", current)
    y += 34
    _seq(img, (x, y), 15, ["Staging: ", view["staging_cops"], " cops, ", view["staging_vans"],
                           " vans · destroyed vans: ", view["vans_destroyed"], " · barricades left: ",
                           view["barricades_left"]])
    y += 26
    _seq(img, (x, y), 15, ["Police ops deck ", view["police_deck"], " · loot deck ", view["loot_deck"],
                           f" · difficulty {view['difficulty']}"], MUTED)
    y += 26
    if view["lockdown"] >= 0:
        _put(img, (x, y), f"METRO LOCKDOWN until the {view['factions'][view['lockdown']]['name']}' next turn ends",
             15, YELLOW, "l", True)
        y += 26
    recent = view["last_police"] or view["police_discard"][::-1]
    if recent:
        title = "This turn's police ops:" if view["last_police"] else "Latest police ops:"
        _put(img, (x, y), title, 15, MUTED)
        y += 24
        for card in recent[-4:]:
            _put(img, (x + 12, y), fit_text("• " + card, 15, W - x - 40), 15, WHITE)
            y += 22
    y += 10
    _put(img, (x, y), "Factions (turn order this night)", 17, MUTED)
    y += 30
    order = view["order"]
    for f in order:
        fv = view["factions"][f]
        acting = view["acting"] == f
        hand = _wrap([f"{i}. {name}" for i, name in enumerate(fv["hand"], 1)], "Your hand: ", W - x - 80)
        box = (x - 4, y - 18, W - 28, y + 48 + 22 * len(hand))
        draw.rounded_rectangle(box, radius=8, fill=mix(PANEL, FACTION_COLOURS[f], 0.25),
                               outline=WHITE if acting else PANEL_EDGE, width=3 if acting else 1)
        _chip(f"{LETTERS[f]}", FACTION_COLOURS[f]).paste(img, (x + 4, y))
        who = names[fv["seat"]] if 0 <= fv["seat"] < len(names) else ""
        _put(img, (x + 40, y), fit_text(f"{'» ' if acting else ''}{fv['name']} · {who}", 17, 330), 17, WHITE, "l",
             True)
        _seq(img, (x + 380, y), 15, ["blocs ", fv["blocs_city"], " in city, ", fv["blocs_mat"], " on mat"])
        mat = ", ".join(SHORT[o] for o in fv["occupations_mat"]) or "none"
        end = _seq(img, (x + 40, y + 26), 15, ["loot cards: ", fv["loot"], " · "], MUTED)
        _put(img, (end, y + 26), fit_text(f"Mat: {mat}", 15, W - end - 40), 15, MUTED)
        for line in hand:  # the seat's own hands (the view of the seat that plays the faction)
            _put(img, (x + 40, y + 50), line, 15, YELLOW)
            y += 22
        y += 76
    if view["dice"] and view["acting"] >= 0:
        _put(img, (x, y), "Dice:", 18, WHITE, "l", True)
        for i, d in enumerate(view["dice"]):
            dx = x + 70 + i * 52
            draw.rounded_rectangle((dx, y - 20, dx + 40, y + 20), radius=8, fill=WHITE, outline=INK, width=2)
            _put(img, (dx + 20, y), str(d), 22, INK, "m", True)
        y += 40
    for o in view["offers"][-2:]:  # open trade offers (their cards only in the views of their two sides)
        what = f": {', '.join(o['names'])}" if o["names"] else ""
        by, to = view["factions"][o["by"]]["name"], view["factions"][o["to"]]["name"]
        _put(img, (x, y), fit_text(f"Trade offer #{o['id']}, {by} to the {to}: {o['cards']} card"
                                   f"{'s' if o['cards'] != 1 else ''} for {o['want']}{what}", 15, W - x - 30), 15,
             YELLOW)
        y += 22
    if view["result"] is None:
        _put(img, (x, H - 70), fit_text(view["prompt"], 15, W - x - 30), 15, YELLOW)
    _put(img, (x, H - 44), "Tiles: #police ID, difficulty in the ring, M metro, S/G/X shops (clean/graffiti/"
         "burned),", 13, MUTED)
    _put(img, (x, H - 26), "W S N P blocs and occupations by faction, VAN 1/3: a van hit once of the 3 hits that "
         "destroy it", 13, MUTED)


def _wrap(items: list[str], head: str, width: float, most: int = 3) -> list[str]:
    """``items`` after ``head``, two spaces apart, in lines that fit ``width`` (at most ``most``, the last cut)."""
    lines: list[str] = []
    line = head
    for item in items:
        candidate = f"{line}  {item}" if line.strip() and line != head else line + item
        if fit_text(candidate, 15, width) == candidate:
            line = candidate
        else:
            lines.append(line)
            line = "   " + item
    if items:
        lines.append(line)
    if len(lines) > most:
        lines = lines[:most - 1] + [fit_text(" ".join(lines[most - 1:]), 15, width)]
    return lines


def _seq(img: Image.Image, xy: tuple[float, float], size: int, parts: list[str | int],
         fill: Colour = WHITE) -> float:
    """A line set from cached pieces (words, and each number on its own), so a line whose numbers change costs
    no new text rendering; returns where it ends."""
    x, y = xy
    for part in parts:
        label = _label(str(part), size, fill, False)
        label.paste(img, (x, y))
        x += label.width
    return x


def render(view: BlocView, names: Sequence[str]) -> bytes:
    """The city and panel for one ``BlocByBloc.view()`` as PNG bytes; ``names`` are display names by seat.

    A seat's own view adds its hands to the panel; otherwise the views make the same picture, so it is drawn
    once and reused (a small cache keyed by what is drawn)."""
    drawn = {k: v for k, v in view.items() if k != "viewer"}
    key = json.dumps([drawn, list(names)], sort_keys=True)
    with _drawing:  # a move's pictures render in threads at once: the second waits for the first, then reuses it
        png = _recent.get(key)
        if png is None:
            png = _draw(view, names)
            _recent[key] = png
            while len(_recent) > 8:
                _recent.pop(next(iter(_recent)))
    return png


_recent: dict[str, bytes] = {}  # the last pictures drawn, by what they show
_drawing = threading.Lock()


def _draw(view: BlocView, names: Sequence[str]) -> bytes:
    shown = seat_names(names, max(f["seat"] for f in view["factions"]) + 1)
    img = _background().copy()
    draw = ImageDraw.Draw(img)
    for c in view["cells"]:
        _tile(img, c)
    _highways(img, draw, view)
    _barricades(img, draw, view)
    _put(img, (GRID_X, 38), fit_text(view["prompt"] if view["result"] is None else view["result"]["reason"], 17,
                                     SIDE_X - 60), 17, WHITE, "l", True)
    _panel(img, draw, view, shown)
    return encode_png(img, _palette())


@cache
def _palette() -> Image.Image:
    """A palette taken once from a drawn sample (every colour the boards use, and their blends), so that each
    board is mapped to it and encoded as a palette PNG, fast and small."""
    sample = _background().copy()
    draw = ImageDraw.Draw(sample)
    x = 0
    for type_ in TYPE_FILL:
        face = _static_tile("A1", "Sample District", type_, 1, 4, type_ == "Public", True, ("N", "E"))
        sample.paste(face, (x, 0), face)
        x += TILE
    for i, colour in enumerate((*FACTION_COLOURS, COP, (150, 30, 30), (20, 20, 20), WHITE, YELLOW)):
        _chip("W3 COPS", colour, WHITE if i >= 4 else INK).paste(sample, (20 + 120 * i, 300))
        draw.ellipse((20 + 60 * i, 360, 64 + 60 * i, 404), fill=colour, outline=INK, width=3)
    for i, colour in enumerate((WHITE, MUTED, YELLOW, INK, (255, 150, 150))):
        _label("Ag 0123 BLOC", 18, colour, True).paste(sample, (SIDE_X + 10, 400 + 30 * i))
    draw.rectangle((40, 500, 80, 524), fill=YELLOW, outline=INK, width=2)
    draw.line((40, 600, 400, 600), fill=(210, 210, 210), width=16)
    draw.line((40, 600, 400, 600), fill=(90, 90, 96), width=6)
    draw.rectangle((100, 500, 120, 520), fill=(250, 120, 200), outline=INK, width=2)
    return sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


__all__ = ["render"]
