"""What a seat may know (machiavelli.md §10), the states consistent with it, and the match result.

Public: the table, the stock size, every hand size, turn, dealer, passes, scores and finished deals.
Private: the viewer's own hand. Stock order and other hands are never shown; `sample_state` deals the
unseen cards at random among the other hands and the stock.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engine.shared import SharedDict, SharedList
from games.rules.machiavelli.cards import DECK, sort_cards
from games.rules.machiavelli.state import Match, State, deal_scores, exact, hand_rows, number, ranking, winners_of
from games.rules.machiavelli.tables import facts


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


def _shared_deal(index: int, record: tuple, unit: int) -> SharedDict:
    """A finished deal as JSON that every view may hand out (read-only, its nested dicts too)."""
    deal = _deal_json(index, record, unit)
    deal["cards_left"] = SharedDict(deal["cards_left"])
    deal["scores"] = SharedDict(deal["scores"])
    return SharedDict(deal)


#: Memo of the parts of a view that change at most once per deal, as one template per viewer: the options,
#: the totals and the finished deals (rebuilding Fractions at every view is otherwise the costliest part of
#: a view), all read-only, so that every view may share them. They are a function of the state's `Match`,
#: which every state of a deal shares: keyed by its identity, each entry holds the match, so that its id
#: cannot be reused while the entry lives, and is checked against it.
Templates = dict[int | None, dict[str, Any]]
_TEMPLATES: dict[int, tuple[Match, Templates]] = {}
_CACHE_LIMIT = 10_000


def _templates(match: Match) -> Templates:
    """The templates of the views of `match` (filled in for each viewer as asked)."""
    entry = _TEMPLATES.get(id(match))
    if entry is None or entry[0] is not match:
        if len(_TEMPLATES) >= _CACHE_LIMIT:
            _TEMPLATES.clear()
        _TEMPLATES[id(match)] = entry = (match, {})
    return entry[1]


def _template(match: Match, viewer: int | None) -> dict[str, Any]:
    """A view of `match` by `viewer` whose parts that change at every event are still missing (None), or
    hold their usual value (`opening`, `passes`)."""
    deals = SharedList(_shared_deal(i, record, match.unit) for i, record in enumerate(match.history))
    return {
        "viewer": viewer,
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
        "history": deals,
        "over": match.over,
    }


def view(state: State, viewer: int | None) -> dict[str, Any]:
    """A fresh copy of the template of the match and the viewer, with the deal in play: the parts that
    are shared (the options, totals, finished deals and the table) are read-only."""
    match = state.match
    entry = _TEMPLATES.get(id(match))  # (`_templates`, its usual case inline: a view is built at every step)
    templates = entry[1] if entry is not None and entry[0] is match else _templates(match)
    template = templates.get(viewer)
    if template is None:
        template = templates[viewer] = _template(match, viewer)
    turn = state.turn
    hands = state.hands
    out = template.copy()
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
        "deals": [_deal_json(i, record, match.unit) for i, record in enumerate(match.history)],
        "ranking": ranking(match.scores),
    }
