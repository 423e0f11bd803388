"""The frame every page shares: sign in with the API's own registration, the token kept in the browser only,
sign out; every asset comes from the site itself; the rules pages render the project's rules documents."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import expect_console_error, shot, sign_in

pytestmark = pytest.mark.browser


def test_sign_in_keeps_the_token_in_the_browser_and_sign_out_forgets_it(page):
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    player = sign_in(page, "frame-ann")
    assert player["name"] == "frame-ann" and len(player["token"]) >= 20
    assert page.locator("#session-name").inner_text() == "frame-ann"
    page.goto("/")
    assert page.locator("#session-name").inner_text() == "frame-ann"
    page.get_by_role("button", name="Sign out").click()
    assert page.evaluate("localStorage.getItem('tavolo.player')") is None
    assert page.get_by_role("link", name="Sign in").is_visible()
    origin = urlparse(page.url).netloc
    assert all(urlparse(url).netloc == origin for url in requested if url.startswith("http")), requested
    assert not any(player["token"] in url for url in requested), "the token went into a URL"


def test_a_taken_name_is_refused_with_the_servers_message(page, console):
    expect_console_error(console, r"status of 4\d\d")
    sign_in(page, "frame-bob")
    page.get_by_role("button", name="Sign out").click()
    page.goto("/signin/")
    page.get_by_label("Player name").fill("frame-bob")
    page.get_by_role("button", name="Register and sign in").click()
    expect(page.locator("#signin-error")).to_have_text("the name 'frame-bob' is taken")
    assert page.evaluate("localStorage.getItem('tavolo.player')") is None
    shot(page, "signin-error")


@pytest.mark.parametrize("kind", ["spite-and-malice", "diavoletto", "tarocchi-mineo", "machiavelli", "muscio"])
def test_the_rules_page_renders_the_rules_document(page, kind):
    page.goto(f"/rules/{kind}/")
    heading = page.locator("article h1").first.inner_text()
    assert heading.strip()
    assert page.locator("article p").count() > 3
    if kind == "muscio":
        shot(page, "rules-muscio")
