"""Drawing from the stock (with the recycling of completed piles), at set-up, mid-turn and between turns.

Both games draw through `draw`; the variant says when completed piles come back (below a fixed stock
size, or when the stock cannot cover the draw) and how (reshuffled with the stock, or put under it).
"""

from __future__ import annotations

from games.engine.chance import shuffle_event
from games.engine.protocol import Event, Rng
from games.rules.patience.evolve import evolve
from games.rules.patience.state import HAND_SIZE, Table, make_event
from games.rules.patience.variant import Variant

#: Who sees a seat's drawn cards: that seat only.
_ONLY = (frozenset((0,)), frozenset((1,)))


def draw(variant: Variant, table: Table, seat: int, count: int, rng: Rng, reason: str) -> list[Event]:
    """Draw up to `count` cards for `seat`, recycling completed piles first when the variant says so.

    Only the stock and the completed piles of `table` are read: a caller may pass the table before an
    action that changes neither (a discard, an end_turn).
    """
    threshold = count if variant.recycle_below is None else variant.recycle_below
    events: list[Event] = []
    if table.completed and len(table.stock) < threshold:
        if variant.recycle_with_stock:
            event, _ = shuffle_event(rng, list(table.stock) + list(table.completed), "recycle")
        else:
            event, _ = shuffle_event(rng, list(table.completed), "recycle_under")
        events.append(event)
        table = evolve(table, event)
    taken = table.stock[:count]
    if taken:
        events.append(make_event("draw", {"seat": seat, "cards": [*taken], "reason": reason},
                                 {"seat": seat, "count": len(taken), "reason": reason}, _ONLY[seat], None))
    return events


def fill_hand(variant: Variant, table: Table, seat: int, held: int, rng: Rng, reason: str) -> list[Event]:
    """Draw until the hand of `seat`, now holding `held` cards, holds five (or the stock runs dry)."""
    need = HAND_SIZE - held
    return draw(variant, table, seat, need, rng, reason) if need > 0 else []


def open_turn(variant: Variant, table: Table, rng: Rng) -> list[Event]:
    """The turn of the seat to act on `table` begins: in Diavoletto it fills the hand first."""
    if not variant.draw_at_turn_start:
        return []
    seat = table.turn.current
    return fill_hand(variant, table, seat, len(table.hands[seat]), rng, "turn_start")
