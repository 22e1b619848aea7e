"""Breaker Blocks: random playouts over many seeds and every variant, with the invariants checked at every ply."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.breakerblocks import BreakerBlocks
from engine.breakerblocks.board import CORE, CORE_INPUTS, input_cells, inputs_of, is_module
from engine.breakerblocks.game import BreakerState, components
from engine.breakerblocks.view import BreakerView
from engine.rng import Rng
from tests.view_schema import problems

G = BreakerBlocks()
VARIANTS: list[dict[str, Any]] = [{}, {"blind": True}, {"blind": True, "blind_remove4": True},
                                  {"power_overwhelming": True}, {"tiebreak": "total_power", "max_rounds": 20}]


def everything(s: BreakerState) -> Counter[str]:
    out: Counter[str] = Counter()
    for p in s.board:
        if p is not None:
            out[p.kind] += 1
    for seq in (*s.hands, *s.supplies, s.modules, s.removed, s.destroyed):
        out.update(seq)
    return out


def check(s: BreakerState) -> None:
    expected = components()
    if s.options["power_overwhelming"]:
        del expected["authenticate"]
    assert everything(s) == expected, "blocks are conserved"
    core_inputs = {(o, p, c) for o, p, c in CORE_INPUTS}
    for cell, placed in enumerate(s.board):
        if placed is None:
            continue
        parent = s.board[placed.parent] if placed.parent not in CORE else None
        if placed.parent in CORE:
            assert (placed.owner, placed.parent, cell) in core_inputs, "plugged into one of its owner's core inputs"
        else:
            assert parent is not None and parent.owner == placed.owner, "plugged into a block of its owner"
            assert cell in input_cells(placed.parent, parent.parent, inputs_of(parent.kind)), "into an input"
        G.circuit_of(s, cell)  # every chain reaches the core
    for seat in (0, 1):
        assert all(s.hands[seat].count(k) <= (2 if k == "authenticate" else 1) for k in s.hands[seat]
                   if is_module(k)), "hand limits"
        assert not Counter(s.fresh[seat]) - Counter(s.hands[seat]), "fresh blocks are in the hand"


def playout(options: dict[str, Any], seed: int, checks: bool = True) -> tuple[BreakerState, list[tuple[int, str]]]:
    s = G.new_game(2, G.resolve_options(options), seed)
    rng = Rng(seed * 31 + 7)
    log: list[tuple[int, str]] = []
    for _ in range(5000):
        if G.is_over(s):
            return s, log
        seat = s.turn
        moves = G.legal_moves(s, seat)
        move = G.sample_move(s, seat, rng)
        if checks:
            assert move in moves and G.is_legal(s, seat, move)
            assert all(G.parse_move(G.format_move(m)) == m for m in moves)
            view: BreakerView = G.view(s, seat)
            assert not problems(view, BreakerView), problems(view, BreakerView)[:3]
        s, _ = G.apply(s, seat, move)
        log.append((seat, G.format_move(move)))
        if checks:
            check(s)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_every_invariant_and_end(variant: int, seed: int) -> None:
    final, log = playout(VARIANTS[variant], seed)
    result = G.result(final)
    assert result is not None and 1 <= len(result.winners) <= 2
    assert G.dump(G.replay(2, G.resolve_options(VARIANTS[variant]), seed, log)) == G.dump(final), "replay"
    assert G.load(G.dump(final)) == final


def test_games_end_every_way() -> None:
    reasons: Counter[str] = Counter()
    for seed in range(60):
        final, _ = playout(VARIANTS[seed % 4], seed, checks=False)
        reasons[final.reason.split(":")[0]] += 1
    assert {"the second AUTHENTICATE was added", "the last turn was played", "Power Overwhelming"} <= set(reasons)


@pytest.mark.parametrize("seed", range(4))
def test_blind_determinize_keeps_the_seats_view_and_deals_the_hidden_modules_again(seed: int) -> None:
    s = G.new_game(2, G.resolve_options({"blind": True, "blind_remove4": True}), seed)
    rng = Rng(seed)
    for _ in range(30):  # both players draw some modules
        s, _ = G.apply(s, s.turn, G.sample_move(s, s.turn, rng))
        if G.is_over(s):
            break
    seen = set()
    for k in range(12):
        d = G.determinize(s, 0, Rng(k))
        assert G.view(d, 0) == G.view(s, 0)
        check(d)
        seen.add((tuple(d.hands[1]), tuple(d.modules), tuple(d.removed)))
        if not G.is_over(d):
            playout_from(d, k)
    assert len(seen) > 1, "the hidden parts differ across seeds"


def playout_from(s: BreakerState, seed: int) -> None:
    rng = Rng(seed)
    for _ in range(5000):
        if G.is_over(s):
            return
        G.fast_apply(s, s.turn, G.sample_move(s, s.turn, rng))
    raise AssertionError("no end")
