"""Small builders for the JSON Schemas (2020-12, as OpenAPI 3.1 uses) engines declare for their views.

An engine carries `view_schema` as it carries `action_schemas`, so a client renders a table from the API's
schema alone. Views are described closely (every key, its type, nulls, bounds) but stay open to new keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

JSON = dict[str, Any]

STRING: JSON = {"type": "string"}
BOOLEAN: JSON = {"type": "boolean"}
INTEGER: JSON = {"type": "integer"}
NUMBER: JSON = {"type": "number"}
COUNT: JSON = {"type": "integer", "minimum": 0}
EMPTY_ACTION: JSON = {"type": "object", "properties": {}, "required": []}


def seat(maximum: int) -> JSON:
    """A seat index, 0 to `maximum`."""
    return {"type": "integer", "minimum": 0, "maximum": maximum}


def card(ids: Iterable[str]) -> JSON:
    """One card of the game, by its id: a pattern matching exactly the ids, not an `enum`, so that an
    engine's shape check (`BaseEngine.check_action_shape`) lets a wrong card through to the rules, which
    refuse it with their own code (`unknown_card`, `card_not_in_hand`)."""
    return {"type": "string", "pattern": "^(?:" + "|".join(sorted(set(ids))) + ")$"}


def nullable(schema: JSON) -> JSON:
    """`schema` or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: JSON, min_items: int | None = None, max_items: int | None = None) -> JSON:
    out: JSON = {"type": "array", "items": items}
    if min_items is not None:
        out["minItems"] = min_items
    if max_items is not None:
        out["maxItems"] = max_items
    return out


def one_of_values(*values: Any) -> JSON:
    return {"enum": list(values)}


def obj(required: dict[str, JSON], optional: dict[str, JSON] | None = None, description: str = "") -> JSON:
    """An object with these keys always present and `optional` ones sometimes; other keys are allowed."""
    out: JSON = {"type": "object", "properties": {**required, **(optional or {})}, "required": list(required)}
    if description:
        out["description"] = description
    return out


def by_seat(value: JSON) -> JSON:
    """An object keyed by seat number as a string (`{"0": ..., "1": ...}`)."""
    return {"type": "object", "propertyNames": {"pattern": "^[0-9]$"}, "additionalProperties": value}


def tuple_of(*items: JSON) -> JSON:
    """A fixed-length array whose n-th item has the n-th schema (its length closes it: no `items: false`, which
    client generators do not accept)."""
    return {"type": "array", "prefixItems": list(items), "minItems": len(items), "maxItems": len(items)}
