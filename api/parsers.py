"""The API's JSON parser: DRF's, plus a nesting limit, so that a body of `[[[[...` is a 400, not a 500.

Python's decoder recurses once per level and raises RecursionError past about a thousand; a body nested
just below that would parse and then overflow the stack later (fingerprinting, validation, storage). No
request of this API needs more than a few levels, so anything deeper than MAX_JSON_DEPTH is refused.
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_JSON_DEPTH = 32


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels") from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels")
        return data


def json_depth(value: Any) -> int:
    """How many arrays and objects deep `value` goes (a scalar is 0); iterative, so any depth is safe."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in item if isinstance(child, (dict, list)))
    return deepest
