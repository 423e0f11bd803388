"""The contract every game engine satisfies (ARCHITECTURE §2, the decider pattern).

An engine is a pure object: no Django, no I/O, no global randomness. The platform stores the events
an engine emits and rebuilds any state by folding them with `evolve`, so an engine must be total over
its own events and deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

JSON = dict[str, Any]
Action = dict[str, Any]
Result = dict[str, Any]


class Event(NamedTuple):
    """One fact of a game.

    `data` is the whole truth and is what `evolve` reads. When `visible_to` is None the event is public;
    otherwise only those seats see `data` and everybody else sees `public` (which must hold no card).
    `actor` is the seat whose action caused it, None for set-up and chance.

    A named tuple: immutable, and the cheapest value Python builds (engines make several per step; a frozen
    dataclass costs a call per field). Engines may hand out the same event object more than once.
    """

    type: str
    data: JSON
    public: JSON | None = None
    visible_to: frozenset[int] | None = None
    actor: int | None = None


class IllegalAction(Exception):
    """An action the rules refuse. `code` is stable and machine-readable, `message` is for humans."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidOptions(Exception):
    """Game options (or a `decks` list) that cannot start a game."""

    def __init__(self, message: str, code: str = "invalid_options") -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Rng(Protocol):
    """The chance source handed to `start` and `decide` (see `games.engine.chance.Chance`)."""

    def shuffle(self, cards: list[str]) -> tuple[list[str], int, str]: ...

    def randbelow(self, n: int, label: str) -> int: ...


class Engine(Protocol):
    """What every game module exposes. See `games.engine.base.BaseEngine` for the shared defaults."""

    kind: str
    title: str
    seats: range
    state_version: int
    card_ids: frozenset[str]
    options: Mapping[str, Any]
    action_schemas: Mapping[str, JSON]
    view_schema: JSON
    rules_version: int  # the rules this object plays (the registry's engine: the kind's current ones)
    rules_versions: Mapping[int, str]  # every version it plays and folds -> what that version changed

    def at_version(self, version: int) -> Engine: ...  # the engine of rules `version` (InvalidOptions if none)

    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> JSON: ...

    def start(self, seats: int, options: JSON, rng: Rng) -> list[Event]: ...

    def evolve(self, state: Any | None, event: Event) -> Any: ...

    def decide(self, state: Any, seat: int, action: Action, rng: Rng) -> list[Event]: ...

    def decide_listed(self, state: Any, seat: int, action: Action, rng: Rng) -> list[Event]:
        """`decide` for an action handed back as `legal_actions(state, seat)` listed it (the object itself,
        not a copy): what `decide` answers, possibly faster, since a listed action may carry what the engine
        worked out while listing it (Machiavelli's melds carry the table they leave). Anything else is checked
        in full, as by `decide`. Bots and playouts, which pick from the listed actions, call this one."""
        ...

    def to_act(self, state: Any) -> frozenset[int]: ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...

    def view(self, state: Any, viewer: int | None) -> JSON: ...

    def redact(self, event: Event, viewer: int | None) -> JSON: ...

    def result(self, state: Any) -> Result | None: ...

    def sample_state(self, view: JSON, seat: int | None, rng: random.Random) -> Any: ...

    # -- used by the generic tests and the bots --
    complete_legal_actions: bool  # False when legal_actions is a representative subset (Machiavelli)

    def card_set(self, seats: int, options: JSON) -> list[str]: ...  # every card of the game (multiset)

    def all_cards(self, state: Any) -> list[str]: ...  # every card in every zone of `state`
