"""Retried requests never write twice; a move costs a fixed, small number of queries."""

from django.db import connection

from games.models import Game
from tests.conftest import create_game, event_count


def test_retried_move_returns_the_first_answer_and_writes_once(ann, bob):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="77" * 32)
    mover = ann if game["to_act"] == [0] else bob
    state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
    body = {"action": state["legal_actions"][0], "expected_version": state["version"]}
    first = mover.post(f"/api/v1/games/{game['id']}/actions/", body, HTTP_IDEMPOTENCY_KEY="move-1")
    assert first.status_code == 201
    count = event_count(game["id"])
    again = mover.post(f"/api/v1/games/{game['id']}/actions/", body, HTTP_IDEMPOTENCY_KEY="move-1")
    assert again.status_code == 201 and again.json() == first.json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert event_count(game["id"]) == count
    other = dict(body, expected_version=body["expected_version"] + 99)
    reused = mover.post(f"/api/v1/games/{game['id']}/actions/", other, HTTP_IDEMPOTENCY_KEY="move-1")
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"
    assert event_count(game["id"]) == count


def test_retried_creation_creates_one_game(ann):
    body = {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"bot": "random"}]}
    first = ann.post("/api/v1/games/", body, HTTP_IDEMPOTENCY_KEY="new-game")
    again = ann.post("/api/v1/games/", body, HTTP_IDEMPOTENCY_KEY="new-game")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert Game.objects.count() == 1


def test_a_move_costs_a_bounded_number_of_queries(ann, bob, django_assert_max_num_queries,
                                                  django_capture_on_commit_callbacks):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="78" * 32)
    mover = ann if game["to_act"] == [0] else bob
    state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
    body = {"action": state["legal_actions"][0], "expected_version": state["version"]}
    # token+player 1, (test savepoint 2), game 1, seats 1, head update and event insert 1 (one statement on
    # PostgreSQL, two elsewhere; no savepoint: the update's row lock keeps other writers out)
    with django_assert_max_num_queries(6 if connection.vendor == "postgresql" else 7), \
            django_capture_on_commit_callbacks() as after_commit:
        assert mover.post(f"/api/v1/games/{game['id']}/actions/", body).status_code == 201
    for hook in after_commit:  # what the commit then runs: among others, caching the new position
        hook()
    # token+player 1, game 1, seats 1 (the position comes from the cache the move filled)
    with django_assert_max_num_queries(3):
        assert mover.get(f"/api/v1/games/{game['id']}/state/").status_code == 200


def test_kinds_bots_schema_and_docs(ann):
    kinds = ann.get("/api/v1/kinds/").json()
    sm = next(k for k in kinds if k["kind"] == "spite-and-malice")
    assert sm["seats"] == [2] and set(sm["actions"]) >= {"play", "discard", "end_turn"}
    assert sm["options"]["max_turns"]["default"] == 1000
    bots = ann.get("/api/v1/bots/").json()
    assert any(b["name"] == "random" and "spite-and-malice" in b["kinds"] for b in bots)
    schema = ann.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "/api/v1/games/{game_id}/actions/" in schema["paths"]
    components = schema["components"]["schemas"]
    assert components["GameActionInputRequest"]["properties"]["action"] == {"$ref": "#/components/schemas/Action"}
    assert components["SpiteAndMalicePlay"]["title"] == "Spite and Malice: play"
    assert sm["actions"]["play"] == components["SpiteAndMalicePlay"]
    assert sm["view"]["properties"].keys() == components["SpiteAndMaliceView"]["properties"].keys()
    assert ann.client.get("/api/docs/").status_code == 200


def test_game_list_filters_and_pages(ann, bob):
    create_game(ann, [{"player": ann.id}, {"player": bob.id}])
    create_game(ann, [{"bot": "random"}, {"bot": "random"}])
    listed = ann.get("/api/v1/games/", player=bob.id).json()
    assert listed["count"] == 1 and listed["results"][0]["seats"][1]["name"] == "bob"
    assert ann.get("/api/v1/games/", kind="spite-and-malice", limit=1).json()["count"] == 2
    assert len(ann.get("/api/v1/games/", limit=1).json()["results"]) == 1
    assert ann.get("/api/v1/games/", status="finished").json()["count"] == 0
