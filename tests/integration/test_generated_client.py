"""A client generated from the live server's OpenAPI schema plays every game: `openapi-python-client` reads
`/api/schema/` of a running `manage.py serve` and writes a Python package into a temporary folder (never
committed); the test imports it and plays one game of every kind to its end with the generated calls only,
the human seat choosing among the `legal_actions` of the generated `game_state` call and posting them with
`expected_version`, the other seats random bots. It proves the schema describes the API well enough for a
client that was never written by hand."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import typing
import uuid
from types import ModuleType

import pytest

from tests.integration import live

PACKAGE = "tavolo_generated_client"
KINDS = ["spite-and-malice", "diavoletto", "tarocchi-mineo", "machiavelli", "muscio"]
SHORT = {"muscio": {"max_hands": 3}, "tarocchi-mineo": {"deals": 4}, "machiavelli": {"deals": 1}}
# The generated code is imported, never read: skip the formatter the generator runs by default.
GENERATOR_CONFIG = "post_hooks: []\n"


class Generated(typing.NamedTuple):
    base: str  # the server's root, the generated client's base URL (the schema's paths hold /api/v1/)
    package: ModuleType
    output: str  # what the generator printed (its warnings)

    def api(self, operation: str) -> ModuleType:
        """The module of one operation, named by its operationId (`game_state`, `game_action`, ...)."""
        return importlib.import_module(f"{PACKAGE}.api.v1.{operation}")

    def body(self, operation: str, data: dict) -> typing.Any:
        """The generated request model of `operation`, built from JSON (found by the call's type hints, so
        a renamed schema component does not break the test)."""
        return typing.get_type_hints(self.api(operation).sync_detailed)["body"].from_dict(data)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> typing.Iterator[Generated]:
    folder = tmp_path_factory.mktemp("generated")
    config = folder / "generator.yaml"
    config.write_text(GENERATOR_CONFIG)
    with live.server({"DATABASE_URL": f"sqlite:///{folder / 'tavolo.sqlite3'}"}) as base:
        root = base.removesuffix("/api/v1")
        done = subprocess.run(
            [sys.executable, "-m", "openapi_python_client", "generate", "--url", f"{root}/api/schema/",
             "--meta", "none", "--output-path", str(folder / PACKAGE), "--config", str(config)],
            capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        sys.path.insert(0, str(folder))
        try:
            yield Generated(root, importlib.import_module(PACKAGE), done.stdout + done.stderr)
        finally:
            sys.path.remove(str(folder))
            for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
                del sys.modules[name]


def test_the_schema_generates_a_client_without_warnings(generated):
    """A warning means the generator skipped or weakened part of the API (an endpoint, a model)."""
    assert "warning" not in generated.output.lower(), generated.output


@pytest.mark.parametrize("kind", KINDS)
def test_a_generated_client_plays_a_whole_game(generated, kind):
    client_module = generated.package.client
    anonymous = client_module.Client(base_url=generated.base, timeout=60, raise_on_unexpected_status=True)
    registered = generated.api("player_create").sync_detailed(
        client=anonymous, body=generated.body("player_create", {"name": f"gen-{uuid.uuid4().hex[:8]}"}))
    assert registered.status_code == 201, registered.content
    me = registered.parsed
    client = client_module.AuthenticatedClient(base_url=generated.base, token=me.token, prefix="Token", timeout=60,
                                               raise_on_unexpected_status=True)

    kinds = {k.kind: k for k in generated.api("kind_list").sync(client=client)}
    assert set(KINDS) <= set(kinds)
    seats = [{"player": me.id}] + [{"bot": "random"}] * (min(kinds[kind].seats) - 1)
    created = generated.api("game_create").sync_detailed(client=client, body=generated.body(
        "game_create", {"kind": kind, "seats": seats, "options": SHORT.get(kind, {})}))
    assert created.status_code == 201, created.content
    game_id = created.parsed.id

    final, moves = _play(generated, client, game_id, random.Random(kind))
    assert final.status == "finished" and final.result, final
    assert moves >= 1  # the human seat did play
    summary = generated.api("game_detail").sync(game_id, client=client)
    assert summary.status == "finished" and summary.version == final.version
    assert summary.result is not None


def _play(generated: Generated, client: typing.Any, game_id: typing.Any, rng: random.Random
          ) -> tuple[typing.Any, int]:
    """Play the caller's seat through the generated calls until the game is over; returns the last state."""
    state_call, action_call, events_call = (generated.api(name) for name in ("game_state", "game_action",
                                                                              "game_events"))
    moves = 0
    for _ in range(20_000):
        response = state_call.sync_detailed(game_id, client=client)
        assert response.status_code == 200, response.content
        state = response.parsed
        if state.status != "active":
            return state, moves
        if state.seat not in state.to_act:
            events_call.sync_detailed(game_id, client=client, after=state.version, wait=30)
            continue
        # The typed actions are the server's own, unchanged: posting them back is posting a legal action.
        assert [a.to_dict() for a in state.legal_actions] == json.loads(response.content)["legal_actions"]
        action = rng.choice(state.legal_actions).to_dict()
        body = generated.body("game_action", {"action": action, "expected_version": state.version})
        posted = action_call.sync_detailed(game_id, client=client, body=body, idempotency_key=str(uuid.uuid4()))
        assert posted.status_code == 201, posted.content
        assert posted.parsed.version > state.version
        moves += 1
    raise AssertionError(f"game {game_id} did not end")
