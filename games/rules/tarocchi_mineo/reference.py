"""Tarocchi's legal moves read straight from docs/rules/tarocchi-mineo.md ("Actions" and the rules of play),
for comparison with the fast engine (tests/engines/test_reference_moves.py). Plain code, the acting seat's
view as its only input.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

FUG = "FUG"
ARIE_AND_GIOVE = frozenset({"T16", "T17", "T18", "T19", "T20"})
NEVER_DISCARDED = ARIE_AND_GIOVE | {"T1", "KS", "KB", "KC", "KD"}
#: From rules version 2 the Fuggitivo, which is not a trump, may be discarded like any plain card (the seed
#: bars only trumps and Kings); version 1 bars it too.
FUG_DISCARDABLE_FROM = 2


def is_trump(card: str) -> bool:
    return card.startswith("T")


def suit(card: str) -> str:
    """S B C D for suit cards, "T" for trumps, "FUG" for the Fuggitivo."""
    if card == FUG:
        return FUG
    return "T" if is_trump(card) else card[-1]


def legal_actions(view: dict, seat: int, rules_version: int = FUG_DISCARDABLE_FROM) -> list[dict[str, Any]]:
    """Everything `seat` may do now, from its own view, under the game's `rules_version`."""
    if view["turn"] != seat:
        return []
    phase = view["phase"]
    if phase == "stata":  # each player once, after five cards: pass or go solo
        return [{"type": "pass"}, {"type": "solo"}]
    if phase == "auction":
        said = {bid for _, bid in view["bids"]}
        out = [{"type": "pass"}]
        if "call" not in said and "solo" not in said:
            out.append({"type": "call"})
        if "solo" not in said:
            out.append({"type": "solo"})
        return out
    if phase == "discard":
        return [{"type": "discard", "cards": list(cards)} for cards in discards(view["hand"], rules_version)]
    if phase == "commit":
        if seat == view["declarer"]:  # the scommessa needs Giove and the Fuggitivo
            out = [{"type": "no_scommessa"}]
            if "T20" in view["hand"] and FUG in view["hand"]:
                out.append({"type": "scommessa"})
            return out
        out = [{"type": "no_rivanto"}]
        rivanto_said = any(word == "rivanto" for _, word in view["commits"])
        if view["partner"] != seat and not rivanto_said:  # only a real opponent, once per deal
            out.append({"type": "rivanto"})
        return out
    if phase == "play":
        return [{"type": "play", "card": card} for card in playable(view["hand"], view["trick"])]
    return []


def discards(hand: list[str], rules_version: int) -> list[tuple[str, ...]]:
    """Every set of 3 cards the declarer may put aside: never a King, an Aria, Giove, the Picciotti (T1) or,
    before rules version 2, the Fuggitivo; a trump only when fewer than 3 other such cards are held."""
    allowed = [card for card in hand if card not in NEVER_DISCARDED
               and (card != FUG or rules_version >= FUG_DISCARDABLE_FROM)]
    plain = [card for card in allowed if not is_trump(card)]
    return [chosen for chosen in combinations(allowed, 3)
            if sum(1 for card in chosen if not is_trump(card)) == min(3, len(plain))]


def playable(hand: list[str], trick: list) -> list[str]:
    """Follow the led suit (that of the first card other than the Fuggitivo), else play a trump, else any
    card; the Fuggitivo may always be played instead, but may lead only the last trick."""
    played = [card for _, card in trick if card != FUG]
    if not played:
        if not trick and len(hand) > 1:  # leading a trick that is not the last
            return [card for card in hand if card != FUG]
        return list(hand)
    led = suit(played[0])
    same = [card for card in hand if suit(card) == led]
    trumps = [card for card in hand if is_trump(card)]
    legal = same or trumps or [card for card in hand if card != FUG]
    if FUG in hand:
        legal.append(FUG)
    return legal
