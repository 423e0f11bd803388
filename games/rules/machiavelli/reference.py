"""Machiavelli's moves read straight from docs/rules/machiavelli.md ("The game in short", "Submitting a
meld"), for comparison with the fast engine (tests/engines/test_reference_moves.py). Plain code, the acting
seat's view as its only input.

A meld submits the whole new table, so the legal melds of a position can be astronomically many: this
module does not list them. It offers what can be listed (`simple_actions`: draw or pass; `simple_melds`: one
new group from the hand, or one hand card added to one table group, leaving the rest untouched) and a
validator (`meld_is_legal`) that says whether any proposed table is a legal meld.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "SHDC"


def rank(card: str) -> int:
    """A 1 … K 13."""
    return RANKS.index(card[:-1]) + 1


def suit(card: str) -> str:
    return card[-1]


def is_set(group: list[str]) -> bool:
    """3 or 4 cards of one rank, of different suits."""
    return 3 <= len(group) <= 4 and len({rank(c) for c in group}) == 1 and len({suit(c) for c in group}) == len(group)


def is_run(group: list[str]) -> bool:
    """3 or more cards of one suit in sequence in A 2 … K A: the Ace low or high, never wrapping (K A 2); the
    14 cards A 2 … K A are a run."""
    if len(group) < 3 or len({suit(c) for c in group}) != 1:
        return False
    ranks = sorted(rank(c) for c in group)
    if len(group) == 14:
        return ranks == [1, 1, *range(2, 14)]
    if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
        return True  # the Ace (if any) low
    if ranks[0] == 1:  # the Ace high: A counts as 14
        high = sorted([*ranks[1:], 14])
        return high == list(range(high[0], high[0] + len(high)))
    return False


def is_meld(group: list[str]) -> bool:
    return is_set(group) or is_run(group)


def meld_is_legal(view: dict, table: list[list[str]]) -> bool:
    """Is `table`, submitted as the whole new table, a legal meld for the viewer? Every card already on the
    table stays (regrouped freely), at least one hand card is added, the added cards are in the hand (two
    packs: as a multiset), and every group is a set or a run."""
    before = Counter(card for group in view["table"] for card in group)
    after = Counter(card for group in table for card in group)
    if before - after:  # a table card is missing
        return False
    added = after - before
    if not added or added - Counter(view["hand"]):
        return False
    return all(is_meld(list(group)) for group in table)


def simple_actions(view: dict, seat: int) -> list[dict[str, Any]]:
    """The moves that are not melds: the opening's forced draw; later draw, or pass on an empty stock."""
    if view["over"] or view["turn"] != seat:
        return []
    if view["opening"] or view["stock"] > 0:
        return [{"type": "draw"}]
    return [{"type": "pass"}]


def simple_melds(view: dict, seat: int) -> list[list[list[str]]]:
    """Legal melds that touch the table least: a new set or run of 3 to 5 hand cards, or one hand card added
    to one group of the table; every other group stays as it is. A small, listable part of all legal melds."""
    if view["over"] or view["turn"] != seat or view["opening"]:
        return []
    table = [list(group) for group in view["table"]]
    hand = sorted(set(view["hand"]))
    found = []
    for size in (3, 4, 5):
        for cards in combinations(hand, size):
            if is_meld(list(cards)):
                found.append([*table, list(cards)])
    for index, group in enumerate(table):
        for card in hand:
            if is_meld([*group, card]):
                found.append([*table[:index], [*group, card], *table[index + 1:]])
    return found
