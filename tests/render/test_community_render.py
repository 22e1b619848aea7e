"""The profile card, leaderboard and standings renderers: views in, valid PNGs out, every text readable at 400 px
wide."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops

from community.pairing import bracket_order
from community.views import (
    BoardRow,
    BracketMatch,
    GameLine,
    LeaderboardView,
    ProfileView,
    StandingRow,
    StandingsView,
)
from render.common import recording
from render.community import (
    LEGEND,
    MAX_ROWS,
    MIN_SIZE,
    W,
    decided_note,
    ordinal,
    places_text,
    render_leaderboard,
    render_profile,
    render_standings,
    round_name,
    score_text,
    standings_status,
    turn_time,
    win_rate,
)
from tests.render.png_helpers import decode

MAX_BYTES = 300 * 1024


def game_line(game: str = "Breaks", **changes: Any) -> GameLine:
    line: GameLine = {
        "game": game, "games": 42, "versus": 42, "wins": 17, "places": [17, 12, 9, 4], "rating": 1540, "likely": 1618,
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

# --- standings --------------------------------------------------------------------------------------------
PLAYERS = NAMES[:22] + ["Trent", "Uma", "Victor", "Walter", "Xena", "Yusuf", "Zoë", "Maximilian", "Ali", "Bea"]


def srow(place: int, name: str, points: float, buchholz: float = 0.0, sb: float = 0.0, games: int = 3,
         dropped: bool = False, decided_by: str = "") -> StandingRow:
    return {"place": place, "name": name, "points": points, "buchholz": buchholz, "sonneborn_berger": sb,
            "games": games, "dropped": dropped, "decided_by": decided_by}


def standings(rows: list[StandingRow], rnd: int = 3, rounds: int | None = 5, final: bool = False,
              bracket: list[list[BracketMatch]] | None = None, fmt: str = "Swiss, 2 seats") -> StandingsView:
    return {"tournament": "Spring Cup 2025", "game": "Breaks", "format": fmt, "round": rnd, "rounds": rounds,
            "final": final, "rows": rows, "bracket": bracket or [], "tiebreaks": not bracket and "arena" not in fmt,
            "score": "arena" in fmt}


SWISS_8 = standings([
    srow(1, "Ana", 3, 5.5, 5.5),
    srow(2, "Bob", 2.5, 6, 4.25, decided_by="points"),
    srow(2, "محمد", 2.5, 6, 4.25),  # a shared place
    srow(4, "李小龙", 2, 6.5, 3, decided_by="points"),
    srow(5, "נועה", 2, 5, 3, decided_by="buchholz"),
    srow(6, "Rupert the Extraordinarily Long-Named Baron of Somewhere", 2, 5, 2.5, decided_by="sonneborn_berger"),
    srow(7, "Мария", 1, 5.5, 0.5, games=2, dropped=True, decided_by="points"),
    srow(8, "Eve", 0, 4.5, 0, decided_by="points"),
])
ZERO_ROUNDS = standings([srow(1, n, 0, games=0) for n in PLAYERS[:8]], rnd=0)
FINAL_TWO = standings([
    srow(1, "Ana", 4, 11, 9, games=5), srow(1, "Carmen", 4, 11, 9, games=5),
    srow(3, "Bob", 3.5, 12, 8, games=5, decided_by="points"),
    srow(4, "Dmitri", 3.5, 10, 7, games=5, decided_by="head_to_head"),
    srow(5, "Eve", 3, 9.5, 6, games=5, decided_by="points"),
    srow(6, "Frank", 1, 8, 1, games=2, dropped=True, decided_by="points"),
], rnd=5, final=True)
SEVENTY = standings([srow(1 + i // 2 * 2, f"{PLAYERS[i % len(PLAYERS)]} {i + 1}", 7 - i / 12, 30 - i / 5,
                          20 - i / 7, 7, decided_by="" if i % 2 else ("points" if i % 4 == 0 else "buchholz"))
                     for i in range(70)], rnd=7, rounds=None)


def bracket(n: int, decided: int, partial: int = 0) -> list[list[BracketMatch]]:
    """``n`` players seeded as the tournament does (byes to the top seeds): the first ``decided`` rounds played,
    then ``partial`` matches of the next; the rounds after it are left out (the renderer draws them empty)."""
    size = 1
    while size < n:
        size *= 2
    seeds = bracket_order(size)
    first: list[BracketMatch] = []
    for k in range(size // 2):
        pa, pb = (PLAYERS[s - 1] if s <= n else None for s in seeds[2 * k: 2 * k + 2])
        first.append({"players": [pa, pb], "winner": 0 if pb is None else (1 if pa is None else None)})
    rounds = [first]
    for r in range(decided + 1):
        cur = rounds[-1]
        for k, m in enumerate(cur):
            if m["winner"] is None and None not in m["players"] and (r < decided or k < partial):
                m["winner"] = (k + r) % 2
        if len(cur) == 1 or r == decided:
            break
        rounds.append([{"players": [m["players"][m["winner"]] if m["winner"] is not None else None
                                    for m in cur[k: k + 2]], "winner": None} for k in range(0, len(cur), 2)])
    return rounds


def elimination(n: int, decided: int, partial: int = 0, final: bool = False) -> StandingsView:
    rows = [srow(1 if i == 0 else 1 + 2 ** (i.bit_length() - 1), PLAYERS[i], max(0.0, decided - i.bit_length() + 1),
                 games=min(decided, 5)) for i in range(n)]
    return standings(rows, rnd=decided, rounds=None, final=final, bracket=bracket(n, decided, partial),
                     fmt="single elimination")


ELIM_4 = elimination(4, 1)  # the semifinals played, the final open
ELIM_5 = elimination(5, 1, 1)  # three byes in the first round; one semifinal played
ELIM_8 = elimination(8, 1, 1)  # one semifinal played; the other and the final open
ELIM_32 = elimination(32, 2, 3)  # three quarterfinals played; the semifinals and the final not paired yet
ELIM_32_DONE = elimination(32, 5, final=True)

STANDINGS = {"swiss8": SWISS_8, "zero": ZERO_ROUNDS, "final_two": FINAL_TWO, "seventy": SEVENTY,
             "elim4": ELIM_4, "elim5": ELIM_5, "elim8": ELIM_8, "elim32": ELIM_32, "elim32_done": ELIM_32_DONE}

SOLO = profile([game_line("BLOCK", games=42, versus=34, wins=17), game_line("BLOCK", games=20, versus=0, wins=0,
                                                                          best_streak=0)])
PROFILES = {"none": NO_GAMES, "one": ONE_GAME, "five": FIVE_GAMES, "unrated": UNRATED, "solo": SOLO}
BOARDS = {"empty": BOARD_EMPTY, "three": BOARD_THREE, "full_you": BOARD_FULL, "full_in": BOARD_FULL_ASKER_IN}
CASES: list[tuple[str, Callable[[Any], bytes], Any]] = (
    [(f"profile_{k}", render_profile, v) for k, v in PROFILES.items()]
    + [(f"board_{k}", render_leaderboard, v) for k, v in BOARDS.items()]
    + [(f"standings_{k}", render_standings, v) for k, v in STANDINGS.items()]
)


@pytest.fixture(scope="module")
def rendered() -> dict[str, tuple[bytes, list[tuple[str, int]]]]:
    """Each case rendered once, with the texts it drew and their sizes."""
    out = {}
    for key, fn, view in CASES:
        with recording() as seen:
            out[key] = (fn(view), [(d.text, d.size) for d in seen])
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


def test_solo_games_are_no_wins_nor_losses(rendered: dict[str, tuple[bytes, list[tuple[str, int]]]]) -> None:
    texts = [t for t, _ in rendered["profile_solo"][1]]
    assert "17 of 34" in texts and "50%" in texts, "wins of the games with others, and their rate"
    assert texts.count("\u2014") >= 3, "all solo: no wins, win rate nor streak"


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


# --- standings ------------------------------------------------------------------------------------------
Rendered = dict[str, tuple[bytes, list[tuple[str, int]]]]


def _texts(rendered: Rendered, key: str) -> list[str]:
    return [t for t, _ in rendered[f"standings_{key}"][1]]


def test_what_the_standings_say(rendered: Rendered) -> None:
    texts = _texts(rendered, "swiss8")
    assert "Spring Cup 2025" in texts and "Breaks \u00b7 Swiss, 2 seats" in texts and "After round 3 of 5" in texts
    assert {"#", "Name", "Pts", "Buchholz", "S-B", "Games"} <= set(texts)
    assert texts.count("2") >= 2 + 1  # the shared second place twice (and a score of 2)
    assert "by Buchholz" in texts and "by S-B" in texts and "by points" not in texts
    assert texts.count("(dropped)") == 1 and "Мария" in texts
    assert "محمد" in texts  # a right-to-left name is a run of its own
    assert any(t.startswith("Rupert") and t.endswith("\u2026") for t in texts)
    assert "4.25" in texts and "2.5" in texts
    assert "Winner" not in texts
    assert " ".join(texts[-2:]) == LEGEND  # the legend, on two lines
    zero = _texts(rendered, "zero")
    assert "Before round 1 of 5" in zero and "Winner" not in zero and "by Buchholz" not in zero
    final = _texts(rendered, "final_two")
    assert "Final standings" in final and final.count("Winner") == 2 and "by head-to-head" in final
    seventy = _texts(rendered, "seventy")
    assert "After round 7" in seventy
    assert "and 6 more players (see the text)" in seventy
    assert f"{PLAYERS[(MAX_ROWS - 1) % len(PLAYERS)]} {MAX_ROWS}" in seventy
    assert f"{PLAYERS[MAX_ROWS % len(PLAYERS)]} {MAX_ROWS + 1}" not in seventy


ROUND_NAMES = ("Round 1", "Round 2", "Quarterfinals", "Semifinals", "Final")


def test_what_the_brackets_say(rendered: Rendered) -> None:
    four = _texts(rendered, "elim4")
    assert [t for t in four if t in ROUND_NAMES] == ["Semifinals", "Final"]
    assert "Buchholz" not in four and "S-B" not in four and "Wins" in four and LEGEND.split()[0] not in four
    five = _texts(rendered, "elim5")
    assert five.count("bye") == 3
    assert "Quarterfinals" in five and "Final" in five  # the final not paired yet is drawn (empty)
    big = _texts(rendered, "elim32")
    assert [t for t in big if t in ROUND_NAMES] == list(ROUND_NAMES)
    assert all(p in big for p in PLAYERS)
    assert "bye" not in big
    done = _texts(rendered, "elim32_done")
    assert done.count("Winner") == 1 and "Final standings" in done


def test_brackets_grow_taller_not_wider(rendered: Rendered) -> None:
    heights = [decode(rendered[f"standings_{k}"][0]).height for k in ("elim4", "elim8", "elim32")]
    assert heights == sorted(heights) and heights[2] > heights[0] + 1000
    assert {decode(rendered[f"standings_{k}"][0]).width for k in STANDINGS} == {W}


def test_standings_same_view_same_bytes(rendered: Rendered) -> None:
    assert render_standings(copy.deepcopy(SWISS_8)) == rendered["standings_swiss8"][0]
    assert render_standings(copy.deepcopy(ELIM_5)) == rendered["standings_elim5"][0]


def _changed_rows(a: bytes, b: bytes) -> tuple[int, int]:
    box = ImageChops.difference(decode(a), decode(b)).getbbox()
    assert box is not None, "the pictures are the same"
    return box[1], box[3]


def test_the_standings_follow_the_data(rendered: Rendered) -> None:
    swiss = rendered["standings_swiss8"][0]
    # a dropped player is drawn dimmer: only that row changes
    back = copy.deepcopy(SWISS_8)
    back["rows"][6]["dropped"] = False
    top, bottom = _changed_rows(swiss, render_standings(back))
    assert bottom - top < 50
    # one number changes its cell
    more = copy.deepcopy(SWISS_8)
    more["rows"][3]["buchholz"] = 7.5
    top, bottom = _changed_rows(swiss, render_standings(more))
    assert bottom - top < 40
    # the winners of a final: a band, a star and bold; not before the end
    final = rendered["standings_final_two"][0]
    ongoing = copy.deepcopy(FINAL_TWO)
    ongoing["final"] = False
    assert _differ(final, render_standings(ongoing))
    star = decode(final).getpixel((50, 176 + 40 + 23))  # the middle of the first winner's star
    assert isinstance(star, tuple) and star[0] > 200 and star[1] > 200 and star[2] < 120  # yellow
    assert _differ(swiss, rendered["standings_zero"][0])


def _yellow(png: bytes) -> int:
    """How many pixels are yellow (the winners' marks)."""
    r, g, b = decode(png).split()
    bright = ImageChops.multiply(r.point(lambda v: 255 if v > 200 else 0), g.point(lambda v: 255 if v > 200 else 0))
    return ImageChops.multiply(bright, b.point(lambda v: 255 if v < 120 else 0)).histogram()[255]


def test_the_bracket_follows_the_data(rendered: Rendered) -> None:
    four = rendered["standings_elim4"][0]
    won = copy.deepcopy(ELIM_4)
    won["bracket"][1][0]["winner"] = 0
    top, bottom = _changed_rows(four, render_standings(won))
    assert bottom - top < 90  # the final's box only
    other = copy.deepcopy(ELIM_4)
    other["bracket"][0][0]["winner"] = 1 - (other["bracket"][0][0]["winner"] or 0)
    assert _differ(four, render_standings(other))
    assert _yellow(render_standings(won)) > _yellow(four)  # the winner's triangle


def test_standings_words() -> None:
    assert [score_text(v) for v in (3.0, 2.5, 4.25, 1 / 3, 0.4, 0.0)] == ["3", "2.5", "4.25", "0.33", "0.4", "0"]
    assert standings_status(SWISS_8) == "After round 3 of 5"
    assert standings_status(standings([], rnd=4, rounds=None)) == "After round 4"
    assert standings_status(standings([], rnd=0, rounds=None)) == "Before round 1"
    assert standings_status(FINAL_TWO) == "Final standings"
    assert [decided_note(d) for d in ("", "points", "buchholz", "Buchholz", "sonneborn_berger", "head_to_head")] == [
        "", "", "by Buchholz", "by Buchholz", "by S-B", "by head-to-head"]
    assert [round_name(r, 5) for r in range(5)] == ["Round 1", "Round 2", "Quarterfinals", "Semifinals", "Final"]
    assert round_name(0, 1) == "Final"


def test_no_players_and_odd_brackets() -> None:
    with recording() as seen:
        png = render_standings(standings([], rnd=0))
    assert "No players yet" in [d.text for d in seen]
    decode(png)
    two = standings([srow(1, "Ana", 1, games=1), srow(2, "Bob", 0, games=1)], rnd=1, rounds=None, final=True,
                    bracket=[[{"players": ["Ana", "Bob"], "winner": 0}]], fmt="single elimination")
    three = elimination(3, 0)
    three["bracket"][0].append({"players": [None, None], "winner": None})  # an odd number of first-round matches
    for view in (two, three):
        with recording() as seen:
            img = decode(render_standings(view))
        assert img.width == W and min(d.size for d in seen) >= MIN_SIZE
