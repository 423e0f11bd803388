"""The Machiavelli engine object: options, action shapes, and the contract methods wired to the modules.

`legal_actions` is a sample (`complete_legal_actions = False`): `draw` or `pass`, plus the melds that
`legal.py` finds; `decide` accepts any valid arrangement of the whole table.

The contract methods that only forward to a module are bound to its function directly (a staticmethod):
they run at every step, and a forwarding method would cost one more Python call each time.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.base import BaseEngine, Option
from games.engine.protocol import Action, Event, Rng
from games.engine.schema import EMPTY_ACTION, card
from games.engine.shared import SharedDict
from games.rules.machiavelli import deal, legal
from games.rules.machiavelli import decide as _decide
from games.rules.machiavelli import evolve as _evolve
from games.rules.machiavelli import view as _view
from games.rules.machiavelli.cards import CARD_IDS, DECK
from games.rules.machiavelli.state import State
from games.rules.machiavelli.tables import facts
from games.rules.machiavelli.view_schema import VIEW_SCHEMA

#: The draw and the pass, shared by every `legal_actions` answer (read-only).
_DRAW: Action = SharedDict(type="draw")
_PASS: Action = SharedDict(type="pass")


class MachiavelliEngine(BaseEngine):
    kind = "machiavelli"
    title = "Machiavelli"
    seats = range(2, 7)
    # 1: frozen dataclass; 2: plain slots; 3: a Match part, the hands' rows, the table's facts; 4: the match's
    # view frame (`Match.frame`)
    state_version = 4
    card_ids = CARD_IDS
    complete_legal_actions = False
    options = {
        "deals": Option(4, int, minimum=1, maximum=50, help="deals in the match (1 = a single deal)"),
        "unit": Option(1, int, minimum=1, maximum=1000, help="payment per card left in hand"),
        "failed_operation": Option(
            "penalty", str, choices=("penalty", "reject"),
            help="an invalid arrangement: 'penalty' restores the table and draws 3; 'reject' refuses it",
        ),
        "first_dealer": Option(None, int, minimum=0, nullable=True, help="seat of the first dealer (else drawn)"),
    }
    retired_options = {
        "turn_seconds": "the hourglass is the platform's turn clock: give POST /games/ 'turn_seconds' (and "
                        "'clock_policy') beside 'options'",
    }
    action_schemas = {
        "meld": {
            "type": "object",
            "properties": {
                "table": {"type": "array", "items": {"type": "array", "items": card(CARD_IDS), "minItems": 1},
                          "description": "the whole table after your move, every meld a list of cards"},
            },
            "required": ["table"],
        },
        "draw": EMPTY_ACTION,
        "pass": EMPTY_ACTION,
    }
    view_schema = VIEW_SCHEMA

    def start(self, seats: int, options: dict[str, Any], rng: Rng) -> list[Event]:
        return deal.start_events(seats, options, rng)

    evolve = staticmethod(_evolve.evolve)
    decide = staticmethod(_decide.decide)
    decide_listed = staticmethod(_decide.decide_listed)
    view = staticmethod(_view.view)
    result = staticmethod(_view.result)

    to_act = staticmethod(_decide.to_act)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state.match.over or seat != state.turn:
            return []
        if state.opening:
            return [_DRAW]
        known = state.facts
        if known[0] is not state.table:  # a state built by hand: its facts are found again
            known = facts(state.table)
        rows = state.rows[4 * seat : 4 * seat + 4]
        return legal.sampled_melds(known, state.hands[seat], rows, [_DRAW if state.stock else _PASS])

    def sample_state(self, view: dict[str, Any], seat: int | None, rng: random.Random) -> State:
        return _view.sample_state(view, seat, rng)

    def card_set(self, seats: int, options: dict[str, Any]) -> list[str]:
        return list(DECK)

    def all_cards(self, state: State) -> list[str]:
        cards = [card for hand in state.hands for card in hand]
        cards.extend(state.stock)
        cards.extend(card for group in state.table for card in group)
        return cards


ENGINE = MachiavelliEngine()
