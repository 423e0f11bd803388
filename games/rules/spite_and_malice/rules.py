"""Spite and Malice's own rules on top of the shared patience: forced Aces, then forced Twos.

Everything else is a parameter: four jokers that may open a pile as an Ace but never stand for a Two,
five cards dealt to each hand and refilled at the end of each turn, an optional discard after a move,
and the stock reshuffled with the completed piles when it holds fewer than 12 cards.
"""

from __future__ import annotations

from games.rules.patience import Move, Obligation, Variant, in_reach, natural_cards
from games.rules.patience.state import Table

_ACES = "an Ace in your hand or on your goal pile must be played to a new pile first"
_TWOS = "a Two in your hand or on your goal pile must be played on the centre pile of value 1"


def forced_plays(table: Table, seat: int) -> Obligation | None:
    """Aces (hand, goal top) must open piles at once; then Twos must go on a pile of value 1.

    Plain loops (no comprehensions): asked at about one step in five."""
    aces = in_reach(table, seat, 1)
    if aces:
        plays: list[Move] = []
        for source, card in aces:
            plays.append((source, None, card, "new"))
        return Obligation("must_play_ace", _ACES, tuple(plays))
    ones = []
    for ident, cards in table.centre:
        if len(cards) == 1:
            ones.append(ident)
    if not ones:
        return None
    plays = []
    for source, card in in_reach(table, seat, 2):
        for ident in ones:
            plays.append((source, None, card, ident))
    return Obligation("must_play_two", _TWOS, tuple(plays)) if plays else None


VARIANT = Variant(
    kind="spite-and-malice", title="Spite and Malice", obligation=forced_plays, obligation_cards=natural_cards(1, 2),
    stock_jokers=4, initial_hand=5, draw_at_turn_start=False,  # 56-card stock pack, hands refilled after the turn
    joker_opens=True, joker_min_pile=2, end_after_move=True,  # a joker is anything but a Two; discard optional
    recycle_below=12, recycle_with_stock=True)  # fewer than 12 left: reshuffle stock and completed piles
