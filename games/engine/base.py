"""Defaults shared by every engine: option checking, generic redaction, action shape checks.

An engine subclasses `BaseEngine`, declares its `options` and `action_schemas`, and implements only its
rules (start, evolve, decide, to_act, legal_actions, view, result, sample_state).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.protocol import JSON, Action, Event, IllegalAction, InvalidOptions


@dataclass(frozen=True, slots=True)
class Option:
    """One game option: its type, default and bounds, described to clients by `GET /kinds/`."""

    default: Any
    type: type = int
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None
    nullable: bool = False
    help: str = ""

    def check(self, name: str, value: Any) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise InvalidOptions(f"option {name!r} may not be null")
        if self.type is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidOptions(f"option {name!r} must be an integer")
        if self.type is str and not isinstance(value, str):
            raise InvalidOptions(f"option {name!r} must be a string")
        if self.type is bool and not isinstance(value, bool):
            raise InvalidOptions(f"option {name!r} must be true or false")
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(f"option {name!r} must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(f"option {name!r} must be at most {self.maximum}")
        if self.choices is not None and value not in self.choices:
            raise InvalidOptions(f"option {name!r} must be one of {list(self.choices)}")
        return value

    def describe(self) -> JSON:
        out: JSON = {"type": self.type.__name__, "default": self.default, "nullable": self.nullable}
        for key in ("minimum", "maximum", "help"):
            if getattr(self, key) not in (None, ""):
                out[key] = getattr(self, key)
        if self.choices is not None:
            out["choices"] = list(self.choices)
        return out


_JSON_TYPES = {"string": str, "integer": int, "object": dict, "array": list, "boolean": bool}


def _matches(value: Any, schema: JSON) -> bool:
    """A small JSON-Schema subset (type, enum, oneOf, items) enough for action shapes."""
    if "oneOf" in schema:
        return any(_matches(value, sub) for sub in schema["oneOf"])
    if "enum" in schema and value not in schema["enum"]:
        return False
    expected = schema.get("type")
    if expected is not None:
        python_type = _JSON_TYPES[expected]
        if expected == "integer" and isinstance(value, bool):
            return False
        if not isinstance(value, python_type):
            return False
        if expected == "integer" and ("minimum" in schema and value < schema["minimum"]):
            return False
    if "items" in schema and isinstance(value, list):
        return all(_matches(item, schema["items"]) for item in value)
    return True


class BaseEngine:
    """Shared behaviour; subclasses set the class attributes and the rules methods."""

    kind: str = ""
    title: str = ""
    seats: range = range(2, 3)
    state_version: int = 1
    card_ids: frozenset[str] = frozenset()
    options: Mapping[str, Option] = {}
    #: Options no longer offered: name -> what replaces it. New games refuse them with that hint; a game that
    #: recorded one still replays, since the fold reads the options from the game's own set-up events.
    retired_options: Mapping[str, str] = {}
    #: action type -> JSON Schema of the whole action object (with "type", "properties", "required").
    action_schemas: Mapping[str, JSON] = {}
    #: JSON Schema (2020-12) of what `view` returns, published in the API's schema.
    view_schema: JSON = {"type": "object"}
    complete_legal_actions: bool = True
    #: The rules this engine object plays. The registry hands out the kind's current (newest) version; a game
    #: keeps the version it was created with (`Game.rules_version`) and is played and folded by `at_version`.
    rules_version: int = 1
    #: Every rules version the engine still plays and folds, oldest first: version -> what it changed.
    rules_versions: Mapping[int, str] = {1: "The rules as first published."}

    # -- snapshots -----------------------------------------------------------------------------
    def rederive(self, state: Any) -> Any:
        """`state`, read from a snapshot without its derived fields (`DERIVED_FIELDS`, None when read), with
        them built again as the fold builds them; engines whose states keep derived fields override it."""
        return state

    # -- rules versions ------------------------------------------------------------------------
    def at_version(self, version: int) -> BaseEngine:
        """The engine playing rules `version`; an engine with several versions overrides `for_version`."""
        if version == self.rules_version:
            return self
        if version not in self.rules_versions:
            known = ", ".join(map(str, self.rules_versions))
            raise InvalidOptions(f"{self.kind} has no rules version {version} (it has {known})",
                                 "unknown_rules_version")
        return self.for_version(version)

    def for_version(self, version: int) -> BaseEngine:
        """A new engine object of this kind playing rules `version` (one of `rules_versions`)."""
        raise NotImplementedError(f"{self.kind} plays only rules version {self.rules_version}")

    # -- options -------------------------------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None, seats: int) -> JSON:
        """Fill defaults and check every option; unknown names are refused, not ignored."""
        if seats not in self.seats:
            raise InvalidOptions(
                f"{self.kind} is played by {self.seats.start} to {self.seats.stop - 1} players, not {seats}",
                "invalid_seats",
            )
        given = dict(options or {})
        retired = sorted(set(given) & set(self.retired_options))
        if retired:
            raise InvalidOptions(f"option {retired[0]!r} of {self.kind} was removed: "
                                 f"{self.retired_options[retired[0]]}", "retired_option")
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            raise InvalidOptions(f"unknown option(s) for {self.kind}: {', '.join(unknown)}")
        return {name: spec.check(name, given.get(name, spec.default)) for name, spec in self.options.items()}

    # -- actions -------------------------------------------------------------------------------
    def check_action_shape(self, action: Any) -> Action:
        """Refuse malformed actions with a clear code before the rules see them."""
        if not isinstance(action, dict):
            raise IllegalAction("invalid_action", "an action must be a JSON object with a 'type'")
        kind = action.get("type")
        schema = self.action_schemas.get(kind) if isinstance(kind, str) else None
        if schema is None:
            known = ", ".join(sorted(self.action_schemas))
            raise IllegalAction("unknown_action", f"unknown action type {kind!r}; this game knows: {known}")
        properties = schema.get("properties", {})
        for field in schema.get("required", ()):
            if field not in action:
                raise IllegalAction("invalid_action", f"action {kind!r} needs the field {field!r}")
        for field, value in action.items():
            if field == "type":
                continue
            if field not in properties:
                raise IllegalAction("invalid_action", f"action {kind!r} has no field {field!r}")
            if not _matches(value, properties[field]):
                raise IllegalAction("invalid_action", f"field {field!r} of action {kind!r} has the wrong form")
        return action

    # -- decisions -----------------------------------------------------------------------------
    def decide_listed(self, state: Any, seat: int, action: Action, rng: Any) -> list[Event]:
        """`decide` for an action as `legal_actions` listed it (see `protocol.Engine.decide_listed`): by
        default `decide` itself; an engine whose listed actions carry their outcome overrides it."""
        return self.decide(state, seat, action, rng)  # type: ignore[attr-defined]

    # -- visibility ----------------------------------------------------------------------------
    def redact(self, event: Event, viewer: int | None) -> JSON:
        """The event as `viewer` may see it (None = spectator)."""
        if event.visible_to is None or (viewer is not None and viewer in event.visible_to):
            data = event.data
        else:
            data = event.public if event.public is not None else {}
        return {"type": event.type, "actor": event.actor, "data": data}
