"""Blockers!' words for players: the lobby's summary and tip, move labels and menu groups, the status line and the
board in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.blockers.board import COLOURS, FACES, ROWS, SIZE, SQUARES, WILD, row_of, spoken, square_name
from engine.blockers.game import ADVANCED, Blockers, BlockersState, Move, _and, _plural
from engine.blockers.view import BlockersView
from engine.text import GameText

_TILE_LABELS = {(c, face): f"{c.capitalize()} {face}" for c in COLOURS for face in FACES}  # the menus' first level
_ROW_LABELS = tuple(f"Row {r}" for r in ROWS)
_SQUARE_NAMES = tuple(tuple(f"{col + 1}{ROWS[row]}" for col in range(SIZE)) for row in range(SIZE))  # by row, column


class BlockersText(GameText[BlockersState, Move, BlockersView]):
    summary = "Place number, letter and symbol tiles on a 9×9 board: few groups and few captures win."
    game: Blockers

    def advice(self, seats: int, options: Mapping[str, Any]) -> str:
        if options.get("mode") == ADVANCED and seats > 2:
            return "The advanced game is for two players only: switch to `mode=basic` or play with two."
        return ""

    def describe_move(self, state: BlockersState, seat: int, move: Move) -> str:
        if move.is_pass:
            return "Pass (no tile can be played)"
        label = f"{move.colour} {move.face}" if move.colour else move.face
        label += f" → {square_name(move.square)}"
        there = state.board[move.square] if 0 <= move.square < SQUARES else None
        if there is not None:
            label += f" (captures {spoken(there)})"
        return label

    def menu_groups(self, state: BlockersState, seat: int, move: Move) -> tuple[str, ...]:
        """Tile first, then the square; a wild tile (up to 81 squares) adds the row in between."""
        if move.is_pass:
            return ()
        tile_label = _TILE_LABELS[move.colour or state.colours(seat)[0], move.face]
        if move.face == WILD:
            return (tile_label, _ROW_LABELS[row_of(move.square)])
        return (tile_label,)

    def status_line(self, state: BlockersState) -> str:
        result = self.game.result(state)
        if result is not None:
            return "Game over: " + self.game.verdict(result) + "."
        seat = state.turn
        if not state.advanced and not state.piles[state.colours(seat)[0]]:
            line = "{p%d} takes their final turn (their pile is empty)." % seat
        else:
            piles = ", ".join(f"{c} {len(state.piles[c])} in the pile" for c in state.playable(seat))
            line = "{p%d} to play (%s)." % (seat, piles)
        out = ["{p%d}" % p for p in range(state.seats) if not state.active(p)]
        if out:
            line += " Sitting out: " + ", ".join(out) + "."
        return line

    def private_words(self, state: BlockersState, seat: int) -> str:
        racks = [f"{c}: " + (", ".join(state.racks[c]) or "empty") for c in state.colours(seat)]
        return ("Your rack — " + "; ".join(racks) + ".") if racks else ""

    def alt_text(self, view: BlockersView, names: Sequence[str]) -> str:
        players = view["players"]
        board = view["board"]
        mode = "advanced game" if view["mode"] == ADVANCED else "basic game"
        parts = [f"Blockers!, {mode}, {len(players)} players."]
        where_is: dict[str, list[str]] = {}
        for row_names, cells in zip(_SQUARE_NAMES, board, strict=True):  # (squares by name: "5E")
            for square, cell in zip(row_names, cells, strict=True):
                if cell:
                    where_is.setdefault(cell["colour"], []).append(f"{square} {cell['face']}")
        if view["result"]:
            winners = view["result"]["winners"]
            parts.append(_and([names[p] for p in winners]) + (" wins." if len(winners) == 1 else " share the win."))
        else:
            turn = view["turn"]
            parts.append(f"{names[turn]} ({_and(players[turn]['colours'])}) to play.")
        if not where_is:
            parts.append("The board is empty.")
        for p, pl in enumerate(players):
            bits = []
            for c in pl["colours"]:
                tiles = where_is.get(c, [])
                bits.append(f"{c} tiles at " + ", ".join(tiles) if tiles else f"no {c} tiles on the board")
                bits.append(f"{pl['rack_counts'][c]} on the rack, {pl['pile_counts'][c]} in the pile")
                if c in pl["public"]:
                    bits.append(f"{c} finished, face up: " + ", ".join(pl["public"][c]))
            captured = pl["captured"]
            took = _and([f"{n} {c}" for c, n in captured.items() if n]) or "nothing"
            bits.append(f"{_plural(pl['groups'], 'group')}, captured {took}, score {pl['score']}")
            parts.append(f"{names[p]}: " + "; ".join(bits) + ".")
        last = view["last"]
        if last and last["tile"]:
            text = (f"Last move: {names[last['seat']]} played {last['tile']['colour']} {last['tile']['face']} "
                    f"on {last['square']}")
            if last["captured"]:
                text += f", capturing {last['captured']['colour']} {last['captured']['face']}"
            parts.append(text + ".")
        elif last:
            parts.append(f"Last move: {names[last['seat']]} passed.")
        if "rack" in view:  # first after the title: the description is cut at 1,024 characters
            parts.insert(1, "Your rack: " + "; ".join(f"{c} " + ", ".join(faces) for c, faces in view["rack"].items())
                         + ".")
        return " ".join(parts)
