"""Refuse oversized bodies before anything reads them, with the API's JSON error shape."""

from django.conf import settings
from django.http import JsonResponse


class BodySizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return JsonResponse({"code": "bad_request", "detail": "invalid Content-Length"}, status=400)
        if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return JsonResponse({"code": "body_too_large", "detail": f"the body exceeds {limit} bytes"}, status=413)
        return self.get_response(request)
