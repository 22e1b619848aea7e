"""How colours look to the commonest colour-blind viewers, and how far apart two colours look.

Used by the tests that keep players' colours apart (never colour alone). Pure arithmetic, no Pillow.

- :func:`simulate`: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color
  Vision Deficiency", severity 1.0 (dichromacy: no working L or M cones), applied to linear sRGB. Deuteranopia
  and protanopia together are about 2 % of men; deuteranomaly, the mild form, another 5 %: severity 1.0 is the
  hardest case of each.
- :func:`delta_e`: CIEDE2000 colour difference (Sharma, Wu & Dalal 2005) between two sRGB colours, in CIELAB
  under D65. About 1 is a just-noticeable difference side by side; 2-10 is "noticeable at a glance"; two
  markers a player must tell apart at a glance on a small screen, not side by side, need much more: see
  :data:`APART`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Colour = tuple[int, int, int]

# Machado et al. 2009, severity 1.0, for linear RGB.
_MATRICES = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),  # rare (about 1 in 10,000): pictures only, not the checks
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
KINDS = ("deuteranopia", "protanopia")  # the checks: red-green colour blindness, 99 % of colour-blind viewers

# Two colours that tell players apart must differ by at least this much (CIEDE2000) to every viewer, or each must
# carry a second cue (a letter, a name, a symbol) readable on a phone. Okabe and Ito's palette, made for
# colour-blind viewers, keeps its closest pairs 11.5-12.5 apart to a deuteranope (orange/yellow,
# orange/vermillion): told apart side by side on a large swatch, not at a glance on a chip a few pixels wide in a
# phone's picture. 20 keeps the pairs that stay obviously different (blue/orange is 50+), and sends every closer
# pair to a second cue.
APART = 20.0


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encode(c: float) -> int:
    c = min(1.0, max(0.0, c))
    c = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(c * 255)


def simulate(colour: Colour, kind: str) -> Colour:
    """``colour`` as a viewer with ``kind`` ("deuteranopia", "protanopia", "tritanopia") sees it; "normal" returns
    it."""
    if kind == "normal":
        return colour
    m = _MATRICES[kind]
    lin = [_linear(c) for c in colour]
    out = [sum(m[r][k] * lin[k] for k in range(3)) for r in range(3)]
    return (_encode(out[0]), _encode(out[1]), _encode(out[2]))


def _lab(colour: Colour) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: Colour, b: Colour) -> float:
    """CIEDE2000 difference between two sRGB colours."""
    return delta_e_lab(_lab(a), _lab(b))


def delta_e_lab(one: tuple[float, float, float], two: tuple[float, float, float]) -> float:
    """CIEDE2000 difference between two CIELAB colours."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cm = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cm ** 7 / (cm ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lm, cmp_ = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hm = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hm = (h1p + h2p) / 2
    else:
        hm = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
         + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63)))
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc = 1 + 0.045 * cmp_
    sh = 1 + 0.015 * cmp_ * t
    rt = (-2 * math.sqrt(cmp_ ** 7 / (cmp_ ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((hm - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhp / sh) ** 2 + rt * (dc / sc) * (dhp / sh))


def closest_pair(colours: Sequence[Colour], kind: str) -> tuple[float, int, int]:
    """The smallest difference between two of ``colours`` as ``kind`` sees them, and which two."""
    seen = [simulate(c, kind) for c in colours]
    best = (math.inf, -1, -1)
    for i in range(len(seen)):
        for j in range(i + 1, len(seen)):
            best = min(best, (delta_e(seen[i], seen[j]), i, j))
    return best
