"""The mapping from service output to discord.py messages respects Discord's limits."""

from __future__ import annotations

import discord
import pytest

from cogs.controls import MoveButton, PanelButton, RematchButton, StepBack, StepSelect
from cogs.present import controls_view, embed_of, lobby_kwargs, menu_view, message_kwargs
from tables import Board, Choice, Controls, LobbyCard, Post
from tables.menu import MenuStep, build_menu, walk


def choices(n: int) -> tuple[Choice, ...]:
    return tuple(Choice(f"break P2 {i % 3 + 1} onto {i % 3 + 1}", f"Move number {i} " + "x" * 120) for i in range(n))


@pytest.mark.parametrize(("n", "buttons", "options"), [(1, 1, 0), (5, 5, 0), (6, 0, 6), (25, 0, 25), (40, 0, 2),
                                                       (700, 0, 2)])
def test_few_choices_are_buttons_many_are_a_menu_of_at_most_25(n: int, buttons: int, options: int) -> None:
    view = controls_view(Controls(7, 3, 11, choices(n)), panel_table=7)
    assert view is not None and view.timeout is None  # persistent
    items = [getattr(i, "item", i) for i in view.children]  # unwrap DynamicItems
    assert sum(isinstance(i, discord.ui.Button) and i.custom_id.startswith("bh:mv:") for i in items) == buttons
    selects = [i for i in items if isinstance(i, discord.ui.Select)]
    assert len(selects) == (1 if options else 0)
    if selects:
        assert len(selects[0].options) == options and selects[0].placeholder == "Choose your move…"
        assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in selects[0].options)
    for item in items:
        assert len(item.custom_id) <= 100
        if isinstance(item, discord.ui.Button):
            assert len(item.label or "") <= 80
    assert sum(isinstance(i, discord.ui.Button) and i.custom_id == "bh:panel:7" for i in items) == 1


def test_grouped_choices_open_a_menu_even_when_few() -> None:
    grouped = tuple(Choice(f"m{i}", f"move {i}", ("Tile A",)) for i in range(3))
    view = controls_view(Controls(7, 3, 11, grouped), panel_table=None)
    assert view is not None
    (select,) = [getattr(i, "item", i) for i in view.children]
    assert isinstance(select, discord.ui.Select)
    assert [(o.label, o.description) for o in select.options] == [("Tile A", "3 choices")]


def test_deeper_menu_levels_have_a_back_button_to_the_level_above() -> None:
    root = build_menu(choices(700))
    node, trail = walk(root, (1, 0))
    view = menu_view(MenuStep(7, 3, (1, 0), trail, node))
    items = [getattr(i, "item", i) for i in view.children]
    select, back = items
    assert select.custom_id == "bh:step:7:3:1.0" and back.custom_id == "bh:back:7:3:1"
    assert (select.placeholder or "").startswith(trail[0][:30]) and len(select.placeholder or "") <= 150
    assert len(select.options) == len(node.children) <= 25
    assert all(len(o.label) <= 100 for o in select.options)


def test_custom_ids_round_trip_through_the_dynamic_item_templates() -> None:
    button = MoveButton(12, 34, "merge 1 onto 2", "Merge")
    match = MoveButton.__discord_ui_compiled_template__.fullmatch(button.item.custom_id or "")
    assert match and (match["table"], match["version"], match["move"]) == ("12", "34", "merge 1 onto 2")
    for path in ("", "3", "3.14.0"):
        select = StepSelect(12, 34, path, build_menu(choices(3)))
        match = StepSelect.__discord_ui_compiled_template__.fullmatch(select.item.custom_id)
        assert match and match["path"] == path
        back = StepBack(12, 34, path)
        match = StepBack.__discord_ui_compiled_template__.fullmatch(back.item.custom_id or "")
        assert match and match["path"] == path
    assert PanelButton.__discord_ui_compiled_template__.fullmatch(PanelButton(5).item.custom_id or "")
    assert RematchButton.__discord_ui_compiled_template__.fullmatch(RematchButton(5).item.custom_id or "")


def test_board_post_carries_image_alt_text_and_only_intended_mentions() -> None:
    post = Post(content="<@11> — your turn.", title="Breaks · table #7", description="• x", footer="f",
                board=Board(png=b"\x89PNG", alt="Breaks. Alice: 1 point"), mention_ids=[11],
                controls=Controls(7, 3, 11, choices(2)), panel_table=7)
    kwargs = message_kwargs(post)
    file = kwargs["file"]
    assert file.filename == "board.png" and file.description == "Breaks. Alice: 1 point"
    assert kwargs["embed"].image.url == "attachment://board.png"
    mentions = kwargs["allowed_mentions"]
    assert [u.id for u in mentions.users] == [11] and mentions.everyone is False and mentions.roles is False
    private = message_kwargs(post, ephemeral=True)
    ids = [getattr(i, "item", i).custom_id for i in private["view"].children]
    assert "bh:panel:7" not in ids  # the private copy doesn't offer itself again


def test_closed_lobby_has_no_buttons() -> None:
    card = LobbyCard(table_id=3, post=Post(title="Breaks · table #3"), open=False)
    assert lobby_kwargs(card)["view"].children == []
    card.open = True
    labels = [getattr(i, "item", i).label for i in lobby_kwargs(card)["view"].children]
    assert labels == ["Join", "Leave", "Start", "Cancel", "Add bot: easy", "Add bot: medium", "Add bot: hard",
                      "Remove bot"]


def test_an_overlong_description_is_cut_to_discords_limit() -> None:
    """Whatever a game's lines come to, Discord gets at most 4,096 characters of description (it refuses more)."""
    embed = embed_of(Post(title="t" * 300, description="• a long line " * 400))
    assert embed.description is not None and len(embed.description) == 4096 and embed.description.endswith("…")
    assert embed.title is not None and len(embed.title) == 256
    assert embed_of(Post(description="short")).description == "short"
