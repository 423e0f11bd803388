"""The JSON Schema of a patience view (see `view.py`): what a client needs to draw the table."""

from __future__ import annotations

from collections.abc import Iterable

from games.engine.schema import BOOLEAN, COUNT, INTEGER, JSON, STRING, array, by_seat, card, nullable, obj, seat
from games.rules.patience.state import ROWS, SEATS

_SEAT = seat(SEATS - 1)


def view_schema(card_ids: Iterable[str]) -> JSON:
    one = card(card_ids)
    cards = array(one)
    points = by_seat(INTEGER)
    game = obj({"game": INTEGER, "winner": nullable(_SEAT), "reason": STRING, "points": points})
    player = obj({
        "hand": {**nullable(cards), "description": "the cards in hand: only the viewer's own, else null"},
        "hand_count": COUNT, "goal_top": nullable(one), "goal_count": COUNT,
        "discards": array(cards, ROWS, ROWS)})
    result = obj({"winners": array(_SEAT), "scores": points, "reason": STRING, "winner": nullable(_SEAT),
                  "points": points, "totals": points, "target": nullable(INTEGER), "games": array(game)})
    return obj({
        "game": INTEGER, "target": nullable(INTEGER), "max_turns": INTEGER, "turn": INTEGER,
        "current": {**nullable(_SEAT), "description": "the seat to act; null once the match is over"},
        "moved_this_turn": BOOLEAN, "dead_turns": COUNT,
        "players": array(player, SEATS, SEATS), "stock_count": COUNT,
        "centre": array(obj({"id": COUNT, "value": COUNT, "cards": cards})),
        "next_pile_id": COUNT, "completed": cards, "totals": points, "games": array(game),
        "over": BOOLEAN, "result": nullable(result),
    }, description="A patience table as one seat (or a spectator) sees it.")
