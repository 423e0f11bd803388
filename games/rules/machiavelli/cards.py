"""Card codes for Machiavelli: the wire uses strings, the meld logic small integers.

A card's code is `suit * 13 + (rank - 1)` with suits `S H D C` = 0..3 and ranks `A`=1 .. `K`=13, which is
also its index in one canonical pack (`games.engine.cards.french_deck()`), so sorting codes sorts cards in
the canonical order. Runs use rank 14 for a high Ace (its code is the Ace's code).
"""

from __future__ import annotations

from games.engine.cards import french_deck

#: One pack in canonical order; the game uses it twice (104 cards, no jokers).
PACK: tuple[str, ...] = tuple(french_deck())
DECK: tuple[str, ...] = PACK + PACK
CARD_IDS: frozenset[str] = frozenset(PACK)

#: name -> code and code -> name.
CODE: dict[str, int] = {name: code for code, name in enumerate(PACK)}
NAME: tuple[str, ...] = PACK


def code_of(suit: int, rank: int) -> int:
    """The code of `rank` (1..14, 14 = high Ace) of `suit` (0..3)."""
    return suit * 13 + (0 if rank == 14 else rank - 1)


def sort_cards(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Cards in canonical order (suits S H D C, each A..K): how hands are kept."""
    return tuple(sorted(cards, key=CODE.__getitem__))
