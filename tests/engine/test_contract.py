"""The engine contract (engine/base.py), checked generically for every game in the default registry.

Nothing here knows a particular game: a game added to the catalogue (``tables.catalog``) is checked automatically.
Games written but not yet registered are listed in ``UNREGISTERED`` so they are checked too.
Game-specific rules belong in that game's own test files.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.base import Game, GameOverError, IllegalMoveError, NotationError, NotYourTurnError, OptionError, Result
from engine.blockers import Blockers
from engine.rng import Rng
from tables.catalog import Catalog, default_catalog

UNREGISTERED: list[Game] = []  # games written but not yet in the registry (e.g. no renderer yet)
GAMES = default_catalog().all() + [g for g in UNREGISTERED if g.key not in default_catalog()]
MAX_PLIES = 5000
SEEDS = (1, 2)  # per game and seat count; each game's own playout tests play many more
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]

game_param = pytest.mark.parametrize("game", GAMES, ids=[g.key for g in GAMES])


def seat_counts(game: Game) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def random_options(game: Game, rng: Rng, seats: int | None = None) -> dict[str, Any]:
    """Random choices, drawn again while the game refuses them for this many seats (e.g. a two-player mode)."""
    for _ in range(50):
        options = {o.name: rng.choice(list(o.choices)) for o in game.options if o.choices}
        try:
            game.resolve_options(options, seats)
        except OptionError:
            continue
        return options
    return {}


def detach(game: Game, state: Any) -> Any:
    """A JSON copy of the dump that shares nothing with the state."""
    return json.loads(json.dumps(game.dump(state)))


def check_position(game: Game, state: Any, seats: int, names: list[str], parsed: set[str] | None = None) -> None:
    """Everything the contract promises of one position. ``parsed``: notations already shown to round-trip in this
    game (parsing depends on the text alone, not on the position), so each is parsed once per playout."""
    to_act = game.to_act(state)
    over = game.is_over(state)
    assert to_act <= game.may_act(state) <= set(range(seats))
    assert bool(to_act) is not over, "seats act exactly until the game is over"
    for seat in range(seats):
        legal = game.legal_moves(state, seat)
        assert bool(legal) is (seat in game.may_act(state)), "moves exactly for the seats that may act"
        assert len(set(legal)) == len(legal)
        for move in legal:
            text = game.format_move(move)
            assert isinstance(text, str) and text
            if parsed is None or text not in parsed:
                assert game.parse_move(text) == move
                if parsed is not None:
                    parsed.add(text)
            label = game.text.describe_move(state, seat, move)
            assert isinstance(label, str) and label
    data = game.dump(state)
    assert data["format"]
    assert game.dump(game.load(json.loads(json.dumps(data)))) == data
    public = game.view(state, None)
    json.dumps(public)
    for seat in range(seats):
        json.dumps(game.view(state, seat))
    assert isinstance(game.text.status_line(state), str)
    assert isinstance(game.text.alt_text(public, names), str)


def random_playout(game: Game, seats: int, options: dict[str, Any], seed: int) -> tuple[Any, list[tuple[int, str]]]:
    names = NAMES[:seats]
    state = game.new_game(seats, options, seed)
    chooser = Rng(seed + 101 * seats)
    log: list[tuple[int, str]] = []
    parsed: set[str] = set()
    check_position(game, state, seats, names, parsed)
    for _ in range(MAX_PLIES):
        if game.is_over(state):
            break
        seat = chooser.choice(sorted(game.may_act(state)))  # the seats that only may act move too
        move = chooser.choice(game.legal_moves(state, seat))
        before = detach(game, state)
        new, events = game.apply(state, seat, move)
        assert game.dump(state) == before, "apply mutated its input"
        for event in events:
            assert isinstance(event.kind, str) and isinstance(event.text, str)
            json.dumps(dict(event.data))
        log.append((seat, game.format_move(move)))
        state = new
        check_position(game, state, seats, names, parsed)
    else:
        pytest.fail(f"{game.key}: no end after {MAX_PLIES} plies (seats {seats}, options {options}, seed {seed})")
    return state, log


def check_result(result: Result | None, seats: int) -> None:
    assert result is not None
    assert len(result.scores) == len(result.ranks) == seats
    # competition ranking: a seat's rank is 1 + the number of seats ranked strictly better
    assert list(result.ranks) == [1 + sum(1 for other in result.ranks if other < r) for r in result.ranks]
    if result.cooperative:  # everybody wins together, or nobody does; every seat shares rank 1
        assert set(result.ranks) == {1} and result.winners in (frozenset(), frozenset(range(seats)))
        assert not result.draw
    else:
        assert result.winners and result.winners == {s for s in range(seats) if result.ranks[s] == 1}
        assert result.draw is (len(result.winners) != 1)
    json.dumps(result.to_json())


@game_param
def test_identity_and_seats(game: Game) -> None:
    assert game.key and game.key == game.key.lower() and " " not in game.key
    assert game.name and game.text.summary
    assert 1 <= game.min_players <= game.max_players
    for bad in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(OptionError):
            game.new_game(bad, {}, 1)


@game_param
def test_options_resolve_to_defaults(game: Game) -> None:
    defaults = {o.name: o.default for o in game.options}
    assert game.resolve_options({}) == defaults
    assert game.resolve_options(None) == defaults
    assert len(defaults) == len(game.options), "option names are unique"
    for spec in game.options:
        assert isinstance(spec.default, spec.kind) and spec.description
        assert spec.coerce(spec.default) == spec.default
        if spec.choices:
            assert spec.default in spec.choices
            for choice in spec.choices:
                assert game.resolve_options({spec.name: choice})[spec.name] == choice
                assert game.resolve_options({spec.name: str(choice)})[spec.name] == choice  # as typed in Discord
    with pytest.raises(OptionError):
        game.resolve_options({"no_such_option_anywhere": 1})


@game_param
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_follow_the_contract(game: Game, seed: int) -> None:
    for seats in seat_counts(game):
        options = game.resolve_options(random_options(game, Rng(seed * 31 + seats), seats), seats)
        state, log = random_playout(game, seats, options, seed)
        result = game.result(state)
        check_result(result, seats)
        assert result is not None
        # a game stopped early is ranked as it stands by the same ranking its finished game uses (cooperative games
        # share first place; Breaker Blocks' outright wins end the game before its circuits count)
        if not game.cooperative and getattr(state, "winner", None) is None:
            assert game.ranks_now(state) == result.ranks
        assert game.to_act(state) == frozenset()
        last_seat, last_text = log[-1]
        with pytest.raises(GameOverError):
            game.apply(state, last_seat, game.parse_move(last_text))
        assert game.dump(game.replay(seats, options, seed, log)) == game.dump(state)


@game_param
def test_new_game_is_deterministic(game: Game) -> None:
    seats = game.min_players
    assert game.dump(game.new_game(seats, {}, 7)) == game.dump(game.new_game(seats, {}, 7))
    assert len({json.dumps(game.dump(game.new_game(seats, {}, s))) for s in range(5)}) > 1


@game_param
def test_refusals(game: Game) -> None:
    seats = game.max_players
    state = game.new_game(seats, {}, 3)
    waiting = sorted(set(range(seats)) - game.to_act(state))
    acting = sorted(game.to_act(state))
    move = game.legal_moves(state, acting[0])[0]
    before = detach(game, state)
    if waiting:
        with pytest.raises(NotYourTurnError):
            game.apply(state, waiting[0], move)
    assert issubclass(NotYourTurnError, IllegalMoveError) and issubclass(GameOverError, IllegalMoveError)
    for text in ("", "this is not a move at all", "\u2603"):
        with pytest.raises(NotationError) as info:
            game.parse_move(text)
        assert str(info.value)
    assert game.dump(state) == before
    with pytest.raises(ValueError):
        game.load({**game.dump(state), "format": -1})


def test_registry() -> None:
    registry = default_catalog()
    keys = [g.key for g in registry.all()]
    assert keys and len(set(keys)) == len(keys)
    for game in registry.all():
        assert registry.get(game.key) is game and game.key in registry
    assert registry.get("no-such-game") is None
    with pytest.raises(ValueError):
        Catalog([*registry.all(), registry.all()[0]])


def test_blockers_private_info_matches_the_generic_definition() -> None:
    """Blockers! answers private_info from its racks; it must equal the view-based default."""

    game = Blockers()
    state = game.new_game(3, game.resolve_options({}), 4)
    rng = Rng(9)
    for _ in range(30):
        for seat in range(3):
            assert game.private_info(state, seat) == Game.private_info(game, state, seat)
        (seat,) = game.to_act(state)
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
