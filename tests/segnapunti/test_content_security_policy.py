"""The Content-Security-Policy (issue 25, item 8): every answer carries it, and no template holds what it
forbids (an inline script or style, an event handler attribute), which the browser would refuse. The
browser tests (tests/e2e/test_content_security_policy.py) check that the pages report no violation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted(
    p for folder in ("templates", "scoring", "tournaments", "clubs") for p in (ROOT / folder).rglob("*.html")
)
FORBIDDEN = {
    "an inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE),
    "an inline style block": re.compile(r"<style\b", re.IGNORECASE),
    "a style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "an event handler attribute": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "a javascript: address": re.compile(r"javascript:", re.IGNORECASE),
}


def policy(response: object) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    return {d.split()[0]: d.split()[1:] for d in header.split("; ")}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/", "/accounts/login/", "/clubs/", "/tournaments/", "/no-such-page/", "/api/docs/", "/api/games/"],
)
def test_every_answer_carries_the_policy(path: str) -> None:
    response = Client().get(path)

    found = policy(response)
    assert found["script-src"] == ["'self'"] and found["style-src"] == ["'self'"]
    assert found["object-src"] == ["'none'"] and found["frame-ancestors"] == ["'none'"]
    assert found == settings.CONTENT_SECURITY_POLICY


@pytest.mark.django_db
def test_the_api_docs_take_their_script_from_a_file() -> None:
    page = Client().get("/api/docs/").content.decode()
    script = Client().get("/api/docs/?script=")

    assert 'src="/api/docs/?script=' in page
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")


def test_the_templates_hold_nothing_the_policy_refuses() -> None:
    assert TEMPLATES
    found = [
        f"{path.relative_to(ROOT)}: {what}"
        for path in TEMPLATES
        for what, pattern in FORBIDDEN.items()
        if pattern.search(path.read_text(encoding="utf-8"))
    ]

    assert found == []
