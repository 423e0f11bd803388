"""The set-up facts of the match and of every hand: first dealer, shuffle, packets, blinde, turn-up.

One shuffle per hand covers the 40 cards in `CANONICAL` order (suits S H D C, each A 2 3 4 5 6 7 J Q K);
index 0 of the shuffled list is the top card. MU-1: packets of five go clockwise from `next(dealer)` to
the player on the dealer's right, then the blinde, then the dealer; the next card is the turn-up; the
rest of the deck is not used this hand.
"""

from __future__ import annotations

from games.engine.chance import shuffle_event
from games.engine.fast import fast_constructor
from games.engine.protocol import Event, Rng
from games.rules.muscio.state import CANONICAL, HAND_SIZE

#: `Event(type, data, public, visible_to, actor)` without the frozen dataclass's slow `__init__`.
new_event = fast_constructor(Event)
#: `frozenset({seat})` per seat, built once (frozensets are immutable, so sharing them is safe).
ONLY = tuple(frozenset({seat}) for seat in range(6))
_NOBODY: frozenset[int] = frozenset()


def match_events(players: int, first_dealer: int | None, max_hands: int, rng: Rng) -> list[Event]:
    """The match's opening: the first dealer (drawn with the rng unless fixed), then the first hand."""
    drawn = first_dealer is None
    dealer = rng.randbelow(players, "first_dealer") if first_dealer is None else first_dealer
    opening = Event("match_started", {"players": players, "dealer": dealer, "drawn": drawn, "max_hands": max_hands})
    return [opening, *hand_events(players, dealer, 1, rng)]


def hand_events(players: int, dealer: int, hand_no: int, rng: Rng) -> list[Event]:
    """Shuffle and deal hand `hand_no`: one secret event per hand, the secret blinde, the public turn-up.

    Dealt from the top in packets of five: the players from next(dealer) round to the dealer's right,
    the blinde, the dealer, then the turn-up (one card).
    """
    shuffle, order = shuffle_event(rng, list(CANONICAL), f"hand:{hand_no}")
    events = [new_event("hand_started", {"hand": hand_no, "dealer": dealer}, None, None, None), shuffle]
    top = 0
    for k in range(1, players):
        events.append(_dealt((dealer + k) % players, order[top : top + HAND_SIZE]))
        top += HAND_SIZE
    blinde = order[top : top + HAND_SIZE]
    events.append(new_event("blinde_dealt", {"cards": blinde}, {"count": HAND_SIZE}, _NOBODY, None))
    top += HAND_SIZE
    events.append(_dealt(dealer, order[top : top + HAND_SIZE]))
    card = order[top + HAND_SIZE]
    events.append(new_event("turn_up", {"card": card, "trump": card[1]}, None, None, None))
    return events


def _dealt(seat: int, cards: list[str]) -> Event:
    return new_event("dealt", {"seat": seat, "cards": cards}, {"seat": seat, "count": len(cards)}, ONLY[seat], None)
