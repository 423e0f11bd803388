"""The "head moved" hook: how the write path tells other apps that a game moved, without importing them.

`games.services` publishes one `HeadMoved` each time it moves a game's head (`jobs_for`). Apps that react (the bots'
next turn, the turn clock, ratings and tournaments) subscribe from their own `AppConfig.ready()`; the write
path knows none of them, so they may import `games.services` freely and no import circle closes through
function bodies.

A subscriber returns the outbox jobs the move calls for. They are recorded in the write's own transaction
(so a move and its follow-up work commit together, `games.outbox`) and handed to the broker once it
commits: the subscribers' work is published after commit, never for a move that was rolled back. A
subscriber therefore only reads; it must not write or talk to the broker itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from games import outbox
from games.models import Game, Seat


@dataclass(frozen=True, slots=True)
class HeadMoved:
    """A game's head just moved to `game.version` (inside the writing transaction)."""

    game: Game
    seats: list[Seat]
    result: dict | None          # the game's result when this move ended it, else None
    to_act: list[int]            # seats to act at the new head
    previous_to_act: list[int]   # seats that were to act before
    started: bool                # this move dealt the game (its first events)
    tail: list[list] | None      # the rows just appended (`games.selectors.ROW_FIELDS`)


Subscriber = Callable[[HeadMoved], Iterable[outbox.Work]]


@dataclass(frozen=True, slots=True)
class _Subscription:
    order: int
    name: str
    subscriber: Subscriber


#: The subscriptions, filled once by the apps' `ready()` (idempotent: subscribing twice keeps one).
_subscriptions: list[_Subscription] = []


def subscribe(subscriber: Subscriber, *, order: int = 100) -> Subscriber:
    """Call `subscriber` at every head move; lower `order` first (its jobs reach the broker first: the bot
    turn, on the critical path of a bot's reply, subscribes with the lowest)."""
    name = f"{subscriber.__module__}.{subscriber.__qualname__}"
    if all(existing.name != name for existing in _subscriptions):
        _subscriptions.append(_Subscription(order, name, subscriber))
        _subscriptions.sort(key=lambda item: (item.order, item.name))
    return subscriber


def subscribers() -> list[str]:
    """The subscribed functions' dotted names, in call order (for checks and tests)."""
    return [item.name for item in _subscriptions]


def jobs_for(moved: HeadMoved) -> list[outbox.Work]:
    """Every subscriber's jobs for `moved`, in order. The write path records them with the move, in the same
    transaction (`outbox.schedule`), and asks for them before writing: a move that implies no job, deadline,
    notification or snapshot is written as one self-committing statement (docs/move-path.md)."""
    jobs: list[outbox.Work] = []
    for item in _subscriptions:
        jobs.extend(item.subscriber(moved))
    return jobs
