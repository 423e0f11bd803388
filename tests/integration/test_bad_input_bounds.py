"""Bad input at the edges of the parsers and the database: nesting, integers, keys, OPTIONS. Each one is a
4xx `{"code", "detail"}` that writes nothing, never a 500."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from api.base import MAX_INT_PARAM
from api.pagination import MAX_LIMIT, Pagination
from api.parsers import MAX_JSON_DEPTH, json_depth
from games.models import Event, Game, IdempotencyRecord
from tests.conftest import create_game

TOO_BIG = "99999999999999999999"  # beyond bigint


def _refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and isinstance(body["detail"], str) and body["detail"], body
    return body


def _raw(player, path: str, data: bytes | str, **headers):
    return player.client.post(path, data=data, content_type="application/json", **headers)


@pytest.fixture
def game(ann, bob):
    return create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="b1" * 32)


@pytest.fixture
def tournament(ann):
    response = ann.post("/api/v1/tournaments/", {"kind": "muscio", "format": "swiss"})
    assert response.status_code == 201, response.content
    return response.json()


# -- nesting ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/players/", "/api/v1/tournaments/"])
def test_a_20_kb_body_of_brackets_is_malformed_json(ann, path):
    before = (Event.objects.count(), Game.objects.count())
    for body in ("[" * 20_000, '{"a":' * 5_000, "[" * 20_000 + "]" * 20_000):
        _refused(_raw(ann, path, body), 400, "malformed_json")
    assert (Event.objects.count(), Game.objects.count()) == before


def test_nesting_is_refused_past_the_limit_and_accepted_up_to_it(game, ann, bob):
    mover = ann if game["to_act"] == [0] else bob
    path = f"/api/v1/games/{game['id']}/actions/"
    deep = json.dumps({"action": json.loads("[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1))})
    deeper = json.dumps({"action": json.loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)})
    assert json_depth(json.loads(deep)) == MAX_JSON_DEPTH and json_depth(json.loads(deeper)) == MAX_JSON_DEPTH + 1
    accepted = _raw(mover, path, deep)  # parsed, then refused as an action
    assert accepted.status_code in (400, 422) and accepted.json()["code"] != "malformed_json"
    body = _refused(_raw(mover, path, deeper), 400, "malformed_json")
    assert str(MAX_JSON_DEPTH) in body["detail"]
    assert Event.objects.filter(game_id=game["id"]).count() == game["version"]


def test_json_depth():
    assert [json_depth(v) for v in (1, "x", None, [], {}, [1, [2]], {"a": [{"b": {}}]}, [[], [[[]]], {}])] == \
        [0, 0, 0, 1, 1, 2, 4, 4]
    value: list = []
    for _ in range(100_000):  # far deeper than the recursion limit
        value = [value]
    assert json_depth(value) == 100_001


# -- integers --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/tournaments/", "/api/v1/ratings/muscio/"])
@pytest.mark.parametrize("param", ["limit", "offset"])
@pytest.mark.parametrize("value", [TOO_BIG, str(2**63 - 1), str(MAX_INT_PARAM + 1), "-1", "x"])
def test_limit_and_offset_out_of_range_are_400(game, tournament, ann, path, param, value):
    body = _refused(ann.get(path, **{param: value}), 400, "invalid_parameter")
    assert param in body["detail"]


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/tournaments/", "/api/v1/ratings/muscio/"])
def test_lists_page_within_bounds(game, tournament, ann, path):
    assert ann.get(path, limit=10_000, offset=0).status_code == 200
    far = ann.get(path, limit=MAX_INT_PARAM, offset=MAX_INT_PARAM)
    assert far.status_code == 200 and far.json()["results"] == []


def test_limit_is_cut_to_the_maximum():
    def limit(query: str) -> int:
        return Pagination().get_limit(Request(APIRequestFactory().get(f"/?{query}")))

    assert [limit("limit=7"), limit(f"limit={MAX_LIMIT + 1}"), limit(f"limit={MAX_INT_PARAM}"), limit("")] == \
        [7, MAX_LIMIT, MAX_LIMIT, 50]


@pytest.mark.parametrize("value", [TOO_BIG, str(MAX_INT_PARAM + 1)])
def test_integer_parameters_are_bounded(game, tournament, ann, value):
    gid, tid = game["id"], tournament["id"]
    for path, params, name in [
        (f"/api/v1/games/{gid}/events/", {"after": value}, "after"),
        (f"/api/v1/games/{gid}/events/", {"wait": value}, "wait"),
        (f"/api/v1/games/{gid}/events/", {"seat": value}, "seat"),
        (f"/api/v1/games/{gid}/state/", {"seat": value}, "seat"),
        (f"/api/v1/games/{gid}/replay/", {"seat": value}, "seat"),
        (f"/api/v1/games/{gid}/stream/", {"after": value}, "after"),
        (f"/api/v1/tournaments/{tid}/standings/", {"round": value}, "round"),
        (f"/api/v1/tournaments/{tid}/standings.csv", {"round": value}, "round"),
    ]:
        body = _refused(ann.get(path, **params), 400, "invalid_parameter")
        assert name in body["detail"] and "at most" in body["detail"], (path, body)
    body = _refused(ann.client.get(f"/api/v1/games/{gid}/stream/", HTTP_LAST_EVENT_ID=value), 400,
                    "invalid_parameter")
    assert "Last-Event-ID" in body["detail"]
    response = ann.client.get(f"/api/v1/games/{gid}/replay/{value}/")
    _refused(response, 404, "no_such_step")


def test_a_rules_refusal_that_only_the_deal_finds_is_422(ann, bob):
    """Found by the fuzz test: machiavelli checks `first_dealer` against the seats only when it deals."""
    body = {"kind": "machiavelli", "seats": [{"player": ann.id}, {"player": bob.id}], "first_dealer": 5}
    before = (Game.objects.count(), Event.objects.count())
    body = _refused(ann.post("/api/v1/games/", body), 422, "invalid_options")
    assert "first_dealer" in body["detail"]
    assert (Game.objects.count(), Event.objects.count()) == before


def test_nul_characters_in_the_url_or_headers_are_400(game, tournament, ann):
    gid = game["id"]
    for path, params, where in [
        ("/api/v1/tournaments/", {"kind": "\x00"}, "query"),
        (f"/api/v1/players/{ann.id}/ratings/", {"kind": "a\x00"}, "query"),
        ("/api/v1/games/", {"kind\x00": "x"}, "query"),
        (f"/api/v1/games/{gid}/stream/", {"token": "\x00"}, "query"),
        ("/api/v1/players/me/stream/", {"token": "\x00"}, "query"),
        ("/api/v1/ratings/a%00b/", {}, "path"),
    ]:
        assert where in _refused(ann.get(path, **params), 400, "bad_request")["detail"], path
    for path in ("/api/v1/games/", "/api/v1/players/me/stream/", f"/api/v1/games/{gid}/events/"):
        response = APIClient().get(path, HTTP_AUTHORIZATION="Token a\x00b")
        assert "headers" in _refused(response, 400, "bad_request")["detail"]
    for header in ("HTTP_X_ANYTHING", "HTTP_IDEMPOTENCY_KEY"):
        response = ann.post("/api/v1/games/", {"kind": "muscio", "seats": [{"player": ann.id}]}, **{header: "a\x00"})
        _refused(response, 400, "bad_request")


# -- Idempotency-Key -------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["k" * 129, "k" * 5000, "", "   ", "a\x01b", "a\nb", "tab\there", "clé"])
def test_bad_idempotency_keys_are_400(game, ann, bob, key):
    mover = ann if game["to_act"] == [0] else bob
    state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
    creation = {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"player": bob.id}]}
    before = (Game.objects.count(), Event.objects.count(), IdempotencyRecord.objects.count())
    for player, path, body in [(ann, "/api/v1/games/", creation),
                               (mover, f"/api/v1/games/{game['id']}/actions/",
                                {"action": state["legal_actions"][0]})]:
        refused = _refused(player.post(path, body, HTTP_IDEMPOTENCY_KEY=key), 400, "invalid_idempotency_key")
        assert "128" in refused["detail"]
    assert (Game.objects.count(), Event.objects.count(), IdempotencyRecord.objects.count()) == before


def test_a_128_character_key_works(ann, bob):
    body = {"kind": "spite-and-malice", "seats": [{"player": ann.id}, {"player": bob.id}]}
    key = "K-" + "x" * 126
    first = ann.post("/api/v1/games/", body, HTTP_IDEMPOTENCY_KEY=key)
    again = ann.post("/api/v1/games/", body, HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert again.headers["Idempotent-Replayed"] == "true" and Game.objects.count() == 1


# -- OPTIONS ---------------------------------------------------------------------------------------------
def _routes(resolver=None, prefix: str = "") -> list[str]:
    routes = []
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            routes += _routes(pattern, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            routes.append(prefix + str(pattern.pattern))
    return routes


def test_options_on_standings_csv_is_json(tournament, ann):
    for path, accept in [("standings.csv", "*/*"), ("standings.csv", "text/csv"), ("standings/", "*/*"),
                         ("standings/", "text/csv"), ("standings/", "application/json")]:
        response = ann.client.options(f"/api/v1/tournaments/{tournament['id']}/{path}", HTTP_ACCEPT=accept)
        assert response.status_code == 200, (path, accept, response.content)
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["name"]
    # The CSV endpoint offers CSV only, as its GET does.
    _refused(ann.client.options(f"/api/v1/tournaments/{tournament['id']}/standings.csv",
                                HTTP_ACCEPT="application/json"), 406, "not_acceptable")


def test_options_on_every_url_answers_below_500(game, tournament, ann):
    values = {"game_id": game["id"], "tournament_id": tournament["id"], "step": "1", "kind": "muscio",
              "player_id": str(ann.id), "path": "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css"}
    missing = {**values, "game_id": str(uuid.uuid4()), "tournament_id": str(uuid.uuid4()), "step": TOO_BIG,
               "kind": "no-such-kind", "player_id": TOO_BIG, "path": "drf_spectacular_sidecar/nothing.js"}
    # a regular-expression route (the docs' static files) becomes its one named group
    routes = [re.sub(r"^\^|\(\?P(<\w+>)[^)]*\)|\$$", lambda m: m.group(1) or "", route) for route in _routes()]
    assert len(routes) >= 25
    anonymous = APIClient()
    for route in routes:
        for given in (values, missing):
            path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m, given=given: given[m.group(1)], route)
            for client in (ann.client, anonymous):
                for accept in ("*/*", "text/csv"):
                    response = client.options(path, HTTP_ACCEPT=accept)
                    assert response.status_code < 500, (path, accept, response.status_code)
                    if response.status_code >= 400 and route.startswith("api/v1/"):
                        assert response.json()["code"], (path, response.content)
