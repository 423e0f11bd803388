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
from games.rules.machiavelli.state import Match, State, deal_json, exact, hand_rows, number, ranking, winners_of
from games.rules.machiavelli.tables import facts


def view(state: State, viewer: int | None) -> dict[str, Any]:
    """A fresh copy of the match's view frame (`state.view_frame`) with the viewer and the deal in play: the
    parts that are shared (the options, totals, finished deals and the table) are read-only."""
    match = state.match
    turn = state.turn
    hands = state.hands
    out = match.frame.copy()
    out["viewer"] = viewer
    out["turn"] = turn if turn >= 0 and not match.over else None
    if state.opening:
        out["opening"] = True
    if state.passes:
        out["passes"] = state.passes
    out["stock"] = len(state.stock)
    known = state.facts
    out["table"] = known[2] if known[0] is state.table else facts(state.table)[2]
    out["hand_counts"] = [*map(len, hands)]
    if viewer is not None:
        out["hand"] = list(hands[viewer])
    return out


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
    match = Match(
        seats=seats,
        options=tuple(sorted(options.items())),
        deals=options["deals"],
        unit=options["unit"],
        penalty=options["failed_operation"] == "penalty",
        deal_no=data["deal"],
        dealer=data["dealer"],
        scores=tuple(exact(data["scores"][str(seat)]) for seat in range(seats)),
        history=history,
        over=data["over"],
    )
    return State(
        match,
        turn=data["turn"] if data["turn"] is not None else -1,
        opening=data["opening"],
        passes=data["passes"],
        hands=tuple(hands),
        stock=stock,
        table=table,
        rows=tuple(row for hand in hands for row in hand_rows(hand)),
        facts=facts(table),
    )


def result(state: State) -> dict[str, Any] | None:
    match = state.match
    if not match.over:
        return None
    winners = winners_of(match.scores)
    return {
        "winners": winners,
        "scores": {str(seat): number(score) for seat, score in enumerate(match.scores)},
        "reason": "deals_completed",
        "deals": [deal_json(i, record, match.unit) for i, record in enumerate(match.history)],
        "ranking": ranking(match.scores),
    }
