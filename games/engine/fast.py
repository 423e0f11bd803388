"""Cheap construction of frozen slots dataclasses and named tuples, for the values engines build at every step.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__`, which costs more
than the rest of a small hot function. `fast_init` gives such a class an `__init__` that sets the slots
directly (same arguments, same object: frozen dataclasses do no other work there), and
`fast_constructor(cls)` a positional-only function that builds one without the class call at all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _setters(cls: type) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The field names of `cls` and a namespace holding each slot's setter as `set_<name>`."""
    names = tuple(cls.__dataclass_fields__)  # type: ignore[attr-defined]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    namespace.update({f"set_{name}": getattr(cls, name).__set__ for name in names})
    return names, namespace


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A positional constructor for a frozen slots dataclass or a named tuple, without the class call.

    Same object as `cls(*fields)`: a dataclass's slots are set directly, without the per-field
    `object.__setattr__` its generated `__init__` pays; a named tuple is built by `tuple.__new__`. Built
    like `dataclasses` builds its own functions.
    """
    if issubclass(cls, tuple):
        names = cls._fields  # type: ignore[attr-defined]
        namespace: dict[str, Any] = {"new": tuple.__new__, "cls": cls}
        exec(f"def make({', '.join(names)}):\n    return new(cls, ({', '.join(names)},))\n", namespace)  # noqa: S102
        return namespace["make"]
    names, namespace = _setters(cls)
    body = "".join(f"    set_{name}(obj, {name})\n" for name in names)
    exec(f"def make({', '.join(names)}):\n    obj = new(cls)\n{body}    return obj\n", namespace)  # noqa: S102
    return namespace["make"]


def fast_init(cls: type[T]) -> type[T]:
    """Class decorator (under `@dataclass(frozen=True, slots=True)`): the same `__init__`, setting slots
    directly. Fields may have plain defaults, not default factories."""
    names, namespace = _setters(cls)
    params = []
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        if field.default_factory is not dataclasses.MISSING or not field.init:
            raise TypeError(f"fast_init: field {field.name!r} needs a plain default")
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            namespace[f"default_{field.name}"] = field.default
            params.append(f"{field.name}=default_{field.name}")
    body = "".join(f"    set_{name}(self, {name})\n" for name in names)
    exec(f"def __init__(self, {', '.join(params)}):\n{body}", namespace)  # noqa: S102
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls
