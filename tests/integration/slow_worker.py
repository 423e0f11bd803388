"""The Celery app with the test-only slow bot registered: `celery -A tests.integration.slow_worker worker`."""

from bots.policies import register
from config.celery import app
from tests.integration.slow_bot import SLOW

register(SLOW)

__all__ = ["app"]
