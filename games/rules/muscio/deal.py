"""The set-up facts of the match and of every hand: first dealer, shuffle, packets, blinde, turn-up.

One shuffle per hand covers the 40 cards in `CANONICAL` order (suits S H D C, each A 2 3 4 5 6 7 J Q K);
index 0 of the shuffled list is the top card. MU-1: packets of five go clockwise from `next(dealer)` to
the player on the dealer's right, then the blinde, then the dealer; the next card is the turn-up; the
rest of the deck is not used this hand.
"""

from __future__ import annotations

from games.engine.chance import shuffle_event
from games.engine.protocol import Event, Rng
from games.engine.tricks import deal_packets, rotation
from games.rules.muscio.state import CANONICAL, HAND_SIZE

BLINDE_KEY = -1
TURNUP_KEY = -2


def match_events(players: int, first_dealer: int | None, max_hands: int, rng: Rng) -> list[Event]:
    """The match's opening: the first dealer (drawn with the rng unless fixed), then the first hand."""
    drawn = first_dealer is None
    dealer = rng.randbelow(players, "first_dealer") if first_dealer is None else first_dealer
    opening = Event("match_started", {"players": players, "dealer": dealer, "drawn": drawn, "max_hands": max_hands})
    return [opening, *hand_events(players, dealer, 1, rng)]


def hand_events(players: int, dealer: int, hand_no: int, rng: Rng) -> list[Event]:
    """Shuffle and deal hand `hand_no`: one secret event per hand, the secret blinde, the public turn-up."""
    events = [Event("hand_started", {"hand": hand_no, "dealer": dealer})]
    shuffle, order = shuffle_event(rng, list(CANONICAL), f"hand:{hand_no}")
    events.append(shuffle)
    seats = rotation((dealer + 1) % players, players)  # next(dealer) ... dealer
    schedule: list[tuple[int, int]] = [(seat, HAND_SIZE) for seat in seats[:-1]]
    schedule += [(BLINDE_KEY, HAND_SIZE), (dealer, HAND_SIZE), (TURNUP_KEY, 1)]
    packets = deal_packets(order, schedule)
    for seat, _ in schedule:
        cards = packets[seat]
        if seat == BLINDE_KEY:
            events.append(Event("blinde_dealt", {"cards": cards}, public={"count": len(cards)},
                                visible_to=frozenset()))
        elif seat == TURNUP_KEY:
            card = cards[0]
            events.append(Event("turn_up", {"card": card, "trump": card[1]}))
        else:
            events.append(Event("dealt", {"seat": seat, "cards": cards}, public={"seat": seat, "count": len(cards)},
                                visible_to=frozenset({seat})))
    return events
