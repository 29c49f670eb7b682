"""What if a tournament were ranked under other settings (tournaments.whatif): under its own settings it
is exactly its standings; under others it is exactly what the standings become once the director makes
that change (then rebuilt); and asking writes nothing. Through the API and the settings page's preview."""

from __future__ import annotations

import contextlib
import itertools
import random
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from common.errors import Refused
from scoring.models import StoredEvent
from tests.tournaments.support import Club, club_with_players, finish_match, open_round, tournament
from tournaments import projections, selectors, services
from tournaments.models import Standings, Tournament
from tournaments.plan.standings import DEFAULT_PRECEDENCE
from tournaments.words import why_above

pytestmark = pytest.mark.django_db

ORDERS = [list(DEFAULT_PRECEDENCE), ["average_rank", "total", "lot"], ["tables_won", "best_result", "lot"]]


def league(club: Club, capture: Any, seed: int, rounds: int = 2) -> Tournament:
    """A Tarocchi league of the club's players, some rounds played to the end with random legal play."""
    t = tournament(club, name=f"Lega {seed}", seed=seed)  # its seating and lots drawn from the seed too
    for number in range(rounds):
        rnd = open_round(t, club.director)
        with capture(execute=True):
            for table in rnd.tables.select_related("match").order_by("number"):
                finish_match(table.match, seed=seed * 100 + number * 10 + table.number)
        t.refresh_from_db()
        services.round_close(
            tournament=t, round_number=rnd.number, expected_version=t.version, actor=club.director
        )
        t.refresh_from_db()
    projections.standings_rebuild(tournament_id=t.pk)
    return t


def stored_rows(t: Tournament) -> list[dict[str, Any]]:
    return list(Standings.objects.get(tournament=t).data["rows"])


def plain(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in ("rank_before", "moved")} for r in rows]


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


def test_under_its_own_settings_a_tournament_is_exactly_its_standings(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    t = league(club, django_capture_on_commit_callbacks, seed=1)

    report = selectors.standings_whatif(t, {})

    assert report["what_if"] is True and report["official"] is False
    assert plain(report["rows"]) == stored_rows(t)
    assert report["moved"] == 0 and not any(r["moved"] for r in report["rows"])


TAGS = itertools.count(1)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    phases=[Phase.generate],
)
@given(
    seed=st.integers(1, 10_000),
    order=st.sampled_from(ORDERS),
    scoring=st.sampled_from(["natural", "rank_points"]),
)
def test_under_other_settings_it_is_what_the_change_then_gives(
    django_capture_on_commit_callbacks: Any, seed: int, order: list[str], scoring: str
) -> None:
    club = club_with_players(10, tag=f"w{next(TAGS)}")  # 10 players at tables of 3: one sits out each round
    t = league(club, django_capture_on_commit_callbacks, seed=seed)
    changes = services.whatif_changes(t, {"tiebreaks": order, "scoring": scoring})
    events, stored = StoredEvent.objects.count(), stored_rows(t)
    before = {r["player"]: r["rank"] for r in stored}

    report = selectors.standings_whatif(t, changes)

    assert report == selectors.standings_whatif(t, changes, from_log=True)  # the stored sums, or the log's
    assert StoredEvent.objects.count() == events and stored_rows(t) == stored  # a read
    for row in report["rows"]:
        assert row["rank_before"] == before[row["player"]]
        assert row["moved"] == (row["rank"] != before[row["player"]])
    t.refresh_from_db()
    with contextlib.suppress(Refused):  # asked for the settings it has: nothing to change
        services.tournament_update(
            tournament=t, expected_version=t.version, actor=club.director, reason="test", **changes
        )
    projections.standings_rebuild(tournament_id=t.pk)
    assert plain(report["rows"]) == stored_rows(t)


def test_under_the_games_own_options_nothing_moves_and_no_table_is_refused(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    t = league(club, django_capture_on_commit_callbacks, seed=2)
    own = {"tarocchi": dict(t.game_options.get("tarocchi", {}))}

    report = selectors.standings_whatif(t, services.whatif_changes(t, {"game_options": own}))

    assert report["refused"] == [] and plain(report["rows"]) == stored_rows(t)


def test_the_api_answers_the_what_if_and_refuses_what_is_not_a_setting(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    t = league(club, django_capture_on_commit_callbacks, seed=3)
    client = Client()
    client.force_login(club.director)
    url = f"/api/tournaments/{t.pk}/standings/whatif/"
    events = StoredEvent.objects.count()

    answer = client.post(url, {"tiebreaks": ["average_rank", "lot"]}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["what_if"] is True and body["official"] is False
    assert body["precedence"] == ["average_rank", "lot"]
    assert StoredEvent.objects.count() == events

    refused = client.post(url, {"tiebreaks": ["no_such_metric"]}, content_type="application/json")
    assert refused.status_code == 400 and refused.json()["field"] == "tiebreaks"
    refused = client.post(url, {"name": "x"}, content_type="application/json")
    assert refused.status_code in (200, 400)  # an unknown field of the body is ignored by the serializer
    assert Client().post(url, {}, content_type="application/json").status_code == 404  # unpublished


def test_the_settings_page_previews_the_standings_and_saves_nothing(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    t = league(club, django_capture_on_commit_callbacks, seed=4)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(club.director)
    form = client.get(f"/tournaments/{t.pk}/settings/")
    assert form.status_code == 200
    data = {k: v for k, v in form.context["form"].initial.items() if v is not None}
    data["scorers"] = [u.pk for u in data["scorers"]]
    data.update(
        {
            "expected_version": t.version,
            "tiebreaks": ["average_rank", "total"],
            "preview": "1",
        }
    )
    version = t.version

    page = client.post(f"/tournaments/{t.pk}/settings/", data)

    assert page.status_code == 200, page.content.decode()[:3000]
    body = page.content.decode()
    assert "What if: not the official standings." in body
    report = selectors.standings_whatif(t, {"tiebreaks": ["average_rank", "total", "lot"]})
    assert body.count('class="moved"') == report["moved"]
    t.refresh_from_db()
    assert t.version == version


def test_a_random_precedence_reranks_like_rank_itself(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    t = league(club, django_capture_on_commit_callbacks, seed=5)
    rng = random.Random(5)
    keys = [k for k in DEFAULT_PRECEDENCE]
    rng.shuffle(keys)

    report = selectors.standings_whatif(t, {"tiebreaks": keys[:3]})

    assert report["precedence"] == [*keys[:3], "lot"]
    assert sorted(r["rank"] for r in report["rows"]) == list(range(1, 10))


def test_the_preview_marks_each_row_that_moves_with_its_new_reason_in_words(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    # The settings page's preview: every row that changes place is marked, with the sentence saying why
    # the row above it is above it under the new precedence (the what-if's why_above, in words).
    # A league that this precedence reorders: the first of a few seeds whose league it does (each league
    # is the same in every run: play, seating and lots all come from its seed), and one must.
    order = ["tables_won", "best_result"]
    for seed in range(4, 10):
        t = league(club, django_capture_on_commit_callbacks, seed=seed)
        report = selectors.standings_whatif(t, {"tiebreaks": [*order, "lot"]})
        if report["moved"] > 0:
            break
    assert report["moved"] > 0, "no league of seeds 4-9 is reordered by this precedence"
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(club.director)
    form = client.get(f"/tournaments/{t.pk}/settings/")
    data = {k: v for k, v in form.context["form"].initial.items() if v is not None}
    data["scorers"] = [u.pk for u in data["scorers"]]
    data.update({"expected_version": t.version, "tiebreaks": order, "preview": "1"})

    body = client.post(f"/tournaments/{t.pk}/settings/", data).content.decode()

    assert selectors.standings_whatif(t, {"tiebreaks": [*order, "lot"]}) == report  # the preview's data
    rows = report["rows"]
    marked = re.findall(r'<tr data-player="(\d+)"( class="moved")?>', body)
    assert [int(p) for p, _ in marked] == [r["player"] for r in rows]  # the new order
    assert [bool(m) for _, m in marked] == [r["moved"] for r in rows]
    with translation.override("it"):
        for i, row in enumerate(rows):
            if not row["moved"] or i == 0:
                continue
            said = escape(why_above(rows[i - 1]["name"], row["name"], row["why_above"]))
            reason = re.escape(said) + rf'</td></tr>\s*<tr data-player="{row["player"]}" class="moved">'
            assert re.search(reason, body), (row["name"], said)
