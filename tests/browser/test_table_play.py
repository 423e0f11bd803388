"""The table page, played by clicking: for every kind, a signed-in player creates a game against random bots
(with the kind's shortest options) and plays it to the end by clicking only what the page highlights (the
server's legal moves); the finished table shows its result and links to the replay. Screenshots
`table-<kind>` are taken mid-game."""

from __future__ import annotations

import random
import time

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot, sign_in

pytestmark = pytest.mark.browser

#: kind -> (seats, options, clicks before the mid-game screenshot): the smallest game each kind allows, so a
#: whole game is quick.
GAMES = {
    "spite-and-malice": (2, {"max_turns": 8}, 6),
    "diavoletto": (2, {"max_turns": 8}, 6),
    "muscio": (3, {"max_hands": 1}, 2),
    "tarocchi-mineo": (4, {"deals": 4}, 8),
    "machiavelli": (2, {"deals": 1}, 12),
}
#: The clickable things the page marks as legal while it is not busy sending a move.
CLICKABLE = "#table[aria-busy=false] .legal"


def create_game(web_server: str, player: dict, kind: str, seats: int, options: dict) -> str:
    """A game of `kind`: the player in seat 0, random bots in the others (through the public API)."""
    body = {"kind": kind, "options": options,
            "seats": [{"player": player["id"]}] + [{"bot": "random"}] * (seats - 1)}
    response = httpx.post(f"{web_server}/api/v1/games/", json=body, timeout=30,
                          headers={"Authorization": f"Token {player['token']}"})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def play_to_the_end(page, rng: random.Random, *, shot_name: str | None = None, shot_at: int = 0,
                    limit: int = 600) -> int:
    """Click highlighted moves (a target after a selected source) until the game-over banner shows."""
    clicks = misses = 0
    failure = ""
    while clicks < limit:
        if misses > 25:
            shot(page, "stuck-table")
            raise AssertionError(f"no highlighted move could be clicked ({failure}): "
                                 + page.locator("#table").inner_html()[:3000])
        page.wait_for_function(f"document.querySelector('.game-over') || document.querySelector('{CLICKABLE}')",
                               timeout=30_000)
        if page.locator(".game-over").count():
            return clicks
        targets = page.locator("#table[aria-busy=false] .legal.target")
        choices = targets if targets.count() else page.locator(CLICKABLE)
        n = choices.count()
        if not n:
            misses += 1
            continue  # redrawn meanwhile
        try:
            choices.nth(rng.randrange(n)).click(timeout=2_000)
        except Exception as error:  # noqa: BLE001 - the table was redrawn under the pointer: look again
            misses += 1
            failure = str(error)[:1500]
            continue
        clicks += 1
        misses = 0
        if shot_name and clicks == shot_at:
            page.wait_for_function(f"document.querySelector('{CLICKABLE}') || document.querySelector('.game-over')")
            cards = page.locator("#table[aria-busy=false] button.pc.legal[data-src]")
            if cards.count() and not page.locator(".legal.target").count():  # show a card chosen, its places lit
                cards.first.click()
                clicks += 1
                page.wait_for_function(f"document.querySelector('{CLICKABLE}') || document.querySelector('.game-over')")
            shot(page, shot_name)
        if page.locator(".game-over").count():
            return clicks
    raise AssertionError(f"the game did not end within {limit} clicks")


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_game_against_bots_is_played_to_the_end_by_clicking(page, web_server, kind):
    started = time.monotonic()
    player = sign_in(page, f"table-{kind}")
    seats, options, shot_at = GAMES[kind]
    game = create_game(web_server, player, kind, seats, options)
    page.goto(f"/games/{game}/")
    expect(page.locator(".seat-panel").first).to_be_visible()
    assert page.locator(".seat-panel.mine").count() == 1
    clicks = play_to_the_end(page, random.Random(kind), shot_name=f"table-{kind}", shot_at=shot_at)
    assert clicks > 0
    summary = httpx.get(f"{web_server}/api/v1/games/{game}/", timeout=30).json()
    assert summary["status"] == "finished"
    banner = page.locator(".game-over")
    expect(banner).to_contain_text("Game over")
    expect(banner.get_by_role("link", name="Step through the replay")).to_have_attribute(
        "href", f"/games/{game}/replay/")
    print(f"{kind}: {clicks} clicks in {time.monotonic() - started:.1f} s")
