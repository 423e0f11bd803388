"""Top-level routes: the API under /api/v1/, its OpenAPI schema and Swagger UI, health probes."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from api import health
from api.docs import SwaggerView

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SwaggerView.as_view(url_name="schema"), name="docs"),
]
