"""Refuse oversized bodies before anything reads them, with the API's JSON error shape.

Two layers. `RequestBodyLimit` wraps the ASGI application (config.asgi): Django's ASGI handler reads the
whole body into a temporary file before any middleware runs, and DRF reads nothing when there is no
Content-Length (a `Transfer-Encoding: chunked` body would be silently dropped). So the wrapper refuses a
declared length over the limit at once, reads a body without one itself, counting as it goes (413 as soon as
it passes the limit), and hands Django the body with its Content-Length. `BodySizeLimitMiddleware` is the
same check on the Content-Length header for WSGI servers and the test client.

The middleware is sync and async capable (MiddlewareMixin), so that under ASGI the async stream views never
pass through the single thread that runs sync code: a long poll waiting there would hold up every sync view.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.http import JsonResponse
from django.utils.deprecation import MiddlewareMixin


def _too_large(limit: int) -> tuple[int, dict]:
    return 413, {"code": "body_too_large", "detail": f"the body exceeds {limit} bytes"}


_BAD_LENGTH = 400, {"code": "bad_request", "detail": "invalid Content-Length"}


class BodySizeLimitMiddleware(MiddlewareMixin):
    """The body limit on the Content-Length header; and, being first in line, the refusal of NUL characters in
    the path, query or headers, which no view expects and PostgreSQL refuses to compare (a 500 otherwise)."""

    def process_request(self, request):
        if where := _nul_in(request):
            return JsonResponse({"code": "bad_request", "detail": f"NUL characters are not allowed in the {where}"},
                                status=400)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return JsonResponse(_BAD_LENGTH[1], status=_BAD_LENGTH[0])
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length > limit:
            status, body = _too_large(limit)
            return JsonResponse(body, status=status)
        return None


def _nul_in(request) -> str | None:
    if "\x00" in request.path:
        return "path"
    if any("\x00" in name or "\x00" in value for name, values in request.GET.lists() for value in values):
        return "query"
    if any(isinstance(value, str) and "\x00" in value for name, value in request.META.items()
           if name.startswith("HTTP_")):
        return "headers"
    return None


class RequestBodyLimit:
    """ASGI wrapper: every HTTP body reaches Django with a Content-Length, and none over the limit is read."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        headers = scope.get("headers") or []
        declared = [value for name, value in headers if name.lower() == b"content-length"]
        if declared:
            try:
                length = int(declared[0])
            except ValueError:
                return await _answer(send, *_BAD_LENGTH)
            if limit is not None and length > limit:
                return await _answer(send, *_too_large(limit))
            return await self.app(scope, receive, send)  # the server delivers exactly that many bytes
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None  # the client went away before its body ended: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if limit is not None and size > limit:
                return await _answer(send, *_too_large(limit))
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        if not size:
            return await self.app(scope, _replay(b"", receive), send)
        kept = [(name, value) for name, value in headers if name.lower() != b"transfer-encoding"]
        scope = {**scope, "headers": [*kept, (b"content-length", str(size).encode())]}
        return await self.app(scope, _replay(b"".join(chunks), receive), send)


def _replay(body: bytes, receive):
    """A `receive` that gives the body read already, then the server's own messages (the disconnect)."""
    pending = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed():
        return pending.pop() if pending else await receive()

    return replayed


async def _answer(send, status: int, body: dict) -> None:
    """An error answered before the body is read: the connection closes, the rest is never read."""
    content = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(content)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": content})
