"""Copying the engines' immutable values with some fields changed: one idiom for every engine.

States are named tuples (the fold builds millions of them, and a tuple is built for a fraction of what a
frozen dataclass costs). A game changes them through keyword copiers made here, `with_state(state, turn=2)`,
which read like `_replace` and cost a third of it. Only a game's two or three hottest fold handlers build
their tuples positionally (`tuple.__new__(State, (...))`), each saying so in a comment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T", bound=tuple)

#: `new(cls, values)`: the named tuple `cls` of the field values `values`, in field order, without the class
#: call (for the hottest handlers).
new = tuple.__new__


def copier(cls: type[T]) -> Callable[..., T]:
    """A function `copy_with(value, **changes)`: `value`, a `cls`, with the named fields changed."""
    index = {name: position for position, name in enumerate(cls._fields)}  # type: ignore[attr-defined]

    def copy_with(value: T, **changes: Any) -> T:
        values = [*value]
        for name, changed in changes.items():
            values[index[name]] = changed
        return new(cls, values)

    copy_with.__name__ = f"with_{cls.__name__.lower()}"
    copy_with.__doc__ = f"A copy of a `{cls.__name__}` with the named fields changed (`_replace`, cheaper)."
    return copy_with
