"""No agenda of a semi-cooperative Bloc by Bloc game reaches anybody but its holder while the game runs (play part D4:
agendas are private, public only at the end), checked through the table service over random games of 3 and 4
seats, with and without a scenario: every public post a move makes (its words, the board's alt text and the words its
picture sets), every DM (only the holder's own agenda), /log and its pages, the look-back boards (/board move:) and
/replay, which waits for the end. Once the game is over, the end post reveals every agenda."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.agendas import AGENDAS
from engine.blocbybloc.model import BlocState
from engine.blocbybloc.moves import Move
from engine.blocbybloc.scenarios import SCENARIOS
from render import blocbybloc as picture
from render.common import recording
from storage import Database
from tables import Outcome, Post, Refusal, TableService
from tables.catalog import default_catalog
from tests.tables.helpers import ALICE, BOB, CARL, CH, DANA, lobby, make_clock, post_text, read

G = BlocByBloc()
PEOPLE = (ALICE, BOB, CARL, DANA)
BUILDING = ("move", "barricade", "loot", "build")
GAMES = [(3, "none", 21), (4, "none", 220), (3, "infighting", 23), (4, "smash", 240), (3, "zone-1", 25)]


def secret_words(state: BlocState, factions: Iterable[int], goal: str) -> set[str]:
    """The agendas of ``factions`` in words: each card's name and both options' objectives (a word the scenario's
    goal says in public aside: Let the Infighting Begin! names the Vanguardist and the Nihilist)."""
    out = set()
    for f in factions:
        agenda = AGENDAS[state.agendas[f]]
        out |= {agenda.name, *(o.text for o in agenda.options)}
    return {w for w in out if w not in goal}


def leaks(text: str, secrets: set[str]) -> list[str]:
    return sorted(w for w in secrets if w in text)


def pick(moves: list[Move], rng: random.Random) -> str:
    """A random move, most often a building one (a bloc moved, a barricade, loot, an occupation) when there is one:
    purely random factions lose their blocs within a night, and the game should run several nights."""
    building = [m for m in moves if m.kind in BUILDING]
    return G.format_move(rng.choice(building if building and rng.random() < 0.8 else moves))


def lasting(seats: int, scenario: str, start: int, nights: int = 3) -> int:
    """The first seed from ``start`` whose game, played by :func:`pick` as the test plays it, reaches ``nights``
    nights (most random games end in the first: a faction loses its last bloc)."""
    options = G.resolve_options({"mode": "semi", "scenario": scenario}, seats)
    for seed in range(start, start + 200):
        state, rng = G.new_game(seats, options, seed), random.Random(seed)
        while G.result(state) is None and state.night < nights:
            seat = min(G.to_act(state))
            state = G.apply(state, seat, G.parse_move(pick(G.legal_moves(state, seat), rng)))[0]
        if state.night >= nights:
            return seed
    raise AssertionError("no game lasts")


def post_words(post: Post) -> str:
    return post_text(post) + ("\n" + post.board.alt if post.board is not None else "")


async def semi_table(svc: TableService, seats: int, scenario: str, seed: int) -> int:
    tid = await lobby(svc, *PEOPLE[:seats], game="blocbybloc", options=f"scenario={scenario}" if scenario != "none"
                      and SCENARIOS[scenario].modes != ("semi",) else None)
    options = "mode=semi" + (f" scenario={scenario}" if scenario != "none" else "")
    await svc.set_options(CH, ALICE, options)  # (once seated: the lobby refuses semi below 3 seats, see SEATS_BUG)
    await svc.start(tid, ALICE, seed=seed)
    return tid


@pytest.mark.parametrize(("seats", "scenario", "seed"), GAMES, ids=[f"{n}p-{s}-{x}" for n, s, x in GAMES])
async def test_no_agenda_reaches_anybody_else_while_the_game_runs(db: Database, seats: int, scenario: str,
                                                                  seed: int) -> None:
    seed = lasting(seats, scenario, seed)
    svc = TableService(db, default_catalog(), clock=make_clock(), seeds=lambda: seed, render=False)
    pictures = TableService(db, default_catalog(), clock=make_clock(), render=True)  # the public boards, drawn
    tid = await semi_table(svc, seats, scenario, seed)
    table = await read(svc, tid)
    assert table.state is not None
    state = G.load(table.state)
    goal = SCENARIOS[scenario].goal if scenario != "none" else ""
    everyone = secret_words(state, state.order, goal)
    mine = {seat: secret_words(state, [f for f in state.order if state.controller[f] == seat], "")
            for seat in range(seats)}
    assert all(mine.values()) and everyone
    user_seat = {p.user_id: i for i, p in enumerate(PEOPLE[:seats])}
    rng = random.Random(seed)
    checked_boards = looked = 0

    def check(out: Outcome, where: str) -> None:
        for post in out.public:
            assert not leaks(post_words(post), everyone), (where, leaks(post_words(post), everyone))
        for dm in out.dms:  # a DM is its reader's own: no one else's agenda
            seat = user_seat[dm.user_id]
            others = everyone - {w for w in everyone if any(w in m for m in mine[seat])}
            assert not leaks(post_words(dm.post), others), (where, seat, leaks(post_words(dm.post), others))

    for ply in range(1000):
        table = await read(svc, tid)
        if table.status != "active":
            break
        assert table.state is not None
        state = G.load(table.state)
        seat = min(G.to_act(state))
        move = pick(G.legal_moves(state, seat), rng)
        out = await svc.submit(PEOPLE[seat], move, table_id=tid, version=table.version)
        table = await read(svc, tid)
        if table.status != "active":  # the end post reveals every agenda (below)
            break
        check(out, f"ply {ply}: {move}")
        if ply % 8 == 0:  # /log, its pages, the look-back and the public board with its picture's words
            text = await svc.history(CH, last=50)
            page = await svc.log_page(channel_id=CH)
            text += "\n".join(page.lines)
            assert not leaks(text, everyone), ("/log", leaks(text, everyone))
            with pytest.raises(Refusal, match="once the game is over"):
                await svc.replay(CH)
            picture._recent.clear()
            with recording() as seen:
                look = await pictures.presenter.look_back(None, channel_id=CH)
                earlier = await pictures.presenter.look_back(max(1, look.positions // 2), channel_id=CH)
                board = await pictures.board(CH)
            assert look.reply_post is not None and earlier.reply_post is not None
            words = post_words(look.reply_post) + post_words(earlier.reply_post) + "\n".join(
                post_words(p) for p in board.public) + "\n" + "\n".join(s.text for s in seen)
            assert seen, "the pictures were drawn"
            assert not leaks(words, everyone), ("look-back, board", leaks(words, everyone))
            checked_boards += 1
            looked += 1
    else:
        raise AssertionError("the game did not end")
    assert checked_boards >= 1 and looked >= 1
    table = await read(svc, tid)
    assert table.status == "finished"
    (final,) = (await svc.board(CH)).public
    assert "Agendas revealed" in final.description
    assert all(AGENDAS[state.agendas[f]].name in final.description for f in state.order)
