"""Random bodies at every write endpoint, random query strings at every read endpoint but the streams:
whatever arrives, the answer is below 500, every refusal is JSON `{"code", "detail"}`, and a refused request
writes nothing (no event, game, tournament, entrant, player or idempotency record).

Bodies are drawn five ways: valid ones (so that requests reach the services), valid ones with a field or two
made random, the endpoint's fields holding random JSON, any JSON value, and raw bytes or text. Each
request runs in a savepoint that is then rolled back, so every example meets the same game and tournament.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Event, Game, IdempotencyRecord, Player
from tests.conftest import create_game
from tournaments.models import Entrant, Tournament

MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))  # per endpoint; raise it for a longer hunt


@dataclass(frozen=True)
class Endpoint:
    path: str
    fields: dict[str, list]  # field name -> values it may accept (drawn besides random JSON)
    required: tuple[str, ...] = ()
    who: str = "ann"  # whose client posts: "ann" (the organiser) or "mover" (the seat to act)
    idempotent: bool = False


ENDPOINTS = {
    "players": Endpoint("/api/v1/players/", {"name": ["fuzzed", "a" * 40, "a" * 41]}, required=("name",)),
    "games": Endpoint("/api/v1/games/", {
        "kind": ["spite-and-malice", "muscio", "machiavelli", "diavoletto", "tarocchi-mineo"],
        "seats": [[{"player": "{ann}"}, {"bot": "random"}], [{"bot": "random"}] * 3, [{"player": 2**40}, {"bot": "x"}],
                  [{"player": "{ann}", "budget_ms": 5}, {"bot": "heuristic", "budget_ms": 5}]],
        "options": [{}, {"target": 3}], "seed": ["ab" * 32, "ab" * 16, "zz"], "decks": [[["AH", "2C"]], []],
        "first_dealer": [0, 1, 2**40], "turn_seconds": [None, 1, 60],
        "clock_policy": ["forfeit", "random", "heuristic", "bot"],
        "rated": [True, False]}, required=("kind", "seats"), idempotent=True),
    "actions": Endpoint("/api/v1/games/{game}/actions/", {
        "action": ["{legal}", {"type": "end_turn"}, {"type": "discard", "card": "AH", "pile": 0}],
        "expected_version": ["{version}", 0, 2**40], "seat": [0, 1, 2, 2**40]}, required=("action",), who="mover",
        idempotent=True),
    "tournaments": Endpoint("/api/v1/tournaments/", {
        "name": ["cup"], "kind": ["muscio", "spite-and-malice"], "format": ["swiss", "round_robin", "knockout"],
        "rounds": [1, 3, 2**40], "options": [{}], "table_size": [2, 3, 4], "turn_seconds": [30], "seed": ["cd" * 32]},
        required=("kind", "format")),
    "entrants": Endpoint("/api/v1/tournaments/{tournament}/entrants/", {"bot": ["random", "heuristic", "nobody"]}),
    "accept": Endpoint("/api/v1/games/{pending}/accept/", {}, who="bob"),
    "decline": Endpoint("/api/v1/games/{pending}/decline/", {}, who="bob"),
    "start": Endpoint("/api/v1/tournaments/{tournament}/start/", {}),
    "cancel": Endpoint("/api/v1/tournaments/{tournament}/cancel/", {}),
}

_KEYS = sorted({name for e in ENDPOINTS.values() for name in e.fields} | {"type", "card", "pile", "player", "bot"})
_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
            | st.sampled_from(["", "AH", "10S", "random", "muscio", "\x00", "🂡", "-1", "1e999"]))
JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(_KEYS) | st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
RAW = st.binary(max_size=300) | st.text(max_size=300).map(str.encode)


def _fill(value, values: dict):
    """Put the world's ids into a template value ("{ann}" -> ann's id, "{legal}" -> a legal action, ...)."""
    if isinstance(value, str) and value.startswith("{") and value.endswith("}") and value[1:-1] in values:
        return values[value[1:-1]]
    if isinstance(value, list):
        return [_fill(v, values) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    return value


def _bodies(endpoint: Endpoint, values: dict) -> st.SearchStrategy[bytes]:
    """Valid bodies, valid bodies with a field or two made random, random fields, any JSON, raw bytes."""
    accepted = {name: st.sampled_from([_fill(v, values) for v in choices])
                for name, choices in endpoint.fields.items() if choices}
    valid = st.fixed_dictionaries({name: accepted[name] for name in endpoint.required},
                                  optional={name: s for name, s in accepted.items() if name not in endpoint.required})
    names = sorted(endpoint.fields) or ["extra"]
    spoiled = st.tuples(valid, st.dictionaries(st.sampled_from(names), JSON, min_size=1, max_size=2)).map(
        lambda pair: {**pair[0], **pair[1]})
    random_fields = st.fixed_dictionaries({}, optional=dict.fromkeys(endpoint.fields, JSON))
    near = st.one_of(valid, spoiled).map(json.dumps)  # drawn twice as often: they get furthest
    return st.one_of(near, near, random_fields.map(json.dumps), JSON.map(json.dumps), RAW)


# Mostly no key or a good one, so that most requests reach the view; sometimes a bad one.
_KEYS_HEADER = st.sampled_from([None, None, "retry-1", "retry-2"]) | st.text(max_size=140) | st.just("k" * 129)


def _counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Event, Game, Tournament, Entrant, Player, IdempotencyRecord))


@pytest.fixture
def world(ann, bob, make_player):
    game = create_game(ann, [{"player": ann.id}, {"player": bob.id}], seed="f0" * 32)
    mover = ann if game["to_act"] == [0] else bob
    state = mover.get(f"/api/v1/games/{game['id']}/state/").json()
    tournament = ann.post("/api/v1/tournaments/", {"kind": "muscio", "format": "swiss"}).json()
    for player, body in ((ann, {}), (bob, {}), (ann, {"bot": "random"})):
        assert player.post(f"/api/v1/tournaments/{tournament['id']}/entrants/", body).status_code == 201
    pending = ann.post("/api/v1/games/", {"kind": "muscio", "seats": [{"player": ann.id}, {"player": bob.id},
                                                                     {"bot": "random"}]}).json()
    return {"ann": ann, "bob": bob, "mover": mover, "values": {
        "game": game["id"], "pending": pending["id"], "tournament": tournament["id"], "ann": ann.id,
        "version": state["version"], "legal": state["legal_actions"][0]}}


@pytest.mark.parametrize("name", list(ENDPOINTS))
def test_random_bodies_never_5xx_and_refusals_write_nothing(world, name):
    endpoint = ENDPOINTS[name]
    client = world[endpoint.who].client
    path = endpoint.path.format(**world["values"])
    keys = _KEYS_HEADER if endpoint.idempotent else st.none()

    @settings(max_examples=MAX_EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(body=_bodies(endpoint, world["values"]), key=keys)
    def post(body: bytes, key: str | None) -> None:
        headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
        with transaction.atomic():
            before = _counts()
            response = client.post(path, data=body, content_type="application/json", **headers)
            after = _counts()
            transaction.set_rollback(True)  # the next example meets the same world
        assert response.status_code < 500, (response.status_code, response.content[:300])
        assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
        answer = response.json()
        if response.status_code >= 400:
            assert isinstance(answer.get("code"), str) and answer["code"], answer
            assert isinstance(answer.get("detail"), str) and answer["detail"], answer
            assert after == before, (answer, before, after)

    post()


READ_PATHS = ["/api/v1/games/", "/api/v1/games/{game}/", "/api/v1/games/{game}/state/", "/api/v1/games/{game}/events/",
              "/api/v1/games/{game}/replay/", "/api/v1/games/{game}/replay/1/", "/api/v1/games/{game}/export/",
              "/api/v1/tournaments/", "/api/v1/tournaments/{tournament}/", "/api/v1/tournaments/{tournament}/rounds/",
              "/api/v1/tournaments/{tournament}/standings/", "/api/v1/tournaments/{tournament}/standings.csv",
              "/api/v1/ratings/muscio/", "/api/v1/players/{ann}/ratings/", "/api/v1/kinds/", "/api/v1/bots/"]
_PARAMS = ["limit", "offset", "after", "seat", "round", "kind", "status", "player", "format", "token"]
_QUERY_VALUES = (st.integers().map(str) | st.integers(-(2**70), 2**70).map(str) | st.text(max_size=12)
                 | st.sampled_from(["", "1e999", "NaN", "0x10", " 1", "active", "csv", "muscio"]))


@pytest.mark.parametrize("template", READ_PATHS)
def test_random_query_parameters_never_5xx(world, template):
    """The long poll's `wait` is left out: a valid one waits for news that never comes."""
    path = template.format(**world["values"])
    client = world["ann"].client

    @settings(max_examples=MAX_EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(params=st.dictionaries(st.sampled_from(_PARAMS) | st.text(max_size=6), _QUERY_VALUES, max_size=4))
    def get(params: dict[str, str]) -> None:
        response = client.get(path, params, HTTP_ACCEPT="*/*")
        assert response.status_code < 500, (params, response.status_code, response.content[:300])
        if response.status_code >= 400:
            assert response.json()["code"], response.content

    get()
