"""The pages keep to the Content-Security-Policy in a real browser (issue 25, item 8): on the main pages
of the demo, read by a visitor and by the club's director, chromium reports no violation (neither an
event nor a console error), and what the moved scripts do still works (the score sheet's Print button)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from clubs.models import Club
from scoring.models import Hand
from tests.e2e.conftest import shot
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
# Each violation the page sees, kept on the window (an init script is not itself subject to the policy).
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
window.print = () => { window.__printed = true; };
"""


def watched(page: Any) -> list[str]:
    console: list[str] = []
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.add_init_script(LISTEN)
    return console


def test_the_main_pages_report_no_violation(signed_in: Callable[..., Any]) -> None:
    call_command("load_demo", verbosity=0)
    club = Club.objects.get()
    director = club.memberships.get(role="director").user
    flagged = Hand.objects.filter(flagged=True).select_related("match").first()
    assert flagged is not None
    t = Tournament.objects.get()
    table = f"/matches/{flagged.match_id}/hands/{flagged.number}/"
    public = [
        "/",
        "/accounts/login/",
        "/clubs/",
        "/tournaments/",
        f"/tournaments/{t.pk}/standings/",
        f"/tournaments/{t.pk}/live/",
        f"/players/{club.players.first().pk}/",  # type: ignore[union-attr]
        "/api/docs/",
    ]
    directed = [
        f"/clubs/{club.pk}/matches/",
        f"/clubs/{club.pk}/matches/new/?game=tarocchi",
        f"/clubs/{club.pk}/tournaments/new/",
        table,
        f"{table}replay/?step=6",
        f"{table}ruling/",
        f"/matches/{flagged.match_id}/",
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/settings/",
        f"/tournaments/{t.pk}/rounds/1/",
    ]
    found: dict[str, list[str]] = {}
    for user, paths in ((None, public), (director, directed)):
        page = signed_in(user, DESKTOP)
        console = watched(page)
        for path in paths:
            console.clear()
            page.goto(path)
            page.wait_for_load_state("networkidle")
            seen = page.evaluate("window.__csp") + console
            if seen:
                found[path] = seen
        shot(page, "csp-last-page")

    assert found == {}


def test_the_api_docs_render_under_the_policy(signed_in: Callable[..., Any]) -> None:
    page = signed_in(None, DESKTOP)
    console = watched(page)

    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)

    shot(page, "csp-api-docs")
    assert page.evaluate("window.__csp") + console == []


def test_the_score_sheets_print_button_still_prints(signed_in: Callable[..., Any]) -> None:
    call_command("load_demo", verbosity=0)
    match = Hand.objects.filter(flagged=True).first().match  # type: ignore[union-attr]
    page = signed_in(None, DESKTOP)
    watched(page)
    match.published = True
    match.save(update_fields=["published"])

    page.goto(f"/matches/{match.pk}/")
    page.click("button[data-print]")

    assert page.evaluate("window.__printed === true")
    assert page.evaluate("window.__csp") == []
