"""The replay page: step through a finished bot game by buttons, keys and slider with the step in the URL, switch
viewpoint (a seat sees its hand, the spectator only counts), and read the export's verification."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot, sign_in
from tests.browser.pages import bot_game, create_game, query

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def finished(web_server) -> dict:
    return bot_game(web_server, "replay-maker")


def shown_view(page) -> dict:
    """The data of the viewpoint on screen, as the page prints it under "This viewpoint's data"."""
    return json.loads(page.locator("#replay-view-json").text_content())


def at_step(page, n: int, last: int) -> None:
    """Wait until step n is in the controls, the URL and the table (whose view has arrived)."""
    expect(page.locator("#replay-position")).to_have_text(f"Step {n} of {last}")
    page.wait_for_url(lambda url: query(url).get("step") == str(n))
    expect(page.locator("#replay-table")).to_have_attribute("data-step", str(n))


def seen_through(page, viewpoint: str) -> None:
    page.wait_for_url(lambda url: query(url).get("seat") == viewpoint)
    expect(page.locator("#replay-table")).to_have_attribute("data-viewpoint", viewpoint)


def test_step_back_and_forth_by_buttons_keys_and_slider_and_the_url_follows(page, finished):
    last = finished["version"]
    page.goto(f"/games/{finished['id']}/replay/?step=10")
    at_step(page, 10, last)
    page.get_by_role("button", name="Next ▶").click()
    at_step(page, 11, last)
    page.get_by_role("button", name="◀ Previous").click()
    page.get_by_role("button", name="◀ Previous").click()
    at_step(page, 9, last)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at_step(page, 12, last)
    page.keyboard.press("ArrowLeft")
    at_step(page, 11, last)
    page.get_by_label("Step", exact=True).fill("30")
    at_step(page, 30, last)
    view_at_30 = shown_view(page)
    page.keyboard.press("End")
    at_step(page, last, last)
    page.get_by_role("button", name="« First").click()
    at_step(page, 1, last)
    expect(page.get_by_role("button", name="◀ Previous")).to_be_disabled()

    shared = page.context.new_page()  # the URL is shareable: it opens on the same step and viewpoint
    shared.goto(f"/games/{finished['id']}/replay/?step=30&seat=spectator")
    at_step(shared, 30, last)
    assert shown_view(shared) == view_at_30


def test_autoplay_moves_on_by_itself_until_paused(page, finished):
    page.goto(f"/games/{finished['id']}/replay/?step=5")
    at_step(page, 5, finished["version"])
    page.get_by_label("Speed").select_option("4")
    page.get_by_role("button", name="Play").click()
    page.wait_for_url(lambda url: int(query(url)["step"]) >= 9)
    page.get_by_role("button", name="Pause").click()
    stopped = int(query(page.url)["step"])
    at_step(page, stopped, finished["version"])
    page.wait_for_timeout(800)
    assert int(query(page.url)["step"]) == stopped


def test_switching_viewpoint_shows_a_seats_hand_or_the_spectators_count(page, finished):
    step = 30
    page.goto(f"/games/{finished['id']}/replay/?step={step}&seat=spectator")
    at_step(page, step, finished["version"])
    seen_through(page, "spectator")
    spectator = shown_view(page)
    assert [p["hand"] for p in spectator["players"]] == [None, None]
    assert spectator["players"][1]["hand_count"] > 0

    page.get_by_label("Viewpoint").select_option("1")
    seen_through(page, "1")
    assert query(page.url) == {"step": str(step), "seat": "1"}
    seat1 = shown_view(page)
    assert seat1["players"][0]["hand"] is None
    assert len(seat1["players"][1]["hand"]) == spectator["players"][1]["hand_count"]

    page.get_by_label("Viewpoint").select_option("all")
    seen_through(page, "all")
    expect(page.locator(".replay-seat")).to_have_count(2)
    every = shown_view(page)
    assert every["0"]["players"][0]["hand"] and every["1"]["players"][1]["hand"]
    assert every["1"]["players"][1]["hand"] == seat1["players"][1]["hand"]
    shot(page, "replay")


def test_the_verification_line_and_the_raw_export(page, web_server, finished):
    page.goto(f"/games/{finished['id']}/replay/")
    at_step(page, finished["version"], finished["version"])
    expect(page.locator("#replay-verification")).to_contain_text("Deal verified from the revealed seed")
    href = page.get_by_role("link", name="Raw export (JSON)").get_attribute("href")
    exported = httpx.get(web_server + href, timeout=30).json()
    assert exported["id"] == finished["id"] and exported["verification"]["ok"] is True


def test_on_a_running_game_a_player_replays_their_own_seat_only(page, web_server):
    player = sign_in(page, "replay-runner")
    game = create_game(web_server, player["token"], {"kind": "spite-and-malice",
                                                     "seats": [{"player": player["id"]}, {"bot": "random"}]})
    page.goto(f"/games/{game['id']}/replay/")
    seen_through(page, "0")
    options = page.locator("#replay-viewpoint option").evaluate_all("options => options.map(o => o.value)")
    assert options == ["spectator", "0"]
    assert query(page.url)["seat"] == "0"
    assert shown_view(page)["players"][1]["hand"] is None
    expect(page.locator("#replay-verification")).to_contain_text("seed stays secret")
    page.get_by_label("Viewpoint").select_option("spectator")
    seen_through(page, "spectator")
    assert [p["hand"] for p in shown_view(page)["players"]] == [None, None]

    # The game goes on: past the last known step, Next fetches the steps played since.
    last = int(page.locator("#replay-position").inner_text().split()[-1])
    at_step(page, last, last)
    auth = {"Authorization": f"Token {player['token']}"}
    for _ in range(100):  # the bot may still be thinking
        state = httpx.get(f"{web_server}/api/v1/games/{game['id']}/state/", headers=auth, timeout=30).json()
        if state["legal_actions"]:
            break
        page.wait_for_timeout(100)
    moved = httpx.post(f"{web_server}/api/v1/games/{game['id']}/actions/", headers=auth, timeout=30,
                       json={"action": state["legal_actions"][0], "expected_version": state["version"]})
    assert moved.status_code == 201, moved.text
    page.get_by_role("button", name="Next ▶").click()
    expect(page.locator("#replay-position")).to_have_text(re.compile(rf"Step {last + 1} of \d+"))
    assert int(page.locator("#replay-position").inner_text().split()[-1]) >= moved.json()["version"]


def test_replay_at_phone_width(phone_page, finished):
    phone_page.goto(f"/games/{finished['id']}/replay/?step=40&seat=0")
    at_step(phone_page, 40, finished["version"])
    seen_through(phone_page, "0")
    assert shown_view(phone_page)["players"][0]["hand"]
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    phone_page.get_by_role("button", name="Next ▶").click()
    at_step(phone_page, 41, finished["version"])
    shot(phone_page, "phone-replay")
