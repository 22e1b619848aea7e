"""Bloc by Bloc: random playouts for 2, 3 and 4 players on random and beginner cities over many seeds, with the
pieces checked at every ply (10 blocs per faction, 30 cops, 6 vans, 40 barricades, the decks), every game
ending, and the move log replaying to the same state."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.blocbybloc import BlocByBloc
from engine.blocbybloc import police as pol
from engine.blocbybloc.city import manifestation_deck
from engine.blocbybloc.model import BARRICADES, MAX_BARRICADES, BlocState, loot_deck, occupations_of
from engine.blocbybloc.view import BlocView
from engine.rng import Rng
from tests.view_schema import problems

G = BlocByBloc()
MAX_PLIES = 20_000


def check(s: BlocState) -> None:
    for f in range(4):
        assert 0 <= s.in_city(f) <= 10 and all(row[f] >= 0 for row in s.blocs)
        if f not in s.order:
            assert s.in_city(f) == 0 and not s.hands[f] and not s.mats[f]
            continue
        built = sorted(s.occ_kind[c] for c in range(25) if s.occ_owner[c] == f)
        assert sorted(built + s.mats[f]) == sorted(occupations_of(f)), "5 occupations per faction"
    assert all(n >= 0 for n in s.cops) and pol.staging_cops(s) >= 0, "30 cops"
    assert pol.staging_vans(s) >= 0 and s.vans_box + pol.vans_in_city(s) <= 6, "6 vans"
    assert all(-1 <= v <= 2 for v in s.vans)
    assert sum(s.barricades.values()) <= BARRICADES and all(0 < n <= MAX_BARRICADES for n in s.barricades.values())
    assert all(conn in s.city.by_id for conn in s.barricades)
    for cell in s.city.districts:
        tile = s.city.tile(cell)
        if s.occ_owner[cell] >= 0:
            assert tile.circle
        if s.police(cell) or sum(s.blocs[cell]) > 0:
            assert not tile.highway, "nobody stands on a highway"
    for o in s.offers:  # an open trade offer: its cards are in the offering hand, both sides share a district
        assert all(s.hands[o.frm].count(c) >= o.cards.count(c) for c in o.cards) and o.want >= 1
        assert s.phase == "sunset" and s.faction_now() in (o.frm, o.to) and s.controller[o.frm] != s.controller[o.to]
    held = [c for p in s.pending if p.kind == "keep" for c in p.cards]  # drawn, a keep decision open
    seen = [c for p in s.pending if p.kind in ("scan", "reveal") for c in p.cards]  # police cards being looked at
    loot = Counter(s.loot_deck + s.loot_discard + [c for h in s.hands for c in h] + held)
    assert loot == Counter(loot_deck()), "60 loot cards"
    police = Counter(s.police_deck + s.police_discard + (["PO33"] if s.lockdown >= 0 else []) + seen)
    removed = pol.REMOVED_BY_DIFFICULTY["easy" if s.options["beginner"] else s.options["difficulty"]]
    assert police == Counter(c for c in pol.CARDS if c not in removed), "the police ops deck"
    drawn = [c for c in range(25) if not s.under[c] and s.city.tile(c).liberatable]
    assert all(s.liberated[c] for c in drawn)
    manifest = Counter([x for x in s.under if x] + s.spare)
    assert sum(manifest.values()) + len(drawn) == 28 and manifest <= Counter(manifestation_deck())
    assert 1 <= s.morale <= 5 and 1 <= s.countdown <= 8


def keen(moves: list[Any], rng: Rng) -> Any:
    """A random player that ends its turn only one time in five when it could act."""
    acts = [m for m in moves if m.kind != "end"]
    if acts and rng.below(5):
        return acts[rng.below(len(acts))]
    return moves[rng.below(len(moves))]


def pick_seat(state: BlocState, rng: Rng) -> int:
    """Mostly the seats the game waits on; one time in eight a seat that only may act (the other side of an
    exchange gives or offers)."""
    owed, may = sorted(G.to_act(state)), sorted(G.may_act(state))
    seats = may if len(may) > len(owed) and not rng.below(8) else owed
    return seats[rng.below(len(seats))]


CASES = [(seats, city, seed) for seats in (2, 3, 4) for city in ("random", "beginner") for seed in range(6)]


@pytest.mark.parametrize(("seats", "city", "seed"), CASES)
def test_random_playouts_keep_every_piece_and_end(seats: int, city: str, seed: int) -> None:
    overpass = seed % 2 == 1 and city == "random"  # (the beginner city is fixed: no Overpass there)
    options = {"city": city, "difficulty": ("easy", "medium", "hard")[seed % 3], "overpass": overpass}
    state = G.new_game(seats, options, seed)
    rng = Rng(seed * 31 + seats)
    log: list[tuple[int, str]] = []
    check(state)
    for _ in range(MAX_PLIES):
        if G.is_over(state):
            break
        seat = pick_seat(state, rng)
        move = keen(G.legal_moves(state, seat), rng)
        text = G.format_move(move)
        assert G.parse_move(text) == move
        state, _ = G.apply(state, seat, move)
        log.append((seat, text))
        check(state)
        if len(log) % 25 == 0:
            for who in (None, *range(seats)):
                assert not problems(G.view(state, who), BlocView)
    else:
        pytest.fail("no end")
    result = G.result(state)
    assert result is not None and result.cooperative
    assert G.dump(G.replay(seats, options, seed, log)) == G.dump(state), "the log replays to the same game"


def test_playouts_reach_liberations_and_several_nights() -> None:
    nights: list[int] = []
    liberations = 0
    ends: Counter[str] = Counter()
    for seed in range(30):
        state = G.new_game(4, {"city": "beginner"}, seed)
        rng = Rng(seed)
        while not G.is_over(state):
            seat = next(iter(G.to_act(state)))
            state, _ = G.apply(state, seat, keen(G.legal_moves(state, seat), rng))
        nights.append(state.night)
        liberations += sum(state.liberated)
        ends[state.reason.split(":")[0]] += 1
    assert max(nights) >= 3, nights
    assert liberations >= 1 or len(ends) >= 1
