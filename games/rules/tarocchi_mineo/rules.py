"""Pure rule predicates of Tarocchi (no events): legal plays, trick winner, called card, discard, commitments.

Shared by `decide` (validation), `legal_actions` and the tests; the generic trick helpers of
`games.engine.tricks` do the game-neutral parts.
"""

from __future__ import annotations

from itertools import combinations

from games.engine import tricks
from games.engine.tricks import follow_or_trump

from .cards import (
    CALLABLE,
    DISCARDABLE_TRUMPS,
    FUG,
    STRENGTH,
    SUIT_OF,
    TRUMP,
    UNDISCARDABLE,
    is_plain,
)
from .state import NOBODY, Play


def led_suit(trick: tuple[Play, ...]) -> str | None:
    """The suit to follow: that of the first real (non-Fuggitivo) card, None if there is none yet."""
    for _, card in trick:
        if card != FUG:
            return SUIT_OF[card]
    return None


def legal_cards(hand: tuple[str, ...], trick: tuple[Play, ...]) -> list[str]:
    """The cards of `hand` that may be played on `trick` (§8.1)."""
    led = None
    for _, card in trick:
        if card != FUG:
            led = SUIT_OF[card]
            break
    if led is None:  # leading, or the first real card after the Fuggitivo led the last trick
        if trick or len(hand) == 1 or FUG not in hand:
            return list(hand)
        return [card for card in hand if card != FUG]
    legal = follow_or_trump(hand, led, TRUMP, SUIT_OF)
    if FUG in hand and FUG not in legal:
        legal.append(FUG)  # the Fuggitivo may always be played instead
    return legal


def play_error(hand: tuple[str, ...], trick: tuple[Play, ...], card: str) -> tuple[str, str] | None:
    """Why `card` may not be played now (code, message), or None when it may (same rule as `legal_cards`)."""
    if card not in hand:
        return "card_not_in_hand", "you do not hold that card"
    led = None
    for _, first in trick:
        if first != FUG:
            led = SUIT_OF[first]
            break
    if led is None:
        if card == FUG and not trick and len(hand) > 1:
            return "fuggitivo_cannot_lead", "the Fuggitivo may lead only the last trick"
        return None
    suit = SUIT_OF[card]
    if suit == led or card == FUG:
        return None
    suit_of = SUIT_OF
    if any(suit_of[c] == led for c in hand):
        if led == TRUMP:
            return "must_follow_suit", "a trump was led: you must play a trump"
        return "must_follow_suit", f"you must follow the led suit ({led})"
    if suit != TRUMP and led != TRUMP and any(suit_of[c] == TRUMP for c in hand):
        return "must_follow_suit", "you cannot follow the led suit: you must play a trump"
    return None


def card_power(card: str, led: str | None) -> int | None:
    """How strongly `card` takes a trick whose led suit is `led` (`games.engine.tricks.card_power`): trumps
    above everything, the led suit by rank, any other card not at all; the Fuggitivo never takes."""
    if card == FUG:
        return None
    return tricks.card_power(card, led, TRUMP, SUIT_OF, STRENGTH)


def winner_of(plays: tuple[Play, ...]) -> int:
    """The seat that wins a complete trick: highest trump, else highest card of the led suit.

    The Fuggitivo never wins; when nothing else was played, the leader takes the trick.
    """
    return tricks.trick_winner(plays, led_suit(plays) or TRUMP, TRUMP, SUIT_OF, STRENGTH, plays[0][0])


def called_card(cards) -> str:
    """The highest trump (T20 down to T1) not among `cards` (§5.2, DECISION TM-8)."""
    held = set(cards)
    for card in CALLABLE:
        if card not in held:
            return card
    raise ValueError("every callable trump is held")  # impossible with 18 cards or fewer


#: The Fuggitivo may be discarded from rules version 2: the seed bars only trumps and Kings from the discard, and
#: the Fuggitivo is not a trump. Version 1 barred it too (DECISION TM-11); its games keep that rule.
FUG_DISCARDABLE_FROM = 2

#: rules version -> what that version changed (games keep the version they were created with).
RULES_VERSIONS = {
    1: "The rules as first published: the Fuggitivo is never discarded (DECISION TM-11).",
    2: "The seed's discard rule: only trumps and Kings are barred, so the Fuggitivo (not a trump) may be "
       "discarded like a plain card; a discarded Fuggitivo counts for the declarer's side.",
}


def discard_plain(card: str, rules_version: int) -> bool:
    """A card the declarer discards before any trump: neither trump nor King, and not the Fuggitivo before
    rules version 2."""
    return is_plain(card) or (card == FUG and rules_version >= FUG_DISCARDABLE_FROM)


def undiscardable(card: str, rules_version: int) -> bool:
    """Kings, Arie, the Picciotti, and before rules version 2 the Fuggitivo: never in a discard."""
    return card in UNDISCARDABLE and not (card == FUG and rules_version >= FUG_DISCARDABLE_FROM)


def discard_pool(hand: tuple[str, ...], rules_version: int) -> tuple[list[str], list[str], int]:
    """(plain cards, discardable trumps, how many plain cards a discard must hold)."""
    plain = [card for card in hand if discard_plain(card, rules_version)]
    trumps = [card for card in hand if card in DISCARDABLE_TRUMPS]
    return plain, trumps, min(3, len(plain))


def discard_options(hand: tuple[str, ...], rules_version: int) -> list[list[str]]:
    """Every legal 3-card discard (§6, DECISION TM-11), in a stable order, each a fresh list."""
    plain, trumps, need = discard_pool(hand, rules_version)
    if need == 3:
        return [*map(list, combinations(plain, 3))]
    return [[*plain, *extra] for extra in combinations(trumps, 3 - need)]


def discard_error(hand: tuple[str, ...], cards: list[str], rules_version: int) -> tuple[str, str] | None:
    """Why `cards` is not a legal discard from `hand` under `rules_version`, or None."""
    if len(cards) != 3:
        return "invalid_discard", "discard exactly 3 cards"
    if len(set(cards)) != 3:
        return "invalid_discard", "discard 3 different cards"
    if any(card not in hand for card in cards):
        return "card_not_in_hand", "you may discard only cards you hold"
    if any(undiscardable(card, rules_version) for card in cards):
        if rules_version >= FUG_DISCARDABLE_FROM:
            return "invalid_discard", "Kings, Arie (T16-T20) and the Picciotti (T1) are never discarded"
        return "invalid_discard", "Kings, Arie (T16-T20), the Picciotti (T1) and the Fuggitivo are never discarded"
    plain, _, need = discard_pool(hand, rules_version)
    chosen_plain = sum(1 for card in cards if discard_plain(card, rules_version))
    if chosen_plain < need:
        return "invalid_discard", "trumps may be discarded only when you hold fewer than 3 other discardable cards"
    return None


def may_scommessa(hand: tuple[str, ...]) -> bool:
    return "T20" in hand and FUG in hand


def may_rivanto(seat: int, declarer: int, partner: int, commits) -> bool:
    """Only a real opponent of the declarer, and only once per deal (DECISION TM-12)."""
    if seat == declarer or (partner != NOBODY and seat == partner):
        return False
    return all(word != "rivanto" for _, word in commits)
