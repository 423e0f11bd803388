"""Diavoletto's legal moves read straight from docs/rules/diavoletto.md, for comparison with the fast engine
(tests/engines/test_reference_moves.py). Plain code, the acting seat's view as its only input.

- Two jokers stand for anything but an Ace: they never open a pile, but go on any pile of value 1 to 12.
- Plays are always free; but while an Ace is in the hand or on the goal top the turn may not end.
- The turn ends with a compulsory discard from the hand to one of the player's columns; end_turn only with
  an empty hand.
"""

from __future__ import annotations

from typing import Any

from games.rules.patience import reference
from games.rules.patience.reference import Rules, natural

RULES = Rules(
    joker_opens=False,
    joker_lowest_pile=1,
    compulsory=lambda view, cards: None,
    may_discard=lambda view, cards: not natural(cards, 1),
    may_end_without_discard=lambda view: not view["players"][view["current"]]["hand"],
)


def legal_actions(view: dict, seat: int) -> list[dict[str, Any]]:
    """Everything `seat` may do now, from its own view."""
    return reference.legal_actions(RULES, view, seat)
