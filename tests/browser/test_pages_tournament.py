"""Tournament pages: an organiser creates a small all-bot tournament from the page, adds bots, starts it and
watches standings, crosstable and rounds fill in; the list filters; cancel and register work."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register, shot, sign_in

pytestmark = pytest.mark.browser


def played(page) -> int:
    """The sum of the standings' Played column, as shown."""
    cells = page.locator("#standings tbody tr td:nth-child(7)").all_inner_texts()
    return sum(int(c) for c in cells)


def test_run_a_small_all_bot_tournament_from_the_page(page, web_server):
    sign_in(page, "cup-organiser", then="/tournaments/new/")
    page.get_by_label("Name").fill("Page cup")
    page.get_by_label("Game", exact=True).select_option("spite-and-malice")
    page.get_by_label("Format", exact=True).select_option("round_robin")
    page.get_by_label("Max turns").fill("400")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]{36}/$"))
    tournament_id = urlparse(page.url).path.split("/")[2]
    expect(page.locator("h1")).to_have_text("Page cup")
    expect(page.locator("#tournament-status")).to_have_text("registering")

    for n in range(1, 4):
        page.get_by_label("Bot", exact=True).select_option("random")
        page.get_by_role("button", name="Add bot").click()
        expect(page.locator("#entrants li")).to_have_count(n)
    expect(page.locator("#standings tbody tr")).to_have_count(3)
    assert played(page) == 0
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#tournament-status")).to_have_text("running")
    expect(page.get_by_role("button", name="Add bot")).to_have_count(0)

    # No reload from here on: the page polls while the bots play three rounds.
    expect(page.locator("#tournament-status")).to_have_text("finished", timeout=90_000)
    expect(page.locator("#standings-heading")).to_have_text("Final standings")
    assert played(page) == 6  # three games of two
    expect(page.locator(".round")).to_have_count(3)
    cells = page.locator("#crosstable td")
    texts = cells.all_inner_texts()
    assert texts.count("—") == 3 and all(re.fullmatch(r"[01½]", t) for t in texts if t != "—"), texts
    expect(page.get_by_role("button", name="Cancel the tournament")).to_have_count(0)
    shot(page, "tournament")

    href = page.get_by_role("link", name="Download the standings (CSV)").get_attribute("href")
    csv = httpx.get(web_server + href, timeout=30)
    assert csv.headers["content-type"].startswith("text/csv") and csv.text.startswith("rank,number,name,points")
    game_link = page.locator(".round[data-round='2'] li").first.get_by_role("link", name="table")
    game_id = game_link.get_attribute("href").split("/")[2]
    rounds = httpx.get(f"{web_server}/api/v1/tournaments/{tournament_id}/rounds/", timeout=30).json()
    assert game_id == rounds[1]["tables"][0]["game"]
    game_link.click()
    page.wait_for_url(f"**/games/{game_id}/")


def test_the_list_filters_and_the_organiser_cancels(page, web_server):
    sign_in(page, "cup-canceller", then="/tournaments/new/")
    page.get_by_label("Name").fill("Doomed cup")
    page.get_by_label("Game", exact=True).select_option("muscio")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/[0-9a-f-]{36}/$"))
    tournament_id = urlparse(page.url).path.split("/")[2]
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Cancel the tournament").click()
    expect(page.locator("#tournament-status")).to_have_text("cancelled")

    page.goto("/tournaments/")
    item = page.locator(f'li[data-tournament="{tournament_id}"]')
    expect(item).to_contain_text("Doomed cup")
    page.get_by_label("Status").select_option("registering")
    expect(item).to_have_count(0)
    page.get_by_label("Status").select_option("cancelled")
    page.get_by_label("Game").select_option("muscio")
    expect(item).to_contain_text("cancelled")
    page.get_by_label("Status").select_option("")
    page.get_by_label("Game").select_option("")
    expect(item).to_be_visible()
    shot(page, "tournament-list")


def test_a_player_registers_and_only_the_organiser_has_the_organisers_buttons(page, web_server):
    organiser = register(web_server, "cup-owner")
    response = httpx.post(f"{web_server}/api/v1/tournaments/", json={"kind": "diavoletto", "format": "swiss",
                                                                     "name": "Open cup"},
                          headers={"Authorization": f"Token {organiser['token']}"}, timeout=30)
    tournament_id = response.json()["id"]
    player = sign_in(page, "cup-entrant", then=f"/tournaments/{tournament_id}/")
    expect(page.get_by_role("button", name="Register me")).to_be_visible()
    assert page.get_by_role("button", name="Start").count() == 0
    assert page.get_by_role("button", name="Add bot").count() == 0
    page.get_by_role("button", name="Register me").click()
    expect(page.locator("#entrants li")).to_have_text(["cup-entrant"])
    expect(page.get_by_role("button", name="Register me")).to_have_count(0)
    expect(page.locator("#entrants").get_by_role("link", name="cup-entrant")).to_have_attribute(
        "href", f"/players/{player['id']}/")
