"""Bloc by Bloc draws each picture on the last picture's canvas, set back to the empty table by filling only the rows
the picture was encoded down to (``render.blocbybloc._done``): nothing may be drawn below them, or it would show in a
later, taller picture. Checked after every picture of a seeded game, tall (a seat's hand and agenda) and short
(the public board) in turn, and the pictures drawn on a reused canvas are those drawn on a new one."""

from __future__ import annotations

import render.blocbybloc as rb
from engine.blocbybloc import BlocByBloc
from engine.blocbybloc.view import BlocView
from engine.rng import Rng
from render.blocbybloc import TALL, W

G = BlocByBloc()
NAMES = ["Ana", "Bo", "Cy"]


def _views() -> list[BlocView]:
    state = G.new_game(3, {}, 3)
    rng = Rng(3)
    out = []
    for ply in range(60):
        if not G.to_act(state):
            break
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.sample_move(state, seat, rng))
        if ply % 3 == 0:
            out += [G.view(state, seat), G.view(state, None)]  # (tall and short in turn)
    return out


def test_the_spare_canvas_is_the_empty_table_after_every_picture() -> None:
    index = rb._table_index()
    assert index is not None
    heights = set()
    for view in _views():
        rb._recent.clear()
        fresh = rb._draw(view, NAMES)  # (on the spare canvas, if there is one)
        assert rb._spare, "the canvas is kept for the next picture"
        colours = rb._spare[0].image.getcolors(1)
        assert colours == [(W * TALL, index)]
        rb._spare.clear()
        assert rb._draw(view, NAMES) == fresh  # on a new canvas: the same picture
        heights.add(len(fresh))
    assert len(heights) > 10
