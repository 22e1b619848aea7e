"""High Card: a tiny but complete game with hidden hands, used to test private views and DMs.

Each of 2–3 seats is dealt a private hand (3 cards by default) from a seeded shuffle of the
cards 1–13. Seats take turns in order, starting with seat 0; on your turn you play one card
from your hand (``play N``), face up. When every hand is empty the highest total of played
cards wins (ties share the rank); with the option ``goal`` the seats play together and all win if the cards
played reach that total, or all lose. A seat's view shows only its own hand; the public view
shows hand sizes and the played cards.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.base import (
    FORMAT_VERSION,
    Decision,
    Event,
    Game,
    NotationError,
    OptionSpec,
    Result,
    rank_by,
)
from engine.rng import Rng
from engine.text import GameText

LOW, HIGH = 1, 13


@dataclass
class HighCardState:
    seats: int
    options: dict[str, Any]
    hands: tuple[tuple[int, ...], ...]  # [seat] -> cards still held, ascending
    played: tuple[tuple[int, ...], ...]  # [seat] -> cards played, in order
    turn: int
    ply: int = 0

    @property
    def over(self) -> bool:
        return not any(self.hands)


class HighCard(Game[HighCardState, int, dict[str, Any]]):
    key = "highcard"
    name = "High Card"
    min_players = 2
    max_players = 3
    hidden_information = True
    options = (OptionSpec("cards", int, 3, "Cards dealt to each player.", (1, 2, 3)),
               OptionSpec("goal", int, 0, "Cooperative: everyone wins together if all played cards reach this "
                          "total (0: play against each other).", (0, 10, 60)))

    _RE = re.compile(r"^(?:play|p)\s+(\d{1,3})$")

    def __init__(self) -> None:
        super().__init__()
        self.text = HighCardText(self)

    # --- setup and turns ------------------------------------------------------------
    def new_game(self, seats: int, options: Mapping[str, Any], seed: int) -> HighCardState:
        self.check_seats(seats)
        opts = self.resolve_options(options)
        deck = list(range(LOW, HIGH + 1))
        Rng(seed).shuffle(deck)
        n = opts["cards"]
        hands = tuple(tuple(sorted(deck[i * n:(i + 1) * n])) for i in range(seats))
        return HighCardState(seats=seats, options=opts, hands=hands, played=((),) * seats, turn=0)

    def decisions(self, state: HighCardState) -> tuple[Decision, ...]:
        if state.over:
            return ()
        return (Decision(state.turn, "play", "It's your turn.", private=True),)

    def legal_moves(self, state: HighCardState, seat: int) -> list[int]:
        if seat not in self.to_act(state):
            return []
        return list(state.hands[seat])

    def why_illegal(self, state: HighCardState, seat: int, move: int) -> str:
        return f"You don't hold a {move}; your hand is {', '.join(map(str, state.hands[seat]))}."

    def clone(self, state: HighCardState) -> HighCardState:
        return HighCardState(state.seats, state.options, state.hands, state.played, state.turn, state.ply)

    def perform(self, state: HighCardState, seat: int, move: int, events: list[Event]) -> None:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in state.hands[seat] if c != move)
        played = list(state.played)
        played[seat] = played[seat] + (move,)
        state.hands, state.played = tuple(hands), tuple(played)
        state.turn, state.ply = (seat + 1) % state.seats, state.ply + 1
        events.append(Event("play", seat, "{p%d} played %d." % (seat, move), {"card": move}))
        if state.over:
            events.append(Event("over", None, "Game over."))

    # --- result -------------------------------------------------------------------
    def scores(self, state: HighCardState) -> list[float]:
        return [float(sum(p)) for p in state.played]

    def result(self, state: HighCardState) -> Result | None:
        if not state.over:
            return None
        scores = self.scores(state)
        goal = state.options.get("goal", 0)
        if goal:
            total = sum(scores)
            won = total >= goal
            return Result(scores=tuple(float(s) for s in scores), ranks=(1,) * state.seats,
                          winners=frozenset(range(state.seats)) if won else frozenset(), cooperative=True,
                          reason=f"together {total} of {goal}: " + ("goal reached" if won else "goal missed"))
        ranks = rank_by([(s,) for s in scores])
        winners = frozenset(p for p in range(state.seats) if ranks[p] == 1)
        return Result(scores=tuple(float(s) for s in scores), ranks=ranks, winners=winners,
                      reason="highest total" if len(winners) == 1 else "tie: the win is shared")

    # --- notation -----------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        m = self._RE.match(" ".join(text.strip().lower().split()))
        if not m:
            raise NotationError(f"I don't understand `{text.strip()[:40]}`. Moves look like `play 7`.")
        card = int(m.group(1))
        if not LOW <= card <= HIGH:
            raise NotationError(f"There is no card {card}; cards run from {LOW} to {HIGH}.")
        return card

    def format_move(self, move: int) -> str:
        return f"play {move}"

    # --- views --------------------------------------------------------------------
    def view(self, state: HighCardState, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            # Only what this seat knows privately; the table shows everything else.
            return {"game": self.key, "viewer": seat, "hand": list(state.hands[seat]),
                    "your_turn": seat in self.to_act(state)}
        res = self.result(state)
        return {
            "game": self.key,
            "viewer": None,
            "ply": state.ply,
            "to_act": sorted(self.to_act(state)),
            "hand_sizes": [len(h) for h in state.hands],
            "played": [list(p) for p in state.played],
            "result": res.to_json() if res else None,
        }

    # --- persistence --------------------------------------------------------------
    def dump(self, state: HighCardState) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": self.key,
            "seats": state.seats,
            "options": dict(state.options),
            "hands": [list(h) for h in state.hands],
            "played": [list(p) for p in state.played],
            "turn": state.turn,
            "ply": state.ply,
        }

    def load(self, data: Mapping[str, Any]) -> HighCardState:
        if data.get("game") != self.key or data.get("format") != FORMAT_VERSION:
            raise ValueError(f"not a High Card state of format {FORMAT_VERSION}")
        return HighCardState(
            seats=data["seats"],
            options=dict(data["options"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            played=tuple(tuple(p) for p in data["played"]),
            turn=data["turn"],
            ply=data["ply"],
        )


class HighCardText(GameText[HighCardState, int, dict[str, Any]]):
    """High Card's words for players."""

    summary = "Play your cards one at a time; the highest total wins."

    def describe_move(self, state: HighCardState, seat: int, move: int) -> str:
        return f"Play your {move}"

    def status_line(self, state: HighCardState) -> str:
        if state.over:
            return "Game over."
        return "{p%d} to play (%d cards in hand)." % (state.turn, len(state.hands[state.turn]))

    def alt_text(self, view: Mapping[str, Any], names: Sequence[str]) -> str:
        if view["viewer"] is not None:
            return "Your hand: " + (", ".join(map(str, view["hand"])) or "empty") + "."
        parts = [f"{names[p]}: played {', '.join(map(str, cards)) or 'nothing'}, {view['hand_sizes'][p]} in hand."
                 for p, cards in enumerate(view["played"])]
        return "High Card. " + " ".join(parts)
