"""The 63-card Sicilian tarot deck of Mineo: ids, trump names, ranking and card values.

Everything here is a constant table computed once at import, because the hot paths (legal plays, trick
winner, counting) only look cards up in dicts.
"""

from __future__ import annotations

FUG = "FUG"
SUITS: tuple[str, ...] = ("S", "B", "C", "D")
SUIT_NAMES: dict[str, str] = {"S": "spade", "B": "bastoni", "C": "coppe", "D": "denari"}
#: Suit ranks, lowest first (coins also have the 4).
SUIT_RANKS: tuple[str, ...] = ("5", "6", "7", "8", "9", "10", "F", "C", "Q", "K")
TRUMP = "T"  # pseudo-suit of the trumps
FOOL = "X"  # pseudo-suit of the Fuggitivo

#: Seed names of the trumps, T0..T20.
TRUMP_NAMES: dict[str, str] = {
    "T20": "Giove", "T19": "La Palla", "T18": "Il Sole", "T17": "La Luna", "T16": "La Stella",
    "T15": "La Torre", "T14": "La Nave", "T13": "La Morte", "T12": "L'Eremita", "T11": "L'Impiccato",
    "T10": "Ruota della Fortuna", "T9": "Il Carro", "T8": "Gli Amanti", "T7": "La Giustizia",
    "T6": "La Forza", "T5": "La Temperanza", "T4": "La Costanza", "T3": "L'Imperatore",
    "T2": "L'Imperatrice", "T1": "I Picciotti", "T0": "La Miseria",
}


def _suit_cards(suit: str) -> list[str]:
    ranks = SUIT_RANKS[::-1] + (("4",) if suit == "D" else ())
    return [rank + suit for rank in ranks]


#: Canonical order (the input of every shuffle): swords, batons, cups, coins, each K..5 (coins ..4),
#: then the trumps T20..T0, then FUG.
DECK: tuple[str, ...] = tuple(
    [card for suit in SUITS for card in _suit_cards(suit)] + [f"T{n}" for n in range(20, -1, -1)] + [FUG]
)
CARD_IDS: frozenset[str] = frozenset(DECK)
ORDER: dict[str, int] = {card: index for index, card in enumerate(DECK)}

def _suit_of(card: str) -> str:
    if card == FUG:
        return FOOL
    return TRUMP if card[0] == "T" else card[-1]


def _strength(card: str) -> int:
    if card[0] == "T":
        return 100 + int(card[1:])
    rank = card[:-1]
    return 4 if rank == "4" else 5 + SUIT_RANKS.index(rank)


#: card -> suit letter, "T" for trumps, "X" for the Fuggitivo.
SUIT_OF: dict[str, str] = {card: _suit_of(card) for card in DECK}
#: card -> taking strength inside its suit (trumps 100 + number); the Fuggitivo has none.
STRENGTH: dict[str, int] = {card: _strength(card) for card in DECK if card != FUG}

#: Counting cards (carte speciali) and their values; every other card is a scartina.
VALUE: dict[str, int] = {
    "T20": 10, "T1": 10, FUG: 10, "T19": 5, "T18": 5, "T17": 5, "T16": 5,
    **{rank + suit: value for suit in SUITS for rank, value in (("K", 5), ("Q", 4), ("C", 3), ("F", 2))},
}

KINGS: frozenset[str] = frozenset("K" + suit for suit in SUITS)
FOUR_ARIE: frozenset[str] = frozenset({"T16", "T17", "T18", "T19"})
FIVE_ARIE: frozenset[str] = FOUR_ARIE | {"T20"}
#: Captured from the other side, each of these is a Pigliata.
PIGLIATA_CARDS: frozenset[str] = FOUR_ARIE | {"T1"}
#: Never in a discard: Kings, Arie, Picciotti, Fuggitivo.
UNDISCARDABLE: frozenset[str] = KINGS | FIVE_ARIE | {"T1", FUG}
#: Trumps a declarer may discard when short of plain cards.
DISCARDABLE_TRUMPS: frozenset[str] = frozenset(f"T{n}" for n in range(0, 16) if n != 1)
#: Trumps that may be called, highest first.
CALLABLE: tuple[str, ...] = tuple(f"T{n}" for n in range(20, 0, -1))
BIG_THREE: frozenset[str] = frozenset({"T20", "T1", FUG})


def is_plain(card: str) -> bool:
    """A card a declarer must discard first: neither trump, King nor Fuggitivo."""
    return SUIT_OF[card] in SUITS and card not in KINGS


def sort_cards(cards) -> tuple[str, ...]:
    """Cards in canonical order (how hands are kept and shown)."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


def describe(card: str) -> str:
    """A human name for messages, e.g. 'T18 (Il Sole)'."""
    name = TRUMP_NAMES.get(card)
    if name:
        return f"{card} ({name})"
    if card == FUG:
        return "FUG (il Fuggitivo)"
    return card
