"""The simulate command, and the deployment files a new user relies on."""

from io import StringIO
from pathlib import Path

import yaml
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent


def test_simulate_prints_results_and_rates():
    out = StringIO()
    call_command("simulate", "spite-and-malice", "--games", "3", stdout=out, stderr=StringIO())
    text = out.getvalue()
    assert "3 games of spite-and-malice" in text
    assert "games/s" in text and "actions/s" in text and "endings" in text


def test_compose_file_has_the_five_services():
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    assert set(compose["services"]) == {"web", "worker", "beat", "db", "redis"}
    assert "celery" in compose["services"]["worker"]["command"]
    assert compose["services"]["beat"]["command"].startswith("celery -A config beat")
    assert (ROOT / "docker" / "Dockerfile").read_text().startswith("FROM python:3.11")
