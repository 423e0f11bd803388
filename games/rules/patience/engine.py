"""The shared engine object: the platform contract wired to the patience rules and one game's `Variant`."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MethodType
from typing import Any

from games.engine.base import BaseEngine, Option
from games.engine.cards import JOKER, french_deck
from games.engine.protocol import JSON, Action, Event, Rng
from games.engine.schema import EMPTY_ACTION, card
from games.rules.patience import moves, scoring, setup
from games.rules.patience.decide import decide
from games.rules.patience.evolve import evolve
from games.rules.patience.state import ROWS, Table, show_zones, table_cards
from games.rules.patience.variant import Variant
from games.rules.patience.view import card_set, sample_state, view
from games.rules.patience.view_schema import view_schema

_CARD = card([*french_deck(), JOKER])
_ROW = {"type": "integer", "minimum": 0, "maximum": ROWS - 1, "description": "one of your discard rows"}
_CENTRE = {"oneOf": [{"type": "integer", "minimum": 0, "description": "a centre pile's id"},
                     {"type": "string", "enum": [moves.NEW], "description": "open a new centre pile"}]}

ACTION_SCHEMAS: dict[str, JSON] = {
    "play": {
        "type": "object",
        "properties": {
            "source": {"type": "string", "enum": ["hand", "goal", "discard"]},
            "card": _CARD,
            "center": _CENTRE,
            "pile": _ROW,
        },
        "required": ["source", "card", "center"],
    },
    "discard": {"type": "object", "properties": {"card": _CARD, "pile": _ROW}, "required": ["card", "pile"]},
    "end_turn": EMPTY_ACTION,
}

OPTIONS = {
    "target": Option(None, int, minimum=1, nullable=True,
                     help="points that win a match of several games; null plays a single game"),
    "max_turns": Option(1000, int, minimum=1, maximum=100_000,
                        help="a game still running after this many turns is scored as blocked"),
}

_NOBODY: frozenset[int] = frozenset()
_SEAT = (frozenset((0,)), frozenset((1,)))


def to_act(state: Table) -> frozenset[int]:
    """The seat whose turn it is; nobody once the match is over."""
    return _NOBODY if state.match.over else _SEAT[state.turn.current]


class PatienceEngine(BaseEngine):
    """One two-player competitive patience; everything game-specific comes from `variant`."""

    seats = range(2, 3)
    # 2: Table and Turn are named tuples (1: dataclasses); 3: so is the snapshot's Position; 4: the views' parts
    # kept with the table and the match (`Table.shown`, `Match.frame`); `Table.shown` holds the discard rows
    # too (derived, so no snapshot changes)
    state_version = 4
    action_schemas = ACTION_SCHEMAS
    options = OPTIONS
    complete_legal_actions = True
    # The hot calls that need no variant are the module functions themselves (no extra call per step).
    evolve = staticmethod(evolve)
    to_act = staticmethod(to_act)
    view = staticmethod(view)

    def rederive(self, state: Table) -> Table:
        return state._replace(shown=show_zones(state.centre, state.completed, state.rows))
    result = staticmethod(scoring.result)
    # The hot calls that need the variant are the module functions bound to it (see `__init__`).
    decide: Callable[[Table, int, Action, Rng], list[Event]]
    decide_listed: Callable[[Table, int, Action, Rng], list[Event]]  # type: ignore[assignment]
    legal_actions: Callable[[Table, int], list[Action]]

    def __init__(self, variants: Mapping[int, Variant], rules_versions: Mapping[int, str] | None = None,
                 version: int | None = None) -> None:
        """`variants`: the game's rules in every version it has shipped (`rules_versions` says what each one
        changed); the engine plays `version`, the newest when None."""
        self.variants = variants
        if rules_versions is not None:
            self.rules_versions = rules_versions
        self.rules_version = max(variants) if version is None else version
        variant = self.variant = variants[self.rules_version]
        self.kind = variant.kind
        self.title = variant.title
        self.card_ids = frozenset(french_deck()) | {JOKER}
        self.view_schema = view_schema(self.card_ids)
        # `decide(variant, ...)` as a bound method: calling one costs less than a method that calls it.
        self.decide = self.decide_listed = MethodType(decide, variant)  # (listed actions carry nothing more)
        self.legal_actions = MethodType(moves.legal_actions, variant)

    def for_version(self, version: int) -> PatienceEngine:
        return PatienceEngine(self.variants, self.rules_versions, version)

    def start(self, seats: int, options: JSON, rng: Rng) -> list[Event]:
        return setup.start_events(self.variant, self.normalize_options(options, seats), rng)

    def sample_state(self, view: JSON, seat: int | None, rng: random.Random) -> Table:
        return sample_state(self.variant, view, seat, rng)

    def card_set(self, seats: int, options: JSON) -> list[str]:
        return card_set(self.variant)

    def all_cards(self, state: Any) -> list[str]:
        return table_cards(state)
