"""tables.presenter: the boards, private views, DMs, choices, history and status a request says to post."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.breaks import Breaks
from storage import ACTIVE, FINISHED, Database, TableRow
from tables import Actor, Choice, Outcome, Refusal, TableService
from tables.catalog import Catalog, GameEntry, default_catalog
from tests.tables.helpers import (
    ALICE,
    BOB,
    CARL,
    CH,
    PNG,
    STRANGER,
    actor_of,
    assert_replays,
    lobby,
    play_out,
    post_text,
    read,
    service,
    started,
    state_of,
    whose_turn,
)
from tests.tables.hidden_game import HighCard


async def test_start_posts_a_board_with_controls_for_the_person_to_act(svc: TableService) -> None:
    tid, out = await started(svc, ALICE, BOB)
    table, actor, _ = await whose_turn(svc, tid)
    game, state = state_of(svc, table)
    assert table.status == ACTIVE and table.seed == 1234
    assert out.reply == "Game started." and out.channel_id == CH
    assert out.lobby is not None and not out.lobby.open
    (board,) = out.public
    assert board.content == f"<@{actor.user_id}> — your turn."
    assert board.mention_ids == [actor.user_id]
    assert board.board is None  # render=False
    assert board.panel_table == tid
    assert board.controls is not None
    assert (board.controls.table_id, board.controls.version, board.controls.user_id) == (tid, table.version,
                                                                                         actor.user_id)
    (seat,) = game.to_act(state)
    assert [c.notation for c in board.controls.choices] == [game.format_move(m) for m in
                                                            game.legal_moves(state, seat)]
    assert "Breaks begins!" in board.description
    assert ("To play", f"<@{actor.user_id}>") in board.fields
    assert out.dms == []  # Breaks has no hidden information


async def test_the_board_image_is_a_png_when_rendering(db: Database) -> None:
    svc = service(db, render_images=True)
    _, out = await started(svc, ALICE, BOB)
    board = out.public[0].board
    assert board is not None and board.png.startswith(PNG)
    assert board.alt.startswith("Breaks.") and "Alice" in board.alt and len(board.alt) <= 1024


async def test_choices_filter_by_typed_text(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    assert await svc.choices(CH, ALICE) == []  # lobby
    await svc.start(tid, ALICE)
    table, actor, _ = await whose_turn(svc, tid)
    other = BOB if actor is ALICE else ALICE
    game, state = state_of(svc, table)
    everything = await svc.choices(CH, actor)
    (seat,) = game.to_act(state)
    assert [c.notation for c in everything] == [game.format_move(m) for m in game.legal_moves(state, seat)]
    assert everything[0] == Choice("draw", game.text.describe_move(state, seat, game.parse_move("draw")))
    assert await svc.choices(CH, actor, "  DRA ") == [everything[0]]
    assert await svc.choices(CH, actor, "a CARD") == [everything[0]]  # matches the label too
    assert await svc.choices(CH, actor, "zzz") == []
    assert await svc.choices(CH, STRANGER) == []
    assert await svc.choices(CH, other) == []  # not their turn: nothing is legal
    assert await svc.choices(CH + 1, actor) == []  # no table there
    await svc.submit(actor, "draw", channel_id=CH)
    assert {c.notation for c in await svc.choices(CH, actor)} >= {"discard"}
    assert [c.notation for c in await svc.choices(CH, actor, "disc")] == ["discard"]


async def test_hand_is_private_with_an_image_when_rendering(db: Database) -> None:
    svc = service(db, render_images=True)
    tid = await lobby(svc, ALICE, BOB)
    with pytest.raises(Refusal, match="not started yet"):
        await svc.hand(CH, ALICE)
    await svc.start(tid, ALICE)
    table, actor, _ = await whose_turn(svc, tid)
    other = BOB if actor is ALICE else ALICE
    out = await svc.hand(CH, actor)
    post = out.reply_post
    assert post is not None and out.public == [] and out.dms == []
    assert post.title == f"Your view · Breaks · table #{tid}" and post.footer == "Only you can see this."
    assert post.description == "It's your turn."
    assert post.controls is not None and post.controls.user_id == actor.user_id
    assert post.controls.version == table.version
    assert post.board is not None and post.board.png.startswith(PNG)
    waiting = (await svc.hand(None, other, table_id=tid)).reply_post
    assert waiting is not None and waiting.controls is None
    assert waiting.description.startswith(f"Waiting for {actor.name}.")
    assert "when it is your turn" in waiting.description
    with pytest.raises(Refusal, match="You are not playing in this game."):
        await svc.hand(CH, STRANGER)
    await svc.cancel(CH, ALICE)
    over = (await svc.hand(CH, actor)).reply_post
    assert over is not None and over.description == "This game is over." and over.controls is None


async def test_history_and_status(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB)
    assert await svc.history(CH) == "No moves yet."
    status = await svc.status(CH)
    assert status.startswith(f"**Breaks** · table #{tid} · active\nPlayers: Alice, Bob\n")
    assert "{p" not in status and ("Alice" in status.splitlines()[-1] or "Bob" in status.splitlines()[-1])
    table, actor, _ = await whose_turn(svc, tid)
    await svc.submit(actor, "draw", channel_id=CH)
    (move,) = await svc.db.moves(tid)
    history = await svc.history(CH)
    assert history == f"`  1` {actor.name}: `draw` — {move.events[0]}"
    assert move.events[0].startswith(f"{actor.name} drew ")
    await svc.resign(CH, BOB)
    status = await svc.status(CH)
    assert f"table #{tid} · finished" in status and "Bob (resigned)" in status
    assert "Result: 1. Alice — 0\n2. Bob — 0 (resigned)" in status
    assert (await svc.history(CH, last=1)).startswith("`  1`")
    with pytest.raises(Refusal, match="no game here"):
        await svc.status(CH + 1)


async def test_board_shows_the_lobby_card_or_the_latest_board(svc: TableService) -> None:
    tid = await lobby(svc, ALICE, BOB)
    out = await svc.board(CH)
    assert out.reply_post is not None and "Waiting for players" in out.reply_post.description
    await svc.start(tid, ALICE)
    _, actor, _ = await whose_turn(svc, tid)
    await svc.submit(actor, "draw", channel_id=CH)
    out = await svc.board(CH)
    (post,) = out.public
    assert f"{actor.name} drew" in post.description
    # the drawn card is its drawer's alone until placed: the choices are under My view, not on the public board
    assert post.controls is None and "My view" in post.content


async def test_board_tells_what_is_still_owed_and_puts_the_lobby_card_right(svc: TableService) -> None:
    """Discord refused a start's board and card (nothing was marked delivered): `/board` posts the board they owed,
    opening with its word, and the lobby card, so that its delivery leaves nothing owed."""
    tid = await lobby(svc, ALICE, BOB)
    await svc.start(tid, ALICE)
    out = await svc.board(CH)
    (post,) = out.public
    assert post.description.startswith("• Breaks begins!")
    assert out.lobby is not None and "In progress" in out.lobby.post.description
    assert out.outbox is not None
    await svc.delivered(*out.outbox)
    assert await svc.db.undelivered() == []
    assert (await svc.board(CH)).lobby is None, "once shown, the card is not owed again"


async def test_the_public_board_never_shows_a_hand(hsvc: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Render everything: the public board gets only the public view, each DM only its reader's view."""
    rendered: list[dict[str, Any]] = []

    def fake_render(view: Mapping[str, Any], names: Sequence[str]) -> bytes:
        rendered.append(dict(view))
        return PNG + b"fake"

    hsvc.registry = Catalog([GameEntry(HighCard(), fake_render)])
    hsvc.render_images = True
    tid, _ = await started(hsvc, ALICE, BOB, CARL, game="highcard")
    outcomes: list[Outcome] = []
    await play_out(hsvc, tid, lambda out, before, after: outcomes.append(out))
    assert outcomes
    table = await read(hsvc, tid)
    game = hsvc.game("highcard")
    for out in outcomes:
        (public,) = out.public
        assert public.controls is None  # the choices would list the mover's cards for everyone
        assert public.board is not None and public.board.alt.startswith("High Card.")
        assert "Your hand" not in post_text(public) and "Play your" not in post_text(public)
        for dm in out.dms:
            assert dm.post.board is not None and dm.post.board.alt.startswith("Your hand")
    assert rendered
    public_views = [v for v in rendered if v["viewer"] is None]
    private_views = [v for v in rendered if v["viewer"] is not None]
    assert public_views and private_views
    for view in public_views:
        assert "hand" not in view and set(view) == {"game", "viewer", "ply", "to_act", "hand_sizes", "played",
                                                    "result"}
    for view in private_views:
        assert set(view) == {"game", "viewer", "hand", "your_turn"}
    # Replay to check every private view was the reader's own hand at that moment.
    moves = await hsvc.db.moves(tid)
    assert table.seed is not None
    state = game.new_game(3, table.options, table.seed)
    hands_seen = {seat: {tuple(state.hands[seat])} for seat in range(3)}
    for m in moves:
        state, _ = game.apply(state, m.seat, game.parse_move(m.notation))
        hands_seen[m.seat].add(tuple(state.hands[m.seat]))
    for view in private_views:
        assert tuple(view["hand"]) in hands_seen[view["viewer"]]


async def test_a_picture_that_fails_after_the_move_is_stored_is_reported_truthfully(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is committed before the board is drawn: a failing renderer must not turn it into "nothing was
    changed". The board is posted without its picture, saying so, and the game goes on."""
    svc = service(db, render_images=True)
    tid, _ = await started(svc, ALICE, BOB)
    table, actor, move = await whose_turn(svc, tid)

    def broken(*args: Any) -> bytes:
        raise RuntimeError("the renderer broke")

    svc.registry = Catalog([GameEntry(Breaks(), broken)])
    out = await svc.submit(actor, move, table_id=tid)  # the draw: the turn goes on privately
    assert out.reply == "Played: Draw a card (46 in the pile)."
    assert out.reply_post is not None and out.reply_post.board is None
    _, _, placement = await whose_turn(svc, tid)
    out = await svc.submit(actor, placement, table_id=tid)  # the turn ends: its board
    assert out.reply.startswith("Played: ") and placement not in out.reply  # in words, not notation
    (board,) = out.public
    assert board.board is None and "could not be drawn" in board.description
    after = await read(svc, tid)
    assert after.version > table.version and len(await svc.db.moves(tid)) == 2


async def test_private_views_go_by_dm_to_exactly_the_players_whose_view_changed(hsvc: TableService) -> None:
    tid, out = await started(hsvc, ALICE, BOB, CARL, game="highcard")
    table = await read(hsvc, tid)
    game, state = state_of(hsvc, table)
    assert [dm.user_id for dm in out.dms] == [1, 2, 3]  # everyone gets their first hand
    for dm in out.dms:
        assert dm.table_id == tid and dm.post.title == f"Your view · High Card · table #{tid}"
    assert out.dms[0].post.controls is not None and out.dms[0].post.controls.user_id == ALICE.user_id
    assert {c.notation for c in out.dms[0].post.controls.choices} == {f"play {c}" for c in state.hands[0]}
    assert out.dms[1].post.controls is None and out.dms[2].post.controls is None

    # Alice plays: her hand changes and Bob's turn begins; Carl's private view is unchanged.
    out = await hsvc.submit(ALICE, f"play {state.hands[0][0]}", channel_id=CH)
    assert [dm.user_id for dm in out.dms] == [ALICE.user_id, BOB.user_id]
    alice_dm, bob_dm = out.dms
    assert alice_dm.post.controls is None and alice_dm.post.description.startswith(f"Waiting for {BOB.name}.")
    assert bob_dm.post.description == "It's your turn."
    assert bob_dm.post.controls is not None and bob_dm.post.controls.user_id == BOB.user_id
    assert {c.notation for c in bob_dm.post.controls.choices} == {f"play {c}" for c in state.hands[1]}

    def check(out: Outcome, before: TableRow, after: TableRow) -> None:
        old, new = game.load(before.state or {}), game.load(after.state or {})
        changed = [s.user_id for s in after.seats
                   if s.user_id is not None and game.view(old, s.seat) != game.view(new, s.seat)]
        assert [dm.user_id for dm in out.dms] == changed

    table = await play_out(hsvc, tid, check)
    assert table.status == FINISHED
    await assert_replays(hsvc, tid)


async def test_bots_and_resigned_players_get_no_dms(hsvc: TableService) -> None:
    tid, out = await started(hsvc, ALICE, BOB, bots=1, game="highcard")
    assert [dm.user_id for dm in out.dms] == [1, 2]
    await hsvc.resign(CH, BOB)
    table = await read(hsvc, tid)
    assert table.status == ACTIVE

    def check(out: Outcome, before: TableRow, after: TableRow) -> None:
        assert {dm.user_id for dm in out.dms} <= {ALICE.user_id}

    assert (await play_out(hsvc, tid, check)).status == FINISHED


async def test_blockers_dms_only_the_player_whose_rack_changed(tmp_path: Path) -> None:
    """A DM goes out when private information changes (your rack after your draw), not on every move."""
    db = await Database.open(tmp_path / "dm.db")
    try:
        svc = TableService(db, default_catalog(), seeds=lambda: 11, render=False)
        people = [Actor(i, f"P{i}") for i in (1, 2, 3)]
        out = await svc.open_lobby(guild_id=1, channel_id=5, host=people[0], game_key="blockers")
        assert out.table_id is not None
        for p in people[1:]:
            await svc.join(out.table_id, p)
        out = await svc.start(out.table_id, people[0])
        assert sorted(dm.user_id for dm in out.dms) == [1, 2, 3]  # everyone sees their first rack
        for _ in range(6):
            table = await db.get_table(out.table_id)  # type: ignore[arg-type]
            assert table is not None
            game = svc.game("blockers")
            state = game.load(table.state or {})
            (seat,) = game.to_act(state)
            mover = table.seats[seat].user_id
            mine = [c for c in await svc.choices(5, people[seat]) if c.notation != "pass"]
            out = await svc.submit(people[seat], mine[0].notation, channel_id=5)
            assert [dm.user_id for dm in out.dms] == [mover]
    finally:
        await db.close()


async def test_a_blind_module_draw_reaches_only_its_holder(svc: TableService) -> None:
    tid, _ = await started(svc, ALICE, BOB, game="breakerblocks", options="blind=yes")
    table = await read(svc, tid)
    game, state = state_of(svc, table)
    mover = actor_of(table, state.turn)
    out = await svc.submit(mover, "draw module", table_id=tid)
    table = await read(svc, tid)
    _, state = state_of(svc, table)
    drawn = state.hands[table.seat_of(mover.user_id).seat][-1]
    assert drawn in ("annihilate", "automate", "accelerate", "attenuate", "agitate", "aggravate", "authenticate")
    public = " ".join(p.description + " ".join(v for _, v in p.fields) for p in out.public)
    assert drawn not in public.lower() and drawn.upper() not in public
    log = " ".join(m.notation + " ".join(m.events) for m in await svc.db.moves(tid))
    assert drawn not in log.lower()
    assert out.reply_post is not None and out.reply_post.controls is not None  # the holder goes on privately
    assert all(dm.user_id == mover.user_id for dm in out.dms)  # nothing private reaches the other player
