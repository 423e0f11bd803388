"""The tournament API: who may change a tournament, clear 4xx errors that change nothing, standings as
JSON and CSV, and the rating endpoints."""

import csv
import io

import pytest

from games.models import Game
from tournaments.models import Entrant, Tournament

URL = "/api/v1/tournaments/"


@pytest.fixture
def tournament(ann):
    response = ann.post(URL, {"kind": "spite-and-malice", "format": "swiss", "rounds": 2, "name": "Friday"})
    assert response.status_code == 201, response.json()
    return response.json()


def test_create_and_read(ann, tournament):
    assert tournament["status"] == "registering" and tournament["organiser"] == ann.id
    assert tournament["table_size"] == 2 and tournament["rounds"] == 2 and tournament["seed"] is None
    detail = ann.client.get(f"{URL}{tournament['id']}/").json()
    assert detail["name"] == "Friday" and detail["entrants"] == []
    listed = ann.client.get(URL, {"status": "registering"}).json()
    assert [t["id"] for t in listed["results"]] == [tournament["id"]]


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"kind": "spite-and-malice", "format": "ladder"}, 400, "invalid_input"),
    ({"kind": "nope", "format": "swiss"}, 422, "unknown_kind"),
    ({"kind": "spite-and-malice", "format": "swiss", "table_size": 3}, 422, "invalid_table_size"),
    ({"kind": "spite-and-malice", "format": "swiss", "options": {"colour": 1}}, 422, "invalid_options"),
    ({"kind": "spite-and-malice", "format": "knockout", "rounds": 3}, 422, "invalid_rounds"),
    ({"kind": "spite-and-malice", "format": "swiss", "rounds": 0}, 400, "invalid_input"),
    ({"kind": "spite-and-malice", "format": "swiss", "seed": "xyz"}, 400, "invalid_seed"),
])
def test_bad_creation_is_refused_and_creates_nothing(ann, body, status, code):
    response = ann.post(URL, body)
    assert response.status_code == status and response.json()["code"] == code, response.json()
    assert set(response.json()) >= {"code", "detail"}
    assert not Tournament.objects.exists()


def test_creating_needs_a_token(client):
    response = client.post(URL, {"kind": "spite-and-malice", "format": "swiss"}, content_type="application/json")
    assert response.status_code in (401, 403) and response.json()["code"] == "not_authenticated"


def test_only_the_organiser_changes_a_tournament(ann, bob, tournament):
    tid = tournament["id"]
    assert bob.post(f"{URL}{tid}/entrants/", {"bot": "random"}).json()["code"] == "not_organiser"
    assert bob.post(f"{URL}{tid}/entrants/", {"bot": "random"}).status_code == 403
    assert bob.post(f"{URL}{tid}/entrants/", {}).status_code == 201  # registering oneself is for anyone
    for action in ("start", "cancel"):
        response = bob.post(f"{URL}{tid}/{action}/", {})
        assert response.status_code == 403 and response.json()["code"] == "not_organiser"
    assert Tournament.objects.get(pk=tid).status == "registering"
    assert Entrant.objects.filter(tournament_id=tid).count() == 1


def test_registration_rules(ann, bob, tournament):
    tid = tournament["id"]
    assert ann.post(f"{URL}{tid}/entrants/", {}).status_code == 201
    again = ann.post(f"{URL}{tid}/entrants/", {})
    assert again.status_code == 409 and again.json()["code"] == "already_registered"
    assert ann.post(f"{URL}{tid}/entrants/", {"bot": "genius"}).json()["code"] == "unknown_bot"
    too_few = ann.post(f"{URL}{tid}/start/", {})
    assert too_few.status_code == 422 and too_few.json()["code"] == "too_few_entrants"
    entrant = ann.post(f"{URL}{tid}/entrants/", {"bot": "random"}).json()
    assert entrant["bot"] == "random" and entrant["number"] == 2 and entrant["name"] == "random#2"
    started = ann.post(f"{URL}{tid}/start/", {})
    assert started.status_code == 200 and started.json()["status"] == "running"
    assert started.json()["current_round"] == 1
    late = bob.post(f"{URL}{tid}/entrants/", {})
    assert late.status_code == 409 and late.json()["code"] == "registration_closed"
    assert ann.post(f"{URL}{tid}/start/", {}).json()["code"] == "not_registering"
    assert ann.post(f"{URL}{tid}/cancel/", {}).json()["status"] == "cancelled"
    assert ann.post(f"{URL}{tid}/cancel/", {}).json()["code"] == "tournament_over"


def test_start_pairs_round_one_with_games(ann, bob, make_player, tournament):
    tid = tournament["id"]
    carl = make_player("carl")
    for p in (ann, bob, carl):
        p.post(f"{URL}{tid}/entrants/", {})
    ann.post(f"{URL}{tid}/start/", {})
    rounds = ann.client.get(f"{URL}{tid}/rounds/").json()
    assert len(rounds) == 1 and len(rounds[0]["tables"]) == 1 and len(rounds[0]["byes"]) == 1
    table = rounds[0]["tables"][0]
    game = Game.objects.get(pk=table["game"])
    assert game.rated and game.status == "active" and not game.sealed
    seated = {seat.player_id for seat in game.seats.all()}
    assert seated == {Entrant.objects.get(pk=s["entrant"]).player_id for s in table["seats"]}


def test_unknown_tournament_and_bad_parameters(ann):
    missing = "00000000-0000-0000-0000-000000000000"
    assert ann.client.get(f"{URL}{missing}/").json()["code"] == "not_found"
    assert ann.post(f"{URL}{missing}/start/", {}).status_code == 404
    assert ann.client.get(f"{URL}{missing}/standings.csv").status_code == 404
    assert ann.client.get(f"{URL}{missing}/standings.csv").json()["code"] == "not_found"
    assert ann.client.get(URL, {"status": "sleeping"}).status_code == 400


def test_standings_as_json_and_csv(ann, tournament):
    tid = tournament["id"]
    for _ in range(3):
        ann.post(f"{URL}{tid}/entrants/", {"bot": "random"})
    body = ann.client.get(f"{URL}{tid}/standings/").json()
    assert body["round"] == 0 and body["final"] is False
    assert [(r["rank"], r["name"], r["points"]) for r in body["standings"]] == [
        (1, "random#1", 0), (1, "random#2", 0), (1, "random#3", 0)]
    for path, params in ((f"{URL}{tid}/standings/", {"format": "csv"}), (f"{URL}{tid}/standings.csv", {})):
        response = ann.client.get(path, params)
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert [r["name"] for r in rows] == ["random#1", "random#2", "random#3"] and rows[0]["buchholz"] == "0"
    bad = ann.client.get(f"{URL}{tid}/standings/", {"round": "x", "format": "csv"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_parameter"


def test_rating_endpoints(ann):
    assert ann.client.get("/api/v1/ratings/spite-and-malice/").json()["results"] == []
    unknown = ann.client.get("/api/v1/ratings/chess/")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_kind"
    mine = ann.client.get(f"/api/v1/players/{ann.id}/ratings/").json()
    assert mine == {"player": ann.id, "name": "ann", "ratings": [], "history": []}
    assert ann.client.get("/api/v1/players/999999/ratings/").status_code == 404


def test_turn_seconds_reach_the_tournament_games(ann, bob):
    tid = ann.post(URL, {"kind": "spite-and-malice", "format": "round_robin", "turn_seconds": 90}).json()["id"]
    ann.post(f"{URL}{tid}/entrants/", {})
    bob.post(f"{URL}{tid}/entrants/", {})
    assert ann.post(f"{URL}{tid}/start/", {}).json()["rounds"] == 1
    game = Game.objects.get(tournament_table__round__tournament_id=tid)
    assert game.turn_seconds == 90 and game.rated
