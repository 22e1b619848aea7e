"""The loopback double reads a message's multipart body as Discord does: ``payload_json`` and each file with its
size, for the body discord.py's HTTP client builds (aiohttp's FormData), files whose bytes hold what looks like a
part's own separators included."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import handle_message_parameters

from bench.loopback.double import multipart


class Sink:
    def __init__(self) -> None:
        self.out = io.BytesIO()

    async def write(self, data: bytes) -> None:
        self.out.write(data)


async def wire(params: Any) -> tuple[bytes, str]:
    """The body and Content-Type discord.py sends for ``params`` (as its HTTPClient.request builds the form)."""
    form = aiohttp.FormData(quote_fields=False)
    for field in params.multipart:
        form.add_field(**field)
    payload = form()
    sink = Sink()
    await payload.write(sink)  # type: ignore[arg-type]  # (aiohttp's writer: only write() is called)
    return sink.out.getvalue(), payload.content_type


@pytest.mark.parametrize("files", [
    [b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40],
    [b"--\r\n\r\n--name=\"payload_json\"\r\n\r\n", b""],  # separators inside a file's bytes, and an empty file
    [],
])
async def test_the_double_reads_what_discord_py_sends(files: list[bytes]) -> None:
    attached = [discord.File(io.BytesIO(f), f"board{i}.png") for i, f in enumerate(files)]
    params = handle_message_parameters(content="Turn 3 — **Ann** to move", embed=discord.Embed(title="Breaks"),
                                       **({"files": attached} if files else {}))  # type: ignore[arg-type]
    if not files:
        assert not params.multipart  # a plain JSON body: nothing to split
        return
    raw, kind = await wire(params)
    body, got = multipart(raw, kind)
    assert body["content"] == "Turn 3 — **Ann** to move" and body["embeds"][0]["title"] == "Breaks"
    assert got == [(f"files[{i}]", len(f)) for i, f in enumerate(files)]


def test_a_body_without_a_boundary_is_refused() -> None:
    with pytest.raises(ValueError, match="boundary"):
        multipart(b"", "multipart/form-data")
