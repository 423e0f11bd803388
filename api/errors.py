"""One exception handler: every error is JSON `{"code", "detail"}` with a fitting 4xx status, or 503
`database_unavailable` while the database cannot be reached (the request changed nothing; retry later)."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engine.protocol import IllegalAction, InvalidOptions
from games.exceptions import ApplicationError

_CODES = {
    exceptions.ParseError: "malformed_json",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "invalid_token",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.Throttled: "throttled",
}


def error_body(code: str, detail: str, **extra) -> dict:
    return {"code": code, "detail": detail, **extra}


def exception_handler(exc, context):
    if isinstance(exc, OperationalError | InterfaceError):  # connection refused, dropped or closed
        return Response(error_body("database_unavailable", "the database cannot be reached; try again shortly"),
                        status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "2"})
    if isinstance(exc, ApplicationError):
        return Response(error_body(exc.code, exc.detail, **exc.extra), status=exc.status)
    if isinstance(exc, (InvalidOptions, IllegalAction)):
        # The services turn the rules' refusals into 422s; one that slips past them (an option only the
        # deal checks) is still a refusal of the client's input, and its transaction has rolled back.
        return Response(error_body(exc.code, exc.message), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body("body_too_large", "the request body is too large"),
                        status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, exceptions.ValidationError):
        return Response(error_body("invalid_input", _first_message(exc.detail), errors=exc.detail),
                        status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None:
        code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), "error")
        extra = {"retry_after": exc.wait} if isinstance(exc, exceptions.Throttled) and exc.wait is not None else {}
        response.data = error_body(code, str(getattr(exc, "detail", exc)), **extra)
    return response


def _first_message(detail, path: str = "") -> str:
    """A one-line summary of a nested validation error: `field: message`."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            return _first_message(value, f"{path}.{key}" if path else str(key))
    if isinstance(detail, list) and detail:
        first = detail[0]
        if isinstance(first, (dict, list)):
            index = next((i for i, d in enumerate(detail) if d), 0)
            return _first_message(detail[index], f"{path}[{index}]")
        return f"{path}: {first}" if path else str(first)
    return f"{path}: {detail}" if path else str(detail)


# -- Django's own errors (config.urls handlers): unknown paths, ids that are not UUIDs, crashes -------------
def page_not_found(request, exception=None) -> JsonResponse:
    return JsonResponse(error_body("not_found", f"nothing at {request.path}"), status=status.HTTP_404_NOT_FOUND)


def bad_request(request, exception=None) -> JsonResponse:
    return JsonResponse(error_body("bad_request", "the request is malformed"), status=status.HTTP_400_BAD_REQUEST)


def permission_denied(request, exception=None) -> JsonResponse:
    return JsonResponse(error_body("forbidden", "not allowed"), status=status.HTTP_403_FORBIDDEN)


def server_error(request) -> JsonResponse:
    return JsonResponse(error_body("server_error", "the server failed; the request may be retried"),
                        status=status.HTTP_500_INTERNAL_SERVER_ERROR)
