"""A private view says in words what it holds (issue 24): /hand and My view name the cards, the rack, the
modules in hand, so that no one needs the picture to know their hand (a screen reader, a slow connection)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.blocbybloc.model import FACTIONS, LOOT_NAMES, Pending
from engine.rng import Rng
from storage import Database
from tables import TableService
from tables.catalog import default_catalog
from tests.tables.helpers import ALICE, BOB, CH, actor_of, read, started, state_of
from tests.tables.test_turn_clock import Clock


async def test_hand_names_every_bloc_by_bloc_card_of_the_seats_factions(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB, game="blocbybloc", options="city=beginner")
    table = await read(svc, tid)
    game, state = state_of(svc, table)
    for seat in (0, 1):
        out = await svc.hand(CH, actor_of(table, seat))
        assert out.reply_post is not None
        text = out.reply_post.description or ""
        for f in state.order:
            if state.controller[f] == seat:
                assert FACTIONS[f] in text
                for card in state.hands[f]:
                    assert LOOT_NAMES[card] in text, (card, text)
            else:  # never another player's cards
                assert not any(LOOT_NAMES[c] in text for c in state.hands[f] if c not in
                               [x for g in state.order if state.controller[g] == seat for x in state.hands[g]])


def held_items(info: dict[str, Any]) -> list[str]:
    """The things in a seat's ``private_info``: lists of cards, or per colour lists of tiles (trade offers aside)."""
    out: list[str] = []
    for key, value in info.items():
        if key == "offers":
            continue
        for items in (value.values() if isinstance(value, dict) else [value]):
            out.extend(items)
    return out


@pytest.mark.parametrize(("key", "options"), [("blocbybloc", {}), ("blockers", {}), ("breakerblocks", {"blind": True})])
def test_every_hidden_thing_a_seat_holds_is_in_its_words(key: str, options: dict[str, object]) -> None:
    """Over random play: each seat's words list what ``private_info`` says it holds (cards, tiles, modules)."""
    game = default_catalog().get(key)
    assert game is not None
    rng = Rng(5)
    state = game.new_game(2, game.resolve_options(options, 2), 5)
    for _ in range(120):
        for seat in (0, 1):
            words = game.text.private_words(state, seat)
            info = game.private_info(state, seat)
            held = held_items(info)
            assert bool(words) or not held
            for item in held:
                shown = LOOT_NAMES.get(item, item) if key == "blocbybloc" else item
                if key == "breakerblocks" and not item.isalpha():
                    continue  # power blocks are on the board's supply too; the modules are the hidden part
                assert str(shown).lower() in words.lower(), (item, words)
        acting = sorted(game.to_act(state))
        if not acting:
            break
        state, _ = game.apply(state, acting[0], game.sample_move(state, acting[0], rng))


async def test_a_question_only_a_cards_holder_gets_never_names_them_in_public(db: Database) -> None:
    """Cards.md decision 21: a Communiqué's holder is asked privately. The board says a reaction is wanted, names
    and mentions nobody for it; the holder hears by DM (whatever /notify says), as do the turn clock's reminders,
    and /hand asks them."""
    clock = Clock()
    svc = TableService(db, default_catalog(), clock=clock, seeds=lambda: 7, render=False)
    tid, _ = await started(svc, ALICE, BOB, game="blocbybloc", options="city=beginner clock=1h")
    table = await read(svc, tid)
    game, state = state_of(svc, table)
    while state.pending:  # the Faction Starts, by default
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.parse_move(game.decision(state, seat).default or ""))
    holder = next(f for f in state.order if state.controller[f] != state.controller[state.faction_now()])
    state.hands[holder].append("communique")
    state.pending = [Pending("communique", holder, cell=0)]
    await svc.db.record_moves(tid, table.version, [], game.dump(state), clock.now, deadline=clock.now + 3600)
    table = await read(svc, tid)
    seat = state.controller[holder]
    decision = game.decision(state, seat)
    assert decision is not None and decision.unnamed and decision.private
    (post,) = (await svc.board(CH)).public
    to_play = dict(post.fields)["To play"]
    assert to_play == "a reaction, asked privately" and table.seats[seat].name not in to_play
    assert not post.mention_ids and "<@" not in post.content and post.controls is None
    dms = await svc.presenter.turn_dms(table, svc.core.situation(table, game))  # the holder chose mentions
    assert [d.user_id for d in dms] == [table.seats[seat].user_id]
    asked = await svc.hand(CH, actor_of(table, seat))
    assert asked.reply_post is not None and "Communiqué" in (asked.reply_post.description or "")
    other = actor_of(table, 1 - seat)  # the other player is told the game waits, not for whom
    told = await svc.hand(CH, other)
    assert told.reply_post is not None
    assert "Waiting for a reaction, asked privately." in (told.reply_post.description or "")
    assert table.seats[seat].name not in (told.reply_post.description or "")
    mine = await svc.my_games(table.guild_id, other)
    listed = mine.reply_post.description if mine.reply_post else ""
    assert "waiting for a reaction, asked privately" in listed and table.seats[seat].name not in listed
    await svc.db.set_remind_at(tid, clock.now + 1)  # the clock's reminder: by DM to the holder, nothing in public
    clock.now += 2
    (reminded,) = await svc.remind()
    assert not reminded.public and [d.user_id for d in reminded.dms] == [table.seats[seat].user_id]
    holder_name = table.seats[seat].name
    ply = (await svc.db.moves(tid, last=1))[-1].ply + 1 if await svc.db.moves(tid, last=1) else 1
    await svc.db.record_moves(tid, table.version, [(ply, seat, "pass", [])], game.dump(state), clock.now,
                              unnamed={ply})  # as the play loop stores an answer to it (tests/cogs: Lookouts)
    log = await svc.history(CH, last=1)
    assert "an answer asked privately" in log and holder_name not in log and "pass" not in log
