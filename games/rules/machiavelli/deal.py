"""Setting up the match and each deal (machiavelli.md §3): the only place that shuffles.

Each deal shuffles the 104 cards once. Canonical input order (for `decks`): the canonical 52-card pack
(suits S H D C, each A..K) twice. The shuffled list is dealt one card at a time, index 0 first, to
`next(dealer)`, then clockwise, 13 rounds; what remains is the stock, its first card on top.
"""

from __future__ import annotations

from typing import Any

from games.engine.chance import shuffle_event
from games.engine.protocol import Event, InvalidOptions, Rng
from games.rules.machiavelli.cards import DECK

HAND_SIZE = 13


def start_events(seats: int, options: dict[str, Any], rng: Rng) -> list[Event]:
    """The match set-up: options, the first dealer (drawn unless fixed), and the first deal."""
    fixed = options.get("first_dealer")
    if fixed is not None and not 0 <= fixed < seats:
        raise InvalidOptions(f"first_dealer must be a seat between 0 and {seats - 1}")
    events = [Event("setup", {"seats": seats, "options": dict(options)})]
    if fixed is None:
        dealer, source = rng.randbelow(seats, "first_dealer"), "seed"
    else:
        dealer, source = fixed, "option"
    events.append(Event("first_dealer", {"seat": dealer, "source": source}))
    events.extend(deal_events(seats, 1, dealer, rng))
    return events


def deal_events(seats: int, deal_no: int, dealer: int, rng: Rng) -> list[Event]:
    """Start deal `deal_no`: announce it, shuffle, and give each seat its 13 cards (one event each)."""
    events = [Event("deal_start", {"deal": deal_no, "dealer": dealer})]
    shuffle, order = shuffle_event(rng, list(DECK), f"deal:{deal_no}")
    events.append(shuffle)
    for offset in range(seats):
        seat = (dealer + 1 + offset) % seats
        cards = order[offset : offset + seats * HAND_SIZE : seats]
        events.append(
            Event(
                "deal_hand",
                {"seat": seat, "cards": cards},
                public={"seat": seat, "count": len(cards)},
                visible_to=frozenset({seat}),
            )
        )
    return events
