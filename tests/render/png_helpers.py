"""Shared checks for renderer tests."""

from __future__ import annotations

import io

from PIL import Image


def decode(png: bytes) -> Image.Image:
    """Open and fully verify the PNG, then reopen it for pixel access."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    Image.open(io.BytesIO(png)).verify()
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")
