"""Bodies without a Content-Length (`Transfer-Encoding: chunked`) against a real uvicorn server: they are read,
and held to the same size limit as any body (413 `body_too_large`), which is checked while reading."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from django.conf import settings
from django.db import connection

from games.models import Player
from tests.integration import live

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LIMIT = 64 * 1024


@pytest.fixture(scope="module")
def base(django_db_setup):
    env = {"DATABASE_URL": live.database_url(connection.settings_dict),
           "CELERY_BROKER_URL": settings.CELERY_BROKER_URL, "MAX_BODY_BYTES": str(LIMIT)}
    with live.server(env, embedded=False) as url:
        yield url


def _chunks(data: bytes, size: int = 1000) -> Iterator[bytes]:
    """httpx sends an iterator as a chunked body, with no Content-Length."""
    for start in range(0, len(data), size):
        yield data[start:start + size]


def _post(url: str, body: Iterator[bytes] | bytes, token: str | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json", **live.auth(token)}
    request = httpx.Request("POST", url, content=body, headers=headers)
    if not isinstance(body, bytes):
        assert request.headers["Transfer-Encoding"] == "chunked" and "Content-Length" not in request.headers
    with httpx.Client(timeout=30) as http:
        return http.send(request)


def _refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["code"] == code and response.json()["detail"]


def test_a_chunked_body_is_read(base):
    response = _post(f"{base}/players/", _chunks(json.dumps({"name": "chunked ann"}).encode(), 3))
    assert response.status_code == 201, response.text
    assert response.json()["name"] == "chunked ann"
    token, ann = response.json()["token"], response.json()["id"]
    game = {"kind": "spite-and-malice", "seats": [{"player": ann}, {"bot": "random"}], "seed": "c4" * 32}
    created = _post(f"{base}/games/", _chunks(json.dumps(game).encode(), 7), token)
    assert created.status_code == 201, created.text
    assert created.json()["seats"][0]["player"] == ann
    _refused(_post(f"{base}/players/", _chunks(b"")), 400, "invalid_input")
    _refused(_post(f"{base}/players/", _chunks(b"[" * 20_000)), 400, "malformed_json")
    just_fits = json.dumps({"name": "fits", "pad": "x" * (LIMIT - 40)}).encode()
    assert len(just_fits) <= LIMIT
    fits = _post(f"{base}/players/", _chunks(just_fits))
    assert fits.status_code == 201 and fits.json()["name"] == "fits"


def test_an_oversized_chunked_body_is_413_and_not_read_to_its_end(base):
    before = Player.objects.count()
    over = json.dumps({"name": "too big", "pad": "x" * LIMIT}).encode()
    _refused(_post(f"{base}/players/", _chunks(over)), 413, "body_too_large")
    sent = 0

    def endless() -> Iterator[bytes]:
        nonlocal sent
        yield b'{"name": "x", "pad": "'
        for _ in range(3200):  # 200 MB, if anybody read it all
            sent += 65536
            yield b"x" * 65536

    _refused(_post(f"{base}/players/", endless()), 413, "body_too_large")
    assert sent < 3200 * 65536
    _refused(_post(f"{base}/players/", over), 413, "body_too_large")  # a declared length: refused unread
    assert Player.objects.count() == before
    assert httpx.get(f"{base}/kinds/").status_code == 200  # the server is still well
