"""A plain reading of the moves both competitive patiences share (docs/rules/spite-and-malice.md, "The game
in short"), for comparison with the fast `moves.legal_actions`. No speed tricks, and nothing but the acting
seat's own view: what a player may do follows from what that player can see.

Each game's `reference.py` adds its own rules (which cards a joker may stand for, compulsory plays, when the
turn may end) and calls `legal_actions` here with them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = "JK"
KING = 13
ROWS = 4


def value(card: str) -> int | None:
    """Ace 1 … King 13; None for a joker."""
    return None if card == JOKER else RANKS.index(card[:-1]) + 1


@dataclass(frozen=True)
class Reach:
    """A card the player may move now, and from where: "hand", "goal" (its top) or "discard" (a row top)."""

    source: str
    card: str
    row: int | None = None

    def play(self, centre: int | str) -> dict[str, Any]:
        action: dict[str, Any] = {"type": "play", "source": self.source, "card": self.card, "center": centre}
        if self.row is not None:
            action["pile"] = self.row
        return action


@dataclass(frozen=True)
class Rules:
    """What the two games decide differently."""

    joker_opens: bool                    # a joker may open a new pile (standing for an Ace)
    joker_lowest_pile: int               # the lowest pile value a joker may be put on
    compulsory: Callable[[dict, list[Reach]], list[dict] | None]  # the only plays allowed now, if forced
    may_discard: Callable[[dict, list[Reach]], bool]  # may the turn end with a discard (or end_turn) now?
    may_end_without_discard: Callable[[dict], bool]  # may the player say end_turn now?


def reachable(me: dict) -> list[Reach]:
    """The cards the player may move: each different card of the hand, the top of the goal pile, the top of
    each of the player's own discard rows."""
    found = [Reach("hand", card) for card in dict.fromkeys(me["hand"])]
    if me["goal_top"] is not None:
        found.append(Reach("goal", me["goal_top"]))
    for row, cards in enumerate(me["discards"]):
        if cards:
            found.append(Reach("discard", cards[-1], row))
    return found


def fits(rules: Rules, card: str, pile_value: int) -> bool:
    """May `card` go on a centre pile of `pile_value` (0: open a new pile)? Piles are built up from Ace to
    King regardless of suit; a joker stands for the card the pile needs, within the game's limits."""
    if card == JOKER:
        if pile_value == 0:
            return rules.joker_opens
        return rules.joker_lowest_pile <= pile_value < KING
    return value(card) == pile_value + 1


def plays(rules: Rules, view: dict, cards: list[Reach]) -> list[dict[str, Any]]:
    """Every play of `cards` to a new pile or to an existing centre pile where it fits."""
    out = []
    for reach in cards:
        if fits(rules, reach.card, 0):
            out.append(reach.play("new"))
        for pile in view["centre"]:
            if fits(rules, reach.card, pile["value"]):
                out.append(reach.play(pile["id"]))
    return out


def legal_actions(rules: Rules, view: dict, seat: int) -> list[dict[str, Any]]:
    """Everything `seat` may do now, read from its own view."""
    if view["over"] or view["current"] != seat:
        return []
    me = view["players"][seat]
    cards = reachable(me)
    forced = rules.compulsory(view, cards)
    if forced is not None:
        return forced
    out = plays(rules, view, cards)
    if rules.may_discard(view, cards):
        for card in dict.fromkeys(me["hand"]):
            out += [{"type": "discard", "card": card, "pile": row} for row in range(ROWS)]
        if rules.may_end_without_discard(view):
            out.append({"type": "end_turn"})
    return out


def natural(cards: list[Reach], card_value: int, sources: tuple[str, ...] = ("hand", "goal")) -> list[Reach]:
    """The natural cards of `card_value` among `cards` that come from `sources`."""
    return [reach for reach in cards if reach.source in sources and value(reach.card) == card_value]
