"""Turn service output (:mod:`tables.outcome`) into discord.py message arguments."""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from cogs.controls import (
    LOBBY_ACTIONS,
    DynamicView,
    LobbyButton,
    LogButton,
    MoveButton,
    PanelButton,
    RematchButton,
    RulesButton,
    StepBack,
    StepSelect,
)
from tables import Controls, LobbyCard, Post
from tables.menu import MenuStep, build_menu, encode_path, shorten
from tables.outcome import LogPage

MAX_BUTTON_CHOICES = 5  # more than this (or any grouping) become a menu of selects


def embed_of(post: Post) -> discord.Embed:
    description = post.description if len(post.description or "") <= 4096 else post.description[:4095] + "…"
    embed = discord.Embed(title=(post.title or "")[:256] or None, description=description or None,
                          colour=post.colour)  # (Discord's limits: a title 256 characters, a description 4,096)
    for name, value in post.fields:
        embed.add_field(name=name[:256], value=(value or "\u200b")[:1024], inline=len(value) < 40)
    if post.footer:
        embed.set_footer(text=post.footer[:2048])
    if post.board:
        embed.set_image(url=f"attachment://{post.board.filename}")
    return embed


def controls_view(controls: Controls | None, panel_table: int | None,
                  rematch_table: int | None = None, version: int | None = None) -> discord.ui.View | None:
    """Move buttons (a few ungrouped choices) or the first level of the move menu, plus "My view" or "Rematch"
    (stamped with the board's ``version``)."""
    if controls is None and panel_table is None and rematch_table is None:
        return None
    view = DynamicView()
    if controls is not None and controls.choices:
        root = build_menu(controls.choices)
        if len(root.children) <= MAX_BUTTON_CHOICES and all(child.leaf for child in root.children):
            for i, child in enumerate(root.children):
                assert child.choice is not None
                view.add_item(MoveButton(controls.table_id, controls.version, child.choice.notation, child.label,
                                         primary=i == 0, row=0))
        else:
            for item in menu_view(MenuStep(controls.table_id, controls.version, (), (), root)).children:
                view.add_item(item)
    if panel_table is not None:
        view.add_item(PanelButton(panel_table, row=1, version=version))
    if rematch_table is not None:
        view.add_item(RematchButton(rematch_table, version=version))
    return view


def menu_view(step: MenuStep) -> discord.ui.View:
    """One level of the move menu: its select and, below the top level, a Back button."""
    view = DynamicView()
    placeholder = (" › ".join(shorten(t, 40) for t in step.trail[-3:]) + " › choose…" if step.trail
                   else "Choose your move…")
    view.add_item(StepSelect(step.table_id, step.version, encode_path(step.path), step.node, placeholder=placeholder))
    if step.path:
        view.add_item(StepBack(step.table_id, step.version, encode_path(step.path[:-1])))
    return view


def for_edit(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``send`` arguments turned into ``edit`` arguments: the file replaces the message's old picture."""
    out = {k: v for k, v in kwargs.items() if k not in ("file", "allowed_mentions")}
    out["attachments"] = [kwargs["file"]] if "file" in kwargs else []
    return out


def edit_kwargs(post: Post) -> dict[str, Any]:
    """Keyword arguments to edit a private message into ``post``."""
    return for_edit(message_kwargs(post, ephemeral=True))


def preview_kwargs(post: Post, table_id: int, version: int, back: str) -> dict[str, Any]:
    """A previewed pick, privately: its picture, a Submit button and Back (to the menu level ``back``)."""
    kwargs = message_kwargs(post, ephemeral=True)
    kwargs.setdefault("view", DynamicView()).add_item(StepBack(table_id, version, back))
    return kwargs


def _mentions(post: Post) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(u) for u in post.mention_ids], roles=False, everyone=False)


def message_kwargs(post: Post, *, ephemeral: bool = False) -> dict[str, Any]:
    """Keyword arguments for ``send`` (channel, followup or DM)."""
    kwargs: dict[str, Any] = {"content": post.content or None, "embed": embed_of(post),
                              "allowed_mentions": _mentions(post)}
    files = [discord.File(io.BytesIO(post.board.png), filename=post.board.filename, description=post.board.alt)] \
        if post.board else []
    files += [discord.File(io.BytesIO(data), filename=name) for name, data in post.attachments]
    if len(files) == 1:
        kwargs["file"] = files[0]
    elif files:
        kwargs["files"] = files
    view = controls_view(post.controls, None if ephemeral else post.panel_table,
                         None if ephemeral else post.rematch_table, post.version)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def lobby_kwargs(card: LobbyCard) -> dict[str, Any]:
    view = DynamicView()
    if card.open:
        for action in LOBBY_ACTIONS:  # players and the game on the first row, bots of three strengths on the second
            view.add_item(LobbyButton(card.table_id, action))
    return {"content": card.post.content or None, "embed": embed_of(card.post), "view": view,
            "allowed_mentions": _mentions(card.post)}


def log_kwargs(page: LogPage) -> dict[str, Any]:
    """A page of the move log, privately: the moves as the message text, the page in a small card under them, and
    buttons to the oldest, older, newer and newest pages."""
    embed = discord.Embed(title=page.title, colour=0x2B7A78)
    if page.footer:
        embed.set_footer(text=page.footer)
    view = DynamicView()
    if page.pages > 1:
        first, last = page.page == 1, page.page == page.pages
        view.add_item(LogButton(page.table_id, 1, "first", disabled=first))
        view.add_item(LogButton(page.table_id, max(1, page.page - 1), "prev", disabled=first))
        view.add_item(LogButton(page.table_id, min(page.pages, page.page + 1), "next", disabled=last))
        view.add_item(LogButton(page.table_id, page.pages, "last", disabled=last))
    return {"content": "\n".join(page.lines), "embed": embed, "view": view,
            "allowed_mentions": discord.AllowedMentions.none()}


QUICK = "## In one screen"


def quick_rules(markdown: str) -> str:
    """The start of a rules page: its introduction (without the title) and its "In one screen" section."""
    sections = re.split(r"(?m)^(?=## )", markdown)
    intro = "\n".join(line for line in sections[0].splitlines() if not line.startswith("# ")).strip()
    quick = next((part for part in sections[1:] if part.startswith(QUICK)), "")
    return f"{intro}\n\n{quick[len(QUICK):].strip()}" if quick else intro


def quick_rules_kwargs(key: str, name: str, markdown: str) -> dict[str, Any]:
    """/rules: the one-screen summary, with a button to the full rules."""
    embed = discord.Embed(title=f"{name} — how to play", description=discord_markdown(quick_rules(markdown))[:4000],
                          colour=0x2B7A78)
    embed.set_footer(text="The full rules: the button below.")
    view = DynamicView()
    view.add_item(RulesButton(key))
    return {"embed": embed, "view": view}


def rules_embeds(name: str, markdown: str) -> list[discord.Embed]:
    """Split a rules page into embeds under Discord's size limits (one per ~4000 characters)."""
    text = discord_markdown(markdown)
    chunks: list[str] = []
    current = ""
    for para in text.split("\n\n"):
        if len(current) + len(para) + 2 > 3900:
            chunks.append(current)
            current = ""
        current = f"{current}\n\n{para}" if current else para
    if current:
        chunks.append(current)
    chunks = chunks[:10]  # at most 10 embeds per message
    return [discord.Embed(title=f"{name} — rules" if i == 0 else None, description=c, colour=0x2B7A78)
            for i, c in enumerate(chunks)]


LIST_ITEM = re.compile(r"^\s*([-*]|\d+\.)\s")


def discord_markdown(markdown: str) -> str:
    """A docs page as Discord shows it well: headings in bold, sentences not broken across lines (a hard line
    break inside a paragraph shows as one in Discord), and tables (shown as raw pipes) as bullet lists."""
    out: list[str] = []
    table: list[list[str]] = []
    headings: set[int] = set()  # lines of out that are headings (a paragraph may start in bold too)

    def flush_table() -> None:
        if len(table) >= 2:
            head, rows = table[0], [r for r in table[1:] if not all(set(c) <= set("-: ") for c in r)]
            for row in rows:
                rest = "; ".join(f"{h.lower()}: {c}" for h, c in zip(head[1:], row[1:], strict=False) if c)
                out.append(f"• **{row[0]}**" + (f" — {rest}" if rest else ""))
        table.clear()

    for raw in markdown.splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            table.append([c.strip() for c in line.strip("|").split("|")])
            continue
        flush_table()
        if not line.strip():
            out.append("")
        elif line.startswith("#"):
            headings.add(len(out))
            out.append(f"**{line.lstrip('#').strip()}**")
        elif LIST_ITEM.match(line):
            item = line.lstrip()
            nested = len(line) - len(item) >= 2
            if item.startswith(("- ", "* ")):
                item = ("\u2003◦ " if nested else "• ") + item[2:]
            out.append(item)
        elif out and out[-1] and len(out) - 1 not in headings:
            out[-1] += " " + line.strip()  # a wrapped line of the same paragraph or list item
        else:
            out.append(line.strip())
    flush_table()
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
