"""The set-up facts of the match and of every hand: first dealer, shuffle, packets, blinde, turn-up.

One shuffle per hand covers the 40 cards of `CANONICAL` (suits S H D C, each A 2 3 4 5 6 7 J Q K), which
the shuffle first sorts (`games.engine.chance`); index 0 of the shuffled list is the top card. MU-1:
packets of five go clockwise from `next(dealer)` to the player on the dealer's right, then the blinde,
then the dealer; the next card is the turn-up; the rest of the deck is not used this hand.
"""

from __future__ import annotations

from games.engine.chance import shuffle_event
from games.engine.protocol import Event, Rng
from games.rules.muscio.events import BLINDE_PUBLIC, DEALT_PUBLIC, ONLY, TURN_UP, hand_started
from games.rules.muscio.state import CANONICAL, HAND_SIZE

_NOBODY: frozenset[int] = frozenset()
#: The cards each shuffle covers, handed over already sorted: the shuffle's own sort then costs little.
_DECK = tuple(sorted(CANONICAL))


def match_events(players: int, first_dealer: int | None, max_hands: int, rng: Rng) -> list[Event]:
    """The match's opening: the first dealer (drawn with the rng unless fixed), then the first hand."""
    drawn = first_dealer is None
    dealer = rng.randbelow(players, "first_dealer") if first_dealer is None else first_dealer
    opening = Event("match_started", {"players": players, "dealer": dealer, "drawn": drawn, "max_hands": max_hands})
    return [opening, *hand_events(players, dealer, 1, rng)]


def hand_events(players: int, dealer: int, hand_no: int, rng: Rng) -> list[Event]:
    """Shuffle and deal hand `hand_no`: one secret event per hand, the secret blinde, the public turn-up.

    Dealt from the top in packets of five: the players from next(dealer) round to the dealer's right,
    the blinde, the dealer, then the turn-up (one card). The others learn only who got a packet of five.
    """
    shuffle, order = shuffle_event(rng, list(_DECK), f"hand:{hand_no}")
    events = [hand_started(hand_no, dealer), shuffle]
    top = 0
    for k in range(1, players):
        seat = (dealer + k) % players
        events.append(Event("dealt", {"seat": seat, "cards": order[top : top + HAND_SIZE]}, DEALT_PUBLIC[seat],
                                ONLY[seat], None))
        top += HAND_SIZE
    events.append(Event("blinde_dealt", {"cards": order[top : top + HAND_SIZE]}, BLINDE_PUBLIC, _NOBODY, None))
    top += HAND_SIZE
    events.append(Event("dealt", {"seat": dealer, "cards": order[top : top + HAND_SIZE]}, DEALT_PUBLIC[dealer],
                            ONLY[dealer], None))
    events.append(TURN_UP[order[top + HAND_SIZE]])
    return events
