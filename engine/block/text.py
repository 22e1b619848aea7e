"""BLOCK's words for players: the lobby's summary, move labels and menu groups, what a waiting seat is told, the
status line and the board in words."""

from __future__ import annotations

import operator
from collections.abc import Sequence

from engine.block.game import (
    GO,
    OVER,
    SETUP,
    STAR,
    TURNS,
    Block,
    BlockState,
    Move,
    _cells_text,
    _protected,
    format_move,
)
from engine.block.shapes import oriented
from engine.block.sheet import BONUS, COLUMNS, LETTERS, cell_name
from engine.block.view import BlockView
from engine.text import GameText, plural

# A drop's menu groups by (shape, orientation, column, whether the die lets the player choose the shape): a few
# hundred at most from the die's shapes; the cap bounds what odd moves (a shape typed, not rolled) may add.
_DROP_GROUPS: dict[tuple[str, str, int, bool], tuple[str, ...]] = {}
_DROP_GROUPS_KEPT = 4096


class BlockText(GameText[BlockState, Move, BlockView]):
    summary = "Roll, drop number shapes into your grid and circle combos, all at once; one player plays solo."
    game: Block

    def describe_move(self, state: BlockState, seat: int, move: Move) -> str:
        sheet = state.work[seat]
        if move.kind == "drop":
            # The label of a placement is worked out once per grid, as a format string for its values: a turn
            # lists each placement with up to 24 orders of the values.
            labels = sheet.derived().memo
            key = ("drop", move.shape, move.orientation, move.column)
            label = labels.get(key)
            if label is not None and len(move.values) == label[1] and type(move.column) is int:
                return label[0].format(*move.values)
            dropped = sheet.landing(oriented(move.shape, move.orientation), move.column) or []
            head = f"{move.shape} {TURNS[move.orientation]}, column {COLUMNS[move.column]}: "
            text = head + ", ".join(f"{cell_name(c)}={v}" for c, v in zip(dropped, move.values, strict=True))
            if dropped and type(move.column) is int and "{" not in head and "}" not in head:
                labels[key] = (head + ", ".join(f"{cell_name(c)}={{}}" for c in dropped), len(dropped))
            return text
        if move.kind == "penalty":
            shape = state.blocks[LETTERS.index(self.game.step(state, seat)[-1])] if self.game.step(state, seat) else ""
            landed = sheet.landing(oriented(shape, move.orientation), move.column) if shape else None
            return (f"Penalty {TURNS[move.orientation]}, column {COLUMNS[move.column]}: "
                    + _cells_text(landed or []))
        if move.kind == "combo":
            free = sheet.free_numbers()
            values = ",".join(str(free.get(c, "?")) for c in move.cells)
            bonus = " (bonus)" if len(move.cells) == BONUS else ""
            return f"{move.combo.capitalize()} {len(move.cells)}{bonus}: {_cells_text(move.cells)} ({values})"
        if move.kind == "pass":
            return "No combo this turn"
        if move.kind == "slide":
            slot = LETTERS.index(move.letter)
            return f"Slide tile {move.letter} ({state.blocks[slot]}, notch {state.notches[slot]} → " \
                   f"{'GO!' if state.notches[slot] + 1 >= GO else state.notches[slot] + 1})"
        if move.kind == "star":
            return f"★ = {move.value}"
        if move.kind == "write":
            return f"Write your number in {cell_name(move.cells[0])}"
        return format_move(move)

    def menu_groups(self, state: BlockState, seat: int, move: Move) -> tuple[str, ...]:
        """Drops: (shape when the die shows ★,) orientation, column, then the order of the values.
        Combos: by type and size."""
        if move.kind == "drop":
            # (by shape, orientation, column and whether the shape is chosen: a turn lists up to 2,520 drops)
            # (whether the die lets the player choose the shape: len(Block.shapes_allowed(state)) > 1, read here
            # from the die itself, as it is asked of every drop listed)
            dice = state.dice
            key = (move.shape, move.orientation, move.column, not dice or dice[4] == STAR)
            groups = _DROP_GROUPS.get(key)
            if groups is None:
                head = (f"Shape {move.shape}",) if key[3] else ()
                groups = (*head, f"{move.shape} {TURNS[move.orientation]}", f"Column {COLUMNS[move.column]}")
                if type(move.column) is int and len(_DROP_GROUPS) < _DROP_GROUPS_KEPT:
                    _DROP_GROUPS[key] = groups
            return groups
        if move.kind == "combo":
            return (f"{move.combo.capitalize()} {len(move.cells)}",)
        return ()

    def menu_groups_of(self, state: BlockState, seat: int, moves: Sequence[Move]) -> list[tuple[str, ...]]:
        """``[menu_groups(state, seat, m) for m in moves]``. A seat's drops as its step lists them (the very moves
        its grid keeps, :meth:`Block.kept_drops`) have their groups kept beside them, worked out once per grid, shapes
        and values: a menu's top level asks them of up to 2,520 drops, at every position of the turn."""
        if moves and self.game.step(state, seat) == "drop":
            derived, key = self.game.kept_drops(state, seat)
            listed = derived.memo.get(key)
            if listed is not None and len(listed) == len(moves) and all(map(operator.is_, moves, listed)):
                kept = ("drop groups", *key[1:])  # (the shapes decide whether the shape is a group: see menu_groups)
                groups = derived.memo.get(kept)
                if groups is None:
                    groups = derived.memo[kept] = tuple([self.menu_groups(state, seat, m) for m in listed])
                return list(groups)
        return [self.menu_groups(state, seat, m) for m in moves]

    def status_line(self, state: BlockState) -> str:
        if state.phase == OVER:
            return ""
        waiting = sorted(self.game.to_act(state))
        head = "Everyone writes their number in their bottom row." if state.phase == SETUP else \
            f"Turn {state.turn}: {self.game.dice_text(state)}."
        if state.penalty:
            head += f" BLOCK {state.penalty} drops!"
        return head + " Waiting for " + ", ".join("{p%d}" % p for p in waiting) + "."

    def alt_text(self, view: BlockView, names: Sequence[str]) -> str:
        parts = [f"BLOCK, turn {view['turn']}."]
        if view["dice"]:
            dice = ["★" if d == "*" else str(d) for d in view["dice"]]
            parts.append(f"Dice: {' '.join(dice[:4])}, shape {dice[4]}.")
        for p, pl in enumerate(view["players"]):
            name = names[p] if p < len(names) else f"Player {p + 1}"
            filled = sum(1 for row in pl["grid"] for c in row if c is not None)
            combos = ", ".join(f"{c['type']} {c['size']}" for c in pl["combos"]) or "no combos"
            parts.append(f"{name}: {plural(pl['score'], 'point')}, {plural(filled, 'cell')} filled, {combos}"
                         + (", waiting" if pl["waiting"] else "") + ".")
        return " ".join(parts)

    def idle_note(self, state: BlockState, seat: int) -> str:
        if state.phase != OVER and not self.game.step(state, seat) and _protected(state, seat):
            return f"BLOCK {state.penalty} drops on the others: you circled {state.penalty}, so you are protected."
        return ""
