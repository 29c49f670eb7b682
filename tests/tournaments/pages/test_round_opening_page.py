"""The director's wait for a round's seating: with a worker, a round whose seating is not planned yet is
planned and opened by the worker while a page says so and looks again; it lands on the round once open,
or says why it did not open."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.tournaments.page_support import browser
from tests.tournaments.support import Club, club_with_players, open_round, tournament
from tournaments import tasks
from tournaments.models import KeptSeating, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


@pytest.fixture
def director(club: Club) -> Client:
    return browser(club.director)


def test_with_a_worker_an_unplanned_round_is_opened_by_it_while_a_page_waits(
    club: Club, director: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = tournament(club)
    # The page queues as with a worker (the test's Celery still runs the task at once).
    monkeypatch.setattr(tasks, "in_process", lambda: False)

    posted = director.post(f"/tournaments/{t.pk}/rounds/", {"expected_version": t.version, "game": ""})

    assert posted.status_code == 302 and posted["Location"] == f"/tournaments/{t.pk}/rounds/opening/"
    waited = director.get(posted["Location"])
    assert waited.status_code == 302 and waited["Location"] == f"/tournaments/{t.pk}/rounds/1/"


def test_the_waiting_page_says_it_is_planning_and_looks_again(club: Club, director: Client) -> None:
    t = tournament(club)
    KeptSeating.objects.create(tournament=t, status=KeptSeating.Status.PLANNING, opening=1)

    page = director.get(f"/tournaments/{t.pk}/rounds/opening/")

    text = page.content.decode()
    assert page.status_code == 200
    assert "Planning the seating of 9 players" in text
    assert '<meta http-equiv="refresh" content="2">' in text


def test_a_planning_that_failed_or_was_lost_is_said_and_the_page_stops_looking(
    club: Club, director: Client
) -> None:
    t: Tournament = tournament(club)
    kept = KeptSeating.objects.create(
        tournament=t, status=KeptSeating.Status.FAILED, opening=1, message="Nessun tavolo possibile."
    )
    page = director.get(f"/tournaments/{t.pk}/rounds/opening/").content.decode()
    assert "Nessun tavolo possibile." in page and "http-equiv" not in page

    kept.status = KeptSeating.Status.PLANNING
    kept.updated_at = timezone.now() - timedelta(minutes=5)
    kept.save()
    page = director.get(f"/tournaments/{t.pk}/rounds/opening/").content.decode()
    assert "the worker did not answer" in page and "http-equiv" not in page


def test_only_a_director_waits_on_the_opening_page(club: Club) -> None:
    t = tournament(club)

    page = browser(club.people.member).get(f"/tournaments/{t.pk}/rounds/opening/")

    assert page.status_code in (302, 403)


def test_the_round_page_words_the_repeats_as_the_round_s_own(club: Club, director: Client) -> None:
    t = tournament(club)
    rnd = open_round(t, club.director)
    Round.objects.filter(pk=rnd.pk).update(repeats=2)

    page = director.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()

    assert "this round repeats 2 meetings that could not be avoided" in page
    assert "it could not avoid" not in page
