"""Spite and Malice's legal moves read straight from docs/rules/spite-and-malice.md, for comparison with the
fast engine (tests/engines/test_reference_moves.py). Plain code, the acting seat's view as its only input.

- Four jokers stand for anything but a Two: they may open a pile (as an Ace) but not go on a pile of value 1.
- An Ace in the hand or on the goal top must be played to a new pile at once (nothing else is allowed).
- Then, while a centre pile has value 1, a Two in the hand or on the goal top must be played on it (a Two
  on a discard row is never forced).
- The turn ends with a discard from the hand to one of the player's rows (always allowed when nothing is
  forced), or with end_turn once a card went to the centre this turn, or when the hand is empty.
"""

from __future__ import annotations

from typing import Any

from games.rules.patience import reference
from games.rules.patience.reference import Reach, Rules, natural


def compulsory(view: dict, cards: list[Reach]) -> list[dict[str, Any]] | None:
    aces = natural(cards, 1)
    if aces:
        return [ace.play("new") for ace in aces]
    piles_of_one = [pile["id"] for pile in view["centre"] if pile["value"] == 1]
    twos = natural(cards, 2)
    if piles_of_one and twos:
        return [two.play(pile) for two in twos for pile in piles_of_one]
    return None


RULES = Rules(
    joker_opens=True,
    joker_lowest_pile=2,
    compulsory=compulsory,
    may_discard=lambda view, cards: True,
    may_end_without_discard=lambda view: view["moved_this_turn"] or not view["players"][view["current"]]["hand"],
)


def legal_actions(view: dict, seat: int) -> list[dict[str, Any]]:
    """Everything `seat` may do now, from its own view."""
    return reference.legal_actions(RULES, view, seat)
