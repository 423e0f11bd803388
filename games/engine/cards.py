"""Card primitives shared by the engines (ARCHITECTURE §4 notation).

Cards are plain strings (`"AS"`, `"10H"`, `"JK"`): they are what the wire carries, they hash and compare
fast, and two decks simply hold two equal strings, so hands and piles are multisets (tuples here).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

FRENCH_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKER = "JK"

#: A=1 ... K=13; jokers have no natural value.
FRENCH_VALUE: dict[str, int] = {
    rank + suit: number for number, rank in enumerate(FRENCH_RANKS, start=1) for suit in SUITS
}


_FRENCH_PACK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in FRENCH_RANKS)


def french_deck(jokers: int = 0) -> list[str]:
    """One 52-card pack in canonical order (suits S H D C, each A..K), then `jokers` jokers.

    A fresh list of the same card strings every time (engines deal one per game: no need to rebuild them).
    """
    return list(_FRENCH_PACK) + [JOKER] * jokers


def rank_of(card: str) -> str:
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1]


def remove_cards(held: Sequence[str], cards: Iterable[str]) -> tuple[str, ...]:
    """`held` minus the multiset `cards`; raises ValueError naming a card that is not held."""
    remaining = list(held)
    for card in cards:
        try:
            remaining.remove(card)
        except ValueError:
            raise ValueError(card) from None
    return tuple(remaining)


def holds_all(held: Sequence[str], cards: Iterable[str]) -> bool:
    """True when the multiset `cards` is contained in `held`."""
    return not (Counter(cards) - Counter(held))


def card_tokens(value: object, universe: frozenset[str]) -> list[str]:
    """Every string inside a JSON value that names a card of `universe` (used by leak checks)."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in universe:
                found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return found
