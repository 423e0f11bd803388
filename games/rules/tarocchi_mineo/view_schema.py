"""The JSON Schema of a Tarocchi (Mineo) view (see `view.py`): what a client needs to draw the table."""

from __future__ import annotations

from games.engine.schema import (
                                 BOOLEAN,
                                 COUNT,
                                 INTEGER,
                                 JSON,
                                 STRING,
                                 array,
                                 by_seat,
                                 card,
                                 nullable,
                                 obj,
                                 seat,
                                 tuple_of,
)
from games.rules.tarocchi_mineo.cards import CARD_IDS
from games.rules.tarocchi_mineo.state import PLAYERS

_SEAT = seat(PLAYERS - 1)
_CARD = card(CARD_IDS)
_CARDS = array(_CARD)
_SIDE = {"enum": ["declarer", "opponents"]}
_CONTRACT = {"enum": ["call", "solo", "stata"]}
_PLAY = tuple_of(_SEAT, _CARD)  # [seat, card]
_SAID = tuple_of(_SEAT, STRING)  # [seat, what it said]
_BY_SIDE = obj({"declarer": INTEGER, "opponents": INTEGER})

_DEAL_SUMMARY = obj({
    "deal": COUNT, "dealer": _SEAT, "type": _CONTRACT, "declarer": _SEAT, "partner": nullable(_SEAT),
    "called": nullable(_CARD), "forced": BOOLEAN, "discard": _CARDS,
    "fuggitivo": nullable(obj({"owner": _SEAT, "side": _SIDE})), "card_points": _BY_SIDE, "totals": _BY_SIDE,
    "last_trick": _SIDE, "jochi": _BY_SIDE,
    "jochi_detail": obj({"declarer": {"type": "object", "additionalProperties": INTEGER},
                         "opponents": {"type": "object", "additionalProperties": INTEGER}}),
    "difference": INTEGER, "winner": nullable(_SIDE), "scores": by_seat(INTEGER)})

VIEW_SCHEMA: JSON = obj({
    "deals": INTEGER, "deal": COUNT, "dealer": nullable(_SEAT), "scores": array(INTEGER, PLAYERS, PLAYERS),
    "history": array(_DEAL_SUMMARY), "stock_count": COUNT, "stata_bids": array(_SAID), "bids": array(_SAID),
    "call": {**nullable(tuple_of(_SEAT, _CARD)), "description": "[declarer, the trump called]"},
    "declarer": nullable(_SEAT), "contract": nullable(_CONTRACT), "forced": BOOLEAN, "called": nullable(_CARD),
    "partner_public": BOOLEAN, "monte": _CARDS, "discard_count": COUNT, "commits": array(_SAID),
    "phase": {"enum": ["stata", "auction", "discard", "commit", "play", "over"]}, "turn": nullable(_SEAT),
    "hand": {**nullable(_CARDS), "description": "the viewer's hand; null for a spectator"},
    "hand_counts": array(COUNT, PLAYERS, PLAYERS),
    "peek": {**nullable(_CARD), "description": "the card the dealer saw; only the dealer's view shows it"},
    "partner": nullable(_SEAT), "discard": nullable(_CARDS), "leader": nullable(_SEAT), "trick": array(_PLAY),
    "tricks": array({**tuple_of(_SEAT, array(_PLAY), _SEAT), "description": "[leader, plays, winner]"}),
    "fuggitivo": nullable(obj({"owner": _SEAT, "trick": COUNT, "trick_winner": nullable(_SEAT),
                               "status": {"enum": ["assigned", "pending"]}})),
}, description="A Tarocchi Siciliani (Mineo) table as one seat (or a spectator) sees it.")
