"""Machiavelli's table editor: the player rearranges the table by click-to-move and drag-and-drop and sends the
whole table as one meld. An invalid group is refused by the server (option `failed_operation: reject`) and its
message is shown in the editor, which keeps the arrangement; a valid set is accepted and lies on the table."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import expect_console_error, shot, sign_in

pytestmark = pytest.mark.browser

PACK = [rank + suit for suit in "SHDC" for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
MINE = ["5H", "5D", "5C", "KH", "2C", "9D", "JD", "QC", "4H", "10S", "7S", "AS", "6D"]
THEIRS = ["2H", "3H", "8C", "8D", "JS", "QS", "4C", "6C", "10D", "AH", "3C", "9S", "KC"]


def deal() -> list[str]:
    """Deal 1 with the first dealer at seat 1: seat 0 gets the even indices, seat 1 the odd ones, then the stock."""
    rest = PACK + PACK
    for card in MINE + THEIRS:
        rest.remove(card)
    return [card for pair in zip(MINE, THEIRS, strict=True) for card in pair] + rest


def editor_card(page, place: str, card: str):
    return page.locator(f".editor button.movable[data-place='{place}'][data-card='{card}']").first


def test_the_meld_editor_shows_the_servers_refusal_then_sends_a_valid_table(page, web_server, console):
    expect_console_error(console, r"status of 422")
    player = sign_in(page, "editor-ann")
    auth = {"Authorization": f"Token {player['token']}"}
    response = httpx.post(f"{web_server}/api/v1/games/", timeout=30, headers=auth,
                          json={"kind": "machiavelli", "seats": [{"player": player["id"]}, {"bot": "random"}],
                                "options": {"deals": 1, "failed_operation": "reject", "first_dealer": 1},
                                "decks": [deal()]})
    assert response.status_code == 201, response.text
    game = response.json()["id"]
    page.goto(f"/games/{game}/")
    page.get_by_role("button", name="Draw").click()  # the opening's forced draw
    page.get_by_role("button", name="Rearrange the table…").click()
    editor = page.locator(".editor")
    expect(editor).to_be_visible()

    # An invalid group, built by click-to-move: King of hearts, 2 of clubs, 9 of diamonds.
    editor_card(page, "hand", "KH").click()
    editor.get_by_role("button", name="New group here").click()
    new_group = editor.locator(".drop.group:not(.new)").last
    for card in ["2C", "9D"]:
        editor_card(page, "hand", card).click()
        new_group.get_by_role("button", name="Move to group").click()
    expect(new_group.locator("[data-card]")).to_have_count(3)
    page.get_by_role("button", name="Send this table").click()
    error = editor.locator(".meld-error")
    expect(error).to_contain_text("every group must be a set")
    expect(editor.locator(".drop.group:not(.new)").last.locator("[data-card]")).to_have_count(3)  # kept as it was
    shot(page, "table-machiavelli-editor")

    # Start again, and lay a valid set: two cards by click-to-move, the third by drag-and-drop.
    page.get_by_role("button", name="Start again").click()
    editor_card(page, "hand", "5H").click()
    editor.get_by_role("button", name="New group here").click()
    new_group = editor.locator(".drop.group:not(.new)").last
    editor_card(page, "hand", "5D").click()
    new_group.get_by_role("button", name="Move to group").click()
    editor_card(page, "hand", "5C").drag_to(new_group)
    expect(new_group.locator("[data-card]")).to_have_count(3)
    page.get_by_role("button", name="Send this table").click()
    expect(page.locator(".editor")).to_have_count(0)
    meld = page.locator(".melds .meld", has=page.locator("[data-card='5H']"))
    expect(meld).to_have_count(1)  # (the bot may play on meanwhile, even add a 5 of spades)
    assert {"5C", "5D", "5H"} <= set(meld.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    state = httpx.get(f"{web_server}/api/v1/games/{game}/state/", timeout=30, headers=auth).json()
    assert any({"5C", "5D", "5H"} <= set(group) for group in state["view"]["table"])
    assert not any(card in state["view"]["hand"] for card in ["5H", "5D", "5C"])
