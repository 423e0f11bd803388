"""The event store's guarantees on PostgreSQL: one winner among concurrent moves, a gapless log, and a
log that the database itself refuses to rewrite."""

import threading

import pytest
from django.db import connection, connections, transaction
from django.db.utils import InternalError, ProgrammingError
from rest_framework.test import APIClient

from games.models import Event
from tests.conftest import create_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_twenty_concurrent_moves_at_one_version_give_one_201(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="c0" * 32)
    mover = ann if game["to_act"] == [0] else bob
    state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
    body = {"action": state["legal_actions"][0], "expected_version": state["version"]}
    barrier = threading.Barrier(20)
    statuses: list[int] = []
    codes: list[str] = []

    def post():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {mover.token}")
        try:
            barrier.wait()
            response = client.post(f"/api/v1/games/{game['id']}/actions/", body, format="json")
            statuses.append(response.status_code)
            if response.status_code != 201:
                codes.append(response.json()["code"])
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * 19, statuses
    assert set(codes) <= {"stale_version", "version_conflict"}
    seqs = list(Event.objects.filter(game_id=game["id"]).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert seqs[-1] == ann.get(f"/api/v1/games/{game['id']}/").json()["version"]


@pytest.mark.parametrize("statement", [
    "UPDATE games_event SET type = 'forged' WHERE game_id = %s",
    "DELETE FROM games_event WHERE game_id = %s",
])
def test_the_database_refuses_to_change_events(ann, statement):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}])
    before = list(Event.objects.filter(game_id=game["id"]).values_list("seq", "type"))
    with pytest.raises((InternalError, ProgrammingError)) as refused, transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute(statement, [game["id"].replace("-", "")])
    assert "event_append_only" in str(refused.value) or "Cannot" in str(refused.value)
    assert list(Event.objects.filter(game_id=game["id"]).values_list("seq", "type")) == before
