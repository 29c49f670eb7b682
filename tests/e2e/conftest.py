"""Browser tests: Playwright driving Debian's chromium (no browser download), against pytest-django's live
server. Skipped, saying why, where chromium or Playwright is missing; `make test` and `.ci/run` install
both. Screenshots of each step go to ``e2e-artifacts/`` (kept by CI)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
