"""The hard Breaks bot's learned leaf (:mod:`bots.breaks`): play games, record every turn start's
:func:`bots.breaks.inputs` for both seats with the game's result for that seat, and fit a logistic regression of
the result on them (Newton's method, pure Python, a little L2). Prints the weights to paste into
``bots.breaks.WEIGHTS``, and the fit's log loss on held-out games.

Run from the repository root::

    python -m bench.breaks_fit --games 6000 --eps 0.1 --keep 0.3
    python -m bench.breaks_fit --tune 2000 --sweeps 1   # then: nudge WEIGHTS by win rate against medium

``--tune`` is a coordinate search on the weights in ``bots.breaks.WEIGHTS`` by what they win: a bot one move ahead
on the leaf plays ``--tune`` games against medium (seeds 200000 on, not the tournament's) per trial, and a weight
moved by half its size (at least 0.3) either way is kept when it wins 0.4 points more. It is noisy (a 2,000-game
trial has a standard error of about 1.1 points); its result is checked on other seeds before it is kept.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from typing import Any

from bots import choose
from bots.breaks import inputs, sigmoid
from engine.rng import Rng
from tables.catalog import default_catalog


def play(game: Any, seed: int, eps: float, levels: Sequence[str], keep: float) -> list[tuple[list[float], float]]:
    """One game's rows: (inputs for a seat at a turn start, that seat's result: 1 win, 0.5 shared, 0 loss)."""
    state = game.new_game(2, {}, seed)
    rng = Rng(seed * 31 + 7)
    seen: list[tuple[int, list[float]]] = []
    while not game.is_over(state):
        seat = min(game.to_act(state))
        if state.phase == "play" and state.pending is None and rng.below(1000) < 1000 * keep:
            for s in (0, 1):
                seen.append((s, inputs(state, s)))
        if rng.below(1000) < 1000 * eps:
            move = game.sample_move(state, seat, rng)
        else:
            move = choose(game, state, seat, levels[seat], rng, iterations=100)
        game.fast_apply(state, seat, move)
    result = game.result(state)
    assert result is not None
    out = []
    for s, x in seen:
        y = (1.0 / len(result.winners)) if s in result.winners else 0.0
        out.append((x, y))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: list[tuple[list[float], float]], l2: float = 1.0, steps: int = 12) -> list[float]:
    d = len(rows[0][0])
    w = [0.0] * d
    for _ in range(steps):
        grad = [l2 * wi for wi in w]
        hess = [[l2 if i == j else 0.0 for j in range(d)] for i in range(d)]
        for x, y in rows:
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True)))
            g = p - y
            h = p * (1 - p)
            for i in range(d):
                xi = x[i]
                if xi:
                    grad[i] += g * xi
                    hx = h * xi
                    row = hess[i]
                    for j in range(i, d):
                        row[j] += hx * x[j]
        for i in range(d):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def log_loss(w: list[float], rows: list[tuple[list[float], float]]) -> float:
    total = 0.0
    for x, y in rows:
        p = min(1 - 1e-9, max(1e-9, sigmoid(sum(wi * xi for wi, xi in zip(w, x, strict=True)))))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(rows))


def win_rate(weights: Sequence[float], games: int) -> float:
    """A one-move-ahead bot on the leaf with these weights against medium, seats alternating."""
    import bots.breaks
    import bots.mcts
    from bench.tournament import Tally
    from bench.tournament import play as play_game

    game = default_catalog().get("breaks")
    assert game is not None
    saved, bots.breaks.WEIGHTS = bots.breaks.WEIGHTS, tuple(weights)
    kept = bots.mcts.PROFILES["breaks"]
    bots.mcts.PROFILES["breaks"] = bots.mcts.Profile(one_ply=True, leaf="breaks_fit")
    try:
        wins, tally = 0.0, Tally()
        for i in range(games):
            seat = i % 2
            levels = ["medium", "medium"]
            levels[seat] = "hard"
            result, _ = play_game(game, levels, 200_000 + i, tally, iterations=1, budget_ms=0.0)
            if result is not None and seat in result.winners:
                wins += 1.0 / len(result.winners)
        return wins / games
    finally:
        bots.breaks.WEIGHTS = saved
        bots.mcts.PROFILES["breaks"] = kept


def tune(games: int, sweeps: int) -> list[float]:
    from bots.breaks import WEIGHTS

    w = list(WEIGHTS)
    base = win_rate(w, games)
    print(f"start {base:.4f}", flush=True)
    for sweep in range(sweeps):
        for i in range(len(w)):
            step = max(0.3, abs(w[i]) * 0.5)
            for d in (step, -step):
                trial = w[:]
                trial[i] += d
                rate = win_rate(trial, games)
                if rate > base + 0.004:
                    w, base = trial, rate
                    print(f"sweep {sweep}: weight {i} {d:+.2f} → {rate:.4f}", flush=True)
                    break
    print("WEIGHTS = (" + ", ".join(f"{x:.3f}" for x in w) + ")")
    return w


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--eps", type=float, default=0.1, help="share of random moves (varied positions)")
    parser.add_argument("--levels", default="medium,medium")
    parser.add_argument("--seed", type=int, default=50_000)
    parser.add_argument("--keep", type=float, default=0.3, help="share of turn starts recorded (they are alike)")
    parser.add_argument("--save", default="", help="also write the rows here (JSON lines)")
    parser.add_argument("--tune", type=int, default=0, help="games a trial: tune the current weights instead")
    parser.add_argument("--sweeps", type=int, default=1)
    args = parser.parse_args(argv)
    if args.tune:
        tune(args.tune, args.sweeps)
        return 0
    game = default_catalog().get("breaks")
    assert game is not None
    levels = args.levels.split(",")
    t0 = time.perf_counter()
    train: list[tuple[list[float], float]] = []
    test: list[tuple[list[float], float]] = []
    for i in range(args.games):
        lv = levels if i % 2 == 0 else levels[::-1]
        (test if i % 10 == 9 else train).extend(play(game, args.seed + i, args.eps, lv, args.keep))
    print(f"{args.games} games, {len(train)} + {len(test)} rows in {time.perf_counter() - t0:.0f} s", flush=True)
    if args.save:
        import json
        with open(args.save, "w") as fh:
            for x, y in train + test:
                fh.write(json.dumps([x, y]) + "\n")
    w = fit(train)
    base = log_loss([0.0] * len(w), test)
    print(f"held-out log loss {log_loss(w, test):.4f} (coin: {base:.4f})")
    print("WEIGHTS = (" + ", ".join(f"{x:.4f}" for x in w) + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
