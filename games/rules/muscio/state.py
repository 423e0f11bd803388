"""Muscio's cards, phases and the immutable state the events fold into.

The state is split in three so that the hot path (a card played, a trick won) rebuilds only the small
top-level object: `Match` changes once per hand, `Deal` a few times per hand (declarations, exchange,
forfeit), `State` itself at every card. All three are named tuples, changed through the keyword copiers
`with_match`, `with_deal`, `with_state` (`games.engine.values`).

`State.frame` is derived, for speed: every key of a view with the values that only the match and the deal
decide (`view.view_frame`), built by the fold whenever the match or the deal changes, so that a view copies
it and fills in the few values that change at every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from games.engine.values import copier

#: Rank order, low to high, in every suit (rules §2). Every Muscio card is two characters: rank, suit.
RANKS = "234567JQKA"
SUITS = "SHDC"
RANK_VALUE: dict[str, int] = {rank: value for value, rank in enumerate(RANKS)}
#: Canonical input order of every shuffle: suits S H D C, each A 2 3 4 5 6 7 J Q K (ARCHITECTURE §4).
CANONICAL: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in "A234567JQK")

#: The JSON keys of seats 0..5 (scores, deltas and tricks are keyed by seat as a string).
SEAT_KEYS = tuple(str(seat) for seat in range(6))

HAND_SIZE = 5
TRICKS = 5
START_SCORE = 30

# Declarations (rules §5), as stored and shown.
PLAY = "play"
BLINDE = "play_blinde"
PASS = "pass"

# Phases where a player decides.
DECLARE = "declare"
EXCHANGE = "exchange"
FORFEIT = "forfeit"
PLAYING = "play"
OVER = "over"
# Phases the engine resolves by itself inside `decide` (never seen at a decision point).
DEALING = "dealing"
CHECK = "check"  # gatta check after the declarations / the exchange
TRICK_DONE = "trick_done"
HAND_DONE = "hand_done"
SCORED = "scored"

Play = tuple[int, str, bool]  # (seat, card, face down)
Trick = tuple[Play, ...]


class Match(NamedTuple):
    """What lasts across hands."""

    players: int
    max_hands: int
    scores: tuple[int, ...]
    hand_no: int  # hands started so far (the current hand's number)
    last_hand: dict[str, Any] | None  # the last `hand_scored` record (public)
    result: dict[str, Any] | None  # the `match_over` record


class Deal(NamedTuple):
    """The current hand's set-up: dealer, trump, dead cards, declarations, exchange, forfeit, gatta."""

    dealer: int
    trump: str
    turnup: str
    turnup_taken: bool  # the dealer exchanged: the turn-up is in the dealer's hand
    blinde: tuple[str, ...]  # the untaken blinde (empty once taken)
    stock: tuple[str, ...]  # the undealt rest of the deck (not used this hand)
    dead: tuple[tuple[str, ...], ...]  # per seat: its cards out of play (passed hand, original hand, given-up card)
    declarations: tuple[str | None, ...]
    blinde_taker: int | None
    exchanged: bool | None  # the dealer's exchange decision (None: not asked)
    participants: tuple[int, ...]  # clockwise from next(dealer), set when the declarations end
    leader: int | None  # who leads the first trick
    forfeit_order: tuple[int, ...]  # seats still to be asked about a forfeit, head = asked now
    forfeit_declined: tuple[int, ...]
    forfeiter: int | None
    gatta: tuple[tuple[int, tuple[str, ...], int], ...]  # (seat, shown cards, value)


class State(NamedTuple):
    match: Match
    deal: Deal
    phase: str
    turn: int | None
    hands: tuple[tuple[str, ...], ...]
    trick: Trick  # the trick in progress
    history: tuple[tuple[Trick, int], ...]  # completed tricks of this hand with their winner
    won: tuple[int, ...]  # tricks won this hand, per seat
    frame: dict[str, Any]  # derived: the view's keys, the match's and the deal's values filled in (`view_frame`)
    #: derived: (the cards the seat to play may play, face down or not) while a card is to be played, else None
    #: (`rules.legal_plays`); None too in a state built without it, whose readers then work it out
    legal: tuple[Sequence[str], bool] | None = None

    #: Not stored in snapshots: built again from the rest of the state (`MuscioEngine.rederive`).
    DERIVED_FIELDS = ("frame", "legal")


def _empty_deal(players: int, dealer: int) -> Deal:
    return Deal(
        dealer=dealer, trump="", turnup="", turnup_taken=False, blinde=(), stock=(),
        dead=((),) * players, declarations=(None,) * players, blinde_taker=None, exchanged=None,
        participants=(), leader=None, forfeit_order=(), forfeit_declined=(),
        forfeiter=None, gatta=(),
    )


#: The (immutable) set-up of a hand before any card is dealt, for every table size and dealer.
_EMPTY_DEALS = {(players, dealer): _empty_deal(players, dealer) for players in range(1, 7) for dealer in range(players)}


def empty_deal(players: int, dealer: int) -> Deal:
    return _EMPTY_DEALS.get((players, dealer)) or _empty_deal(players, dealer)


with_match = copier(Match)
with_deal = copier(Deal)
with_state = copier(State)


def all_cards(state: State) -> list[str]:
    """Every card of every zone: hands, blinde, stock, turn-up (while under the deck), dead, tricks."""
    deal = state.deal
    cards: list[str] = []
    for hand in state.hands:
        cards.extend(hand)
    cards.extend(deal.blinde)
    cards.extend(deal.stock)
    if deal.turnup and not deal.turnup_taken:
        cards.append(deal.turnup)
    for pile in deal.dead:
        cards.extend(pile)
    cards.extend(play[1] for play in state.trick)
    for trick, _ in state.history:
        cards.extend(play[1] for play in trick)
    return cards
