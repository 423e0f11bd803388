"""Rules versions through the API and the database: a game keeps the rules version of its kind it was created
with (docs/rules-versions.md), plays and verifies by it, and says so in its summary, replays and export."""

from __future__ import annotations

import random

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from games import selectors
from games.engine import registry
from games.models import Event, Game
from tests.conftest import create_game, play_randomly
from tests.engines.tarocchi_mineo.table import arrange

pytestmark = pytest.mark.django_db

#: Dealer 0; seat 1, first to speak, holds the Fuggitivo with plenty of plain cards.
DECLARER_HAND = ["FUG", "KS", "KB", "T1", "T3", "5S", "6S", "7S", "8S", "9S", "10S", "FS", "CS", "QS", "5B"]
FUG_DISCARD = {"type": "discard", "cards": ["FUG", "5S", "6S"]}


@pytest.fixture
def created_under_version_1(monkeypatch):
    """Games created in this test get version 1 of their kind, as before version 2 shipped."""
    real = registry.get
    monkeypatch.setattr(registry, "get", lambda kind, rules_version=None: real(
        kind, 1 if rules_version is None else rules_version))


def _tarocchi(ann, deals: int = 4) -> dict:
    seats = [{"player": ann.id}] * 4
    return create_game(ann, seats, kind="tarocchi-mineo", options={"deals": deals}, first_dealer=0,
                       decks=[arrange(0, {1: DECLARER_HAND}, ["T2", "T0", "KD"])])


def _to_discard(ann, game: dict) -> dict:
    """Seat 1 goes solo after five cards: its discard is next. Returns its state."""
    said = ann.post(f"/api/v1/games/{game['id']}/actions/", {"action": {"type": "solo"}, "seat": 1})
    assert said.status_code == 201, said.json()
    state = ann.get(f"/api/v1/games/{game['id']}/state/", seat=1).json()
    assert state["view"]["phase"] == "discard"
    return state


def test_a_new_game_records_the_current_rules_version_of_its_kind(ann):
    for kind, seats, version in (("spite-and-malice", 2, 2), ("tarocchi-mineo", 4, 2), ("muscio", 3, 1)):
        game = create_game(ann, [{"player": ann.id}] * seats, kind=kind)
        assert game["rules_version"] == version == registry.get(kind).rules_version
        assert Game.objects.get(pk=game["id"]).rules_version == version
        created = Event.objects.get(game_id=game["id"], seq=1)
        assert created.type == "game.created" and created.data["rules_version"] == version
        listed = ann.get("/api/v1/games/", kind=kind).json()["results"][0]
        assert listed["id"] == game["id"] and listed["rules_version"] == version


def test_kinds_show_the_current_version_and_what_each_version_changed(client):
    kinds = {entry["kind"]: entry for entry in client.get("/api/v1/kinds/").json()}
    assert set(kinds) == set(registry.kinds())
    for kind, entry in kinds.items():
        engine = registry.get(kind)
        assert entry["rules_version"] == engine.rules_version
        assert [v["version"] for v in entry["rules_versions"]] == sorted(engine.rules_versions)
        assert all(v["changes"] == engine.rules_versions[v["version"]] for v in entry["rules_versions"])
    assert kinds["spite-and-malice"]["rules_version"] == kinds["tarocchi-mineo"]["rules_version"] == 2
    assert "12" in kinds["spite-and-malice"]["rules_versions"][1]["changes"]
    assert "Fuggitivo" in kinds["tarocchi-mineo"]["rules_versions"][1]["changes"]
    assert kinds["muscio"]["rules_versions"] == [{"version": 1, "changes": registry.get("muscio").rules_versions[1]}]


def test_a_version_2_game_lets_the_fuggitivo_be_discarded(ann):
    game = _tarocchi(ann)
    assert game["rules_version"] == 2
    state = _to_discard(ann, game)
    assert {"FUG", "5S", "6S"} in [set(action["cards"]) for action in state["legal_actions"]]
    done = ann.post(f"/api/v1/games/{game['id']}/actions/", {"action": FUG_DISCARD, "seat": 1})
    assert done.status_code == 201, done.json()


def test_a_version_1_game_keeps_version_1_rules(ann, created_under_version_1):
    game = _tarocchi(ann)
    assert game["rules_version"] == 1
    state = _to_discard(ann, game)
    assert not any("FUG" in action["cards"] for action in state["legal_actions"])
    refused = ann.post(f"/api/v1/games/{game['id']}/actions/",
                       {"action": FUG_DISCARD, "seat": 1, "expected_version": state["version"]})
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_discard"
    assert ann.get(f"/api/v1/games/{game['id']}/").json()["version"] == state["version"]
    done = ann.post(f"/api/v1/games/{game['id']}/actions/", {"action": state["legal_actions"][0], "seat": 1})
    assert done.status_code == 201, done.json()
    assert ann.get(f"/api/v1/games/{game['id']}/replay/{done.json()['version']}/").json()["rules_version"] == 1
    assert selectors.engine_for(Game.objects.get(pk=game["id"])).rules_version == 1


def test_a_version_1_game_plays_replays_and_verifies_by_its_version(ann, created_under_version_1):
    game = create_game(ann, [{"player": ann.id}, {"player": ann.id}], seed="5d" * 32)
    assert game["rules_version"] == 1
    play_randomly({0: ann, 1: ann}, game["id"], random.Random(5))
    export = ann.get(f"/api/v1/games/{game['id']}/export/").json()
    assert export["rules_version"] == 1 and export["verification"]["ok"] is True
    assert export["events"][0]["data"]["rules_version"] == 1
    assert ann.get(f"/api/v1/games/{game['id']}/replay/").json()["rules_version"] == 1


def test_a_finished_game_s_export_and_replays_carry_its_version(ann):
    game = create_game(ann, [{"player": ann.id}, {"player": ann.id}], seed="3c" * 32)
    play_randomly({0: ann, 1: ann}, game["id"], random.Random(2))
    export = ann.get(f"/api/v1/games/{game['id']}/export/").json()
    assert export["rules_version"] == 2 and export["verification"]["ok"] is True
    assert export["events"][0]["data"]["rules_version"] == 2
    assert ann.get(f"/api/v1/games/{game['id']}/replay/").json()["rules_version"] == 2
    assert ann.get(f"/api/v1/games/{game['id']}/replay/1/").json()["rules_version"] == 2


@pytest.mark.postgres
def test_postgresql_refuses_to_change_a_game_s_rules_version(ann):
    game = create_game(ann, [{"player": ann.id}, {"bot": "random"}])
    with pytest.raises(DatabaseError, match="games_game.rules_version never changes"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("UPDATE games_game SET rules_version = 1 WHERE id = %s", [game["id"]])
    assert Game.objects.get(pk=game["id"]).rules_version == 2
