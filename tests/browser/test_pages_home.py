"""The home page: the five games with their rules, live and finished games and tournaments, all linked; your
invitations to accept; the new-game page creates a game through the API and goes to its table."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import expect_console_error, register, shot, sign_in
from tests.browser.pages import bot_game, create_game

pytestmark = pytest.mark.browser
KINDS = ["spite-and-malice", "diavoletto", "tarocchi-mineo", "machiavelli", "muscio"]


@pytest.fixture(scope="module")
def finished(web_server) -> dict:
    return bot_game(web_server, "home-maker", kind="diavoletto")


@pytest.fixture(scope="module")
def tournament(web_server) -> dict:
    organiser = register(web_server, "home-organiser")
    response = httpx.post(f"{web_server}/api/v1/tournaments/", json={"kind": "muscio", "format": "swiss",
                                                                     "name": "Home cup"},
                          headers={"Authorization": f"Token {organiser['token']}"}, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def test_home_lists_the_games_finished_games_and_tournaments_and_the_links_work(page, finished, tournament):
    page.goto("/")
    for kind in KINDS:
        card = page.locator(f'.kind[data-kind="{kind}"]')
        expect(card.get_by_role("link", name=re.compile("^Rules of"))).to_have_attribute("href", f"/rules/{kind}/")
        expect(card.locator("p").nth(1)).not_to_be_empty()
    item = page.locator(f'#home-finished li[data-game="{finished["id"]}"]')
    expect(item).to_contain_text("Diavoletto")
    expect(page.locator(f'#home-tournaments li[data-tournament="{tournament["id"]}"]')).to_contain_text("Home cup")
    shot(page, "home")

    item.get_by_role("link", name="replay").click()
    page.wait_for_url(f"**/games/{finished['id']}/replay/**")
    expect(page.locator("#replay-verification")).to_contain_text("Deal verified")
    page.goto("/")
    page.locator(f'#home-tournaments li[data-tournament="{tournament["id"]}"]').get_by_role("link").first.click()
    page.wait_for_url(f"**/tournaments/{tournament['id']}/")
    page.goto("/")
    page.locator('.kind[data-kind="tarocchi-mineo"]').get_by_role("link", name=re.compile("^Rules of")).click()
    page.wait_for_url("**/rules/tarocchi-mineo/")
    expect(page.locator("article h1").first).to_contain_text("Tarocchi")
    shot(page, "rules")


def test_a_live_game_is_listed_and_links_to_its_table(page, web_server):
    ann = register(web_server, "home-live-ann")
    game = create_game(web_server, ann["token"], {"kind": "spite-and-malice",
                                                  "seats": [{"player": ann["id"]}, {"bot": "random"}]})
    page.goto("/")
    item = page.locator(f'#home-live li[data-game="{game["id"]}"]')
    item.get_by_role("link", name="Spite and Malice").click()
    page.wait_for_url(f"**/games/{game['id']}/")


def test_home_at_phone_width(phone_page, finished):
    phone_page.goto("/")
    expect(phone_page.locator(f'#home-finished li[data-game="{finished["id"]}"]')).to_be_visible()
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    shot(phone_page, "phone-home")


def test_new_game_against_a_bot_lands_on_its_table(page, web_server):
    player = sign_in(page, "newgame-ann", then="/games/new/?kind=spite-and-malice")
    expect(page.get_by_label("Game")).to_have_value("spite-and-malice")
    expect(page.get_by_label("Seat 1")).to_have_value("me")
    page.get_by_label("Seat 2").select_option("bot:search")
    page.get_by_label("Thinking time (ms)").fill("50")
    page.get_by_label("Max turns").fill("300")
    page.get_by_label("Seconds per move").fill("120")
    shot(page, "game-new")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    game_id = urlparse(page.url).path.split("/")[2]
    game = httpx.get(f"{web_server}/api/v1/games/{game_id}/", timeout=30).json()
    assert game["kind"] == "spite-and-malice" and game["status"] == "active"
    assert [(s["player"], s["bot"], s["bot_options"]) for s in game["seats"]] == [
        (player["id"], "", {}), (None, "search", {"budget_ms": 50})]
    assert game["options"]["max_turns"] == 300 and game["turn_seconds"] == 120


def test_an_invitation_is_accepted_from_the_home_page(page, web_server, console):
    host = register(web_server, "invite-host")
    guest = sign_in(page, "invite-guest")
    page.goto("/games/new/?kind=muscio")
    page.get_by_label("Seat 2").select_option("player")
    page.get_by_label("Player number (from their page)").fill(str(host["id"]))
    page.get_by_label("Player number (from their page)").blur()
    expect(page.locator(".seat-row[data-seat='1']")).to_contain_text("→ invite-host")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    game_id = urlparse(page.url).path.split("/")[2]
    assert httpx.get(f"{web_server}/api/v1/games/{game_id}/", timeout=30).json()["status"] == "pending"

    page.evaluate("player => localStorage.setItem('tavolo.player', JSON.stringify(player))", host)
    page.goto("/")
    invitation = page.get_by_role("list", name="Invitations").locator(f'li[data-game="{game_id}"]')
    invitation.get_by_role("button", name="Accept").click()
    page.wait_for_url(f"**/games/{game_id}/")
    assert httpx.get(f"{web_server}/api/v1/games/{game_id}/", timeout=30).json()["status"] == "active"
    assert guest["id"] != host["id"]


def test_the_servers_refusal_is_shown_and_signed_out_visitors_are_sent_to_sign_in(page, console):
    expect_console_error(console, r"status of 4\d\d")
    sign_in(page, "newgame-bob", then="/games/new/?kind=diavoletto")
    page.get_by_label("Seat 2").select_option("player")
    page.get_by_label("Player number (from their page)").fill("999999")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#new-game-error")).to_contain_text("there is no player 999999")
    assert urlparse(page.url).path == "/games/new/"
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("main").get_by_role("link", name="Sign in")).to_be_visible()
