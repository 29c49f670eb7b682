"""Inputs that crashed or slipped through the tournament API (issue 25, item 7): a game's options that
are not an object, a boolean given as a number, a number past any sensible bound. Each is a 400 naming
the field, and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.rules.options import WHOLE_MAX
from tests.scoring.api_support import client_for
from tests.tournaments.support import Club, club_with_players
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(4)


def body(club: Club, **extra: Any) -> dict[str, Any]:
    return {"club": club.people.club.pk, "name": "Torneo", "games": ["tressette"], **extra}


def refused(response: Any, field: str) -> dict[str, Any]:
    assert response.status_code == 400, response.content[:300]
    error: dict[str, Any] = response.json()
    assert error["field"] is not None and error["field"].startswith(field), error
    return error


@pytest.mark.parametrize("options", [[1], "x", 7, 1.5, None, True, [], [{"target": 21}]])
def test_a_games_options_that_are_not_an_object_are_a_400_on_create(club: Club, options: Any) -> None:
    response = client_for(club.director).post(
        "/api/tournaments/", body(club, game_options={"tressette": options}), format="json"
    )

    refused(response, "game_options")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("options", [[1], "x", 7, None])
def test_a_games_options_that_are_not_an_object_are_a_400_on_update(club: Club, options: Any) -> None:
    director = client_for(club.director)
    t = director.post("/api/tournaments/", body(club), format="json").json()

    response = director.patch(
        f"/api/tournaments/{t['id']}/",
        {"game_options": {"tressette": options}, "expected_version": t["version"]},
        format="json",
    )

    refused(response, "game_options")
    assert Tournament.objects.get().version == t["version"]


@pytest.mark.parametrize("value", [0, 1, "true", "false", "yes", "on", "", None])
def test_published_takes_only_true_or_false(club: Club, value: Any) -> None:
    response = client_for(club.director).post("/api/tournaments/", body(club, published=value), format="json")

    refused(response, "published")


def test_published_false_and_true_still_work(club: Club) -> None:
    director = client_for(club.director)
    for value in (False, True):
        response = director.post("/api/tournaments/", body(club, published=value), format="json")
        assert response.status_code == 201 and response.json()["published"] is value


@pytest.mark.parametrize("path", ["/api/tournaments/{id}/publish/", "/api/tournaments/{id}/registrations/"])
def test_the_other_booleans_are_strict_too(club: Club, path: str) -> None:
    director = client_for(club.director)
    t = director.post("/api/tournaments/", body(club), format="json").json()
    extra = {"published": 1} if "publish" in path else {"player": club.players[0].pk, "guest": 0}

    response = director.post(
        path.format(id=t["id"]), {"expected_version": t["version"], **extra}, format="json"
    )

    refused(response, next(iter(k for k in extra if k != "player")))


def test_a_match_too_takes_published_only_as_a_boolean(club: Club) -> None:
    response = client_for(club.director).post(
        "/api/matches/",
        {"club": club.people.club.pk, "game": "tressette", "seats": ["A", "B", "C", "D"], "published": 0},
        format="json",
    )

    refused(response, "published")


@pytest.mark.parametrize("target", [10**30, 2**63, WHOLE_MAX + 1])
def test_a_target_past_the_bound_is_a_400_naming_it(club: Club, target: int) -> None:
    response = client_for(club.director).post(
        "/api/tournaments/", body(club, game_options={"tressette": {"target": target}}), format="json"
    )

    error = refused(response, "game_options.tressette")
    assert str(WHOLE_MAX) in error["message"] and "target" in error["message"]
    assert not Tournament.objects.exists()


def test_a_target_at_the_bound_is_taken(club: Club) -> None:
    response = client_for(club.director).post(
        "/api/tournaments/", body(club, game_options={"tressette": {"target": WHOLE_MAX}}), format="json"
    )

    assert response.status_code == 201, response.json()


def test_a_match_with_a_huge_option_is_a_400(club: Club) -> None:
    response = client_for(club.director).post(
        "/api/matches/",
        {
            "club": club.people.club.pk,
            "game": "tressette",
            "seats": ["A", "B", "C", "D"],
            "options": {"target": 10**30},
        },
        format="json",
    )

    refused(response, "target")


def test_an_anonymous_client_is_still_refused_first() -> None:
    assert APIClient().post("/api/tournaments/", {}, format="json").status_code == 401
