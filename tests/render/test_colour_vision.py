"""The colour-vision arithmetic behind the colour-blind checks (render.colour_vision)."""

from __future__ import annotations

import pytest

from render.colour_vision import delta_e, delta_e_lab, simulate

# Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula", Table 1 (a selection).
SHARMA = [
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, -1.3802, -84.2814), (50, 0, -82.7485), 1.0),
    ((50, 2.5, 0), (50, 3.2972, 0), 1.0),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ((50, 2.5, 0), (56, -27, -3), 31.9030),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("one", "two", "want"), SHARMA)
def test_ciede2000_matches_the_published_pairs(one: tuple[float, float, float], two: tuple[float, float, float],
                                               want: float) -> None:
    assert delta_e_lab(one, two) == pytest.approx(want, abs=1e-4)
    assert delta_e_lab(two, one) == pytest.approx(want, abs=1e-4)


def test_red_and_green_merge_for_a_red_green_colour_blind_viewer_and_blue_and_yellow_do_not() -> None:
    red, green, blue, yellow = (200, 40, 40), (60, 160, 60), (30, 80, 220), (240, 220, 40)
    assert delta_e(red, green) > 40
    for kind in ("deuteranopia", "protanopia"):
        assert delta_e(simulate(red, kind), simulate(green, kind)) < delta_e(red, green) / 2
        assert delta_e(simulate(blue, kind), simulate(yellow, kind)) > 50
    assert simulate((128, 128, 128), "deuteranopia") == pytest.approx((128, 128, 128), abs=2)
    assert simulate(red, "normal") == red
