"""The JSON Schema of a Muscio view (see `view.py`): what a client needs to draw the table."""

from __future__ import annotations

from games.engine.schema import (
                                 BOOLEAN,
                                 COUNT,
                                 INTEGER,
                                 JSON,
                                 NUMBER,
                                 STRING,
                                 array,
                                 by_seat,
                                 card,
                                 nullable,
                                 obj,
                                 seat,
                                 tuple_of,
)
from games.rules.muscio.state import CANONICAL

_SEAT = seat(5)
_CARD = card(CANONICAL)
_CARDS = array(_CARD)
_SUIT = {"enum": ["S", "H", "D", "C"]}
#: `[seat, card, face_down]`; card is null for another seat's face-down card.
_PLAY = tuple_of(_SEAT, nullable(_CARD), BOOLEAN)

_LAST_HAND = obj({
    "hand": INTEGER, "dealer": _SEAT, "kind": STRING, "trump": _SUIT, "participants": array(_SEAT),
    "blinde": nullable(_SEAT), "gatta": nullable(by_seat(obj({"suit": _SUIT, "value": INTEGER}))),
    "forfeit": nullable(_SEAT), "tricks": by_seat(COUNT), "deltas": by_seat(INTEGER), "scores": by_seat(INTEGER)})

_RESULT = obj({"winners": array(_SEAT), "scores": by_seat(INTEGER), "reason": STRING, "ranking": array(_SEAT)},
              {"hands": INTEGER, "payout": nullable(NUMBER), "payout_fraction": nullable(STRING)})

VIEW_SCHEMA: JSON = obj({
    "players": seat(6), "max_hands": INTEGER, "hand": INTEGER, "dealer": _SEAT,
    "phase": {"enum": ["declare", "exchange", "forfeit", "play", "over"]}, "turn": nullable(_SEAT),
    "scores": array(INTEGER), "trump": _SUIT, "turn_up": _CARD, "turn_up_taken": BOOLEAN,
    "declarations": array(nullable({"enum": ["pass", "play", "play_blinde"]})),
    "blinde_taker": nullable(_SEAT), "exchanged": nullable(BOOLEAN), "participants": array(_SEAT),
    "leader": nullable(_SEAT), "forfeit_order": array(_SEAT), "forfeit_declined": array(_SEAT),
    "forfeiter": nullable(_SEAT), "gatta": array(obj({"seat": _SEAT, "cards": _CARDS, "value": INTEGER})),
    "hand_counts": array(COUNT), "blinde_count": COUNT, "stock_count": COUNT, "out_of_play_counts": array(COUNT),
    "my_hand": {**nullable(_CARDS), "description": "the viewer's hand; null for a spectator"},
    "my_out_of_play": nullable(_CARDS), "trick": array(_PLAY),
    "tricks": array(obj({"plays": array(_PLAY), "winner": _SEAT})), "tricks_won": array(COUNT),
    "last_hand": nullable(_LAST_HAND), "result": nullable(_RESULT),
}, description="A Muscio table as one seat (or a spectator) sees it.")
