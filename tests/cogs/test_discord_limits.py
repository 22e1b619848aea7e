"""Everything the bot can send stays inside what Discord validates (issue 8: a button Discord refuses).

The offline tests run real discord.py but not Discord's own validation, so a component Discord refuses (an emoji
outside its set, a label too long) would pass them and then stop every board that carries it from posting. Here
every post, private view, lobby card, menu level and preview the service produces over real games of every
registered game is turned into discord.py message arguments by the real presenter (``cogs/present.py``), and
each component and embed is checked against Discord's documented limits:
https://discord.com/developers/docs/interactions/message-components and
https://discord.com/developers/docs/resources/message#embed-object-embed-limits .
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import discord
import emoji
import pytest

from cogs.present import lobby_kwargs, log_kwargs, menu_view, message_kwargs, preview_kwargs
from engine.rng import Rng
from storage import ACTIVE, Database
from tables import Actor, Post, TableService
from tables.catalog import Catalog, GameEntry, default_catalog
from tables.menu import MenuStep
from tests.tables.helpers import CH, make_clock

BUTTON_LABEL = 80
OPTION_LABEL = OPTION_VALUE = OPTION_DESCRIPTION = 100
SELECT_OPTIONS = 25
PLACEHOLDER = 150
CUSTOM_ID = 100
ROWS = 5
BUTTONS_PER_ROW = 5
CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
ALT_TEXT = 1024

PEOPLE = [Actor(i + 1, name) for i, name in enumerate(("Ann", "Bé", "Мария", "Zoë 🎲", "李", "Ola"))]
ENTRIES = default_catalog().entries()
STUB_PNG = b"\x89PNG\r\n\x1a\n stub"  # the alt text is what matters here; drawing is tested elsewhere


def check_emoji(value: Any, where: str) -> None:
    if value is None:
        return
    name = value.name if isinstance(value, discord.PartialEmoji) else str(value)
    if isinstance(value, discord.PartialEmoji) and value.id is not None:
        return  # a custom emoji (we use none)
    assert emoji.is_emoji(name), f"{where}: {name!r} is not an emoji Discord accepts"


def check_view(view: discord.ui.View | None, where: str) -> int:
    """Checks every component of ``view``; returns how many were checked."""
    if view is None:
        return 0
    rows = view.to_components()
    assert len(rows) <= ROWS, f"{where}: {len(rows)} rows"
    checked = 0
    for row in rows:
        parts = row["components"]
        selects = [c for c in parts if c["type"] == 3]
        assert len(parts) <= BUTTONS_PER_ROW and (not selects or len(parts) == 1), f"{where}: a crowded row"
        for c in parts:
            checked += 1
            assert 0 < len(c.get("custom_id", "x")) <= CUSTOM_ID, f"{where}: custom_id {c.get('custom_id')!r}"
            if c["type"] == 2:  # button
                assert len(c.get("label", "")) <= BUTTON_LABEL, f"{where}: label {c.get('label')!r}"
                assert c.get("label") or c.get("emoji"), f"{where}: a button with neither label nor emoji"
                check_emoji(discord.PartialEmoji.from_dict(c["emoji"]) if "emoji" in c else None, where)
            elif c["type"] == 3:  # string select
                options = c["options"]
                assert 1 <= len(options) <= SELECT_OPTIONS, f"{where}: {len(options)} options"
                assert len(c.get("placeholder", "")) <= PLACEHOLDER, f"{where}: placeholder"
                for o in options:
                    assert 0 < len(o["label"]) <= OPTION_LABEL, f"{where}: option {o['label']!r}"
                    assert 0 < len(o["value"]) <= OPTION_VALUE
                    assert len(o.get("description") or "") <= OPTION_DESCRIPTION
                    check_emoji(discord.PartialEmoji.from_dict(o["emoji"]) if o.get("emoji") else None, where)
                assert len({o["value"] for o in options}) == len(options), f"{where}: duplicate option values"
    # every custom id in one message is distinct (Discord refuses duplicates)
    ids = [c["custom_id"] for row in rows for c in row["components"] if "custom_id" in c]
    assert len(ids) == len(set(ids)), f"{where}: duplicate custom ids {ids}"
    return checked


def check_embed(embed: discord.Embed, where: str) -> None:
    assert len(embed.title or "") <= EMBED_TITLE
    assert len(embed.description or "") <= EMBED_DESCRIPTION, f"{where}: description {len(embed.description or '')}"
    assert len(embed.fields) <= EMBED_FIELDS
    for f in embed.fields:
        assert 0 < len(f.name or "") <= FIELD_NAME and 0 < len(f.value or "") <= FIELD_VALUE, f"{where}: {f.name}"
    assert len(embed.footer.text or "") <= FOOTER
    assert len(embed) <= EMBED_TOTAL, f"{where}: embed of {len(embed)} characters"


def check_kwargs(kwargs: Mapping[str, Any], where: str) -> int:
    assert len(kwargs.get("content") or "") <= CONTENT, where
    for embed in [kwargs["embed"]] if kwargs.get("embed") else kwargs.get("embeds", []):
        check_embed(embed, where)
    file = kwargs.get("file")
    if file is not None:
        assert len(file.description or "") <= ALT_TEXT, f"{where}: alt text of {len(file.description)}"
    return check_view(kwargs.get("view"), where)


def check_post(post: Post, where: str) -> int:
    return (check_kwargs(message_kwargs(post), where + " (public)")
            + check_kwargs(message_kwargs(post, ephemeral=True), where + " (private)"))


def stub_catalog() -> Catalog:
    def stub(view: Mapping[str, Any], names: Sequence[str]) -> bytes:
        return STUB_PNG
    return Catalog([GameEntry(e.rules, stub, e.rules_page, e.playout_target) for e in ENTRIES])


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[TableService]:
    db = await Database.open(tmp_path / "limits.db")
    yield TableService(db, stub_catalog(), clock=make_clock(), seeds=lambda: 99, render=True)
    await db.close()


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.key for e in ENTRIES])
async def test_every_component_and_embed_fits_discord(svc: TableService, entry: GameEntry) -> None:
    game = entry.rules
    checked = 0
    for seats in sorted({game.min_players, game.max_players}):
        people = PEOPLE[:seats]
        out = await svc.open_lobby(guild_id=1, channel_id=CH + seats, host=people[0], game_key=game.key)
        tid = out.table_id
        assert tid is not None and out.lobby is not None
        checked += check_kwargs(lobby_kwargs(out.lobby), "lobby")
        for p in people[1:]:
            checked += check_kwargs(lobby_kwargs((await svc.join(tid, p)).lobby), "lobby")  # type: ignore[arg-type]
        out = await svc.start(tid, people[0])
        rng = Rng(seats)
        for ply in range(400):
            for post in out.public:
                checked += check_post(post, f"board at ply {ply}")
            for dm in out.dms:
                checked += check_post(dm.post, "DM")
            if out.reply_post is not None:
                checked += check_post(out.reply_post, "reply")
            table = await svc.db.get_table(tid)
            assert table is not None
            if table.status != ACTIVE:
                break
            state = game.load(table.state or {})
            seat = rng.choice(sorted(game.to_act(state)))
            hand = (await svc.hand(None, people[seat], table_id=tid)).reply_post
            assert hand is not None
            checked += check_post(hand, "hand")
            if ply % 3 == 0:
                checked += await walk_menu(svc, tid, table.version, people[seat])
            move = game.sample_move(state, seat, rng)
            out = await svc.submit(people[seat], game.format_move(move), table_id=tid)
        else:
            raise AssertionError("the game did not end")
        first = await svc.log_page(table_id=tid, page=1)
        for number in range(1, first.pages + 1):
            checked += check_kwargs(log_kwargs(await svc.log_page(table_id=tid, page=number)), f"/log page {number}")
        checked += check_kwargs(log_kwargs(await svc.log_page(table_id=tid, last=50)), "/log count:50")
    assert checked > 100


async def walk_menu(svc: TableService, tid: int, version: int, actor: Actor) -> int:
    """The top of the actor's move menu and one path down to a leaf; the preview when the leaf has one."""
    checked = 0
    path: tuple[int, ...] = ()
    for depth in range(10):
        step = await svc.menu(tid, actor, version, path)
        if step.node.choice is not None:
            if step.confirm:
                post = await svc.preview(tid, actor, version, step.node.choice.notation)
                checked += check_kwargs(preview_kwargs(post, tid, version, ".".join(map(str, path[:-1]))), "preview")
            return checked
        checked += check_view(menu_view(MenuStep(tid, version, path, step.trail, step.node)), f"menu {path}")
        path = (*path, (depth * 7) % len(step.node.children))
    raise AssertionError("the menu went too deep")


def test_the_my_view_button_uses_an_emoji_discord_accepts() -> None:
    from cogs.controls import PanelButton, RematchButton, StepBack

    for item in (PanelButton(1).item, RematchButton(1).item, StepBack(1, 1, "").item):
        check_emoji(item.emoji, item.label or "?")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.key for e in ENTRIES])
def test_rules_pages_fit_in_embeds(entry: GameEntry) -> None:
    from cogs.present import rules_embeds

    assert entry.rules_page is not None
    embeds = rules_embeds(entry.rules.name, entry.rules_page.read_text(encoding="utf-8"))
    assert 1 <= len(embeds) <= 10
    for embed in embeds:
        check_embed(embed, f"/rules {entry.key}")
    from cogs.present import quick_rules_kwargs

    check_embed(quick_rules_kwargs(entry.key, entry.rules.name, entry.rules_page.read_text(encoding="utf-8"))["embed"],
                f"/rules {entry.key} (one screen)")


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.key for e in ENTRIES])
def test_rules_read_well_in_discord(entry: GameEntry) -> None:
    """No raw table pipes, no sentence broken across lines, no path to a file players don't have (issue 8)."""
    import re

    from cogs.present import rules_embeds

    assert entry.rules_page is not None
    page = entry.rules_page.read_text(encoding="utf-8")
    text = "\n".join(e.description or "" for e in rules_embeds(entry.rules.name, page))
    assert not any(line.lstrip().startswith("|") for line in text.splitlines()), "a Markdown table shows as pipes"
    assert not re.search(r"\n[a-z(]", text), "a hard line break inside a sentence"
    assert "shared/" not in text and ".md" not in text
    if "|" in page:  # every table row survives as a bullet
        rows = [ln for ln in page.splitlines() if ln.startswith("|") and not set(ln) <= set("|-: ")][1:]
        assert all(f"**{r.strip('|').split('|')[0].strip()}**" in text for r in rows)
