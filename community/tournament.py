"""A tournament as a plain value (issue 23): players, rounds, tables and results, with no Discord, I/O or clock.

The service layer owns the games and the messages; this object only says who sits where, takes results, and
ranks. Everything is deterministic given the settings (their ``seed`` included) and the calls made: equal seeds
are ordered by a seeded :class:`~engine.rng.Rng`, pairings by :mod:`community.pairing`, and nothing reads the
global ``random``. :meth:`Tournament.dump` gives JSON-safe data and :meth:`Tournament.load` takes it back exactly.

Formats (:class:`Format`):

* ``SWISS`` with two seats: pairing by score with no avoidable rematch and seat balance; an odd player out gets a
  bye worth a win (1 point). With three to six seats: tables grouped by standing, repeat encounters kept to a
  minimum, tables of ``min_seats``..``seats`` (as large as possible, sizes differing by at most one).
* ``ROUND_ROBIN`` (two seats): the circle method; the odd player out of a round rests (no points: everybody rests
  once). A game against a player who has dropped is a forfeit: a bye worth a win.
* ``ELIMINATION`` (two seats): a bracket seeded by rating, byes to the top seeds; a drawn game with no tie-break
  winner leaves the table open for another game in the same round.
* ``ARENA`` (BLOCK solo): each round every player plays the round's seeded game (``Round.game_seed``) alone and
  reports a score; the standings add the scores (ties share a place).

Points: a two-seat game is 1 / ½ / 0; at a table of ``n`` place ``p`` is worth ``(n - p) / (n - 1)``, shared
places splitting what they span (:func:`community.tiebreaks.place_points`). Elimination points are matches won
(byes and walkovers included), so they rank by the round reached. Tie-breaks: :mod:`community.tiebreaks`.

Typical use by the service::

    t = Tournament.new(Settings(Format.SWISS, rounds=5, seed=42))
    t.join(101, rating=1500.0); t.join(102); ...
    rnd = t.pair_next_round()            # a Round: start each table's game; its seats are in seat order
    t.report(1, [1, 2])                  # table 1: seat 0 won
    ...                                  # when rnd.complete, pair again; a Final says who won
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from community.pairing import History, bracket_order, circle_rounds, seat_two, swiss_pairs, swiss_tables
from community.tiebreaks import Encounter, Kind, Standing, pairwise, place_points, rank
from engine.rng import Rng

FORMAT_VERSION = 1


# ------------------------------------------------------------------------------------------------------- errors


class TournamentError(Exception):
    """Base of every error a caller (an organiser, a player's command) can cause; ``str(err)`` is shown to them."""


class SettingsError(TournamentError):
    """The settings do not describe a tournament this module can run."""


class AlreadyJoinedError(TournamentError):
    """The player is already in the tournament."""


class JoinClosedError(TournamentError):
    """The tournament has started (or ended) and takes no more players."""


class NotInTournamentError(TournamentError):
    """The player is not in the tournament."""


class AlreadyDroppedError(TournamentError):
    """The player has already dropped out."""


class NotEnoughPlayersError(TournamentError):
    """Too few players to start."""


class RoundOpenError(TournamentError):
    """The current round still has tables without a result."""


class NoSuchTableError(TournamentError):
    """No table (or round) with that number."""


class ResultError(TournamentError):
    """A result that does not fit the table: wrong length, places that are not a ranking, a bad tie-break seat."""


class AlreadyReportedError(TournamentError):
    """The table has a result; only the organiser's override replaces it."""


# ------------------------------------------------------------------------------------------------------- values


class Format(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    ELIMINATION = "elimination"
    ARENA = "arena"


@dataclass(frozen=True)
class Settings:
    """How the tournament runs.

    ``seats`` is the most seats at a table (1 for an arena, 2 for round robin and elimination, 2–6 for Swiss) and
    ``min_seats`` the fewest (Swiss with 3+ seats only; default one fewer than ``seats``, never below 2: pass the
    game's own minimum). ``rounds``: a number, or ``None`` for the format's natural length (Swiss: ⌈log₂ n⌉ rounds,
    ⌈log_seats n⌉ at bigger tables, fixed at the start; round robin: one cycle; elimination: until one is left, and
    nothing else is allowed; arena: one round). ``late_join`` lets Swiss and arena players join after the start
    (from the next round; in an arena, straight into an open round) and ``late_points_half`` gives them ½ point per
    round missed instead of 0. ``seed`` orders players of equal rating and makes each round's ``game_seed``.
    """

    format: Format
    seats: int = 0  # 0: the format's own (1 for an arena, 2 otherwise)
    min_seats: int | None = None
    rounds: int | None = None
    late_join: bool = True
    late_points_half: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        fmt = self.format
        if self.seats == 0:
            object.__setattr__(self, "seats", 1 if fmt == Format.ARENA else 2)
        if fmt == Format.ARENA and self.seats != 1:
            raise SettingsError("An arena is played alone: seats must be 1.")
        if fmt in (Format.ROUND_ROBIN, Format.ELIMINATION) and self.seats != 2:
            raise SettingsError(f"{fmt.value.replace('_', ' ').capitalize()} is for two-seat games.")
        if fmt == Format.SWISS and not 2 <= self.seats <= 6:
            raise SettingsError("A Swiss tournament seats 2 to 6 players a table.")
        if self.min_seats is not None and not (2 <= self.min_seats <= self.seats and fmt == Format.SWISS):
            raise SettingsError(f"min_seats must be between 2 and {self.seats} (Swiss only).")
        if fmt == Format.ELIMINATION and self.rounds is not None:
            raise SettingsError("An elimination runs until one player is left: rounds must be None.")
        if self.rounds is not None and self.rounds < 1:
            raise SettingsError("A tournament needs at least one round.")

    @property
    def fewest(self) -> int:
        """The fewest seats a table may have."""
        if self.min_seats is not None:
            return self.min_seats
        return max(2, self.seats - 1) if self.seats > 2 else self.seats

    @property
    def late_joining(self) -> bool:
        return self.late_join and self.format in (Format.SWISS, Format.ARENA)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "seats": self.seats,
            "min_seats": self.min_seats,
            "rounds": self.rounds,
            "late_join": self.late_join,
            "late_points_half": self.late_points_half,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        return cls(**{**data, "format": Format(data["format"])})


@dataclass
class Player:
    """A player (a person or a bot: the id is opaque). ``order`` is the seeding position, fixed at the start (late
    joiners after everybody); ``joined_round`` the first round they can be paired in; ``dropped_after`` how many
    rounds had been paired when they dropped (they are never paired again)."""

    id: int
    rating: float | None = None
    order: int = -1
    joined_round: int = 1
    dropped_after: int | None = None

    @property
    def dropped(self) -> bool:
        return self.dropped_after is not None


@dataclass(frozen=True)
class Result:
    """One game's outcome at a table: ``places`` per seat (competition ranks: 1 = first, ties share, e.g. (1, 1, 3)),
    an optional ``tiebreak_seat`` (the game's own tie rule picked this seat among those sharing first), and for an
    arena the ``score``."""

    places: tuple[int, ...]
    tiebreak_seat: int | None = None
    score: float | None = None

    @property
    def winner_seat(self) -> int | None:
        """The seat that won outright or on the tie-break; ``None`` when first place is shared and undecided."""
        if self.tiebreak_seat is not None:
            return self.tiebreak_seat
        firsts = [seat for seat, place in enumerate(self.places) if place == 1]
        return firsts[0] if len(firsts) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {"places": list(self.places), "tiebreak_seat": self.tiebreak_seat, "score": self.score}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        return cls(tuple(data["places"]), data["tiebreak_seat"], data["score"])


@dataclass
class Table:
    """One table of a round: its number (from 1 in each round), the players in seat order (seat 0 first) and its
    games. Normally one game decides it; in an elimination (``needs_winner``) a drawn game with no tie-break winner
    stays in ``games`` and the table waits for another one."""

    number: int
    seats: tuple[int, ...]
    needs_winner: bool = False
    games: list[Result] = field(default_factory=list)

    @property
    def result(self) -> Result | None:
        """The deciding result, or ``None`` while the table is open."""
        if not self.games:
            return None
        last = self.games[-1]
        if self.needs_winner and last.winner_seat is None:
            return None
        return last

    @property
    def done(self) -> bool:
        return self.result is not None

    @property
    def replays(self) -> int:
        """Drawn games played at this table that did not decide it."""
        return len(self.games) - (1 if self.done else 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seats": list(self.seats),
            "needs_winner": self.needs_winner,
            "games": [g.to_json() for g in self.games],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        games = [Result.from_json(g) for g in data["games"]]
        return cls(data["number"], tuple(data["seats"]), data["needs_winner"], games)


@dataclass
class Round:
    """One round: its tables, its ``byes`` (no game, points as a win), its ``rests`` (a round robin's player out, no
    points), its ``game_seed`` (for games that deal: an arena's shared deal), and for an elimination the bracket
    line-up ``slots`` (pairs of neighbours; ``None`` is an empty place)."""

    number: int
    tables: list[Table]
    byes: tuple[int, ...] = ()
    rests: tuple[int, ...] = ()
    game_seed: int = 0
    slots: tuple[int | None, ...] = ()

    @property
    def complete(self) -> bool:
        return all(t.done for t in self.tables)

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        raise NoSuchTableError(f"Round {self.number} has no table {number}.")

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "tables": [t.to_json() for t in self.tables],
            "byes": list(self.byes),
            "rests": list(self.rests),
            "game_seed": self.game_seed,
            "slots": list(self.slots),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Round:
        return cls(
            data["number"],
            [Table.from_json(t) for t in data["tables"]],
            tuple(data["byes"]),
            tuple(data["rests"]),
            data["game_seed"],
            tuple(data["slots"]),
        )


@dataclass(frozen=True)
class Final:
    """What :meth:`Tournament.pair_next_round` returns once the tournament is over."""

    winners: tuple[int, ...]
    standings: tuple[Standing, ...]


# --------------------------------------------------------------------------------------------------- tournament


@dataclass
class Tournament:
    """The whole tournament. Build it with :meth:`new`, add players with :meth:`join`, then alternate
    :meth:`pair_next_round` and :meth:`report` (or :meth:`report_score`) until a :class:`Final` comes back."""

    settings: Settings
    players: dict[int, Player] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    planned_rounds: int | None = None  # fixed at the start; None for an elimination

    @classmethod
    def new(cls, settings: Settings) -> Tournament:
        return cls(settings)

    # ------------------------------------------------------------------------------------------ state queries

    @property
    def started(self) -> bool:
        return bool(self.rounds)

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def open_tables(self) -> list[Table]:
        """The current round's tables still waiting for a result."""
        current = self.current_round
        return [t for t in current.tables if not t.done] if current else []

    def table_of(self, player: int) -> Table | None:
        """The player's open table in the current round, if any (the service resigns a dropping player there)."""
        return next((t for t in self.open_tables() if player in t.seats), None)

    def active(self, round_number: int | None = None) -> list[int]:
        """Players who can be paired in ``round_number`` (default: the next round), in seeding order."""
        number = len(self.rounds) + 1 if round_number is None else round_number
        return [
            p.id
            for p in self._seeded()
            if p.joined_round <= number and (p.dropped_after is None or p.dropped_after >= number)
        ]

    @property
    def is_finished(self) -> bool:
        current = self.current_round
        if current is None or not current.complete:
            return False
        if self.settings.format == Format.ELIMINATION:
            return len(current.slots) <= 2  # the final has been played (or walked over)
        assert self.planned_rounds is not None
        return len(self.rounds) >= self.planned_rounds or len(self.active()) < self._fewest_to_pair()

    def winners(self) -> tuple[int, ...]:
        """Who won (several when first place is shared on every tie-break); empty until the tournament is over."""
        if not self.is_finished:
            return ()
        if self.settings.format == Format.ELIMINATION:
            current = self.current_round
            assert current is not None
            return tuple(p for p in self._advancing(current) if p is not None)
        return tuple(s.player for s in self.standings() if s.place == 1)

    def standings(self) -> list[Standing]:
        """Everybody who played or plays (dropped players too, marked), best first. Open tables do not count yet."""
        return [s for s, _ in self._ranked()]

    # ------------------------------------------------------------------------------------------------ players

    def join(self, player: int, rating: float | None = None) -> None:
        """Add a player. After the start only where late joining is open: they are paired from the next round (an
        arena seats them in its open round at once) with 0 or ½ point for each round missed."""
        if player in self.players:
            raise AlreadyJoinedError(f"Player {player} has already joined.")
        if not self.started:
            self.players[player] = Player(player, rating)
            return
        if not self.settings.late_joining:
            raise JoinClosedError("The tournament has started and takes no late players.")
        if self.is_finished or (self.planned_rounds is not None and len(self.rounds) >= self.planned_rounds
                                and self.settings.format != Format.ARENA):
            raise JoinClosedError("The tournament has no rounds left to join.")
        order = max(p.order for p in self.players.values()) + 1
        current = self.current_round
        assert current is not None
        if self.settings.format == Format.ARENA and not current.complete:
            self.players[player] = Player(player, rating, order, joined_round=current.number)
            current.tables.append(Table(len(current.tables) + 1, (player,)))
            return
        if self.settings.format == Format.ARENA and len(self.rounds) >= (self.planned_rounds or 0):
            raise JoinClosedError("The tournament has no rounds left to join.")
        self.players[player] = Player(player, rating, order, joined_round=len(self.rounds) + 1)

    def drop(self, player: int) -> None:
        """Take a player out: before the start they simply leave; after it they are never paired again and stay in
        the standings, marked dropped. A game of theirs still running is the caller's to end (resign them)."""
        if player not in self.players:
            raise NotInTournamentError(f"Player {player} is not in this tournament.")
        if not self.started:
            del self.players[player]
            return
        if self.players[player].dropped:
            raise AlreadyDroppedError(f"Player {player} has already dropped out.")
        self.players[player].dropped_after = len(self.rounds)

    # ------------------------------------------------------------------------------------------------- rounds

    def pair_next_round(self) -> Round | Final:
        """Pair the next round and return it, or return the :class:`Final` when the tournament is over.

        Raises :class:`RoundOpenError` while the current round has open tables, and
        :class:`NotEnoughPlayersError` when there are too few players to start.
        """
        current = self.current_round
        if current is not None and not current.complete:
            raise RoundOpenError(f"Round {current.number} still has {len(self.open_tables())} table(s) to finish.")
        if self.is_finished:
            standings = tuple(self.standings())
            if self.settings.format == Format.ELIMINATION:
                return Final(self.winners(), standings)
            return Final(tuple(s.player for s in standings if s.place == 1), standings)
        if not self.started:
            self._start()
        number = len(self.rounds) + 1
        game_seed = Rng(self.settings.seed * 1_000_003 + number).next64()
        fmt = self.settings.format
        if fmt == Format.SWISS:
            rnd = self._pair_swiss(number)
        elif fmt == Format.ROUND_ROBIN:
            rnd = self._pair_round_robin(number)
        elif fmt == Format.ELIMINATION:
            rnd = self._pair_elimination(number)
        else:
            rnd = Round(number, [Table(i, (p,)) for i, p in enumerate(self.active(number), start=1)])
        rnd.game_seed = game_seed
        self.rounds.append(rnd)
        return rnd

    def report(
        self,
        table: int,
        places: Sequence[int],
        *,
        tiebreak_seat: int | None = None,
        round_number: int | None = None,
        override: bool = False,
    ) -> None:
        """Record a table's game: ``places`` per seat in seat order (competition ranks), and optionally which seat
        the game's own tie rule put first among those sharing first place.

        A table that has a result raises :class:`AlreadyReportedError` unless ``override`` (the organiser), which
        replaces its games with this one; standings follow. In an elimination a drawn game without a tie-break
        winner is kept and the table stays open for another game; an override there may not change a winner who
        has already been paired in a later round.
        """
        if self.settings.format == Format.ARENA:
            raise ResultError("An arena takes scores: use report_score.")
        target = self._table(table, round_number)
        result = self._check_result(target, places, tiebreak_seat)
        if target.done and not override:
            raise AlreadyReportedError(
                f"Table {target.number} already has a result; only an organiser's override replaces it."
            )
        if override:
            self._check_override(target, result, round_number)
            target.games = [result]
        else:
            target.games.append(result)

    def report_score(
        self, table: int, score: float, *, round_number: int | None = None, override: bool = False
    ) -> None:
        """Record an arena player's score at their table (see :meth:`report` for ``override``)."""
        if self.settings.format != Format.ARENA:
            raise ResultError("Only an arena takes scores; report places instead.")
        target = self._table(table, round_number)
        if target.done and not override:
            raise AlreadyReportedError(
                f"Table {target.number} already has a score; only an organiser's override replaces it."
            )
        if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
            raise ResultError("A score is a finite number.")
        target.games = [Result((1,), score=score)]

    # ---------------------------------------------------------------------------------------------- JSON

    def dump(self) -> dict[str, Any]:
        """JSON-safe data; ``Tournament.load(t.dump()) == t``."""
        return {
            "version": FORMAT_VERSION,
            "settings": self.settings.to_json(),
            "planned_rounds": self.planned_rounds,
            "players": [
                {
                    "id": p.id,
                    "rating": p.rating,
                    "order": p.order,
                    "joined_round": p.joined_round,
                    "dropped_after": p.dropped_after,
                }
                for p in self.players.values()
            ],
            "rounds": [r.to_json() for r in self.rounds],
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Tournament:
        if data.get("version") != FORMAT_VERSION:
            raise TournamentError(f"Unknown tournament format version {data.get('version')!r}.")
        players = {
            p["id"]: Player(p["id"], p["rating"], p["order"], p["joined_round"], p["dropped_after"])
            for p in data["players"]
        }
        return cls(
            Settings.from_json(data["settings"]),
            players,
            [Round.from_json(r) for r in data["rounds"]],
            data["planned_rounds"],
        )

    # ------------------------------------------------------------------------------------------------ inner

    def _seeded(self) -> list[Player]:
        return sorted(self.players.values(), key=lambda p: p.order)

    def _fewest_to_pair(self) -> int:
        fmt = self.settings.format
        if fmt == Format.ARENA:
            return 1
        return self.settings.fewest if fmt == Format.SWISS else 2

    def _start(self) -> None:
        """Fix the seeding order (rating, best first; unrated last; equal ratings in a seeded shuffle) and the
        number of rounds."""
        count = len(self.players)
        if count < max(2, self._fewest_to_pair()) and self.settings.format != Format.ARENA:
            raise NotEnoughPlayersError(f"{count} player(s) joined; at least {max(2, self._fewest_to_pair())} needed.")
        if count == 0:
            raise NotEnoughPlayersError("Nobody has joined.")
        shuffled = list(self.players.values())
        Rng(self.settings.seed).shuffle(shuffled)
        shuffled.sort(key=lambda p: (p.rating is None, -(p.rating or 0.0)))
        for i, p in enumerate(shuffled):
            p.order = i
        s = self.settings
        if s.format == Format.SWISS:
            natural = max(1, math.ceil(math.log(count, s.seats) - 1e-9)) if count > 1 else 1
            self.planned_rounds = s.rounds or natural
        elif s.format == Format.ROUND_ROBIN:
            cycle = count - 1 if count % 2 == 0 else count
            if s.rounds is not None and s.rounds > cycle:
                raise SettingsError(f"{count} players meet each other in {cycle} rounds; {s.rounds} asked.")
            self.planned_rounds = s.rounds or cycle
        elif s.format == Format.ARENA:
            self.planned_rounds = s.rounds or 1

    def _table(self, number: int, round_number: int | None) -> Table:
        if not self.rounds:
            raise NoSuchTableError("No round has been paired yet.")
        index = len(self.rounds) if round_number is None else round_number
        if not 1 <= index <= len(self.rounds):
            raise NoSuchTableError(f"There is no round {index}.")
        return self.rounds[index - 1].table(number)

    def _check_result(self, table: Table, places: Sequence[int], tiebreak_seat: int | None) -> Result:
        seats = len(table.seats)
        if len(places) != seats:
            raise ResultError(f"Table {table.number} has {seats} seats; {len(places)} places given.")
        if any(isinstance(p, bool) or not isinstance(p, int) for p in places):
            raise ResultError("Places are whole numbers.")
        for p in places:
            if p != 1 + sum(1 for q in places if q < p):
                raise ResultError(
                    f"Places {list(places)} are not a ranking (tied players share a place and the next is skipped)."
                )
        if tiebreak_seat is not None:
            if not 0 <= tiebreak_seat < seats:
                raise ResultError(f"Seat {tiebreak_seat} is not at table {table.number}.")
            if places[tiebreak_seat] != 1:
                raise ResultError("The tie-break winner must share first place.")
        return Result(tuple(places), tiebreak_seat)

    def _check_override(self, table: Table, result: Result, round_number: int | None) -> None:
        if self.settings.format != Format.ELIMINATION:
            return
        index = len(self.rounds) if round_number is None else round_number
        if index == len(self.rounds):
            return
        old = table.result
        new_winner = result.winner_seat
        if old is None or new_winner is None or old.winner_seat != new_winner:
            raise ResultError("The bracket has moved on from that table: its winner can no longer change.")

    # --------------------------------------------------------------------------------------- pairing helpers

    def _history(self) -> History:
        history = History()
        for rnd in self.rounds:
            for t in rnd.tables:
                history.add_table(t.seats)
            history.had_bye.update(rnd.byes)
        return history

    def _pair_swiss(self, number: int) -> Round:
        active = self.active(number)
        totals = self._points()
        points = {p: totals[p] for p in active}
        order = sorted(active, key=lambda p: -points[p])  # stable: seeding order within a score group
        history = self._history()
        s = self.settings
        if s.seats == 2:
            pairing = swiss_pairs(order, points, history)
        else:
            pairing = swiss_tables(order, points, history, s.fewest, s.seats)
        tables = [Table(i, seats) for i, seats in enumerate(pairing.tables, start=1)]
        return Round(number, tables, byes=pairing.byes)

    def _pair_round_robin(self, number: int) -> Round:
        schedule = circle_rounds([p.id for p in self._seeded()])
        gone = {p.id for p in self.players.values() if p.dropped}
        tables: list[Table] = []
        byes: list[int] = []
        rests: list[int] = []
        for a, b in schedule[number - 1]:
            live = [p for p in (a, b) if p is not None and p not in gone]
            if len(live) == 2:
                tables.append(Table(len(tables) + 1, (live[0], live[1])))
            elif len(live) == 1:
                (rests if None in (a, b) else byes).append(live[0])
        return Round(number, tables, tuple(byes), tuple(rests))

    def _pair_elimination(self, number: int) -> Round:
        if number == 1:
            seeded = [p.id for p in self._seeded()]
            size = 1 << max(1, (len(seeded) - 1).bit_length())
            slots: list[int | None] = [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]
        else:
            slots = self._advancing(self.rounds[-1])
        gone = {p.id for p in self.players.values() if p.dropped}
        slots = [None if p in gone else p for p in slots]
        seed = {p.id: i for i, p in enumerate(self._seeded())}
        history = self._history()
        tables: list[Table] = []
        byes: list[int] = []
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            if a is not None and b is not None:
                # who sits first (and, where seat 0 starts, plays first): the one who sat first less often; in
                # round 1 the better seed on odd tables, the other on even ones, as the two-seat Swiss does
                pair = seat_two(a, b, len(tables) + 1, history, seed)
                tables.append(Table(len(tables) + 1, pair, needs_winner=True))
            elif a is not None or b is not None:
                byes.append(a if a is not None else b)  # type: ignore[arg-type]
        return Round(number, tables, tuple(byes), slots=tuple(slots))

    def _advancing(self, rnd: Round) -> list[int | None]:
        """Who goes through from each pair of an elimination round's slots (``None`` where nobody does; a player
        who has dropped since does not)."""
        winners: dict[int, int] = {}
        for t in rnd.tables:
            result = t.result
            if result is not None and result.winner_seat is not None:
                for p in t.seats:
                    winners[p] = t.seats[result.winner_seat]
        out: list[int | None] = []
        slots = rnd.slots
        for i in range(0, len(slots), 2):
            a, b = slots[i], slots[i + 1]
            if a is not None and b is not None:
                winner: int | None = winners.get(a)
            else:
                winner = a if a is not None else b
            if winner is not None and self.players[winner].dropped:
                winner = None
            out.append(winner)
        return out

    # ------------------------------------------------------------------------------------------- standings

    def _encounters(self) -> dict[int, list[Encounter]]:
        """Each player's rounds as :class:`Encounter` values (open tables left out)."""
        fmt = self.settings.format
        late = Fraction(1, 2) if self.settings.late_points_half else Fraction(0)
        out: dict[int, list[Encounter]] = {p: [] for p in self.players}
        for rnd in self.rounds:
            seen: set[int] = set()
            for t in rnd.tables:
                seen.update(t.seats)
                result = t.result
                if result is None:
                    continue
                if fmt == Format.ARENA:
                    score = result.score if result.score is not None else 0
                    out[t.seats[0]].append(Encounter(rnd.number, Kind.GAME, Fraction(score)))
                    continue
                if fmt == Format.ELIMINATION:
                    winner = result.winner_seat
                    points = [Fraction(1 if seat == winner else 0) for seat in range(len(t.seats))]
                    places = tuple(1 if seat == winner else 2 for seat in range(len(t.seats)))
                else:
                    points = place_points(result.places)
                    places = result.places
                for seat, player in enumerate(t.seats):
                    opponents = tuple(
                        (other, pairwise(places, seat, o)) for o, other in enumerate(t.seats) if o != seat
                    )
                    out[player].append(Encounter(rnd.number, Kind.GAME, points[seat], opponents))
            for p in rnd.byes:
                out[p].append(Encounter(rnd.number, Kind.BYE, Fraction(1)))
                seen.add(p)
            for p in rnd.rests:
                out[p].append(Encounter(rnd.number, Kind.REST, Fraction(0)))
                seen.add(p)
            if fmt not in (Format.SWISS, Format.ROUND_ROBIN):
                continue
            for entrant in self.players.values():
                if entrant.id in seen:
                    continue
                points_missed = late if rnd.number < entrant.joined_round else Fraction(0)
                out[entrant.id].append(Encounter(rnd.number, Kind.ABSENT, points_missed))
        return out

    def _points(self) -> dict[int, Fraction]:
        """Each player's points so far, without tie-breaks (what a Swiss pairs on: score, then seeding, as the
        Dutch system does)."""
        return {p: sum((e.points for e in rounds), Fraction(0)) for p, rounds in self._encounters().items()}

    def _ranked(self) -> list[tuple[Standing, Fraction]]:
        fmt = self.settings.format
        tiebreaks = fmt in (Format.SWISS, Format.ROUND_ROBIN)
        return rank(
            self._encounters(),
            [p.id for p in self._seeded()],
            {p.id for p in self.players.values() if p.dropped},
            len(self.rounds),
            tiebreaks=tiebreaks,
            virtual_weight=max(1, self.settings.seats - 1),
        )
