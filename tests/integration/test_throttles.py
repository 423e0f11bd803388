"""Throttles: over a scope's rate a request gets 429 `{"code": "throttled"}` with a Retry-After header, and
changes nothing. Rates come from settings at each request (here lowered from the suite's lifted ones)."""

from __future__ import annotations

import os

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, Player
from tests.conftest import create_game, missing
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

GAME = {"kind": "spite-and-malice", "seats": [{"bot": "random"}, {"bot": "random"}]}


#: The two counter stores a deployment uses: local memory (the embedded server) and Redis through django-redis
#: (several web processes; what CACHE_URL=redis://... selects). Each test runs on both.
STORES = {
    "locmem": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle-tests"},
    "redis": {"BACKEND": "django_redis.cache.RedisCache",
              "LOCATION": os.environ.get("THROTTLE_TEST_REDIS", "redis://127.0.0.1:6379/14")},
}


@pytest.fixture(autouse=True, params=sorted(STORES))
def fresh_counters(request, settings):
    """A cache of its own, emptied, so that no other test's requests are counted here."""
    settings.CACHES = {"default": STORES[request.param]}
    from django.core.cache import cache

    try:
        cache.clear()
    except Exception as error:  # noqa: BLE001 - any connection failure means the same: no Redis here
        missing(f"Redis for the throttle counters ({error})")


def _assert_throttled(response) -> None:
    assert response.status_code == 429, response.content
    body = response.json()
    assert body["code"] == "throttled" and "available in" in body["detail"]
    wait = int(response.headers["Retry-After"])
    assert wait >= 1 and body["retry_after"] == wait


def test_registration_is_throttled_per_address(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "register": "2/hour"}
    here, there = APIClient(REMOTE_ADDR="10.0.0.1"), APIClient(REMOTE_ADDR="10.0.0.2")
    assert here.post("/api/v1/players/", {"name": "one"}, format="json").status_code == 201
    assert here.post("/api/v1/players/", {"name": "two"}, format="json").status_code == 201
    refused = here.post("/api/v1/players/", {"name": "three"}, format="json")
    _assert_throttled(refused)
    assert int(refused.headers["Retry-After"]) > 3000  # the oldest of the two leaves the hour's window
    assert not Player.objects.filter(name="three").exists()
    assert there.post("/api/v1/players/", {"name": "four"}, format="json").status_code == 201


def test_a_forwarded_for_header_does_not_give_a_new_address(settings):
    """With no trusted proxy (THROTTLE_NUM_PROXIES=0) the client's own X-Forwarded-For is ignored."""
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "register": "1/hour"}
    client = APIClient(REMOTE_ADDR="10.0.0.3")
    assert client.post("/api/v1/players/", {"name": "first"}, format="json").status_code == 201
    spoofed = client.post("/api/v1/players/", {"name": "second"}, format="json", HTTP_X_FORWARDED_FOR="1.2.3.4")
    _assert_throttled(spoofed)
    assert not Player.objects.filter(name="second").exists()


def test_game_creation_is_throttled_per_player_and_listing_is_not(settings, ann, bob):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "game_create": "2/min"}
    create_game(ann, GAME["seats"])
    create_game(ann, GAME["seats"])
    before = Game.objects.count()
    _assert_throttled(ann.post("/api/v1/games/", GAME))
    assert Game.objects.count() == before
    assert ann.get("/api/v1/games/").status_code == 200  # reads are not counted
    create_game(bob, GAME["seats"])  # another player's own allowance


def test_moves_are_throttled_per_player(settings, ann, bob):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "action": "3/min"}
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="ab" * 32)
    player = {0: ann, 1: bob}
    moved = 0
    while True:
        summary = ann.get(f"/api/v1/games/{game['id']}/").json()
        seat = summary["to_act"][0]
        state = player[seat].get(f"/api/v1/games/{game['id']}/state/").json()
        response = player[seat].post(f"/api/v1/games/{game['id']}/actions/",
                                     {"action": state["legal_actions"][0], "expected_version": state["version"]})
        if response.status_code == 429:
            break
        assert response.status_code == 201, response.json()
        moved += 1
        assert moved <= 6, "never throttled"
    _assert_throttled(response)
    assert moved >= 3  # each player had three moves
    assert Game.objects.get(pk=game["id"]).version == state["version"]  # the refused move recorded nothing


def test_tournament_creation_is_throttled_per_player(settings, ann):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "tournament_create": "1/hour"}
    body = {"kind": "spite-and-malice", "format": "swiss", "rounds": 2}
    assert ann.post("/api/v1/tournaments/", body).status_code == 201
    _assert_throttled(ann.post("/api/v1/tournaments/", body))
    assert Tournament.objects.count() == 1


def test_bad_tokens_lock_the_address_out_before_any_token_is_checked(settings, ann, django_assert_num_queries):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "auth_failure": "3/min"}
    attacker = APIClient(REMOTE_ADDR="10.0.0.9")
    for attempt in range(3):
        attacker.credentials(HTTP_AUTHORIZATION=f"Token {attempt:040x}")
        response = attacker.post("/api/v1/games/", GAME, format="json")
        assert response.status_code == 401 and response.json()["code"] == "invalid_token"
    attacker.credentials(HTTP_AUTHORIZATION=f"Token {ann.token}")  # even a good token, from that address
    with django_assert_num_queries(0):  # refused before the token is looked up
        response = attacker.post("/api/v1/games/", GAME, format="json")
    _assert_throttled(response)
    assert not Game.objects.exists()
    assert APIClient(REMOTE_ADDR="10.0.0.9").get("/api/v1/kinds/").status_code == 200  # no token: not refused
    elsewhere = APIClient(REMOTE_ADDR="10.0.0.10")
    elsewhere.credentials(HTTP_AUTHORIZATION=f"Token {ann.token}")
    assert elsewhere.post("/api/v1/games/", GAME, format="json").status_code == 201


def test_good_tokens_are_not_counted(settings, ann):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "auth_failure": "1/min"}
    for _ in range(3):
        assert ann.get("/api/v1/games/").status_code == 200
    assert Token.objects.filter(key=ann.token).exists()


def test_bad_tokens_on_the_stream_endpoints_count_too(settings, ann):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "auth_failure": "2/min"}
    client = APIClient(REMOTE_ADDR="10.0.0.11")
    for _ in range(2):
        response = client.get("/api/v1/players/me/stream/", {"token": "0" * 40})
        assert response.status_code == 401 and response.json()["code"] == "invalid_token"
    response = client.get("/api/v1/players/me/stream/", {"token": ann.token})
    _assert_throttled(response)
    client.credentials(HTTP_AUTHORIZATION=f"Token {ann.token}")
    _assert_throttled(client.get("/api/v1/games/"))  # the same count for the whole API


def test_a_rate_set_to_off_lifts_the_throttle(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "register": "off"}
    client = APIClient()
    for n in range(5):
        assert client.post("/api/v1/players/", {"name": f"free{n}"}, format="json").status_code == 201
