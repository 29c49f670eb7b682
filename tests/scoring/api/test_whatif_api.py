"""What if, through the API, the page and ``manage.py rescore``: the same comparison everywhere, labelled
as not official, and nothing written to the log."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from scoring import services
from scoring.hands.whatif import rescore
from scoring.models import Match, StoredEvent
from scoring.selectors import match_export, match_sheet
from tests.scoring.api_support import People, client_for

pytestmark = pytest.mark.django_db

PROJECT = Path(__file__).resolve().parents[3]
EXAMPLE = PROJECT / "docs" / "examples" / "tressette-hand.json"
URL = "/api/matches/{}/whatif/"


def hombre_match(people: People) -> Match:
    """A recorded Italian Hombre match of a few hands (fixed stake 1), imported from a random legal record."""
    import random

    from tests.scoring.hands.test_whatif import random_match

    return services.match_import(
        club=people.club, record=random_match("hombre_it", random.Random(5), 4, {}), actor=people.director
    )


def test_the_api_answers_the_comparison_and_writes_nothing(people: People) -> None:
    match = hombre_match(people)
    events, sheet = StoredEvent.objects.count(), match_sheet(match)

    answer = client_for(people.member).post(URL.format(match.pk), {"options": {"stake": 2}}, format="json")

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["what_if"] is True and body["official"] is False
    assert body == json.loads(json.dumps(rescore(match_export(match), {"stake": 2})))
    assert StoredEvent.objects.count() == events and match_sheet(match) == sheet


def test_the_api_refuses_options_that_are_not_the_games_naming_the_field(people: People) -> None:
    match = hombre_match(people)

    answer = client_for(people.member).post(URL.format(match.pk), {"options": {"no_such": 1}}, format="json")
    assert answer.status_code == 400
    assert answer.json()["field"].startswith("options.")
    answer = client_for(people.member).post(URL.format(match.pk), {"options": [1]}, format="json")
    assert answer.status_code == 400


def test_only_those_who_may_read_the_match_may_ask(people: People) -> None:
    match = hombre_match(people)
    assert client_for(None).post(URL.format(match.pk), {"options": {}}, format="json").status_code in (
        401,
        403,
        404,
    )
    assert client_for(people.outsider).post(
        URL.format(match.pk), {"options": {}}, format="json"
    ).status_code in (
        403,
        404,
    )


def test_the_compare_page_shows_the_differences_labelled_not_official(people: People) -> None:
    match = hombre_match(people)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.member)

    empty = client.get(f"/matches/{match.pk}/compare/")
    assert empty.status_code == 200
    page = client.get(f"/matches/{match.pk}/compare/", {"compare": "1", "opt_stake": "2"})

    assert page.status_code == 200
    body = page.content.decode()
    assert "non è il risultato ufficiale" in body
    report = rescore(match_export(match), {"stake": 2})
    changed = sum(
        a != b
        for r in report["hands"]
        for a, b in zip(r["recorded"]["scores"], r["what_if"]["scores"], strict=True)
    )
    assert changed > 0  # a stake of 2 doubles every score that is not 0
    assert body.count('class="changed"') == changed + sum(report["totals"]["differs"])
    sheet = client.get(f"/matches/{match.pk}/")
    assert f'href="/matches/{match.pk}/compare/"' in sheet.content.decode()


def test_the_command_prints_the_comparison_with_replays_exit_codes(tmp_path: Path) -> None:
    def rescore_command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", "rescore", *args],
            cwd=PROJECT,
            capture_output=True,
            text=True,
            timeout=120,
        )

    done = rescore_command(str(EXAMPLE), "--options", '{"rounding": "traditional"}')
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert printed["what_if"] is True and printed["official"] is False  # never taken for the sheet
    assert printed == rescore(json.loads(EXAMPLE.read_text()), {"rounding": "traditional"})

    assert rescore_command(str(EXAMPLE), "--options", "{not json").returncode == 2
    assert rescore_command(str(EXAMPLE), "--options", '{"no_such": 1}').returncode == 2
    broken = json.loads(EXAMPLE.read_text())
    broken["moves"][0]["card"] = broken["moves"][1]["card"]  # two seats play the same card
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken))
    assert rescore_command(str(bad), "--options", "{}").returncode == 3
