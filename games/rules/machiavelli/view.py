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


#: Memo of the parts of a view that change at most once per deal: the options, the totals and the finished
#: deals (rebuilding Fractions at every view is otherwise the costliest part of a view). Keyed by the
#: identity of `state.history` and `state.options`, which every state of a deal shares (and which no two
#: games share, so they also fix the seats); an entry holds both objects, so their ids cannot be reused
#: while it lives, and is checked against them. `_LAST` is the entry of the latest view, tried first.
_SUMMARY: dict[tuple[int, int], tuple] = {}
_LAST: list[tuple] = [(None, None, None)]
_CACHE_LIMIT = 10_000


def _summary(state: State) -> tuple[dict, dict, tuple[dict, ...]]:
    """(options, totals, finished deals) as JSON, to be copied by each view: never handed out as they are."""
    history, options = state.history, state.options
    entry = _LAST[0]
    if entry[0] is history and entry[1] is options:
        return entry[2]
    key = (id(history), id(options))
    entry = _SUMMARY.get(key)
    if entry is None or entry[0] is not history or entry[1] is not options:
        deals = tuple(_deal_json(i, record, state.unit) for i, record in enumerate(history))
        totals = {str(seat): number(score) for seat, score in enumerate(state.scores)}
        if len(_SUMMARY) >= _CACHE_LIMIT:
            _SUMMARY.clear()
        _SUMMARY[key] = entry = (history, options, (dict(options), totals, deals))
    _LAST[0] = entry
    return entry[2]


def _copy_deal(deal: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of a memoised finished deal (its two nested dicts included)."""
    copy = deal.copy()
    copy["cards_left"] = deal["cards_left"].copy()
    copy["scores"] = deal["scores"].copy()
    return copy


def view(state: State, viewer: int | None) -> dict[str, Any]:
    options, totals, deals = _summary(state)
    return {
        "viewer": viewer,
        "seats": state.seats,
        "options": options.copy(),
        "deal": state.deal_no,
        "deals": state.deals,
        "dealer": state.dealer,
        "turn": state.turn if state.turn >= 0 and not state.over else None,
        "opening": state.opening,
        "passes": state.passes,
        "stock": len(state.stock),
        "table": [[*group] for group in state.table],
        "hand_counts": list(map(len, state.hands)),
        "hand": list(state.hands[viewer]) if viewer is not None else None,
        "scores": totals.copy(),
        "history": list(map(_copy_deal, deals)),
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
