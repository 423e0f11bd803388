"""The state of a Machiavelli match and the deal settlement (machiavelli.md §7–§9).

One dataclass holds everything: hands and the table are tuples of card ids (hands kept in canonical
order, the table as normalised groups), the stock is a tuple with the top card first. Scores are exact
`Fraction`s because a blocked deal may share a total unevenly; views and results turn them into JSON
numbers.

A state is a value: nothing ever assigns to a field, `evolve` builds a new one for every event. It is not
declared `frozen` only because a frozen dataclass's `__init__` sets each field through
`object.__setattr__`, ten times slower than a plain slots class, and a state is built at every event (the
engine-speed benchmark). It stays hashable and compares by value, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

#: One finished deal: (closer or None, blocked, cards left per seat).
DealRecord = tuple[int | None, bool, tuple[int, ...]]


@dataclass(slots=True, unsafe_hash=True)
class State:
    seats: int
    options: tuple[tuple[str, Any], ...]  # the normalised options, as sorted items
    deals: int  # deals in the match
    unit: int  # payment per card
    penalty: bool  # failed_operation == "penalty"
    deal_no: int = 0  # current deal, 1-based (0 before the first)
    dealer: int = 0
    turn: int = -1  # seat to act, -1 when nobody
    opening: bool = False  # the first turn of the deal: a forced draw
    passes: int = 0  # consecutive passes on an empty stock
    hands: tuple[tuple[str, ...], ...] = ()
    stock: tuple[str, ...] = ()  # top card first
    table: tuple[tuple[str, ...], ...] = ()
    scores: tuple[Fraction, ...] = ()
    history: tuple[DealRecord, ...] = ()
    over: bool = False

    def option(self, name: str) -> Any:
        return dict(self.options)[name]


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
