"""How big each picture's text is on a phone: every game's public board and private views, shown 400 px wide.

Discord shows a board in a phone's chat about 400 px wide, so a text drawn ``size`` pixels high in a picture
``width`` pixels wide is seen ``size * 400 / width`` pixels high (pictures narrower than 400 px are shown at their
own size). Every text a renderer sets goes through :func:`render.common.recording`; a text marked decorative
(an ornament, or words said bigger elsewhere in the same picture) is left out.

Positions: each game at each seat count, from random legal play with a fixed seed, at the start, in the middle
and near the end; at the largest seat count every seat's private view too, elsewhere the public board and seat
0's view. Names include a long one and right-to-left ones.

    python -m bench.phone_text             # the table: smallest needed text at 400 px per game and seat count
    python -m bench.phone_text --worst 5   # and the five smallest texts of each picture kind
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import Image

from engine.base import Game
from engine.rng import Rng
from render.common import Drawn, recording
from tables.catalog import default_catalog

PHONE = 400  # px: a picture's width in a phone's chat
NEEDED = 9.0  # px: the smallest a needed text may be there (issue 24)
NAMES = ["Alexandra-Marguerite", "محمد", "נועה", "Bo", "李小龙", "Zoë"]
STAGES = (0.0, 0.5, 0.9)  # how far into a random game each position is


@dataclass(frozen=True)
class Seen:
    """One picture's smallest needed text."""

    game: str
    seats: int
    stage: float
    who: str  # "public" or "seat N"
    width: int
    text: str
    size: int  # px in the picture

    @property
    def on_phone(self) -> float:
        return self.size * min(1.0, PHONE / self.width)


def positions(game: Game[Any, Any, Any], seats: int, seed: int = 7) -> Iterator[tuple[float, Any]]:
    """The states of one random game (legal moves, the first seat to act moving, to its end or a cap) at each of
    :data:`STAGES`."""
    rng = Rng(seed)
    state = game.new_game(seats, game.resolve_options({}, seats), seed)
    states = [state]
    for _ in range(3000):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        state = game.apply(state, acting[0], game.sample_move(state, acting[0], rng))[0]
        states.append(state)
    plies = len(states) - 1
    marks = {min(plies, int(stage * plies)): stage for stage in STAGES}
    for i, stage in sorted(marks.items()):
        yield stage, states[i]


@dataclass(frozen=True)
class Picture:
    """One picture of the survey: which, its width and every text it set."""

    game: str
    seats: int
    stage: float
    who: str  # "public" or "seat N"
    width: int
    texts: tuple[Drawn, ...]


@cache
def pictures(key: str) -> tuple[Picture, ...]:
    """Every picture of :func:`positions` for game ``key`` (see the module's doc), drawn once per process: the
    tests that read texts off the same pictures share them."""
    entry = default_catalog().entry(key)
    game = entry.rules
    out = []
    for seats in range(game.min_players, game.max_players + 1):
        names = NAMES[:seats]
        for stage, state in positions(game, seats):
            for who in [None, *(range(seats) if seats == game.max_players else [0])]:
                with recording() as texts:
                    png = entry.render(game.view(state, who), names)
                out.append(Picture(key, seats, stage, "public" if who is None else f"seat {who}",
                                   Image.open(io.BytesIO(png)).width, tuple(texts)))
    return tuple(out)


def survey(keys: Sequence[str] | None = None) -> list[Seen]:
    """The smallest needed text of each picture of :func:`pictures`."""
    out = []
    for entry in default_catalog().entries():
        if keys and entry.key not in keys:
            continue
        for p in pictures(entry.key):
            needed = [t for t in p.texts if not t.decorative]
            low = min(needed, key=lambda t: t.size) if needed else None
            out.append(Seen(p.game, p.seats, p.stage, p.who, p.width, low.text if low else "", low.size if low else 0))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--worst", type=int, default=0, help="list this many smallest texts per game")
    args = parser.parse_args(argv)
    seen = survey(args.game)
    print(f"{'game':<14} {'seats':>5} {'picture':<8} {'width':>6} {'smallest at 400 px':>19}  text")
    groups: dict[tuple[str, int, str], list[Seen]] = {}
    for s in seen:
        groups.setdefault((s.game, s.seats, "public" if s.who == "public" else "private"), []).append(s)
    for (game, seats, kind), items in groups.items():
        low = min(items, key=lambda s: s.on_phone if s.size else 1e9)
        mark = "" if low.on_phone >= NEEDED or not low.size else "  < 9"
        print(f"{game:<14} {seats:>5} {kind:<8} {low.width:>6} {low.on_phone:>16.1f} px  {low.text[:40]!r}{mark}")
    if args.worst:
        for game in dict.fromkeys(s.game for s in seen):
            items = sorted((s for s in seen if s.game == game and s.size), key=lambda s: s.on_phone)
            print(f"\n{game}: the {args.worst} smallest")
            for s in items[:args.worst]:
                print(f"  {s.on_phone:5.1f} px  {s.seats} seats {s.who:<7} {s.text[:60]!r}")


if __name__ == "__main__":
    main()
