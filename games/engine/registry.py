"""The one place that lists the games the server offers."""

from __future__ import annotations

from importlib import import_module

from games.engine.protocol import Engine

#: kind -> module exposing `ENGINE`. Add a game here and every generic test, the API and the
#: benchmarks pick it up.
_MODULES: dict[str, str] = {
    "machiavelli": "games.rules.machiavelli",
    "muscio": "games.rules.muscio",
    "spite-and-malice": "games.rules.spite_and_malice",
    "diavoletto": "games.rules.diavoletto",
    "tarocchi-mineo": "games.rules.tarocchi_mineo",
}


def kinds() -> list[str]:
    return list(_MODULES)


def get(kind: str, rules_version: int | None = None) -> Engine:
    """The engine of `kind` playing `rules_version` (the current rules when None); KeyError for an unknown
    kind, InvalidOptions (code `unknown_rules_version`) for a version the engine does not play. (Python keeps
    each imported module: `ENGINE` is the same object at every call.)"""
    engine = import_module(_MODULES[kind]).ENGINE
    return engine if rules_version is None else engine.at_version(rules_version)


def engines() -> list[Engine]:
    return [get(kind) for kind in _MODULES]
