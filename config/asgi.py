"""ASGI entry point (uvicorn config.asgi:application): Django behind the request body limit."""

import os

from django.core.asgi import get_asgi_application

from api.middleware import RequestBodyLimit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = RequestBodyLimit(get_asgi_application())
