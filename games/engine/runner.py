"""The generic part of playing any game: fold events, apply an action with the common checks.

Engines implement only "the game is running and it is this seat's turn"; the runner refuses actions on a
finished game, out of turn or of the wrong shape (OpenSpiel's framework plays the same role).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from games.engine.chance import Chance
from games.engine.protocol import Action, Engine, Event, IllegalAction
from games.engine.values import new

#: Events of this prefix belong to the platform (creation, seed reveal), not to the rules.
PLATFORM_PREFIX = "game."


class Position(NamedTuple):
    """A state together with how many events and shuffles produced it (a named tuple: `fold` makes one per
    action). Snapshots store it as JSON (`games.engine.snapshot`, docs/snapshots.md)."""

    state: Any
    version: int
    shuffles: int


def fold(engine: Engine, events: Iterable[Event], start: Position | None = None) -> Position:
    """Rebuild the position by folding `events` after `start` (from nothing when None)."""
    if start is None:
        state, version, shuffles = None, 0, 0
    else:
        state, version, shuffles = start
    evolve = engine.evolve
    for event in events:
        version += 1
        kind = event.type
        if kind == "shuffle":
            shuffles += 1
        elif "." in kind and kind.startswith(PLATFORM_PREFIX):  # (`in` first: a fraction of the method call)
            continue
        state = evolve(state, event)
    # Built positionally (`new`, field order): one per action, and a named tuple's class call costs twice as much.
    return new(Position, (state, version, shuffles))


def begin(engine: Engine, seats: int, options: dict, chance: Chance, start: Position | None = None
          ) -> tuple[Position, list[Event]]:
    """Run the engine's set-up and fold it (after `start`, which may hold platform events)."""
    events = engine.start(seats, options, chance)
    return fold(engine, events, start), events


def apply_action(engine: Engine, position: Position, seat: int, action: Any, chance: Chance
                 ) -> tuple[Position, list[Event]]:
    """Check and play `action` for `seat`; returns the new position and the events it caused."""
    state = position.state
    if engine.result(state) is not None:
        raise IllegalAction("game_finished", "the game is over")
    if seat not in engine.to_act(state):
        raise IllegalAction("not_your_turn", f"seat {seat} may not act now")
    action = engine.check_action_shape(action)
    events = engine.decide(state, seat, action, chance)
    return fold(engine, events, position), events


def chance_for(seed_hex: str, position: Position, decks: list | None = None) -> Chance:
    return Chance(seed_hex, decks or (), position.shuffles)


@dataclass(slots=True)
class Playout:
    """The record of one random game: what bots, tests and benchmarks need."""

    position: Position
    events: list[Event]
    steps: int
    result: dict | None


def random_playout(engine: Engine, seats: int, options: dict | None, seed_hex: str, policy_rng: random.Random,
                   with_view: bool = True, max_steps: int = 100_000) -> Playout:
    """Play uniformly random legal actions until the game ends (or `max_steps`)."""
    options = engine.normalize_options(options, seats)
    chance = Chance(seed_hex)
    position, events = begin(engine, seats, options, chance)
    log = list(events)
    steps = 0
    while steps < max_steps and engine.result(position.state) is None:
        seat = min(engine.to_act(position.state))
        actions: list[Action] = engine.legal_actions(position.state, seat)
        action = actions[policy_rng.randrange(len(actions))]
        new_events = engine.decide_listed(position.state, seat, action, chance)
        position = fold(engine, new_events, position)
        log.extend(new_events)
        steps += 1
        if with_view:
            engine.view(position.state, seat)
    return Playout(position, log, steps, engine.result(position.state))
