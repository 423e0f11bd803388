"""Rule-of-thumb bots, one module per game: what a decent club player does without looking ahead.

Each module exposes `choose(view, seat, legal_actions, rng) -> action`, a pure function of the seat's view,
and may expose `choose_for(engine)`, that `choose` for the engine's rules version.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from bots.policies import Bot, Choose, register
from games.engine.protocol import Engine

#: kind -> module holding that game's `choose`.
MODULES: dict[str, str] = {
    "spite-and-malice": "bots.policies.heuristic.spite_and_malice",
    "diavoletto": "bots.policies.heuristic.diavoletto",
    "muscio": "bots.policies.heuristic.muscio",
    "tarocchi-mineo": "bots.policies.heuristic.tarocchi_mineo",
    "machiavelli": "bots.policies.heuristic.machiavelli",
}


def make(engine: Engine, options: Mapping[str, Any]) -> Choose:
    module = import_module(MODULES[engine.kind])
    choose_for = getattr(module, "choose_for", None)
    return choose_for(engine) if choose_for is not None else module.choose


register(Bot("heuristic", "rules of thumb of a decent club player, per game", make, frozenset(MODULES)))
