"""Every page's header with sign-in and sign-out: each page loads without a console error signed out and signed
in, names the signed-in player, and signing out anywhere puts the sign-in link back (pages that need a player
say so)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register, sign_in
from tests.browser.pages import bot_game

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def paths(web_server) -> list[str]:
    game = bot_game(web_server, "header-maker")
    organiser = register(web_server, "header-organiser")
    tournament = httpx.post(f"{web_server}/api/v1/tournaments/", json={"kind": "machiavelli", "format": "knockout"},
                            headers={"Authorization": f"Token {organiser['token']}"}, timeout=30).json()
    return ["/", "/rules/machiavelli/", "/games/new/", f"/games/{game['id']}/replay/", "/tournaments/",
            "/tournaments/new/", f"/tournaments/{tournament['id']}/", f"/players/{organiser['id']}/"]


def test_every_page_loads_signed_out_and_signed_in_and_signs_out(page, paths):
    for path in paths:
        page.goto(path)
        expect(page.locator("#signin-link")).to_be_visible()
        expect(page.locator("main .loading")).to_have_count(0)
        nav = page.get_by_role("navigation", name="Main")
        for name in ("Tavolo", "New game", "Tournaments"):
            expect(nav.get_by_role("link", name=name, exact=True)).to_be_visible()
    player = sign_in(page, "header-ann")
    for path in paths:
        page.goto(path)
        expect(page.locator("#session-name")).to_have_text("header-ann")
        expect(page.locator("#session-name")).to_have_attribute("href", f"/players/{player['id']}/")
        expect(page.locator("main .loading")).to_have_count(0)
    page.goto("/games/new/")
    expect(page.get_by_role("button", name="Create the game")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("#signin-link")).to_be_visible()
    expect(page.get_by_role("main").get_by_role("link", name="Sign in")).to_be_visible()
    assert page.evaluate("localStorage.getItem('tavolo.player')") is None
