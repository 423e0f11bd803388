"""Muscio's cards, phases and the frozen state the events fold into.

The state is split in three so that the hot path (a card played, a trick won) rebuilds only the small
top-level object: `Match` changes once per hand, `Deal` a few times per hand (declarations, exchange,
forfeit), `State` itself at every card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Rank order, low to high, in every suit (rules §2). Every Muscio card is two characters: rank, suit.
RANKS = "234567JQKA"
SUITS = "SHDC"
RANK_VALUE: dict[str, int] = {rank: value for value, rank in enumerate(RANKS)}
#: Canonical input order of every shuffle: suits S H D C, each A 2 3 4 5 6 7 J Q K (ARCHITECTURE §4).
CANONICAL: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in "A234567JQK")

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
AUTOMATIC = frozenset({CHECK, TRICK_DONE, HAND_DONE, SCORED})

Play = tuple[int, str, bool]  # (seat, card, face down)
Trick = tuple[Play, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """What lasts across hands."""

    players: int
    max_hands: int
    scores: tuple[int, ...]
    hand_no: int  # hands started so far (the current hand's number)
    last_hand: dict[str, Any] | None  # the last `hand_scored` record (public)
    result: dict[str, Any] | None  # the `match_over` record


@dataclass(frozen=True, slots=True)
class Deal:
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


@dataclass(frozen=True, slots=True)
class State:
    match: Match
    deal: Deal
    phase: str
    turn: int | None
    hands: tuple[tuple[str, ...], ...]
    trick: Trick  # the trick in progress
    history: tuple[tuple[Trick, int], ...]  # completed tricks of this hand with their winner
    won: tuple[int, ...]  # tricks won this hand, per seat


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


# -- fast builders ---------------------------------------------------------------------------------------
# A frozen dataclass's generated __init__ goes through `object.__setattr__` once per field, which makes it
# the main cost of the fold. These builders fill the slots through their descriptors instead (2-3 times
# faster); the objects are the same frozen dataclasses, equal to ones built by the constructor.
_new = object.__new__
_S_match = State.match.__set__
_S_deal = State.deal.__set__
_S_phase = State.phase.__set__
_S_turn = State.turn.__set__
_S_hands = State.hands.__set__
_S_trick = State.trick.__set__
_S_history = State.history.__set__
_S_won = State.won.__set__
_D_dealer = Deal.dealer.__set__
_D_trump = Deal.trump.__set__
_D_turnup = Deal.turnup.__set__
_D_turnup_taken = Deal.turnup_taken.__set__
_D_blinde = Deal.blinde.__set__
_D_stock = Deal.stock.__set__
_D_dead = Deal.dead.__set__
_D_declarations = Deal.declarations.__set__
_D_blinde_taker = Deal.blinde_taker.__set__
_D_exchanged = Deal.exchanged.__set__
_D_participants = Deal.participants.__set__
_D_leader = Deal.leader.__set__
_D_forfeit_order = Deal.forfeit_order.__set__
_D_forfeit_declined = Deal.forfeit_declined.__set__
_D_forfeiter = Deal.forfeiter.__set__
_D_gatta = Deal.gatta.__set__


def make_state(match: Match, deal: Deal, phase: str, turn: int | None, hands: tuple[tuple[str, ...], ...],
               trick: Trick, history: tuple[tuple[Trick, int], ...], won: tuple[int, ...]) -> State:
    """`State(...)` for the hot fold."""
    new = _new(State)
    _S_match(new, match)
    _S_deal(new, deal)
    _S_phase(new, phase)
    _S_turn(new, turn)
    _S_hands(new, hands)
    _S_trick(new, trick)
    _S_history(new, history)
    _S_won(new, won)
    return new


_KEEP: Any = object()  # "unchanged" marker for `deal_with`


def deal_with(
    deal: Deal,
    *,
    dealer: Any = _KEEP,
    trump: Any = _KEEP,
    turnup: Any = _KEEP,
    turnup_taken: Any = _KEEP,
    blinde: Any = _KEEP,
    stock: Any = _KEEP,
    dead: Any = _KEEP,
    declarations: Any = _KEEP,
    blinde_taker: Any = _KEEP,
    exchanged: Any = _KEEP,
    participants: Any = _KEEP,
    leader: Any = _KEEP,
    forfeit_order: Any = _KEEP,
    forfeit_declined: Any = _KEEP,
    forfeiter: Any = _KEEP,
    gatta: Any = _KEEP,
) -> Deal:
    """`dataclasses.replace(deal, ...)` for the hot fold: only the named fields change."""
    new = _new(Deal)
    _D_dealer(new, deal.dealer if dealer is _KEEP else dealer)
    _D_trump(new, deal.trump if trump is _KEEP else trump)
    _D_turnup(new, deal.turnup if turnup is _KEEP else turnup)
    _D_turnup_taken(new, deal.turnup_taken if turnup_taken is _KEEP else turnup_taken)
    _D_blinde(new, deal.blinde if blinde is _KEEP else blinde)
    _D_stock(new, deal.stock if stock is _KEEP else stock)
    _D_dead(new, deal.dead if dead is _KEEP else dead)
    _D_declarations(new, deal.declarations if declarations is _KEEP else declarations)
    _D_blinde_taker(new, deal.blinde_taker if blinde_taker is _KEEP else blinde_taker)
    _D_exchanged(new, deal.exchanged if exchanged is _KEEP else exchanged)
    _D_participants(new, deal.participants if participants is _KEEP else participants)
    _D_leader(new, deal.leader if leader is _KEEP else leader)
    _D_forfeit_order(new, deal.forfeit_order if forfeit_order is _KEEP else forfeit_order)
    _D_forfeit_declined(new, deal.forfeit_declined if forfeit_declined is _KEEP else forfeit_declined)
    _D_forfeiter(new, deal.forfeiter if forfeiter is _KEEP else forfeiter)
    _D_gatta(new, deal.gatta if gatta is _KEEP else gatta)
    return new


def next_participant(deal: Deal, seat: int) -> int:
    """The participant after `seat` clockwise (participants are stored clockwise from next(dealer))."""
    ring = deal.participants
    index = ring.index(seat) + 1
    return ring[index] if index < len(ring) else ring[0]


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
