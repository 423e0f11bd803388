"""Bot policies: pure functions of what one seat may see.

A policy is made for one engine (`Bot.make(engine, options)`) and then answers
`choose(view, seat, legal_actions, rng) -> action`. It never receives the true state: search bots rebuild
candidate states from the view with the engine's `sample_state`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.base import Option
from games.engine.protocol import JSON, Action, Engine, InvalidOptions

Choose = Callable[[JSON, int, list[Action], random.Random], Action]


@dataclass(frozen=True)
class Bot:
    """A named policy: which kinds it plays and how to make it for an engine."""

    name: str
    description: str
    make: Callable[[Engine, Mapping[str, Any]], Choose]
    kinds: frozenset[str] | None = None  # None: every kind
    options: Mapping[str, Option] | None = None  # the seat options it takes (e.g. budget_ms), checked at creation
    #: option -> kind -> the default in that game, where it differs from the option's own default
    kind_defaults: Mapping[str, Mapping[str, Any]] | None = None

    def plays(self, kind: str) -> bool:
        return self.kinds is None or kind in self.kinds


def random_choice(view: JSON, seat: int, legal_actions: list[Action], rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    return legal_actions[rng.randrange(len(legal_actions))]


POLICIES: dict[str, Bot] = {
    "random": Bot("random", "uniformly random legal actions", lambda engine, options: random_choice),
}


def register(bot: Bot) -> None:
    POLICIES[bot.name] = bot


def unknown_bot_reason(name: str, kind: str) -> str | None:
    """Why `name` cannot play `kind` (None when it can): for clear 4xx messages."""
    bot = POLICIES.get(name)
    if bot is None:
        return f"unknown bot {name!r}; known: {sorted(POLICIES)}"
    if not bot.plays(kind):
        return f"bot {name!r} does not play {kind}"
    return None


def bot_options_reason(name: str, options: Mapping[str, Any]) -> str | None:
    """Why `options` do not suit bot `name` (None when they do): unknown names, wrong types, out of range."""
    known = POLICIES[name].options or {}
    for key, value in options.items():
        if key not in known:
            takes = f"takes only {', '.join(sorted(known))}" if known else "takes no options"
            return f"bot {name!r} {takes}, not {key!r}"
        try:
            known[key].check(key, value)
        except InvalidOptions as bad:
            return f"bot {name!r}: {bad.message}"
    return None


def bot_budget_seconds(options: Mapping[str, Any]) -> float:
    """The thinking time a bot seat's options allow it (`budget_ms`), in seconds; 0 if it has none."""
    budget = options.get("budget_ms", 0) if options else 0
    return budget / 1000 if isinstance(budget, int | float) and not isinstance(budget, bool) else 0.0


def options_described(bot: Bot) -> dict[str, JSON]:
    """Each option's type, default and bounds, with the games whose default differs (for `GET /bots/`)."""
    described = {}
    for name, spec in (bot.options or {}).items():
        described[name] = spec.describe()
        if bot.kind_defaults and name in bot.kind_defaults:
            described[name]["default_by_kind"] = dict(bot.kind_defaults[name])
    return described


def make_policy(name: str, engine: Engine, options: Mapping[str, Any] | None = None) -> Choose:
    return POLICIES[name].make(engine, options or {})


def choose(name: str, engine: Engine, state: Any, seat: int, rng: random.Random,
           options: Mapping[str, Any] | None = None) -> Action:
    """The move of bot `name` for `seat`, computed from that seat's view only."""
    policy = make_policy(name, engine, options)
    return policy(engine.view(state, seat), seat, engine.legal_actions(state, seat), rng)


# Registration of the stronger bots (each module calls `register`).
from bots.policies import heuristic as _heuristic  # noqa: E402, F401
from bots.policies import search as _search  # noqa: E402, F401
