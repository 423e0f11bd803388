"""Fixtures of the fault tests: a Redis of their own, and the subprocesses they start on it (all stopped after).
They need PostgreSQL (shared with the subprocesses) and the `redis-server` binary: skipped without them outside
CI, failed in CI."""

from __future__ import annotations

import shutil

import pytest
from django.db import connection

from tests.conftest import missing
from tests.faults.harness import Processes, RedisServer
from tests.integration.live import database_url


@pytest.fixture
def redis_server(tmp_path):
    if shutil.which("redis-server") is None:
        missing("the redis-server binary")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def processes(tmp_path, redis_server):
    """Start web, worker and beat on the test database and the private Redis, with short delays: a job is
    resent 2 s past due (a bot turn: BOT_STALL_SECONDS, 2 s, plus its budget), swept every second."""
    if connection.vendor != "postgresql":
        missing("PostgreSQL shared with the server processes (DATABASE_URL=postgres://...)")
    started = Processes(tmp_path, {
        "DATABASE_URL": database_url(connection.settings_dict), "CELERY_BROKER_URL": redis_server.url,
        "BOT_STALL_SECONDS": "2", "JOB_RESEND_SECONDS": "2", "JOB_SWEEP_SECONDS": "1",
        "STREAM_HEARTBEAT_SECONDS": "5", "LOG_LEVEL": "WARNING"})
    yield started
    started.stop_all()
