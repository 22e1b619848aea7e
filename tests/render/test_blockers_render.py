"""The Blockers! board renderer: views built to the contract in docs/dev/blockers-view.md in, valid PNGs out.

The engine is written separately, so the views here come from :func:`make_view`, a builder that
follows the contract: a board of tiles that fit their squares, counts that add up, groups and
scores computed from the board. Checks are on the decoded image (format, orientation, size, pixels
where a highlight or the rack must be), never on timing.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from PIL import Image

from engine.base import ResultView
from engine.blockers import Blockers
from engine.blockers.board import sort_faces
from engine.blockers.view import BlockersLast, BlockersPlayer, BlockersView, TileView
from engine.rng import Rng
from render.blockers import (
    BOARD_BOX,
    HIGHLIGHT,
    PLAYER_COLOURS,
    SECOND_CUE,
    W,
    forget_tables,
    layout,
    marker_box,
    render,
    square_box,
)
from render.common import Drawn, recording
from tests.render.png_helpers import decode
from tests.view_schema import problems

MAX_BYTES = 200 * 1024
NAMES = ["Alice", "Bob", "Carmen", "Dmitri", "Eun-ji"]
ROWS = "ABCDEFGHI"
SYMBOLS = ["sun", "moon", "star", "heart", "triangle", "diamond", "circle", "square", "cross"]
COLOURS = ["yellow", "blue", "green", "red", "purple"]
ALL_FACES = [str(n) for n in range(1, 10)] + list(ROWS) + SYMBOLS + ["wild"]

View = BlockersView


# --- a builder of views ------------------------------------------------------------------------------
def seat_colours(seats: int, mode: str) -> list[list[str]]:
    if mode == "advanced":
        return [["yellow", "green"], ["blue", "red"]]
    return [[COLOURS[s]] for s in range(seats)]


def fits(row: int, col: int) -> list[str]:
    """The faces that fit the square: its column's number, its row's letter, its section's symbol, wild."""
    return [str(col + 1), ROWS[row], SYMBOLS[(row // 3) * 3 + col // 3], "wild"]


def square_name(row: int, col: int) -> str:
    return f"{col + 1}{ROWS[row]}"


def count_groups(board: list[list[TileView | None]], colours: list[str]) -> int:
    seen: set[tuple[int, int]] = set()
    groups = 0
    for r in range(9):
        for c in range(9):
            cell = board[r][c]
            if cell is None or cell["colour"] not in colours or (r, c) in seen:
                continue
            groups += 1
            stack = [(r, c)]
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    other = board[ny][nx] if 0 <= ny < 9 and 0 <= nx < 9 else None
                    if other and other["colour"] == cell["colour"] and (ny, nx) not in seen:
                        seen.add((ny, nx))
                        stack.append((ny, nx))
    return groups


def make_view(
    seats: int = 2,
    mode: str = "basic",
    tiles: int = 0,
    captures: int = 0,
    seed: int = 1,
    last: str | None = None,  # None, "place", "capture" or "pass"
    finished: int = 0,  # advanced: how many colours are finished (the first ones in seat order)
    over: bool = False,
    viewer: int | None = None,
) -> View:
    """A view as ``Blockers.view(state, viewer)`` returns it: ``tiles`` on the board, ``captures``
    tiles taken in all, the last move of the given kind, and racks only for a ``viewer``."""
    rnd = random.Random(seed)
    owners = seat_colours(seats, mode)
    colours = [c for cs in owners for c in cs]
    used: dict[str, set[str]] = {c: set() for c in colours}
    board: list[list[TileView | None]] = [[None] * 9 for _ in range(9)]
    squares = [(r, c) for r in range(9) for c in range(9)]
    rnd.shuffle(squares)
    placed: list[tuple[int, int]] = []
    for r, c in squares:
        if len(placed) >= tiles:
            break
        colour = rnd.choice(colours)
        free = [f for f in fits(r, c) if f not in used[colour]]
        if free:
            face = rnd.choice(free)
            used[colour].add(face)
            board[r][c] = {"colour": colour, "face": face}
            placed.append((r, c))
    captured: list[dict[str, int]] = [{} for _ in range(seats)]
    lost = {c: 0 for c in colours}
    for _ in range(captures):
        seat = rnd.randrange(seats)
        victim = rnd.choice([c for c in colours if c not in owners[seat]])
        captured[seat][victim] = captured[seat].get(victim, 0) + 1
        lost[victim] += 1
    finished_colours = [c for cs in owners for c in cs][:finished] if mode == "advanced" else []
    if over:
        finished_colours = list(colours)
    racks: dict[str, list[str]] = {}
    for colour in colours:
        spare = [f for f in ALL_FACES if f not in used[colour]]
        rnd.shuffle(spare)
        racks[colour] = spare[: 4 if colour in finished_colours else 5]
    players: list[BlockersPlayer] = []
    for seat in range(seats):
        mine = owners[seat]
        groups = count_groups(board, mine)
        worst = max(captured[seat].values(), default=0)
        players.append({
            "colours": list(mine),
            "rack_counts": {c: len(racks[c]) for c in mine},
            "pile_counts": {c: 0 if (over or c in finished_colours) else max(0, 23 - len(used[c]) - lost[c])
                            for c in mine},
            "captured": dict(captured[seat]),
            "groups": groups,
            "score": groups + worst,
            "finished": [c for c in mine if c in finished_colours],
            "public": {c: list(racks[c]) for c in mine if c in finished_colours},
        })
    ply = len(placed) + captures + (1 if last else 0)
    turn = ply % seats
    last_move: BlockersLast | None = None
    if last in ("place", "capture") and placed:
        r, c = placed[-1]
        tile = board[r][c]
        assert tile is not None
        mover = next(s for s in range(seats) if tile["colour"] in owners[s])
        face = tile["face"] if mode == "basic" else f"{tile['colour']}:{tile['face']}"
        last_move = {"seat": mover, "move": f"{face} {square_name(r, c)}", "square": square_name(r, c),
                     "tile": tile.copy(), "captured": None, "pass": False}
        if last == "capture":
            victim = next(x for x in colours if x not in owners[mover])
            victim_face = next(f for f in fits(r, c) if f != tile["face"])
            last_move["captured"] = {"colour": victim, "face": victim_face}
            captured_by = players[mover]["captured"]
            captured_by[victim] = captured_by.get(victim, 0) + 1
            players[mover]["score"] = players[mover]["groups"] + max(captured_by.values())
        turn = (mover + 1) % seats
    elif last == "pass":
        mover = (turn - 1) % seats
        last_move = {"seat": mover, "move": "pass", "square": None, "tile": None, "captured": None, "pass": True}
    result: ResultView | None = None
    if over:
        scores = [float(p["score"]) for p in players]
        ranks = [1 + sum(1 for t in scores if t < s) for s in scores]
        winners = [s for s in range(seats) if ranks[s] == 1]
        result = {"scores": scores, "ranks": ranks, "winners": winners,
                  "reason": "lowest score" if len(winners) == 1 else "tie: the win is shared"}
    view: View = {
        "game": "blockers",
        "viewer": viewer,
        "mode": mode,
        "phase": "over" if over else "play",
        "ply": ply,
        "turn": turn,
        "to_act": [] if over else [turn],
        "board": board,
        "sections": list(SYMBOLS),
        "players": players,
        "last": last_move,
        "result": result,
    }
    if viewer is not None:
        view["rack"] = {c: list(racks[c]) for c in owners[viewer]}
    return view


# --- checks on the image ---------------------------------------------------------------------------
def check_board(view: View, names: list[str] | None = None) -> Image.Image:
    assert not problems(view, BlockersView), problems(view, BlockersView)[:3]  # the test builds a true view
    png = render(view, names if names is not None else NAMES[: len(view["players"])])
    assert len(png) < MAX_BYTES
    img = decode(png)
    assert img.height > img.width, "the picture is portrait, for a phone"
    lay = layout(len(view["players"]), view["mode"] == "advanced", "rack" in view)
    assert img.size == (W, lay.height) and W == 800
    return img


def count_colour(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    crop = img.crop(box)
    colours = crop.getcolors(maxcolors=crop.width * crop.height) or []
    return sum(n for n, c in colours if c == colour)


def outline_pixels(img: Image.Image, row: int, col: int) -> int:
    """Highlight pixels on the outline of one square: a band along its grid lines, between the tiles
    (a tile starts ``INSET`` pixels inside its square, so no tile face reaches the band)."""
    x0, y0, x1, y1 = square_box(row, col)
    outer = (x0 - 2, y0 - 2, x1 + 3, y1 + 3)
    inner = (x0 + 3, y0 + 3, x1 - 2, y1 - 2)
    return count_colour(img, outer, HIGHLIGHT) - count_colour(img, inner, HIGHLIGHT)


def last_square(view: View) -> tuple[int, int]:
    square = view["last"]["square"]
    return ROWS.index(square[1]), int(square[0]) - 1


# --- states of the game ---------------------------------------------------------------------------
CASES: dict[str, dict[str, Any]] = {
    "empty-2": dict(seats=2),
    "empty-5": dict(seats=5),
    "mid-2-place": dict(seats=2, tiles=30, captures=3, last="place"),
    "mid-3-capture": dict(seats=3, tiles=40, captures=6, last="capture"),
    "mid-4-place": dict(seats=4, tiles=50, captures=8, last="place"),
    "mid-5-capture": dict(seats=5, tiles=60, captures=12, last="capture"),
    "pass-3": dict(seats=3, tiles=70, captures=15, last="pass"),
    "advanced-mid": dict(seats=2, mode="advanced", tiles=40, captures=5, last="capture"),
    "advanced-finished": dict(seats=2, mode="advanced", tiles=60, captures=9, last="place", finished=1),
    "advanced-three-finished": dict(seats=2, mode="advanced", tiles=70, captures=9, last="capture", finished=3),
    "over-2": dict(seats=2, tiles=48, captures=7, last="place", over=True),
    "over-5": dict(seats=5, tiles=81, captures=20, last="capture", over=True),
    "over-advanced": dict(seats=2, mode="advanced", tiles=81, captures=14, last="capture", over=True),
}


@pytest.mark.parametrize("case", list(CASES))
def test_public_views(case: str) -> None:
    view = make_view(**CASES[case])
    assert "rack" not in view
    check_board(view)


@pytest.mark.parametrize("case", list(CASES))
def test_private_views(case: str) -> None:
    kwargs = CASES[case]
    view = make_view(**kwargs, viewer=kwargs.get("seats", 2) - 1)
    assert "rack" in view
    check_board(view)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_player_count_public_and_private(seats: int) -> None:
    for viewer in (None, 0, seats - 1):
        check_board(make_view(seats=seats, tiles=10 * seats, captures=seats, seed=seats, last="place",
                              viewer=viewer))


def test_every_tile_face_in_every_colour() -> None:
    view = make_view(seats=5)
    faces = iter((c, f) for c in COLOURS for f in ALL_FACES)
    for r in range(9):
        for c in range(9):
            colour, face = next(faces, ("purple", "wild"))
            view["board"][r][c] = {"colour": colour, "face": face}
    check_board(view)


def test_the_whole_board_full_with_a_capture_on_the_corner() -> None:
    view = make_view(seats=4, tiles=81, captures=10, last="capture", seed=3)
    for square in ("9I", "1A", "9A", "1I"):
        row, col = ROWS.index(square[1]), int(square[0]) - 1
        view["last"]["square"] = square
        view["last"]["tile"] = view["board"][row][col]
        img = check_board(view)
        assert outline_pixels(img, row, col) > 400, square


# --- what the image shows ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["place", "capture"])
def test_last_move_outlines_its_square_and_no_other(kind: str) -> None:
    view = make_view(seats=3, tiles=35, captures=4, last=kind, seed=11)
    row, col = last_square(view)
    img = check_board(view)
    assert outline_pixels(img, row, col) > 400
    for r in range(9):
        for c in range(9):
            if abs(r - row) > 1 or abs(c - col) > 1:  # the neighbours may hold the capture marker
                assert outline_pixels(img, r, c) < 30, (r, c)
    plain = copy.deepcopy(view)
    plain["last"] = None
    assert outline_pixels(check_board(plain), row, col) < 30


def test_a_capture_adds_its_marker() -> None:
    view = make_view(seats=2, tiles=20, captures=2, last="capture", seed=5)
    row, col = last_square(view)
    placed = copy.deepcopy(view)
    placed["last"]["captured"] = None
    corner = marker_box(row, col)  # the marker straddles the square's lower edge, on the right
    with_capture, without = check_board(view), check_board(placed)
    assert with_capture.crop(corner).tobytes() != without.crop(corner).tobytes()
    assert count_colour(with_capture, corner, HIGHLIGHT) > count_colour(without, corner, HIGHLIGHT) + 100


def test_a_pass_highlights_no_square() -> None:
    view = make_view(seats=3, tiles=30, captures=2, last="pass", seed=4)
    img = check_board(view)
    assert all(outline_pixels(img, r, c) < 30 for r in range(9) for c in range(9))


@pytest.mark.parametrize("seats,mode", [(2, "basic"), (5, "basic"), (2, "advanced")])
def test_the_rack_appears_only_in_a_seats_own_view(seats: int, mode: str) -> None:
    public = make_view(seats=seats, mode=mode, tiles=25, captures=3, last="place", seed=seats)
    private = make_view(seats=seats, mode=mode, tiles=25, captures=3, last="place", seed=seats, viewer=1)
    assert private["rack"] and "rack" not in public
    box = layout(seats, mode == "advanced", True).rack
    assert box is not None and layout(seats, mode == "advanced", False).rack is None
    pub, priv = check_board(public), check_board(private)
    assert pub.crop(box).tobytes() != priv.crop(box).tobytes()
    # the rack's five tiles are drawn large in the viewer's colour (blue); the public image has at most
    # a swatch or two of that colour there
    blue = (0, 114, 178)
    assert count_colour(priv, box, blue) > count_colour(pub, box, blue) + 5 * 1500
    # the board is the same in both
    assert pub.crop(BOARD_BOX).tobytes() == priv.crop(BOARD_BOX).tobytes()


def test_to_act_and_winner_get_the_thick_yellow_border() -> None:
    yellow = (240, 228, 66)
    view = make_view(seats=4, tiles=20, captures=2, last="place", seed=2)
    img = check_board(view)
    cards = layout(4, False, False).cards
    for seat, (x0, y0, x1, _) in enumerate(cards):
        assert (img.getpixel(((x0 + x1) // 2, y0 + 2)) == yellow) == (seat in view["to_act"]), seat
    over = make_view(seats=4, tiles=60, captures=9, last="capture", seed=2, over=True)
    img = check_board(over)
    for seat, (x0, y0, x1, _) in enumerate(cards):
        assert (img.getpixel(((x0 + x1) // 2, y0 + 2)) == yellow) == (seat in over["result"]["winners"]), seat


def test_different_states_give_different_images() -> None:
    images = {render(make_view(**kwargs), NAMES[: kwargs.get("seats", 2)]) for kwargs in CASES.values()}
    assert len(images) == len(CASES)
    view = make_view(seats=3, tiles=30, captures=4, last="capture", seed=9)
    before = render(view, NAMES[:3])
    changed = copy.deepcopy(view)
    changed["players"][1]["captured"]["red"] = 9
    assert render(changed, NAMES[:3]) != before
    changed = copy.deepcopy(view)
    changed["last"]["captured"]["face"] = "wild"
    assert render(changed, NAMES[:3]) != before
    assert render(view, ["Xavier", "Bob", "Carmen"]) != before
    private = copy.deepcopy(view)
    private["viewer"], private["rack"] = 0, {"yellow": ["7", "C", "moon", "wild", "2"]}
    other = copy.deepcopy(private)
    other["rack"]["yellow"][0] = "8"
    assert render(private, NAMES[:3]) != render(other, NAMES[:3])


def test_rendering_is_pure() -> None:
    for kwargs in (CASES["mid-5-capture"], CASES["advanced-three-finished"], CASES["over-advanced"]):
        view = make_view(**kwargs, viewer=0)
        names = list(NAMES)
        snapshot = copy.deepcopy(view)
        once = render(view, names)
        assert view == snapshot and names == NAMES
        assert render(view, names) == once


@pytest.mark.parametrize("names", [
    ["A" * 80, "B" * 80, "C" * 80, "D" * 80, "E" * 80],
    ["Zoë Åström", "李小龙", "🎲🎲", "", "x"],
    ["x"],  # fewer names than seats
])
def test_awkward_names_still_render(names: list[str]) -> None:
    check_board(make_view(seats=5, tiles=40, captures=6, last="capture", seed=8, viewer=2), names)
    check_board(make_view(seats=5, tiles=81, captures=20, last="capture", seed=8, over=True), names)


def test_a_shared_win_marks_every_winner() -> None:
    view = make_view(seats=3, tiles=50, captures=6, last="place", over=True, seed=6)
    view["result"] = {"scores": [4.0, 4.0, 6.0], "ranks": [1, 1, 3], "winners": [0, 1], "reason": "tie"}
    img = check_board(view)
    for seat, (x0, y0, x1, _) in enumerate(layout(3, False, False).cards):
        assert (img.getpixel(((x0 + x1) // 2, y0 + 2)) == (240, 228, 66)) == (seat < 2)


def test_a_finished_colour_shows_its_public_tiles() -> None:
    view = make_view(seats=2, mode="advanced", tiles=60, captures=9, last="place", finished=1, seed=12)
    alice = view["players"][0]
    assert alice["finished"] == ["yellow"] and len(alice["public"]["yellow"]) == 4
    card = layout(2, True, False).cards[0]
    shown = check_board(view)
    hidden = copy.deepcopy(view)
    hidden["players"][0]["public"] = {}
    # four small yellow tiles in Alice's card (swatches and the border aside)
    yellow = (240, 228, 66)
    assert count_colour(shown, card, yellow) > count_colour(check_board(hidden), card, yellow) + 4 * 300


@pytest.mark.parametrize(("seats", "mode"), [(2, "basic"), (2, "advanced"), (3, "basic"), (5, "basic")])
def test_public_image_is_the_same_whatever_the_racks_hold(seats: int, mode: str) -> None:
    """Random positions from real games: give every unfinished colour a different rack (tiles swapped with its
    pile, so every count stays the same). The public image is byte-identical, so it shows nothing of a rack,
    while the owner's own image does change."""
    game = Blockers()
    names = [f"player{i}" for i in range(seats)]
    checked = 0
    for seed in range(2):
        rng = Rng(seed)
        state = game.new_game(seats, game.resolve_options({"mode": mode}), seed)
        while not game.is_over(state) and checked < 4 * (seed + 1):
            (seat,) = game.to_act(state)
            state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
            if rng.below(12):
                continue
            twin = copy.deepcopy(state)
            for colour in twin.racks:
                if colour in twin.finished or not twin.piles[colour]:
                    continue
                pool = twin.racks[colour] + twin.piles[colour]
                random.Random(seed).shuffle(pool)
                n = len(twin.racks[colour])
                twin.racks[colour], twin.piles[colour] = sort_faces(pool[:n]), pool[n:]
            if twin.racks == state.racks:
                continue
            assert render(game.view(twin, None), names) == render(game.view(state, None), names)
            changed = next(s for s in range(seats)
                           if game.private_info(twin, s) != game.private_info(state, s))
            assert render(game.view(twin, changed), names) != render(game.view(state, changed), names)
            checked += 1
    assert checked >= 6


@pytest.mark.parametrize("kind", ["deutan", "protan", "tritan"])
def test_tile_colours_stay_apart_at_phone_size_under_colour_blindness(kind: str) -> None:
    """At 400 px a board is a third of its size: patterns and corner letters are a few pixels. Each colour's tile
    must still look different from every other one, as seen with each colour-vision deficiency (issue 8: green
    and purple merged under deuteranopia and protanopia)."""
    from itertools import combinations

    from render.blockers import COLOURS, TILE_SIZE, tile_sprite
    from tools.pictures import simulate

    def seen(colour: str) -> tuple[float, ...]:
        tile = tile_sprite(colour, "5", TILE_SIZE).convert("RGB")
        small = tile.resize((TILE_SIZE // 3, TILE_SIZE // 3), Image.Resampling.LANCZOS)
        pixels = list(simulate(small, kind).get_flattened_data())
        return tuple(sum(p[i] for p in pixels) / len(pixels) for i in range(3))  # type: ignore[index]

    looks = {c: seen(c) for c in COLOURS}
    for a, b in combinations(COLOURS, 2):
        distance = sum((x - y) ** 2 for x, y in zip(looks[a], looks[b], strict=True)) ** 0.5
        assert distance >= 55, (a, b, round(distance))  # the old tiles: 37 (deutan), 39 (protan), 22 (tritan)


# --- on a phone ------------------------------------------------------------------------------------------
def texts_of(view: View, names: list[str] | None = None) -> list[Drawn]:
    """Every text the picture sets, the empty table's included (its cache is cleared first)."""
    forget_tables()
    with recording() as texts:
        check_board(view, names)
    return texts


PHONE_NAMES = ["Alexandra-Marguerite", "محمد", "נועה", "Bo", "李小龙"]


@pytest.mark.parametrize("case", list(CASES))
def test_every_needed_text_is_9_px_at_400_px_wide(case: str) -> None:
    """Shown 400 px wide on a phone (half size), every text a player needs is at least 9 px high: 18 px here."""
    kwargs = CASES[case]
    seats = kwargs.get("seats", 2)
    for viewer in (None, seats - 1):
        texts = [t for t in texts_of(make_view(**kwargs, viewer=viewer), PHONE_NAMES[:seats]) if not t.decorative]
        assert texts
        small = [(t.text, t.size) for t in texts if t.size * 400 / W < 9]
        assert not small, small[:5]


def test_the_last_move_is_said_in_words() -> None:
    view = make_view(seats=3, tiles=35, captures=4, last="capture", seed=11)
    last = view["last"]
    tile, captured = last["tile"], last["captured"]
    words = " ".join(t.text for t in texts_of(view))
    assert "LAST MOVE" in words
    assert f"{NAMES[last['seat']]} played {tile['colour']} {tile['face']} on {last['square']}" in words
    assert f"capturing {captured['colour']} {captured['face']}" in words
    passed = make_view(seats=3, tiles=30, captures=2, last="pass", seed=4)
    assert f"{NAMES[passed['last']['seat']]} passed" in " ".join(t.text for t in texts_of(passed))
    assert "New game: no moves yet" in [t.text for t in texts_of(make_view(seats=2))]


@pytest.mark.parametrize("seats,mode", [(2, "advanced"), (5, "basic")])
def test_no_private_line_on_the_public_picture(seats: int, mode: str) -> None:
    private_words = {"YOUR RACK", "only you see this", "YOU", "PRIVATE VIEW"}
    public = {t.text for t in texts_of(make_view(seats=seats, mode=mode, tiles=30, captures=3, last="place"))}
    assert not public & private_words
    assert not [t for t in public if t.lower().startswith(("you ", "your "))]
    own = {t.text for t in texts_of(make_view(seats=seats, mode=mode, tiles=30, captures=3, last="place", viewer=1))}
    assert private_words <= own


def test_each_colour_has_its_letter_wherever_it_is_on_the_public_board() -> None:
    assert PLAYER_COLOURS.keys() == SECOND_CUE.keys() and len(set(SECOND_CUE.values())) == len(SECOND_CUE) == 5
    view = make_view(seats=5, tiles=60, captures=12, last="capture", seed=3)
    on_board = [cell["colour"] for row in view["board"] for cell in row if cell]
    texts = texts_of(view)
    for colour in COLOURS:
        letter = SECOND_CUE[f"{colour} tiles"]
        drawn = [t for t in texts if t.text == letter and not t.decorative]
        assert len(drawn) >= on_board.count(colour) + 1, colour  # each tile, the player's swatch, ...
        assert min(t.size for t in drawn) * 400 / W >= 9, colour
