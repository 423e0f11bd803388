"""The one error root of the application. The API renders every one as `{"code", "detail"}`."""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    status = 400

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra


class BadRequest(ApplicationError):
    status = 400


class Forbidden(ApplicationError):
    status = 403


class NotFound(ApplicationError):
    status = 404


class Conflict(ApplicationError):
    """Someone else moved first (or a stale version was sent): reload and try again."""

    status = 409


class Unprocessable(ApplicationError):
    """Well-formed but refused by the rules (an illegal action, options that cannot start a game)."""

    status = 422
