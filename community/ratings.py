"""Ratings: a skill estimate per player, per game, per server, moved by every rated game.

The model is openskill's Weng-Lin Plackett-Luce. It was made for what our tables are: free-for-all games of 2 to 6
seats (Elo and Glicko only know two), with ties and shared places, and it keeps each player's uncertainty (sigma)
beside their estimate (mu), so a newcomer's first games move them a lot and a veteran's little. Plackett-Luce rates a
whole finishing order at once (not as a set of pairwise duels as Bradley-Terry does), which suits places at a
multi-player table; it is the library's recommended model and needs no tuning.

Everything here is pure: the same games in the same order give the same numbers, which is what lets
``/ratings rebuild`` recompute every rating from the stored results.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()  # mu 25, sigma 25/3: the library's defaults

SCALE = 40  # display points per unit of mu
BASE = 1000  # what a newcomer's rating shows
SETTLED_SIGMA = 3.0  # below this, a rating has settled (about 15–20 games against varied opponents)


@dataclass(frozen=True)
class Skill:
    """One player's estimate: ``mu`` (the likely skill) and ``sigma`` (how unsure it is), in the model's units."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma

    @property
    def conservative(self) -> float:
        """The skill we are about 99% sure the player has at least (mu − 3 sigma): what leaderboards rank by, so a
        lucky newcomer does not top them after one game."""
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The rating shown to players: the conservative estimate on a friendly scale, where a newcomer shows
        :data:`BASE` (a newcomer's conservative estimate, 0, maps to it) and it grows as their games show their
        level; an average player settles near 1,750."""
        return round(BASE + SCALE * self.conservative)

    @property
    def likely(self) -> int:
        """The likely level on the shown scale (mu)."""
        return round(BASE + SCALE * (self.mu - _MODEL.mu + 3 * _MODEL.sigma))

    @property
    def give_or_take(self) -> int:
        """How far the likely level may be off, on the shown scale (two sigmas: about 95% sure)."""
        return round(SCALE * 2 * self.sigma)

    @property
    def settled(self) -> bool:
        return self.sigma < SETTLED_SIGMA


NEW = Skill()


def rate(places: Sequence[tuple[str, int]], current: Mapping[str, Skill]) -> dict[str, Skill]:
    """One rated game: ``places`` is each seat's ``(player, rank)`` (competition ranks: 1 first, tied seats share a
    rank) and ``current`` the players' skills before it (a player missing is new). Returns every player's new skill.

    A player may hold several seats (two bots of the same level, one identity on the leaderboard): each seat is rated
    from the same skill, and the player's new skill is the mean of its seats' (so a bot that takes first and last
    moves as much as the two results say together)."""
    if len(places) < 2:
        raise ValueError("a rated game needs at least two seats")
    teams = [[_MODEL.create_rating([s.mu, s.sigma])] for s in (current.get(p, NEW) for p, _ in places)]
    given = [rank for _, rank in places]  # (a table's places among the seats rated: compressed, ties kept)
    rated = _MODEL.rate(teams, ranks=[float(1 + sum(1 for q in given if q < r)) for r in given])
    seats: dict[str, list[Skill]] = {}
    for (player, _), team in zip(places, rated, strict=True):
        seats.setdefault(player, []).append(Skill(team[0].mu, team[0].sigma))
    return {p: Skill(sum(s.mu for s in ss) / len(ss), sum(s.sigma for s in ss) / len(ss)) for p, ss in seats.items()}


class Replay:
    """Ratings worked out again from rated games replayed in the order they ended (``/ratings rebuild``, a period's
    leaderboard): each game moves its players' skills through :func:`rate`, as its end did."""

    def __init__(self) -> None:
        self.skills: dict[str, Skill] = {}
        self.games: Counter[str] = Counter()  # rated games per player (one a game, whatever seats it held)

    def play(self, places: Sequence[tuple[str, int]]) -> tuple[dict[str, Skill], dict[str, Skill]]:
        """One game (each seat's ``(player, place)``); returns its players' skills before and after it."""
        before = {p: self.skills[p] for p, _ in places if p in self.skills}
        after = rate(places, before)
        self.skills.update(after)
        self.games.update(after.keys())
        return before, after


def in_words(skill: Skill, games: int) -> str:
    """A rating as a player reads it: the number, then what it means."""
    if games == 0:
        return f"{BASE:,} (no rated games yet)"
    state = "settled" if skill.settled else "still settling: it firms up as you play"
    return (f"{skill.shown:,} (the level we are sure you have reached; likely {skill.likely:,}, give or take "
            f"{skill.give_or_take:,}; {state})")
