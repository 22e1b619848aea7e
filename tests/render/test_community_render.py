"""The profile card and the leaderboard renderers: views in, valid PNGs out, every text readable at 400 px wide."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from community.views import BoardRow, GameLine, LeaderboardView, ProfileView
from render.community import (
    MIN_SIZE,
    W,
    ordinal,
    places_text,
    recording,
    render_leaderboard,
    render_profile,
    turn_time,
    win_rate,
)
from tests.render.png_helpers import decode

MAX_BYTES = 300 * 1024


def game_line(game: str = "Breaks", **changes: Any) -> GameLine:
    line: GameLine = {
        "game": game, "games": 42, "wins": 17, "places": [17, 12, 9, 4], "rating": 1540, "likely": 1618,
        "give_or_take": 84, "settled": True, "rank": 3, "best_streak": 5, "seconds_per_turn": 250.0,
        "opponents": [("Ana", 12, 7), ("Bob", 9, 3)], "extra": "",
    }
    line.update(changes)  # type: ignore[typeddict-item]
    return line


def profile(games: list[GameLine], name: str = "Zoë", server: str = "Board Game Night") -> ProfileView:
    return {"name": name, "server": server, "games": games}


FIVE_GAMES = profile([
    game_line("Breaks", games=312, wins=140, places=[140, 90, 50, 20, 8, 4], rank=1, best_streak=12,
              seconds_per_turn=7800.0,
              opponents=[("محمد عبد الرحمن", 120, 64), ("李小龙", 80, 40), ("A" * 60, 30, 11)]),
    game_line("Blockers", rating=None, likely=None, give_or_take=None, settled=False, rank=None, games=3, wins=0,
              places=[0, 1, 2], seconds_per_turn=None, opponents=[("נועה", 3, 1)]),
    game_line("Bloc by Bloc", settled=False, places=[], opponents=[],
              extra="Cooperative record per faction: workers 4 wins of 6, students 2 of 5, "
                    "neighbours 1 of 3, prisoners 0 of 2, and more words to make this wrap over two lines."),
    game_line("Breaker Blocks", seconds_per_turn=30.0, extra="Best solo ladder: level 12"),
    game_line("Block", rank=245, seconds_per_turn=3 * 86400 + 7200),
], name="Maximilian Alexander von Hohenzollern-Sigmaringen the Third", server="محبي ألعاب الطاولة")
ONE_GAME = profile([game_line()])
NO_GAMES = profile([])
UNRATED = profile([game_line(rating=None, likely=None, give_or_take=None, settled=False, rank=None, games=1,
                             wins=0, places=[0, 1], opponents=[])])


def row(rank: int, name: str, you: bool = False, bot: bool = False) -> BoardRow:
    return {"rank": rank, "name": name, "rating": 1800 - 7 * rank, "games": 10 + 200 // rank,
            "wins": 3 + 90 // rank,
            "bot": bot, "you": you}


NAMES = ["Ana", "Bob", "محمد", "李小龙", "נועה", "Мария", "Level 3", "Carmen", "देवी", "สมชาย", "Ελένη", "김민준",
         "Dmitri", "Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy",
         "Rupert the Extraordinarily Long-Named Baron of Somewhere", "Sybil"]


def board(rows: list[BoardRow], you: BoardRow | None = None, min_games: int = 5) -> LeaderboardView:
    return {"game": "Breaks", "server": "Board Game Night", "period": "the last 30 days", "min_games": min_games,
            "rows": rows, "you": you}


BOARD_EMPTY = board([])
BOARD_THREE = board([row(1, "Ana"), row(2, "Level 3", bot=True), row(3, "Bob", you=True)])
BOARD_FULL = board([row(i + 1, n, bot=n.startswith("Level")) for i, n in enumerate(NAMES)],
                   you=row(87, "محمد عبد الرحمن", you=True))
BOARD_FULL_ASKER_IN = board([row(i + 1, n, you=i == 4, bot=n.startswith("Level")) for i, n in enumerate(NAMES)])

PROFILES = {"none": NO_GAMES, "one": ONE_GAME, "five": FIVE_GAMES, "unrated": UNRATED}
BOARDS = {"empty": BOARD_EMPTY, "three": BOARD_THREE, "full_you": BOARD_FULL, "full_in": BOARD_FULL_ASKER_IN}
CASES: list[tuple[str, Callable[[Any], bytes], Any]] = (
    [(f"profile_{k}", render_profile, v) for k, v in PROFILES.items()]
    + [(f"board_{k}", render_leaderboard, v) for k, v in BOARDS.items()]
)


@pytest.fixture(scope="module")
def rendered() -> dict[str, tuple[bytes, list[tuple[str, int]]]]:
    """Each case rendered once, with the texts it drew and their sizes."""
    out = {}
    for key, fn, view in CASES:
        with recording() as seen:
            out[key] = (fn(view), list(seen))
    return out


@pytest.mark.parametrize("key", [c[0] for c in CASES])
def test_a_valid_portrait_png_of_sane_size(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]],
                                            key: str) -> None:
    png, _ = rendered[key]
    img = decode(png)
    assert img.width == W
    assert 200 <= img.height <= 4000
    assert len(png) < MAX_BYTES


@pytest.mark.parametrize("key", [c[0] for c in CASES])
def test_every_text_is_readable_at_400_px(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]],
                                          key: str) -> None:
    png, seen = rendered[key]
    width = decode(png).width
    assert seen, "nothing was recorded"
    small = [(text, size) for text, size in seen if size * 400 / width < 9]
    assert not small
    assert min(size for _, size in seen) >= MIN_SIZE


def test_the_card_grows_with_the_games(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]]) -> None:
    heights = {k: decode(rendered[f"profile_{k}"][0]).height for k in ("none", "one", "five")}
    assert heights["none"] < heights["one"] < heights["five"]
    six = copy.deepcopy(FIVE_GAMES)
    six["games"].append(game_line("Sixth"))
    assert decode(render_profile(six)).height > heights["five"]  # the "and 1 more game" line


def test_what_the_card_says(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]]) -> None:
    texts = [t for t, _ in rendered["profile_five"][1]]
    assert "1540" in texts and "likely 1618 \u00b1 84" in texts and "settled" in texts
    assert "unrated" in texts and "still settling" in texts
    assert "#1 on the leaderboard" in texts
    assert "2 h 10 min" in texts and "\u2014" in texts
    assert "محمد عبد الرحمن" in texts  # a right-to-left name is a run of its own
    assert any(t.endswith("\u2026") for t in texts)  # the long names are cut short
    assert "Sixth" not in texts
    assert "No finished games yet" in [t for t, _ in rendered["profile_none"][1]]


def test_what_the_board_says(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]]) -> None:
    assert "No one has 5 rated games yet" in [t for t, _ in rendered["board_empty"][1]]
    texts = [t for t, _ in rendered["board_full_you"][1]]
    assert "\u2026" in texts and "محمد عبد الرحمن" in texts and "87" in texts
    assert texts.count("(bot)") == 1
    assert "(bot)" in [t for t, _ in rendered["board_three"][1]]


def test_same_view_same_bytes(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]]) -> None:
    assert render_profile(copy.deepcopy(FIVE_GAMES)) == rendered["profile_five"][0]
    assert render_leaderboard(copy.deepcopy(BOARD_FULL)) == rendered["board_full_you"][0]


def _differ(a: bytes, b: bytes) -> bool:
    x, y = decode(a), decode(b)
    return x.size != y.size or ImageChops.difference(x, y).getbbox() is not None


def test_the_pictures_follow_the_data(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]]) -> None:
    three = rendered["board_three"][0]
    moved = board([row(1, "Ana", you=True), row(2, "Level 3", bot=True), row(3, "Bob")])
    nobody = board([row(1, "Ana"), row(2, "Level 3", bot=True), row(3, "Bob")])
    assert _differ(three, render_leaderboard(moved))
    assert _differ(three, render_leaderboard(nobody))
    # the highlight changes the pixels of the asker's row and only around it
    a, b = decode(three), decode(render_leaderboard(nobody))
    box = ImageChops.difference(a, b).getbbox()
    assert box is not None and box[3] - box[1] < 80
    one = rendered["profile_one"][0]
    assert _differ(one, render_profile(profile([game_line(rating=1541)])))
    assert _differ(one, render_profile(profile([game_line(settled=False)])))
    assert _differ(one, rendered["profile_unrated"][0])


def test_words() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th"]
    assert turn_time(None) == "\u2014"
    assert turn_time(40) == "40 s"
    assert turn_time(240) == "4 min"
    assert turn_time(7800) == "2 h 10 min"
    assert turn_time(7200) == "2 h"
    assert turn_time(3 * 86400 + 7200) == "3 d 2 h"
    assert win_rate(0, 0) == "\u2014" and win_rate(3, 1) == "33%"
    assert places_text([3, 0, 2, 0, 0]) == ["1st \u00d73", "2nd \u00d70", "3rd \u00d72"]
    assert len(places_text([1] * 9)) == 6


def test_images_can_be_saved(tmp_path: Any, rendered: dict[str, tuple[bytes, list[tuple[str, int]]]]) -> None:
    """The PNG bytes open in Pillow as RGB or palette images (what Discord gets)."""
    for png, _ in rendered.values():
        path = tmp_path / "x.png"
        path.write_bytes(png)
        with Image.open(path) as img:
            assert img.mode in ("P", "RGB")
