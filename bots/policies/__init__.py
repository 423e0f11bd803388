"""Bot policies: `choose(view, legal_actions, rng) -> action`, pure functions of what a seat may see."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.engine.protocol import JSON, Action

Policy = Callable[[JSON, list[Action], random.Random], Action]


def random_policy(view: JSON, legal_actions: list[Action], rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    return legal_actions[rng.randrange(len(legal_actions))]


#: name -> (policy, description). The API and `simulate` list these.
POLICIES: dict[str, tuple[Policy, str]] = {
    "random": (random_policy, "uniformly random legal actions"),
}
