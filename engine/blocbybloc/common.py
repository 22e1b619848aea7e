"""What every part of Bloc by Bloc's rules uses: factions and districts in words, events, paying a die or a card,
drawing loot cards, and the sets of cards a hand can give."""

from __future__ import annotations

from collections.abc import Sequence

from engine.base import Event
from engine.blocbybloc.city import TILES, cell_name
from engine.blocbybloc.model import FACTIONS, BlocState, Pending
from engine.blocbybloc.moves import MOLOTOVS
from engine.rng import Rng


def named(f: int) -> str:
    """A faction's name (``Workers``…), as events and prompts write it."""
    return FACTIONS[f]


def submultisets(cards: list[str]) -> list[tuple[str, ...]]:
    """Every sub-multiset of the Molotovs in ``cards`` (sorted tuples), the empty one first."""
    return [(), *combos([c for c in cards if c in MOLOTOVS])]


def holds(hand: list[str], cards: Sequence[str]) -> bool:
    """Whether ``hand`` holds every one of ``cards`` (as many of each as named)."""
    return all(hand.count(c) >= list(cards).count(c) for c in set(cards))


def combos(cards: list[str], size: int = 0) -> list[tuple[str, ...]]:
    """The different sets of cards one may take from ``cards`` (sorted tuples): all non-empty ones, or those of
    ``size`` cards."""
    counts = {c: cards.count(c) for c in sorted(set(cards))}
    out: list[tuple[str, ...]] = [()]
    for card, k in counts.items():
        out = [prev + (card,) * i for prev in out for i in range(k + 1)]
    return sorted((c for c in out if (len(c) == size if size else c)), key=lambda c: (len(c), c))


def say(events: list[Event], state: BlocState, kind: str, text: str, f: int | None = None) -> None:
    """Add an event told as faction ``f``'s seat's (``None``: the game's own)."""
    seat = state.controller[f] if f is not None else None
    events.append(Event(kind, seat, text))


def district_name(state: BlocState, cell: int) -> str:
    """A district in words: its tile's name and its cell, ``Interior Ministry (B1)``."""
    return f"{TILES[state.tiles[cell]].name} ({cell_name(cell)})"


def occ(state: BlocState, f: int, kind: str) -> tuple[int, int]:
    """(the cell of f's occupation ``kind`` or -1, its uses per turn: 2 liberated, 1, 0 if not built)."""
    cell = state.occupation_cell(f, kind)
    return cell, (0 if cell < 0 else 2 if state.liberated[cell] else 1)


def left(state: BlocState, f: int, kind: str) -> int:
    return occ(state, f, kind)[1] - state.used.get(kind, 0)


def spend(state: BlocState, f: int, die: int) -> None:
    if die > 0:
        state.dice.remove(die)
    elif state.free_moves[f] > 0:
        state.free_moves[f] -= 1
    else:
        state.used["center"] = state.used.get("center", 0) + 1


def play_card(state: BlocState, f: int, card: str) -> None:
    state.hands[f].remove(card)
    state.loot_discard.append(card)


def draw_loot(state: BlocState, f: int, n: int, rng: Rng, into_hand: bool = True) -> list[str]:
    """Draw ``n`` loot cards (fewer if both piles run out), reshuffling the discard pile as the cards part
    says; into ``f``'s hand unless ``into_hand`` is false (a keep decision holds them)."""
    got = []
    for _ in range(n):
        if not state.loot_deck:
            state.loot_deck, state.loot_discard = state.loot_discard, []
            rng.shuffle(state.loot_deck)
        if not state.loot_deck:
            break
        got.append(state.loot_deck.pop())
        if not state.loot_deck and state.loot_discard:
            state.loot_deck, state.loot_discard = state.loot_discard, []
            rng.shuffle(state.loot_deck)
    if into_hand:
        state.hands[f] += got
    return got


def draw_keep(state: BlocState, f: int, draw: int, keep: int, source: str, events: list[Event], rng: Rng) -> None:
    got = draw_loot(state, f, draw, rng, into_hand=False)
    say(events, state, "draw", f"{named(f)} draw {len(got)} loot card{'s' if len(got) != 1 else ''} "
        f"({source}), keeping {min(keep, len(got))}.", f)
    if len(got) > keep:
        state.pending.insert(0, Pending("keep", f, cards=got))
    else:
        state.hands[f] += got
