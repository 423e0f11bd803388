"""Drawing from the stock (with the recycling of completed piles), at set-up, mid-turn and between turns.

Both games draw through `draw`; the variant says when completed piles come back (below a fixed stock
size, or when the stock cannot cover the draw; at the draw that finds the stock short, or as soon as it is
short) and how (reshuffled with the stock, or put under it).
"""

from __future__ import annotations

from games.engine.chance import shuffle_event
from games.engine.protocol import Event, Rng
from games.engine.shared import SharedDict
from games.engine.values import new
from games.rules.patience.evolve import evolve
from games.rules.patience.state import HAND_SIZE, SEATS, Table
from games.rules.patience.variant import Variant

#: Who sees a seat's drawn cards: that seat only.
_ONLY = (frozenset((0,)), frozenset((1,)))
#: What the others see of a draw, the same few values again and again, so built once and shared (read-only):
#: [reason][seat][cards drawn]. A draw never takes more than a hand.
_DRAWN: dict[str, tuple[tuple[SharedDict, ...], ...]] = {
    reason: tuple(tuple(SharedDict(seat=seat, count=count, reason=reason) for count in range(HAND_SIZE + 1))
                  for seat in range(SEATS))
    for reason in ("refill", "turn_start", "empty_hand")
}


def draw(variant: Variant, table: Table, seat: int, count: int, rng: Rng, reason: str,
         events: list[Event]) -> list[Event]:
    """Draw up to `count` cards for `seat`, recycling completed piles first when the variant says so; the
    events go at the end of `events` (the ones before them), which is returned.

    Only the stock and the completed piles of `table` are read: a caller may pass the table before an
    action that changes neither (a discard, an end_turn).
    """
    threshold = count if variant.recycle_below is None else variant.recycle_below
    stock, completed = table.stock, table.completed
    if completed and len(stock) < threshold:
        if variant.recycle_with_stock:
            event, _ = shuffle_event(rng, list(stock) + list(completed), "recycle")
        else:
            event, _ = shuffle_event(rng, list(completed), "recycle_under")
        events.append(event)
        stock, completed = evolve(table, event).stock, ()
    taken = stock[:count]
    if taken:
        # built positionally (`new`, field order): a draw ends most turns
        events.append(new(Event, ("draw", {"seat": seat, "cards": [*taken], "reason": reason},
                                  _DRAWN[reason][seat][len(taken)], _ONLY[seat], None)))
        if variant.recycle_at_once and completed and len(stock) - len(taken) < threshold:
            events.append(recycle_event(stock[len(taken):], completed, rng))
    return events


def recycle_event(stock: tuple[str, ...], completed: tuple[str, ...], rng: Rng) -> Event:
    """The reshuffle of the stock (top first) and the completed cards into a new stock."""
    return shuffle_event(rng, [*stock, *completed], "recycle")[0]


def recycle_at_once(variant: Variant, table: Table, rng: Rng, events: list[Event]) -> list[Event]:
    """After a completed pile (`table` includes it): the reshuffle if the variant recycles as soon as the stock
    is short (rules that wait for the next draw have nothing to do here); the events go at the end of
    `events`, which is returned."""
    if variant.recycle_at_once and table.completed and len(table.stock) < variant.recycle_below:
        events.append(recycle_event(table.stock, table.completed, rng))
    return events


def fill_hand(variant: Variant, table: Table, seat: int, held: int, rng: Rng, reason: str,
              events: list[Event]) -> list[Event]:
    """Draw until the hand of `seat`, now holding `held` cards, holds five (or the stock runs dry); the
    events go at the end of `events`, which is returned."""
    need = HAND_SIZE - held
    return draw(variant, table, seat, need, rng, reason, events) if need > 0 else events

