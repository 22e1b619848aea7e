"""Bots through Discord (issue 13): a lobby takes bots of three strengths; a game of bots alone (the host resigns
at once) is played to its end by the medium and hard bots thinking in their worker process; a bot whose move was
cut short by a restart simply chooses it again."""

from __future__ import annotations

from typing import Any

import pytest

from tables.bots import Thinker
from tests.cogs.discord_helpers import last_board, lobby_of_one
from tests.support import make_bot, scaled


def lobby(channel: Any) -> Any:
    return [m for m in channel.history() if m.embeds and "table #" in (m.embeds[0].title or "")][-1]


async def test_a_game_of_bots_alone_plays_to_the_end(simcord_env: Any) -> None:
    simcord_env.bot.service.thinker.iterations = 20  # a fixed, small search: the test is about the plumbing
    # the resignation below hands the game to two bots, which play it to its end inside that one interaction: its
    # hang guard is four times the usual one (it tripped at 5 s on a host running 1.7 times slow)
    simcord_env.settle_timeout = scaled(20.0)
    channel, alice = await lobby_of_one(simcord_env, game="breaks")
    await alice.click(lobby(channel), label="Add bot: medium")
    await alice.click(lobby(channel), label="Add bot: hard")
    names = lobby(channel).embeds[0].fields[0].value
    assert "Bot 1 (medium)" in names and "Bot 2 (hard)" in names
    await alice.click(lobby(channel), label="Start")
    thread = channel.threads[0]
    res = await alice.slash(thread, "resign")
    assert res.ephemeral
    final = last_board(thread)
    assert "Game over" in (final.content or ""), final.content
    told = (final.embeds[0].description or "").split("\n")
    assert told[0].startswith("• alice resigned. Their seat plays on"), told[:2]  # however many moves followed
    assert told[1].startswith("• … ") and "earlier events in `/log`" in told[1]
    assert len("\n".join(told)) <= 4096
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    moves = await simcord_env.bot.db.moves(table.id)
    assert {m.seat for m in moves} >= {1, 2} and table.status == "finished"
    simcord_env.bot.service.thinker.close()


async def test_a_bot_cut_short_by_a_restart_moves_at_the_next_start(simcord_env: Any, db_path: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice's move is stored before the bot thinks; the process dies while it thinks; at the next start the bot
    chooses again and the board tells the channel of both moves."""
    channel, alice = await lobby_of_one(simcord_env, game="breaks")
    await alice.click(lobby(channel), label="Add bot: medium")
    await alice.click(lobby(channel), label="Start")
    thread = channel.threads[0]
    db = simcord_env.bot.db
    table = await db.latest_table_in(thread.id)
    bot_seat = next(s.seat for s in table.seats if s.is_bot)

    async def dies(self: Thinker, *args: Any) -> Any:
        raise RuntimeError("the process is killed while the bot thinks")  # (its state as a kill leaves it)

    monkeypatch.setattr(Thinker, "move", dies)
    made = len(await db.moves(table.id))
    for _ in range(3):  # Alice plays until her turn ends and the bot is to move
        table = await db.latest_table_in(thread.id)
        if bot_seat in simcord_env.bot.service.game("breaks").to_act(
                simcord_env.bot.service.game("breaks").load(table.state)):
            break
        choices = await alice.autocomplete(thread, "move", "move", "")
        await alice.slash(thread, "move", move=choices[0]["value"])
    monkeypatch.undo()
    table = await db.latest_table_in(thread.id)
    game = simcord_env.bot.service.game("breaks")
    assert len(await db.moves(table.id)) > made, "Alice's moves were stored before the bot thought"
    assert bot_seat in game.to_act(game.load(table.state)), "and the bot was to move when the process died"
    boards = len([m for m in thread.history() if m.attachments])
    await db.close()
    await simcord_env.restart_bot(make_bot(db_path))
    await simcord_env.settle()
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert bot_seat not in game.to_act(game.load(table.state)), "the bot moved at start-up"
    assert len([m for m in thread.history() if m.attachments]) > boards, "and the board was posted"


async def test_a_bloc_by_bloc_game_of_bots_plays_to_the_end(simcord_env: Any) -> None:
    """Three factions, two of them bots'; the host resigns at once (her faction plays on as an easy bot): the game
    is played to its end, and its result is the table's together."""
    channel, alice = await lobby_of_one(simcord_env, game="blocbybloc", options="city=beginner")
    await alice.click(lobby(channel), label="Add bot: medium")
    await alice.click(lobby(channel), label="Add bot: easy")
    await alice.click(lobby(channel), label="Start")
    thread = channel.threads[0]
    await alice.slash(thread, "resign")
    final = last_board(thread)
    assert "Game over" in (final.content or ""), final.content
    told = (final.embeds[0].description or "").split("\n")
    assert told[0].startswith("• alice resigned. Their seat plays on"), told[:2]  # however many moves followed
    assert told[1].startswith("• … ") and "earlier events in `/log`" in told[1]
    assert len("\n".join(told)) <= 4096
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert table.status == "finished" and table.result and table.result.get("cooperative")
    assert "resigned" not in table.result["reason"] and "gave up" not in table.result["reason"], \
        "played to one of the game's own ends, not abandoned"


async def test_giving_up_a_cooperative_game_is_a_loss_for_everyone(simcord_env: Any) -> None:
    """The last person at a cooperative table resigns: the table loses together; the bot does not win."""
    channel, alice = await lobby_of_one(simcord_env, game="blocbybloc", options="city=beginner")
    await alice.click(lobby(channel), label="Add bot: easy")
    await alice.click(lobby(channel), label="Start")
    thread = channel.threads[0]
    await alice.slash(thread, "resign")
    table = await simcord_env.bot.db.latest_table_in(thread.id)
    assert table.status == "finished" and table.result["winners"] == [] and table.result.get("cooperative")
    result = next(f.value for f in last_board(thread).embeds[0].fields if f.name == "Result")
    assert "Lost together" in result and "gave up" in result
    simcord_env.bot.service.thinker.close()


async def test_a_killed_worker_process_is_replaced_and_the_bot_still_answers(simcord_env: Any) -> None:
    """The bots' worker process dies between two moves (killed, out of memory): Alice's next move is answered by the
    bot as usual, through a new worker, and her reply says nothing false."""
    import os
    import signal

    simcord_env.bot.service.thinker.iterations = 20
    channel, alice = await lobby_of_one(simcord_env, game="blockers")
    await alice.click(lobby(channel), label="Add bot: hard")
    await alice.click(lobby(channel), label="Start")
    thread = channel.threads[0]
    db = simcord_env.bot.db
    game = simcord_env.bot.service.game("blockers")

    async def alice_moves() -> Any:
        choices = await alice.autocomplete(thread, "move", "move", "")
        return await alice.slash(thread, "move", move=choices[0]["value"])

    table = await db.latest_table_in(thread.id)
    if 0 not in game.to_act(game.load(table.state)):
        pytest.skip("the bot opens this seed")  # (the seed is fixed: it does not)
    await alice_moves()  # the bot answers in its worker process, which is then killed
    pool = simcord_env.bot.service.thinker._pool
    assert pool is not None
    for pid in list(pool._processes):
        os.kill(pid, signal.SIGKILL)
    made = len(await db.moves(table.id))
    boards = len([m for m in thread.history() if m.attachments])
    reply = await alice_moves()
    said = [reply.response.content or "", *(f.content or "" for f in reply.followups)]
    assert any("Played" in text for text in said) and not any("went wrong" in text for text in said), said
    table = await db.latest_table_in(thread.id)
    moves = await db.moves(table.id)
    assert [m.seat for m in moves[made:]] == [0, 1], "Alice's move, then the bot's"
    assert 0 in game.to_act(game.load(table.state))
    assert len([m for m in thread.history() if m.attachments]) == boards + 1
    assert "Bot 1 (hard)" in (last_board(thread).embeds[0].description or "")
    await alice_moves()  # and the new worker goes on serving
    assert [m.seat for m in (await db.moves(table.id))[made:]] == [0, 1, 0, 1]
    simcord_env.bot.service.thinker.close()
