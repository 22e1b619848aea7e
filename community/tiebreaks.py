"""Standings: points, then Buchholz, Sonneborn–Berger and head-to-head, with what decided each place.

The input is one :class:`Encounter` per player per round (built by :mod:`community.tournament` from its tables),
so this module knows nothing about formats. All arithmetic is exact (:class:`~fractions.Fraction`): a multiplayer
place is worth thirds or fifths of a point, and a tie must be a tie.

Definitions (for two seats they are the chess ones; a multiplayer table counts each opponent at it):

* **Buchholz**: the sum of the points of every opponent met, once per meeting.
* **Sonneborn–Berger**: the sum over opponents met of their points times your result against them: 1 if you placed
  above them, ½ if level, 0 if below (for two seats: beaten opponents' points plus half of drawn opponents').
* **Head-to-head**: among the players still level on points, Buchholz and Sonneborn–Berger, the sum of their
  results against each other.

Rounds a player did not play (a pairing bye, rounds before a late join, rounds after a drop) follow FIDE's 2009
rule for unplayed games (Handbook C.02, 13.15.2, the "virtual opponent"):

* For the player's own tie-breaks, an unplayed round R is a game against a virtual opponent who had the player's
  points before R, took the other side of the player's result in R (a bye the player scored 1 for is a loss for
  it), and drew every later round: ``Svon = S_before + (1 - S_R) + ½ (n - R)``, ``n`` = rounds paired so far. Its
  result for Sonneborn–Berger is the player's points from that round. At a multiplayer table the virtual opponent
  counts as many times as a full table has opponents, so a bye is not worth less Buchholz than a game.
* For everyone else's tie-breaks, a player's unplayed rounds count as draws: opponents' points enter Buchholz and
  Sonneborn–Berger with each of their unplayed rounds worth ½ whatever they actually scored for it.

A round-robin rest (the odd player out of a round, which everybody gets once) is not a round for tie-breaks at all.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

HALF = Fraction(1, 2)


class Kind(StrEnum):
    """What a player's round was."""

    GAME = "game"  # played at a table
    BYE = "bye"  # a pairing bye or a forfeit win: no opponent, points as a win
    ABSENT = "absent"  # before a late join or after a drop
    REST = "rest"  # a round robin's odd player out: not counted in tie-breaks


class Criterion(StrEnum):
    """What separates a player from the one above in the standings."""

    POINTS = "points"
    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    HEAD_TO_HEAD = "head_to_head"


@dataclass(frozen=True)
class Encounter:
    """One player's round: the points it earned and, at a table, each opponent with the player's result against it."""

    round: int
    kind: Kind
    points: Fraction
    opponents: tuple[tuple[int, Fraction], ...] = ()


@dataclass(frozen=True)
class Standing:
    """One line of the standings.

    ``decided_by`` is the first criterion that puts this player below the one listed above it (``None`` for the
    first line and for a place shared with the line above), so a final post can say "ahead on Buchholz".
    The numbers are floats for showing; the order was decided on exact fractions.
    """

    player: int
    place: int
    points: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
    games: int
    dropped: bool
    decided_by: Criterion | None


@dataclass
class _Row:
    player: int
    points: Fraction
    buchholz: Fraction = Fraction(0)
    sonneborn_berger: Fraction = Fraction(0)
    head_to_head: Fraction = Fraction(0)
    games: int = 0

    def key(self, tiebreaks: bool) -> tuple[Fraction, ...]:
        if not tiebreaks:
            return (self.points,)
        return (self.points, self.buchholz, self.sonneborn_berger, self.head_to_head)


@functools.cache
def _place_points(places: tuple[int, ...]) -> tuple[Fraction, ...]:
    n = len(places)
    if n == 1:
        return (Fraction(1),)
    worth = [Fraction(n - p, n - 1) for p in range(1, n + 1)]
    out = []
    for place in places:
        shared = sum(1 for other in places if other == place)
        out.append(sum(worth[place - 1 : place - 1 + shared], Fraction(0)) / shared)
    return tuple(out)


def place_points(places: Sequence[int]) -> list[Fraction]:
    """Points for each seat of a table from its places (competition ranks, 1 = first, ties share).

    Place ``p`` of ``n`` is worth ``(n - p) / (n - 1)``: first 1, last 0, a draw of two ½. Players sharing a place
    split the points of the places they span (two sharing 2nd of 4 get the average of 2nd and 3rd: ½ each).
    """
    return list(_place_points(tuple(places)))


def pairwise(places: Sequence[int], seat: int, other: int) -> Fraction:
    """The result of ``seat`` against ``other`` at one table: 1 above it, ½ level, 0 below."""
    if places[seat] < places[other]:
        return Fraction(1)
    return HALF if places[seat] == places[other] else Fraction(0)


def rank(
    encounters: Mapping[int, Sequence[Encounter]],
    order: Sequence[int],
    dropped: set[int],
    rounds: int,
    *,
    tiebreaks: bool = True,
    virtual_weight: int = 1,
) -> list[tuple[Standing, Fraction]]:
    """The standings of every player in ``order`` (the seeding order, which breaks what nothing else does), each with
    its exact points. ``rounds`` is ``n`` of the virtual-opponent formula; ``tiebreaks=False`` ranks on points alone
    (elimination, arena). Players level on every criterion share the place (competition ranking).
    """
    rows = {p: _Row(p, sum((e.points for e in encounters.get(p, ())), Fraction(0))) for p in order}
    if tiebreaks:
        adjusted = {
            p: sum((e.points if e.kind == Kind.GAME else HALF for e in encounters.get(p, ()) if e.kind != Kind.REST),
                   Fraction(0))
            for p in order
        }
        for p in order:
            _add_tiebreaks(rows[p], encounters.get(p, ()), adjusted, rounds, virtual_weight)
    for p in order:
        rows[p].games = sum(1 for e in encounters.get(p, ()) if e.kind == Kind.GAME)

    seeding = {p: i for i, p in enumerate(order)}
    ranked = sorted(order, key=lambda p: ([-v for v in _level(rows[p], tiebreaks)], seeding[p]))
    if tiebreaks:
        ranked = _head_to_head(ranked, rows, encounters, seeding)

    out: list[tuple[Standing, Fraction]] = []
    criteria = list(Criterion) if tiebreaks else [Criterion.POINTS]
    for i, p in enumerate(ranked):
        row = rows[p]
        decided: Criterion | None = None
        place = i + 1
        if i > 0:
            above = rows[ranked[i - 1]]
            mine, theirs = row.key(tiebreaks), above.key(tiebreaks)
            if mine == theirs:
                place = out[-1][0].place
            else:
                decided = criteria[next(k for k in range(len(mine)) if mine[k] != theirs[k])]
        standing = Standing(
            player=p,
            place=place,
            points=float(row.points),
            buchholz=float(row.buchholz),
            sonneborn_berger=float(row.sonneborn_berger),
            head_to_head=float(row.head_to_head),
            games=row.games,
            dropped=p in dropped,
            decided_by=decided,
        )
        out.append((standing, row.points))
    return out


def _level(row: _Row, tiebreaks: bool) -> tuple[Fraction, ...]:
    """What players must share to be level before head-to-head is looked at."""
    return (row.points, row.buchholz, row.sonneborn_berger) if tiebreaks else (row.points,)


def _add_tiebreaks(
    row: _Row, mine: Sequence[Encounter], adjusted: Mapping[int, Fraction], rounds: int, virtual_weight: int
) -> None:
    before = Fraction(0)
    for e in sorted(mine, key=lambda e: e.round):
        if e.kind == Kind.GAME:
            for opponent, result in e.opponents:
                row.buchholz += adjusted[opponent]
                row.sonneborn_berger += adjusted[opponent] * result
        elif e.kind != Kind.REST:
            virtual = before + (1 - e.points) + HALF * (rounds - e.round)
            row.buchholz += virtual * virtual_weight
            row.sonneborn_berger += virtual * e.points * virtual_weight
        before += e.points


def _head_to_head(
    ranked: list[int],
    rows: Mapping[int, _Row],
    encounters: Mapping[int, Sequence[Encounter]],
    seeding: Mapping[int, int],
) -> list[int]:
    """Within each run of players level on points, Buchholz and Sonneborn–Berger, score their games against each
    other and order the run by it (then by seeding)."""
    out: list[int] = []
    for _, run_iter in itertools.groupby(ranked, key=lambda p: _level(rows[p], True)):
        run = list(run_iter)
        if len(run) > 1:
            members = set(run)
            for p in run:
                rows[p].head_to_head = sum(
                    (r for e in encounters.get(p, ()) if e.kind == Kind.GAME for o, r in e.opponents if o in members),
                    Fraction(0),
                )
            run.sort(key=lambda p: (-rows[p].head_to_head, seeding[p]))
        out.extend(run)
    return out
