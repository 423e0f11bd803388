"""Top-level routes: the API under /api/v1/, its OpenAPI schema, Swagger UI and ReDoc (assets served from
drf-spectacular-sidecar, so the docs work offline), health probes, and JSON answers for Django's own errors."""

from django.contrib.staticfiles.views import serve
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from api import errors, health
from api.docs import SwaggerView

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("api/v1/", include("api.urls")),
    path("", include("web.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema", template_name="docs/redoc.html"),
         name="redoc"),
    # The docs pages' scripts and styles, found in the sidecar app whatever DEBUG says (a handful of files).
    re_path(r"^static/(?P<path>drf_spectacular_sidecar/.+)$", serve, {"insecure": True}),
]

handler400 = errors.bad_request
handler403 = errors.permission_denied
handler404 = errors.page_not_found
handler500 = errors.server_error
