"""Handing the states `decide` computed to the fold that follows it, so that no event is applied twice.

An engine whose `decide` applies its own events as it goes (to read the state they lead to) already knows
every state the platform's fold is about to compute. A `Handoff` keeps them for that one fold: `evolve`
asks it first, and gets a state back only for the very event object and the very state object it was
computed from, so a hit is exactly the value the fold step would return (states are immutable values).
Anything else (a stored log, a replay, a second fold, a fold interleaved from another thread) misses and
is computed as usual, so a handoff never changes an answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.engine.protocol import Event

#: (event, state before it, state after it)
Step = tuple[Event, Any, Any]


class Handoff:
    """The steps of the latest `start`/`decide` of one engine, offered to the next fold in order."""

    __slots__ = ("_steps",)

    def __init__(self) -> None:
        self._steps: Iterator[Step] = iter(())

    def offer(self, steps: list[Step]) -> None:
        """Replace what is on offer by `steps`, in the order the events were emitted."""
        self._steps = iter(steps)

    def take(self, state: Any, event: Event) -> Any | None:
        """The state `event` leads to from `state` when it is the next step on offer, else None."""
        step = next(self._steps, None)
        if step is not None and step[0] is event and step[1] is state:
            return step[2]
        return None
