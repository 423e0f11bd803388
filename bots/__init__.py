"""Bots: pure policies that see only a seat's view, and the Celery tasks that play bot seats."""
