"""Concurrent retries with one Idempotency-Key on PostgreSQL: every one gets the first answer (same status and
body, `Idempotent-Replayed: true` on all but one) and the request runs once."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections
from rest_framework.test import APIClient

from games import services
from games.models import Event, Game, IdempotencyRecord
from tests.conftest import create_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CONCURRENT = 25


def _concurrently(token: str, path: str, body: dict, key: str) -> list:
    """POST the same request from CONCURRENT threads at once; the responses, in any order."""
    barrier = threading.Barrier(CONCURRENT)
    responses: list = []
    failures: list[BaseException] = []

    def post() -> None:
        client = APIClient(raise_request_exception=False)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            barrier.wait()
            responses.append(client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key))
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(CONCURRENT)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert len(responses) == CONCURRENT
    return responses


def _one_answer(responses: list, status: int) -> dict:
    """Every response is the first one; exactly one was not replayed."""
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [status] * CONCURRENT, [(r.status_code, r.content[:200]) for r in responses]
    bodies = [r.json() for r in responses]
    assert all(body == bodies[0] for body in bodies)
    replayed = [r.headers.get("Idempotent-Replayed") for r in responses]
    assert sorted(replayed, key=str) == [None] + ["true"] * (CONCURRENT - 1), replayed
    return bodies[0]


def test_concurrent_creations_with_one_key_create_one_game(ann, bob, monkeypatch):
    body = {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"player": bob.id}]}
    calls = _counted(monkeypatch, "game_create")
    responses = _concurrently(ann.token, "/api/v1/games/", body, "one-new-game")
    created = _one_answer(responses, 201)
    assert len(calls) == 1
    assert [str(pk) for pk in Game.objects.values_list("id", flat=True)] == [created["id"]]
    assert IdempotencyRecord.objects.filter(player_id=ann.id, key="one-new-game").count() == 1


def _counted(monkeypatch, name: str, later_calls_wait: float = 0.0) -> list[int]:
    """Count the calls of `services.<name>`; every call after the first waits first, as a retry that reached
    the service just after the first request committed would."""
    calls: list[int] = []
    real = getattr(services, name)

    def counted(**kwargs):
        calls.append(1)
        if len(calls) > 1:
            time.sleep(later_calls_wait)
        return real(**kwargs)

    monkeypatch.setattr(services, name, counted)
    return calls


def test_concurrent_moves_with_one_key_and_no_expected_version_move_once(ann, bob, monkeypatch):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="ad" * 32)
    mover = ann if game["to_act"] == [0] else bob
    state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
    calls = _counted(monkeypatch, "game_apply_action", later_calls_wait=0.3)
    body = {"action": state["legal_actions"][0]}  # no expected_version: only the key keeps it to one move
    responses = _concurrently(mover.token, f"/api/v1/games/{game['id']}/actions/", body, "one-move")
    answer = _one_answer(responses, 201)
    assert len(calls) == 1
    seqs = list(Event.objects.filter(game_id=game["id"]).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, answer["version"] + 1))
    assert [e["seq"] for e in answer["events"]] == list(range(state["version"] + 1, answer["version"] + 1))
    assert mover.get(f"/api/v1/games/{game['id']}/").json()["version"] == answer["version"]


def test_concurrent_requests_with_different_keys_are_not_held_up_by_each_other(ann, bob):
    """The lock is per (player, key): distinct keys from one player create distinct games."""
    body = {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"player": bob.id}]}
    barrier = threading.Barrier(10)
    statuses: list[int] = []

    def post(index: int) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {ann.token}")
        try:
            barrier.wait()
            statuses.append(client.post("/api/v1/games/", body, format="json",
                                        HTTP_IDEMPOTENCY_KEY=f"key-{index}").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [201] * 10 and Game.objects.count() == 10
