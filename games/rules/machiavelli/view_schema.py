"""The JSON Schema of a Machiavelli view (see `view.py`): what a client needs to draw the table."""

from __future__ import annotations

from games.engine.schema import BOOLEAN, COUNT, JSON, NUMBER, array, by_seat, card, nullable, obj, seat
from games.rules.machiavelli.cards import CARD_IDS

_SEAT = seat(5)
_CARDS = array(card(CARD_IDS))

VIEW_SCHEMA: JSON = obj({
    "viewer": nullable(_SEAT), "seats": {"type": "integer", "minimum": 2, "maximum": 6},
    "options": {"type": "object", "description": "the game's options, as normalised at creation"},
    "deal": COUNT, "deals": COUNT, "dealer": _SEAT, "turn": nullable(_SEAT), "opening": BOOLEAN, "passes": COUNT,
    "stock": {**COUNT, "description": "cards left in the stock"},
    "table": {**array(_CARDS), "description": "the melds on the table"},
    "hand_counts": array(COUNT), "hand": {**nullable(_CARDS), "description": "the viewer's hand; null for a spectator"},
    "scores": by_seat(NUMBER),
    "history": array(obj({"deal": COUNT, "closer": nullable(_SEAT), "blocked": BOOLEAN,
                          "cards_left": by_seat(COUNT), "scores": by_seat(NUMBER)})),
    "over": BOOLEAN,
}, description="A Machiavelli table as one seat (or a spectator) sees it.")
