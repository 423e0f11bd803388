"""Spite and Malice's own rules on top of the shared patience: forced Aces, then forced Twos.

Everything else is a parameter: four jokers that may open a pile as an Ace but never stand for a Two,
five cards dealt to each hand and refilled at the end of each turn, an optional discard after a move,
and the stock reshuffled with the completed piles when it holds fewer than 12 cards: as soon as it falls below
12 since rules version 2, at the next draw in version 1 (`VARIANTS`).
"""

from __future__ import annotations

from dataclasses import replace

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


VARIANT_1 = Variant(
    kind="spite-and-malice", title="Spite and Malice", obligation=forced_plays, obligation_cards=natural_cards(1, 2),
    stock_jokers=4, initial_hand=5, draw_at_turn_start=False,  # 56-card stock pack, hands refilled after the turn
    joker_opens=True, joker_min_pile=2, end_after_move=True,  # a joker is anything but a Two; discard optional
    recycle_below=12, recycle_with_stock=True)  # fewer than 12 left at a draw: reshuffle stock and completed piles

#: Version 2 reads the seed literally ("quando il tallone si riduce a meno di 12 carte"): the stock and the
#: completed piles are reshuffled as soon as the stock falls below 12, not at the next draw.
VARIANT = replace(VARIANT_1, recycle_at_once=True)

#: The rules of every version the engine has shipped: games keep the version they were created with.
VARIANTS = {1: VARIANT_1, 2: VARIANT}
RULES_VERSIONS = {
    1: "The rules as first published: the stock and the completed piles are reshuffled when a draw finds fewer "
       "than 12 cards in the stock (DECISION SM-10).",
    2: "The seed's reshuffle: as soon as the stock falls below 12 cards (after a draw or a completed pile) "
       "while completed piles are set aside, the stock and all completed cards are shuffled into a new stock.",
}
