"""`/log` pages through the whole move log, newest page first, never cut (issue 8: `/log count:50` dropped the
newest moves, because the reply was cut to 2,000 characters from the end)."""

from __future__ import annotations

import re
from typing import Any

from tables.presenter import LOG_PAGE_CHARS, _pages
from tests.cogs.discord_helpers import against_a_bot, components

PLY = re.compile(r"^`\s*(\d+)`", re.M)


def test_pages_keep_every_line_in_order_and_shorten_only_overlong_ones() -> None:
    lines = [f"line {i} " + "x" * (i % 90) for i in range(300)] + ["y" * 5000]
    pages = _pages(lines, 500)
    flat = [line for page in pages for line in page]
    assert flat[:-1] == lines[:-1] and flat[-1].endswith("…") and len(flat[-1]) == 500
    assert all(len("\n".join(page)) <= 500 for page in pages)
    assert _pages([], 500) == []


async def test_a_long_game_log_is_paged_completely(simcord_env: Any) -> None:
    thread, alice = await against_a_bot(simcord_env, options="decks=2")
    for _ in range(80):  # alice plays her first choice; the bot answers at once
        choices = await alice.autocomplete(thread, "move", "move", "")
        if not choices:
            break
        await alice.slash(thread, "move", move=choices[0]["value"])
    res = await alice.slash(thread, "log")
    assert res.ephemeral
    message = res.response.message if hasattr(res.response, "message") else res.response
    newest = message.embeds[0]
    page, pages = map(int, re.findall(r"\d+", newest.footer.text)[:2])
    assert pages >= 3 and page == pages, "the newest page comes first"
    seen: dict[int, list[int]] = {}
    for _ in range(pages + 2):  # walk to the oldest page with the buttons
        embed = message.embeds[0]
        assert len(message.content) <= LOG_PAGE_CHARS
        number = int(re.findall(r"\d+", embed.footer.text)[0])
        seen[number] = [int(p) for p in PLY.findall(message.content)]
        older = next(c for c in components(message) if getattr(c, "label", "") == "Older")
        if older.disabled:
            break
        res = await alice.click(message, custom_id=older.custom_id)
        message = res.response.message if hasattr(res.response, "message") else message
    assert sorted(seen) == list(range(1, pages + 1)), "every page was reached"
    plies = [p for n in sorted(seen) for p in seen[n]]
    assert plies == list(range(1, len(plies) + 1)) and len(plies) >= 60, "every move once, in order"
    # and back to the newest with one click
    newest_button = next(c for c in components(message) if getattr(c, "label", "") == "Newest")
    res = await alice.click(message, custom_id=newest_button.custom_id)
    message = res.response.message if hasattr(res.response, "message") else message
    assert f"Page {pages} of {pages}" in message.embeds[0].footer.text


async def test_count_shows_the_latest_moves_and_says_when_some_did_not_fit(simcord_env: Any) -> None:
    thread, alice = await against_a_bot(simcord_env)
    for _ in range(40):
        choices = await alice.autocomplete(thread, "move", "move", "")
        if not choices:
            break
        await alice.slash(thread, "move", move=choices[0]["value"])
    res = await alice.slash(thread, "log", count=50)
    text = res.response.content
    plies = [int(p) for p in PLY.findall(text)]
    assert plies == sorted(plies) and plies[-1] >= 50 and len(text) <= 2000, "the newest moves are never cut"
    if len(plies) < 50:
        assert f"{50 - len(plies)} earlier of these moves" in text
