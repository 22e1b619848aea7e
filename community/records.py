"""What a finished game leaves behind: who of its seats is rated (and why not), the turns each player took, and a
player's record in a game (games, wins, places, streaks, opponents). Pure: storage feeds it rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

RATE_HANDED = ("unrated", "stayed")  # a game where a seat was handed to a bot: unrated, or rated for those who stayed


@dataclass(frozen=True)
class RatingRules:
    """A server's rules for rating (``/settings``): games against bots rated, each bot level an identity of its own
    on the leaderboard; and what a seat handed to a bot during the game does to it."""

    rate_bots: bool = False
    rate_handed: str = "unrated"


@dataclass(frozen=True)
class SeatFacts:
    """A seat as the rating rules see it: a person (``user_id``) or a bot of ``bot`` level; ``handed``: a person's
    seat that was given to a bot during the game."""

    user_id: int | None
    bot: str | None = None
    handed: bool = False

    @property
    def player(self) -> str:
        """The identity a result is kept under: the member's id, or the bot level's."""
        return str(self.user_id) if self.user_id is not None else f"bot:{self.bot or 'medium'}"


@dataclass(frozen=True)
class Rated:
    """Which seats a game rates (by seat), and, when it rates none, why not in words."""

    seats: tuple[bool, ...]
    why: str = ""

    @property
    def any(self) -> bool:
        return any(self.seats)


def who_is_rated(seats: Sequence[SeatFacts], *, in_server: bool, host_rated: bool, cooperative: bool,
                 rules: RatingRules = RatingRules()) -> Rated:
    """The seats whose results move ratings. What is rated: a game between people that ended (normally, by a
    resignation or by the clock) in a server. Not: a solo game (it has its ladder), a cooperative game (a team against
    the game: kept per faction instead; ``cooperative`` is the game's result's, so a semi-cooperative Bloc by Bloc
    game, decided per seat, is rated), a table its host made unrated, a game with a bot seat unless the server rates
    games against bots, and a game where a person's seat was handed to a bot unless the server rates it for the
    people who stayed (then the handed seats are left out)."""
    none = (False,) * len(seats)
    if not in_server:
        return Rated(none, "games outside a server are not rated")
    if len(seats) < 2:
        return Rated(none, "solo games have their ladder instead of a rating")
    if cooperative:
        return Rated(none, "a cooperative game is kept per faction, not rated")
    if not host_rated:
        return Rated(none, "the host made this table unrated")
    handed = [s.handed for s in seats]
    if any(handed) and rules.rate_handed != "stayed":
        return Rated(none, "a seat was handed to a bot during the game")
    bots = [s.bot is not None and not s.handed for s in seats]
    if any(bots) and not rules.rate_bots:
        return Rated(none, "a bot has a seat (this server rates games between people only)")
    rated = tuple(not h for h in handed)
    people = sum(1 for s, r in zip(seats, rated, strict=True) if r and s.user_id is not None)
    if sum(rated) < 2 or people < 1:
        return Rated(none, "too few people stayed to the end")
    return Rated(rated)


def places_among(ranks: Sequence[int], keep: Sequence[bool]) -> list[int]:
    """Competition ranks among the kept seats only (``ranks`` are the whole table's): [1, 2, 3] keeping the first and
    the last gives [1, 2]; ties stay ties."""
    kept = [r for r, k in zip(ranks, keep, strict=True) if k]
    return [1 + sum(1 for q in kept if q < r) for r in kept]


def turn_times(moves: Iterable[tuple[int, float]], started_at: float | None) -> dict[int, tuple[int, float]]:
    """Each seat's ``(turns, seconds)`` from the move log's ``(seat, time)`` in play order: a turn is a run of one
    seat's moves, and lasts from the move before it (or the start) to its last move. The first turn counts only when
    the start is known. (In a game of simultaneous picks the picks are ordered by when they came, which measures each
    pick from the one before: close enough for an average.)"""
    out: dict[int, tuple[int, float]] = {}

    def add(seat: int, since: float | None, until: float) -> None:
        if since is not None:
            turns, seconds = out.get(seat, (0, 0.0))
            out[seat] = (turns + 1, seconds + max(0.0, until - since))

    before: float | None = started_at  # when the move before the current run was made
    run_seat: int | None = None
    run_since: float | None = None
    run_last = 0.0
    for seat, at in moves:
        if seat != run_seat:
            if run_seat is not None:
                add(run_seat, run_since, run_last)
                before = run_last
            run_seat, run_since = seat, before
        run_last = at
    if run_seat is not None:
        add(run_seat, run_since, run_last)
    return out


@dataclass(frozen=True)
class GameResult:
    """One of a player's finished games, as a record reads it."""

    table_id: int
    place: int
    seats: int
    outcome: str  # win, shared win, loss
    rated: bool
    finished_at: float
    opponents: tuple[tuple[str, str, int], ...] = ()  # (player, name, their place)
    turns: int = 0
    turn_seconds: float = 0.0
    cooperative: bool = False


@dataclass(frozen=True)
class Record:
    """A player's record in one game."""

    games: int
    wins: int  # of the games against others (``versus``): a solo game is no win nor loss
    places: tuple[int, ...]  # how many times first, second… (index 0: first)
    best_streak: int  # most wins in a row
    streak: int  # wins in a row up to the last game
    seconds_per_turn: float | None
    opponents: tuple[tuple[str, int, int], ...] = field(default=())  # favourite opponents: (name, games, won against)
    versus: int = 0  # the games with other players (the win rate's games); the rest were solo


def record_of(results: Sequence[GameResult], top: int = 3) -> Record:
    """A player's record from their finished games (in the order they ended). Wins, places and streaks count games
    against others (a solo game is won by its player alone: its record is its score); a cooperative game's places say
    nothing (the team shares them), and its other players are partners, not opponents."""
    played = [r for r in results if r.seats > 1]
    wins = sum(1 for r in played if r.outcome != "loss")
    places = Counter(r.place for r in played if not r.cooperative)
    most = max(places, default=0)
    best = run = 0
    for r in played:
        run = run + 1 if r.outcome != "loss" else 0
        best = max(best, run)
    turns = sum(r.turns for r in results)
    met: Counter[str] = Counter()
    beaten: Counter[str] = Counter()
    names: dict[str, str] = {}
    for r in played:
        if r.cooperative:
            continue
        for player, name, place in r.opponents:
            met[player] += 1
            names[player] = name  # the latest name they played under
            if r.place < place:
                beaten[player] += 1
    favourites = tuple((names[p], n, beaten[p]) for p, n in sorted(met.items(), key=lambda kv: (-kv[1], kv[0]))[:top])
    return Record(games=len(results), wins=wins, places=tuple(places.get(p, 0) for p in range(1, most + 1)),
                  best_streak=best, streak=run, seconds_per_turn=sum(r.turn_seconds for r in results) / turns
                  if turns else None, opponents=favourites, versus=len(played))
