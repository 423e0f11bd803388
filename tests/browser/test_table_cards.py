"""The cards are pictures made here (SVG) with names for screen readers, every card of every pack distinct; the
table works with the keyboard alone and at phone width. Screenshots: `cards` (a sheet of every pack, drawn by
the table's own module into a page section made by the test) and `phone-table`."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot, sign_in

pytestmark = pytest.mark.browser

SHEET = """async () => {
  const { cardSvg, cardName, packCards } = await import("/static/web/js/table/cards.js");
  const main = document.getElementById("main");
  main.replaceChildren();
  const packs = [["french", "French pack: Spite and Malice, Diavoletto, Machiavelli"],
                 ["muscio", "Muscio's 40 cards"],
                 ["tarocchi", "Tarocchi Siciliani: suits, trumps 0–20, the Fuggitivo"]];
  const names = {};
  for (const [pack, title] of packs) {
    const heading = document.createElement("h2");
    heading.textContent = title;
    const sheet = document.createElement("div");
    sheet.className = "cards-sheet";
    sheet.dataset.pack = pack;
    const drawAs = pack === "muscio" ? "french" : pack;
    names[pack] = packCards(pack).map((id) => {
      const card = document.createElement("span");
      card.className = "pc";
      card.setAttribute("role", "img");
      card.setAttribute("aria-label", cardName(id, drawAs));
      card.append(cardSvg(id, drawAs));
      sheet.append(card);
      return cardName(id, drawAs);
    });
    main.append(heading, sheet);
  }
  const back = document.createElement("span");
  back.className = "pc";
  back.append(cardSvg(null));
  main.lastChild.append(back);
  return names;
}"""


def test_every_card_of_every_pack_is_drawn_with_its_own_name(page):
    page.goto("/rules/muscio/")
    names = page.evaluate(SHEET)
    assert [len(names[p]) for p in ("french", "muscio", "tarocchi")] == [53, 40, 63]
    for pack in names.values():
        assert len(set(pack)) == len(pack)
    assert {"10 of hearts", "Queen of spades", "Joker"} <= set(names["french"])
    assert {"Cavallo of cups", "Re of coins", "4 of coins", "trump XVII La Luna", "trump XX Giove",
            "trump 0 La Miseria", "Il Fuggitivo"} <= set(names["tarocchi"])
    assert page.locator(".cards-sheet svg").count() == 53 + 40 + 63 + 1
    # Trumps show their number; suit cards their rank.
    assert "XVII" in page.locator(".cards-sheet[data-pack=tarocchi] [aria-label='trump XVII La Luna']").inner_text()
    shot(page, "cards")


def _game(web_server: str, player: dict, kind: str, seats: int, options: dict, **extra) -> str:
    body = {"kind": kind, "options": options, "seats": [{"player": player["id"]}] + [{"bot": "random"}] * (seats - 1),
            **extra}
    response = httpx.post(f"{web_server}/api/v1/games/", json=body, timeout=30,
                          headers={"Authorization": f"Token {player['token']}"})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def test_a_move_is_played_with_the_keyboard_alone_against_the_clock(page, web_server):
    player = sign_in(page, "keys-ann")
    game = _game(web_server, player, "spite-and-malice", 2, {}, turn_seconds=600)
    page.goto(f"/games/{game}/")
    table = page.locator("#table[aria-busy=false]")
    first = table.locator("button.legal").first
    expect(first).to_be_visible()
    clock = page.locator(".seat-panel.mine .clock")
    expect(clock).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))  # the seat's turn clock, counting down
    version = int(page.locator("#table").get_attribute("data-version"))
    for _ in range(400):  # Tab through the page to the first highlighted card or button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('legal')"):
            break
    else:
        raise AssertionError("no legal move is reachable with Tab")
    page.keyboard.press("Enter")
    if page.locator("#table .legal.target").count():  # a card chosen: the focus moved to a place for it
        assert page.evaluate("document.activeElement.classList.contains('target')")
        page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.querySelector('#table').dataset.version) > {version}")


def test_the_table_fits_a_phone(phone_page, web_server):
    player = sign_in(phone_page, "phone-ann")
    game = _game(web_server, player, "tarocchi-mineo", 4, {"deals": 4})
    phone_page.goto(f"/games/{game}/")
    expect(phone_page.locator(".seat-panel.mine")).to_be_visible()
    expect(phone_page.locator("#table[aria-busy=false] .hand .pc").first).to_be_visible()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone_page, "phone-table")
