"""Read-only JSON containers, so that legal actions, views and events may share their parts between calls.

Engines hand out the same values again and again: the discards a hand may make, a table group that did not
move, a played card's event data. Building each anew for every call was a large part of a step. These
classes are plain lists and dicts to every reader (JSON, `==`, `list(x)`, `dict(x)`, pickling), but refuse
to be changed, since other readers hold the same object: copy one first (`list(row)`, `dict(action)`) to
build a variant of it. A caller that copies gets an ordinary, changeable value.
"""

from __future__ import annotations

from typing import Any


def _refuse(self: object, *args: object, **kwargs: object) -> Any:
    raise TypeError("this value is shared and read-only: change a copy (list(x) or dict(x))")


class SharedList(list):
    """A list nobody may change."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse  # type: ignore[assignment]
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type, tuple[list]]:
        return SharedList, (list(self),)


class SharedDict(dict):
    """A dict nobody may change."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _refuse  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type, tuple[dict]]:
        return SharedDict, (dict(self),)
