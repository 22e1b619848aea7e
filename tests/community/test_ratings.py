"""Ratings and records as pure values: the model's moves, who a game rates, places among the rated, turn times and a
player's record."""

from __future__ import annotations

import random

import pytest

from community.ratings import BASE, NEW, Replay, Skill, in_words, rate
from community.records import GameResult, RatingRules, SeatFacts, places_among, record_of, turn_times, who_is_rated

PERSON = SeatFacts  # a person's seat: SeatFacts(user_id)


def test_a_newcomer_shows_the_base_rating_and_a_wide_margin() -> None:
    assert NEW.shown == BASE
    assert NEW.give_or_take > 500 and not NEW.settled
    assert "no rated games" in in_words(NEW, 0)


def test_a_win_raises_and_a_loss_lowers_by_the_same_amount_between_equals() -> None:
    after = rate([("a", 1), ("b", 2)], {})
    assert after["a"].mu > NEW.mu > after["b"].mu
    assert after["a"].mu - NEW.mu == pytest.approx(NEW.mu - after["b"].mu)
    assert after["a"].sigma < NEW.sigma and after["b"].sigma < NEW.sigma  # both are better known


def test_a_shared_place_is_a_tie() -> None:
    after = rate([("a", 1), ("b", 1), ("c", 3)], {})
    assert after["a"] == after["b"]
    assert after["c"].mu < NEW.mu < after["a"].mu


def test_places_matter_at_a_multiplayer_table() -> None:
    after = rate([(p, i + 1) for i, p in enumerate("abcdef")], {})
    mus = [after[p].mu for p in "abcdef"]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 6


def test_an_upset_moves_more_than_the_expected_result() -> None:
    strong, weak = Skill(35, 2), Skill(15, 2)
    expected = rate([("s", 1), ("w", 2)], {"s": strong, "w": weak})
    upset = rate([("s", 2), ("w", 1)], {"s": strong, "w": weak})
    assert strong.mu - upset["s"].mu > expected["s"].mu - strong.mu


def test_one_identity_in_two_seats_moves_by_the_mean_of_its_seats() -> None:
    after = rate([("x", 1), ("bot:hard", 2), ("bot:hard", 3)], {})
    alone = rate([("x", 1), ("y", 2), ("z", 3)], {})
    assert after["bot:hard"].mu == pytest.approx((alone["y"].mu + alone["z"].mu) / 2)
    assert after["x"] == alone["x"]


def test_the_same_games_in_the_same_order_give_the_same_numbers() -> None:
    rng = random.Random(5)
    games = [[(p, rng.randint(1, 3)) for p in rng.sample("abcdefg", rng.randint(2, 5))] for _ in range(200)]

    def run() -> dict[str, Skill]:
        skills: dict[str, Skill] = {}
        for places in games:
            skills.update(rate(places, skills))
        return skills

    assert run() == run()


def test_a_game_needs_two_seats() -> None:
    with pytest.raises(ValueError):
        rate([("a", 1)], {})


RULES_BOTS = RatingRules(rate_bots=True)
RULES_STAYED = RatingRules(rate_handed="stayed")


@pytest.mark.parametrize(("seats", "kw", "rated", "why"), [
    ([PERSON(1), PERSON(2)], {}, (True, True), ""),
    ([PERSON(1), PERSON(2)], {"in_server": False}, (False, False), "outside a server"),
    ([PERSON(1)], {}, (False,), "solo"),
    ([PERSON(1), PERSON(2)], {"cooperative": True}, (False, False), "cooperative"),
    ([PERSON(1), PERSON(2)], {"host_rated": False}, (False, False), "host made"),
    ([PERSON(1), SeatFacts(None, "hard")], {}, (False, False), "a bot has a seat"),
    ([PERSON(1), SeatFacts(None, "hard")], {"rules": RULES_BOTS}, (True, True), ""),
    ([SeatFacts(None, "easy"), SeatFacts(None, "hard")], {"rules": RULES_BOTS}, (False, False), "too few people"),
    ([PERSON(1), PERSON(2), SeatFacts(None, "medium", handed=True)], {}, (False, False, False), "handed"),
    ([PERSON(1), PERSON(2), SeatFacts(None, "medium", handed=True)], {"rules": RULES_STAYED}, (True, True, False),
     ""),
    ([PERSON(1), SeatFacts(None, "medium", handed=True)], {"rules": RULES_STAYED}, (False, False), "too few"),
    ([PERSON(1), SeatFacts(None, "easy"), SeatFacts(None, "medium", handed=True)],
     {"rules": RatingRules(rate_bots=True, rate_handed="stayed")}, (True, True, False), ""),
    ([PERSON(1), SeatFacts(None, "easy"), SeatFacts(None, "medium", handed=True)], {"rules": RULES_STAYED},
     (False, False, False), "a bot has a seat"),
])
def test_who_a_game_rates(seats: list[SeatFacts], kw: dict, rated: tuple[bool, ...], why: str) -> None:
    args = {"in_server": True, "host_rated": True, "cooperative": False, **kw}
    got = who_is_rated(seats, **args)
    assert got.seats == rated
    assert why in got.why and (got.why == "") == any(rated)


def test_identities_of_people_and_bots() -> None:
    assert SeatFacts(42).player == "42"
    assert SeatFacts(None, "hard").player == "bot:hard"


@pytest.mark.parametrize(("ranks", "keep", "out"), [
    ([1, 2, 3], [True, False, True], [1, 2]),
    ([1, 1, 3, 4], [True, True, False, True], [1, 1, 3]),
    ([2, 1, 1], [True, True, True], [3, 1, 1]),
    ([4, 3, 2, 1], [True, True, True, True], [4, 3, 2, 1]),
])
def test_places_among_the_rated(ranks: list[int], keep: list[bool], out: list[int]) -> None:
    assert places_among(ranks, keep) == out


@pytest.mark.parametrize(("moves", "start", "out"), [
    ([(0, 10.0), (1, 20.0), (1, 25.0), (0, 40.0)], 0.0, {0: (2, 25.0), 1: (1, 15.0)}),
    ([(0, 10.0), (1, 20.0)], None, {1: (1, 10.0)}),  # the first turn counts only from a known start
    ([], 0.0, {}),
    ([(0, 5.0), (0, 9.0), (0, 12.0)], 0.0, {0: (1, 12.0)}),  # one run of moves is one turn
])
def test_turn_times(moves: list[tuple[int, float]], start: float | None, out: dict) -> None:
    assert turn_times(moves, start) == out


def _game(tid: int, place: int, outcome: str, opponents: tuple = (), turns: int = 0, secs: float = 0.0
          ) -> GameResult:
    return GameResult(tid, place, 2, outcome, True, float(tid), opponents, turns, secs)


def test_a_record_counts_wins_places_streaks_and_opponents() -> None:
    ana, ben = ("1", "Ana", 2), ("2", "Ben", 1)
    games = [_game(1, 1, "win", (ana,), 2, 60), _game(2, 1, "shared win", (("1", "Ana", 1),), 1, 30),
             _game(3, 2, "loss", (ben,), 1, 30), _game(4, 1, "win", (ana,)), _game(5, 1, "win", (("1", "Ana2", 2),))]
    rec = record_of(games)
    assert (rec.games, rec.wins, rec.places) == (5, 4, (4, 1))
    assert (rec.best_streak, rec.streak) == (2, 2)
    assert rec.seconds_per_turn == pytest.approx(120 / 4)
    assert rec.opponents == (("Ana2", 4, 3), ("Ben", 1, 0))  # the latest name; finished above her 3 times


def test_solo_games_count_as_games_but_not_in_the_win_rate() -> None:
    solo = [GameResult(t, 1, 1, "win", False, float(t)) for t in (1, 2, 3)]
    rec = record_of([*solo, _game(4, 1, "win", (("1", "Ana", 2),)), _game(5, 2, "loss", (("1", "Ana", 1),))])
    assert (rec.games, rec.versus, rec.wins, rec.best_streak) == (5, 2, 1, 1)
    assert record_of(solo).versus == 0 and record_of(solo).wins == 0


def test_an_empty_record() -> None:
    rec = record_of([])
    assert (rec.games, rec.wins, rec.places, rec.best_streak, rec.seconds_per_turn) == (0, 0, (), 0, None)


def test_a_replay_counts_a_game_once_per_player_and_moves_as_rate_does() -> None:
    replay = Replay()
    before, after = replay.play([("x", 1), ("bot:hard", 2), ("bot:hard", 3)])
    assert before == {} and after == rate([("x", 1), ("bot:hard", 2), ("bot:hard", 3)], {})
    assert replay.games == {"x": 1, "bot:hard": 1}
    before, _ = replay.play([("x", 2), ("y", 2)])  # a table's places: ranks are compressed, ties kept
    assert before == {"x": after["x"]} and replay.games["x"] == 2
    assert rate([("a", 1), ("b", 3), ("c", 3)], {}) == rate([("a", 1), ("b", 2), ("c", 2)], {})
