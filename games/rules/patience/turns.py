"""Drawing from the stock (with the recycling of completed piles), at set-up, mid-turn and between turns.

Both games draw through `draw`; the variant says when completed piles come back (below a fixed stock
size, or when the stock cannot cover the draw) and how (reshuffled with the stock, or put under it).
"""

from __future__ import annotations

from games.engine.chance import shuffle_event
from games.engine.protocol import Rng
from games.rules.patience.evolve import Recorder
from games.rules.patience.state import HAND_SIZE, make_event
from games.rules.patience.variant import Variant

#: Who sees a seat's drawn cards: that seat only.
_ONLY = (frozenset((0,)), frozenset((1,)))


def draw(log: Recorder, variant: Variant, seat: int, count: int, rng: Rng, reason: str) -> None:
    """Draw up to `count` cards for `seat`, recycling completed piles first when the variant says so."""
    table = log.table
    threshold = count if variant.recycle_below is None else variant.recycle_below
    if table.completed and len(table.stock) < threshold:
        if variant.recycle_with_stock:
            event, _ = shuffle_event(rng, list(table.stock) + list(table.completed), "recycle")
        else:
            event, _ = shuffle_event(rng, list(table.completed), "recycle_under")
        table = log.emit(event)
    taken = table.stock[:count]
    if taken:
        log.emit(make_event("draw", {"seat": seat, "cards": [*taken], "reason": reason},
                            {"seat": seat, "count": len(taken), "reason": reason}, _ONLY[seat], None))


def fill_hand(log: Recorder, variant: Variant, seat: int, rng: Rng, reason: str) -> None:
    """Draw until the hand holds five cards (or the stock runs dry)."""
    need = HAND_SIZE - len(log.table.hands[seat])
    if need > 0:
        draw(log, variant, seat, need, rng, reason)


def open_turn(log: Recorder, variant: Variant, rng: Rng) -> None:
    """The turn of the seat to act begins: in Diavoletto it fills the hand first."""
    if variant.draw_at_turn_start:
        fill_hand(log, variant, log.table.turn.current, rng, "turn_start")
