"""Shared checks for renderer tests."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterator

from PIL import Image


def decode(png: bytes, rgb: bool = True) -> Image.Image:
    """Open and fully verify the PNG, then reopen it and decode every pixel; returned in RGB for pixel reads (a
    caller that reads only the size passes ``rgb=False`` and skips the conversion, which checks nothing)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    Image.open(io.BytesIO(png)).verify()
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB") if rgb else img


def _chunks(png: bytes) -> Iterator[tuple[bytes, bytes]]:
    """The PNG's chunks in order, as (kind, data), each chunk's CRC checked."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at = 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(body, zlib.crc32(kind))
        yield kind, body
        at += 12 + length


def idat(png: bytes) -> bytes:
    """The PNG's image data (its IDAT chunks joined), each chunk's CRC checked."""
    return b"".join(body for kind, body in _chunks(png) if kind == b"IDAT")


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG's chunks but its image data, as (kind, data), each chunk's CRC checked."""
    return [(kind, body) for kind, body in _chunks(png) if kind != b"IDAT"]


def shown(png: bytes) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """What a player's picture is: its rows (the image data inflated: palette indices) and its other chunks (size,
    palette). Pictures of Breaks and Blockers! are deflated band by band with ISA-L, whose deflate may give another
    stream (a few bytes) for the very same rows in a process with several threads (bench/README.md, "Threads make
    other deflated bytes"): tests that compare pictures drawn two ways compare these, not the bytes."""
    return zlib.decompress(idat(png)), chunks(png)
