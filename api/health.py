"""Liveness and readiness for orchestrators (compose healthchecks, load balancers).

`/healthz` answers while the process serves requests at all; `/readyz` also checks that the database and the
broker answer, so that a web process is taken out of rotation (503 with a `code`) while either is down."""

from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from kombu import Connection

from api.errors import error_body

BROKER_TIMEOUT_SECONDS = 2.0


def healthz(request) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def readyz(request) -> JsonResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        return JsonResponse(error_body("database_unavailable", f"the database does not answer: {error}"),
                            status=503)
    if not settings.CELERY_EMBEDDED_WORKER and not broker_reachable(settings.CELERY_BROKER_URL):
        return JsonResponse(error_body("broker_unavailable", "the task broker does not answer"), status=503)
    return JsonResponse({"status": "ok", "database": "ok",
                         "broker": "embedded" if settings.CELERY_EMBEDDED_WORKER else "ok"})


def broker_reachable(url: str) -> bool:
    """One connection attempt to the broker, bounded in time (no retries: a probe must answer fast)."""
    try:
        with Connection(url, connect_timeout=BROKER_TIMEOUT_SECONDS) as broker:
            broker.ensure_connection(max_retries=0, timeout=BROKER_TIMEOUT_SECONDS)
        return True
    except Exception:  # noqa: BLE001 - kombu raises transport-specific errors; any of them means "not ready"
        return False
