"""What a seat may know (machiavelli.md §10), the states consistent with it, and the match result.

Public: the table, the stock size, every hand size, turn, dealer, passes, scores and finished deals.
Private: the viewer's own hand. Stock order and other hands are never shown; `sample_state` deals the
unseen cards at random among the other hands and the stock.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.rules.machiavelli.cards import DECK, sort_cards
from games.rules.machiavelli.state import State, deal_scores, exact, number, ranking, winners_of


def _deal_json(index: int, record: tuple, unit: int) -> dict[str, Any]:
    closer, blocked, cards_left = record
    scores = deal_scores(cards_left, closer, unit)
    return {
        "deal": index + 1,
        "closer": closer,
        "blocked": blocked,
        "cards_left": {str(seat): count for seat, count in enumerate(cards_left)},
        "scores": {str(seat): number(score) for seat, score in enumerate(scores)},
    }


#: Memo of the public summary of a state's finished deals and totals: they change once per deal, and
#: rebuilding Fractions at every view is the costliest part of a view. Values are immutable item tuples.
_SUMMARY: dict[tuple, tuple] = {}
_CACHE_LIMIT = 10_000


def _summary(state: State) -> tuple:
    key = (state.history, state.unit, state.seats)  # the totals follow from them
    try:
        return _SUMMARY[key]
    except KeyError:
        pass
    deals = tuple(
        tuple((name, tuple(value.items()) if isinstance(value, dict) else value) for name, value in
              _deal_json(i, record, state.unit).items())
        for i, record in enumerate(state.history)
    )
    totals = tuple((str(seat), number(score)) for seat, score in enumerate(state.scores))
    if len(_SUMMARY) >= _CACHE_LIMIT:
        _SUMMARY.clear()
    _SUMMARY[key] = found = (deals, totals)
    return found


def _fresh(items: tuple) -> dict[str, Any]:
    return {name: dict(value) if isinstance(value, tuple) else value for name, value in items}


def view(state: State, viewer: int | None) -> dict[str, Any]:
    deals, totals = _summary(state)
    return {
        "viewer": viewer,
        "seats": state.seats,
        "options": dict(state.options),
        "deal": state.deal_no,
        "deals": state.deals,
        "dealer": state.dealer,
        "turn": state.turn if state.turn >= 0 and not state.over else None,
        "opening": state.opening,
        "passes": state.passes,
        "stock": len(state.stock),
        "table": list(map(list, state.table)),
        "hand_counts": list(map(len, state.hands)),
        "hand": list(state.hands[viewer]) if viewer is not None else None,
        "scores": dict(totals),
        "history": [_fresh(deal) for deal in deals],
        "over": state.over,
    }


def sample_state(data: dict[str, Any], viewer: int | None, rng: random.Random) -> State:
    """A full state matching the view `data`: unseen cards dealt at random to other hands and the stock."""
    seats = data["seats"]
    options = data["options"]
    counts = data["hand_counts"]
    table = tuple(tuple(group) for group in data["table"])
    own = tuple(data["hand"]) if viewer is not None and data["hand"] is not None else None
    unseen = Counter(DECK)
    unseen.subtract(card for group in table for card in group)
    if own is not None:
        unseen.subtract(own)
    pool = sorted(unseen.elements())
    rng.shuffle(pool)
    hands = []
    top = 0
    for seat, count in enumerate(counts):
        if seat == viewer and own is not None:
            hands.append(sort_cards(own))
            continue
        hands.append(sort_cards(pool[top : top + count]))
        top += count
    stock = tuple(pool[top : top + data["stock"]])
    history = tuple(
        (deal["closer"], deal["blocked"], tuple(deal["cards_left"][str(seat)] for seat in range(seats)))
        for deal in data["history"]
    )
    return State(
        seats=seats,
        options=tuple(sorted(options.items())),
        deals=options["deals"],
        unit=options["unit"],
        penalty=options["failed_operation"] == "penalty",
        deal_no=data["deal"],
        dealer=data["dealer"],
        turn=data["turn"] if data["turn"] is not None else -1,
        opening=data["opening"],
        passes=data["passes"],
        hands=tuple(hands),
        stock=stock,
        table=table,
        scores=tuple(exact(data["scores"][str(seat)]) for seat in range(seats)),
        history=history,
        over=data["over"],
    )


def result(state: State) -> dict[str, Any] | None:
    if not state.over:
        return None
    winners = winners_of(state.scores)
    return {
        "winners": winners,
        "scores": {str(seat): number(score) for seat, score in enumerate(state.scores)},
        "reason": "deals_completed",
        "deals": [_deal_json(i, record, state.unit) for i, record in enumerate(state.history)],
        "ranking": ranking(state.scores),
    }
