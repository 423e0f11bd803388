"""Muscio's legal moves read straight from docs/rules/muscio.md ("The game in short"), for comparison with
the fast engine (tests/engines/test_reference_moves.py). Plain code, the acting seat's view as its only
input.
"""

from __future__ import annotations

from typing import Any

RANKS = "234567JQKA"  # low to high, in every suit


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return RANKS.index(card[0])


def legal_actions(view: dict, seat: int) -> list[dict[str, Any]]:
    """Everything `seat` may do now, from its own view."""
    if view["result"] is not None or view["turn"] != seat:
        return []
    phase = view["phase"]
    if phase == "declare":
        return declarations(view, seat)
    if phase == "exchange":  # the dealer, playing his own hand: give up one card for the turn-up, or not
        return [{"type": "exchange", "card": card} for card in view["my_hand"]] + [{"type": "no_exchange"}]
    if phase == "forfeit":
        return [{"type": "forfeit"}, {"type": "no_forfeit"}]
    if phase == "play":
        return [{"type": "play", "card": card} for card in playable(view)]
    return []


def declarations(view: dict, seat: int) -> list[dict[str, Any]]:
    """`play` always; `play_blinde` while nobody took the blinde; `pass` unless (players already in) +
    (players still to speak after you) < 2. The dealer speaks last."""
    out = [{"type": "play"}]
    if view["blinde_taker"] is None:
        out.append({"type": "play_blinde"})
    already_in = sum(1 for said in view["declarations"] if said in ("play", "play_blinde"))
    still_to_speak = (view["dealer"] - seat) % view["players"]
    if already_in + still_to_speak >= 2:
        out.append({"type": "pass"})
    return out


def playable(view: dict) -> list[str]:
    """The cards of the hand that may be played to the trick now."""
    hand = view["my_hand"]
    trump = view["trump"]
    trick = view["trick"]
    first_two_tricks = len(view["tricks"]) < 2
    trumps = [card for card in hand if suit(card) == trump]
    if len(view["participants"]) == 2:
        if not trick:
            if first_two_tricks:  # lead the highest card you hold of the suit you lead
                return [card for card in hand
                        if all(rank(other) <= rank(card) for other in hand if suit(other) == suit(card))]
            return list(hand)
        return follow_suit_else_trump(hand, suit(trick[0][1]), trump)
    if first_two_tricks:  # everyone, leader too, plays a trump if he has one; else any card, face down
        return trumps or list(hand)
    if not trick:
        return list(hand)
    return follow_suit_else_trump(hand, suit(trick[0][1]), trump)


def follow_suit_else_trump(hand: list[str], led: str, trump: str) -> list[str]:
    """Follow suit, else trump, else play anything."""
    same = [card for card in hand if suit(card) == led]
    if same:
        return same
    trumps = [card for card in hand if suit(card) == trump]
    return trumps or list(hand)
