"""What makes one competitive patience differ from another, as small parameters and one hook.

Spite and Malice and Diavoletto share the table, the moves, the draw procedure, scoring and matches; they
differ in a handful of rules (how many jokers, when hands are filled, what a joker may stand for, when a
discard is optional, how completed piles come back, and which plays are compulsory). Each game package
builds one `Variant` naming its choices, and the shared code in this package asks it, never the kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games.engine.cards import FRENCH_VALUE
from games.rules.patience.state import Table

#: A play: (source "hand" | "goal" | "discard", discard row or None, card, centre pile id or "new").
Move = tuple[str, int | None, str, int | str]


@dataclass(frozen=True, slots=True)
class Obligation:
    """A compulsory play in force. `moves` None: plays stay free but the turn may not end yet."""

    code: str
    message: str
    moves: tuple[Move, ...] | None


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules one game passes to the shared patience engine.

    `obligation` is asked only while one of `obligation_cards` is in the hand or on top of the goal pile:
    elsewhere no obligation may be in force, and the usual table is answered without a call.
    """

    kind: str
    title: str
    stock_jokers: int            # jokers shuffled into the stock pack
    initial_hand: int            # cards dealt to each hand at set-up, from the top of the stock pack
    draw_at_turn_start: bool     # True: fill the hand when a turn begins; False: refill when it ends
    joker_opens: bool            # a joker may open a centre pile, standing for an Ace
    joker_min_pile: int          # the lowest pile value a joker may be put on
    end_after_move: bool         # once a card went to the centre, the turn may end without a discard
    recycle_below: int | None    # recycle when the stock holds fewer cards than this (None: than the draw needs)
    recycle_with_stock: bool     # True: stock + completed become a new stock; False: completed go under it
    obligation: Callable[[Table, int], Obligation | None]  # the compulsory play in force, if any
    obligation_cards: frozenset[str]  # the cards that can put an obligation in force (see above)
    #: True: the stock is recycled as soon as it falls below `recycle_below` (checked after every draw and every
    #: completed pile); False: only when a draw finds it short (Spite and Malice's rules version 1).
    recycle_at_once: bool = False


#: Natural cards by value range: `_IN_RANGE[low, high]` holds every card of value low..high.
_IN_RANGE: dict[tuple[int, int], frozenset[str]] = {
    (low, high): frozenset(card for card, v in FRENCH_VALUE.items() if low <= v <= high)
    for low in range(1, 14) for high in range(low, 14)
}
_OF_VALUE: dict[int, frozenset[str]] = {value: _IN_RANGE[value, value] for value in range(1, 14)}


def natural_cards(low: int, high: int) -> frozenset[str]:
    """Every natural card (no joker) of value `low` to `high`."""
    return _IN_RANGE[low, high]


def reaches(table: Table, seat: int, value: int, up_to: int | None = None) -> bool:
    """Is a natural card of `value` (or of any value up to `up_to`) in the hand or on top of the goal
    pile? (cheap: asked at every step)"""
    wanted = _OF_VALUE[value] if up_to is None else _IN_RANGE[value, up_to]
    goal = table.goals[seat]
    return not wanted.isdisjoint(table.hands[seat]) or (goal[0] in wanted if goal else False)


def in_reach(table: Table, seat: int, value: int) -> list[tuple[str, str]]:
    """(source, card) for each distinct natural card of `value` in the hand or on top of the goal pile.

    A plain loop: on a hand of five, cheaper than a comprehension over `dict.fromkeys` (asked at about one
    step in five)."""
    wanted = _OF_VALUE[value]
    found = []
    for card in table.hands[seat]:
        if card in wanted:
            move = ("hand", card)
            if move not in found:
                found.append(move)
    goal = table.goals[seat]
    if goal and goal[0] in wanted:
        found.append(("goal", goal[0]))
    return found
