"""Draw every game's boards as players see them, to look at: full size, at phone width and as colour-blind
players see them.

For each registered game and player count, a random game is played to the middle and to the end; its public
board and the first seat's own view are drawn with names in several scripts. Each picture is written three ways
into ``--out`` (default ``bench/out/pictures``):

* ``<name>.png``: as posted;
* ``<name>-400.png``: scaled to 400 px wide, the width Discord shows an image inline on a phone;
* ``<name>-400-deutan.png`` / ``-protan.png`` / ``-tritan.png``: that phone-size picture as seen with
  deuteranopia, protanopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity 1, applied in linear
  RGB).

Run from the repository root::

    python -m tools.pictures                 # every game
    python -m tools.pictures --game block --seats 5

and open the files (an image viewer, or the session's file viewer). ``--sheet`` also writes one contact sheet
per game (the 400 px pictures side by side with their simulations) for a quick look.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from PIL import Image

from engine.base import Game
from engine.rng import Rng
from render import colour_vision
from tables.catalog import GameEntry, default_catalog

NAMES = ("Мария", "Zoë Åström", "山田太郎", "Ελένη", "محمد", "देवी")
PHONE = 400

CVD = {"deutan": "deuteranopia", "protan": "protanopia", "tritan": "tritanopia"}  # file suffix: colour_vision's kind


def simulate(image: Image.Image, kind: str) -> Image.Image:
    """``image`` as seen with the colour-vision deficiency ``kind`` (one of :data:`CVD`).

    Exact per colour: a board has few distinct colours (its palette), so each is mapped once."""
    rgb = image.convert("RGB")
    mapped: dict[Any, tuple[int, ...]] = {}
    for _, colour in rgb.getcolors(maxcolors=1 << 24) or []:
        mapped[colour] = colour_vision.simulate(colour, CVD[kind])  # type: ignore[arg-type]
    out = Image.new("RGB", rgb.size)
    out.putdata([mapped[p] for p in rgb.get_flattened_data()])
    return out


def phone(image: Image.Image, width: int = PHONE) -> Image.Image:
    """``image`` scaled to ``width`` pixels wide, as a phone shows it inline."""
    height = round(image.height * width / image.width)
    return image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS)


def positions(game: Game[Any, Any, Any], seats: int, seed: int = 3) -> dict[str, Any]:
    """A state a third into a random game, and the last one."""
    rng = Rng(seed)
    state = game.new_game(seats, {}, seed)
    states = [state]
    while not game.is_over(state) and len(states) < 2000:
        acting = sorted(game.to_act(state))
        seat = acting[rng.below(len(acting))]
        state, _ = game.apply(state, seat, game.sample_move(state, seat, rng))
        states.append(state)
    return {"middle": states[len(states) // 3], "end": states[-1]}


def pictures(entry: GameEntry[Any], seats: int) -> Iterable[tuple[str, Image.Image]]:
    game = entry.rules
    names = list(NAMES[:seats])
    for when, state in positions(game, seats).items():
        yield f"{game.key}-{seats}p-{when}-public", Image.open(io.BytesIO(entry.render(game.view(state, None), names)))
        if game.hidden_information and when == "middle":
            own = entry.render(game.view(state, 0), names)
            yield f"{game.key}-{seats}p-{when}-seat1", Image.open(io.BytesIO(own))


def write(out: Path, name: str, image: Image.Image) -> list[Image.Image]:
    image.save(out / f"{name}.png")
    small = phone(image)
    small.save(out / f"{name}-{PHONE}.png")
    row = [small]
    for kind in CVD:
        seen = simulate(small, kind)
        seen.save(out / f"{name}-{PHONE}-{kind}.png")
        row.append(seen)
    return row


def contact_sheet(rows: Sequence[list[Image.Image]]) -> Image.Image:
    width = sum(im.width for im in rows[0]) + 10 * (len(rows[0]) - 1)
    height = sum(max(im.height for im in row) for row in rows) + 10 * (len(rows) - 1)
    sheet = Image.new("RGB", (width, height), (255, 255, 255))
    y = 0
    for row in rows:
        x = 0
        for im in row:
            sheet.paste(im, (x, y))
            x += im.width + 10
        y += max(im.height for im in row) + 10
    return sheet


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="one game key (default: every game)")
    parser.add_argument("--seats", type=int, help="one player count (default: every count)")
    parser.add_argument("--out", type=Path, default=Path("bench/out/pictures"))
    parser.add_argument("--sheet", action="store_true", help="also write a contact sheet per game")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    catalog = default_catalog()
    entries = [catalog.entry(args.game)] if args.game else catalog.entries()
    for entry in entries:
        game = entry.rules
        rows = []
        counts = [args.seats] if args.seats else range(game.min_players, game.max_players + 1)
        for seats in counts:
            for name, image in pictures(entry, seats):
                rows.append(write(args.out, name, image))
                print(f"{name}: {image.width}x{image.height}")
        if args.sheet and rows:
            contact_sheet(rows).save(args.out / f"{game.key}-sheet.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
