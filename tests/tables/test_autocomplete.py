"""`/move` autocomplete keeps offering a move once it is typed exactly as offered, in every game (issue 8).

Before the fix the service lowercased what was typed but not the notation, so `2 2A` (Blockers!),
`drop S r0 a 1,2,3,7` (BLOCK) or `break P1 1 onto 1` (Breaks), typed or picked from the list, gave an empty list.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.rng import Rng
from storage import ACTIVE, Database
from tables import Actor, TableService
from tables.catalog import default_catalog
from tests.tables.helpers import CH, lobby, make_clock, read

PEOPLE = (Actor(1, "Alice"), Actor(2, "Bob"), Actor(3, "Carl"))


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    db = await Database.open(tmp_path / "auto.db")
    yield TableService(db, default_catalog(), clock=make_clock(), seeds=lambda: 77, render=False)
    await db.close()


@pytest.mark.parametrize(("game", "players"), [("breaks", 2), ("breaks", 3), ("blockers", 2), ("blockers", 3),
                                               ("block", 2), ("block", 1)])
async def test_a_move_typed_exactly_as_offered_is_still_offered(svc: TableService, game: str, players: int) -> None:
    people = PEOPLE[:players]
    tid = await lobby(svc, *people, game=game)
    await svc.start(tid, people[0])
    rng = Rng(players)
    checked = mixed_case = 0
    for _ in range(150):
        table = await read(svc, tid)
        if table.status != ACTIVE:
            break
        g = svc.game(table.game)
        state = g.load(table.state or {})
        for seat in sorted(g.to_act(state)):
            actor = people[seat]
            offered = await svc.choices(CH, actor)
            assert offered, "the player to act is offered moves"
            sample = offered if len(offered) <= 12 else [offered[0], offered[-1], offered[rng.below(len(offered))]]
            for c in sample:
                for typed in (c.notation, c.label, f"  {c.notation.upper()} ", c.notation.lower()):
                    assert c in await svc.choices(CH, actor, typed), (game, typed)
                mixed_case += c.notation != c.notation.lower()
                checked += 1
        seat = rng.choice(sorted(g.to_act(state)))
        move = g.legal_moves(state, seat)[rng.below(len(g.legal_moves(state, seat)))]
        await svc.submit(people[seat], g.format_move(move), table_id=tid)
    assert checked >= 20
    assert mixed_case > 0, "no offered notation had capitals: the test would not catch the bug"
