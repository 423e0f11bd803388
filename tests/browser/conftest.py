"""Browser tests: Debian's Chromium, driven by Playwright for Python, against a live server on the embedded
default (a SQLite file, the in-process worker): what a person gets after the README's first command.

Every page a test opens fails the test if it logged a console error or an uncaught exception, unless the test
declared that error expected (`expect_console_error`). Screenshots go to docs/screenshots/ (README)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from tests.conftest import missing
from tests.integration import live

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: Flags a headless Chromium needs here: no sandbox (root), and no calls home, which a closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


@pytest.fixture(scope="session")
def web_server(tmp_path_factory) -> Iterator[str]:
    """The site's origin, e.g. http://127.0.0.1:8123, served by `manage.py serve` on a fresh SQLite file."""
    db = tmp_path_factory.mktemp("web") / "tavolo.sqlite3"
    with live.server({"DATABASE_URL": f"sqlite:///{db}"}) as base:
        yield base.removesuffix("/api/v1")


@pytest.fixture(scope="module")
def chromium():
    """One Chromium per test module: Playwright's sync API keeps an event loop running in this thread while it
    is open, which would make every later `asyncio.run` in the session fail."""
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if not executable:
        missing("Debian's Chromium (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright for Python (pip install -e '.[test]')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class ConsoleWatch:
    """Console errors and uncaught exceptions of one browser context, minus those a test said to expect."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[re.Pattern] = []

    def record(self, text: str) -> None:
        if not any(pattern.search(text) for pattern in self.expected):
            self.errors.append(text)


@pytest.fixture
def console() -> ConsoleWatch:
    return ConsoleWatch()


def _context(chromium, web_server, console: ConsoleWatch, viewport: dict):
    context = chromium.new_context(base_url=web_server, viewport=viewport)
    context.set_default_timeout(15_000)

    def watch(page) -> None:
        page.on("console", lambda message: console.record(f"{page.url}: {message.text}")
                if message.type == "error" else None)
        page.on("pageerror", lambda error: console.record(f"{page.url}: uncaught {error}"))

    context.on("page", watch)
    return context


@pytest.fixture
def browser_context(chromium, web_server, console):
    context = _context(chromium, web_server, console, DESKTOP)
    yield context
    context.close()
    assert not console.errors, "console errors:\n" + "\n".join(console.errors)


@pytest.fixture
def page(browser_context):
    return browser_context.new_page()


@pytest.fixture
def phone_page(chromium, web_server, console):
    context = _context(chromium, web_server, console, PHONE)
    yield context.new_page()
    context.close()
    assert not console.errors, "console errors:\n" + "\n".join(console.errors)


def expect_console_error(console: ConsoleWatch, pattern: str) -> None:
    """Declare an error the page is expected to log (e.g. the 422 of a refused move, logged by Chromium)."""
    console.expected.append(re.compile(pattern))


def shot(page, name: str) -> Path:
    """Save a full-page screenshot as docs/screenshots/<name>.png (the README shows some of them)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def register(web_server: str, name: str) -> dict:
    """A player registered through the API (for the other side of a test): {id, name, token}."""
    response = httpx.post(f"{web_server}/api/v1/players/", json={"name": name}, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def sign_in(page, name: str, then: str = "/") -> dict:
    """Register `name` through the sign-in page, as a person does, landing on `then`; returns the stored player."""
    page.goto(f"/signin/?next={then}")
    page.get_by_label("Player name").fill(name)
    page.get_by_role("button", name="Register and sign in").click()
    page.wait_for_url(lambda url: urlparse(url).path == urlparse(then).path)
    return page.evaluate("JSON.parse(localStorage.getItem('tavolo.player'))")
