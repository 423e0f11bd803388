"""PostgreSQL unreachable during play (the network between the web server and the database cut by a proxy for
5 s; the database itself keeps running for everyone else): each request meanwhile is answered 503
`database_unavailable` at once and changes nothing, `/readyz` says so, `/healthz` stays 200, and the server
recovers by itself as soon as the database is reachable again. The figures are printed (`pytest -s`)."""

from __future__ import annotations

import time

import httpx
import pytest
from django.db import connection

from games.models import Event, Game
from tests.faults.harness import TcpProxy
from tests.integration.live import auth, database_url

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

OUTAGE = 5.0


def _move(http: httpx.Client, base: str, game_id: str, tokens: dict[int, str]) -> httpx.Response | None:
    """The first legal move of the seat to act, or None if the state could not be read."""
    summary = http.get(f"{base}/games/{game_id}/")
    if summary.status_code != 200:
        return summary
    seat = summary.json()["to_act"][0]
    state = http.get(f"{base}/games/{game_id}/state/", params={"seat": seat}, headers=auth(tokens[seat]))
    if state.status_code != 200:
        return state
    body = {"action": state.json()["legal_actions"][0], "expected_version": state.json()["version"], "seat": seat}
    return http.post(f"{base}/games/{game_id}/actions/", json=body, headers=auth(tokens[seat]))


def test_the_database_unreachable_answers_503_and_the_server_recovers(processes):
    db = connection.settings_dict
    proxy = TcpProxy((db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)))
    proxy.start()
    try:
        base = processes.web(DATABASE_URL=database_url({**db, "HOST": "127.0.0.1", "PORT": str(proxy.port)}))
        root = base.removesuffix("/api/v1")
        with httpx.Client(timeout=30) as http:
            players = [http.post(f"{base}/players/", json={"name": f"db{i}{time.time_ns()}"}).json() for i in (0, 1)]
            tokens = {i: p["token"] for i, p in enumerate(players)}
            created = http.post(f"{base}/games/", headers=auth(tokens[0]), json={
                "kind": "spite-and-malice", "seats": [{"player": players[0]["id"]}, {"player": players[1]["id"]}]})
            game_id = created.json()["id"]
            assert http.post(f"{base}/games/{game_id}/accept/", headers=auth(tokens[1])).status_code == 200
            for _ in range(3):
                assert _move(http, base, game_id, tokens).status_code == 201
            before = Game.objects.get(pk=game_id).version

            proxy.cut()
            cut = time.monotonic()
            answers, slowest = [], 0.0
            while time.monotonic() - cut < OUTAGE:
                start = time.monotonic()
                answers.append(_move(http, base, game_id, tokens))
                slowest = max(slowest, time.monotonic() - start)
                time.sleep(0.2)
            ready = http.get(f"{root}/readyz")
            health = http.get(f"{root}/healthz")
            proxy.restore()
            restored = time.monotonic()
            while (response := _move(http, base, game_id, tokens)).status_code != 201:
                assert time.monotonic() - restored < 30, response.text
                time.sleep(0.05)
            recovered = time.monotonic() - restored
            for _ in range(3):
                assert _move(http, base, game_id, tokens).status_code == 201
    finally:
        proxy.close()

    assert answers and {r.status_code for r in answers} == {503}, [(r.status_code, r.text) for r in answers]
    assert {r.json()["code"] for r in answers} == {"database_unavailable"}
    assert all(r.headers.get("Retry-After") for r in answers)
    assert ready.status_code == 503 and ready.json()["code"] == "database_unavailable"
    assert health.status_code == 200
    game = Game.objects.get(pk=game_id)
    assert game.version >= before + 4  # the move after the restore and three more; none during the cut
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))
    print(f"\ndatabase unreachable {OUTAGE:.0f} s: {len(answers)} requests answered 503 database_unavailable "
          f"(slowest {slowest:.2f} s); the first move after it was recorded {recovered:.2f} s after the restore")
