"""A small all-bot tournament played end to end by a real Celery worker on Redis, on PostgreSQL: the worker
plays the bot turns, and the advance task queued when each game ends pairs the next round."""

import time

import pytest

from games.models import Game
from tests.integration.test_worker import worker  # noqa: F401 - the worker subprocess fixture
from tournaments.models import TournamentTable

pytestmark = [pytest.mark.postgres, pytest.mark.worker, pytest.mark.django_db(transaction=True)]
URL = "/api/v1/tournaments/"


def test_an_all_bot_swiss_tournament_runs_to_the_end_on_a_real_worker(ann, worker):  # noqa: F811
    tournament = ann.post(URL, {"kind": "spite-and-malice", "format": "swiss", "rounds": 2, "seed": "7c" * 32}).json()
    tid = tournament["id"]
    for _ in range(5):
        assert ann.post(f"{URL}{tid}/entrants/", {"bot": "random"}).status_code == 201
    assert ann.post(f"{URL}{tid}/start/", {}).json()["status"] == "running"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        detail = ann.get(f"{URL}{tid}/").json()
        if detail["status"] != "running":
            break
        assert worker.poll() is None, worker.stdout.read().decode()
        time.sleep(0.1)
    assert detail["status"] == "finished", detail
    assert detail["current_round"] == 2 and detail["seed"] == "7c" * 32
    rounds = ann.get(f"{URL}{tid}/rounds/").json()
    assert [(len(r["tables"]), len(r["byes"]), r["finished"]) for r in rounds] == [(2, 1, True), (2, 1, True)]
    games = Game.objects.filter(tournament_table__round__tournament_id=tid)
    assert games.count() == 4 and set(games.values_list("status", flat=True)) == {"finished"}
    assert TournamentTable.objects.filter(round__tournament_id=tid, game__isnull=True).count() == 2
    standings = ann.get(f"{URL}{tid}/standings/").json()
    assert standings["final"] is True and len(standings["standings"]) == 5
    assert sum(row["points"] for row in standings["standings"]) == 4 + 2
