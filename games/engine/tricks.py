"""Trick-taking building blocks shared by Muscio and Tarocchi.

Seats are numbered in the game's direction of play, so `next_seat` is always the next player.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
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


def cards_of_suit(hand: Sequence[str], suit: str, suit_of: Callable[[str], str]) -> list[str]:
    return [card for card in hand if suit_of(card) == suit]


def follow_options(hand: Sequence[str], led_suit: str | None, suit_of: Callable[[str], str]) -> list[str]:
    """Cards that follow the led suit, or the whole hand when none does (or nothing was led)."""
    if led_suit is None:
        return list(hand)
    following = cards_of_suit(hand, led_suit, suit_of)
    return following or list(hand)


def trick_winner(plays: Sequence[tuple[int, Any]], strength: Callable[[Any], Any | None]) -> int:
    """The seat whose play is strongest; `strength(play)` is a comparable key or None (cannot win).

    Earlier plays win ties, so the first card of the led suit beats a later equal one. If nothing can
    win, the leader takes the trick.
    """
    best_seat, best_key = plays[0][0], None
    for seat, play in plays:
        key = strength(play)
        if key is not None and (best_key is None or key > best_key):
            best_seat, best_key = seat, key
    return best_seat


def follow_or_trump(hand: Sequence[str], led_suit: str | None, trump_suit: str | None,
                    suit_of: Callable[[str], str]) -> list[str]:
    """Follow the led suit if able; otherwise play a trump if able; otherwise any card.

    The common "answer the suit, else trump" duty (no obligation to beat). With nothing led, or no trump
    suit, it degrades to `follow_options`.
    """
    if led_suit is None:
        return list(hand)
    following = [card for card in hand if suit_of(card) == led_suit]
    if following:
        return following
    if trump_suit is not None:
        trumps = [card for card in hand if suit_of(card) == trump_suit]
        if trumps:
            return trumps
    return list(hand)


def highest_of_each_suit(hand: Sequence[str], suit_of: Callable[[str], str],
                         rank_key: Callable[[str], Any]) -> list[str]:
    """For every suit present in `hand`, its highest card (by `rank_key`), in order of first appearance."""
    best: dict[str, str] = {}
    for card in hand:
        suit = suit_of(card)
        held = best.get(suit)
        if held is None or rank_key(card) > rank_key(held):
            best[suit] = card
    return list(best.values())


def single_suit(hand: Sequence[str], suit_of: Callable[[str], str]) -> str | None:
    """The suit of a non-empty hand whose cards are all of one suit (a flush), else None."""
    if not hand:
        return None
    suit = suit_of(hand[0])
    return suit if all(suit_of(card) == suit for card in hand) else None
