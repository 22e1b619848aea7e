"""What the profile card and the leaderboard show, as plain data: the table service fills these, the renderers
(:mod:`render.community`) draw them, and the text fallbacks say the same in words."""

from __future__ import annotations

from typing import TypedDict


class GameLine(TypedDict):
    """One game on a player's profile."""

    game: str  # the game's name ("Breaks")
    games: int  # finished games
    versus: int  # those with other players (the rest were solo): the win rate's games
    wins: int  # wins, shared wins included (of the games with others)
    places: list[int]  # how many times first, second… (index 0: first)
    rating: int | None  # the shown (conservative) rating; None: the game is not rated for them (no rated games)
    likely: int | None  # the likely level on the same scale
    give_or_take: int | None  # how far the likely level may be off (about 95% sure)
    settled: bool  # the rating has settled (small uncertainty)
    rank: int | None  # their place on the server's leaderboard (None: not on it yet)
    best_streak: int  # most wins in a row
    seconds_per_turn: float | None  # average time a turn took them (None: unknown)
    opponents: list[tuple[str, int, int]]  # favourite opponents: (name, games together, times finished above them)
    extra: str  # one more line in words: a solo ladder's best, a cooperative game's record per faction ("" for none)


class ProfileView(TypedDict):
    name: str  # the member's display name
    server: str  # the server's name
    games: list[GameLine]  # the games they have played, most played first


class BoardRow(TypedDict):
    rank: int
    name: str
    rating: int
    games: int  # games in the period
    wins: int
    bot: bool  # a bot level's identity (rated when the server rates games against bots)
    you: bool  # the member who asked


class LeaderboardView(TypedDict):
    game: str  # the game's name
    server: str
    period: str  # "all time", "the last 30 days", "the last 7 days"
    min_games: int  # games needed to be listed
    rows: list[BoardRow]  # the top players, best first
    you: BoardRow | None  # the member who asked, when they are not among the rows but have a rating


class StandingRow(TypedDict):
    place: int  # shared places repeat
    name: str
    points: float
    buchholz: float
    sonneborn_berger: float
    games: int
    dropped: bool
    decided_by: str  # the tie-break that put them below the player above ("" for none): "points", "Buchholz"…


class BracketMatch(TypedDict):
    """One elimination match: its players (None for an empty place or a bye), the winner's index (None: open)."""

    players: list[str | None]
    winner: int | None


class StandingsView(TypedDict):
    tournament: str  # its name
    game: str
    format: str  # in words: "Swiss, 2 seats", "single elimination"…
    round: int  # the last round played (0 before the first)
    rounds: int | None  # the rounds planned (None: until a winner)
    final: bool  # the tournament is over: the first places are its winners
    rows: list[StandingRow]  # every player, best first (at most 64 drawn; the words list them all)
    bracket: list[list[BracketMatch]]  # an elimination's rounds, first round first ([] for other formats)
    tiebreaks: bool  # equal points are split by Buchholz and Sonneborn-Berger (Swiss, round robin): their columns
    score: bool  # the points are game scores (a solo arena's), not wins
