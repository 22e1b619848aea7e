"""Cards for Breaks: two-character codes such as ``7H``, ``TS`` (ten), ``KD``; ``JK`` is a Joker."""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "JK"
COURT_BONUS = {"J": 1, "Q": 2, "K": 3}

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAME = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}


def make_deck(decks: int, jokers: bool) -> list[str]:
    one = [r + s for s in SUITS for r in RANKS] + ([JOKER, JOKER] if jokers else [])
    return one * decks


def is_court(card: str) -> bool:
    """Jack, Queen or King (a Joker is not a court card)."""
    return card != JOKER and card[0] in "JQK"


def is_wild(card: str, aces_wild: bool) -> bool:
    return card == JOKER or (aces_wild and card[0] == "A")


def matches(a: str, b: str, aces_wild: bool) -> bool:
    """Same suit or same rank; a wild card matches everything in both directions."""
    if a[0] == b[0] or a[1] == b[1]:  # (a Joker may "match" here by its letters: it is wild anyway)
        return True
    return a == JOKER or b == JOKER or (aces_wild and (a[0] == "A" or b[0] == "A"))


def short(card: str) -> str:
    """Compact text with a suit symbol: ``10♥``, ``K♠``, ``Joker``."""
    if card == JOKER:
        return "Joker"
    r = "10" if card[0] == "T" else card[0]
    return r + SUIT_SYMBOL[card[1]]


def spoken(card: str) -> str:
    """Words for screen readers: ``10 of hearts``, ``king of spades``, ``Joker``."""
    if card == JOKER:
        return "Joker"
    return f"{RANK_NAME.get(card[0], card[0])} of {SUIT_NAME[card[1]]}"


def court_points(cards: list[str]) -> int:
    return sum(COURT_BONUS.get(c[0], 0) for c in cards if c != JOKER)
