"""Diavoletto's own rules on top of the shared patience: an Ace must be played before the turn ends.

Everything else is a parameter: two jokers that stand for anything but an Ace (so they never open a
pile), no hands dealt but five cards drawn at the start of each turn, a compulsory discard, and the
completed piles shuffled under the stock when a draw needs more cards than it holds.
"""

from __future__ import annotations

from games.rules.patience import Obligation, Variant, natural_cards, reaches
from games.rules.patience.state import Table

_ACE = Obligation("must_play_ace", "play the Ace in your hand or on your goal pile before ending the turn", None)


def ace_before_discard(table: Table, seat: int) -> Obligation | None:
    """While an Ace is in the hand or on the goal top, plays stay free but the turn may not end."""
    return _ACE if reaches(table, seat, 1) else None


VARIANT = Variant(
    kind="diavoletto", title="Diavoletto", obligation=ace_before_discard, obligation_cards=natural_cards(1, 1),
    stock_jokers=2, initial_hand=0, draw_at_turn_start=True,  # 54-card stock, the hand filled as the turn begins
    joker_opens=False, joker_min_pile=1, end_after_move=False,  # a joker is anything but an Ace; discard compulsory
    recycle_below=None, recycle_with_stock=False)  # a draw the stock cannot cover: completed piles go under it
