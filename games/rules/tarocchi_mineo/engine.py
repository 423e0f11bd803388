"""The `tarocchi-mineo` engine object: options, action shapes, and the contract methods wired together.

The whole match (a multiple of four deals) is one engine game: `decide` chains each deal's scoring
into the next deal's shuffle, and `result` is set only after the last deal.
"""

from __future__ import annotations

import random
from types import MethodType
from typing import Any

from games.engine.base import BaseEngine, Option
from games.engine.protocol import JSON, Action, Event, InvalidOptions, Rng
from games.engine.schema import EMPTY_ACTION, card

from .cards import CARD_IDS, DECK
from .deal import start_deal_events
from .decide import decide as _decide
from .decide import match_outcome
from .evolve import evolve as _evolve
from .rules import RULES_VERSIONS, discard_options, legal_cards, may_rivanto, may_scommessa
from .sample import sample_state as _sample_state
from .state import ACTIVE_PHASES, AUCTION, COMMIT, DISCARD, OVER, PLAY, PLAYERS, STATA, State
from .view import view as _view
from .view import view_frame
from .view_schema import VIEW_SCHEMA

_NO_FIELDS: JSON = EMPTY_ACTION
_TO_ACT = {seat: frozenset({seat}) for seat in range(PLAYERS)}
_NOBODY: frozenset[int] = frozenset()


class TarocchiMineo(BaseEngine):
    kind = "tarocchi-mineo"
    title = "Tarocchi Siciliani — Mineo, 4 players"
    seats = range(PLAYERS, PLAYERS + 1)
    # 2: State, Deal and Match are named tuples (1: dataclasses); 3: so is the snapshot's Position; 4: the view
    # frame kept with the state (`State.frame`)
    state_version = 4
    card_ids = CARD_IDS
    options = {
        "deals": Option(8, int, minimum=4, maximum=400, help="length of the match; a multiple of 4"),
        "first_dealer": Option(None, int, minimum=0, maximum=PLAYERS - 1, nullable=True,
                               help="seat of the first dealer; drawn at random when null"),
    }
    action_schemas = {
        "pass": _NO_FIELDS,
        "call": _NO_FIELDS,
        "solo": _NO_FIELDS,
        "discard": {"type": "object", "properties": {"cards": {"type": "array", "items": card(CARD_IDS),
                                                               "minItems": 3, "maxItems": 3}},
                    "required": ["cards"]},
        "scommessa": _NO_FIELDS,
        "no_scommessa": _NO_FIELDS,
        "rivanto": _NO_FIELDS,
        "no_rivanto": _NO_FIELDS,
        "play": {"type": "object", "properties": {"card": card(CARD_IDS)}, "required": ["card"]},
    }
    view_schema = VIEW_SCHEMA
    complete_legal_actions = True

    rules_versions = RULES_VERSIONS
    evolve = staticmethod(_evolve)
    view = staticmethod(_view)

    def rederive(self, state: State) -> State:
        return state._replace(frame=view_frame(state))

    def __init__(self, rules_version: int = max(RULES_VERSIONS)) -> None:
        self.rules_version = rules_version
        # `decide(rules_version, ...)` as a method bound to this engine's version, as the patience engine binds its
        # variant: calling it costs less than a method that calls it.
        self.decide = self.decide_listed = MethodType(_decide, rules_version)  # no listed action carries more

    def for_version(self, version: int) -> TarocchiMineo:
        return TarocchiMineo(version)

    def normalize_options(self, options: Any, seats: int) -> JSON:
        normalized = super().normalize_options(options, seats)
        if normalized["deals"] % PLAYERS:
            raise InvalidOptions(f"option 'deals' must be a multiple of {PLAYERS}")
        return normalized

    def start(self, seats: int, options: JSON, rng: Rng) -> list[Event]:
        options = self.normalize_options(options, seats)
        events = [Event("match_start", {"deals": options["deals"], "players": PLAYERS})]
        if options["first_dealer"] is None:
            events.append(Event("first_dealer", {"seat": rng.randbelow(PLAYERS, "first_dealer"), "source": "rng"}))
        else:
            events.append(Event("first_dealer", {"seat": options["first_dealer"], "source": "option"}))
        dealer = events[-1].data["seat"]
        return events + start_deal_events(0, dealer, rng)

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase in ACTIVE_PHASES:
            return _TO_ACT[state.turn]
        return _NOBODY

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        phase = state.phase
        if seat != state.turn or phase not in ACTIVE_PHASES:
            return []
        if phase == PLAY:
            return [{"type": "play", "card": card} for card in legal_cards(state.hands[seat], state.trick)]
        if phase == STATA:
            return [{"type": "pass"}, {"type": "solo"}]
        deal = state.deal
        if phase == AUCTION:
            said = {bid for _, bid in deal.bids}
            out = [{"type": "pass"}]
            if not said & {"call", "solo"}:
                out.append({"type": "call"})
            if "solo" not in said:
                out.append({"type": "solo"})
            return out
        if phase == DISCARD:
            return [{"type": "discard", "cards": cards}
                    for cards in discard_options(state.hands[seat], self.rules_version)]
        if phase == COMMIT:
            if seat == deal.declarer:
                out = [{"type": "no_scommessa"}]
                if may_scommessa(state.hands[seat]):
                    out.append({"type": "scommessa"})
                return out
            out = [{"type": "no_rivanto"}]
            if may_rivanto(seat, deal.declarer, deal.partner, deal.commits):
                out.append({"type": "rivanto"})
            return out
        return []

    def result(self, state: State) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        match = state.match
        outcome = match_outcome(match.scores)
        return {
            "winners": outcome["winners"],
            "scores": outcome["scores"],
            "reason": "match_completed",
            "ranking": outcome["ranking"],
            "deals_played": match.deal_no,
            "deals": list(match.history),
        }

    def sample_state(self, view: JSON, seat: int | None, rng: random.Random) -> State:
        return _sample_state(view, seat, rng, self.rules_version)

    def card_set(self, seats: int, options: JSON) -> list[str]:
        return list(DECK)

    def all_cards(self, state: State) -> list[str]:
        cards: list[str] = []
        for hand in state.hands:
            cards.extend(hand)
        cards.extend(state.deal.stock)
        cards.extend(state.deal.discard)
        for _, plays, _ in state.tricks:
            cards.extend(card for _, card in plays)
        cards.extend(card for _, card in state.trick)
        return cards


ENGINE = TarocchiMineo()
