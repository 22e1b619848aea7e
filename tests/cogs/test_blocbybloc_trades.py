"""Bloc by Bloc loot exchanges through Discord, offline (simcord): a trade offered while the offering player plays
on, answered from the buttons of the DM it arrives in (still good after the offering player's next action); the
other side giving a card during someone else's turn from its own panel; the channel told only how many cards."""

from __future__ import annotations

from typing import Any

import pytest

from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.city import parse_cell
from engine.blocbybloc.model import BlocState
from tables import Actor
from tables.outcome import StaleButton
from tests.cogs.discord_helpers import board_messages, last_board, move_buttons, move_select, moves_made

G = BlocByBloc()
SEED = 7  # a deal (lobby order) whose three factions include the Workers (0) and Students (1)
W, S = 0, 1


def _cell(name: str) -> int:
    cell = parse_cell(name)
    assert cell is not None
    return cell


def sharing(state: BlocState, students: tuple[str, ...] = ("medic", "banner"),
            workers: tuple[str, ...] = ("molotov1", "energy")) -> BlocState:
    """Every Start placed by its default; the Workers act with a 1 and share C3 with the Students; both hold two
    cards."""
    while state.pending:
        seat = next(iter(G.to_act(state)))
        state, _ = G.apply(state, seat, G.parse_move(G.decision(state, seat).default or ""))
    state.blocs = [[0, 0, 0, 0] for _ in range(25)]
    state.loot_deck += [c for hand in state.hands for c in hand]
    state.hands = [[], [], [], []]
    for f, cards in ((W, workers), (S, students)):
        for card in cards:
            state.loot_deck.remove(card)
            state.hands[f].append(card)
    state.first, state.turn, state.dice = state.order.index(W), 0, [1]
    state.blocs[_cell("C3")][W] = state.blocs[_cell("C3")][S] = 1
    state.blocs[_cell("B5")][W] = 2
    return state


def seed_with_workers_and_students() -> int:
    """A 3-player game leaves one faction out: a seed whose deal keeps the Workers and the Students."""
    return next(seed for seed in range(SEED, SEED + 100)
                if {W, S} <= set(G.new_game(3, {"city": "beginner"}, seed).order))


async def three_at_a_table(env: Any, students: tuple[str, ...] = ("medic", "banner"),
                           workers: tuple[str, ...] = ("molotov1", "energy"), guild: Any = None
                           ) -> tuple[Any, dict[int, Any], Any]:
    """alice, bob and carol in a 3-player game on the beginner city, set up by :func:`sharing`, in ``guild`` (by
    default a new one): (thread, players by faction, bot)."""
    guild = guild or env.create_guild()
    channel = guild.create_text_channel("games")
    people = [guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol")]
    env.bot.service.seeds = seed_with_workers_and_students
    await people[0].slash(channel, "game new", game="blocbybloc", options="city=beginner")
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    for member in people[1:]:
        await member.click(lobby, label="Join")
    await people[0].click(lobby, label="Start")
    thread = channel.threads[0]
    db = env.bot.db
    table = await db.latest_table_in(thread.id)
    state = sharing(G.load(table.state), students, workers)
    await db.record_moves(table.id, table.version, [], G.dump(state), 0.0)
    by_faction = {f: people[state.controller[f]] for f in state.order}
    await by_faction[W].slash(thread, "board")
    return thread, by_faction, env.bot


async def test_a_trade_is_answered_from_its_dm_while_the_offering_player_plays_on(simcord_env: Any) -> None:
    thread, players, bot = await three_at_a_table(simcord_env)
    workers, students = players[W], players[S]
    res = await workers.slash(thread, "move", move="offer S molotov1 for 1")
    assert res.ephemeral and "Played: Offer Molotovs +1 for 1 of the Students" in (res.response.content or "")
    public = " ".join((m.embeds[0].description or "") for m in board_messages(thread) if m.embeds)
    assert "Workers offer the Students a trade (#1): 1 card for 1." in public
    assert "Molotov" not in public, "the channel hears how many cards, not which"
    assert f"<@{students.id}>" in (last_board(thread).content or ""), "the Students are asked"
    fields = {f.name: f.value for f in last_board(thread).embeds[0].fields}
    assert fields["To play"] == f"<@{workers.id}>, <@{students.id}> (an answer)" or \
        fields["To play"] == f"<@{students.id}> (an answer), <@{workers.id}>"
    dm = students.user.dm_channel.history()[-1]
    assert "offer #1" in (dm.embeds[0].description or "") and "Molotovs +1" in (dm.embeds[0].description or "")
    labels = [b.label for b in move_buttons(dm)]
    assert labels == ["Accept offer #1: give Banner Drop", "Accept offer #1: give Medic Kit", "Decline offer #1"]
    # the Workers play on; the Students' buttons are still good
    res = await workers.slash(thread, "move", move="move 1 B5 A5 1")
    assert "Played" in (res.response.content or "")
    res = await students.user.click(dm, label="Accept offer #1: give Medic Kit")
    said = res.response.content if res.response else ""
    assert "Played: Accept offer #1: give Medic Kit." in (said or ""), res.response
    assert not move_buttons(students.user.dm_channel.history()[-2]), "the spent buttons go"
    state = G.load((await bot.db.latest_table_in(thread.id)).state)
    assert sorted(state.hands[W]) == ["energy", "medic"] and sorted(state.hands[S]) == ["banner", "molotov1"]
    board = last_board(thread)
    assert "Students accept trade #1: 1 card to the Students, 1 to the Workers." in (board.embeds[0].description or "")
    assert "Medic" not in (board.embeds[0].description or "")
    res = await students.slash(thread, "move", move="decline 1")
    assert res.ephemeral and "no open trade offer #1" in (res.response.content or "")


async def test_the_other_side_gives_from_its_own_panel_during_the_turn(simcord_env: Any) -> None:
    thread, players, bot = await three_at_a_table(simcord_env)
    students = players[S]
    board = last_board(thread)
    assert f"<@{students.id}>" not in (board.content or ""), "nobody waits for the Students"
    panel = (await students.click(board, label="My view")).response
    assert panel is not None and panel.ephemeral
    assert "You may give the Workers loot cards" in (panel.message.embeds[0].description or "")
    res = await students.slash(thread, "move", move="give W banner from S")
    assert "Played" in (res.response.content or "")
    state = G.load((await bot.db.latest_table_in(thread.id)).state)
    assert "banner" in state.hands[W] and state.dice == [1], "the Workers' turn goes on"
    assert "Students give a loot card to the Workers." in (last_board(thread).embeds[0].description or "")
    outsider = next(p for f, p in players.items() if f not in (W, S))
    res = await outsider.slash(thread, "move", move="give W banner from S")
    assert res.ephemeral and "not your turn" in (res.response.content or "").lower()


async def test_a_big_answer_menu_in_a_dm_stays_good_while_the_offering_player_moves(simcord_env: Any) -> None:
    """Six ways to give 2 of 4 cards, and Decline: a select menu, not buttons. The Workers act in between; the
    Students' pick still plays the move its label names."""
    thread, players, bot = await three_at_a_table(simcord_env, ("medic", "banner", "bicycles", "crowbar"))
    workers, students = players[W], players[S]
    await workers.slash(thread, "move", move="offer S molotov1 for 2")
    dm = students.user.dm_channel.history()[-1]
    select = move_select(dm)
    assert select is not None and not move_buttons(dm)
    labels = [o.label for o in select.options]
    assert "Accept offer #1: give Banner Drop and Crowbar" in labels and labels[-1] == "Decline offer #1"
    await workers.slash(thread, "move", move="move 1 B5 A5 1")
    option = next(o for o in select.options if o.label == "Accept offer #1: give Banner Drop and Crowbar")
    res = await students.user.select(dm, [option.value], custom_id=select.custom_id)
    said = res.response.content if res.response else ""
    assert "Played: Accept offer #1: give Banner Drop and Crowbar." in (said or "")
    state = G.load((await bot.db.latest_table_in(thread.id)).state)
    assert sorted(state.hands[S]) == ["bicycles", "medic", "molotov1"]


async def test_the_public_board_is_for_the_seat_it_asks(simcord_env: Any) -> None:
    """The Workers hold no card, so their menu is on the board; the Students, who may give them one meanwhile,
    pick in it: refused and pointed to their own panel, nothing played."""
    thread, players, bot = await three_at_a_table(simcord_env, workers=())
    students = players[S]
    board = last_board(thread)
    select = move_select(board)
    assert select is not None, "the Workers' menu is on the board"
    res = await students.select(board, [select.options[0].value], custom_id=select.custom_id)
    said = " ".join(f.message.content or "" for f in res.followups)
    assert "Those controls are" in said and "My view" in said, said
    assert await moves_made(bot, thread) == 0, "nothing was played"


async def test_a_hand_stays_off_the_board_and_out_of_the_log(simcord_env: Any) -> None:
    """The Workers hold cards: their menu (it names them) is private, and comes with each answer; the running
    game's log says how many cards changed hands, never which."""
    thread, players, bot = await three_at_a_table(simcord_env)
    workers, students = players[W], players[S]
    assert move_select(last_board(thread)) is None and not move_buttons(last_board(thread))
    res = await workers.slash(thread, "move", move="offer S molotov1 for 1")
    assert res.ephemeral and "Played" in (res.response.content or "")
    panel = res.response.message
    assert "Workers: your actions" in (panel.embeds[0].description or "") and move_select(panel) is not None
    assert not panel.attachments, "the picture is the board's, in the channel"
    await students.slash(thread, "move", move="accept 1 medic")
    await students.slash(thread, "move", move="give W banner from S")
    log = await students.slash(thread, "log")
    text = (log.response.content or "") + " ".join(e.description or "" for e in log.response.embeds)
    assert "offer S (1 card) for 1" in text and "accept 1 (1 card)" in text and "give W (1 card) from S" in text
    assert not any(card in text for card in ("molotov1", "medic", "banner")), "a running game's log names no card"


async def test_the_acting_players_menu_stays_good_while_a_partner_gives(simcord_env: Any) -> None:
    """The Workers open their panel; the Students give them a card; the Workers' pick in the panel they opened
    before still plays (their decision is the same one)."""
    thread, players, bot = await three_at_a_table(simcord_env)
    workers, students = players[W], players[S]
    panel = (await workers.click(last_board(thread), label="My view")).response
    assert panel is not None and panel.ephemeral
    await students.slash(thread, "move", move="give W banner from S")
    select = move_select(panel.message)
    assert select is not None
    end = next(o for o in select.options if o.value == "m:end")
    res = await workers.select(panel.message, [end.value], custom_id=select.custom_id)
    said = panel.message.content or ""
    assert "Played: End my actions (police ops follow)." in said, [f.message.content for f in res.followups]
    state = G.load((await bot.db.latest_table_in(thread.id)).state)
    assert state.faction_now() != W, "the Workers' turn ended"


async def test_a_menu_pick_is_found_by_its_notation_wherever_the_menu_has_moved_it(simcord_env: Any) -> None:
    """The service looks a picked move up by its notation: at the level it was picked from, else anywhere in the
    seat's menu now; a move no longer offered is refused."""
    thread, players, bot = await three_at_a_table(simcord_env)
    workers = players[W]
    table = await bot.db.latest_table_in(thread.id)
    service = bot.service
    step = await service.menu(table.id, actor_of(workers), table.version, (0,), notation="end")
    assert step.node.choice is not None and step.node.choice.notation == "end", "found outside the level picked from"
    step = await service.menu(table.id, actor_of(workers), table.version, (), notation="end")
    assert step.node.choice is not None and step.node.choice.notation == "end"
    with pytest.raises(StaleButton, match="no longer possible"):
        await service.menu(table.id, actor_of(workers), table.version, (), notation="give S medic")


def actor_of(member: Any) -> Actor:
    return Actor(member.id, member.name)


async def test_a_stop_asks_for_a_choice_and_the_offer_comes_again_with_live_buttons(simcord_env: Any) -> None:
    """The Workers offer the Students a trade, then declare a loot where the Students have the most blocs: the
    Students are asked to stop or allow it (a choice, not their turn), which makes the offer's first DM an earlier
    position; once they answer, the offer comes again by DM, with buttons that work."""
    thread, players, bot = await three_at_a_table(simcord_env)
    workers, students = players[W], players[S]
    table = await bot.db.latest_table_in(thread.id)
    state = G.load(table.state)
    state.dice = [6, 6]
    state.blocs[_cell("C3")][S] = 3
    await bot.db.record_moves(table.id, table.version, [], G.dump(state), 0.0)
    await workers.slash(thread, "move", move="offer S molotov1 for 1")
    await workers.slash(thread, "move", move="loot 6 C3")
    board = last_board(thread)
    assert (board.content or "").startswith(f"<@{students.id}> — your choice is wanted."), board.content
    now = {f.name: f.value for f in board.embeds[0].fields}["Now"]
    assert now.endswith(f"Students ({students.name}) to choose"), now
    dms = len(students.user.dm_channel.history())
    await students.click(board, label="Allow it")
    fresh = students.user.dm_channel.history()[dms:]
    offer = next(m for m in fresh if any("Accept offer #1" in (b.label or "") for b in move_buttons(m)))
    res = await students.user.click(offer, label="Accept offer #1: give Medic Kit")
    said = res.response.content if res.response else ""
    assert "Played: Accept offer #1: give Medic Kit." in (said or ""), res.response
