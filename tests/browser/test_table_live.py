"""The table page stays live: a spectator watching a running bot-vs-bot game sees it move without reloading
(through the game's SSE stream, resumed after the version the page loaded), sees no hand, and gets the result
when it ends. An invited player accepts or declines from the table page."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register, shot, sign_in

pytestmark = pytest.mark.browser


def post(web_server: str, path: str, token: str, body: dict | None = None) -> dict:
    response = httpx.post(f"{web_server}/api/v1/{path}", json=body, timeout=30,
                          headers={"Authorization": f"Token {token}"})
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_a_spectator_sees_a_bot_game_move_without_reload(page, web_server):
    owner = register(web_server, "live-owner")
    # Search bots think for a moment on each move, so the game runs long enough to be watched.
    bot = {"bot": "search", "budget_ms": 120}
    game = post(web_server, "games/", owner["token"], {
        "kind": "spite-and-malice", "seats": [bot, bot], "options": {"max_turns": 40}})["id"]
    streams = []
    page.on("request", lambda request: streams.append(request.url) if "/stream/" in request.url else None)
    page.goto(f"/games/{game}/")
    table = page.locator("#table")
    expect(table.locator(".seat-panel")).to_have_count(2)
    page.evaluate("window.notReloaded = true")
    first = int(table.get_attribute("data-version"))
    page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {first}", timeout=10_000)
    second = int(table.get_attribute("data-version"))
    page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {second}", timeout=10_000)
    assert page.evaluate("window.notReloaded") is True
    resumed = [int(m.group(1)) for url in streams if (m := re.search(r"[?&]after=(\d+)", url))]
    assert resumed and 0 < resumed[0] <= first, streams  # the stream starts after the version the page loaded
    expect(page.locator(".table-head .status")).to_contain_text("you are watching")
    assert page.locator("#table .legal").count() == 0
    hands = page.locator("#table .hand")
    assert hands.count() == 2 and all("back" in cls for cls in
                                      hands.locator(".pc").evaluate_all("els => els.map(e => e.className)"))
    shot(page, "table-spectator")
    expect(page.locator(".game-over")).to_be_visible(timeout=90_000)
    assert page.evaluate("window.notReloaded") is True


def test_an_invited_player_accepts_on_the_table_page(page, web_server):
    host = register(web_server, "table-invite-host")
    guest = sign_in(page, "table-invite-guest")
    game = post(web_server, "games/", host["token"], {
        "kind": "muscio", "seats": [{"player": host["id"]}, {"player": guest["id"]}, {"bot": "random"}],
        "options": {"max_hands": 1}})["id"]
    page.goto(f"/games/{game}/")
    expect(page.locator(".invitation")).to_contain_text("table-invite-guest")
    page.get_by_role("button", name="Accept and play").click()
    expect(page.locator(".seat-panel.mine")).to_contain_text("table-invite-guest")
    expect(page.locator(".invitation")).to_have_count(0)
    assert httpx.get(f"{web_server}/api/v1/games/{game}/", timeout=30).json()["status"] == "active"


def test_an_invited_player_declines_on_the_table_page(page, web_server):
    host = register(web_server, "decline-host")
    guest = sign_in(page, "decline-guest")
    game = post(web_server, "games/", host["token"], {
        "kind": "diavoletto", "seats": [{"player": host["id"]}, {"player": guest["id"]}]})["id"]
    page.goto(f"/games/{game}/")
    page.get_by_role("button", name="Decline").click()
    expect(page.locator(".game-over.aborted")).to_contain_text("declined")
    assert httpx.get(f"{web_server}/api/v1/games/{game}/", timeout=30).json()["status"] == "aborted"


def test_the_hosts_table_starts_by_itself_when_the_guest_accepts(page, web_server):
    host = sign_in(page, "waiting-host")
    guest = register(web_server, "waiting-guest")
    game = post(web_server, "games/", host["token"], {
        "kind": "spite-and-malice", "seats": [{"player": host["id"]}, {"player": guest["id"]}]})["id"]
    page.goto(f"/games/{game}/")
    expect(page.locator(".invitation")).to_contain_text("Waiting for: waiting-guest")
    expect(page.get_by_role("button", name="Accept and play")).to_have_count(0)  # the host has accepted already
    page.evaluate("window.notReloaded = true")
    post(web_server, f"games/{game}/accept/", guest["token"])
    expect(page.locator(".zone.mine .hand .pc")).to_have_count(5, timeout=15_000)
    expect(page.locator(".invitation")).to_have_count(0)
    assert page.evaluate("window.notReloaded") is True
