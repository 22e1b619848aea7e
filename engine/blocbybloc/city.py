"""The city of Bloc by Bloc: district tiles, the 5×5 grid, its connections, the random generator and the
beginner city.

Source: ``../shared/rules/bloc-by-bloc/city.md`` (part A). A cell is an index 0–24 in reading order (A1…A5,
B1…E5) and is written ``C3``. Sides are 0 N, 1 E, 2 S, 3 W. A **connection** is a street between orthogonal
neighbours (id ``B3-C3``) or a highway link between diagonal neighbours through a highway tile (id ``C5:SW``);
metro links are not connections. Everything here is pure: a :class:`City` is computed from a layout and cached.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

ROWS = "ABCDE"
SIZE = 5
CELLS = SIZE * SIZE
STEP = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}  # side → (row, column) step
CORNERS = {"NE": (0, 1), "SE": (2, 1), "SW": (2, 3), "NW": (0, 3)}  # corner → its two sides

WORKERS, STUDENTS, NEIGHBORS, PRISONERS = "Workers", "Students", "Neighbors", "Prisoners"
FACTION_TYPES = (WORKERS, STUDENTS, NEIGHBORS, PRISONERS)  # faction index → its district type
STATE, PUBLIC, COMMERCIAL, HIGHWAY = "State", "Public", "Commercial", "Highway"


@dataclass(frozen=True)
class Tile:
    key: str  # d01…d26, hw1…hw3, overpass
    pid: int  # police ID (0 for highway tiles)
    name: str
    type: str
    pile: str  # A, B, C, D or 3
    difficulty: int  # repressed side (0 for highway tiles)
    liberatable: bool
    circle: bool  # has an occupation circle
    shops: int  # shopping centres on the repressed side
    metro: bool
    three_way: bool  # dead end on its own north side at rotation 0
    corners: tuple[str, ...] = ()  # highway links at rotation 0

    @property
    def highway(self) -> bool:
        return self.type == HIGHWAY


def _d(pid: int, name: str, type_: str, pile: str, rep: int, lib: bool, circle: bool, shops: int, metro: bool,
       three_way: bool) -> Tile:
    return Tile(f"d{pid:02d}", pid, name, type_, pile, rep, lib, circle, shops, metro, three_way)


TILES: dict[str, Tile] = {t.key: t for t in (
    _d(1, "Commercial District 1", COMMERCIAL, "C", 3, False, False, 2, True, True),
    _d(2, "Commercial District 2", COMMERCIAL, "B", 3, False, False, 3, False, False),
    _d(3, "Commercial District 3", COMMERCIAL, "A", 3, False, False, 3, False, False),
    _d(4, "Overcrowded Jail", PRISONERS, "C", 4, True, True, 1, True, True),
    _d(5, "Garment Sweatshop", WORKERS, "C", 4, True, True, 1, True, True),
    _d(6, "Underfunded High School", STUDENTS, "C", 4, True, True, 1, True, True),
    _d(7, "Polluted Slum", NEIGHBORS, "C", 4, True, True, 1, True, True),
    _d(8, "The Projects", NEIGHBORS, "B", 5, True, True, 1, False, False),
    _d(9, "The Old Polytechnic", STUDENTS, "B", 5, True, True, 1, False, False),
    _d(10, "Smartphone Factory", WORKERS, "B", 5, True, True, 1, False, False),
    _d(11, "Immigrant Detention Center", PRISONERS, "B", 5, True, True, 1, False, False),
    _d(12, "Financial District", STATE, "A", 6, True, True, 1, True, False),
    _d(13, "Telecom Network Hub", STATE, "A", 6, True, True, 0, False, False),
    _d(14, "International Airport", STATE, "A", 6, True, True, 1, False, False),
    _d(15, "Interior Ministry", STATE, "A", 6, True, True, 0, False, False),
    _d(16, "Privatized University", STUDENTS, "A", 6, True, True, 0, False, False),
    _d(17, "Gentrifying Residential Zone", NEIGHBORS, "A", 6, True, True, 0, False, False),
    _d(18, "Supermax Prison", PRISONERS, "A", 6, True, True, 0, False, False),
    _d(19, "Global Shipping & Receiving Center", WORKERS, "A", 6, True, True, 0, False, False),
    _d(20, "Street Market", PUBLIC, "B", 4, True, True, 2, False, False),
    _d(21, "The Park", PUBLIC, "B", 4, True, True, 0, False, False),
    _d(22, "The Plaza", PUBLIC, "B", 4, True, True, 1, False, False),
    _d(23, "The Stadium", PUBLIC, "3", 5, True, True, 1, True, False),
    _d(24, "Autonomous Zone: Community Defense HQ", PUBLIC, "D", 4, True, True, 0, False, True),
    _d(25, "Autonomous Zone: Communal Gardens", PUBLIC, "D", 4, True, True, 0, False, False),
    _d(26, "Mega Mall", COMMERCIAL, "D", 3, False, False, 4, True, False),
    *(Tile(f"hw{i}", 0, f"Highway {i}", HIGHWAY, "C", 0, False, False, 0, False, False, ("NW", "SE"))
      for i in (1, 2, 3)),
    Tile("overpass", 0, "Highway Overpass", HIGHWAY, "D", 0, False, False, 0, False, False,
         ("NE", "SE", "SW", "NW")),
)}
BASE_PILES = {"A": ["d03", *(f"d{i}" for i in range(12, 20))],
              "B": ["d02", "d08", "d09", "d10", "d11", "d20", "d21", "d22"],
              "C": ["d01", "d04", "d05", "d06", "d07", "hw1", "hw2", "hw3"]}


def cell_name(cell: int) -> str:
    return f"{ROWS[cell // SIZE]}{cell % SIZE + 1}"


def parse_cell(text: str) -> int | None:
    text = text.strip().upper()
    if len(text) == 2 and text[0] in ROWS and text[1] in "12345":
        return ROWS.index(text[0]) * SIZE + int(text[1]) - 1
    return None


def neighbour(cell: int, side: int) -> int | None:
    dr, dc = STEP[side]
    r, c = cell // SIZE + dr, cell % SIZE + dc
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else None


def zigzag() -> list[int]:
    """Cells in placing order: A1→A5, B5→B1, C1→C5, D5→D1, E1→E5."""
    out: list[int] = []
    for r in range(SIZE):
        cols = range(SIZE) if r % 2 == 0 else range(SIZE - 1, -1, -1)
        out += [r * SIZE + c for c in cols]
    return out


ZIGZAG = zigzag()


def dead_end(tile: Tile, rotation: int) -> int | None:
    """The map side of a 3-way tile's dead end at ``rotation`` degrees."""
    return (rotation // 90) % 4 if tile.three_way else None


def rotated_corners(tile: Tile, rotation: int) -> list[str]:
    steps = (rotation // 90) % 4
    out = []
    for corner in tile.corners:
        sides = {(s + steps) % 4 for s in CORNERS[corner]}
        out.append(next(name for name, pair in CORNERS.items() if set(pair) == sides))
    return out


@dataclass(frozen=True, slots=True)
class Connection:
    id: str  # "B3-C3" (a street) or "C5:SW" (a highway link)
    a: int  # its two districts, a < b
    b: int
    highway: int | None  # the highway tile's cell for a link

    def other(self, cell: int) -> int:
        return self.b if cell == self.a else self.a


@dataclass(frozen=True)
class City:
    """A placed city: tiles and rotations by cell, and what follows from them."""

    tiles: tuple[str, ...]
    rotations: tuple[int, ...]
    connections: tuple[Connection, ...]
    by_id: dict[str, Connection]
    touching: tuple[tuple[Connection, ...], ...]  # by cell: the connections with that district at one end
    adjacent: tuple[tuple[int, ...], ...]  # by cell, in the order a frozenset of them iterates (kept as a tuple:
    # a quarter of the size; the order, which moves follow, is the frozenset's, as it always was)
    metro: tuple[int, ...]  # cells with a metro station
    districts: tuple[int, ...]  # cells holding a district (not a highway tile)

    def tile(self, cell: int) -> Tile:
        return TILES[self.tiles[cell]]

    def of_type(self, kind: str) -> list[int]:
        """The districts of type ``kind`` (State, a faction's, Commercial…), in reading order."""
        return [c for c in self.districts if TILES[self.tiles[c]].type == kind]

    def between(self, a: int, b: int) -> list[Connection]:
        """Every connection joining ``a`` and ``b`` (a street, or one or two highway links)."""
        return [c for c in self.touching[a] if c.other(a) == b]

    def connected(self, skip: frozenset[int] = frozenset()) -> bool:
        """Every district (but ``skip``) reaches every other through connections alone."""
        nodes = [c for c in self.districts if c not in skip]
        if not nodes:
            return True
        seen = {nodes[0]}
        queue = deque([nodes[0]])
        while queue:
            cell = queue.popleft()
            for nxt in self.adjacent[cell]:
                if nxt not in seen and nxt not in skip:
                    seen.add(nxt)
                    queue.append(nxt)
        return len(seen) == len(nodes)


@lru_cache(maxsize=256)
def build_city(tiles: tuple[str, ...], rotations: tuple[int, ...]) -> City:
    """The connections of a placed city (city part A2)."""
    assert len(tiles) == CELLS == len(rotations)
    kinds = [TILES[k] for k in tiles]
    ends = [dead_end(t, r) for t, r in zip(kinds, rotations, strict=True)]

    def district(cell: int | None) -> bool:
        return cell is not None and not kinds[cell].highway

    conns: list[Connection] = []
    for cell in range(CELLS):
        if kinds[cell].highway:
            for corner in rotated_corners(kinds[cell], rotations[cell]):
                x, y = CORNERS[corner]
                nx, ny = neighbour(cell, x), neighbour(cell, y)
                if not (district(nx) and district(ny)):
                    continue
                assert nx is not None and ny is not None
                if ends[nx] == (x + 2) % 4 or ends[ny] == (y + 2) % 4:
                    continue  # a dead end faces the highway
                a, b = sorted((nx, ny))
                conns.append(Connection(f"{cell_name(cell)}:{corner}", a, b, cell))
            continue
        for side in (1, 2):  # east and south: each street once
            other = neighbour(cell, side)
            if not district(other):
                continue
            assert other is not None
            if ends[cell] == side or ends[other] == (side + 2) % 4:
                continue
            conns.append(Connection(f"{cell_name(cell)}-{cell_name(other)}", cell, other, None))
    touching: list[list[Connection]] = [[] for _ in range(CELLS)]
    for conn in conns:
        touching[conn.a].append(conn)
        touching[conn.b].append(conn)
    return City(
        tiles=tiles, rotations=rotations, connections=tuple(conns), by_id={c.id: c for c in conns},
        touching=tuple(tuple(t) for t in touching),
        adjacent=tuple(tuple(frozenset(c.other(cell) for c in touching[cell])) for cell in range(CELLS)),
        metro=tuple(c for c in range(CELLS) if kinds[c].metro),
        districts=tuple(c for c in range(CELLS) if not kinds[c].highway),
    )


# --- the beginner city (A4) ---------------------------------------------------------------------------
BEGINNER: tuple[tuple[str, int], ...] = (
    ("d16", 0), ("d09", 0), ("d01", 0), ("d13", 0), ("d10", 0),
    ("d15", 0), ("hw1", 0), ("d20", 0), ("d19", 0), ("d05", 90),
    ("d22", 0), ("d06", 180), ("d03", 0), ("d21", 0), ("hw2", 90),
    ("d08", 0), ("d23", 0), ("hw3", 0), ("d11", 0), ("d14", 0),
    ("d07", 270), ("d17", 0), ("d02", 0), ("d04", 180), ("d18", 0),
)

MANIFESTATION_COPIES = (  # the cards part's table order, copies together (28 cards)
    ("mass_looting", 4), ("crowd_swells", 3), ("barricade_fever", 2), ("free_transit", 2), ("momentum", 2),
    ("squatting_wave", 2), ("police_rout", 3), ("tactical_collapse", 1), ("riot_van_burns", 2),
    ("leaked_patrol_routes", 2), ("whistleblower", 2), ("police_demoralized", 2), ("general_strike", 1),
)


def manifestation_deck() -> list[str]:
    return [name for name, copies in MANIFESTATION_COPIES for _ in range(copies)]


@dataclass(frozen=True)
class Layout:
    """A city as stored: tile and rotation per cell, the manifestation card under each cell, and the seed used."""

    tiles: tuple[str, ...]
    rotations: tuple[int, ...]
    manifestations: tuple[str, ...]
    seed: int

    @property
    def city(self) -> City:
        return build_city(self.tiles, self.rotations)


def _deal(rng: random.Random) -> tuple[str, ...]:
    deck = manifestation_deck()
    rng.shuffle(deck)
    under = [""] * CELLS
    for i, cell in enumerate(ZIGZAG):
        under[cell] = deck[i]
    return tuple(under)


def beginner_layout(seed: int) -> Layout:
    return Layout(tuple(t for t, _ in BEGINNER), tuple(r for _, r in BEGINNER), _deal(random.Random(seed)), seed)


FIRST_HIGHWAY = "highway"  # in a replacement: the regular highway whose cell comes first in reading order
REGULAR_HIGHWAYS = ("hw1", "hw2", "hw3")


def replace_in_place(tiles: list[str], replace: Sequence[tuple[str, str]]) -> None:
    """City part A3 "In-place replacement": each new tile takes the old one's cell (its rotation and manifestation
    card stay with the cell); the old tile goes back in the box. ``FIRST_HIGHWAY`` names the regular highway (not
    the Overpass) whose cell comes first in reading order."""
    for old, new in replace:
        if old == FIRST_HIGHWAY:
            cell = next(c for c in range(CELLS) if tiles[c] in REGULAR_HIGHWAYS)
        else:
            cell = tiles.index(old)
        tiles[cell] = new


def draw_layout(seed: int, players: int, overpass: bool = False, replace: Sequence[tuple[str, str]] = ()) -> Layout:
    """One draw of city part A3 steps 1–4 for ``seed``, connected or not: shuffled piles placed in zig-zag ABC
    order with random rotations, the manifestation deal, then a scenario's in-place ``replace``-ments."""
    piles = {k: list(v) for k, v in BASE_PILES.items()}
    if players == 3:
        piles["A"].remove("d12")
        piles["A"].append("d23")
    if overpass:
        piles["C"].remove("hw3")
        piles["C"].append("overpass")
    rng = random.Random(seed)
    for pile in "ABC":
        rng.shuffle(piles[pile])
    tiles = [""] * CELLS
    for k, cell in enumerate(ZIGZAG):
        tiles[cell] = piles["ABC"[k % 3]].pop(0)
    rotations = [0] * CELLS
    for cell in ZIGZAG:
        rotations[cell] = 90 * rng.randrange(4)
    under = _deal(rng)
    replace_in_place(tiles, replace)
    return Layout(tuple(tiles), tuple(rotations), under, seed)


def random_layout(seed: int, players: int, overpass: bool = False, replace: Sequence[tuple[str, str]] = (),
                  accept: Callable[[Layout], bool] | None = None) -> Layout:
    """City part A3: :func:`draw_layout` from ``seed``, redrawn with the next seed until connected (step 5) and,
    when given, until ``accept`` takes it (a scenario's goal must not already hold at setup, play part D6.19)."""
    while True:
        layout = draw_layout(seed, players, overpass, replace)
        if layout.city.connected() and (accept is None or accept(layout)):
            return layout
        seed += 1


def routes_from(city: City, origin: int, blocked: Sequence[bool], metro: bool) -> list[int]:
    """Districts a bloc movement from ``origin`` may end in (play part D2): breadth-first along connections (and
    metro links unless locked down), never through a district where ``blocked`` (police) holds; the destination
    itself may hold police. ``origin`` is not included."""
    seen = {origin}
    out: list[int] = []
    queue = deque([origin])
    metro_cells = city.metro if metro else ()
    while queue:
        cell = queue.popleft()
        steps = list(city.adjacent[cell])
        if metro and cell in metro_cells:
            steps += [m for m in metro_cells if m != cell]
        for nxt in steps:
            if nxt in seen:
                continue
            seen.add(nxt)
            out.append(nxt)
            if not blocked[nxt]:
                queue.append(nxt)
    return sorted(out)
