"""The tournament's log as a page (``/tournaments/{id}/events/``, which the README names): every decision
in order, what in the reader's words, who, when and why; read by whoever may read the tournament."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.page_support import browser, text
from tests.tournaments.support import Club, club_with_players, finish_match, open_round, tournament
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


@pytest.fixture
def played(club: Club, django_capture_on_commit_callbacks: Any) -> Tournament:
    t = tournament(club, name="Lega di prova")
    rnd = open_round(t, club.director)
    table = rnd.tables.select_related("match").order_by("number").first()
    assert table is not None
    with django_capture_on_commit_callbacks(execute=True):
        finish_match(table.match, seed=1)
    t.refresh_from_db()
    services.table_abandon(
        tournament=t,
        round_number=1,
        table_number=3,
        reason="the lights went out",
        expected_version=t.version,
        actor=club.director,
    )
    t.refresh_from_db()
    services.tournament_update(
        tournament=t,
        sit_out_score="2",
        reason="agreed by the players",
        expected_version=t.version,
        actor=club.director,
    )
    t.refresh_from_db()
    return t


def test_the_log_page_lists_every_decision_with_who_and_why(club: Club, played: Tournament) -> None:
    page = browser(club.director).get(f"/tournaments/{played.pk}/events/")

    assert page.status_code == 200
    shown = text(page)
    assert "Set up: Sicilian Tarocchi" in shown or "Set up:" in shown
    assert shown.count(" registered") == 9
    assert "Round 1 opened: 3 tables, 0 sitting out" in shown
    assert "Table 3 of round 1 abandoned the lights went out" in shown
    assert "Settings changed: score for a sit-out agreed by the players" in shown
    assert club.director.get_username() in shown
    rows = page.content.decode().count("<tr>")
    assert rows == 1 + played.version  # the header, then one row per event of the stream


def test_the_log_page_reads_in_the_readers_language(club: Club, played: Tournament) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(club.director)
    shown = text(client.get(f"/tournaments/{played.pk}/events/"))

    assert "Turno 1 aperto: 3 tavoli, 0 a riposo" in shown
    assert "Tavolo 3 del turno 1 abbandonato" in shown
    assert "Round 1 opened" not in shown


def test_the_log_page_is_read_only_by_those_who_may_read_the_tournament(
    club: Club, played: Tournament
) -> None:
    url = f"/tournaments/{played.pk}/events/"
    anonymous = browser(None).get(url)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]

    played.refresh_from_db()
    services.standings_publish(
        tournament=played, published=True, expected_version=played.version, actor=club.director
    )
    assert browser(None).get(url).status_code == 200


def test_the_tournament_page_links_its_log(club: Club, played: Tournament) -> None:
    page = browser(club.director).get(f"/tournaments/{played.pk}/")

    assert f'href="/tournaments/{played.pk}/events/"' in page.content.decode()


def test_every_page_names_its_icon_and_favicon_ico_leads_to_it(club: Club) -> None:
    page = browser(None).get("/")
    assert 'rel="icon"' in page.content.decode()
    icon = browser(None).get("/favicon.ico")
    assert icon.status_code == 301 and icon["Location"].endswith("/scoring/favicon.svg")
