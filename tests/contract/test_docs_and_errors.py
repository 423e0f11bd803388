"""The docs pages work offline (every asset served here, nothing fetched from elsewhere), and every error,
Django's own included, is JSON `{"code", "detail"}`."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings
from django.urls import path

from config import urls

_REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url\(\s*["']?([^"')]+)""")
_EXTERNAL = re.compile(r"""["'(=\s](?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}""", re.IGNORECASE)


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_load_only_local_assets(page):
    client = Client()
    response = client.get(page)
    assert response.status_code == 200
    html = response.content.decode()
    assert not _EXTERNAL.search(html), _EXTERNAL.search(html).group(0)
    assets = [a or b for a, b in _REFERENCE.findall(html)]
    assert any(asset.endswith(".js") for asset in assets)
    for asset in assets:
        assert asset.startswith("/"), asset
        served = client.get(asset)
        assert served.status_code == 200, asset
        assert b"".join(served.streaming_content if served.streaming else [served.content])
    assert client.get("/api/schema/").status_code == 200


def test_the_swagger_page_does_not_call_the_online_validator():
    html = Client().get("/api/docs/").content.decode()
    assert '"validatorUrl": null' in html


@pytest.mark.parametrize("path", ["/api/v1/games/not-a-uuid/", "/api/v1/nothing-here/", "/api/v2/games/",
                                  "/api/v1/tournaments/123/standings/", "/elsewhere"])
def test_unknown_paths_answer_json_404(path):
    response = Client().get(path)
    assert response.status_code == 404
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_the_static_route_serves_only_the_docs_assets():
    assert Client().get("/static/admin/css/base.css").status_code == 404


def _crash(request):
    raise RuntimeError("a bug")


urlpatterns = [path("crash/", _crash)]
handler500 = urls.handler500  # what config.urls installs


@override_settings(ROOT_URLCONF=__name__)
def test_a_crash_answers_json_500():
    response = Client(raise_request_exception=False).get("/crash/")
    assert response.status_code == 500
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"


@pytest.mark.django_db
def test_a_method_the_endpoint_lacks_answers_json_405():
    response = Client().delete("/api/v1/kinds/")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
