"""The Swagger UI page, with an OPTIONS answer: drf-spectacular's view renders only through an HTML template,
and DRF's description of the endpoint (OPTIONS) has none, so it would be a 500."""

from __future__ import annotations

from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.renderers import JSONRenderer


class SwaggerView(SpectacularSwaggerView):
    def options(self, request, *args, **kwargs):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
        return super().options(request, *args, **kwargs)
