"""bench.load's lost/doubled check on a move the game stores and then cancels (Bloc by Bloc: a move that closes a run
of attacks sets off the police reaction roll first; a cop arriving makes the move impossible, and it is cancelled,
nothing spent). The attempt is a stored move (its roll stands, a replay needs it), its mover is told "Not played:
…" and the next board tells the channel. The bench counted such a move as refused, so the stored move looked
"doubled" (stored, its member not told "Played"): about 1 in 500 Bloc by Bloc moves under load.

Played through discord.py's real code path (simcord), with bench.load's own traffic watcher and members' accounting
on the interactions."""

from __future__ import annotations

from typing import Any

from bench.load import Load, Seat, Table, Tally, Traffic, check_moves
from tests.cogs.discord_helpers import components, last_board, move_select
from tests.cogs.test_spent_messages import open_blocbybloc, reaction_roll_of_one, workers_in_the_park


async def test_a_move_the_game_cancels_is_a_stored_move_its_member_was_told_of(simcord_env: Any) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    alice, bob = guild.add_member(simcord_env.create_user("alice")), guild.add_member(simcord_env.create_user("bob"))
    traffic = Traffic(simcord_env)
    traffic.install()
    try:
        thread = await open_blocbybloc(alice, bob, channel)
        db = simcord_env.bot.db
        table_id = (await db.latest_table_in(thread.id)).id
        load = Load(simcord_env, simcord_env.bot, traffic, "blocbybloc", 2, 1, None, 0.0, 60.0)
        table = Table(load, channel, [alice, bob])
        table.thread_id, table.table_id, table.tables = thread.id, table_id, [table_id]
        load.played[table_id] = []

        async def told_of(member: Any, notation: str, board_id: int) -> bool:
            """What the bench's member makes of its newest interaction's answers (as in a run); whether its turn
            goes on."""
            record = traffic.backend.interactions[max(traffic.backend.interactions)]
            seat = Seat(table, member)
            return await seat._after(seat._answer(record, board_id), notation, record)

        # the Workers, two blocs in The Park (C4) with one cop, defeat it (two 6s to spend); the run's roll is 1
        player = [alice, bob][await workers_in_the_park(db, table_id)]
        board = last_board(thread)
        res = await player.slash(thread, "move", move="defeat 6 C4")
        assert "Played: Defeat a cop in C4, die 6." in (res.response.content or "")
        await told_of(player, "defeat 6 C4", board.id)
        assert load.played[table_id] == [(player.id, "defeat 6 C4")] and load.tally.cancelled == 0
        await reaction_roll_of_one(db, table_id)

        # the move that closes the run, picked from the private menu as the bench's members pick: cancelled
        board = last_board(thread)
        message = (await player.click(board, label="My view")).response.message
        for wanted in ("Move blocs", "from The Park (C4)", "to Commercial District 3 (C3)", "1 bloc"):
            select = move_select(message)
            assert select is not None, components(message)
            option = next(o for o in select.options if wanted in o.label)
            res = await player.select(message, [option.value], custom_id=select.custom_id)
            message = res.response.message
        assert message.content.startswith("↩️ Not played: Move C4 → C3: 1 bloc, die 6 is no longer possible")
        record = traffic.backend.interactions[max(traffic.backend.interactions)]
        assert traffic.told(record) == "cancelled"
        assert await told_of(player, "move 6 C4 C3 1", board.id), "the turn goes on: its answer holds its controls"
        assert load.tally.cancelled == 1 and load.tally.refused == 0
        moves = await db.moves(table_id)
        assert [m.notation for m in moves][-2:] == ["defeat 6 C4", "move 6 C4 C3 1"], "the cancelled move is stored"

        board = last_board(thread)
        await player.slash(thread, "move", move="end")  # the turn's board tells the channel, and is delivered
        await told_of(player, "end", board.id)
        assert "nothing spent" in (last_board(thread).embeds[0].description or "")
        assert await db.undelivered() == []

        # the check from the database: every stored move told to its member, by seat
        told_before = [(m.seat, m.notation) for m in moves[:-2]]  # (moves before the Workers' turn, if any)
        moves = await db.moves(table_id)
        members = {s.seat: s.user_id for s in (await db.get_table(table_id)).seats}
        load.played[table_id][:0] = [(members[seat], notation) for seat, notation in told_before]
        tally = Tally()
        await check_moves(db, [table_id], load.played, tally)
        assert (tally.lost, tally.doubled, tally.checked, tally.stored) == (0, 0, len(moves), len(moves)), \
            tally.mismatch_samples

        # by seat: the same notation told to the other member is one lost and one doubled
        other = bob if player is alice else alice
        wrong = {table_id: [(other.id if n == "move 6 C4 C3 1" else m, n) for m, n in load.played[table_id]]}
        tally = Tally()
        await check_moves(db, [table_id], wrong, tally)
        assert (tally.lost, tally.doubled) == (1, 1), tally.mismatch_samples
    finally:
        traffic.uninstall()
