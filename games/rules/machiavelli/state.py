"""The state of a Machiavelli match and the deal settlement (machiavelli.md §7–§9).

A state is the deal in play (turn, hands, stock, table) and a `Match`, the part that changes at most once a
deal (options, deal number and dealer, scores, finished deals), which every state of a deal shares: the
state built at every event then has few fields. Hands and the table are tuples of card ids (hands kept in
canonical order, the table as normalised groups, sorted), the stock is a tuple with the top card first.
Scores are exact `Fraction`s because a blocked deal may share a total unevenly; views and results turn
them into JSON numbers. Each hand is also kept as four rows of bits (`rows`, see `Rows`): the meld
generator works on them at every step, and a draw or a meld changes one or two bits. The state also
carries what the meld generator, the views and the events need of its table (`facts`, see `tables.py`),
left out of comparisons. Both are derived, and `evolve` and `sample_state` keep them in step with the
hands and the table (the engine finds the facts of a table again when they are not its own; a state
built by other means must give the rows of its hands).

A state is a value: nothing ever assigns to a field, `evolve` builds a new one for every event. It is not
declared `frozen` only because a frozen dataclass's `__init__` sets each field through
`object.__setattr__`, ten times slower than a plain slots class, and a state is built at every event (the
engine-speed benchmark). It stays hashable and compares by value. The match's fields read through the
state too (`state.scores`), for the rare readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import attrgetter
from typing import Any

from games.engine.shared import SharedDict, SharedList
from games.rules.machiavelli.cards import CODE
from games.rules.machiavelli.tables import NO_FACTS, Facts

#: One finished deal: (closer or None, blocked, cards left per seat).
DealRecord = tuple[int | None, bool, tuple[int, ...]]
#: A hand as four 13-bit rows, one a suit (S H D C): bit `rank - 1` is set when the hand holds a card of
#: that suit and rank (1..13). Duplicates are not counted.
Rows = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Match:
    """The part of a state that changes at most once a deal, shared by the states of a deal."""

    seats: int
    options: tuple[tuple[str, Any], ...]  # the normalised options, as sorted items
    deals: int  # deals in the match
    unit: int  # payment per card
    penalty: bool  # failed_operation == "penalty"
    deal_no: int = 0  # current deal, 1-based (0 before the first)
    dealer: int = 0
    scores: tuple[Fraction, ...] = ()
    history: tuple[DealRecord, ...] = ()
    over: bool = False
    #: Derived, for speed: the parts of every view that only the match decides (`view_frame`), built with the
    #: match, so that a view copies them instead of turning scores and finished deals into JSON each time.
    frame: dict[str, Any] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "frame", view_frame(self))


def _of_match(name: str) -> property:
    """A read-only state attribute for a field of its match."""
    return property(attrgetter(f"match.{name}"), doc=f"`match.{name}`")


@dataclass(slots=True, unsafe_hash=True)
class State:
    match: Match
    turn: int = -1  # seat to act, -1 when nobody
    opening: bool = False  # the first turn of the deal: a forced draw
    passes: int = 0  # consecutive passes on an empty stock
    hands: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()  # top card first
    table: tuple[tuple[str, ...], ...] = ()
    rows: tuple[int, ...] = ()  # the rows of every hand in turn: seat s's are rows[4 * s : 4 * s + 4]
    facts: Facts = field(default=NO_FACTS, compare=False)  # of `table` (`tables.Facts`): derived, for speed

    seats = _of_match("seats")
    options = _of_match("options")
    deals = _of_match("deals")
    unit = _of_match("unit")
    penalty = _of_match("penalty")
    deal_no = _of_match("deal_no")
    dealer = _of_match("dealer")
    scores = _of_match("scores")
    history = _of_match("history")
    over = _of_match("over")


#: The suit and the row bit of each card id.
SUIT: dict[str, int] = {card: code // 13 for card, code in CODE.items()}
ROW_BIT: dict[str, int] = {card: 1 << code % 13 for card, code in CODE.items()}


def hand_rows(hand: Sequence[str]) -> Rows:
    """The rows of the cards of `hand`."""
    rows = [0, 0, 0, 0]
    for card in hand:
        rows[SUIT[card]] |= ROW_BIT[card]
    return rows[0], rows[1], rows[2], rows[3]


def deal_scores(cards_left: Sequence[int], closer: int | None, unit: int) -> tuple[Fraction, ...]:
    """Per-seat result of one deal.

    Closed: everybody pays the closer `unit` per card held. Blocked: with `m` the fewest cards held, each
    player pays `(cards − m) × unit` and the players holding `m` share the total equally.
    """
    if closer is not None:
        paid = [0 if seat == closer else count * unit for seat, count in enumerate(cards_left)]
        total = sum(paid)
        return tuple(Fraction(total) if seat == closer else Fraction(-p) for seat, p in enumerate(paid))
    fewest = min(cards_left)
    winners = sum(1 for count in cards_left if count == fewest)
    total = sum((count - fewest) * unit for count in cards_left)
    share = Fraction(total, winners)
    return tuple(share if count == fewest else Fraction(-(count - fewest) * unit) for count in cards_left)


def number(value: Fraction) -> int | float:
    """A score as a JSON number: an int when whole, else a float."""
    return value.numerator if value.denominator == 1 else float(value)


def exact(value: int | float) -> Fraction:
    """Back from a JSON score: every score is a multiple of 1/60 (shares among at most 5 winners)."""
    return Fraction(value).limit_denominator(60)


def deal_json(index: int, record: DealRecord, unit: int) -> dict[str, Any]:
    """Finished deal number `index + 1` as JSON."""
    closer, blocked, cards_left = record
    scores = deal_scores(cards_left, closer, unit)
    return {
        "deal": index + 1,
        "closer": closer,
        "blocked": blocked,
        "cards_left": {str(seat): count for seat, count in enumerate(cards_left)},
        "scores": {str(seat): number(score) for seat, score in enumerate(scores)},
    }


def _shared_deal(index: int, record: DealRecord, unit: int) -> SharedDict:
    """A finished deal as JSON that every view may hand out (read-only, its nested dicts too)."""
    deal = deal_json(index, record, unit)
    deal["cards_left"] = SharedDict(deal["cards_left"])
    deal["scores"] = SharedDict(deal["scores"])
    return SharedDict(deal)


def view_frame(match: Match) -> dict[str, Any]:
    """Every key of a view, in order, with the parts the match decides filled in (the options, totals and
    finished deals read-only, shared by every view) and the others left to `view.view`: None, or their usual
    value (`opening`, `passes`)."""
    return {
        "viewer": None,
        "seats": match.seats,
        "options": SharedDict(match.options),
        "deal": match.deal_no,
        "deals": match.deals,
        "dealer": match.dealer,
        "turn": None,
        "opening": False,
        "passes": 0,
        "stock": None,
        "table": None,
        "hand_counts": None,
        "hand": None,
        "scores": SharedDict((str(seat), number(score)) for seat, score in enumerate(match.scores)),
        "history": SharedList(_shared_deal(i, record, match.unit) for i, record in enumerate(match.history)),
        "over": match.over,
    }


def winners_of(scores: Sequence[Fraction]) -> list[int]:
    """Seats with the best total; nobody when everybody is level (a drawn match)."""
    best = max(scores)
    if all(score == best for score in scores):
        return []
    return [seat for seat, score in enumerate(scores) if score == best]


def ranking(scores: Sequence[Fraction]) -> list[dict[str, Any]]:
    """Seats by total, best first; equal totals share a rank (1, 1, 3 …)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out = []
    for position, seat in enumerate(order):
        rank = position + 1
        if position and scores[seat] == scores[order[position - 1]]:
            rank = out[-1]["rank"]
        out.append({"seat": seat, "score": number(scores[seat]), "rank": rank})
    return out
