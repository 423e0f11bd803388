"""The OpenAPI document is valid, and what the engines produce matches it: every legal action validates against
exactly one branch of its kind's union, and every view against its kind's view schema."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command
from openapi_spec_validator import validate

from api.schema import ERRORS, pascal
from games.engine import registry
from games.engine.chance import Chance
from games.engine.runner import apply_action, begin
from tests.contract.schema import component, openapi, validator

SEEDS = range(3)


def test_the_document_is_valid_openapi():
    validate(openapi())


def test_drf_spectacular_validates_it_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    assert (tmp_path / "schema.yaml").read_text().startswith("openapi: 3.1.0")


def _operations():
    for path, operations in openapi()["paths"].items():
        for method, operation in operations.items():
            yield method.upper(), path, operation


def test_every_table_entry_names_a_real_operation():
    assert set(ERRORS) <= {operation["operationId"] for _, _, operation in _operations()}


def test_every_operation_documents_its_errors_with_the_error_component():
    for method, path, operation in _operations():
        errors = {status: response for status, response in operation["responses"].items() if status >= "400"}
        assert "429" in errors, (method, path)
        if any(parameter["in"] == "path" for parameter in operation.get("parameters", [])):
            assert "404" in errors, (method, path)
        for response in errors.values():
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/Error"} or schema["allOf"] == [
                {"$ref": "#/components/schemas/Error"}], (method, path)


def test_lists_are_paginated_and_readable_without_a_token():
    paths = openapi()["paths"]
    for path in ("/api/v1/games/", "/api/v1/tournaments/", "/api/v1/ratings/{kind}/"):
        get = paths[path]["get"]
        assert {} in get["security"], path
        envelope = get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        assert set(component(envelope)["required"]) == {"count", "next", "previous", "results"}
        bounds = {p["name"]: p["schema"] for p in get["parameters"]}
        assert bounds["limit"]["minimum"] == 1 and bounds["offset"]["minimum"] == 0
    for path in ("/api/v1/games/", "/api/v1/tournaments/"):
        assert paths[path]["post"]["security"] == [{"tokenAuth": []}]
    assert "security" not in paths["/api/v1/players/"]["post"]


def test_seats_and_integer_parameters_are_bounded():
    seats = component("GameListCreateInputRequest")["properties"]["seats"]
    assert seats["minItems"] == 1 and seats["maxItems"] == 8
    for method, path, operation in _operations():
        for parameter in operation.get("parameters", []):
            if parameter["schema"].get("type") == "integer":
                assert "minimum" in parameter["schema"], (method, path, parameter["name"])
    state = openapi()["paths"]["/api/v1/games/{game_id}/state/"]["get"]
    seat = next(p for p in state["parameters"] if p["name"] == "seat")["schema"]
    assert (seat["minimum"], seat["maximum"]) == (0, 5)


def _playout(kind: str, seats: int, seed: int, on_step) -> None:
    """A seeded random game: `on_step(state, seats)` before every move and once at the end."""
    engine = registry.get(kind)
    chance = Chance(f"{seed:064x}")
    position, _ = begin(engine, seats, engine.normalize_options({}, seats), chance)
    rng = random.Random(seed)
    while engine.result(position.state) is None:
        on_step(engine, position.state, seats)
        seat = rng.choice(sorted(engine.to_act(position.state)))
        position, _ = apply_action(engine, position, seat, rng.choice(engine.legal_actions(position.state, seat)),
                                   chance)
    on_step(engine, position.state, seats)


def _cases():
    for kind in registry.kinds():
        seat_counts = registry.get(kind).seats
        for seats in sorted({seat_counts.start, seat_counts.stop - 1}):
            yield kind, seats


@pytest.mark.parametrize(("kind", "seats"), list(_cases()))
def test_every_legal_action_matches_exactly_one_branch_of_its_kind(kind, seats):
    union = f"{pascal(kind)}Action"
    branches = {ref["$ref"].rsplit("/", 1)[1]: validator(ref["$ref"].rsplit("/", 1)[1])
                for ref in component(union)["oneOf"]}
    whole, general = validator(union), validator("Action")
    seen: set[str] = set()  # legal actions repeat a lot: each distinct one is checked once

    def check(engine, state, seat_count):
        for seat in engine.to_act(state):
            for action in json.loads(json.dumps(engine.legal_actions(state, seat))):
                key = json.dumps(action, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                matching = [name for name, branch in branches.items() if branch.is_valid(action)]
                assert matching == [f"{pascal(kind)}{pascal(action['type'])}"], (action, matching)
                whole.validate(action)
                general.validate(action)

    for seed in SEEDS:
        _playout(kind, seats, seed, check)
    assert len({json.loads(key)["type"] for key in seen}) >= 2


@pytest.mark.parametrize(("kind", "seats"), list(_cases()))
def test_every_view_matches_its_kind_view_schema(kind, seats):
    schema = validator(f"{pascal(kind)}View")
    probe = random.Random(7)
    checked = 0

    def check(engine, state, seat_count):
        nonlocal checked
        if probe.random() < 0.1 or engine.result(state) is not None:
            for viewer in (None, *range(seat_count)):
                schema.validate(json.loads(json.dumps(engine.view(state, viewer))))
                checked += 1

    for seed in SEEDS:
        _playout(kind, seats, seed, check)
    assert checked > 20


def test_kind_unions_are_told_apart_by_type():
    """Spite and Malice and Diavoletto share action shapes: each has its own named components all the same."""
    sm, dv = component("SpiteAndMaliceAction"), component("DiavolettoAction")
    assert sm["discriminator"]["mapping"]["discard"].endswith("/SpiteAndMaliceDiscard")
    assert dv["discriminator"]["mapping"]["discard"].endswith("/DiavolettoDiscard")
    assert component("MuscioPlay")["properties"]["type"] == {"type": "string", "const": "play"}
    assert not validator("MuscioAction").is_valid({"type": "discard", "card": "AS"})
