"""Muscio's rules as pure functions of a state: who may pass, which cards are legal, who wins a trick,
which hands are gatte, and what a finished hand scores. `decide`, `legal_actions` and the tests share them,
so the rules are written once.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from operator import add
from typing import Any

from games.engine import tricks
from games.engine.tricks import highest_of_each_suit
from games.rules.muscio.state import (
    BLINDE,
    CANONICAL,
    PLAY,
    RANK_VALUE,
    SEAT_KEYS,
    TRICKS,
    Deal,
    Match,
    State,
    Trick,
)

#: card -> suit letter and card -> rank order, as the shared trick helpers read them.
SUIT_OF: dict[str, str] = {card: card[1] for card in CANONICAL}
RANK_OF: dict[str, int] = {card: RANK_VALUE[card[0]] for card in CANONICAL}


def suits_of(hand: tuple[str, ...]) -> str:
    """The suit letters of `hand` as one string (every Muscio card is two characters: rank, suit)."""
    return "".join(hand)[1::2]


# -- declarations (§5) ---------------------------------------------------------------------------------
def pass_allowed(state: State, seat: int) -> bool:
    """MU-3: `pass` needs (players already in) + (players still to speak after `seat`) >= 2."""
    deal = state.deal
    declarations = deal.declarations
    still_to_speak = (deal.dealer - seat) % state.match.players
    return declarations.count(PLAY) + declarations.count(BLINDE) + still_to_speak >= 2


def blinde_available(state: State) -> bool:
    return state.deal.blinde_taker is None


# -- play (§9) -----------------------------------------------------------------------------------------
#: Tricks 1 and 2 have their own rules (§9): the highest card of a suit is led with two participants; with
#: more, a trump is compulsory, and without one a card goes face down.
EARLY_TRICKS = 2


def early(state: State) -> bool:
    """Is the trick in play one of the first `EARLY_TRICKS`?"""
    return len(state.history) < EARLY_TRICKS


def play_options(state: State, seat: int) -> tuple[Sequence[str], bool]:
    """(the cards `seat` may play now, whether it plays face down); it is assumed to be its turn to play.
    The cards may be the hand itself (a tuple of the state): read them, do not change them. The fold keeps
    the answer for the seat to play in `State.legal` (`legal_plays`); a state built without it works it out."""
    legal = state.legal
    if legal is not None and seat == state.turn:
        return legal
    return legal_plays(state.deal, state.hands[seat], state.trick, len(state.history))


def legal_plays(deal: Deal, hand: tuple[str, ...], trick: Trick, tricks_done: int) -> tuple[Sequence[str], bool]:
    """`play_options` from the parts of the state it reads: the deal, the hand, the trick in play and how many
    tricks of the hand are done (the fold calls it to build `State.legal`)."""
    trump = deal.trump
    if tricks_done < EARLY_TRICKS:
        if len(deal.participants) > 2:  # a trump if you hold one, else any card face down
            trumps = [card for card in hand if card[1] == trump]
            return (trumps, False) if trumps else (hand, True)
        if not trick:  # two participants lead the highest card of a suit
            return highest_of_each_suit(hand, SUIT_OF, RANK_OF), False
    elif not trick:
        return hand, False
    # `tricks.follow_or_trump`, written out (asked once a card): the led suit, else a trump, else any card
    led = trick[0][1][1]
    following = [card for card in hand if card[1] == led]
    if following:
        return following, False
    trumps = [card for card in hand if card[1] == trump]
    return (trumps if trumps else hand), False


def refusal(state: State, seat: int, card: str) -> tuple[str, str]:
    """Why `card` (held by `seat`) may not be played now: (code, message naming no card)."""
    hand = state.hands[seat]
    trump = state.deal.trump
    trick = state.trick
    if len(state.deal.participants) == 2 and not trick:
        return "must_lead_highest", "in the first two tricks you must lead the highest card you hold of that suit"
    if trick and not (len(state.deal.participants) > 2 and early(state)):
        led = trick[0][1][1]
        if any(c[1] == led for c in hand):
            return "must_follow_suit", "you must follow the suit that was led"
    if any(c[1] == trump for c in hand):
        return "must_trump", "you must play a trump"
    return "illegal_card", "that card may not be played now"


def card_power(card: str, led: str | None, trump: str) -> int | None:
    """How strongly a face-up `card` takes a trick whose led suit is `led` (`games.engine.tricks.card_power`):
    trumps above everything, the led suit by rank, any other card not at all."""
    return tricks.card_power(card, led, trump, SUIT_OF, RANK_OF)


def winner_of(trick: Trick, trump: str) -> int:
    """Highest face-up trump, else highest card of the led suit; face-down cards never win.

    The first of equal cards wins; MU-9: when nothing can win (all face down), the leader takes the trick.
    """
    leader, lead_card, lead_down = trick[0]
    led = None if lead_down else lead_card[1]
    face_up = [(seat, card) for seat, card, down in trick if not down]
    return tricks.trick_winner(face_up, led, trump, SUIT_OF, RANK_OF, leader)


# -- gatta (§7) ----------------------------------------------------------------------------------------
def gatte(state: State) -> list[tuple[int, str, int]]:
    """Every participant's gatta as (seat, suit, value), in participant order."""
    deal = state.deal
    found = []
    for seat in deal.participants:
        hand = state.hands[seat]
        if len(hand) != 5:
            continue
        suits = suits_of(hand)
        suit = suits[0]
        if suits.count(suit) != 5:
            continue
        if suit != deal.trump:
            value = 5
        elif seat == deal.dealer and deal.blinde_taker != seat and _dealt_all_trumps(state):
            value = 15
        else:
            value = 10
        found.append((seat, suit, value))
    return found


def _dealt_all_trumps(state: State) -> bool:
    """The dealer (with a trump flush now) was dealt five trumps: true unless he gave up a non-trump."""
    deal = state.deal
    if not deal.turnup_taken:
        return True
    given_up = deal.dead[deal.dealer]
    return bool(given_up) and given_up[-1][1] == deal.trump


# -- scoring (§7, §8, §10) -----------------------------------------------------------------------------
def hand_outcome(match: Match, deal: Deal, won: Sequence[int]) -> dict[str, Any]:
    """The `hand_scored` record of the hand `deal` that ends now (rules §13), scores included; `won` holds
    the tricks each seat took."""
    players, _, scores, hand_no, _, _ = match
    (dealer, trump, _, _, _, _, _, _, blinde_taker, _, participants, _, _, _, forfeiter, gatta) = deal
    gatta_record: dict[str, Any] | None = None
    tricks: dict[str, int] = {}
    if forfeiter is not None:
        kind = "forfeit"
        deltas = [0] * players
        opponent = participants[1] if participants[0] == forfeiter else participants[0]
        deltas[opponent] = -TRICKS
        tricks = {SEAT_KEYS[forfeiter]: 0, SEAT_KEYS[opponent]: TRICKS}
    elif gatta:
        kind = "gatta"
        deltas = _gatta_deltas(players, participants, gatta)
        gatta_record = {SEAT_KEYS[seat]: {"suit": cards[0][1], "value": value} for seat, cards, value in gatta}
    else:
        kind = "played"
        deltas = [0] * players
        for seat in participants:
            taken = won[seat]
            tricks[SEAT_KEYS[seat]] = taken
            deltas[seat] = -taken if taken else 5
    keys = SEAT_KEYS[:players]  # (as many as `deltas` and `scores`: zip need not check)
    return {
        "hand": hand_no,
        "dealer": dealer,
        "kind": kind,
        "trump": trump,
        "participants": list(participants),
        "blinde": blinde_taker,
        "gatta": gatta_record,
        "forfeit": forfeiter,
        "tricks": tricks,
        "deltas": dict(zip(keys, deltas, strict=False)),
        "scores": dict(zip(keys, map(add, scores, deltas), strict=False)),
    }


def _gatta_deltas(players: int, participants: tuple[int, ...], gatta: tuple) -> list[int]:
    """§7: a gatta takes its value off its holder's score; the other participants pay the top value, passers
    five less."""
    values = {seat: value for seat, _, value in gatta}
    top = max(values.values())
    deltas = [0] * players
    for seat in range(players):
        if seat in values:
            deltas[seat] = -values[seat]
        elif seat in participants:
            deltas[seat] = top
        else:
            deltas[seat] = max(top - 5, 0)
    return deltas


def match_outcome(scores: tuple[int, ...], hands_played: int, max_hands: int) -> dict[str, Any] | None:
    """The match result after a hand, or None when the match goes on (§11, MU-12, the `max_hands` cap)."""
    if min(scores) > 0 and hands_played < max_hands:
        return None  # the usual answer, asked after every hand
    players = len(scores)
    winners = [seat for seat in range(players) if scores[seat] <= 0]
    if winners:
        reason = "score_reached_zero"
    elif hands_played >= max_hands:
        reason = "max_hands"
        best = min(scores)
        winners = [seat for seat in range(players) if scores[seat] == best]
    else:
        return None
    ranking = sorted(range(players), key=lambda seat: (scores[seat], seat))
    out: dict[str, Any] = {
        "winners": winners,
        "scores": {str(seat): scores[seat] for seat in range(players)},
        "reason": reason,
        "ranking": ranking,
        "hands": hands_played,
        "payout": None,
        "payout_fraction": None,
    }
    if reason == "score_reached_zero":
        pot = sum(scores[seat] for seat in range(players) if seat not in winners)
        share = Fraction(pot, len(winners))
        out["payout"] = share.numerator if share.denominator == 1 else float(share)
        out["payout_fraction"] = f"{share.numerator}/{share.denominator}"
    return out
