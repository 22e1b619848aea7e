"""Breaker Blocks' words for players: the lobby's summary, move labels and menu groups, the board in words and the
status line."""

from __future__ import annotations

from collections.abc import Sequence

from engine.breakerblocks.board import CIRCUITS, CORE, cell_name, is_module
from engine.breakerblocks.game import ACTIONS, MODULE, OVER, PROMPTS, BreakerBlocks, BreakerState, Move
from engine.breakerblocks.view import BreakerView
from engine.text import GameText


class BreakerBlocksText(GameText[BreakerState, Move, BreakerView]):
    summary = "Two players plug power blocks into a shared Circuit Core; control more circuits to win."
    game: BreakerBlocks

    def describe_move(self, state: BreakerState, seat: int, move: Move) -> str:
        s = state
        name = {MODULE: "a face-down module"}.get(move.block, move.block.upper() if is_module(move.block)
                                                   else move.block)
        if move.kind == "draw":
            return f"Draw {name}"
        if move.kind == "play":
            return f"Play {name} at {self._where(s, seat, move)}"
        if move.kind == "automate":
            return f"AUTOMATE {name} at {self._where(s, seat, move)}"
        if move.kind in ("move", "rearrange"):
            owner = seat if move.kind == "move" else 1 - seat
            placed = s.board[move.source]
            kind = placed.kind if placed else "?"
            whose = "" if move.kind == "move" else f"P{owner + 1}'s "
            return f"Move {whose}{kind} from {cell_name(move.source)} to {self._where(s, owner, move)}"
        if move.kind in ("destroy", "return"):
            placed = s.board[move.cell]
            assert placed is not None
            verb = "Destroy" if move.kind == "destroy" else "Return"
            return f"{verb} P{placed.owner + 1}'s {placed.kind} at {cell_name(move.cell)}"
        if move.kind == "take":
            return f"Take {name}"
        if move.kind == "keep":
            if move.block.startswith(MODULE) and move.block != MODULE:  # Blind Action: the holder sees which
                mods = [k for k in s.hands[seat] if is_module(k)]
                return f"Keep your {mods[int(move.block[len(MODULE):]) - 1].upper()}"
            return f"Keep {name}"
        if move.kind == "stop":
            return "Stop here"
        return "End your turn"

    def _where(self, s: BreakerState, owner: int, move: Move) -> str:
        """Where a placed block would go, in words: the cell, what it plugs into, its circuit."""
        lifted = move.source if move.kind in ("move", "rearrange") else -1
        parent = self.game._parent(s, owner, move.cell, move.parent, lifted)
        circuit = CIRCUITS[CORE[parent]] if parent in CORE else CIRCUITS[self.game.circuit_of(s, parent)]
        into = "the core" if parent in CORE else cell_name(parent)
        return f"{cell_name(move.cell)} (into {into}, circuit {circuit})"

    def menu_groups(self, state: BreakerState, seat: int, move: Move) -> tuple[str, ...]:
        """Draw / play (then the block) / move (then the block), so that each step is one short list."""
        if move.kind == "draw":
            return ("Draw a block",)
        if move.kind in ("play", "automate"):
            head = ("Play a block",) if move.kind == "play" else ()
            return (*head, f"{move.block.upper() if is_module(move.block) else move.block}")
        if move.kind in ("move", "rearrange"):
            placed = state.board[move.source]
            head = ("Move a block",) if move.kind == "move" else ()
            return (*head, f"{placed.kind if placed else '?'} at {cell_name(move.source)}")
        return ()

    def status_line(self, state: BreakerState) -> str:
        if state.phase == OVER:
            return "Game over."
        if state.pending:
            return "{p%d}: %s" % (state.turn, PROMPTS[state.pending[0].kind])
        left = "2 actions" if state.actions == ACTIONS else "1 action"
        return "{p%d} to play (%s left)." % (state.turn, left)

    def private_words(self, state: BreakerState, seat: int) -> str:
        """Blind Action hides the modules in one's hand: named here (the open game has nothing hidden)."""
        info = self.game.private_info(state, seat)
        if "hand" not in info:
            return ""
        modules = [k.title() for k in info["hand"] if is_module(k)]
        return "Your modules in hand: " + (", ".join(modules) or "none") + "."

    def alt_text(self, view: BreakerView, names: Sequence[str]) -> str:
        parts = [f"Breaker Blocks, round {view['round']}."]
        for i, c in enumerate(view["circuits"]):
            who = "tied" if c["controller"] is None else f"{names[c['controller']]} controls it"
            parts.append(f"Circuit {CIRCUITS[i]}: {names[0]} {c['power'][0]}, {names[1]} {c['power'][1]}, {who}.")
        for p in (0, 1):
            blocks = ", ".join(f"{b['kind']} at {b['cell']}" for b in view["blocks"] if b["owner"] == p) or "none"
            hand = ", ".join(view["hands"][p]) or "empty"
            parts.append(f"{names[p]}'s blocks: {blocks}. Hand: {hand}.")
        return " ".join(parts)
