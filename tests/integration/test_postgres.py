"""The event store's guarantees on PostgreSQL: one winner among concurrent moves, a gapless log, and a
log that the database itself refuses to rewrite."""

import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.db.utils import DatabaseError
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


# Session settings a writer might try first: django-pgtrigger's switch (its triggers honoured it), and replica
# mode, which skips ordinary triggers (superusers only; ours are ENABLE ALWAYS).
BYPASSES = [
    None,
    "SET LOCAL pgtrigger.ignore = '{event_append_only,notification_append_only,"
    "pgtrigger_event_append_only_ea7b0,pgtrigger_notification_append_only_66a08}'",
    "SET LOCAL session_replication_role = replica",
]


@pytest.mark.parametrize("bypass", BYPASSES)
@pytest.mark.parametrize(("statement", "table"), [
    ("UPDATE games_event SET type = 'forged' WHERE game_id = %s", "games_event"),
    ("DELETE FROM games_event WHERE game_id = %s", "games_event"),
    ("UPDATE games_notification SET kind = 'forged' WHERE player_id = %s", "games_notification"),
    ("DELETE FROM games_notification WHERE player_id = %s", "games_notification"),
])
def test_the_database_refuses_to_change_the_log_even_to_its_owner(ann, statement, table, bypass):
    from games.models import Notification

    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}])
    key = game["id"] if table == "games_event" else ann.id

    def log():
        return (list(Event.objects.filter(game_id=game["id"]).values_list("seq", "type")),
                list(Notification.objects.filter(player_id=ann.id).values_list("seq", "kind")))

    before = log()
    assert before[0] and before[1]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_has_role(current_user, relowner, 'MEMBER') FROM pg_class WHERE oid = %s::regclass",
                       [table])
        assert cursor.fetchone() == (True,)  # the connection's role owns the table
    with pytest.raises(DatabaseError, match=f"{table} is append-only") as refused, transaction.atomic(), \
            connection.cursor() as cursor:
        if bypass:
            cursor.execute(bypass)
        cursor.execute(statement, [key])
    assert ("UPDATE" if statement.startswith("UPDATE") else "DELETE") in str(refused.value)
    assert log() == before


def test_concurrent_notifications_to_one_player_are_numbered_without_gaps(ann, bob):
    """One-per-player batches (one statement each) and a two-notification batch (lock, read, insert) race
    for the same player, each holding its transaction open a moment: every one lands, numbered 1..n."""
    from games.models import Notification
    from games.notifications import notify_each

    barrier = threading.Barrier(12)
    failures: list[BaseException] = []

    def notify(index: int) -> None:
        try:
            barrier.wait()
            with transaction.atomic():
                if index % 4 == 0:
                    notify_each([(ann.id, "pair", {"n": index}), (ann.id, "pair", {"n": index, "second": True})])
                else:
                    notify_each([(ann.id, "one", {"n": index}), (bob.id, "one", {"n": index})])
                time.sleep(0.02)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=notify, args=(index,)) for index in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    seqs = list(Notification.objects.filter(player=ann.model).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, 3 * 2 + 9 + 1))  # three batches of two, nine of one
    assert list(Notification.objects.filter(player=bob.model).order_by("seq").values_list("seq", flat=True)) == \
        list(range(1, 10))
    pairs = Notification.objects.filter(player=ann.model, kind="pair").order_by("seq")
    for first, second in zip(pairs[::2], pairs[1::2], strict=True):  # a batch keeps its order and stays together
        assert second.seq == first.seq + 1 and second.payload == {**first.payload, "second": True}


def test_the_one_statement_append_stores_what_the_orm_stores(ann, bob, monkeypatch):
    """Two games from one seed, played with the same random choices to the end: one through the PostgreSQL
    statement that moves the head and inserts the events, one through the ORM (as on any other database)."""
    import random

    from games.models import Game
    from tests.conftest import play_randomly

    def play() -> tuple[list, dict]:
        game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="5e" * 32)
        play_randomly({0: ann, 1: bob}, game["id"], random.Random(5))
        rows = list(Event.objects.filter(game_id=game["id"]).order_by("seq")
                    .values_list("seq", "type", "actor", "data", "public", "visible_to", "schema_version"))
        head = Game.objects.filter(pk=game["id"]).values("version", "status", "to_act", "result").get()
        return rows, head

    one_statement = play()
    monkeypatch.setattr(connection, "vendor", "other")  # the ORM path
    orm = play()
    assert one_statement[0] and one_statement == orm
    assert one_statement[1]["status"] == "finished" and one_statement[1]["version"] == len(one_statement[0])
