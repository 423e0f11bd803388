"""Dealing a deal: the recorded shuffle, the packets of five, the dealer's peek, the rest of the deal.

Counter-clockwise = increasing seat numbers. Round r (0..2) gives d[20r+5k .. 20r+5k+4] to the k-th
player from `next(dealer)`; the last 3 cards d[60..62] are the monte and d[62] is shown to the dealer.
Each seat receives its round-1 packet as one secret event and, after the stata round, its two packets of
rounds 2 and 3 as a second one.
"""

from __future__ import annotations

from games.engine.chance import shuffle_event
from games.engine.protocol import Event, Rng
from games.engine.tricks import deal_packets, next_seat, rotation

from .cards import DECK
from .state import PLAYERS, STATA

PACKET = 5


def phase_event(phase: str, turn: int) -> Event:
    return Event("phase", {"phase": phase, "turn": turn})


def _deal_events(cards: list[str], dealer: int, rounds: list[int]) -> list[Event]:
    order = rotation(next_seat(dealer, PLAYERS), PLAYERS)
    packets = deal_packets(cards, [(seat, PACKET) for _ in rounds for seat in order])
    return [
        Event(
            "deal",
            {"seat": seat, "rounds": rounds, "cards": packets[seat]},
            public={"seat": seat, "rounds": rounds, "count": len(packets[seat])},
            visible_to=frozenset({seat}),
        )
        for seat in order
    ]


def start_deal_events(deal_no: int, dealer: int, rng: Rng) -> list[Event]:
    """Shuffle the 63 cards (canonical order `DECK`), deal the first packets, let the dealer peek."""
    shuffle, order = shuffle_event(rng, list(DECK), f"deal:{deal_no}")  # type: ignore[arg-type]
    events = [shuffle, *_deal_events(order[:20], dealer, [1])]
    events.append(
        Event("peek", {"seat": dealer, "card": order[-1]}, public={"seat": dealer}, visible_to=frozenset({dealer}))
    )
    events.append(phase_event(STATA, next_seat(dealer, PLAYERS)))
    return events


def rest_of_deal_events(stock: tuple[str, ...], dealer: int) -> list[Event]:
    """Rounds 2 and 3 from the 43 cards left after round 1; the last 3 stay as the monte."""
    return _deal_events(list(stock[:40]), dealer, [2, 3])


def monte_of(stock: tuple[str, ...]) -> list[str]:
    """The monte: what is left of the stock once rounds 2 and 3 are dealt."""
    return list(stock[-3:])
