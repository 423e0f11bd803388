"""Trick-taking building blocks shared by Muscio and Tarocchi: dealing packets, the duty to follow or trump,
a card's taking power and the winner of a trick.

Seats are numbered in the game's direction of play, so `next_seat` is always the next player. A game
describes its cards to these helpers with mappings (card -> suit, card -> rank key) rather than
functions: the legal plays are asked for at every step, and a dict look-up costs a fraction of a call.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)


def next_seat(seat: int, players: int) -> int:
    return (seat + 1) % players


def rotation(first: int, players: int) -> list[int]:
    """All seats in playing order starting with `first`."""
    return [(first + k) % players for k in range(players)]


def deal_packets(cards: Sequence[str], schedule: Sequence[tuple[K, int]]) -> dict[K, list[str]]:
    """Deal `cards` from the top following `schedule`, a list of (recipient, packet size)."""
    hands: dict[K, list[str]] = {}
    top = 0
    for recipient, size in schedule:
        if top + size > len(cards):
            raise ValueError("not enough cards for the schedule")
        hands.setdefault(recipient, []).extend(cards[top : top + size])
        top += size
    return hands


def follow_or_trump(hand: Sequence[str], led_suit: str | None, trump_suit: str | None,
                    suit_of: Mapping[str, str]) -> list[str]:
    """Follow the led suit if able; otherwise play a trump if able; otherwise any card.

    The common "answer the suit, else trump" duty (no obligation to beat). With nothing led, any card;
    with no trump suit, any card when void of the led suit.
    """
    if led_suit is None:
        return list(hand)
    following = [card for card in hand if suit_of[card] == led_suit]
    if following:
        return following
    if trump_suit is not None:
        trumps = [card for card in hand if suit_of[card] == trump_suit]
        if trumps:
            return trumps
    return list(hand)


def highest_of_each_suit(hand: Sequence[str], suit_of: Mapping[str, str], rank_of: Mapping[str, Any]) -> list[str]:
    """For every suit present in `hand`, its highest card (by `rank_of`), in order of first appearance."""
    best: dict[str, str] = {}
    for card in hand:
        suit = suit_of[card]
        held = best.get(suit)
        if held is None or rank_of[card] > rank_of[held]:
            best[suit] = card
    return list(best.values())


#: Added to a trump's rank so that every trump outranks every card of another suit.
TRUMP_BONUS = 1000


def card_power(card: str, led_suit: str | None, trump_suit: str | None, suit_of: Mapping[str, str],
               rank_of: Mapping[str, int]) -> int | None:
    """How strongly `card` takes a trick whose led suit is `led_suit`: a trump by its rank above every other
    card, a card of the led suit by its rank, any other card not at all (None)."""
    suit = suit_of[card]
    if suit == trump_suit:
        return TRUMP_BONUS + rank_of[card]
    if suit == led_suit:
        return rank_of[card]
    return None


def trick_winner(plays: Iterable[tuple[int, str]], led_suit: str | None, trump_suit: str | None,
                 suit_of: Mapping[str, str], rank_of: Mapping[str, int], nobody: int) -> int:
    """The seat whose card takes the trick `plays` ((seat, card) in playing order): the highest trump, else
    the highest card of the led suit (`card_power`); the first of equal cards wins, and `nobody` takes the
    trick when no card can (a game's own rule: the leader, say)."""
    winner, best = nobody, -1
    for seat, card in plays:
        power = card_power(card, led_suit, trump_suit, suit_of, rank_of)
        if power is not None and power > best:
            winner, best = seat, power
    return winner
