"""Breaks' words for players: the lobby's summary and tip, move labels, the status line and the board in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.breaks.cards import short, spoken
from engine.breaks.game import FINAL, OVER, BreaksState, Move, _cards
from engine.breaks.view import BreaksView
from engine.text import GameText


class BreaksText(GameText[BreaksState, Move, BreaksView]):
    summary = "Build five-card sequences by matching suit or rank; steal with court cards."

    def advice(self, seats: int, options: Mapping[str, Any]) -> str:
        if seats >= 4 and options.get("decks") == 1:
            return "With four players one deck makes only about nine stacks in all: consider `decks=2`."
        return ""

    def describe_move(self, state: BreaksState, seat: int, move: Move) -> str:
        mine = state.slots[seat]
        card = short(state.pending) if state.pending else ""
        if move.kind == "draw":
            if state.draw:
                return f"Draw a card ({len(state.draw)} in the pile)"
            return "Draw a card (the discard pile is reshuffled first)"
        if move.kind == "discard":
            return f"Discard {card}"
        if move.kind == "done":
            return "Done merging"
        if move.kind == "place":
            if mine[move.slot]:
                return f"Place {card} on the {short(mine[move.slot][-1])} in slot {move.slot + 1}"
            return f"Place {card} in the empty slot {move.slot + 1}"
        if move.kind == "merge":
            return (f"Merge slot {move.slot + 1} ({_cards(len(mine[move.slot]))}) onto slot {move.target + 1} "
                    f"({_cards(len(mine[move.target]))})")
        theirs = state.slots[move.player][move.slot]
        return (f"Break P{move.player + 1}'s slot {move.slot + 1} ({_cards(len(theirs))}) with {card}, "
                f"onto your slot {move.target + 1}")

    def status_line(self, state: BreaksState) -> str:
        if state.phase == OVER:
            return "Game over."
        if state.phase == FINAL:
            return "Final merge round: {p%d} may merge, then `done`." % state.final_queue[0]
        if state.pending:
            return "{p%d} drew a card and must place, break or discard it." % state.turn  # (read by everyone)
        return "{p%d} to play: draw or merge." % state.turn

    def private_words(self, state: BreaksState, seat: int) -> str:
        """The card ``seat`` drew and has not placed, and its own discards in the face-down pile (newest first)."""
        parts = []
        if state.pending is not None and state.turn == seat:
            parts.append(f"You drew the {spoken(state.pending)} (only you see it until you place it).")
        mine = [c for c, by in zip(state.discard, state.discarded_by, strict=True) if by == seat]
        if mine:
            parts.append("Your discards in the face-down pile, newest first: "
                         + ", ".join(spoken(c) for c in reversed(mine)) + ".")
        return " ".join(parts)

    def alt_text(self, view: BreaksView, names: Sequence[str]) -> str:
        parts = []
        for p, pl in enumerate(view["players"]):
            seqs = []
            for i, seq in enumerate(pl["slots"]):
                seqs.append(f"slot {i + 1} " + (", ".join(spoken(c) for c in seq) if seq else "empty"))
            points, stacks = pl["score"], len(pl["stacks"])
            parts.append(f"{names[p]}: {points} point{'s' * (points != 1)}, {stacks} stack{'s' * (stacks != 1)}; "
                         + "; ".join(seqs) + ".")
        piles = f"Draw pile {_cards(view['draw_pile'])}, discard pile {_cards(view['discard_pile'])} face down."
        if view["my_discards"]:
            piles += " Your discards there: " + ", ".join(spoken(c) for c in view["my_discards"]) + "."
        if view["pending"]:
            piles += f" Card in hand: {spoken(view['pending'])}."
        elif view["pending_seat"] is not None:
            piles += f" {names[view['pending_seat']]} holds a card just drawn."
        return "Breaks. " + " ".join(parts) + " " + piles
