"""Settings, all from the environment (django-environ), with an embedded default.

Unset, the server runs on a SQLite file and an in-process Celery worker with an in-memory broker, so one
command serves everything. Production sets DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis).
"""

import warnings
from pathlib import Path

import environ
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env(
    DEBUG=(bool, False),
    ALLOWED_HOSTS=(list, ["localhost", "127.0.0.1", "[::1]", "testserver"]),
    CELERY_BROKER_URL=(str, ""),
    SNAPSHOT_EVERY=(int, 50),
    MAX_BODY_BYTES=(int, 64 * 1024),
)

DEBUG = env("DEBUG")
SECRET_KEY = env("SECRET_KEY", default="tavolo-insecure-development-key-change-me")
ALLOWED_HOSTS = env("ALLOWED_HOSTS")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "bots",
    "tournaments",
    "web",
]

MIDDLEWARE = [
    "api.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "config" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'tavolo.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Bots write from a worker thread while the web thread reads: wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves the static files in every set-up: from STATIC_ROOT after `collectstatic` (production
# images), and straight from the apps' static folders otherwise (the embedded default needs no build step).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
# Without `collectstatic` there is no STATIC_ROOT folder, and the finders serve everything: not worth a warning.
warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")
WHITENOISE_AUTOREFRESH = DEBUG

# Oversized bodies are refused before any parsing (see api.errors for the JSON answer).
DATA_UPLOAD_MAX_MEMORY_SIZE = env("MAX_BODY_BYTES")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.authentication.PlayerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "UNAUTHENTICATED_USER": None,
    # Client address for the per-IP throttles: REMOTE_ADDR unless this many trusted proxies put theirs in
    # X-Forwarded-For (DRF's default, None, would trust whatever address a client writes there).
    "NUM_PROXIES": env.int("THROTTLE_NUM_PROXIES", default=0),
}

# --- Throttles and quotas (docs: README "Limits") -------------------------------------------------
# Counters live in the cache: CACHE_URL (django-environ), local memory by default (one process: the
# embedded server), Redis when several web processes must share them, e.g. redis://redis:6379/1.
# A Redis URL gets django-redis, which keeps one client per process: Django's own Redis backend builds a new
# client for every operation, which cost more than the round trip itself (docs/move-path.md).
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
# "<n>/<s|min|hour|day>"; "off" disables one. Read at each request (api.throttles), so tests may change them.
THROTTLE_RATES = {
    "register": env("THROTTLE_REGISTER", default="20/hour"),  # POST /players/, per client address
    "game_create": env("THROTTLE_GAME_CREATE", default="60/hour"),  # POST /games/, per player
    "action": env("THROTTLE_ACTION", default="300/min"),  # POST /games/{id}/actions/, per player
    "tournament_create": env("THROTTLE_TOURNAMENT_CREATE", default="10/hour"),  # POST /tournaments/, per player
    "auth_failure": env("THROTTLE_AUTH_FAILURE", default="30/min"),  # bad tokens, per client address
}
# Active games a player may have created or sit in when creating another one.
MAX_ACTIVE_GAMES_PER_PLAYER = env.int("MAX_ACTIVE_GAMES_PER_PLAYER", default=20)
# A clock-bound bot's (search) thinking time per move; larger budgets are refused at creation and cut at play.
MAX_BOT_BUDGET_MS = env.int("MAX_BOT_BUDGET_MS", default=5000)

SPECTACULAR_SETTINGS = {
    "TITLE": "Tavolo API",
    "DESCRIPTION": "Play, watch and replay traditional Italian card games. Every game is an event log.",
    "VERSION": "1.0.0",
    # 3.1: action and view schemas are JSON Schema 2020-12 (`const`, `prefixItems`, null as a type).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.Game.Status",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "TournamentFormatEnum": "tournaments.models.Tournament.Format",
    },
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "api.schema.postprocess"],
    # Swagger UI and ReDoc from drf-spectacular-sidecar's static files: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No call to the online validator (Swagger UI's default), which would fail offline.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

# --- Celery ------------------------------------------------------------------------------------
# Unset CELERY_BROKER_URL: an in-memory broker served by a worker thread inside the web process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL") or "memory://"
CELERY_EMBEDDED_WORKER = CELERY_BROKER_URL == "memory://"
# Database connections: on PostgreSQL each request (an ASGI request runs its sync code in a thread of its own)
# borrows a connection from a per-process pool and gives it back when it ends, instead of opening one (about
# 8 ms, more than a move's statements). CONN_HEALTH_CHECKS makes the pool test a borrowed connection first (one
# empty round trip). When the pool has none to give within DATABASE_POOL_TIMEOUT (the database unreachable, or
# every connection busy), the request connects by itself (config.postgresql): an outage is answered at once
# with 503 and the first request after it is served at once. The pool is no new limit (a live stream holds its
# connection while it runs, as without the pool): it keeps DATABASE_POOL_MIN_SIZE open and opens more up to
# DATABASE_POOL_MAX_SIZE. Not with the embedded worker (`manage.py serve`), whose threads hold their
# connections for good: requests there were seen waiting a second for one. DATABASE_POOL=false opens a
# connection per request again.
if (DATABASES["default"]["ENGINE"].endswith("postgresql") and not CELERY_EMBEDDED_WORKER
        and env.bool("DATABASE_POOL", default=True)):
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN_SIZE", default=2),
        "max_size": env.int("DATABASE_POOL_MAX_SIZE", default=100),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=0.2),
    }
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
# Two queues, so that bots thinking by the clock never hold up the rest: turns of a bot that takes
# `budget_ms` (search) go to BOT_SEARCH_QUEUE, every other task to the default queue. A worker started
# without -Q consumes both; production runs one worker per queue (docker/compose.yaml).
CELERY_TASK_DEFAULT_QUEUE = "celery"
BOT_SEARCH_QUEUE = env("BOT_SEARCH_QUEUE", default="bots.search")
CELERY_TASK_QUEUES = [Queue(name, routing_key=name) for name in (CELERY_TASK_DEFAULT_QUEUE, BOT_SEARCH_QUEUE)]
# A worker keeps its database connection for this many tasks (Celery's Django fixup closes it after every
# task otherwise: a new PostgreSQL connection per bot move); config.celery drops one that broke meanwhile.
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=100)
# Redis keeps a delivered, unacknowledged message aside for `visibility_timeout` seconds: a worker killed
# mid-task gets its message back only then (a prefork child that dies is requeued at once). It must exceed
# the longest task. Overrides as JSON, e.g. '{"visibility_timeout": 600}'.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600,
                                   **env.json("CELERY_BROKER_TRANSPORT_OPTIONS", default={})}
if CELERY_EMBEDDED_WORKER:
    CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] = 0.02  # the in-memory queue is polled
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker (and beat) outlives a broker outage: it reconnects for as long as it takes, and meanwhile holds
# no task it cannot acknowledge (acks_late: the message is redelivered, the outbox resends what is lost).
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=4.0)
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    # A half-open connection is noticed (and reopened) within seconds, not at the next TCP timeout.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 10, "socket_connect_timeout": 5, "retry_on_timeout": True,
                                       "health_check_interval": 10, **CELERY_BROKER_TRANSPORT_OPTIONS}
# The outbox (games.outbox): every job a commit implies is a row written with it; after commit it is handed
# to the broker, and a periodic sweep (`celery -A config beat` in production, a beat thread inside the
# embedded default) hands again each job not done within its resend delay: BOT_STALL_SECONDS plus the bot's
# `budget_ms` for a bot turn, JOB_RESEND_SECONDS for the others, past its due time.
JOB_SWEEP_SECONDS = env.float("JOB_SWEEP_SECONDS", default=env.float("BOT_SWEEP_SECONDS", default=30.0))
BOT_STALL_SECONDS = env.float("BOT_STALL_SECONDS", default=30.0)
JOB_RESEND_SECONDS = env.float("JOB_RESEND_SECONDS", default=30.0)
JOB_KEEP_SECONDS = env.float("JOB_KEEP_SECONDS", default=24 * 3600.0)  # done jobs are deleted after this
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"  # fixed intervals only: nothing worth a schedule file
# A game that seats other players waits this long for every one of them to accept, then it is aborted.
INVITATION_SECONDS = env.int("INVITATION_SECONDS", default=24 * 3600)
INVITATION_SWEEP_SECONDS = env.float("INVITATION_SWEEP_SECONDS", default=60.0)
CELERY_BEAT_SCHEDULE = {
    "sweep-jobs": {"task": "games.tasks.sweep_jobs", "schedule": JOB_SWEEP_SECONDS,
                   "options": {"expires": JOB_SWEEP_SECONDS}},
    "expire-invitations": {"task": "games.tasks.expire_invitations", "schedule": INVITATION_SWEEP_SECONDS,
                           "options": {"expires": INVITATION_SWEEP_SECONDS}},
}

SNAPSHOT_EVERY = env("SNAPSHOT_EVERY")

# On SIGTERM the ASGI server lets open requests finish for this long, then closes them: live streams never
# finish by themselves, and their clients resume elsewhere with Last-Event-ID.
SHUTDOWN_GRACE_SECONDS = env.int("SHUTDOWN_GRACE_SECONDS", default=3)

# --- Live streams (SSE, long poll) ------------------------------------------------------------------
# After each commit a wake-up "game:<id> is at version N" goes through a bus: Redis pub/sub when a Redis
# URL is known, else PostgreSQL LISTEN/NOTIFY on PostgreSQL, else in-process (the embedded default).
REDIS_URL = env("REDIS_URL", default="") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "")
STREAM_BUS = env("STREAM_BUS", default="") or (
    "redis" if REDIS_URL else "postgres" if DATABASES["default"]["ENGINE"].endswith("postgresql") else "local")
STREAM_HEARTBEAT_SECONDS = env.float("STREAM_HEARTBEAT_SECONDS", default=15.0)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"celery": {"level": env("CELERY_LOG_LEVEL", default="WARNING")}},
}
