"""Breaker Blocks as a PNG: the 9×9 board with the Circuit Core on the left, circuits, hands and supplies on the right.

Input is exactly ``BreakerBlocks.view()`` (:mod:`engine.breakerblocks.view`); output is PNG bytes.

Reading it without relying on colour: Player 1's blocks are blue and solid with a "1" in their corner, Player
2's orange and striped with a "2"; a block's plug is a tab on the side facing what it is plugged into, and each of
its inputs a notch on the side it opens to; an open input is a ring with the player's number in the empty cell it
faces; command modules are grey with their name; the last turn's cells have black-and-yellow dashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.base import ResultView
from engine.breakerblocks.board import CIRCUITS, COLUMNS, CORE, SIZE, col_of, parse_cell, row_of
from engine.breakerblocks.view import BlockView, BreakerView
from render.common import (
    BLUE,
    INK,
    MUTED,
    ORANGE,
    PANEL,
    PANEL_EDGE,
    STRIP,
    WHITE,
    YELLOW,
    Box,
    Colour,
    Label,
    dashed_rect,
    draw_text,
    encode_png,
    felt,
    fit_text,
    mix,
    seat_names,
    text_label,
    text_width,
)

W, H = 1200, 800
HEADER, FOOTER = 56, 44
CELL = 72
GRID_X, GRID_Y = 44, HEADER + 24
SIDE_X = GRID_X + SIZE * CELL + 40
SEAT = (BLUE, ORANGE)
SEAT_DARK = (mix(BLUE, INK, 0.45), mix(ORANGE, INK, 0.45))
MODULE_FILL = (200, 200, 196)
CORE_FILL = (40, 44, 52)
BOARD = (26, 70, 52)
GRID = (14, 48, 34)
HAZARD = YELLOW
# A module's name on its tile (the hand lists them in full).
SHORT = {"annihilate": "ANNIH", "automate": "AUTO", "accelerate": "ACCEL", "attenuate": "ATTEN",
         "agitate": "AGIT", "aggravate": "AGGR", "authenticate": "AUTH", "module": "?"}


@lru_cache(maxsize=2048)
def _label(text: str, size: int, fill: Colour, bold: bool) -> Label:
    return text_label(text, size, fill, bold)


def _put(img: Image.Image, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str = "lm",
         bold: bool = False) -> None:
    """Text by its vertical middle (``anchor`` lm / mm / rm), from a cache of drawn labels."""
    _label(text, size, fill, bold).paste(img, xy, anchor=anchor[0])


@cache
def _ring(seat: int) -> Image.Image:
    """An open input's marker: a ring in the player's colour with their number."""
    img = Image.new("RGBA", (34, 34), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((2, 2, 32, 32), outline=SEAT[seat], width=4)
    draw_text(draw, (17, 18), str(seat + 1), 15, WHITE, anchor="mm", bold=True)
    return img


def _box(cell: int) -> Box:
    x = GRID_X + col_of(cell) * CELL
    y = GRID_Y + (SIZE - 1 - row_of(cell)) * CELL
    return (x, y, x + CELL, y + CELL)


def _side(cell: int, other: int) -> str:
    """Which side of ``cell`` faces its neighbour ``other``: n, e, s or w."""
    dc, dr = col_of(other) - col_of(cell), row_of(other) - row_of(cell)
    return {(0, 1): "n", (1, 0): "e", (0, -1): "s", (-1, 0): "w"}[(dc, dr)]


@cache
def _table() -> Image.Image:
    img = felt((W, H))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, W, HEADER), fill=STRIP)
    draw.rectangle((0, H - FOOTER, W, H), fill=STRIP)
    draw_text(draw, (16, HEADER // 2), "BREAKER BLOCKS", 28, WHITE, anchor="lm", bold=True)
    x1, y1 = GRID_X + SIZE * CELL, GRID_Y + SIZE * CELL
    draw.rectangle((GRID_X - 2, GRID_Y - 2, x1 + 2, y1 + 2), fill=GRID)
    for cell in range(SIZE * SIZE):
        a, b, c, d = _box(cell)
        draw.rectangle((a + 1, b + 1, c - 1, d - 1), fill=BOARD)
    for i in range(SIZE):
        cx = GRID_X + i * CELL + CELL // 2
        draw_text(draw, (cx, GRID_Y - 12), COLUMNS[i], 17, MUTED, anchor="mm", bold=True)
        draw_text(draw, (cx, y1 + 12), COLUMNS[i], 17, MUTED, anchor="mm", bold=True)
        cy = GRID_Y + (SIZE - 1 - i) * CELL + CELL // 2
        draw_text(draw, (GRID_X - 18, cy), str(i + 1), 17, MUTED, anchor="mm", bold=True)
    for cell, circuit in CORE.items():
        a, b, c, d = _box(cell)
        draw.rectangle((a + 3, b + 3, c - 3, d - 3), fill=CORE_FILL, outline=WHITE, width=2)
        draw_text(draw, ((a + c) / 2, (b + d) / 2 - 8), CIRCUITS[circuit], 24, WHITE, anchor="mm", bold=True)
        draw_text(draw, ((a + c) / 2, (b + d) / 2 + 16), "core", 13, MUTED, anchor="mm")
    _legend(draw)
    return img


def _legend(draw: ImageDraw.ImageDraw) -> None:
    y = H - FOOTER // 2
    x = 16
    for colour, text in ((SEAT[0], "P1: solid, 1"), (SEAT[1], "P2: striped, 2")):
        draw.rectangle((x, y - 9, x + 18, y + 9), fill=colour, outline=WHITE)
        draw_text(draw, (x + 26, y), text, 15, MUTED, anchor="lm")
        x += 150
    draw.ellipse((x, y - 9, x + 18, y + 9), outline=WHITE, width=2)
    draw_text(draw, (x + 26, y), "open input", 15, MUTED, anchor="lm")
    x += 130
    draw.rectangle((x, y - 9, x + 18, y + 9), fill=MODULE_FILL)
    draw_text(draw, (x + 26, y), "command module", 15, MUTED, anchor="lm")
    x += 165
    dashed_rect(draw, (x, y - 10, x + 20, y + 10), HAZARD, width=3, dash=6, gap=4)
    draw_text(draw, (x + 28, y), "last turn", 15, MUTED, anchor="lm")
    x += 110
    draw.rectangle((x, y - 4, x + 14, y + 4), fill=WHITE)
    draw_text(draw, (x + 22, y), "plug; notches: inputs", 15, MUTED, anchor="lm")


@cache
def _block(kind: str, owner: int, power: int, plug: str, inputs: tuple[str, ...]) -> Image.Image:
    """A block's tile (CELL square, RGBA): owner's colour and pattern (or grey for a module), its number or
    name, a tab on the plug side, notches on its input sides and the owner's number in a corner."""
    size = CELL
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    module = not kind[0].isdigit()
    fill = MODULE_FILL if module else SEAT[owner]
    inset = 6
    draw.rounded_rectangle((inset, inset, size - inset, size - inset), radius=8, fill=fill,
                           outline=SEAT_DARK[owner], width=4 if module else 2)
    if owner == 1 and not module:  # stripes: the second cue for Player 2
        for k in range(-size, size * 2, 12):
            draw.line((k, size - inset, k + size, inset - size), fill=mix(fill, INK, 0.18), width=3)
        draw.rounded_rectangle((inset, inset, size - inset, size - inset), radius=8, outline=SEAT_DARK[owner],
                               width=2)
    mid = size / 2
    tab = {"n": (mid - 10, 0, mid + 10, inset + 2), "s": (mid - 10, size - inset - 2, mid + 10, size),
           "w": (0, mid - 10, inset + 2, mid + 10), "e": (size - inset - 2, mid - 10, size, mid + 10)}
    draw.rectangle(tab[plug], fill=WHITE, outline=INK)
    notch = {"n": (mid - 7, inset, mid + 7, inset + 6), "s": (mid - 7, size - inset - 6, mid + 7, size - inset),
             "w": (inset, mid - 7, inset + 6, mid + 7), "e": (size - inset - 6, mid - 7, size - inset, mid + 7)}
    for side in inputs:
        draw.rectangle(notch[side], fill=INK)
    if module:
        draw_text(draw, (mid, mid + 3), SHORT[kind], 15, INK, anchor="mm", bold=True)
    else:
        draw_text(draw, (mid, mid + 1), str(power), 34, WHITE if owner == 0 else INK, anchor="mm", bold=True)
    if module:  # the owner's number on a disc of their colour
        draw.ellipse((inset + 1, inset + 1, inset + 15, inset + 15), fill=SEAT[owner])
        draw_text(draw, (inset + 8, inset + 9), str(owner + 1), 12, WHITE if owner == 0 else INK, anchor="mm",
                  bold=True)
    else:
        draw_text(draw, (inset + 8, inset + 9), str(owner + 1), 13, WHITE if owner == 0 else INK, anchor="mm",
                  bold=True)
    return img


def _blocks(img: Image.Image, blocks: Sequence[BlockView]) -> None:
    for b in blocks:
        cell, parent = parse_cell(b["cell"]), parse_cell(b["parent"])
        inputs = tuple(sorted(_side(cell, parse_cell(t)) for t in b["inputs"]))
        sprite = _block(b["kind"], b["owner"], b["power"], _side(cell, parent), inputs)
        x, y, _, _ = _box(cell)
        img.paste(sprite, (x, y), sprite)


def _open_inputs(img: Image.Image, open_inputs: list[list[str]]) -> None:
    both = set(open_inputs[0]) & set(open_inputs[1])
    for seat, cells in enumerate(open_inputs):
        for name in cells:
            a, b, c, d = _box(parse_cell(name))
            if name in both:  # two rings side by side
                a, c = (a, (a + c) // 2 + 4) if seat == 0 else ((a + c) // 2 - 4, c)
            ring = _ring(seat)
            img.paste(ring, (round((a + c) / 2 - 17), round((b + d) / 2 - 17)), ring)


def _last(draw: ImageDraw.ImageDraw, cells: list[str]) -> None:
    for name in dict.fromkeys(cells):
        a, b, c, d = _box(parse_cell(name))
        draw.rectangle((a, b, c, d), outline=INK, width=5)
        dashed_rect(draw, (a + 1, b + 1, c - 1, d - 1), HAZARD, width=3, dash=8, gap=5)


def _result_line(result: ResultView, names: list[str]) -> str:
    winners = result["winners"]
    if len(winners) == 1:
        return f"{names[winners[0]]} wins: {result['reason']}"
    return f"Draw: {result['reason']}"


def _header(img: Image.Image, view: BreakerView, names: list[str]) -> None:
    if view["result"]:
        text = _result_line(view["result"], names)
    else:
        turn = names[view["turn"]]
        if view["pending"]:
            text = f"{turn}: {view['prompt']}"
        else:
            left = view["actions_left"]
            text = f"{turn} to play · {left} action{'s' * (left != 1)} left"
    right = W - 16
    _put(img, (right, HEADER // 2), fit_text(text, 22, right - 330, bold=True), 22, YELLOW, anchor="rm",
              bold=True)


def _side_panel(img: Image.Image, draw: ImageDraw.ImageDraw, view: BreakerView, names: list[str]) -> None:
    x0, x1 = SIDE_X, W - 16
    y = GRID_Y - 6
    # circuits
    draw.rounded_rectangle((x0, y, x1, y + 150), radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
    _put(img, (x0 + 14, y + 18), "CIRCUITS", 16, MUTED, anchor="lm", bold=True)
    _put(img, (x1 - 14, y + 18), f"round {view['round']} of {view['max_rounds']}", 15, MUTED, anchor="rm")
    for i, circuit in enumerate(view["circuits"]):
        cy = y + 52 + i * 32
        p1, p2 = circuit["power"]
        _put(img, (x0 + 16, cy), CIRCUITS[i], 20, WHITE, anchor="lm", bold=True)
        _put(img, (x0 + 70, cy), f"P1 {p1}  vs  {p2} P2", 20, WHITE, anchor="lm")
        who = circuit["controller"]
        label = "tied" if who is None else f"P{who + 1} controls"
        colour = MUTED if who is None else SEAT[who]
        if who is not None:
            draw.rounded_rectangle((x1 - 150, cy - 12, x1 - 14, cy + 12), radius=12, fill=colour)
        _put(img, (x1 - 82, cy), label, 16, WHITE if who != 1 else INK, anchor="mm", bold=True)
    y += 162
    # players: name, hand, supply
    for seat in (0, 1):
        h = 196
        acting = view["result"] is None and view["turn"] == seat
        draw.rounded_rectangle((x0, y, x1, y + h), radius=12, fill=PANEL, outline=YELLOW if acting else PANEL_EDGE,
                               width=5 if acting else 2)
        draw.rectangle((x0 + 14, y + 12, x0 + 34, y + 32), fill=SEAT[seat], outline=WHITE)
        _put(img, (x0 + 24, y + 22), str(seat + 1), 14, WHITE if seat == 0 else INK, anchor="mm", bold=True)
        tag = "  (to play)" if acting else ""
        _put(img, (x0 + 44, y + 22), fit_text(names[seat] + tag, 20, x1 - x0 - 60, bold=True), 20, WHITE,
                  anchor="lm", bold=True)
        _put(img, (x0 + 14, y + 52), "hand", 15, MUTED, anchor="lm", bold=True)
        fresh = list(view["fresh"][seat])
        x = x0 + 60
        row_y = y + 52
        for kind in view["hands"][seat]:
            new = kind in fresh
            if new:
                fresh.remove(kind)
            label = "face down" if kind == "module" else kind.upper() if not kind[0].isdigit() else kind
            w = 18 + int(text_width(label, 14, bold=True))
            if x + w > x1 - 10:
                x, row_y = x0 + 60, row_y + 30
            module = not kind[0].isdigit()
            fill = MODULE_FILL if module else SEAT[seat]
            draw.rounded_rectangle((x, row_y - 12, x + w, row_y + 12), radius=6, fill=fill,
                                   outline=YELLOW if new else SEAT_DARK[seat], width=3 if new else 1)
            _put(img, (x + w / 2, row_y + 1), label, 14, INK if module or seat == 1 else WHITE, anchor="mm",
                      bold=True)
            x += w + 6
        if not view["hands"][seat]:
            _put(img, (x, row_y), "empty", 15, MUTED, anchor="lm")
        supply = " ".join(view["supplies"][seat]) or "empty"
        _put(img, (x0 + 14, y + h - 48), "supply", 15, MUTED, anchor="lm", bold=True)
        _put(img, (x0 + 72, y + h - 48), fit_text(supply, 15, x1 - x0 - 90), 15, WHITE, anchor="lm")
        if any(k in view["fresh"][seat] for k in view["hands"][seat]):
            _put(img, (x0 + 14, y + h - 20), "yellow border: drawn this turn, can't be added yet", 14, MUTED,
                      anchor="lm")
        y += h + 10
    # the neutral supply
    if view["blind"]:
        text = f"Modules face down: {view['modules_left']} left"
    else:
        text = "Modules: " + (", ".join(f"{k} {n}" for k, n in view["modules"].items()) or "none left")
    _put(img, (x0 + 4, y + 10), fit_text(text, 15, x1 - x0 - 8), 15, MUTED, anchor="lm")
    if view["authenticated"]:
        _put(img, (x0 + 4, y + 34), f"AUTHENTICATE on the board: {view['authenticated']} of 2", 15, YELLOW,
                  anchor="lm", bold=True)


def render(view: BreakerView, names: Sequence[str]) -> bytes:
    """The board for one ``BreakerBlocks.view()`` as PNG bytes; ``names`` are display names by seat."""
    shown = seat_names(names, 2)
    img = _table().copy()
    draw = ImageDraw.Draw(img)
    _open_inputs(img, view["open_inputs"])
    _blocks(img, view["blocks"])
    if view["last"]:
        _last(draw, view["last"]["cells"])
    _header(img, view, shown)
    _side_panel(img, draw, view, shown)
    return encode_png(img, _palette())


@cache
def _palette() -> Image.Image:
    """A 255-colour palette taken once from a drawn board (every colour the boards use, and their blends), so
    that each board is encoded as a palette PNG: a third of the bytes to compress."""
    sample = _table().copy()
    kinds = ("0", "1LS", "2S", "3", "annihilate", "authenticate")
    for seat in (0, 1):
        for i, kind in enumerate(kinds):
            tile = _block(kind, seat, int(kind[0]) if kind[0].isdigit() else 0, "s", ("n",))
            sample.paste(tile, (20 + seat * 80, 60 + 80 * i), tile)
        sample.paste(_ring(seat), (200 + seat * 40, 60), _ring(seat))
    for i, colour in enumerate((WHITE, INK, MUTED, YELLOW, *SEAT, *SEAT_DARK, MODULE_FILL, PANEL, PANEL_EDGE)):
        _label("Ag 0123", 20, colour, True).paste(sample, (300, 60 + 28 * i))
    return sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


__all__ = ["render"]
