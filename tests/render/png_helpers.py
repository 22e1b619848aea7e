"""Shared checks for renderer tests."""

from __future__ import annotations

import io

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
