"""The simulate command, and the deployment files a new user relies on."""

import os
import shutil
import subprocess
from io import StringIO
from pathlib import Path

import yaml
from django.core.management import call_command

from tests.conftest import missing

ROOT = Path(__file__).resolve().parent.parent


def test_simulate_prints_results_and_rates():
    out = StringIO()
    call_command("simulate", "spite-and-malice", "--games", "3", stdout=out, stderr=StringIO())
    text = out.getvalue()
    assert "3 games of spite-and-malice" in text
    assert "games/s" in text and "actions/s" in text and "endings" in text


def test_compose_file_has_the_services_queues_and_the_least_privileged_roles():
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"migrate", "web", "worker", "worker-search", "beat", "db", "redis"}
    assert services["migrate"]["environment"]["DATABASE_URL"].startswith("postgres://tavolo_owner:")
    for name in ("web", "worker", "worker-search", "beat"):  # the application never connects as the owner
        assert services[name]["environment"]["DATABASE_URL"].startswith("postgres://tavolo_app:")
        assert services[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert "migrate" not in services["web"]["command"]
    assert (ROOT / "docker" / "postgres" / "roles.sql").is_file()
    assert "-Q celery " in services["worker"]["command"]  # a worker per queue (bots.tasks)
    assert "-Q bots.search " in services["worker-search"]["command"]
    assert services["web"]["environment"]["CACHE_URL"].startswith("redis://")  # throttles shared by web processes
    for name in ("web", "worker", "worker-search", "beat", "db", "redis"):  # restarted if they die
        assert services[name]["restart"] == "unless-stopped"
    for name in ("web", "db", "redis"):
        assert services[name]["healthcheck"]["test"]
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    assert services["web"]["depends_on"]["redis"] == {"condition": "service_healthy"}
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".venv", ".git", "*.sqlite3"} <= set(ignored)
    assert compose["services"]["beat"]["command"].startswith("celery -A config beat")
    assert (ROOT / "docker" / "Dockerfile").read_text().startswith("FROM python:3.11")


def _compose_cli() -> list[str] | None:
    """Compose v2 (`docker compose`) or v1 (`docker-compose`); `config` needs no Docker engine."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    return ["docker-compose"] if shutil.which("docker-compose") else None


def test_docker_compose_config_accepts_the_compose_file():
    cli = _compose_cli()
    if cli is None:
        missing("a Compose CLI (`docker compose` or Debian's `docker-compose`)")
    done = subprocess.run([*cli, "-f", str(ROOT / "docker" / "compose.yaml"), "config"], capture_output=True,
                          text=True, env={"PATH": os.environ["PATH"], "SECRET_KEY": "x"})
    assert done.returncode == 0, done.stderr
    resolved = yaml.safe_load(done.stdout)
    assert set(resolved["services"]) == {"migrate", "web", "worker", "worker-search", "beat", "db", "redis"}
    assert resolved["services"]["web"]["environment"]["SECRET_KEY"] == "x"
    assert resolved["services"]["worker"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
