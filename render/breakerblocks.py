"""Breaker Blocks as a PNG for a phone: a portrait picture 800 px wide, every needed text at least 18 px (9 px when
a phone shows it 400 px wide).

Top to bottom: whose turn and what they are doing; the 9×9 board with the Circuit Core; the last turn in words;
the three circuits (each player's power, who controls it); each player's hand and supply; the neutral supply of
command modules; a key.

Input is exactly ``BreakerBlocks.view()`` (:mod:`engine.breakerblocks.view`); output is PNG bytes.

Reading it without relying on colour: Player 1's blocks are blue and solid with a "1" in their corner, Player
2's orange and striped with a "2"; a command module is grey with its full name on two lines under a band in its
owner's colour with their number; a block's plug is a white tab on the side facing what it is plugged into, and
each of its inputs a black notch on the side it opens to; an open input is a ring with the player's number in the
empty cell it faces; the cells the last turn touched have black-and-yellow dashes and are named in the words under
the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from engine.base import ResultView
from engine.breakerblocks.board import CIRCUITS, COLUMNS, CORE, SIZE, col_of, parse_cell, row_of
from engine.breakerblocks.view import BlockView, BreakerView
from render.common import (
    BLUE,
    FELT_CENTRE,
    FELT_EDGE,
    INK,
    MUTED,
    ORANGE,
    PANEL,
    PANEL_EDGE,
    STRIP,
    WHITE,
    YELLOW,
    Box,
    Canvas,
    Colour,
    Glyphs,
    Label,
    Palette,
    Surface,
    Under,
    dashed_rect,
    draw_text,
    encode_png,
    label_cache,
    mix,
    note_text,
    recording,
    seat_names,
    text_label,
    text_width,
    wrap_text,
)

W = 800  # px; shown 400 px wide on a phone, so every needed text is at least SMALL = 18 px
SMALL, BODY, NAME, STATUS = 18, 20, 24, 24
MARGIN = 16
HEADER = 112
CELL = 84
GRID_X, GRID_Y = 30, HEADER + 24
GRID_BOTTOM = GRID_Y + SIZE * CELL
SEAT = (BLUE, ORANGE)
SEAT_TEXT = (WHITE, INK)  # legible text on each seat's colour
SEAT_DARK = (mix(BLUE, INK, 0.45), mix(ORANGE, INK, 0.45))
MODULE_FILL = (200, 200, 196)
CORE_FILL = (40, 44, 52)
BOARD = (26, 70, 52)
GRID = (14, 48, 34)
BACKGROUND = mix(FELT_CENTRE, FELT_EDGE, 0.4)
HAZARD = YELLOW

# Colour tells the players apart; each colour's second cue is the player's number, drawn with it everywhere
# (blocks, modules, open inputs, the circuits' controllers, the players' panels).
PLAYER_COLOURS: dict[str, Colour] = {"Player 1": BLUE, "Player 2": ORANGE}
SECOND_CUE: dict[str, str] = {"Player 1": "1", "Player 2": "2"}

# A module's full name on its tile, on two lines (a tile is too narrow for it on one line at a readable size).
TILE_NAME = {"annihilate": ("Anni-", "hilate"), "automate": ("Auto-", "mate"), "accelerate": ("Accel-", "erate"),
             "attenuate": ("Atten-", "uate"), "agitate": ("Agi-", "tate"), "aggravate": ("Aggra-", "vate"),
             "authenticate": ("Authen-", "ticate"), "module": ("Face", "down")}

CORE_NAMES = frozenset(f"{COLUMNS[col_of(c)]}{row_of(c) + 1}" for c in CORE)

# What the player to act is deciding, said about them (the public picture addresses nobody).
DOING = {
    "annihilate": "ANNIHILATE: {me} chooses a block to destroy",
    "automate": "AUTOMATE: {me} plays a block from a supply",
    "accelerate": "ACCELERATE: {me} takes blocks into their hand, or stops",
    "attenuate_mine": "ATTENUATE: {me} chooses one of their blocks to return",
    "attenuate_theirs": "ATTENUATE: {me} chooses one of {them}'s blocks to return",
    "agitate": "AGITATE: {me} rearranges {them}'s blocks, or stops",
    "aggravate_mine": "AGGRAVATE: {me} chooses the tile of their hand to keep",
    "aggravate_theirs": "AGGRAVATE: {me} chooses the tile {them} keeps",
}


@label_cache()  # (bounded by bytes: the palette's sample only)
def _label(text: str, size: int, fill: Colour, bold: bool, decorative: bool = False) -> Label:
    return text_label(text, size, fill, bold, decorative=decorative)


@cache
def _face(size: int, fill: Colour, bold: bool) -> Glyphs:
    """A face set glyph by glyph (:class:`render.common.Glyphs`): the texts of a board change with every move (names,
    the last turn, hands, supplies, rounds), and rendering each string anew with FreeType cost more than the rest of
    the picture; a glyph's sprite is made once, a line on a canvas is kept while it comes back."""
    return Glyphs(size, fill, bold)


def _width(text: str, size: int, bold: bool = False) -> float:
    return _face(size, WHITE, bold).width(text)  # (the advance does not depend on the colour)


def _fit(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """``text`` cut short with an ellipsis to fit ``max_width`` (as :func:`render.common.fit_text`)."""
    return _face(size, WHITE, bold).fit(text, max_width)


@lru_cache(maxsize=1024)  # (the supplies, the modules left and the status come back board after board)
def _wrap(text: str, size: int, width: float, bold: bool = False) -> tuple[str, ...]:
    """``text`` broken at spaces into lines that fit ``width``, a word longer than a line cut with an ellipsis (as
    :func:`render.common.wrap_text`, measured by the glyphs' advances: one sum a trial, not a layout by FreeType)."""
    return tuple(wrap_text(text, size, width, bold=bold, face=_face(size, WHITE, bold)))


def _put(img: Image.Image | Surface, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str = "l",
         bold: bool = False, decorative: bool = False, under: Under = None) -> Box:
    """Text by its vertical middle (``anchor`` l / m / r), set glyph by glyph; returns its box. ``under`` as for
    :meth:`render.common.Canvas.paste` (a panel drawn under it: its colour)."""
    return _face(size, fill, bold).paste(img, xy, text, anchor=anchor[0], decorative=decorative, under=under)


def _kind_name(kind: str) -> str:
    """A block as the picture names it: a power block by its id (2L), a module in capitals."""
    if kind == "module":
        return "face-down module"
    return kind if kind[0].isdigit() else kind.upper()


# --- the board ------------------------------------------------------------------------------------------------
@cache
def _ring(seat: int) -> Image.Image:
    """An open input's marker: a ring in the player's colour with their number."""
    img = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((1, 1, 38, 38), fill=(12, 40, 30), outline=SEAT[seat], width=4)
    draw_text(draw, (20, 20), str(seat + 1), SMALL, WHITE, anchor="mm", bold=True)
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
    """The canvas with what never changes: the header strip, the grid, its coordinates and the core."""
    img = Image.new("RGB", (W, GRID_BOTTOM + 4), BACKGROUND)  # flat: a felt gradient costs more to encode
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, W, HEADER - 8), fill=STRIP)
    draw_text(draw, (MARGIN, 24), "BREAKER BLOCKS", SMALL, MUTED, anchor="lm", bold=True, decorative=True)
    x1, y1 = GRID_X + SIZE * CELL, GRID_BOTTOM
    draw.rectangle((GRID_X - 2, GRID_Y - 2, x1 + 2, y1 + 2), fill=GRID)
    for cell in range(SIZE * SIZE):
        a, b, c, d = _box(cell)
        draw.rectangle((a + 1, b + 1, c - 1, d - 1), fill=BOARD)
    for i in range(SIZE):
        cx = GRID_X + i * CELL + CELL // 2
        draw_text(draw, (cx, GRID_Y - 13), COLUMNS[i], SMALL, MUTED, anchor="mm", bold=True)
        cy = GRID_Y + (SIZE - 1 - i) * CELL + CELL // 2
        draw_text(draw, (GRID_X - 15, cy), str(i + 1), SMALL, MUTED, anchor="mm", bold=True)
    for cell, circuit in CORE.items():
        a, b, c, d = _box(cell)
        draw.rectangle((a + 3, b + 3, c - 3, d - 3), fill=CORE_FILL, outline=WHITE, width=2)
        draw_text(draw, ((a + c) / 2, (b + d) / 2 - 10), CIRCUITS[circuit], 28, WHITE, anchor="mm", bold=True)
        draw_text(draw, ((a + c) / 2, (b + d) / 2 + 20), "core", SMALL, MUTED, anchor="mm")
    return img


@cache
def _block(kind: str, owner: int, power: int, plug: str, inputs: tuple[str, ...]) -> Image.Image:
    """A block's tile (CELL square, RGBA). A power block: its owner's colour and pattern, its number big and the
    owner's number in a corner. A module: grey, its full name on two lines under a band in the owner's colour
    with their number. Both: a tab on the plug side, notches on the input sides."""
    size = CELL
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    module = not kind[0].isdigit()
    fill = MODULE_FILL if module else SEAT[owner]
    inset = 4
    box = (inset, inset, size - inset, size - inset)
    draw.rounded_rectangle(box, radius=8, fill=fill, outline=SEAT_DARK[owner], width=2)
    if owner == 1 and not module:  # stripes: the pattern cue for Player 2
        for k in range(-size, size * 2, 12):
            draw.line((k, size - inset, k + size, inset - size), fill=mix(fill, INK, 0.18), width=3)
        draw.rounded_rectangle(box, radius=8, outline=SEAT_DARK[owner], width=2)
    mid = size / 2
    if module:
        draw.rounded_rectangle((inset, inset, size - inset, inset + 24), radius=8, fill=SEAT[owner])
        draw.rectangle((inset, inset + 14, size - inset, inset + 24), fill=SEAT[owner])
        if owner == 1:
            for k in range(-size, size * 2, 12):
                draw.line((k, inset + 24, k + 20, inset), fill=mix(ORANGE, INK, 0.18), width=3)
        draw.rounded_rectangle(box, radius=8, outline=SEAT_DARK[owner], width=3)
        draw_text(draw, (inset + 14, inset + 13), str(owner + 1), SMALL, SEAT_TEXT[owner], anchor="mm", bold=True)
        top, bottom = TILE_NAME[kind]
        draw_text(draw, (mid, inset + 40), top, SMALL, INK, anchor="mm", bold=True)
        draw_text(draw, (mid, inset + 61), bottom, SMALL, INK, anchor="mm", bold=True)
    else:
        draw_text(draw, (mid + 4, mid + 4), str(power), 42, SEAT_TEXT[owner], anchor="mm", bold=True)
        draw_text(draw, (inset + 13, inset + 14), str(owner + 1), SMALL, SEAT_TEXT[owner], anchor="mm", bold=True)
    tab = {"n": (mid - 10, 0, mid + 10, inset + 3), "s": (mid - 10, size - inset - 3, mid + 10, size),
           "w": (0, mid - 10, inset + 3, mid + 10), "e": (size - inset - 3, mid - 10, size, mid + 10)}
    draw.rectangle(tab[plug], fill=WHITE, outline=INK)
    notch = {"n": (mid - 7, inset, mid + 7, inset + 5), "s": (mid - 7, size - inset - 5, mid + 7, size - inset),
             "w": (inset, mid - 7, inset + 5, mid + 7), "e": (size - inset - 5, mid - 7, size - inset, mid + 7)}
    for side in inputs:
        draw.rectangle(notch[side], fill=INK)
    return img


@lru_cache(maxsize=4096)  # (a block stays where it is for many boards)
def _placed(kind: str, owner: int, power: int, at: str, parent: str, inputs: tuple[str, ...]
            ) -> tuple[Image.Image, tuple[int, int]]:
    """A block's tile and where it goes, from the view's names of its cell, the cell it plugs into and its inputs."""
    cell = parse_cell(at)
    sides = tuple(sorted(_side(cell, parse_cell(t)) for t in inputs))
    x, y, _, _ = _box(cell)
    return _block(kind, owner, power, _side(cell, parse_cell(parent)), sides), (x, y)


def _blocks(img: Surface, blocks: Sequence[BlockView]) -> None:
    for b in blocks:
        sprite, xy = _placed(b["kind"], b["owner"], b["power"], b["cell"], b["parent"], tuple(b["inputs"]))
        img.paste(sprite, xy)


def _open_inputs(img: Surface, open_inputs: list[list[str]]) -> None:
    both = set(open_inputs[0]) & set(open_inputs[1])
    for seat, cells in enumerate(open_inputs):
        for name in cells:
            a, b, c, d = _box(parse_cell(name))
            cx = (a + c) / 2 + ((-20 if seat == 0 else 20) if name in both else 0)
            ring = _ring(seat)
            img.paste(ring, (round(cx - 20), round((b + d) / 2 - 20)))


@cache
def _last_frame() -> Image.Image:
    """The mark of a cell the last turn touched: a black frame with black-and-yellow dashes, its inside clear (a
    sprite of opaque and clear pixels only: one paste, not twenty rectangles)."""
    size = CELL + 1
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, CELL, CELL), outline=INK, width=6)
    dashed_rect(draw, (1, 1, CELL - 1, CELL - 1), HAZARD, width=4, dash=9, gap=6)
    return img


def _last_cells(img: Surface, cells: list[str]) -> None:
    frame = _last_frame()
    for name in dict.fromkeys(cells):
        a, b, _, _ = _box(parse_cell(name))
        img.paste(frame, (a, b))


# --- words ------------------------------------------------------------------------------------------------------
def _result_line(result: ResultView, names: list[str]) -> str:
    winners = result["winners"]
    if len(winners) == 1:
        return f"{names[winners[0]]} wins: {result['reason']}"
    return f"Draw: {result['reason']}"


def status_text(view: BreakerView, names: list[str]) -> str:
    """Whose turn and what they are doing, about them (never "you")."""
    if view["result"]:
        return _result_line(view["result"], names)
    me, them = names[view["turn"]], names[1 - view["turn"]]
    if view["pending"]:
        return DOING.get(view["pending"], "{me}: " + view["prompt"]).format(me=me, them=them)
    left = view["actions_left"]
    final = " (the last turn)" if view["final"] == view["turn"] else ""
    return f"{me} to play: {left} action{'s' * (left != 1)} left{final}"


def _phrase(move: str, seat: int, names: list[str], where: dict[str, BlockView]) -> str:
    """One move of the last turn in words: "played 2L at e3 (circuit II)"."""
    words = move.split()
    verb, args = words[0], words[1:]
    them = names[1 - seat]

    into = ""
    if "from" in args:  # two inputs faced the cell: the move named the one it plugs into
        i = args.index("from")
        parent = args[i + 1] if i + 1 < len(args) else ""
        into = "into the core" if parent in CORE_NAMES else f"into {parent}" if parent else ""
        args = args[:i]

    def at(cell: str) -> str:
        b = where.get(cell)
        notes = [x for x in (into, f"circuit {CIRCUITS[b['circuit']]}" if b else "") if x]
        return f"{cell} ({', '.join(notes)})" if notes else cell

    def moved(cell: str) -> str:  # (a later move of the same turn may have taken it on)
        b = where.get(cell)
        return _kind_name(b["kind"]) if b else "block"

    def block(token: str) -> str:
        return "a face-down module" if token.startswith("module") else _kind_name(token)

    if verb == "draw" and args:
        return f"drew {block(args[0])}"
    if verb == "play" and len(args) >= 2:
        return f"played {block(args[0])} at {at(args[1])}"
    if verb == "automate" and len(args) >= 2:
        return f"played {block(args[0])} from a supply at {at(args[1])}"
    if verb == "move" and len(args) >= 2:
        return f"moved the {moved(args[1])} from {args[0]} to {at(args[1])}"
    if verb == "rearrange" and len(args) >= 2:
        return f"moved {them}'s {moved(args[1])} from {args[0]} to {at(args[1])}"
    if verb == "destroy" and args:
        return f"destroyed the block at {args[0]}"
    if verb == "return" and args:
        return f"returned the block at {args[0]} to its supply"
    if verb == "take" and args:
        return f"took {block(args[0])}"
    if verb == "keep" and args:
        return f"kept {block(args[0])}"
    if verb == "stop":
        return "stopped"
    if verb == "end":
        return "ended the turn"
    return move


def last_text(view: BreakerView, names: list[str]) -> str:
    """The last turn (or this turn so far) in words, or "" before the first move."""
    last = view["last"]
    if not last or not last["moves"]:
        return ""
    where = {b["cell"]: b for b in view["blocks"]}
    phrases = [_phrase(m, last["seat"], names, where) for m in last["moves"]]
    return f"Last: {names[last['seat']]} " + ", ".join(phrases)


# --- the panels under the board -------------------------------------------------------------------------------
@cache
def _badge(seat: int, odd: bool) -> Image.Image:
    """A seat's badge on a panel: a square in the seat's colour with its number (an opaque sprite, drawn once). Its
    number is centred as it would be on a badge drawn at an ``odd`` x (a half pixel rounds to the even one)."""
    img = Image.new("RGB", (29, 29), PANEL)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, 28, 28), radius=5, fill=SEAT[seat], outline=WHITE, width=2)
    text = str(seat + 1)
    with recording():  # (told the recorder at each paste, not here)
        _put(img, (_left(odd + 14, text, SMALL, True) - odd, 14), text, SMALL, SEAT_TEXT[seat], bold=True)
    return img


def _left(cx: float, text: str, size: int, bold: bool) -> int:
    """Where ``text`` centred on ``cx`` starts, as :meth:`render.common.Glyphs.paste` rounds it."""
    return round(cx - _width(text, size, bold) / 2)


def _seat_badge(img: Surface, x: float, y: float, seat: int) -> float:
    """A square in the seat's colour with its number, centred on ``y``; returns the x after it."""
    left = round(x)
    img.paste(_badge(seat, bool(left % 2)), (left, round(y) - 14))
    note_text(str(seat + 1), SMALL)  # (drawn once into the kept badge: each picture's copy is told the recorder)
    return x + 36


@lru_cache(maxsize=16)  # (a game's panels come in a few heights: 8 over six whole games)
def _panel(height: int, edge: Colour = PANEL_EDGE, width: int = 2, radius: int = 12) -> Image.Image:
    """A panel across the picture, ``height`` + 1 pixels tall (a box's bottom row is drawn), over the background
    under the board: an opaque sprite, drawn once per height (a few heights recur in every game)."""
    img = Image.new("RGB", (W - 2 * MARGIN + 1, height + 1), BACKGROUND)
    ImageDraw.Draw(img).rounded_rectangle((0, 0, W - 2 * MARGIN, height), radius=radius, fill=PANEL, outline=edge,
                                          width=width)
    return img


@dataclass
class Chip:
    """One tile of a hand as the picture shows it."""

    kind: str
    label: str
    new: bool  # drawn this turn: it can be played next turn
    x: float
    row: int
    width: float


@dataclass
class Layout:
    """What the flow under the board holds, measured before drawing (the picture is made at its height)."""

    last: Sequence[str]
    hands: list[list[Chip]]
    supplies: list[Sequence[str]]
    neutral: list[str]

    def player_height(self, seat: int) -> int:
        rows = max((c.row for c in self.hands[seat]), default=0) + 1
        return 66 + 40 * rows + 30 * len(self.supplies[seat])

    @property
    def height(self) -> int:
        h = GRID_BOTTOM + 12
        h += 26 + 28 * len(self.last) if self.last else 0
        h += 62 + 40 * len(CIRCUITS) + 10
        h += sum(self.player_height(seat) + 10 for seat in (0, 1))
        h += 28 * len(self.neutral) + 6
        return h + _key_strip().height + 8


HAND_X = MARGIN + 100
RIGHT = W - MARGIN - 14


def _hand(view: BreakerView, seat: int) -> list[Chip]:
    fresh = list(view["fresh"][seat])
    out: list[Chip] = []
    x, row = float(HAND_X), 0
    for kind in view["hands"][seat]:
        new = kind in fresh
        if new:
            fresh.remove(kind)
        label = _kind_name(kind) + (" · new" if new else "")
        w = 20 + _width(label, BODY, bold=True)
        if x + w > RIGHT and x > HAND_X:
            x, row = HAND_X, row + 1
        out.append(Chip(kind, label, new, x, row, w))
        x += w + 12
    return out


def _neutral_lines(view: BreakerView) -> list[str]:
    if view["blind"]:
        text = f"Command modules, face down: {view['modules_left']} left"
    else:
        listed = ", ".join(f"{k.upper()} {n}" for k, n in view["modules"].items())
        text = "Command modules left: " + (listed or "none")
    lines = [text]
    if view["authenticated"]:
        lines.append(f"AUTHENTICATE on the board: {view['authenticated']} of 2 (the second ends the game)")
    if view["power_overwhelming"]:
        lines.append("Power Overwhelming: a player who starts their turn controlling 2 circuits wins")
    return [part for line in lines for part in _wrap(line, BODY, W - 2 * MARGIN - 8)]


def layout(view: BreakerView, names: list[str]) -> Layout:
    last = last_text(view, names)
    return Layout(
        last=_wrap(last, BODY, W - 2 * MARGIN - 66) if last else (),
        hands=[_hand(view, seat) for seat in (0, 1)],
        supplies=[_wrap(" ".join(view["supplies"][seat]) or "empty", BODY, RIGHT - HAND_X) for seat in (0, 1)],
        neutral=_neutral_lines(view),
    )


@lru_cache(maxsize=8)
def _last_frame_panel(lines: int) -> Image.Image:
    """The panel of the last turn's words for ``lines`` lines, with its dashed key."""
    h = 16 + 28 * lines
    img = _panel(h, radius=10).copy()
    dashed_rect(ImageDraw.Draw(img), (12, 9, 44, 35), HAZARD, width=4, dash=7, gap=4)
    return img


def _last_panel(img: Surface, lines: Sequence[str], y: int) -> int:
    if not lines:
        return y
    h = 16 + 28 * len(lines)
    x0 = MARGIN
    img.paste(_last_frame_panel(len(lines)), (x0, y))
    for i, line in enumerate(lines):
        _put(img, (x0 + 56, y + 22 + 28 * i), line, BODY, WHITE, bold=i == 0 and len(lines) == 1, under=PANEL)
    return y + h + 10


CIRCUITS_HEAD = "CIRCUITS: more power controls one"


@cache
def _circuits_panel(count: int) -> Image.Image:
    """The circuits' panel with what never changes on it: its heading, each circuit's name and Player 1's badge."""
    h = 52 + 40 * count
    img = _panel(h).copy()
    with recording():  # (told the recorder at each paste, not here)
        _put(img, (14, 22), CIRCUITS_HEAD, SMALL, MUTED, bold=True)
        for i in range(count):
            cy = 60 + i * 40
            _put(img, (16, cy), CIRCUITS[i], NAME, WHITE, bold=True)
            img.paste(_badge(0, bool((MARGIN + 66) % 2)), (66, cy - 14))
    return img


def _circuits(img: Surface, view: BreakerView, names: list[str], y: int) -> int:
    x0, x1 = MARGIN, W - MARGIN
    count = len(view["circuits"])
    h = 52 + 40 * count
    img.paste(_circuits_panel(count), (x0, y))
    note_text(CIRCUITS_HEAD, SMALL)  # (drawn once into the kept panel: each picture's copy is told the recorder)
    _put(img, (x1 - 14, y + 22), f"Round {view['round']} of {view['max_rounds']}", SMALL, MUTED, anchor="r",
         under=PANEL)
    for i, circuit in enumerate(view["circuits"]):
        cy = y + 60 + i * 40
        note_text(CIRCUITS[i], NAME)
        note_text("1", SMALL)
        x = x0 + 66.0 + 36
        for seat in (0, 1):
            if seat:
                x = _seat_badge(img, x, cy, seat)
            box = _put(img, (x, cy), str(circuit["power"][seat]), NAME, WHITE, bold=True, under=PANEL)
            x = box[2] + 24
        who = circuit["controller"]
        x = max(x, x0 + 250)
        if who is None:
            _put(img, (x, cy), "tied: nobody controls it", BODY, MUTED, under=PANEL)
        else:
            x = _seat_badge(img, x, cy, who)
            _put(img, (x, cy), _fit(f"{names[who]} controls it", BODY, x1 - 14 - x, bold=True), BODY, WHITE,
                 bold=True, under=PANEL)
    return y + h + 10


@lru_cache(maxsize=256)
def _chip(label: str, seat: int, module: bool, new: bool, width: float, odd: bool) -> Image.Image:
    """A tile of a hand on its panel (an opaque sprite from 4 px left of the chip and 21 px over its middle): a
    rounded chip in the seat's colour (grey for a module) with its words, ringed in yellow when ``new``. Its words
    are centred as on a chip drawn at an ``odd`` x."""
    size = (round(width) + 9, 43)
    img = Image.new("RGB", size, PANEL)
    shape = Image.new("L", size, 0)  # what it covers (a new chip's ring reaches into the next row's)
    fill = MODULE_FILL if module else SEAT[seat]
    for draw, ink in ((ImageDraw.Draw(img), None), (ImageDraw.Draw(shape), 255)):
        draw.rounded_rectangle((4, 4, 4 + width, 38), radius=7, fill=ink or fill, outline=ink or SEAT_DARK[seat],
                               width=2)
        if new:  # (and "new" in its words)
            draw.rounded_rectangle((0, 0, width + 8, 42), radius=9, outline=ink or YELLOW, width=3)
    left = _left(odd + width / 2, label, BODY, True) - odd
    with recording():  # (told the recorder at each paste, not here)
        _put(img, (4 + left, 22), label, BODY, INK if module else SEAT_TEXT[seat], bold=True)
    img.putalpha(shape)
    return img


def _player(img: Surface, view: BreakerView, names: list[str], seat: int, lay: Layout, y: int) -> int:
    x0, x1 = MARGIN, W - MARGIN
    h = lay.player_height(seat)
    acting = view["result"] is None and view["turn"] == seat
    img.paste(_panel(h, YELLOW, 5) if acting else _panel(h), (x0, y))
    x = _seat_badge(img, x0 + 14, y + 26, seat)
    tag = " (to play)" if acting else ""
    _put(img, (x, y + 26), _fit(names[seat] + tag, NAME, x1 - 14 - x, bold=True), NAME, WHITE, bold=True,
         under=PANEL)
    top = y + 70
    _put(img, (x0 + 14, top), "Hand", BODY, MUTED, bold=True, under=PANEL)
    chips = lay.hands[seat]
    for c in chips:
        cy = top + 40 * c.row
        module = not c.kind[0].isdigit()
        left = round(c.x)
        if left == c.x and float(c.width).is_integer():
            img.paste(_chip(c.label, seat, module, c.new, c.width, bool(left % 2)), (left - 4, cy - 21))
            note_text(c.label, BODY)  # (set once into the kept chip: each picture's copy is told the recorder)
            continue
        fill = MODULE_FILL if module else SEAT[seat]  # (a chip at a fraction of a pixel: drawn here)
        img.draw.rounded_rectangle((c.x, cy - 17, c.x + c.width, cy + 17), radius=7, fill=img.ink(fill),
                                   outline=img.ink(SEAT_DARK[seat]), width=2)
        if c.new:
            img.draw.rounded_rectangle((c.x - 4, cy - 21, c.x + c.width + 4, cy + 21), radius=9,
                                       outline=img.ink(YELLOW), width=3)
        _put(img, (c.x + c.width / 2, cy + 1), c.label, BODY, INK if module else SEAT_TEXT[seat], anchor="m",
             bold=True, under=fill)
    if not chips:
        _put(img, (HAND_X, top), "empty", BODY, MUTED, under=PANEL)
    sy = top + 40 * (max((c.row for c in chips), default=0) + 1)
    _put(img, (x0 + 14, sy), "Supply", BODY, MUTED, bold=True, under=PANEL)
    for i, line in enumerate(lay.supplies[seat]):
        _put(img, (HAND_X, sy + 30 * i), line, BODY, WHITE, under=PANEL)
    return y + h + 10


KEY = (("p1", "Player 1: blue, solid, 1"), ("p2", "Player 2: orange, striped, 2"),
       ("ring", "open input (whose: the number)"), ("module", "command module"),
       ("plug", "white tab: plug; black notch: input"), ("last", "last turn's cells"),
       ("new", "new: drawn this turn, can be played next turn"))


@cache
def _key_strip() -> Image.Image:
    """The key to the board's marks (drawn once): each mark with what it means."""
    img = Image.new("RGB", (W, 150), BACKGROUND)
    draw = ImageDraw.Draw(img)
    x, y = MARGIN, 18
    for mark, text in KEY:
        w = 34 + round(text_width(text, SMALL))
        if x + w > W - MARGIN:
            x, y = MARGIN, y + 36
        swatch = Image.new("RGB", (25, 25), BACKGROUND)
        sd = ImageDraw.Draw(swatch)
        if mark in ("p1", "p2"):
            seat = 0 if mark == "p1" else 1
            sd.rectangle((0, 0, 24, 24), fill=SEAT[seat])
            if seat == 1:
                for k in range(-24, 48, 8):
                    sd.line((k, 24, k + 24, 0), fill=mix(ORANGE, INK, 0.25), width=2)
            sd.rectangle((0, 0, 24, 24), outline=WHITE)
        elif mark == "ring":
            sd.ellipse((0, 0, 24, 24), outline=WHITE, width=3)
        elif mark == "module":
            sd.rectangle((0, 0, 24, 24), fill=MODULE_FILL)
        elif mark == "new":
            sd.rounded_rectangle((0, 2, 24, 22), radius=5, fill=SEAT[0], outline=YELLOW, width=3)
        elif mark == "plug":
            sd.rectangle((0, 7, 24, 17), fill=WHITE, outline=INK)
        else:
            dashed_rect(sd, (0, 0, 24, 24), HAZARD, width=3, dash=6, gap=4)
        img.paste(swatch, (x, y - 12))
        draw_text(draw, (x + 32, y), text, SMALL, MUTED, anchor="lm")
        x += w + 22
    return img.crop((0, 0, W, y + 22))


def _key(img: Surface, y: int) -> int:
    img.paste(_key_strip(), (0, y))
    for _, text in KEY:  # drawn once into the cached strip: each picture's copy is told to the recorder
        note_text(text, SMALL)
    return y + _key_strip().height


TALL = 2400  # the tallest board drawn from the kept empty table (a taller one gets a taller table)
TALL_STEP = 400  # a taller table's height is a multiple of this: a few kept tables serve every height


@cache
def _tall_table(height: int = TALL) -> Image.Image:
    """The empty table over the background, ``height`` pixels tall: a board is drawn on its top part."""
    img = Image.new("RGB", (W, height), BACKGROUND)
    img.paste(_table(), (0, 0))
    return img


@cache
def _tall_background(height: int = TALL) -> Image.Image:
    return _board_palette().background(_tall_table(height))


@lru_cache(maxsize=4)  # (1.5 MB each; a game keeps its height for several moves, and a few heights recur)
def _background(height: int) -> Image.Image:
    """The empty table in the board's palette, ``height`` pixels tall (cut from the kept tall one once, not for
    every board)."""
    return _tall_background(_tall_height(height)).crop((0, 0, W, height))


def _tall_height(height: int) -> int:
    """The height of the kept table a board ``height`` pixels tall is drawn from (its top part)."""
    return max(TALL, -(-height // TALL_STEP) * TALL_STEP)


def draw_board(view: BreakerView, names: Sequence[str], img: Surface, lay: Layout | None = None) -> Surface:
    """Draw the position of ``view`` on ``img``, the empty table as tall as the board's layout (``lay``, when the
    caller has worked it out already)."""
    shown = seat_names(names, 2)
    lay = lay if lay is not None else layout(view, shown)
    _open_inputs(img, view["open_inputs"])
    _blocks(img, view["blocks"])
    if view["last"]:
        _last_cells(img, view["last"]["cells"])
    if view["viewer"] is not None:  # a private picture: whose eyes it is for
        _put(img, (W - MARGIN, 24), _fit(f"{shown[view['viewer']]}'s view", SMALL, W / 2, bold=True), SMALL,
             WHITE, anchor="r", bold=True)
    lines = _wrap(status_text(view, shown), STATUS, W - 2 * MARGIN, bold=True)[:2]
    for i, line in enumerate(lines):
        _put(img, (MARGIN, 58 + 30 * i + (15 if len(lines) == 1 else 0)), line, STATUS, YELLOW, bold=True)
    y = GRID_BOTTOM + 12
    y = _last_panel(img, lay.last, y)
    y = _circuits(img, view, shown, y)
    for seat in (0, 1):
        y = _player(img, view, shown, seat, lay, y)
    for line in lay.neutral:
        _put(img, (MARGIN + 4, y + 14), line, BODY, WHITE)
        y += 28
    _key(img, y + 6)
    return img


def render_rgb(view: BreakerView, names: Sequence[str]) -> Image.Image:
    """The board drawn in RGB, before any palette: the reference :func:`render` is checked against."""
    lay = layout(view, seat_names(names, 2))
    table = _tall_table(_tall_height(lay.height))
    return draw_board(view, names, Surface(table.crop((0, 0, W, lay.height))), lay).image


def render(view: BreakerView, names: Sequence[str]) -> bytes:
    """The board for one ``BreakerBlocks.view()`` as PNG bytes; ``names`` are display names by seat. Drawn straight
    into the board's palette from the empty table already in it (:class:`~render.common.Canvas`)."""
    lay = layout(view, seat_names(names, 2))
    canvas = Canvas(_background(lay.height), _board_palette(), _tall_table(_tall_height(lay.height)))
    return encode_png(draw_board(view, names, canvas, lay).image)


@cache
def _board_palette() -> Palette:
    """The board's palette, with what drawing in it learns."""
    return Palette(_palette())


@cache
def _palette() -> Image.Image:
    """A 255-colour palette taken once from a drawn board (every colour the boards use, and their blends), so
    that each board is encoded as a palette PNG: a third of the bytes to compress."""
    sample = Image.new("RGB", (W, GRID_BOTTOM + 400), BACKGROUND)
    sample.paste(_table(), (0, 0))
    kinds = ("0", "1LS", "2S", "3", "annihilate", "authenticate")
    for seat in (0, 1):
        for i, kind in enumerate(kinds):
            tile = _block(kind, seat, int(kind[0]) if kind[0].isdigit() else 0, "s", ("n",))
            sample.paste(tile, (20 + seat * 90, GRID_Y + 90 * i), tile)
        sample.paste(_ring(seat), (220 + seat * 44, GRID_Y), _ring(seat))
    draw = ImageDraw.Draw(sample)
    y = GRID_BOTTOM + 20
    for colour in (PANEL, PANEL_EDGE, MODULE_FILL, *SEAT, *SEAT_DARK):
        draw.rectangle((0, y, W, y + 30), fill=colour)
        y += 30
    for i, colour in enumerate((WHITE, INK, MUTED, YELLOW, *SEAT, *SEAT_DARK, MODULE_FILL, PANEL, PANEL_EDGE)):
        _label("Ag 0123", BODY, colour, True).paste(sample, (300, GRID_Y + 28 * i))
        _label("Ag 0123", BODY, colour, True).paste(sample, (450, GRID_BOTTOM + 35 + 30 * (i % 7)))
    return sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


__all__ = ["PLAYER_COLOURS", "SECOND_CUE", "last_text", "render", "render_rgb", "status_text"]
