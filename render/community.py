"""A member's profile card, a game's leaderboard and a tournament's standings as PNGs.

Input is the plain data of :mod:`community.views`; output is PNG bytes. Nothing here talks to Discord or reads
anything but the fonts (through :mod:`render.common`).

Discord shows these pictures 400 pixels wide on a phone, so they are drawn :data:`W` = 800 wide and every text
is at least :data:`MIN_SIZE` = 18 pixels tall (9 pixels at 400 wide). All text goes through :func:`_text`, which
a test can watch with :func:`recording` to check that rule.

Nothing is told by colour alone: the member who asked has a triangle marker, a thick outline and bold text on the
leaderboard; bot identities carry the word "(bot)"; "settled" and "still settling" are words. In the standings a
winner has a star, bold text and the word "Winner", a dropped player the word "(dropped)", and a bracket's winner
bold text after a triangle.
Names the members chose (which may be Arabic or Hebrew, right to left) are always drawn as a run of their own,
never in one string with numbers, so that the text around them keeps its order.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from community.views import BoardRow, BracketMatch, GameLine, LeaderboardView, ProfileView, StandingRow, StandingsView
from render.common import (
    FAINT,
    FELT_CENTRE,
    FELT_EDGE,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    STRIP,
    WHITE,
    YELLOW,
    Colour,
    clean_name,
    clean_text,
    dashed_rect,
    draw_text,
    encode_png,
    felt,
    fit_text,
    mix,
    palette_image,
    ramp,
    rounded_mask,
    shape_sprite,
    text_width,
    wrap_text,
)

W = 800  # drawing width; Discord shows it at 400
MIN_SIZE = 18  # smallest text: 9 px at 400 wide
MARGIN = 24  # felt around the panels
PAD = 22  # inside a panel
RADIUS = 16
MAX_GAMES = 5  # games on a profile card
MAX_OPPONENTS = 3
MAX_PLACES = 6

# text sizes (pixels at W)
TITLE = 40
SUBTITLE = 24
GAME_NAME = 32
RATING = 68
BODY = 24
LABEL = 20
STAT = 34

ROW_ALT = mix(PANEL, PANEL_EDGE, 0.35)  # every other leaderboard row
YOU_BAND = mix(PANEL, YELLOW, 0.2)  # the asker's row, which also has a marker, an outline and bold text
SEP = " \u00b7 "

def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour,
          anchor: str = "lm", bold: bool = False) -> float:
    """Draw ``text`` (any script) and return where it ends on the right. Every text of this module goes through
    here, so that :func:`recording` sees it."""
    if not text:
        return xy[0]
    draw_text(draw, xy, text, size, fill, anchor=anchor, bold=bold)
    width = text_width(text, size, bold)
    if anchor[0] == "l":
        return xy[0] + width
    if anchor[0] == "m":
        return xy[0] + width / 2
    return xy[0]


# --- words ---------------------------------------------------------------------------------------------
def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def turn_time(seconds: float | None) -> str:
    """An average time in words: "40 s", "4 min", "2 h 10 min", "3 d 5 h"; "—" when unknown."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "\u2014"
    s = round(seconds)
    if s < 60:
        return f"{max(s, 1)} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    if minutes < 24 * 60:
        h, m = divmod(minutes, 60)
        return f"{h} h {m} min" if m else f"{h} h"
    hours = round(seconds / 3600)
    d, h = divmod(hours, 24)
    return f"{d} d {h} h" if h else f"{d} d"


def win_rate(games: int, wins: int) -> str:
    """Wins as a whole percentage of games; "—" with no games."""
    return f"{round(100 * wins / games)}%" if games > 0 else "\u2014"


def places_text(places: list[int]) -> list[str]:
    """ "1st ×12", "2nd ×3"… for the first six places, without the trailing places never reached."""
    shown = list(places[:MAX_PLACES])
    while shown and shown[-1] == 0:
        shown.pop()
    return [f"{ordinal(i + 1)} \u00d7{n}" for i, n in enumerate(shown)]


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


# --- the palette ----------------------------------------------------------------------------------------
@cache
def _palette() -> Image.Image:
    """Every colour drawn, with the anti-aliasing ramps where two of them meet."""
    colours = ramp(FELT_EDGE, FELT_CENTRE, 40)
    edges = [
        (PANEL, WHITE), (PANEL, MUTED), (PANEL, YELLOW), (PANEL, FAINT), (PANEL, PANEL_EDGE), (PANEL, ROW_ALT),
        (PANEL, STRIP), (STRIP, MUTED), (STRIP, WHITE), (ROW_ALT, WHITE), (ROW_ALT, MUTED), (ROW_ALT, FAINT),
        (YOU_BAND, WHITE), (YOU_BAND, MUTED), (YOU_BAND, YELLOW), (YELLOW, INK), (PANEL_EDGE, WHITE),
        (FELT_CENTRE, WHITE), (FELT_CENTRE, MUTED), (FELT_EDGE, WHITE), (FELT_EDGE, MUTED),
        (FELT_CENTRE, PANEL), (FELT_EDGE, PANEL), (FELT_CENTRE, PANEL_EDGE), (FELT_EDGE, PANEL_EDGE),
    ]
    for bg, fg in edges:
        colours += ramp(bg, fg, 6)
    return palette_image(colours)


def _panel(img: Image.Image, box: tuple[int, int, int, int], fill: Colour = PANEL) -> None:
    """A rounded panel with an edge on the felt."""
    x0, y0, x1, y1 = box
    size = (x1 - x0, y1 - y0)
    img.paste(Image.new("RGB", size, fill), (x0, y0), rounded_mask(size, RADIUS))
    ImageDraw.Draw(img).rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=RADIUS, outline=PANEL_EDGE, width=2)


def _pill(draw: ImageDraw.ImageDraw, right: float, cy: float, text: str, size: int, fg: Colour,
          bg: Colour) -> None:
    """A rounded badge ending at ``right``, centred on ``cy``."""
    w = text_width(text, size, True)
    h = size + 14
    draw.rounded_rectangle((right - w - 28, cy - h / 2, right, cy + h / 2), radius=h / 2, fill=bg)
    _text(draw, (right - 14, cy), text, size, fg, anchor="rm", bold=True)


# --- the profile card -----------------------------------------------------------------------------------
BLOCK_W = W - 2 * MARGIN
INNER = BLOCK_W - 2 * PAD  # text width inside a game's panel
LABEL_COL = 170  # the labels left of places and turn time


def _game_block(game: GameLine) -> Image.Image:
    """One game's panel (a PANEL-coloured image as tall as its content)."""
    img = Image.new("RGB", (BLOCK_W, 1000), PANEL)
    draw = ImageDraw.Draw(img)
    left, right = PAD, BLOCK_W - PAD
    y = PAD + 22

    # the game's name, and its leaderboard place
    name_right: float = right
    if game["rank"] is not None:
        rank = f"#{game['rank']} on the leaderboard"
        _pill(draw, right, y, rank, LABEL, INK, YELLOW)
        name_right = right - text_width(rank, LABEL, True) - 28 - 16
    title = clean_text(game["game"]) or "Game"
    _text(draw, (left, y), fit_text(title, GAME_NAME, name_right - left, True), GAME_NAME, YELLOW, bold=True)
    y += 34

    # the rating, big, and how sure it is
    _text(draw, (left, y + 12), "RATING", LABEL, MUTED, bold=True)
    rating = game["rating"]
    big_y = y + 24 + RATING // 2 + 6
    if rating is None:
        end = _text(draw, (left, big_y), "unrated", 44, MUTED, bold=True)
        notes = ["no rated games yet"]
    else:
        end = _text(draw, (left, big_y), str(rating), RATING, WHITE, bold=True)
        notes = []
        if game["likely"] is not None:
            likely = f"likely {game['likely']}"
            if game["give_or_take"] is not None:
                likely += f" \u00b1 {game['give_or_take']}"
            notes.append(likely)
        notes.append("settled" if game["settled"] else "still settling")
    nx = max(left + 200, end + 28)
    for i, note in enumerate(notes):
        colour = WHITE if i == 0 and len(notes) > 1 else MUTED
        ny = big_y + (i - (len(notes) - 1) / 2) * 32
        _text(draw, (nx, ny), fit_text(note, BODY, right - nx), BODY, colour)
    y = big_y + RATING // 2 + 12
    draw.line((left, y, right, y), fill=PANEL_EDGE, width=2)

    # games, wins, win rate, best streak: four tiles (wins of the games with others: a solo game is neither)
    versus = game["versus"]
    wins = "\u2014" if not versus else str(game["wins"]) if versus == game["games"] else f"{game['wins']} of {versus}"
    tiles = [("Games", str(game["games"])), ("Wins", wins), ("Win rate", win_rate(versus, game["wins"])),
             ("Best streak", str(game["best_streak"]) if versus else "\u2014")]
    tile_w = INNER / len(tiles)
    for i, (label, value) in enumerate(tiles):
        tx = left + i * tile_w
        _text(draw, (tx, y + 26), label, LABEL, MUTED)
        _text(draw, (tx, y + 66), fit_text(value, STAT, tile_w - 12, True), STAT, WHITE, bold=True)
    y += 98
    draw.line((left, y, right, y), fill=PANEL_EDGE, width=2)
    y += 8

    # places (wrapping), average time per turn
    chips = places_text(game["places"])
    if chips:
        x: float = left + LABEL_COL
        cy = y + 22
        _text(draw, (left, cy), "Places", LABEL, MUTED)
        dot = text_width(SEP, BODY)
        for k, chip in enumerate(chips):
            if k:  # a dot between two places on a line; a place that does not fit starts the next line
                if x + dot + text_width(chip, BODY) > right:
                    x, cy = left + LABEL_COL, cy + 34
                else:
                    x = _text(draw, (x, cy), SEP, BODY, MUTED)
            x = _text(draw, (x, cy), chip, BODY, WHITE)
        y = cy + 22
    cy = y + 22
    _text(draw, (left, cy), "Time per turn", LABEL, MUTED)
    _text(draw, (left + LABEL_COL, cy), turn_time(game["seconds_per_turn"]), BODY, WHITE)
    y = cy + 22

    # favourite opponents: each name a run of its own, then the numbers
    opponents = game["opponents"][:MAX_OPPONENTS]
    if opponents:
        y += 10
        _text(draw, (left, y + 14), "Played most with", LABEL, MUTED)
        y += 30
        for k, (name, together, above) in enumerate(opponents):
            cy = y + 20
            numbers = f"{SEP}{_games(together)}{SEP}above them {above}\u00d7"
            room = INNER - 20 - text_width(numbers, BODY)
            shown = fit_text(clean_name(name, f"Player {k + 1}"), BODY, max(room, 140), True)
            end = _text(draw, (left + 20, cy), shown, BODY, WHITE, bold=True)
            _text(draw, (end, cy), fit_text(numbers, BODY, right - end), BODY, MUTED)
            y += 36

    # one more line in words
    extra = clean_text(game["extra"])
    if extra:
        y += 8
        for line in wrap_text(extra, LABEL + 2, INNER, 2):
            _text(draw, (left, y + 16), line, LABEL + 2, MUTED)
            y += 32
    y += PAD - 2
    return img.crop((0, 0, BLOCK_W, y))


def render_profile(view: ProfileView) -> bytes:
    """A member's profile card as PNG bytes: their name and server, then one panel per game (at most
    :data:`MAX_GAMES`, in the order given), each with the rating, record, places, pace and opponents."""
    games = view["games"][:MAX_GAMES]
    more = len(view["games"]) - len(games)
    blocks = [_game_block(g) for g in games]
    header = 118
    empty = 110 if not blocks else 0
    footer = 44 if more > 0 else 0
    height = header + sum(b.height + 16 for b in blocks) + empty + footer + MARGIN - (16 if blocks else 0)
    img = felt((W, height))
    draw = ImageDraw.Draw(img)

    name = clean_name(view["name"], "Member")
    _text(draw, (MARGIN + 2, 48), fit_text(name, TITLE, W - 2 * MARGIN, True), TITLE, WHITE, bold=True)
    server = clean_name(view["server"], "this server")
    _text(draw, (MARGIN + 2, 94), fit_text(server, SUBTITLE, W - 2 * MARGIN), SUBTITLE, MUTED)

    y = header
    if not blocks:
        _panel(img, (MARGIN, y, W - MARGIN, y + empty))
        _text(draw, (W / 2, y + empty / 2), "No finished games yet", BODY + 4, MUTED, anchor="mm")
    for block in blocks:
        _panel(img, (MARGIN, y, W - MARGIN, y + block.height))
        inner = block.crop((2, 2, block.width - 2, block.height - 2))
        img.paste(inner, (MARGIN + 2, y + 2), rounded_mask(inner.size, RADIUS - 2))
        y += block.height + 16
    if more > 0:
        _text(draw, (W / 2, height - MARGIN - 14), f"and {more} more {'game' if more == 1 else 'games'}", BODY,
              MUTED, anchor="mm")
    return encode_png(img, _palette())


# --- the leaderboard ------------------------------------------------------------------------------------
ROW_H = 46
HEAD_H = 40  # the column names
TOP = 132  # title and subtitle
COL_MARK = MARGIN + 18  # left edge of the asker's marker
COL_RANK = MARGIN + 98  # right edge of the rank
COL_NAME = MARGIN + 116
COL_RATING = W - MARGIN - 236  # right edges of the numbers
COL_GAMES = W - MARGIN - 122
COL_WINS = W - MARGIN - 18
BOT = "(bot)"


def _row(img: Image.Image, draw: ImageDraw.ImageDraw, y: int, row: BoardRow, stripe: bool,
         asker: bool = False) -> None:
    """One leaderboard row with its top at ``y``; ``asker`` marks it as the member who asked whatever its flag."""
    you = row["you"] or asker
    cy = y + ROW_H / 2
    x0, x1 = MARGIN + 6, W - MARGIN - 6
    if you:
        draw.rectangle((x0, y + 1, x1, y + ROW_H - 1), fill=YOU_BAND, outline=YELLOW, width=3)
        marker = shape_sprite(">", 22, YELLOW)
        img.paste(marker, (COL_MARK, round(cy) - 11), marker)
    elif stripe:
        draw.rectangle((x0, y, x1, y + ROW_H - 1), fill=ROW_ALT)
    colour = WHITE
    _text(draw, (COL_RANK, cy), str(row["rank"]), BODY, YELLOW if you else MUTED, anchor="rm", bold=you)
    _text(draw, (COL_RATING, cy), str(row["rating"]), BODY, colour, anchor="rm", bold=you)
    _text(draw, (COL_GAMES, cy), str(row["games"]), BODY, colour, anchor="rm", bold=you)
    _text(draw, (COL_WINS, cy), str(row["wins"]), BODY, colour, anchor="rm", bold=you)
    room: float = COL_RATING - 80 - COL_NAME
    tag = f" {BOT}" if row["bot"] else ""
    if tag:
        room -= text_width(tag, LABEL + 2)
    name = fit_text(clean_name(row["name"], f"Player {row['rank']}"), BODY, room, you)
    end = _text(draw, (COL_NAME, cy), name, BODY, colour, bold=you)
    if tag:
        _text(draw, (end + 6, cy), BOT, LABEL + 2, MUTED)


def render_leaderboard(view: LeaderboardView) -> bytes:
    """A game's leaderboard as PNG bytes: the title, then rank, name, rating, games and wins per row; the member
    who asked has a marker, an outline and bold text, and comes last after "…" when not among the rows."""
    rows = view["rows"][:25]
    you = view["you"]
    body = len(rows) * ROW_H if rows else 110
    tail = (34 + ROW_H) if you is not None else 0
    height = TOP + HEAD_H + body + tail + 16 + MARGIN
    img = felt((W, height))
    draw = ImageDraw.Draw(img)

    game = clean_text(view["game"]) or "Game"
    _text(draw, (MARGIN + 2, 46), fit_text(f"{game} leaderboard", TITLE, W - 2 * MARGIN, True), TITLE, WHITE,
          bold=True)
    rest = f"{SEP}{view['period']}{SEP}at least {_games(view['min_games'])}"
    rest_w = text_width(rest, SUBTITLE)
    server = fit_text(clean_name(view["server"], "this server"), SUBTITLE, max(W - 2 * MARGIN - rest_w, 160))
    end = _text(draw, (MARGIN + 2, 96), server, SUBTITLE, MUTED)
    _text(draw, (end, 96), fit_text(rest, SUBTITLE, W - MARGIN - end), SUBTITLE, MUTED)

    _panel(img, (MARGIN, TOP - 8, W - MARGIN, height - MARGIN))
    y = TOP
    draw.rectangle((MARGIN + 6, y, W - MARGIN - 6, y + HEAD_H - 4), fill=STRIP)
    hy = y + (HEAD_H - 4) / 2
    _text(draw, (COL_RANK, hy), "#", LABEL, MUTED, anchor="rm", bold=True)
    _text(draw, (COL_NAME, hy), "Name", LABEL, MUTED, bold=True)
    _text(draw, (COL_RATING, hy), "Rating", LABEL, MUTED, anchor="rm", bold=True)
    _text(draw, (COL_GAMES, hy), "Games", LABEL, MUTED, anchor="rm", bold=True)
    _text(draw, (COL_WINS, hy), "Wins", LABEL, MUTED, anchor="rm", bold=True)
    y += HEAD_H

    if not rows:
        n = view["min_games"]
        _text(draw, (W / 2, y + body / 2), f"No one has {n} rated {'game' if n == 1 else 'games'} yet", BODY + 2,
              MUTED, anchor="mm")
    for i, row in enumerate(rows):
        _row(img, draw, y, row, i % 2 == 1)
        y += ROW_H
    if not rows:
        y += body
    if you is not None:
        _text(draw, (W / 2, y + 14), "\u2026", BODY + 4, MUTED, anchor="mm", bold=True)
        y += 34
        _row(img, draw, y, you, False, asker=True)
    return encode_png(img, _palette())


# --- a tournament's standings ---------------------------------------------------------------------------
MAX_ROWS = 64  # standings rows drawn; the words list everyone
ROW_NOTE_H = 70  # a row with a second line: "Winner" or the tie-break that decided the place
S_TOP = 176  # title, game and format, round
COL_STAR = MARGIN + 12  # left edge of a winner's star
COL_PLACE = MARGIN + 84  # right edge of the place
COL_PLAYER = MARGIN + 100
COL_PTS = W - MARGIN - 300  # right edges of the numbers, with the tie-breaks
COL_BH = W - MARGIN - 190
COL_SB = W - MARGIN - 100
COL_PLAYED = W - MARGIN - 18
COL_WINS = W - MARGIN - 130  # the points column of an elimination (matches won), which has no tie-breaks
WIN_BAND = mix(PANEL, YELLOW, 0.2)  # a winner's row, which also has a star, the word "Winner" and bold text
DROPPED = "(dropped)"
LEGEND = ("Ties broken by Buchholz (opponents' points), then Sonneborn-Berger (points of those you beat, half of "
          "those you drew)")
TIEBREAK_WORDS = {"buchholz": "Buchholz", "sonneborn_berger": "S-B", "sonneborn-berger": "S-B",
                  "head_to_head": "head-to-head", "head-to-head": "head-to-head"}

# the bracket
SLOT = 32  # one player's line in a match box
BOX_GAP = 14  # between two boxes of a round
COL_GAP = 30  # between two rounds: the joining lines
MAX_BOX_W = 300
FOLD_FROM = 5  # rounds from which the final is drawn between the semifinals (one column fewer)
BRACKET_HEAD = 44  # the rounds' names
LINE = MUTED  # the lines joining the rounds


def score_text(value: float) -> str:
    """Points as short text: "3", "2.5", "1.33" (thirds and fifths come from multiplayer tables)."""
    if not math.isfinite(value):
        return "\u2014"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


def standings_status(view: StandingsView) -> str:
    """ "Final standings", "After round 3 of 5", "After round 3" (no planned end), "Before round 1 of 5"."""
    if view["final"]:
        return "Final standings"
    of = f" of {view['rounds']}" if view["rounds"] is not None else ""
    if view["round"] <= 0:
        return f"Before round 1{of}"
    return f"After round {view['round']}{of}"


def decided_note(decided_by: str) -> str:
    """The tie-break that decided a place, in words ("by Buchholz"); "" when points (or nothing) decided it."""
    key = clean_text(decided_by).strip()
    if not key or key.lower() == "points":
        return ""
    return "by " + TIEBREAK_WORDS.get(key.lower(), key.replace("_", " "))


def round_name(r: int, total: int) -> str:
    """A bracket round's name: "Final", "Semifinals", "Quarterfinals", else "Round N"."""
    from_end = total - 1 - r
    return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(from_end, f"Round {r + 1}")


@cache
def _standings_palette() -> Image.Image:
    colours = ramp(FELT_EDGE, FELT_CENTRE, 40)
    edges = [
        (PANEL, WHITE), (PANEL, MUTED), (PANEL, YELLOW), (PANEL, FAINT), (PANEL, PANEL_EDGE), (PANEL, ROW_ALT),
        (PANEL, STRIP), (STRIP, MUTED), (STRIP, WHITE), (STRIP, FAINT), (STRIP, YELLOW), (STRIP, PANEL_EDGE),
        (ROW_ALT, WHITE), (ROW_ALT, MUTED), (ROW_ALT, FAINT), (WIN_BAND, WHITE), (WIN_BAND, MUTED),
        (WIN_BAND, YELLOW), (PANEL, LINE), (PANEL_EDGE, WHITE),
        (FELT_CENTRE, WHITE), (FELT_CENTRE, MUTED), (FELT_CENTRE, YELLOW), (FELT_EDGE, WHITE), (FELT_EDGE, MUTED),
        (FELT_EDGE, YELLOW), (FELT_CENTRE, PANEL), (FELT_EDGE, PANEL), (FELT_CENTRE, PANEL_EDGE),
        (FELT_EDGE, PANEL_EDGE),
    ]
    for bg, fg in edges:
        colours += ramp(bg, fg, 6)
    return palette_image(colours)


# the bracket's layout: where each match's box is
_Boxes = list[list[tuple[int, int, int, int]]]


def _full_rounds(bracket: list[list[BracketMatch]]) -> list[list[BracketMatch]]:
    """The bracket with its rounds still to come as empty matches, down to the final."""
    rounds = [list(r) for r in bracket]
    while rounds and len(rounds[-1]) > 1:
        rounds.append([{"players": [None, None], "winner": None} for _ in range((len(rounds[-1]) + 1) // 2)])
    return rounds


def _folds(rounds: list[list[BracketMatch]]) -> bool:
    """Whether the final is drawn in the semifinals' column, between them (a big bracket one column narrower)."""
    return len(rounds) >= FOLD_FROM and len(rounds[-1]) == 1 and len(rounds[-2]) == 2


def _bracket_layout(rounds: list[list[BracketMatch]], top: int) -> tuple[_Boxes, int]:
    """Each match's box (rounds, then matches) with the first round's boxes at ``top``, and the bottom."""
    fold = _folds(rounds)
    columns = len(rounds) - (1 if fold else 0)
    room = W - 2 * MARGIN - 2 * 16 - (COL_GAP if fold else 0)  # a folded final's joining lines go right
    box_w = min(MAX_BOX_W, (room - (columns - 1) * COL_GAP) // columns)
    left = (W - columns * box_w - (columns - 1) * COL_GAP - (COL_GAP if fold else 0)) // 2
    seats = max([2] + [len(m["players"]) for r in rounds for m in r])
    box_h = seats * SLOT + 4
    pitch = box_h + BOX_GAP
    boxes: _Boxes = []
    centres: list[list[float]] = []
    for r, matches in enumerate(rounds):
        col = min(r, columns - 1)
        x0 = left + col * (box_w + COL_GAP)
        ys: list[float] = []
        for k in range(len(matches)):
            feeders = centres[r - 1][2 * k: 2 * k + 2] if r else []
            if feeders:
                cy = sum(feeders) / len(feeders)
            elif ys:
                cy = ys[-1] + pitch
            else:
                cy = top + pitch / 2
            ys.append(cy)
        centres.append(ys)
        boxes.append([(x0, round(cy - box_h / 2), x0 + box_w, round(cy - box_h / 2) + box_h) for cy in ys])
    bottom = max(b[3] for r in boxes for b in r) + BOX_GAP
    return boxes, bottom


def _bracket(img: Image.Image, draw: ImageDraw.ImageDraw, rounds: list[list[BracketMatch]], boxes: _Boxes,
             top: int) -> None:
    """Draw the bracket laid out by :func:`_bracket_layout`: the rounds' names at ``top``, the joining lines, the
    boxes. A winner is bold with a triangle before the name; a loser is plain; a bye says "bye"; an empty place
    (a match still to be played) is blank, in a dashed box when neither player is known."""
    fold = _folds(rounds)
    total = len(rounds)
    # the rounds' names over their columns
    seen_x: set[int] = set()
    for r, row in enumerate(boxes):
        if not row or (fold and r == total - 1):
            continue
        x0, x1 = row[0][0], row[0][2]
        if x0 in seen_x:
            continue
        seen_x.add(x0)
        name = round_name(r, total)
        _text(draw, ((x0 + x1) / 2, top + BRACKET_HEAD / 2), fit_text(name, LABEL, x1 - x0, True), LABEL, MUTED,
              anchor="mm", bold=True)
    # joining lines: each match's right edge to the next round's left edge (a folded final: to its right edge)
    for r in range(1, total):
        for k, (cx0, cy0, cx1, cy1) in enumerate(boxes[r]):
            cy = (cy0 + cy1) // 2
            for f in boxes[r - 1][2 * k: 2 * k + 2]:
                fy = (f[1] + f[3]) // 2
                if fold and r == total - 1:
                    turn = f[2] + COL_GAP // 2 + 4
                    draw.line([(f[2], fy), (turn, fy), (turn, cy), (cx1, cy)], fill=LINE, width=2)
                else:
                    turn = f[2] + COL_GAP // 2
                    draw.line([(f[2], fy), (turn, fy), (turn, cy), (cx0, cy)], fill=LINE, width=2)
    if fold:  # the final's name over its box, between the semifinals
        fx0, fy0, fx1, _ = boxes[-1][0]
        _text(draw, ((fx0 + fx1) / 2, fy0 - 16), "Final", LABEL, YELLOW, anchor="mm", bold=True)
    # the boxes
    marker = shape_sprite(">", 16, YELLOW)
    for r, matches in enumerate(rounds):
        for match, (x0, y0, x1, y1) in zip(matches, boxes[r], strict=True):
            players = match["players"]
            known = [p for p in players if p is not None]
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=STRIP)
            if known or r == 0:
                draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=PANEL_EDGE, width=2)
            else:
                dashed_rect(draw, (x0, y0, x1 - 1, y1 - 1), FAINT)
            seats = max(2, len(players))
            for i in range(1, seats):
                ly = y0 + 2 + i * SLOT
                draw.line((x0 + 8, ly, x1 - 9, ly), fill=PANEL_EDGE, width=1)
            for i in range(seats):
                sy = y0 + 2 + (i + 0.5) * SLOT
                player = players[i] if i < len(players) else None
                won = match["winner"] == i and player is not None
                if won:
                    img.paste(marker, (x0 + 8, round(sy) - 8), marker)
                tx = x0 + 30
                room = x1 - 8 - tx
                if player is None:
                    if r == 0 and known:
                        _text(draw, (tx, sy), "bye", LABEL, FAINT)
                    continue
                name = clean_name(player, "Player")
                lost = match["winner"] is not None and not won
                _text(draw, (tx, sy), fit_text(name, LABEL, room, won), LABEL, MUTED if lost else WHITE, bold=won)


def _standing(img: Image.Image, draw: ImageDraw.ImageDraw, y: int, row: StandingRow, height: int, stripe: bool,
              winner: bool, tiebreaks: bool) -> None:
    """One standings row with its top at ``y``: a winner has a band, an outline, a star, bold text and the word
    "Winner"; a dropped player is dimmer and says "(dropped)"; a place decided by a tie-break says which."""
    x0, x1 = MARGIN + 6, W - MARGIN - 6
    cy = y + 23
    if winner:
        draw.rectangle((x0, y + 1, x1, y + height - 1), fill=WIN_BAND, outline=YELLOW, width=3)
        star = shape_sprite("*", 28, YELLOW)
        img.paste(star, (COL_STAR, round(cy) - 14), star)
    elif stripe:
        draw.rectangle((x0, y, x1, y + height - 1), fill=ROW_ALT)
    dropped = row["dropped"]
    colour = FAINT if dropped else WHITE
    _text(draw, (COL_PLACE, cy), str(row["place"]), BODY, YELLOW if winner else (FAINT if dropped else MUTED),
          anchor="rm", bold=winner)
    numbers = ([(COL_PTS, row["points"]), (COL_BH, row["buchholz"]), (COL_SB, row["sonneborn_berger"])]
               if tiebreaks else [(COL_WINS, row["points"])])
    for x, value in numbers:
        _text(draw, (x, cy), score_text(value), BODY, colour, anchor="rm", bold=winner)
    _text(draw, (COL_PLAYED, cy), str(row["games"]), BODY, colour, anchor="rm", bold=winner)
    room: float = (COL_PTS if tiebreaks else COL_WINS) - 76 - COL_PLAYER
    if dropped:
        room -= text_width(" " + DROPPED, LABEL + 2)
    name = fit_text(clean_name(row["name"], f"Player {row['place']}"), BODY, room, winner)
    end = _text(draw, (COL_PLAYER, cy), name, BODY, colour, bold=winner)
    if dropped:
        _text(draw, (end + 8, cy), DROPPED, LABEL + 2, FAINT)
    if winner:
        _text(draw, (COL_PLAYER, y + 52), "Winner", LABEL + 2, YELLOW, bold=True)
    elif note := decided_note(row["decided_by"]):
        _text(draw, (COL_PLAYER, y + 52), note, LABEL, FAINT if dropped else MUTED)


def _row_height(row: StandingRow, final: bool) -> int:
    winner = final and row["place"] == 1
    return ROW_NOTE_H if winner or decided_note(row["decided_by"]) else ROW_H


def render_standings(view: StandingsView) -> bytes:
    """A tournament's standings after a round as PNG bytes.

    The title says the tournament, its game and format, and the round ("After round 3 of 5", "Final standings").
    A Swiss or round-robin table has place, name, points ("Pts"), Buchholz, Sonneborn-Berger ("S-B") and games,
    with a legend of the tie-breaks under it; a row whose place a tie-break decided says which ("by Buchholz") on a
    second line. When ``final``, each winner (place 1) has a band, a star, bold text and the word "Winner". A
    dropped player is dimmer and says "(dropped)". At most :data:`MAX_ROWS` rows; a line counts the rest.

    An elimination (``bracket`` not empty) draws its bracket above a shorter table (place, name, wins, games):
    one column per round, left to right, each match a box with its players, the winner bold after a triangle,
    lines joining each match to the one its winner plays next; rounds not yet paired are dashed empty boxes. A
    phone shows the picture 400 pixels wide, and a bracket is read along a player's path, which is left to right:
    so the columns stay side by side and the bracket grows taller, not wider. From 32 players (five rounds) the
    final is drawn between the two semifinals, in their column, so the columns stay wide enough for a name of
    about a dozen letters at the smallest size; with 64 and more the columns get narrower (names are cut
    shorter) and the full names are in the table below and in the words.
    """
    rounds = _full_rounds(view["bracket"])
    tiebreaks = view["tiebreaks"]
    rows = view["rows"][:MAX_ROWS]
    more = len(view["rows"]) - len(rows)
    final = view["final"]

    y = S_TOP
    boxes: _Boxes = []
    bracket_top = bracket_bottom = 0
    if rounds:
        bracket_top = y - 8
        boxes, bracket_bottom = _bracket_layout(rounds, bracket_top + 14 + BRACKET_HEAD)
        y = bracket_bottom + 28
    table_top = y
    heights = [_row_height(r, final) for r in rows]
    body = sum(heights) if rows else 110
    legend = wrap_text(LEGEND, LABEL, W - 2 * MARGIN - 2 * PAD, 3) if tiebreaks and rows else []
    table_bottom = table_top + HEAD_H + body + 14 + len(legend) * 28 + (10 if legend else 0)
    height = table_bottom + (46 if more > 0 else 0) + MARGIN
    img = felt((W, height))
    draw = ImageDraw.Draw(img)

    # the title
    name = clean_name(view["tournament"], "Tournament")
    _text(draw, (MARGIN + 2, 46), fit_text(name, TITLE, W - 2 * MARGIN, True), TITLE, WHITE, bold=True)
    what = SEP.join(t for t in (clean_text(view["game"]), clean_text(view["format"])) if t)
    _text(draw, (MARGIN + 2, 94), fit_text(what, SUBTITLE, W - 2 * MARGIN), SUBTITLE, MUTED)
    _text(draw, (MARGIN + 2, 136), standings_status(view), BODY + 4, YELLOW if final else WHITE, bold=True)

    if rounds:
        _panel(img, (MARGIN, bracket_top, W - MARGIN, bracket_bottom + 6))
        _bracket(img, draw, rounds, boxes, bracket_top + 10)

    # the table
    _panel(img, (MARGIN, table_top - 8, W - MARGIN, table_bottom))
    y = table_top
    draw.rectangle((MARGIN + 6, y, W - MARGIN - 6, y + HEAD_H - 4), fill=STRIP)
    hy = y + (HEAD_H - 4) / 2
    _text(draw, (COL_PLACE, hy), "#", LABEL, MUTED, anchor="rm", bold=True)
    _text(draw, (COL_PLAYER, hy), "Name", LABEL, MUTED, bold=True)
    if tiebreaks:
        _text(draw, (COL_PTS, hy), "Pts", LABEL, MUTED, anchor="rm", bold=True)
        _text(draw, (COL_BH, hy), "Buchholz", LABEL, MUTED, anchor="rm", bold=True)
        _text(draw, (COL_SB, hy), "S-B", LABEL, MUTED, anchor="rm", bold=True)
    else:
        _text(draw, (COL_WINS, hy), "Score" if view["score"] else "Wins", LABEL, MUTED, anchor="rm", bold=True)
    _text(draw, (COL_PLAYED, hy), "Games", LABEL, MUTED, anchor="rm", bold=True)
    y += HEAD_H
    if not rows:
        _text(draw, (W / 2, y + body / 2), "No players yet", BODY + 2, MUTED, anchor="mm")
        y += body
    for i, (row, h) in enumerate(zip(rows, heights, strict=True)):
        _standing(img, draw, y, row, h, i % 2 == 1, final and row["place"] == 1, tiebreaks)
        y += h
    y += 14
    for line in legend:
        _text(draw, (MARGIN + PAD, y + 12), line, LABEL, MUTED)
        y += 28
    if more > 0:
        words = f"and {more} more {'player' if more == 1 else 'players'} (see the text)"
        _text(draw, (W / 2, table_bottom + 24), words, BODY, MUTED, anchor="mm")
    return encode_png(img, _standings_palette())


__all__ = ["render_leaderboard", "render_profile", "render_standings"]
