"""A private menu or preview that has been used says what is true now (issue 8): "Played …" is never shown
above "It's your turn." or "Nothing is played until you submit."."""

from __future__ import annotations

from typing import Any

from tests.cogs.discord_helpers import components, last_board, move_select, pick_through_menu
from tests.cogs.test_block_flow import open_table
from tests.cogs.test_game_flow import open_two_player_table, to_act


def card_text(message: Any) -> str:
    embed = message.embeds[0]
    return " ".join([message.content or "", embed.title or "", embed.description or "", embed.footer.text or ""])


async def test_a_submitted_preview_no_longer_asks_to_submit(simcord_env: Any) -> None:
    thread, (ann, _ben) = await open_table(simcord_env, ("ann", "ben"))
    panel = (await ann.click(last_board(thread), label="My view")).response
    await pick_through_menu(ann, panel.message, pick=2)
    spent = panel.message
    text = card_text(spent)
    assert "Played: Write your number in c1." in text
    assert "until you submit" not in text and "It's your turn" not in text and "Preview" not in text
    assert not components(spent) and spent.attachments, "no live controls; the picture stays"


async def test_a_move_from_the_private_menu_does_not_leave_its_turn_prompt(simcord_env: Any) -> None:
    _, thread, alice, bob = await open_two_player_table(simcord_env)
    board = last_board(thread)
    mover = {alice.id: alice, bob.id: bob}[to_act(board)[0]]
    panel = (await mover.click(board, label="My view")).response
    assert "It's your turn" in card_text(panel.message) and move_select(panel.message) or components(panel.message)
    await pick_through_menu(mover, panel.message, pick=0)
    text = card_text(panel.message)
    assert "Played" in text and "It's your turn" not in text


async def test_a_played_menu_speaks_of_a_picture_only_when_it_has_one(simcord_env: Any) -> None:
    """Picked from the public board's menu, the menu's next level opens as a private message of its own, without a
    card or picture: once played it says so and nothing about a picture that is not there."""
    from tests.cogs.test_bot_games import lobby

    channel = simcord_env.create_guild().create_text_channel("games")
    alice = channel.guild.add_member(simcord_env.create_user("alice"))
    await alice.slash(channel, "game new", game="breakerblocks")
    await alice.click(lobby(channel), label="Add bot: easy")
    await alice.click(lobby(channel), label="Start")
    thread = channel.threads[0]
    board = last_board(thread)
    assert alice.id in to_act(board), "the bot, if it opened, has moved: the newest board is Alice's turn"
    assert move_select(board) is not None, "Breaker Blocks' choices are on the public board"
    message, played = board, []
    for _ in range(6):  # down the menu's levels, first option each, until the move is played
        select = move_select(message)
        assert select is not None, components(message)
        res = await alice.select(message, [select.options[0].value], custom_id=select.custom_id)
        shown = [f.message for f in res.followups if f.ephemeral]
        if message.flags.ephemeral and res.response is not None:
            shown.insert(0, res.response.message)  # a private menu changes in place
        played = [m for m in shown if (m.content or "").startswith("✅ Played")]
        if played:
            break
        message = next(m for m in shown if move_select(m) is not None)
    assert played and message is not board, "played from a level that opened privately"
    for spent in played:
        assert not components(spent)
        for embed in spent.embeds:
            assert embed.image.url or "picture" not in (embed.description or ""), embed.to_dict()


async def open_blocbybloc(alice: Any, bob: Any, channel: Any) -> Any:
    """A two-player Bloc by Bloc table on the beginner city, opened by ``alice`` and started; its thread."""
    await alice.slash(channel, "game new", game="blocbybloc", options="city=beginner")
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    return channel.threads[0]


async def workers_in_the_park(db: Any, table_id: int) -> int:
    """Every Faction Start as it goes by default, then the Workers with two blocs in The Park (C4) and one cop there,
    two 6s to spend, a new night's attacks; the seat that controls them."""
    from engine.blocbybloc import BlocByBloc
    from tests.engine.test_blocbybloc_rules import W, blank, c

    game = BlocByBloc()
    row = await db.get_table(table_id)
    state = game.load(row.state)
    while state.pending:  # every Faction Start where it goes by default
        seat = next(iter(game.to_act(state)))
        state, _ = game.apply(state, seat, game.parse_move(game.decision(state, seat).default or ""))
    state = blank(state, W, [6, 6])
    state.cops[c("C4")], state.blocs[c("C4")][W] = 1, 2
    state.attacked, state.run = {}, -1  # a new night's attacks (each bloc attacks once a night)
    await db.record_moves(table_id, row.version, [], game.dump(state), 0.0)
    return int(state.controller[W])


async def reaction_roll_of_one(db: Any, table_id: int) -> None:
    """The run's reaction roll will be 1 (a cop arrives)."""
    from engine.blocbybloc import BlocByBloc
    from tests.engine.test_blocbybloc_rules import rig

    game = BlocByBloc()
    row = await db.get_table(table_id)
    state = game.load(row.state)
    rig(state, 1)
    await db.record_moves(table_id, row.version, [], game.dump(state), 0.0)


async def test_a_move_the_game_cancels_says_not_played(simcord_env: Any) -> None:
    """Bloc by Bloc: an attack opens a run that closes with a reaction roll before the next action; a roll of 1 sends
    a cop into the district, so blocs there may no longer leave and the move that set the roll off is cancelled
    ("nothing spent"). Typed or picked from the menu, the mover is told it was not played, never "Played"."""
    from engine.blocbybloc import BlocByBloc
    from tests.engine.test_blocbybloc_rules import W

    game = BlocByBloc()
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob = guild.add_member(simcord_env.create_user("alice")), guild.add_member(simcord_env.create_user("bob"))
    thread = await open_blocbybloc(alice, bob, channel)
    db = simcord_env.bot.db

    async def workers_attack_then_roll_a_one() -> Any:
        """The Workers, two blocs in The Park (C4) with one cop, defeat it (two 6s to spend); the run's roll is 1."""
        table_id = (await db.latest_table_in(thread.id)).id
        player = [alice, bob][await workers_in_the_park(db, table_id)]
        res = await player.slash(thread, "move", move="defeat 6 C4")
        assert "Played: Defeat a cop in C4, die 6." in (res.response.content or "")
        await reaction_roll_of_one(db, table_id)
        return player

    cancelled = ("Not played: Move C4 → C3: 1 bloc, die 6 is no longer possible after the police reaction: "
                 "nothing spent.")
    player = await workers_attack_then_roll_a_one()
    res = await player.slash(thread, "move", move="move 6 C4 C3 1")
    assert res.ephemeral and res.response.content == cancelled
    await player.slash(thread, "move", move="end")  # the turn's board (its later actions went on privately)
    assert "nothing spent" in (last_board(thread).embeds[0].description or "")

    player = await workers_attack_then_roll_a_one()  # again, the Workers holding Lookouts: asked first, they keep
    table = await db.latest_table_in(thread.id)  # the roll, and it is that answer that tells of the cancelled move
    state = game.load(table.state)
    state.loot_deck.remove("lookouts")
    state.hands[W].append("lookouts")
    await db.record_moves(table.id, table.version, [], game.dump(state), 0.0)
    res = await player.slash(thread, "move", move="move 6 C4 C3 1")
    assert res.response.content == "Played: Move C4 → C3: 1 bloc, die 6."  # the reaction roll comes first: Lookouts?
    res = await player.slash(thread, "move", move="accept")
    assert res.response.content == "Played: Keep this reaction roll. " + cancelled.removeprefix("Not played: ")
    log = (await player.slash(thread, "log", count=3)).response.content or ""  # whoever asks: the holder unnamed
    assert "an answer asked privately" in log and "accept" not in log, log

    player = await workers_attack_then_roll_a_one()  # again, from the private menu
    await player.slash(thread, "board")
    message = (await player.click(last_board(thread), label="My view")).response.message
    for wanted in ("Move blocs", "from The Park (C4)", "to Commercial District 3 (C3)", "1 bloc"):
        select = move_select(message)
        assert select is not None, components(message)
        option = next(o for o in select.options if wanted in o.label)
        res = await player.select(message, [option.value], custom_id=select.custom_id)
        message = res.response.message  # the private menu changes in place
    assert message.content == "↩️ " + cancelled
    assert "Played" not in card_text(message).replace("Not played", "")
    assert not components(message)
