"""The one pagination of the API's lists: `?limit=` (1 to MAX_LIMIT, larger is cut to it) and `?offset=`.

DRF's own LimitOffsetPagination takes any integer, and PostgreSQL refuses a LIMIT or OFFSET beyond bigint
with an error (a 500); here both go through `parse_int`, so a bad or out-of-range value is a 400.
"""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

from api.base import parse_int

MAX_LIMIT = 200


class Pagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request) -> int:
        limit = parse_int(request.query_params.get(self.limit_query_param), self.limit_query_param,
                          self.default_limit, minimum=1)
        return min(limit, self.max_limit)

    def get_offset(self, request) -> int:
        return parse_int(request.query_params.get(self.offset_query_param), self.offset_query_param, 0)
