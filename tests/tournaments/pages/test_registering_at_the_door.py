"""Registering at the door: several members ticked and registered in one submit, and a guest from
another club typed in with his club, the club created when it is new (found again whatever the
capitals)."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club as ClubRow
from clubs.models import Player
from scoring.models import StoredEvent
from tests.scoring.factories import ClubFactory, PlayerFactory
from tests.tournaments.page_support import browser, follow, text
from tests.tournaments.support import Club, club_with_players
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


@pytest.fixture
def director(club: Club) -> Client:
    return browser(club.director)


@pytest.fixture
def empty(club: Club) -> Tournament:
    return services.tournament_create(
        club=club.people.club, name="Torneo", games=["tarocchi"], actor=club.director
    )


def version(t: Tournament) -> int:
    t.refresh_from_db()
    return t.version


def registered(t: Tournament) -> set[str]:
    return set(Registration.objects.filter(tournament=t).values_list("player__name", flat=True))


def test_nine_members_ticked_are_registered_in_one_submit(
    club: Club, director: Client, empty: Tournament
) -> None:
    page = director.get(f"/tournaments/{empty.pk}/").content.decode()
    assert page.count('type="checkbox" name="player"') == 9

    answer = director.post(
        f"/tournaments/{empty.pk}/registrations/",
        {"expected_version": version(empty), "player": [p.pk for p in club.players]},
    )

    assert registered(empty) == {p.name for p in club.players}
    assert "9 players registered" in text(follow(director, answer))
    assert StoredEvent.objects.filter(stream_id=empty.stream_id, event_type="PlayerRegistered").count() == 9


def test_one_member_who_cannot_be_registered_keeps_out_all_and_is_named(
    club: Club, director: Client, empty: Tournament
) -> None:
    anna, bruno = club.players[:2]
    services.player_register(tournament=empty, player=anna, expected_version=version(empty), actor=None)
    before = StoredEvent.objects.count()

    answer = director.post(
        f"/tournaments/{empty.pk}/registrations/",
        {"expected_version": version(empty), "player": [bruno.pk, anna.pk]},
    )

    assert answer.status_code == 422 and "Anna is already registered" in text(answer)
    assert registered(empty) == {"Anna"} and StoredEvent.objects.count() == before


def test_nothing_ticked_is_refused_on_the_list(director: Client, empty: Tournament) -> None:
    answer = director.post(f"/tournaments/{empty.pk}/registrations/", {"expected_version": version(empty)})

    assert answer.status_code == 400 and registered(empty) == set()


def test_a_guest_of_a_new_club_is_registered_and_his_club_created(
    director: Client, empty: Tournament
) -> None:
    answer = director.post(
        f"/tournaments/{empty.pk}/registrations/new-guest/",
        {
            "newguest-expected_version": version(empty),
            "newguest-name": "Ospite",
            "newguest-club": "Circolo Nuovo",
        },
    )

    assert "Ospite of Circolo Nuovo registered as a guest" in text(follow(director, answer))
    row = Registration.objects.get(tournament=empty, player__name="Ospite")
    assert row.guest and row.player.club.name == "Circolo Nuovo"


def test_a_known_club_and_player_are_found_again_whatever_the_capitals(
    director: Client, empty: Tournament
) -> None:
    other = ClubFactory(name="Circolo del Ponte")
    known = PlayerFactory(club=other, name="Marco Rossi")
    clubs_before = ClubRow.objects.count()

    director.post(
        f"/tournaments/{empty.pk}/registrations/new-guest/",
        {
            "newguest-expected_version": version(empty),
            "newguest-name": "marco  ROSSI",
            "newguest-club": "circolo DEL ponte",
        },
    )

    assert ClubRow.objects.count() == clubs_before
    assert Registration.objects.filter(tournament=empty, player=known, guest=True).exists()
    assert Player.objects.filter(club=other).count() == 1


def test_a_guest_of_the_tournament_s_own_club_is_refused_on_the_club_field(
    club: Club, director: Client, empty: Tournament
) -> None:
    answer = director.post(
        f"/tournaments/{empty.pk}/registrations/new-guest/",
        {
            "newguest-expected_version": version(empty),
            "newguest-name": "Zeno",
            "newguest-club": club.people.club.name.upper(),
        },
    )

    assert answer.status_code == 422 and "register Zeno as a member" in text(answer)
    assert not Player.objects.filter(name="Zeno").exists()


def test_only_a_director_registers_a_guest(club: Club, empty: Tournament) -> None:
    answer = browser(club.people.member).post(
        f"/tournaments/{empty.pk}/registrations/new-guest/",
        {"newguest-expected_version": version(empty), "newguest-name": "X", "newguest-club": "Y"},
    )

    assert answer.status_code in (302, 403) and not ClubRow.objects.filter(name="Y").exists()
