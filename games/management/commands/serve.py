"""`python manage.py serve`: migrate, start the embedded worker if no broker is set, serve over ASGI."""

import uvicorn
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate the database and serve the API (ASGI); plays bots in-process when no broker is set."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, host: str, port: int, **options):
        call_command("migrate", interactive=False, verbosity=0)
        if settings.CELERY_EMBEDDED_WORKER:
            from config.embedded_worker import start_embedded_worker

            start_embedded_worker()
        self.stdout.write(f"Tavolo on http://{host}:{port}/api/v1/  (docs: /api/docs/)")
        uvicorn.run("config.asgi:application", host=host, port=port, log_level="info",
                    timeout_graceful_shutdown=settings.SHUTDOWN_GRACE_SECONDS)
