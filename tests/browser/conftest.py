"""A real server and Debian's chromium driven by Playwright (never Playwright's own browsers: nothing is
downloaded). scripts/test installs chromium when it is missing; without it these tests skip (and fail
under CI=true).
Screenshots go to test-artifacts/screenshots (gitignored) for review. BROWSER_TEST_SERVER=http://host:port
runs the tests against a server already running (started from the same tree) instead of a new one."""
import os
from pathlib import Path

import pytest

from tests.debian import require
from tests.service.server import gunicorn

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
TIMEOUT_MS = 20_000  # every wait of a page, bounded (the machine may be loaded)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    if os.environ.get("BROWSER_TEST_SERVER"):
        yield os.environ["BROWSER_TEST_SERVER"].rstrip("/")
        return
    # One search per client, as a public deployment would set it: the page's retry after a 429 is tested.
    with gunicorn(tmp_path_factory.mktemp("browser"), MAX_SEARCHES_PER_CLIENT=1) as (base, _):
        yield base


@pytest.fixture(scope="session")
def browser():
    executable = require("chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server, request):
    """A fresh page on /play, ready (the games are loaded); its screenshot is saved after the test, and
    any script error on it fails the test."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/play")
    page.wait_for_selector("body[data-ready=true]")
    yield page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, errors
