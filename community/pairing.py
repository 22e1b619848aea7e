"""Who sits with whom: the pairing algorithms of a tournament, as pure functions over ids and history.

Nothing here knows about rounds, results or errors; :mod:`community.tournament` turns its state into a
:class:`History` and a standing order and asks one of these functions for the next round's tables:

* :func:`swiss_pairs`: Swiss for two seats, as a maximum-weight perfect matching (``networkx``) whose weights put,
  in strict priority, no rematch ≫ fewest earlier meetings ≫ small score gap ≫ seat balance ≫ top half of a score
  group meeting its bottom half. One bye when the count is odd, to the lowest-ranked player without one.
* :func:`swiss_tables`: Swiss for three to six seats, a local search that groups players by standing while keeping
  pairs who already met apart (exhaustive for small fields).
* :func:`circle_rounds`: round robin by the circle method.
* :func:`bracket_order`: the seed order of a single-elimination bracket.

Every function is deterministic: the same arguments give the same tables (networkx's matching depends only on the
graph, which is built in a fixed order). No global random anywhere.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import networkx as nx  # type: ignore[import-untyped]

BYE = -1  # the bye's node in the matching graph; player ids are never negative

# The two-seat matching first tries each player against this many neighbours either side in the pairing order,
# then twice as many, and so on, and takes the full graph only when a narrower one cannot pair everybody without a
# rematch. networkx's blossom algorithm costs ~3 s on a complete graph of 256 players and ~0.3 s on this window.
WINDOW = 12

# Beyond this many possible splits the multiplayer grouping stops being exhaustive and searches locally.
EXHAUSTIVE_SPLITS = 20_000


@dataclass
class History:
    """What earlier rounds left behind that the next pairing must respect.

    ``met`` counts games per unordered pair (key: the smaller id first). ``seat_balance`` is games at seat 0 minus
    games at seat 1 (two-seat games only); ``last_seat`` the seat of the player's latest two-seat game.
    """

    met: dict[tuple[int, int], int] = field(default_factory=dict)
    seat_balance: dict[int, int] = field(default_factory=dict)
    last_seat: dict[int, int] = field(default_factory=dict)
    had_bye: set[int] = field(default_factory=set)

    def times_met(self, a: int, b: int) -> int:
        return self.met.get((a, b) if a < b else (b, a), 0)

    def add_table(self, seats: Sequence[int]) -> None:
        """Record one table: every pair at it met once more; a two-seat table also moves the seat balance."""
        for a, b in itertools.combinations(seats, 2):
            key = (a, b) if a < b else (b, a)
            self.met[key] = self.met.get(key, 0) + 1
        if len(seats) == 2:
            for seat, player in enumerate(seats):
                self.seat_balance[player] = self.seat_balance.get(player, 0) + (1 if seat == 0 else -1)
                self.last_seat[player] = seat


@dataclass(frozen=True)
class SwissRound:
    """One round's pairing: tables with their seats in order (seat 0 first, best standing first) and the byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


# ---------------------------------------------------------------------------------------------- Swiss, two seats


def _pairing_order(order: Sequence[int], points: Mapping[int, Fraction]) -> list[int]:
    """The standing order with each score group's top half interleaved with its bottom half.

    Neighbours in this order are the pairs a Dutch-style Swiss would make (the 1st of a group of 8 meets its 5th),
    so a small distance in it is the lowest-priority wish and the candidate window is taken in it.
    """
    out: list[int] = []
    for _, group_iter in itertools.groupby(order, key=lambda p: points[p]):
        group = list(group_iter)
        half = (len(group) + 1) // 2
        top, bottom = group[:half], group[half:]
        for i, player in enumerate(top):
            out.append(player)
            if i < len(bottom):
                out.append(bottom[i])
    return out


def swiss_pairs(order: Sequence[int], points: Mapping[int, Fraction], history: History) -> SwissRound:
    """Pair ``order`` (the players to pair, best standing first; ``points`` must not increase along it) for two seats.

    The weight of an edge is lexicographic, each level worth more than the whole matching's lower levels:
    1. not a rematch; 2. fewer earlier meetings; 3. a small score gap (squared, in half points); 4. the bye as low in
    the standings as possible; 5. compatible seat histories (they do not both want seat 1); 6. a small distance in
    :func:`_pairing_order`. ``maxcardinality`` makes the matching perfect first. An odd count adds a bye node joined
    only to players who have not had a bye (to everybody when all have), its score term that of a player at the
    lowest score, so the bye goes to the lowest-ranked eligible player unless that costs a rematch or a bigger
    score gap elsewhere.
    """
    players = _pairing_order(order, points)
    n = len(players)
    if n == 0:
        return SwissRound(())
    if n == 1:
        return SwissRound((), (players[0],))
    needs_bye = n % 2 == 1
    eligible = [p for p in players if p not in history.had_bye] or list(players)

    pos = {p: i for i, p in enumerate(players)}
    half_points = {p: int(points[p] * 2) for p in players}
    lowest = min(half_points.values())
    gap = max(half_points.values()) - lowest
    most_met = max(history.met.values(), default=0) + 1
    edges_in_matching = (n + 1) // 2

    # Per-edge maxima of each level, lowest first, and each level's multiplier (more than a whole matching's worth
    # of every level below it). Only the bye's edge carries the "bye rank" level: the bye goes as low as it can.
    level_max = [n, 4, n, gap * gap, most_met, 1]
    multipliers = [1]
    below = 0
    for i in range(1, len(level_max)):
        below += level_max[i - 1] * multipliers[i - 1]
        multipliers.append(edges_in_matching * below + 1)
    m_pos, m_seat, m_bye_rank, m_score, m_meet, m_fresh = multipliers
    rank = {p: i for i, p in enumerate(order)}

    def weight(a: int, b: int) -> int:
        met = history.times_met(a, b)
        da, db = history.seat_balance.get(a, 0), history.seat_balance.get(b, 0)
        clash = min(abs(da), abs(db), 4) if da * db > 0 else 0
        score_gap = half_points[a] - half_points[b]
        return (
            m_fresh * (met == 0)
            + m_meet * (most_met - met)
            + m_score * (gap * gap - score_gap * score_gap)
            + m_seat * (4 - clash)
            + m_pos * (n - abs(pos[a] - pos[b]))
        )

    def bye_weight(a: int) -> int:
        score_gap = half_points[a] - lowest
        return (
            m_fresh
            + m_meet * most_met
            + m_score * (gap * gap - score_gap * score_gap)
            + m_bye_rank * rank[a]
            + m_seat * 4
            + m_pos * n
        )

    window = WINDOW if n > 2 * WINDOW else n  # small fields take the full graph at once
    while True:
        graph = nx.Graph()
        graph.add_nodes_from(players)
        for i, a in enumerate(players):
            for b in players[i + 1 : i + 1 + window]:
                graph.add_edge(a, b, weight=weight(a, b))
        if needs_bye:
            graph.add_node(BYE)
            for a in eligible:
                graph.add_edge(a, BYE, weight=bye_weight(a))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        full = window >= n - 1
        perfect = len(matching) * 2 == graph.number_of_nodes()
        rematch = any(BYE not in pair and history.times_met(*pair) for pair in matching)
        if full or (perfect and not rematch):
            break
        window *= 2

    bye: tuple[int, ...] = ()
    pairs: list[tuple[int, int]] = []
    for a, b in matching:
        if BYE in (a, b):
            bye = (a if b == BYE else b,)
        else:
            pairs.append((a, b) if pos[a] < pos[b] else (b, a))
    pairs.sort(key=lambda pair: min(rank[pair[0]], rank[pair[1]]))
    tables = tuple(seat_two(a, b, number, history, rank) for number, (a, b) in enumerate(pairs, start=1))
    return SwissRound(tables, bye)


def seat_two(a: int, b: int, number: int, history: History, rank: Mapping[int, int]) -> tuple[int, int]:
    """Who sits first: the one who sat first less often; then the one who sat second last time; then, with no
    history to go by, the better-ranked player on odd tables and the other on even ones (round 1's alternation)."""
    da, db = history.seat_balance.get(a, 0), history.seat_balance.get(b, 0)
    if da != db:
        return (a, b) if da < db else (b, a)
    la, lb = history.last_seat.get(a), history.last_seat.get(b)
    if la is not None and lb is not None and la != lb:
        return (a, b) if la == 1 else (b, a)
    better, worse = (a, b) if rank[a] < rank[b] else (b, a)
    if la is None and lb is None and number % 2 == 0:
        return worse, better
    return better, worse


# ------------------------------------------------------------------------------------ Swiss, three to six seats


def table_sizes(count: int, fewest: int, most: int) -> list[int] | None:
    """Split ``count`` players into as few tables as ``most`` seats allow, sizes differing by at most one.

    The larger tables come first (they go to the top of the standings). ``None`` when no split keeps every table
    within ``[fewest, most]`` (say 6 players at exactly 4 seats): the caller then gives byes.
    """
    if count <= 0:
        return []
    for tables in range(math.ceil(count / most), count // fewest + 1):
        if tables * fewest <= count <= tables * most:
            base, extra = divmod(count, tables)
            return [base + 1] * extra + [base] * (tables - extra)
    return None


def swiss_tables(
    order: Sequence[int], points: Mapping[int, Fraction], history: History, fewest: int, most: int
) -> SwissRound:
    """Seat ``order`` (best standing first) at tables of ``fewest``..``most`` seats, grouped by standing.

    The cost of a split is, in strict priority, the number of repeat encounters (for every pair at a table, how often
    they met before) and then the spread of points at each table (the sum of squared point gaps of its pairs). Small
    fields (up to :data:`EXHAUSTIVE_SPLITS` possible splits) are searched exhaustively; bigger ones start from the
    standing order cut into tables (round 1: seeds dealt out in a snake, so that the top seeds start apart) and swap
    players between tables while that lowers the cost, taking every table against every other while any table has
    a repeat, and neighbouring tables (the spread) otherwise.

    When no split fits the sizes, the lowest-ranked players without a bye get one (then those with one) until it
    does. Seats within a table follow the standing order.
    """
    players = list(order)
    byes: list[int] = []
    sizes = table_sizes(len(players), fewest, most)
    while sizes is None and len(players) > 0:
        no_bye = [p for p in players if p not in history.had_bye]
        out = (no_bye or players)[-1]
        players.remove(out)
        byes.append(out)
        sizes = table_sizes(len(players), fewest, most)
    if not players or sizes is None:
        return SwissRound((), tuple(byes))
    cost = _GroupCost(points, history)
    tables = _first_split(players, sizes, points)
    level = len({points[p] for p in players}) == 1
    if level and sum(cost.table(t)[0] for t in tables) == 0:
        pass  # one score group and no repeats: nothing can beat the snake, which keeps the top seeds apart
    elif _split_count(sizes) <= EXHAUSTIVE_SPLITS:
        tables = _exhaustive(players, sizes, cost)
    else:
        tables = _local_search(tables, cost)
    rank = {p: i for i, p in enumerate(order)}
    seated = [tuple(sorted(table, key=rank.__getitem__)) for table in tables]
    seated.sort(key=lambda table: (-len(table), rank[table[0]]))
    return SwissRound(tuple(seated), tuple(byes))


class _GroupCost:
    """Cost of sitting a pair together: (earlier meetings, squared point gap), cached per pair."""

    def __init__(self, points: Mapping[int, Fraction], history: History) -> None:
        self.points = points
        self.history = history
        self.cache: dict[tuple[int, int], tuple[int, Fraction]] = {}

    def pair(self, a: int, b: int) -> tuple[int, Fraction]:
        key = (a, b) if a < b else (b, a)
        hit = self.cache.get(key)
        if hit is None:
            gap = self.points[a] - self.points[b]
            hit = self.cache[key] = (self.history.times_met(a, b), gap * gap)
        return hit

    def join(self, player: int, table: Sequence[int], skip: int | None = None) -> tuple[int, Fraction]:
        """Cost of adding ``player`` to ``table`` (without ``skip``)."""
        meets, spread = 0, Fraction(0)
        for other in table:
            if other != skip and other != player:
                m, s = self.pair(player, other)
                meets += m
                spread += s
        return meets, spread

    def table(self, table: Sequence[int]) -> tuple[int, Fraction]:
        meets, spread = 0, Fraction(0)
        for a, b in itertools.combinations(table, 2):
            m, s = self.pair(a, b)
            meets += m
            spread += s
        return meets, spread


def _split_count(sizes: Sequence[int]) -> int:
    """How many ways there are to split ``sum(sizes)`` players into tables of these sizes (tables unordered)."""
    remaining = sum(sizes)
    total = 1
    for size in sizes:
        total *= math.comb(remaining, size)
        remaining -= size
    for size in set(sizes):
        total //= math.factorial(sizes.count(size))
    return total


def _exhaustive(players: list[int], sizes: list[int], cost: _GroupCost) -> list[list[int]]:
    """The split of least cost, by trying them all (branch and bound; first found wins a tie, so it is stable)."""
    best: list[tuple[tuple[int, Fraction], list[list[int]]]] = []
    tables: list[list[int]] = [[] for _ in sizes]

    def place(i: int, meets: int, spread: Fraction) -> None:
        if best and (meets, spread) >= best[0][0]:
            return
        if i == len(players):
            best[:] = [((meets, spread), [list(t) for t in tables])]
            return
        player = players[i]
        tried_empty: set[int] = set()
        for t, table in enumerate(tables):
            if len(table) == sizes[t]:
                continue
            if not table:  # empty tables of one size are interchangeable: try only the first
                if sizes[t] in tried_empty:
                    continue
                tried_empty.add(sizes[t])
            m, s = cost.join(player, table)
            table.append(player)
            place(i + 1, meets + m, spread + s)
            table.pop()

    place(0, 0, Fraction(0))
    return best[0][1]


def _first_split(players: list[int], sizes: list[int], points: Mapping[int, Fraction]) -> list[list[int]]:
    """The standing order cut into tables; with one score group (round 1), seeds dealt out in a snake instead."""
    if len({points[p] for p in players}) == 1:
        tables: list[list[int]] = [[] for _ in sizes]
        snake = itertools.cycle(list(range(len(sizes))) + list(range(len(sizes) - 1, -1, -1)))
        for player in players:
            t = next(snake)
            while len(tables[t]) == sizes[t]:
                t = next(snake)
            tables[t].append(player)
        return tables
    tables, start = [], 0
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    return tables


def _local_search(tables: list[list[int]], cost: _GroupCost) -> list[list[int]]:
    """Swap pairs of players between tables while a swap lowers the cost (see :func:`swiss_tables`)."""
    repeats = [cost.table(t)[0] for t in tables]
    improved = True
    while improved:
        improved = False
        for ti in range(len(tables)):
            for tj in range(ti + 1, len(tables)):
                if tj - ti > 2 and not (repeats[ti] or repeats[tj]):
                    continue
                if _best_swap(tables, ti, tj, cost):
                    repeats[ti] = cost.table(tables[ti])[0]
                    repeats[tj] = cost.table(tables[tj])[0]
                    improved = True
    return tables


def _best_swap(tables: list[list[int]], ti: int, tj: int, cost: _GroupCost) -> bool:
    """Make the best improving swap between two tables, if there is one."""
    a_table, b_table = tables[ti], tables[tj]
    best: tuple[int, Fraction] = (0, Fraction(0))
    best_pair: tuple[int, int] | None = None
    for i, a in enumerate(a_table):
        a_here = cost.join(a, a_table)
        for j, b in enumerate(b_table):
            b_here = cost.join(b, b_table)
            a_there = cost.join(a, b_table, skip=b)
            b_there = cost.join(b, a_table, skip=a)
            delta = (
                a_there[0] + b_there[0] - a_here[0] - b_here[0],
                a_there[1] + b_there[1] - a_here[1] - b_here[1],
            )
            if delta < best:
                best, best_pair = delta, (i, j)
    if best_pair is None:
        return False
    i, j = best_pair
    a_table[i], b_table[j] = b_table[j], a_table[i]
    return True


# ------------------------------------------------------------------------------- round robin and elimination


def circle_rounds(players: Sequence[int]) -> list[list[tuple[int | None, int | None]]]:
    """Every round of a round robin by the circle method: the first player stays, the others turn one step a round.

    ``None`` stands for the bye when the count is odd (whoever meets it sits out). Seats alternate: the fixed
    player takes seat 0 in even rounds (counting from 0), and the other tables alternate by position, so nobody's
    seat 0 count differs from their seat 1 count by more than one or two.
    """
    ring: list[int | None] = list(players)
    if len(ring) % 2 == 1:
        ring.append(None)
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        pairs: list[tuple[int | None, int | None]] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if (i == 0 and r % 2 == 1) or (i > 0 and i % 2 == 1):
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def bracket_order(size: int) -> list[int]:
    """Seeds (1 = best) in bracket order for a power-of-two ``size``: neighbours meet in round 1, and seeds 1 and 2
    can only meet in the final (1, 8, 4, 5, 2, 7, 3, 6 for eight)."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order
