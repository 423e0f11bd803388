"""The player page: ratings per game from rated games between people, their history as an inline SVG chart
(one line per game, one point per rated game), recent games linked."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register, shot
from tests.browser.pages import play_rated_game

pytestmark = pytest.mark.browser


def test_the_player_page_shows_ratings_and_their_chart(page, web_server):
    ann, bob = register(web_server, "rated-ann"), register(web_server, "rated-bob")
    games = [play_rated_game(web_server, ann, bob, options={"max_turns": 16}, seed=n) for n in range(3)]
    games.append(play_rated_game(web_server, bob, ann, kind="diavoletto", options={"max_turns": 16}, seed=9))
    api = f"{web_server}/api/v1/players/{ann['id']}/ratings/"
    for _ in range(100):  # ratings are written by a task after each game
        ratings = httpx.get(api, timeout=30).json()
        if len(ratings["history"]) == 4:
            break
        page.wait_for_timeout(100)
    assert len(ratings["history"]) == 4, ratings

    page.goto(f"/players/{ann['id']}/")
    expect(page.locator("h1")).to_have_text("rated-ann")
    rows = page.locator("#ratings tbody tr")
    expect(rows).to_have_count(2)
    by_kind = {r["kind"]: r for r in ratings["ratings"]}
    sm = page.locator('#ratings tr[data-kind="spite-and-malice"] td')
    assert sm.nth(0).inner_text() == f"{by_kind['spite-and-malice']['rating']:.2f}"
    assert sm.nth(3).inner_text() == "3"
    chart = page.locator("svg#rating-chart")
    expect(chart).to_have_attribute("role", "img")
    assert "4 rated games" in chart.get_attribute("aria-label")
    expect(chart.locator('.series[data-kind="spite-and-malice"] circle')).to_have_count(3)
    expect(chart.locator('.series[data-kind="diavoletto"] circle')).to_have_count(1)
    heights = chart.locator('.series[data-kind="spite-and-malice"] circle').evaluate_all(
        "circles => circles.map(c => Number(c.getAttribute('cy')))")
    oldest_first = [c["rating"] for c in reversed(ratings["history"]) if c["kind"] == "spite-and-malice"]
    assert sorted(range(3), key=lambda i: -heights[i]) == sorted(range(3), key=lambda i: oldest_first[i])
    recent = page.locator("li.game-item")
    expect(recent).to_have_count(4)
    expect(recent.first.get_by_role("link", name="rated-bob")).to_have_attribute("href", f"/players/{bob['id']}/")
    assert {g["id"] for g in games} == set(recent.evaluate_all("items => items.map(i => i.dataset.game)"))
    shot(page, "player")
