"""Bloc by Bloc's scenarios and semi-cooperative game through Discord, offline (simcord): the lobby says the chosen
scenario's goal and the mode, the ten goals are found where the options are typed and in /rules, options that can't
make a game are refused privately in the engine's words; then a whole semi-cooperative game of three members:
agendas dealt privately (DM, or privately under My view when DMs are closed; /hand and My view show them), a lone
win reached through Discord, the end post revealing every agenda; and two lone completions that cancel."""

from __future__ import annotations

from typing import Any

import pytest

from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.agendas import AGENDAS, alone
from engine.blocbybloc.city import FACTION_TYPES, STATE
from engine.blocbybloc.model import FACTIONS, BlocState
from engine.blocbybloc.scenarios import SCENARIOS, SEMI, ZONES, gated, why_not
from tests.cogs.discord_helpers import last_board, to_act

LOBBY = "table #"


def lobby_message(channel: Any) -> Any:
    return [m for m in channel.history() if m.embeds and LOBBY in (m.embeds[0].title or "")][-1]


def world(env: Any, *names: str) -> tuple[Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    return channel, [guild.add_member(env.create_user(n)) for n in names]


async def test_the_lobby_says_the_scenario_its_goal_and_the_mode(simcord_env: Any) -> None:
    channel, (alice,) = world(simcord_env, "alice")
    res = await alice.slash(channel, "game new", game="blocbybloc", options="scenario=smash mode=semi")
    assert res.ephemeral
    card = lobby_message(channel).embeds[0].description or ""
    assert f"Scenario: Smash the State — {SCENARIOS['smash'].goal}" in card
    assert "Semi-cooperative: each faction gets a secret agenda" in card
    assert "`/rules game:blocbybloc`" in card, "where the ten scenarios are listed"
    base = await alice.slash(channel.threads[0], "game options", options="scenario=none mode=coop")
    assert base.ephemeral and "scenario=none" in (base.response.content or "")
    card = lobby_message(channel).embeds[0].description or ""
    assert "No scenario" in card and "Fully cooperative" in card and "Smash" not in card


async def test_the_ten_goals_are_offered_where_the_options_are_typed(simcord_env: Any) -> None:
    channel, (alice,) = world(simcord_env, "alice")
    offered = await alice.autocomplete(channel, "game new", "options", "scenario=", game="blocbybloc")
    names = {c["value"]: c["name"] for c in offered}
    assert set(names) == {"scenario=none", *(f"scenario={k}" for k in SCENARIOS)}
    for key, s in SCENARIOS.items():
        shown = names[f"scenario={key}"]
        assert len(shown) <= 100 and shown == f"scenario={key} — {s.name}: {s.brief or s.goal}", "whole, not cut"
        assert not s.brief or len(f"scenario={key} — {s.name}: {s.goal}") > 100, "a brief form only where needed"
    typed = "mode=semi difficulty=medium "  # options typed first give way, not the goal
    after = {c["value"]: c["name"] for c in
             await alice.autocomplete(channel, "game new", "options", typed + "scenario=", game="blocbybloc")}
    for key, s in SCENARIOS.items():
        whole = f"scenario={key} — {s.name}: {s.brief or s.goal}"
        assert after[typed + f"scenario={key}"] in (typed + whole, "… " + whole, whole), key
    long = "mode=semi difficulty=medium city=random overpass=no clock=24h timeout=bot answers=6h "
    values = [c["value"] for c in await alice.autocomplete(channel, "game new", "options", long + "scenario=",
                                                           game="blocbybloc")]
    assert all(v.startswith(long) and len(v) <= 100 for v in values), "offered whole, or not at all"
    fit = {long + f"scenario={k}" for k in ("none", *SCENARIOS) if len(long) + 9 + len(k) <= 100}
    assert set(values) == fit and 0 < len(fit) < len(SCENARIOS), "those that fit, not none and not all"
    modes = {c["value"]: c["name"] for c in
             await alice.autocomplete(channel, "game new", "options", "scenario=smash mo", game="blocbybloc")}
    assert modes["scenario=smash mode=semi"] == "scenario=smash mode=semi — secret agendas, 3–4 players"


async def test_the_full_rules_list_every_scenario_and_agenda(simcord_env: Any) -> None:
    channel, (alice,) = world(simcord_env, "alice")
    res = await alice.slash(channel, "rules", game="blocbybloc")
    summary = res.response.embeds[0].description or ""
    assert "`mode=semi`" in summary and "`scenario=" in summary
    message = res.response.message
    button = next(c for row in message.components for c in getattr(row, "children", ()) if c.label == "Full rules")
    full = await alice.click(message, custom_id=button.custom_id)
    text = " ".join(e.description or "" for m in [full.response, *full.followups] if m for e in m.embeds)
    for key, s in SCENARIOS.items():
        assert f"`{key}`" in text and s.name in text and s.goal in text, key
    for agenda in AGENDAS.values():
        assert agenda.name in text and all(o.text in text for o in agenda.options), agenda.name


REFUSED_AT_OPEN = [  # options that no player count can play, refused when the lobby is opened
    ("scenario=traffic mode=semi", dict(scenario="traffic", mode="semi")),
    ("scenario=infighting mode=coop", dict(scenario="infighting", mode="coop")),
    ("scenario=smash city=beginner", dict(scenario="smash", mode="coop", city="beginner")),
    ("scenario=smash beginner=yes", dict(scenario="smash", mode="coop", beginner=True)),
    ("scenario=traffic overpass=yes", dict(scenario="traffic", mode="coop", overpass=True)),
    ("mode=semi beginner=yes", dict(scenario="none", mode="semi", beginner=True)),
]


@pytest.mark.parametrize(("typed", "given"), REFUSED_AT_OPEN, ids=[t for t, _ in REFUSED_AT_OPEN])
async def test_options_that_cant_make_a_game_are_refused_privately_in_the_engines_words(
        simcord_env: Any, typed: str, given: dict[str, Any]) -> None:
    channel, (alice,) = world(simcord_env, "alice")
    res = await alice.slash(channel, "game new", game="blocbybloc", options=typed)
    words = why_not(given["scenario"], given["mode"], None, city=given.get("city", "random"),
                    beginner=given.get("beginner", False), overpass=given.get("overpass", False))
    assert words, "the engine refuses it"
    assert res.ephemeral and words in (res.response.content or "") + " ".join(m.content or "" for m in res.followups)
    assert not channel.threads and not [m for m in channel.history() if m.embeds], "no lobby was opened"
    if given["mode"] == "semi":  # (in a lobby of one, semi is refused for its player count first: see below)
        return
    # the same, changed in an open lobby by /game options
    await alice.slash(channel, "game new", game="blocbybloc")
    changed = await alice.slash(channel.threads[0], "game options", options=typed)
    assert changed.ephemeral and words in (changed.response.content or "")
    assert "scenario=none" in (lobby_message(channel).embeds[0].fields[1].value or ""), "the lobby kept its options"


async def test_semi_for_two_seated_players_is_taken_and_the_table_waits_for_a_third(simcord_env: Any) -> None:
    """A lobby still filling up may hold fewer players than its options need: the host of two sets semi, a third
    joins (a lobby that refused semi below three seats could never fill up), and a fourth too."""
    channel, (alice, bob, carol, dan) = world(simcord_env, "alice", "bob", "carol", "dan")
    await alice.slash(channel, "game new", game="blocbybloc")
    await bob.click(lobby_message(channel), label="Join")
    res = await alice.slash(channel.threads[0], "game options", options="scenario=infighting mode=semi")
    assert res.ephemeral and "mode=semi" in (res.response.content or ""), res.response.content
    for member in (carol, dan):
        joined = await member.click(lobby_message(channel), label="Join")
        assert "full" not in (joined.response.content or ""), joined.response.content
    assert "scenario=infighting" in (lobby_message(channel).embeds[0].fields[1].value or "")


async def test_a_player_count_the_options_dont_allow_is_refused_at_the_start(simcord_env: Any) -> None:
    channel, (alice, bob, carol) = world(simcord_env, "alice", "bob", "carol")
    await alice.slash(channel, "game new", game="blocbybloc", options="mode=semi")
    await bob.click(lobby_message(channel), label="Join")
    start = await alice.click(lobby_message(channel), label="Start")
    words = why_not("none", "semi", 2)
    sent = [start.response, *start.followups]
    assert any(m is not None and m.ephemeral and words in (m.content or "") for m in sent), sent
    assert "Waiting for players" in (lobby_message(channel).embeds[0].description or ""), "not started"
    await carol.click(lobby_message(channel), label="Join")
    await alice.click(lobby_message(channel), label="Start")
    assert "In progress" in (lobby_message(channel).embeds[0].description or "")
    # Autonomous Zone Phase II seats 2 or 4: a table of 3 can't start (a fourth may still join)
    channel, (dana, eve, fay, gus) = world(simcord_env, "dana", "eve", "fay", "gus")
    await dana.slash(channel, "game new", game="blocbybloc", options="scenario=zone-2")
    for member in (eve, fay):
        await member.click(lobby_message(channel), label="Join")
    start = await dana.click(lobby_message(channel), label="Start")
    words = why_not("zone-2", "coop", 3)
    assert any(m is not None and m.ephemeral and words in (m.content or "") for m in [start.response,
                                                                                       *start.followups])
    await gus.click(lobby_message(channel), label="Join")
    await dana.click(lobby_message(channel), label="Start")
    assert "In progress" in (lobby_message(channel).embeds[0].description or "")


# --- a whole semi-cooperative game --------------------------------------------------------------------------------
G = BlocByBloc()
VANGUARDIST, SECTARIAN, NIHILIST = 8, 9, 10


def seed_dealing(*cards: int, without: tuple[int, ...] = ()) -> int:
    """A seed whose 3-player semi-cooperative deal gives ``cards`` to factions in play, and none of ``without``."""
    for seed in range(1, 500):
        dealt = set(G.new_game(3, {"mode": SEMI}, seed).agendas)
        if set(cards) <= dealt and not dealt & set(without):
            return seed
    raise AssertionError("no such deal")


def holder(state: BlocState, card: int) -> int:
    return state.agendas.index(card)


def words_of(messages: list[Any]) -> str:
    """What messages say: contents, embeds (titles, descriptions, fields), pictures' alt text."""
    out = []
    for m in messages:
        out.append(m.content or "")
        for e in m.embeds:
            out += [e.title or "", e.description or "", *(f"{f.name} {f.value}" for f in e.fields)]
        out += [a.description or "" for a in m.attachments]
    return "\n".join(out)


def public_words(*channels: Any) -> str:
    """Everything the channels show everybody."""
    return words_of([m for channel in channels for m in channel.history()])


def said(res: Any) -> str:
    """What one interaction's replies told its member."""
    replies = [m for m in [res.response, *res.followups] if m is not None]
    assert all(m.ephemeral for m in replies), [m.content for m in replies if not m.ephemeral]
    return words_of(replies)


def dm_words(member: Any) -> str:
    dm = member.user.dm_channel
    return public_words(dm) if dm is not None else ""


def secrets(state: BlocState, f: int) -> list[str]:
    """What must not reach anybody but ``f``'s player while the game runs: its agenda's name and options."""
    agenda = AGENDAS[state.agendas[f]]
    return [agenda.name, *(o.text for o in agenda.options)]


async def semi_table(env: Any, seed: int, options: str = "mode=semi") -> tuple[Any, Any, list[Any], BlocState]:
    """alice, bob and carol (her DMs closed) start a 3-player semi-cooperative game: (channel, thread, members by
    seat, the state). The table is opened with its options, then the others join."""
    channel, people = world(env, "alice", "bob", "carol")
    carol = people[2]
    env.inject_error("POST", f"/channels/{carol.user.dm_channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    env.bot.service.seeds = lambda: seed
    await people[0].slash(channel, "game new", game="blocbybloc", options=options)
    for member in people[1:]:
        joined = await member.click(lobby_message(channel), label="Join")
        assert "full" not in (joined.response.content or ""), joined.response.content
    assert "mode=semi" in (lobby_message(channel).embeds[0].fields[1].value or "")
    card = lobby_message(channel).embeds[0].description or ""
    assert "Semi-cooperative: each faction gets a secret agenda" in card
    await people[0].click(lobby_message(channel), label="Start")
    thread = channel.threads[0]
    table = await env.bot.db.latest_table_in(thread.id)
    return channel, thread, people, G.load(table.state)


async def agendas_are_dealt_privately(channel: Any, thread: Any, people: list[Any], state: BlocState) -> None:
    """Each member learns their own faction's agenda, privately, and nobody else's: alice and bob by DM, carol
    (DMs closed) from My view; /hand shows it too."""
    mine = {seat: [f for f in state.order if state.controller[f] == seat] for seat in range(3)}
    assert all(len(fs) == 1 and state.agendas[fs[0]] for fs in mine.values())
    for seat, member in enumerate(people[:2]):
        words = dm_words(member)
        f = mine[seat][0]
        assert f"Your secret agenda ({FACTIONS[f]}): **{AGENDAS[state.agendas[f]].name}**" in words, words
        assert all(text in words for text in secrets(state, f))
    notice = [m for m in channel.history() + thread.history() if m.embeds and
              "direct messages" in (m.embeds[0].description or "")]
    assert notice and f"<@{people[2].id}>" in (notice[0].content or ""), "carol is told to use My view"
    panel = await people[2].click(last_board(thread), label="My view")
    words = said(panel)
    f = mine[2][0]
    assert f"Your secret agenda ({FACTIONS[f]}): **{AGENDAS[state.agendas[f]].name}**" in words
    hand = said(await people[1].slash(thread, "hand"))
    assert AGENDAS[state.agendas[mine[1][0]]].name in hand
    for seat, member in enumerate(people):
        told = dm_words(member) + (words if seat == 2 else "") + (hand if seat == 1 else "")
        own = {s for f in mine[seat] for s in secrets(state, f)}  # (two cards may share an option's words)
        for g in state.order:
            if g not in mine[seat]:
                leaked = [s for s in secrets(state, g) if s in told and not any(s in o for o in own)]
                assert not leaked, (member, FACTIONS[g], leaked, told)
    public = public_words(channel, thread)
    assert not any(s in public for g in state.order for s in secrets(state, g)), "an agenda in public"


def prepared(state: BlocState, alone: dict[int, int]) -> BlocState:
    """Every Start placed by its default; then the last faction of the night to act, each faction with blocs in
    three districts no police can reach this night, and the factions of ``alone`` (faction: card) one Sunrise from
    completing their Win Alone option: the Nihilist's counters (8 burn tokens, 2 vans destroyed), the Sectarian's
    own districts liberated and four occupations, all clear of police."""
    while state.pending:
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.parse_move(G.decision(state, seat).default or ""))
    city = state.city
    states = [c for c in city.districts if city.tile(c).type == STATE]
    police = [c for c in city.districts if state.police(c)]
    safe = [c for c in city.districts if c not in states and not any(
        c == p or c in city.adjacent[p] for p in police)]
    for f in state.order:
        for c in safe[:3]:
            state.blocs[c][f] += 2
    for f, card in alone.items():
        assert state.agendas[f] == card
        if card == NIHILIST:
            state.burned, state.vans_destroyed = 8, 2
        elif card == SECTARIAN:  # every own district liberated, and 4 occupations in the city
            own = [c for c in city.districts if city.tile(c).type == FACTION_TYPES[f]]
            spare = [c for c in safe if state.occ_owner[c] < 0 and c not in own]
            for c in own + spare:
                if sum(1 for o in state.occ_owner if o == f) >= 4 and c not in own:
                    break
                state.cops[c], state.vans[c] = 0, -1
                state.blocs[c][f] += 2
                if c in own:
                    state.liberated[c] = True
                if state.occ_owner[c] != f:
                    state.occ_owner[c], state.occ_kind[c] = f, state.mats[f].pop()
    state.turn, state.dice = len(state.order) - 1, [1]
    return state


async def play_to_the_next_night(thread: Any, people: list[Any], night: int) -> None:
    """The players end the night through Discord: each move typed with /move as autocomplete offers it (end the
    turn, pass a window), until the game ends or the next night's board comes."""
    for _ in range(40):
        board = last_board(thread)
        if "Game over" in (board.content or "") or f"Night {night + 1}" in " ".join(
                f.value for f in board.embeds[0].fields if f.value):
            return
        seats = await thread_seats(thread, people)
        member = seats[0]
        offered = [c["value"] for c in await member.autocomplete(thread, "move", "move", "")]
        pick = next((v for v in offered if v == "end"), None) or next(
            (v for v in offered if v.startswith("pass")), None) or offered[-1]
        res = await member.slash(thread, "move", move=pick)
        assert res.ephemeral and "Played" in (res.response.content or ""), res.response.content
    raise AssertionError("the night did not end")


async def thread_seats(thread: Any, people: list[Any]) -> list[Any]:
    """The members the game waits for, named on the newest board or asked privately."""
    named = to_act(last_board(thread))
    if named:
        return [m for m in people if m.id in named]
    raise AssertionError("nobody is named on the board")


async def test_a_semi_cooperative_game_won_alone_through_discord(simcord_env: Any) -> None:
    seed = seed_dealing(NIHILIST, without=(VANGUARDIST, 9))
    channel, thread, people, state = await semi_table(simcord_env, seed)
    await agendas_are_dealt_privately(channel, thread, people, state)
    lone = holder(state, NIHILIST)
    db = simcord_env.bot.db
    table = await db.latest_table_in(thread.id)
    state = prepared(state, {lone: NIHILIST})
    await db.record_moves(table.id, table.version, [], G.dump(state), 0.0)
    await people[0].slash(thread, "board")
    assert "Game over" not in (last_board(thread).content or "")
    public = public_words(channel, thread)
    assert not any(s in public for g in state.order for s in secrets(state, g))
    await play_to_the_next_night(thread, people, state.night)
    final = last_board(thread)
    winner = people[state.controller[lone]]
    assert "Game over" in (final.content or "") and f"Winner: <@{winner.id}>" in (final.content or "")
    result = next(f.value for f in final.embeds[0].fields if f.name == "Result")
    table = await db.latest_table_in(thread.id)
    reason = G.load(table.state).reason  # who won and the clause that decided it, as the engine says it
    assert reason in result and f"The {FACTIONS[lone]} win alone" in reason and "Nihilist" in reason, result
    text = final.embeds[0].description or ""
    assert "Agendas revealed" in text
    for f in state.order:
        assert f"{FACTIONS[f]} ({people[state.controller[f]].user.name})" in text
        assert AGENDAS[state.agendas[f]].name in text
    assert f"{FACTIONS[lone]} ({winner.user.name}) — **won**" in text
    assert table.status == "finished" and table.result["winners"] == [state.controller[lone]]
    assert not table.result.get("cooperative"), "a semi-cooperative game is decided per seat"
    log = said(await people[1].slash(thread, "log"))
    assert "win alone" in log.lower()


async def test_two_lone_completions_cancel_and_the_game_goes_on(simcord_env: Any) -> None:
    seed = seed_dealing(NIHILIST, SECTARIAN)
    channel, thread, people, state = await semi_table(simcord_env, seed)
    nihilist, sectarian = holder(state, NIHILIST), holder(state, SECTARIAN)
    db = simcord_env.bot.db
    table = await db.latest_table_in(thread.id)
    state = prepared(state, {nihilist: NIHILIST, sectarian: SECTARIAN})
    assert all(alone(state, f) is not None for f in (nihilist, sectarian))
    await db.record_moves(table.id, table.version, [], G.dump(state), 0.0)
    await people[0].slash(thread, "board")
    night = state.night
    await play_to_the_next_night(thread, people, night)
    board = last_board(thread)
    assert "Game over" not in (board.content or ""), "two completions cancel: nobody wins yet"
    table = await db.latest_table_in(thread.id)
    after = G.load(table.state)
    assert table.status == "active" and after.night == night + 1 and not after.outcome
    assert all(alone(after, f) is not None for f in (nihilist, sectarian)), "both still met: they cancelled"
    public = public_words(channel, thread) + said(await people[0].slash(thread, "log"))
    assert not any(s in public for g in after.order for s in secrets(after, g)), "the cancel names no agenda"


async def test_a_lone_completion_is_refused_while_police_hold_an_autonomous_zone(simcord_env: Any) -> None:
    """Autonomous Zone Phase I's gate: nobody wins while a riot cop stands in either Autonomous Zone, so the
    Nihilist's completed agenda wins nothing at this Sunrise; the next night begins."""
    seed = next(s for s in range(1, 500) if NIHILIST in G.new_game(3, {"mode": SEMI, "scenario": "zone-1"}, s).agendas
                and not {VANGUARDIST, SECTARIAN} & set(G.new_game(3, {"mode": SEMI, "scenario": "zone-1"}, s).agendas))
    channel, thread, people, _ = await semi_table(simcord_env, seed, "scenario=zone-1 mode=semi")
    db = simcord_env.bot.db
    table = await db.latest_table_in(thread.id)
    state = G.load(table.state)
    lone = holder(state, NIHILIST)
    state = prepared(state, {lone: NIHILIST})
    zone = next(c for c in state.city.districts if state.tiles[c] in ZONES)
    state.cops[zone] += 3
    assert alone(state, lone) is not None and gated(state)
    await db.record_moves(table.id, table.version, [], G.dump(state), 0.0)
    await people[0].slash(thread, "board")
    now = " ".join(f.value or "" for f in last_board(thread).embeds[0].fields if f.name == "Now")
    assert "Autonomous Zone Phase I" in now and "no win yet" in now, now
    await play_to_the_next_night(thread, people, state.night)
    assert "Game over" not in (last_board(thread).content or ""), "the gate holds: nobody wins"
    after = G.load((await db.latest_table_in(thread.id)).state)
    assert after.night == state.night + 1 and not after.outcome and gated(after) and alone(after, lone) is not None
