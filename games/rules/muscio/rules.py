"""Muscio's rules as pure functions of a state: who may pass, which cards are legal, who wins a trick,
which hands are gatte, and what a finished hand scores. `decide`, `legal_actions` and the tests share them,
so the rules are written once.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from games.engine.tricks import follow_or_trump, highest_of_each_suit, single_suit, trick_winner
from games.rules.muscio.state import BLINDE, PLAY, RANK_VALUE, TRICKS, State, Trick


def _suit(card: str) -> str:
    return card[1]


def _rank(card: str) -> int:
    return RANK_VALUE[card[0]]


# -- declarations (§5) ---------------------------------------------------------------------------------
def playing_count(state: State) -> int:
    return sum(1 for choice in state.deal.declarations if choice in (PLAY, BLINDE))


def pass_allowed(state: State, seat: int) -> bool:
    """MU-3: `pass` needs (players already in) + (players still to speak after `seat`) >= 2."""
    still_to_speak = (state.deal.dealer - seat) % state.match.players
    return playing_count(state) + still_to_speak >= 2


def blinde_available(state: State) -> bool:
    return state.deal.blinde_taker is None


# -- play (§9) -----------------------------------------------------------------------------------------
def early(state: State) -> bool:
    """Tricks 1 and 2 have their own rules."""
    return len(state.history) < 2


_LAST: tuple[Any, int, tuple[str, ...]] = (None, -1, ())  # (state, seat, legal cards) of the last call


def legal_cards(state: State, seat: int) -> tuple[str, ...]:
    """The cards `seat` may play now (it is assumed to be its turn in the play phase).

    `legal_actions` and then `decide` ask this about the same state: the last answer is remembered (by
    identity of the immutable state, so it can never be stale).
    """
    global _LAST
    last = _LAST
    if last[0] is state and last[1] == seat:
        return last[2]
    cards = tuple(_legal_cards(state, seat))
    _LAST = (state, seat, cards)
    return cards


def _legal_cards(state: State, seat: int) -> list[str] | tuple[str, ...]:
    hand = state.hands[seat]
    trump = state.deal.trump
    trick = state.trick
    if len(state.deal.participants) == 2:
        if not trick:
            return highest_of_each_suit(hand, _suit, _rank) if early(state) else hand
        return follow_or_trump(hand, trick[0][1][1], trump, _suit)
    if early(state):
        trumps = [card for card in hand if card[1] == trump]
        return trumps or hand
    if not trick:
        return hand
    return follow_or_trump(hand, trick[0][1][1], trump, _suit)


def plays_face_down(state: State, seat: int) -> bool:
    """With 3+ participants, in tricks 1-2 a player without trumps plays face down (§9.2)."""
    if len(state.deal.participants) == 2 or not early(state):
        return False
    trump = state.deal.trump
    return not any(card[1] == trump for card in state.hands[seat])


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


def winner_of(trick: Trick, trump: str) -> int:
    """Highest face-up trump, else highest card of the led suit; face-down cards never win.

    MU-9: when nothing can win (all face down), `trick_winner` gives the trick to the leader.
    """
    lead = trick[0]
    led = None if lead[2] else lead[1][1]

    def strength(play: tuple[int, str, bool]) -> int | None:
        _, card, down = play
        if down:
            return None
        suit = card[1]
        if suit == trump:
            return 100 + RANK_VALUE[card[0]]
        if suit == led:
            return RANK_VALUE[card[0]]
        return None

    return trick_winner([(play[0], play) for play in trick], strength)


# -- gatta (§7) ----------------------------------------------------------------------------------------
def gatte(state: State) -> list[tuple[int, str, int]]:
    """Every participant's gatta as (seat, suit, value), in participant order."""
    deal = state.deal
    found = []
    for seat in deal.participants:
        hand = state.hands[seat]
        suit = single_suit(hand, _suit) if len(hand) == 5 else None
        if suit is None:
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
def hand_outcome(state: State) -> dict[str, Any]:
    """The `hand_scored` record of the finished hand (rules §13), scores included."""
    match, deal = state.match, state.deal
    players = match.players
    deltas = [0] * players
    tricks: dict[str, int] = {}
    gatta_record: dict[str, Any] | None = None
    if deal.forfeiter is not None:
        kind = "forfeit"
        opponent = next(seat for seat in deal.participants if seat != deal.forfeiter)
        deltas[opponent] = -TRICKS
        tricks = {str(deal.forfeiter): 0, str(opponent): TRICKS}
    elif deal.gatta:
        kind = "gatta"
        values = {seat: value for seat, _, value in deal.gatta}
        top = max(values.values())
        for seat in range(players):
            if seat in values:
                deltas[seat] = -values[seat]
            elif seat in deal.participants:
                deltas[seat] = top
            else:
                deltas[seat] = max(top - 5, 0)
        gatta_record = {str(seat): {"suit": cards[0][1], "value": value} for seat, cards, value in deal.gatta}
    else:
        kind = "played"
        for seat in deal.participants:
            taken = state.won[seat]
            tricks[str(seat)] = taken
            deltas[seat] = -taken if taken else 5
    scores = [score + delta for score, delta in zip(match.scores, deltas, strict=True)]
    return {
        "hand": match.hand_no,
        "dealer": deal.dealer,
        "kind": kind,
        "trump": deal.trump,
        "participants": list(deal.participants),
        "blinde": deal.blinde_taker,
        "gatta": gatta_record,
        "forfeit": deal.forfeiter,
        "tricks": tricks,
        "deltas": {str(seat): deltas[seat] for seat in range(players)},
        "scores": {str(seat): scores[seat] for seat in range(players)},
    }


def match_outcome(scores: tuple[int, ...], hands_played: int, max_hands: int) -> dict[str, Any] | None:
    """The match result after a hand, or None when the match goes on (§11, MU-12, the `max_hands` cap)."""
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
