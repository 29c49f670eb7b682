"""Browser tests: Playwright driving Debian's chromium (no browser download), against pytest-django's live
server. Skipped, saying why, where chromium or Playwright is missing; `make test` and `.ci/run` install
both. Screenshots of each step go to ``e2e-artifacts/`` (kept by CI).

The pages run under the site's Content-Security-Policy, which refuses ``eval``: a predicate given to
``page.wait_for_function`` is written as a function (``"() => …"``), which Playwright does not eval, not
as a bare expression, which it does."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "e2e-artifacts"
PHONE = {"width": 390, "height": 844}

# Playwright's sync API runs an event loop in this thread; the tests' own ORM calls (the data they set
# up, then check) are plain synchronous calls made between browser steps, never from inside the loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM} (apt install chromium, or set CHROMIUM_PATH)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def measure(line: str) -> None:
    """A figure for the test log and for ``e2e-artifacts/measurements.txt`` (which CI prints)."""
    print(f"\n[e2e] {line}")
    ARTIFACTS.mkdir(exist_ok=True)
    with (ARTIFACTS / "measurements.txt").open("a", encoding="utf-8") as out:
        out.write(line + "\n")


@pytest.fixture
def signed_in(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """A page of a browser (phone-sized unless a viewport is given) signed in as the user given (None: a
    visitor); closed at the end of the test, so that its polling stops with the server."""
    contexts: list[Any] = []

    def page_for(user: Any, viewport: dict[str, int] = PHONE, **options: Any) -> Any:
        context = browser.new_context(viewport=viewport, base_url=live_server.url, **options)
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
            )
        contexts.append(context)
        return context.new_page()

    yield page_for
    for context in contexts:
        context.close()
