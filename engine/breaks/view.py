"""What ``Breaks.view`` returns: the typed contract between the engine and ``render/breaks.py``.

Every tableau is public. Hidden are the draw order, every card in the face-down discard pile but the viewer's own
discards, and a card drawn and not yet placed, but from its drawer (``pending``).
Cards are codes such as ``"QH"`` (:mod:`engine.breaks.cards`).
"""

from typing import TypedDict

from engine.base import ResultView


class BreaksOptions(TypedDict):
    decks: int
    jokers: bool
    aces_wild: bool
    scoring: str  # "standard" | "court"
    recycles: int
    tiebreak: str  # "none" | "cards_left"


class BreaksLast(TypedDict):
    """What the last move touched, for the picture's highlights."""

    seat: int
    move: str  # its notation
    card: str | None  # the card it played, or drew or discarded (those two: None but for the seat that did it)
    touched: list[list[int]]  # [seat, slot] pairs whose sequences it changed
    stacked: list[int]  # seats that completed a stack with it


class BreaksPlayer(TypedDict):
    slots: list[list[str]]  # three sequences, bottom card first
    stacks: list[list[str]]  # completed stacks
    stack_points: list[int]  # by stack
    score: int
    cards_left: int  # in this seat's slots (the "cards left" tiebreak)


class BreaksView(TypedDict):
    game: str
    viewer: int | None
    phase: str  # "play" | "final" | "over"
    ply: int
    turn: int
    to_act: list[int]
    players: list[BreaksPlayer]
    draw_pile: int  # cards in it
    discard_pile: int
    my_discards: list[str]  # the viewer's own cards in the face-down discard pile, oldest first (public view: [])
    recycles_left: int
    pending: str | None  # the card just drawn, awaiting place, break or discard: only in its drawer's view
    pending_seat: int | None  # who drew it (public: a card is held)
    final_queue: list[int]  # the final merge round, next first
    last: BreaksLast | None
    last_said: str  # the last move in words, after its player's name ("placed the 8 of spades on slot 3"), or ""
    options: BreaksOptions
    result: ResultView | None
