"""Snapshots as documented JSON (docs/snapshots.md): a position written as plain values, read back by its types.

A snapshot used to be a pickle, which ties stored rows to the class paths of the day and runs code when read.
This codec writes a position as JSON instead and reads it back guided by the type hints of the engine's
state: named tuples and dataclasses become objects keyed by field name, tuples and frozensets arrays,
fractions "n/d" strings; nothing in the data names a class. The state's type is the one the engine's
`evolve` is annotated to return, so an engine needs nothing extra to be snapshotted.

Derived fields are not written: dataclass fields declared `compare=False` (they take their default when
read) and the named-tuple fields a class lists in `DERIVED_FIELDS` (read as None, then built again by the
engine's `rederive`, from the rest of the state, as the fold builds them).

A snapshot is only a speed-up: whatever does not load (another format, a state changed without a new
`state_version`) is ignored and the log is folded instead.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from fractions import Fraction
from typing import Any, Union

from games.engine.protocol import Engine
from games.engine.runner import Position

#: Written in every snapshot; a reader refuses any other value (and every pickle, which is not JSON).
FORMAT = "tavolo-snapshot"
FORMAT_VERSION = 1


class SnapshotError(ValueError):
    """Data that is not a snapshot this code can read (another format or version, another state layout)."""


def state_type(engine: Engine) -> type:
    """The class of `engine`'s states: what its `evolve` is annotated to return."""
    hints = typing.get_type_hints(engine.evolve)
    found = hints.get("return")
    if not isinstance(found, type):
        raise SnapshotError(f"{engine.kind}: evolve must be annotated with the state class it returns")
    return found


def dump(engine: Engine, position: Position) -> dict[str, Any]:
    """The JSON-able document of `position` (see docs/snapshots.md)."""
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "kind": engine.kind,
            "state_version": engine.state_version, "version": position.version, "shuffles": position.shuffles,
            "state": encode(position.state)}


def load(engine: Engine, document: Any) -> Position:
    """The position `document` holds, or SnapshotError when it is not one this engine can read."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SnapshotError("not a Tavolo snapshot")
    if document.get("format_version") != FORMAT_VERSION:
        raise SnapshotError(f"snapshot format version {document.get('format_version')!r} is not {FORMAT_VERSION}")
    if document.get("kind") != engine.kind or document.get("state_version") != engine.state_version:
        raise SnapshotError("snapshot of another kind or state version")
    try:
        state = engine.rederive(_Reader().read(document["state"], state_type(engine)))
        return Position(state, int(document["version"]), int(document["shuffles"]))
    except (KeyError, TypeError, ValueError, AttributeError) as wrong:
        raise SnapshotError(f"snapshot does not fit the {engine.kind} state: {wrong}") from wrong


def to_bytes(engine: Engine, position: Position) -> bytes:
    """`dump` as compact UTF-8 JSON, as stored in `Snapshot.payload`."""
    return json.dumps(dump(engine, position), separators=(",", ":"), ensure_ascii=False).encode()


def from_bytes(engine: Engine, payload: bytes) -> Position:
    """`load` of a stored payload; anything that is not JSON (an old pickle) is a SnapshotError, never run."""
    try:
        document = json.loads(bytes(payload).decode())
    except (UnicodeDecodeError, ValueError) as wrong:
        raise SnapshotError("payload is not JSON") from wrong
    return load(engine, document)


# -- values ------------------------------------------------------------------------------------------------

def _fields(cls: type) -> list[str]:
    """The stored fields of a named tuple or dataclass, in declaration order."""
    if dataclasses.is_dataclass(cls):
        return [f.name for f in dataclasses.fields(cls) if f.compare]
    derived = getattr(cls, "DERIVED_FIELDS", ())
    return [name for name in cls._fields if name not in derived]


def _is_record(cls: Any) -> bool:
    return isinstance(cls, type) and (dataclasses.is_dataclass(cls) or
                                      (issubclass(cls, tuple) and hasattr(cls, "_fields")))


def encode(value: Any) -> Any:
    """`value` as JSON values: records as objects by field name, tuples and frozensets as arrays."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if _is_record(type(value)):
        return {name: encode(getattr(value, name)) for name in _fields(type(value))}
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, tuple | list):
        return [encode(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted((encode(item) for item in value), key=json.dumps)
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise SnapshotError("only string keys can be stored")
        return {key: encode(item) for key, item in value.items()}
    raise SnapshotError(f"cannot store a {type(value).__name__}")


def decode(data: Any, hint: Any) -> Any:
    """The value of type `hint` that `encode` wrote as `data`."""
    return _Reader().read(data, hint)


class _Reader:
    """Reads one document; keeps the type hints of the record classes it met, for this document only
    (resolving a class's hints costs more than reading its fields)."""

    def __init__(self) -> None:
        self.hints: dict[type, dict[str, Any]] = {}

    def read(self, data: Any, hint: Any) -> Any:
        if hint is Any or hint is object:
            return data
        origin = typing.get_origin(hint)
        if origin is Union or origin is types.UnionType:
            return self.read_union(data, typing.get_args(hint))
        if hint is type(None):
            if data is not None:
                raise SnapshotError("expected null")
            return None
        if origin is tuple:
            args = typing.get_args(hint)
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple([self.read(item, args[0]) for item in _array(data)])
            items = _array(data)
            if len(items) != len(args):
                raise SnapshotError(f"expected {len(args)} items, found {len(items)}")
            return tuple([self.read(item, arg) for item, arg in zip(items, args, strict=True)])
        if origin in (list, frozenset, set):
            (arg,) = typing.get_args(hint) or (Any,)
            return origin(self.read(item, arg) for item in _array(data))
        if origin is dict:
            _, arg = typing.get_args(hint) or (str, Any)
            if not isinstance(data, dict):
                raise SnapshotError("expected an object")
            return {key: self.read(item, arg) for key, item in data.items()}
        if _is_record(hint):
            return self.read_record(data, hint)
        if hint is Fraction:
            return Fraction(data)
        if hint in (tuple, list, frozenset, set):
            return hint(_array(data))
        if hint is dict:
            return dict(data)
        if hint in (int, str, bool, float):
            if hint is float and isinstance(data, int) and not isinstance(data, bool):
                return float(data)
            if type(data) is not hint:
                raise SnapshotError(f"expected {hint.__name__}, found {type(data).__name__}")
            return data
        raise SnapshotError(f"cannot read a value of type {hint!r}")

    def read_union(self, data: Any, options: tuple) -> Any:
        """`X | None` and unions of plain values (`int | str`); a union of several records is refused."""
        if data is None and type(None) in options:
            return None
        rest = [option for option in options if option is not type(None)]
        if len(rest) == 1:
            return self.read(data, rest[0])
        for option in rest:
            if option in (int, str, bool, float) and type(data) is option:
                return data
        raise SnapshotError(f"cannot tell which of {rest} this value is")

    def read_record(self, data: Any, cls: type) -> Any:
        if not isinstance(data, dict):
            raise SnapshotError(f"expected an object for {cls.__name__}")
        hints = self.hints.get(cls)
        if hints is None:
            hints = self.hints[cls] = typing.get_type_hints(cls)
        names = _fields(cls)
        if set(data) != set(names):
            raise SnapshotError(f"{cls.__name__} has the fields {names}, the snapshot {sorted(data)}")
        values = {name: self.read(data[name], hints[name]) for name in names}
        for name in getattr(cls, "DERIVED_FIELDS", ()):
            values[name] = None  # the engine's `rederive` builds it
        return cls(**values)


def _array(data: Any) -> list:
    if not isinstance(data, list):
        raise SnapshotError("expected an array")
    return data
