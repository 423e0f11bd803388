"""The Muscio engine object: options, action shapes, and the contract methods wired to the rules modules.

The whole match is one engine game: hands are dealt, played and scored inside it, the deal passing to
the left, until a score reaches zero (or the `max_hands` safety cap).
"""

from __future__ import annotations

import random
from typing import Any

from games.engine.base import BaseEngine, Option
from games.engine.protocol import JSON, Action, Event, InvalidOptions, Rng
from games.engine.schema import EMPTY_ACTION, card
from games.engine.shared import SharedDict
from games.rules.muscio.deal import match_events
from games.rules.muscio.decide import decide
from games.rules.muscio.evolve import evolve
from games.rules.muscio.rules import blinde_available, pass_allowed, play_options
from games.rules.muscio.state import CANONICAL, DECLARE, EXCHANGE, FORFEIT, PLAYING, State, all_cards
from games.rules.muscio.view import sample_state, view, view_frame
from games.rules.muscio.view_schema import VIEW_SCHEMA

_NO_FIELDS: JSON = EMPTY_ACTION
_TURN_SETS = tuple(frozenset((seat,)) for seat in range(6))

# The legal actions, built once and handed out by every `legal_actions` (read-only: see `shared`).
# card -> its `play` action, and its `exchange` action
_play_action = {card: SharedDict(type="play", card=card) for card in CANONICAL}.__getitem__
_exchange_action = {card: SharedDict(type="exchange", card=card) for card in CANONICAL}.__getitem__
_NO_EXCHANGE = SharedDict(type="no_exchange")
_PLAY, _PLAY_BLINDE, _PASS = SharedDict(type="play"), SharedDict(type="play_blinde"), SharedDict(type="pass")
_FORFEIT_ALL = (SharedDict(type="forfeit"), SharedDict(type="no_forfeit"))


class MuscioEngine(BaseEngine):
    kind = "muscio"
    title = "Muscio"
    seats = range(3, 7)
    # 2: State, Deal and Match are named tuples (1: dataclasses); 3: so is the snapshot's Position; 4: the view
    # frame kept with the state (`State.frame`); 5: the legal plays kept with it too (`State.legal`)
    state_version = 5
    card_ids = frozenset(CANONICAL)
    options = {
        "first_dealer": Option(None, int, minimum=0, maximum=5, nullable=True,
                               help="seat of the first dealer; drawn with the seeded rng when null"),
        "max_hands": Option(200, int, minimum=1, maximum=10_000,
                            help="safety cap: the match stops after this many hands, lowest score wins"),
    }
    action_schemas = {
        # `play` is both the declaration (no field) and a card play (with `card`), as in rules §5 and §9.
        "play": {"type": "object", "properties": {"card": card(CANONICAL)}, "required": []},
        "play_blinde": _NO_FIELDS,
        "pass": _NO_FIELDS,
        "exchange": {"type": "object", "properties": {"card": card(CANONICAL)}, "required": ["card"]},
        "no_exchange": _NO_FIELDS,
        "forfeit": _NO_FIELDS,
        "no_forfeit": _NO_FIELDS,
    }
    view_schema = VIEW_SCHEMA
    complete_legal_actions = True

    # -- setup ---------------------------------------------------------------------------------
    def start(self, seats: int, options: JSON, rng: Rng) -> list[Event]:
        options = self.normalize_options(options, seats)
        first = options["first_dealer"]
        if first is not None and first >= seats:
            raise InvalidOptions(f"first_dealer must be a seat between 0 and {seats - 1}")
        return match_events(seats, first, options["max_hands"], rng)

    def card_set(self, seats: int, options: JSON) -> list[str]:
        return list(CANONICAL)

    def all_cards(self, state: State) -> list[str]:
        return all_cards(state)

    # -- the fold and the decisions ------------------------------------------------------------
    # The hot contract methods are the rules modules' functions themselves (one call less per step).
    evolve = staticmethod(evolve)
    decide = decide_listed = staticmethod(decide)  # (no listed action carries more than itself)

    def to_act(self, state: State) -> frozenset[int]:
        turn = state.turn
        return frozenset() if turn is None else _TURN_SETS[turn]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat != state.turn:
            return []
        phase = state.phase
        if phase == PLAYING:
            legal = state.legal  # (kept by the fold for the seat to play)
            return [*map(_play_action, (legal if legal is not None else play_options(state, seat))[0])]
        if phase == DECLARE:
            actions = [_PLAY]
            if blinde_available(state):
                actions.append(_PLAY_BLINDE)
            if pass_allowed(state, seat):
                actions.append(_PASS)
            return actions
        if phase == EXCHANGE:
            return [*map(_exchange_action, state.hands[seat]), _NO_EXCHANGE]
        if phase == FORFEIT:
            return [*_FORFEIT_ALL]
        return []

    # -- reading -------------------------------------------------------------------------------
    view = staticmethod(view)

    def rederive(self, state: State) -> State:
        state = state._replace(frame=view_frame(state.match, state.deal), legal=None)
        if state.phase == PLAYING:
            state = state._replace(legal=play_options(state, state.turn))
        return state

    def result(self, state: State) -> dict[str, Any] | None:
        return state.match.result

    def sample_state(self, view: JSON, seat: int | None, rng: random.Random) -> State:
        return sample_state(view, seat, rng)
