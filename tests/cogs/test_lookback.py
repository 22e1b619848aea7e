"""Looking back during a game (issue 24): `/board move:<n>` shows anyone, privately, the public board as it was at
the n-th position the channel saw, with buttons that step back and forward through the others, after a restart
too. Never anything hidden: a Blockers! look back is the public picture of that position, never a rack."""

from __future__ import annotations

from typing import Any

from tables.catalog import default_catalog
from tables.replay import public_positions
from tests.cogs.discord_helpers import components, last_board, to_act
from tests.support import make_bot

CATALOG = default_catalog()


async def blockers_under_way(env: Any, moves: int = 4) -> tuple[Any, dict[int, Any], Any]:
    """ann and ben's Blockers! game with ``moves`` moves played, and cy, who only watches: (thread, players, cy)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    ann, ben, cy = (guild.add_member(env.create_user(name)) for name in ("ann", "ben", "cy"))
    await ann.slash(channel, "game new", game="blockers")
    lobby = [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]
    await ben.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    thread = channel.threads[0]
    players = {ann.id: ann, ben.id: ben}
    for _ in range(moves):
        player = players[to_act(last_board(thread))[0]]
        choices = await player.autocomplete(thread, "move", "move", "")
        await player.slash(thread, "move", move=choices[0]["value"])
    return thread, players, cy


async def shown(env: Any, thread: Any) -> tuple[Any, list[Any], list[str]]:
    """The table, its public positions and its players' names, as the engine replays its log."""
    table = await env.bot.db.latest_table_in(thread.id)
    log = [(m.seat, m.notation) for m in await env.bot.db.moves(table.id)]
    game = CATALOG.entry("blockers").rules
    return table, public_positions(game, len(table.seats), table.options, table.seed or 0, log), \
        [s.name for s in table.seats]


def message_of(res: Any) -> Any:
    return res.response.message if hasattr(res.response, "message") else res.response


def button(message: Any, label: str) -> Any:
    return next(c for c in components(message) if getattr(c, "label", "") == label)


async def picture(message: Any) -> bytes:
    assert len(message.attachments) == 1
    return bytes(await message.attachments[0].read())


async def test_a_watcher_steps_through_the_public_boards_with_the_buttons(simcord_env: Any) -> None:
    thread, players, cy = await blockers_under_way(simcord_env)
    table, positions, names = await shown(simcord_env, thread)
    game, render = CATALOG.entry("blockers").rules, CATALOG.entry("blockers").render
    total = len(positions)
    assert total == 5, "the start and a board for each of the 4 moves"
    res = await cy.slash(thread, "board", move=1)  # cy does not play: anyone in the channel may look
    assert res.ephemeral
    message = message_of(res)
    assert f"position 1 of {total}" in message.embeds[0].title and "start" in message.embeds[0].description
    assert button(message, "Back").disabled and not button(message, "Forward").disabled
    for at, label in ((2, "Forward"), (3, "Forward"), (2, "Back")):
        res = await cy.click(message, custom_id=button(message, label).custom_id)
        message = message_of(res)
        embed = message.embeds[0]
        assert f"position {at} of {total}" in embed.title, embed.title
        step = (await simcord_env.bot.db.moves(table.id))[positions[at - 2].moves:positions[at - 1].moves]
        assert embed.description.startswith(f"**Position {at} of {total}**, after {names[step[0].seat]}'s move:")
        state = positions[at - 1].state
        png = await picture(message)
        assert png == render(game.view(state, None), names), "the public board of that position"
        for seat in range(len(names)):  # never a seat's own picture, with its rack
            assert png != render(game.view(state, seat), names)
    # and the last one is the board the channel shows now
    res = await cy.click(message, custom_id=button(message, "Latest").custom_id)
    message = message_of(res)
    assert f"position {total} of {total} (the latest)" in message.embeds[0].title
    assert button(message, "Forward").disabled
    assert await picture(message) == await picture(last_board(thread))


async def test_a_position_out_of_range_is_refused_privately(simcord_env: Any) -> None:
    thread, players, cy = await blockers_under_way(simcord_env, moves=2)
    res = await cy.slash(thread, "board", move=4)
    assert res.ephemeral and not res.response.attachments
    assert "3 positions so far" in res.response.content and "1 (the start) to 3" in res.response.content
    boards = len([m for m in thread.history() if m.attachments])
    res = await cy.slash(thread, "board", move=3)  # the latest is fine, and posts nothing in the channel
    assert res.ephemeral and len([m for m in thread.history() if m.attachments]) == boards
    channel = thread.guild.create_text_channel("quiet")
    res = await cy.slash(channel, "board", move=1)
    assert res.ephemeral and "There is no game here" in res.response.content


async def test_the_buttons_work_after_a_restart_and_on_a_finished_game(simcord_env: Any, db_path: Any) -> None:
    thread, players, cy = await blockers_under_way(simcord_env, moves=3)
    message = message_of(await cy.slash(thread, "board", move=3))
    await simcord_env.bot.db.close()
    await simcord_env.restart_bot(make_bot(db_path))
    res = await cy.click(message, custom_id=button(message, "Back").custom_id)
    message = message_of(res)
    table, positions, names = await shown(simcord_env, thread)
    game, render = CATALOG.entry("blockers").rules, CATALOG.entry("blockers").render
    assert "position 2 of 4" in message.embeds[0].title
    assert await picture(message) == render(game.view(positions[1].state, None), names)
    ann = next(iter(players.values()))
    await ann.slash(thread, "resign")  # two players: the game is over
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert table.status == "finished"
    res = await cy.click(message, custom_id=button(message, "Latest").custom_id)
    message = message_of(res)
    table, positions, names = await shown(simcord_env, thread)
    assert f"position {len(positions)} of {len(positions)} (the latest)" in message.embeds[0].title
