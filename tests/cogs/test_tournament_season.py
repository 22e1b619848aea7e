"""Whole tournaments through Discord, end to end, as a community runs them (simcord, the real bot, a real SQLite file):
members sign up with the card's button, the organiser starts it, each round's games open in threads of their own and
are played with the real controls (the board's buttons and menus, "My view", `/move` with its autocomplete), then
ended by `/resign` to keep the tests cheap. Along the way a restart in the middle of a round, a player's drop, a
round whose time runs out (the bot's clock is moved, never slept on), each round's standings with their picture and
the final post; and bad input that gets a clear private answer and changes nothing."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from PIL import Image

from cogs.client import Blockhouse
from tables import Actor, Refusal
from tests.cogs.discord_helpers import (
    last_board,
    move_buttons,
    move_select,
    moves_made,
    pick_through_menu,
    to_act,
)
from tests.cogs.test_tournament_flow import card, forged_join, posts
from tests.support import make_bot

NAMES = ("ann", "ben", "cy", "dee", "eve", "fay", "gus", "hal")
DAY = 24 * 3600


class Clock:
    """The bots' clock, moved by the test (every bot of a test, a restarted one too, reads the same)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def simcord_bot(db_path: Path, clock: Clock) -> Blockhouse:
    return make_bot(db_path, clock=clock)


# --- reading what Discord shows ---------------------------------------------------------------------------------
def private(res: Any) -> str:
    """Everything the member was answered, checked to be private (the "thinking" answer and its followups)."""
    shown = [res.response] if res.response is not None else []
    shown += list(res.followups)
    assert shown, "no answer"
    assert all(m.ephemeral for m in shown), "an answer everybody could see"
    return "\n".join(m.content or "" for m in shown)


def labels(message: discord.Message) -> set[str]:
    return {getattr(c, "label", None) or "" for row in message.components for c in getattr(row, "children", ())}


async def picture(message: discord.Message, name: str) -> Image.Image:
    (file,) = [a for a in message.attachments if a.filename == name]
    image = Image.open(io.BytesIO(await file.read()))
    image.load()
    return image


@dataclass
class Season:
    """A server with a #tournaments channel, an admin (Manage Server) and eight members."""

    env: Any
    db_path: Path
    clock: Clock
    guild: Any
    hall: Any
    admin: Any
    members: list[Any]
    name: str = "Cup"
    dropped: set[int] = field(default_factory=set)

    @property
    def by_id(self) -> dict[int, Any]:
        return {m.id: m for m in self.members}

    @property
    def service(self) -> Any:
        return self.env.bot.service

    async def row(self, tid: int = 1) -> Any:
        return await self.service.db.tournaments.get(tid)

    async def restart(self) -> None:
        await self.env.restart_bot(make_bot(self.db_path, clock=self.clock))

    async def tick(self) -> None:
        await self.env.bot.get_cog("TournamentCog").tick()


def a_server(env: Any, db_path: Path, clock: Clock, players: int = 8) -> Season:
    guild = env.create_guild()
    hall = guild.create_text_channel("tournaments")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    members = [guild.add_member(env.create_user(n)) for n in NAMES[:players]]
    return Season(env, db_path, clock, guild, hall, admin, members)


async def signed_up(s: Season, **create: Any) -> None:
    """The admin creates the tournament (a private answer); every member joins with the card's button."""
    res = await s.admin.slash(s.hall, "tournament create", name=s.name, **create)
    assert "Tournament #1 is open for sign-ups." in private(res)
    for i, m in enumerate(s.members):
        res = await m.click(card(s.hall), label="Join")
        assert f"You joined {s.name}." in private(res)
        assert f"Players ({i + 1})" in card(s.hall).embeds[0].fields[0].name
    last = s.members[-1]  # changes their mind twice: each click is answered, and the card follows
    assert f"You left {s.name}." in private(await last.click(card(s.hall), label="Leave"))
    assert f"Players ({len(s.members) - 1})" in card(s.hall).embeds[0].fields[0].name
    assert f"You joined {s.name}." in private(await last.click(card(s.hall), label="Join"))
    embed = card(s.hall).embeds[0]
    assert "Sign-ups are open" in (embed.description or "") and {"Join", "Leave"} <= labels(card(s.hall))
    assert embed.fields[0].value == ", ".join(m.name for m in s.members)
    res = await s.admin.slash(s.hall, "tournament start", tournament=1)
    assert "The tournament has started: round 1's games are opening." in private(res)


async def round_opened(s: Season, rnd: int, game: str, seats: int, count: int | None = None,
                       everyone: bool = True) -> list[tuple[Any, list[Any]]]:
    """Round ``rnd``'s pairings post and threads, checked: each table's players are mentioned, its line links its
    thread, whose first board welcomes them with the turn's player mentioned; nobody dropped is paired, and (with
    ``everyone``) everybody else is, or has the bye. ``count``: how many tables (default: a Swiss's). Returns each
    table's thread and its seats (members, in seat order)."""
    (pairings,) = posts(s.hall, f"{s.name} · round {rnd}")
    lines = (pairings.embeds[0].description or "").split("\n")
    threads = [t for t in s.hall.threads if t.name.startswith(f"{game} · T1 round {rnd} table ")]
    live = [m for m in s.members if m.id not in s.dropped]
    if count is None:
        count = len(live) // seats + (len(live) % seats > 1 and seats > 2)
    assert len(threads) == count, [t.name for t in threads]
    assert pairings.content.endswith(f"— round {rnd} of {s.name} is on.")
    tables = []
    for n, thread in enumerate(sorted(threads, key=lambda t: t.name), start=1):
        assert thread.name == f"{game} · T1 round {rnd} table {n}"
        (line,) = [x for x in lines if f"<#{thread.id}>" in x]
        assert line.startswith(f"**Table {n}**: ")
        order = [int(x) for x in line.split(" · ")[0].replace("<@", " ").replace(">", " ").split() if x.isdigit()]
        players = [s.by_id[p] for p in order]
        assert 2 <= len(players) <= seats and all(f"<@{p.id}>" in pairings.content for p in players)
        first = [m for m in thread.history() if m.embeds and "table #" in (m.embeds[0].title or "")][0]
        assert f"{game} begins!" in (first.embeds[0].description or "")
        # every player is called to the game in its thread, then the one to act is told it is their turn
        mentioned = to_act(first)
        assert mentioned[:len(order)] == order and len(mentioned) == len(order) + 1
        assert f"your game of round {rnd} of " in (first.content or "")
        acting = mentioned[-1]
        assert acting in order and "your turn" in (first.content or "")
        tables.append((thread, players))
    paired = {p.id for _, players in tables for p in players}
    assert not paired & s.dropped, "a dropped player was paired again"
    byes = [x for x in lines if x.startswith("Bye")]
    byes_ids = {int(x.split("<@")[1][:-1]) for x in byes}
    assert all(f"<@{p}>" in pairings.content for p in byes_ids), "the bye is news for its player too"
    if everyone:
        assert paired | byes_ids == {m.id for m in live}
    assert pairings.embeds[0].footer.text == \
        "Your game is in its thread. Turn clock: 24h, then a bot plays the turn.", \
        "no clock= was set: the server's default turn clock, as a lobby's"
    assert f"Round {rnd} is being played." in (card(s.hall).embeds[0].description or "")
    return tables


def answers(res: Any) -> list[discord.Message]:
    """The private messages an interaction was answered with."""
    shown = [res.response] if res.response is not None and res.response.ephemeral else []
    return [m.message for m in shown + [f for f in res.followups if f.ephemeral]]


async def play_moves(s: Season, thread: Any, count: int, start: int = 0) -> None:
    """``count`` turns of real moves, each by whoever the board mentions, as a player makes them: `/move` with the
    first choice its autocomplete offers, the board's move buttons or menu, or "My view" and its private menu; a turn
    of several actions (a card drawn, then placed) goes on with the choices its private answer offers. ``start``: the
    first turn's way (0: `/move`, 1: the board's buttons, else its menu or "My view"), the next ones in turn."""
    for turn in range(start, start + count):
        board = last_board(thread)
        assert "Game over" not in (board.content or "")
        made = await moves_made(s.env.bot, thread)
        acting = to_act(board)[-1]  # (the first board calls every player first; the one to act comes last)
        player = s.by_id[acting]
        how, shown = turn % 3, []
        if how == 0:
            choices = await player.autocomplete(thread, "move", "move", "")
            assert choices, "autocomplete offered no legal move"
            res = await player.slash(thread, "move", move=choices[0]["value"])
            assert private(res).startswith("Played")
            shown = answers(res)
        elif how == 1 and move_buttons(board):
            shown = answers(await player.click(board, custom_id=move_buttons(board)[0].custom_id))
        elif move_select(board) is not None:
            await pick_through_menu(player, board, pick=turn, max_levels=16)
        else:
            panel = (await player.click(board, label="My view")).response
            assert panel is not None and panel.ephemeral
            await pick_through_menu(player, panel, pick=turn, max_levels=16)
        for _ in range(16):  # the rest of the turn: the choices shown privately, else `/move` and its autocomplete
            if last_board(thread).id != board.id:
                break
            pending = next((m for m in shown if move_buttons(m) or move_select(m) is not None), None)
            if pending is not None and move_buttons(pending):
                shown = answers(await player.click(pending, custom_id=move_buttons(pending)[0].custom_id))
            elif pending is not None:
                await pick_through_menu(player, pending, max_levels=16)
                shown = []
            else:
                choices = await player.autocomplete(thread, "move", "move", "")
                assert choices, "the turn goes on, but no move is offered"
                shown = answers(await player.slash(thread, "move", move=choices[0]["value"]))
        assert await moves_made(s.env.bot, thread) > made and last_board(thread).id != board.id, "no move played"


async def resign_out(s: Season, thread: Any, seats: list[Any]) -> Any:
    """Every player still in the game but the first resigns in its thread (a private "You resigned."); the game
    ends and its last board gives the result. Returns the winner."""
    left = [p for p in seats if p.id not in s.dropped]
    for p in reversed(left[1:]):
        res = await p.slash(thread, "resign")
        assert "You resigned." in private(res)
    board = last_board(thread)
    assert "Game over" in (board.content or ""), board.content
    result = next(f.value or "" for f in board.embeds[0].fields if f.name == "Result")
    assert all(p.name in result for p in seats)
    return left[0]


def readable(rows: list[str]) -> None:
    """Standings lines read like the picture: numbers with two decimals at most (a table of four gives thirds), and a
    tie-break named only where it placed a player below one with the same points."""
    points = []
    for row in rows:
        numbers = re.findall(r"(?<![`\w])\d+(?:\.\d+)?", row.split("** ", 1)[1])
        assert all(len(x.partition(".")[2]) <= 2 for x in numbers), row
        points.append(numbers[0])
        assert "ahead on" not in row
        if " (placed by " in row:
            assert re.search(r" \(placed by (Buchholz|S-B|head-to-head)\)$", row), row
            assert len(points) > 1 and points[-1] == points[-2], "a tie-break between different points"


async def standings_posted(s: Season, rnd: int, players: int) -> discord.Message:
    """The standings after round ``rnd``: one line a player, with its picture (800 wide; an elimination's has its
    bracket too)."""
    (post,) = posts(s.hall, f"{s.name} · standings after round {rnd}")
    rows = (post.embeds[0].description or "").split("\n")
    assert len(rows) == players and rows[0].startswith("` 1.` **")
    footer = post.embeds[0].footer.text or ""
    if footer.startswith("Ties broken by Buchholz"):  # Swiss and round robin: the tie-breaks each line shows
        assert all(re.search(r" pts? · Buchholz ", r) for r in rows)
    else:  # an elimination (or an arena) never uses them: not shown
        assert footer.startswith(("Placed by the round reached", "Ranked by score")), footer
        assert not any("Buchholz" in r or "S-B" in r for r in rows), rows
    readable(rows)
    assert post.embeds[0].image.url == "attachment://standings.png"
    assert (await picture(post, "standings.png")).width == 800
    return post


async def final_posted(s: Season, players: int) -> list[int]:
    """The final post: the winners mentioned by name, the final standings and their picture. Returns the winners."""
    (final,) = posts(s.hall, f"{s.name} · final standings")
    rows = (final.embeds[0].description or "").split("\n")
    assert len(rows) == players
    firsts = [r for r in rows if r.startswith("` 1.`")]
    winners = [int(x.split(">")[0]) for x in final.content.split("<@")[1:]]
    assert final.content == "🏆 " + " and ".join(f"<@{w}>" for w in winners) + \
        (" win " if len(winners) > 1 else " wins ") + f"{s.name}!"
    assert sorted(f"**{s.by_id[w].name}**" for w in winners) == sorted(r.split(" · ")[0][6:] for r in firsts)
    assert (await picture(final, "standings.png")).width == 800
    assert "Finished." in (card(s.hall).embeds[0].description or "")
    assert not labels(card(s.hall)), "no Join or Leave once it is over"
    return winners


# --- 1 and 2: a whole Swiss ---------------------------------------------------------------------------------------
async def a_swiss_season(s: Season, game: str, key: str, seats: int, moves: int,
                         check_board: Callable[[discord.Message, list[Any]], None]) -> None:
    await signed_up(s, game=key, format="swiss", seats=seats, rounds=3, options="round=24h")
    version = (await s.row()).version

    # round 1: a few moves at each table, the bot restarts, the games and the card's buttons go on
    tables = await round_opened(s, 1, game, seats)
    for thread, players in tables:
        check_board(last_board(thread), players)
        await play_moves(s, thread, moves)
    before = {thread.id: last_board(thread).id for thread, _ in tables}
    await s.restart()
    assert (await s.row()).version == version  # a restart changes nothing
    for thread, _ in tables:
        assert last_board(thread).id == before[thread.id]
        await play_moves(s, thread, 1, start=1)  # the board posted before the restart: its own controls still play
    res = await s.members[0].click(card(s.hall), label="Join")  # the card's buttons, made before the restart
    assert "already" in private(res)
    outsider = s.guild.add_member(s.env.create_user("zed"))
    res = await outsider.click(card(s.hall), label="Leave")
    assert "not in this tournament" in private(res) and (await s.row()).version == version
    res = await s.members[0].click(card(s.hall), label="Leave")  # a slip of the finger changes nothing: the
    assert "use `/tournament drop tournament:1`" in private(res) and (await s.row()).version == version  # command
    assert not (await s.row()).tournament.players[s.members[0].id].dropped  # drops
    for thread, players in tables[:-1]:
        await resign_out(s, thread, players)
    assert not posts(s.hall, f"{s.name} · round 2"), "a table is still playing"

    # the round's time runs out: the last table's game ends as it stands, which opens round 2
    late, late_players = tables[-1]
    s.clock.now += DAY + 1
    await s.tick()
    board = last_board(late)
    assert "Game over" in (board.content or "")
    assert f"Round 1 of {s.name} is over: this game ends as it stands." in (board.embeds[0].description or "")
    assert all(p.name in next(f.value or "" for f in board.embeds[0].fields if f.name == "Result")
               for p in late_players)
    await standings_posted(s, 1, len(s.members))
    await s.tick()  # and the next tick finds nothing more to do
    assert len(posts(s.hall, f"{s.name} · round 2")) == 1

    # round 2: a player drops while their game is running: it goes on without them, they are not paired again
    tables = await round_opened(s, 2, game, seats)
    for thread, _ in tables:
        await play_moves(s, thread, moves)
    thread, players = tables[0]
    leaver = players[-1]
    res = await leaver.slash(s.hall, "tournament drop", tournament=1)
    assert f"You dropped out of {s.name}." in private(res)
    s.dropped.add(leaver.id)
    board = last_board(thread)
    assert f"{leaver.name} resigned." in (board.embeds[0].description or "")
    if len(players) > 2:
        assert "Their seat plays on automatically and ranks last." in (board.embeds[0].description or "")
        assert "Game over" not in (board.content or "")
        await play_moves(s, thread, 1)
    else:
        assert "Game over" in (board.content or "")
    embed = card(s.hall).embeds[0]
    assert embed.fields[0].name == f"Players ({len(s.members) - 1})" and leaver.name not in embed.fields[0].value
    for thread, players in tables:
        if len(players) > 2 or leaver not in players:
            await resign_out(s, thread, players)
    await standings_posted(s, 2, len(s.members))
    assert "(dropped)" in next(r for r in (posts(s.hall, f"{s.name} · standings after round 2")[0].embeds[0]
                                           .description or "").split("\n") if leaver.name in r)

    # round 3, without the player who dropped, to the final
    tables = await round_opened(s, 3, game, seats)
    for thread, players in tables:
        await play_moves(s, thread, moves)
        await resign_out(s, thread, players)
    await standings_posted(s, 3, len(s.members))
    await final_posted(s, len(s.members))
    res = await s.members[2].slash(s.hall, "tournament standings", tournament=1)
    assert res.ephemeral and (await picture(res.response.message, "standings.png")).width == 800


def blockers_board(board: discord.Message, players: list[Any]) -> None:
    scores = next(f.value or "" for f in board.embeds[0].fields if f.name == "Scores")
    assert scores == " · ".join(f"{p.name} **0**" for p in players)
    assert "Your choices are under **My view**." in (board.content or "") and labels(board) == {"My view"}


async def test_a_swiss_of_blockers_at_four_seats_through_discord(simcord_env: Any, db_path: Path,
                                                                 clock: Clock) -> None:
    s = a_server(simcord_env, db_path, clock)
    await a_swiss_season(s, "Blockers!", "blockers", 4, moves=3, check_board=blockers_board)
    for m in s.members:  # each player's rack came privately, in a DM per game
        views = [x for x in m.user.dm_channel.history() if x.embeds and "Your view · Blockers!" in
                 (x.embeds[0].title or "")]
        assert views and all("Your rack: " in (x.attachments[0].description or "") for x in views if x.attachments)


def breaks_board(board: discord.Message, players: list[Any]) -> None:
    assert board.attachments and board.attachments[0].filename == "board.png"
    assert all(p.name in (board.attachments[0].description or "") for p in players)


async def test_a_swiss_of_breaks_at_two_seats_through_discord(simcord_env: Any, db_path: Path, clock: Clock) -> None:
    s = a_server(simcord_env, db_path, clock)
    await a_swiss_season(s, "Breaks", "breaks", 2, moves=2, check_board=breaks_board)


# --- 3: a single elimination --------------------------------------------------------------------------------------
async def test_a_single_elimination_of_breaker_blocks_through_discord(simcord_env: Any, db_path: Path,
                                                                      clock: Clock) -> None:
    s = a_server(simcord_env, db_path, clock, players=4)
    await signed_up(s, game="breakerblocks", format="elimination")
    assert labels(card(s.hall)) == {"Leave"}, "an elimination takes no late players: no Join once it runs"
    semis = await round_opened(s, 1, "Breaker Blocks", 2)
    assert len(semis) == 2
    winners = []
    for thread, players in semis:
        assert "action" in (last_board(thread).embeds[0].description or "") + " ".join(
            f"{f.name} {f.value}" for f in last_board(thread).embeds[0].fields), "the board says the actions left"
        await play_moves(s, thread, 2)
        winners.append(await resign_out(s, thread, players))
    standings = await standings_posted(s, 1, 4)
    assert standings.embeds[0].footer.text == "Placed by the round reached: a win goes through, a drawn game is " \
        "replayed.", "an elimination's standings say what places them, not Swiss tie-breaks"
    (final_table,) = await round_opened(s, 2, "Breaker Blocks", 2, count=1, everyone=False)
    thread, players = final_table
    assert {p.id for p in players} == {w.id for w in winners}, "the final is between the semifinals' winners"
    await play_moves(s, thread, 1)
    champion = await resign_out(s, thread, players)
    assert await final_posted(s, 4) == [champion.id]
    (final,) = posts(s.hall, f"{s.name} · final standings")
    assert (final.embeds[0].description or "").startswith(f"` 1.` **{champion.name}** · ")


# --- 4: bad input -------------------------------------------------------------------------------------------------
async def unchanged(s: Season, tid: int, before: Any) -> None:
    """The tournament's stored row (its version, state, status, names) and what it owes are as they were."""
    row = await s.row(tid)
    assert (row.version, row.state, row.status, row.names, row.message_id) == \
        (before.version, before.state, before.status, before.names, before.message_id)
    assert not await s.service.db.tournaments.posts_owed(tid)


async def test_bad_input_gets_a_clear_private_answer_and_changes_nothing(simcord_env: Any, db_path: Path,
                                                                        clock: Clock) -> None:
    s = a_server(simcord_env, db_path, clock, players=4)
    ann, ben = s.members[:2]
    outsider = s.guild.add_member(simcord_env.create_user("zed"))
    await s.admin.slash(s.hall, "tournament create", game="breaks", format="swiss", rounds=2, name=s.name)
    for m in s.members:
        await m.click(card(s.hall), label="Join")

    before = await s.row()
    res = await ann.click(card(s.hall), label="Join")  # joining twice
    assert private(res) == "ann has already joined."
    await unchanged(s, 1, before)
    res = await ben.slash(s.hall, "tournament start", tournament=1)  # not the organiser
    assert private(res) == "Only the tournament's organiser (or an organiser of this server) can do that."
    await unchanged(s, 1, before)

    await s.admin.slash(s.hall, "tournament start", tournament=1)
    tables = await round_opened(s, 1, "Breaks", 2)
    thread, players = tables[0]
    await resign_out(s, thread, players)  # table 1 has its result: 1,2
    before = await s.row()
    res = await s.admin.slash(s.hall, "tournament report", tournament=1, table=1, places="2,1")
    assert private(res) == "Round 1, table 1 already has a result (1,2); add `override:True` to replace it."
    await unchanged(s, 1, before)
    res = await s.admin.slash(s.hall, "tournament drop", tournament=1, member=outsider)  # someone not in it
    assert private(res) == "zed is not in this tournament."
    await unchanged(s, 1, before)
    res = await outsider.slash(s.hall, "tournament drop", tournament=1)
    assert private(res) == "zed is not in this tournament."
    await unchanged(s, 1, before)
    res = await ann.slash(s.hall, "tournament drop", tournament=1, member=ben)  # a player drops another
    assert private(res) == "Only the tournament's organiser (or an organiser of this server) can do that."
    await unchanged(s, 1, before)

    # an elimination that has started takes nobody: its card has no Join, and a forged click is refused
    await s.admin.slash(s.hall, "tournament create", game="breaks", format="elimination", name="Ladder")
    for m in s.members:
        await m.click(card(s.hall), label="Join")
    await s.admin.slash(s.hall, "tournament start", tournament=2)
    ladder = card(s.hall)
    assert "Ladder · tournament #2" in (ladder.embeds[0].title or "") and labels(ladder) == {"Leave"}
    before = await s.row(2)
    res = await forged_join(outsider, ladder, 2)  # a tournament button is one of the bot's known controls
    assert private(res) == "The tournament has started and takes no late players."
    await unchanged(s, 2, before)
    with pytest.raises(Refusal, match="^The tournament has started and takes no late players.$"):
        await s.service.tournaments.join(2, Actor(outsider.id, "zed"))  # what the button asks, refused
    await unchanged(s, 2, before)
