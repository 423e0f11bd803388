"""Refuse oversized bodies before anything reads them, with the API's JSON error shape.

Sync and async capable (MiddlewareMixin), so that under ASGI the async stream views never pass through
the single thread that runs sync code: a long poll waiting there would hold up every sync view.
"""

from django.conf import settings
from django.http import JsonResponse
from django.utils.deprecation import MiddlewareMixin


class BodySizeLimitMiddleware(MiddlewareMixin):
    def process_request(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return JsonResponse({"code": "bad_request", "detail": "invalid Content-Length"}, status=400)
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return JsonResponse({"code": "body_too_large", "detail": f"the body exceeds {limit} bytes"}, status=413)
        return None
