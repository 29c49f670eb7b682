"""Matches through the API: the games offered, creating a match (options checked against the game's
ruleset, seats, players, scorers), the match list and detail, and the OpenAPI schema."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Match
from scoring.rules import game_names, get_game
from tests.scoring.api_support import NAMES, People, client_for, create_match
from tests.scoring.factories import PlayerFactory

pytestmark = pytest.mark.django_db

GAMES = game_names()


def body(people: People, game: str, **extra: Any) -> dict[str, Any]:
    seats = get_game(game).seat_counts[0]
    return {"club": people.club.pk, "game": game, "seats": list(NAMES[:seats]), **extra}


def test_the_games_offered_are_the_registered_ones(people: People) -> None:
    games = client_for(None).get("/api/games/").json()

    assert [g["name"] for g in games] == GAMES
    for g in games:
        assert g["seat_counts"] == list(get_game(g["name"]).seat_counts)
        assert "strict" in {o["name"] for o in g["options"]}


@pytest.mark.parametrize("name", GAMES)
def test_a_director_opens_a_match_and_its_first_hand(people: People, director: APIClient, name: str) -> None:
    option = next(o for o in get_game(name).ruleset.options if o.name != "strict")
    value = option.choices[-1] if option.choices else option.default

    created = director.post(
        "/api/matches/",
        body(people, name, title="Tavolo 3", options={option.name: value}, dealer=1),
        format="json",
    )

    assert created.status_code == 201, created.json()
    data = created.json()
    assert (data["game"], data["title"], data["status"], data["published"]) == (
        name,
        "Tavolo 3",
        "open",
        False,
    )
    assert data["options"] == {option.name: value}
    assert [s["name"] for s in data["seats"]] == body(people, name)["seats"]
    assert data["hands"] == [
        {**data["hands"][0], "number": 1, "dealer": 1, "version": 1, "status": "in_play", "flagged": False}
    ]
    assert data["sheet"]["hands"] == [] and data["sheet"]["game"] == name
    assert director.get(f"/api/matches/{data['id']}/").json() == data
    started = director.get(f"/api/matches/{data['id']}/hands/1/audit/").json()
    assert [e["type"] for e in started] == ["HandStarted"] and started[0]["by"] == "diana"
    assert Match.objects.get(pk=data["id"]).created_by == people.director


@pytest.mark.parametrize(
    ("extra", "status", "code", "field"),
    [
        ({"options": {"no_such_option": 1}}, 400, "options.unknown", "no_such_option"),
        ({"options": {"strict": "yes"}}, 400, "options.invalid", "strict"),
        ({"game": "poker"}, 422, "game.unknown", "game"),
        ({"seats": ["A", "B"]}, 422, "seats.count", "seats"),
        ({"dealer": 9}, 422, "seat.unknown", "dealer"),
        ({"seats": [""]}, 400, "request.invalid", "seats.0"),
        ({"direction": "sideways"}, 400, "request.invalid", "direction"),
        ({"club": 999}, 422, "request.unknown_reference", "club"),
        ({"scorers": ["nobody"]}, 422, "request.unknown_reference", "scorers.0"),
    ],
)
def test_a_match_that_cannot_be_opened_is_refused_naming_the_field(
    people: People, director: APIClient, extra: dict[str, Any], status: int, code: str, field: str
) -> None:
    response = director.post("/api/matches/", {**body(people, GAMES[0]), **extra}, format="json")

    assert (response.status_code, response.json()["code"], response.json()["field"]) == (status, code, field)
    assert Match.objects.count() == 0


def test_a_seat_can_be_a_player_of_the_club_but_not_of_another(people: People, director: APIClient) -> None:
    anna = PlayerFactory(club=people.club, name="Anna Rossi")
    stranger = PlayerFactory(name="Forestiero")
    seats = get_game(GAMES[0]).seat_counts[0]

    ours = director.post(
        "/api/matches/", body(people, GAMES[0], seats=[{"player": anna.pk}, *NAMES[1:seats]]), format="json"
    )
    theirs = director.post(
        "/api/matches/",
        body(people, GAMES[0], seats=[{"player": stranger.pk}, *NAMES[1:seats]]),
        format="json",
    )

    assert ours.status_code == 201
    assert ours.json()["seats"][0] == {"seat": 0, "name": "Anna Rossi", "player": anna.pk}
    assert theirs.status_code == 422 and theirs.json()["code"] == "match.player"


def test_the_list_filters_by_club(people: People, director: APIClient) -> None:
    mine = create_match(director, people.club, GAMES[0])

    listed = director.get(f"/api/matches/?club={people.club.pk}").json()
    elsewhere = director.get(f"/api/matches/?club={people.club.pk + 1}").json()

    assert [m["id"] for m in listed] == [mine["id"]]
    assert elsewhere == []


def test_the_schema_documents_every_operation(people: People) -> None:
    response = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    paths = response.json()["paths"]
    expected = {
        "/api/matches/": {"get", "post"},
        "/api/matches/{match_id}/hands/{number}/moves/": {"post"},
        "/api/matches/{match_id}/hands/{number}/undo/": {"post"},
        "/api/matches/{match_id}/hands/{number}/replay/{step}/": {"get"},
        "/api/matches/{match_id}/hands/{number}/rulings/": {"get", "post"},
        "/api/matches/{match_id}/hands/{number}/rulings/preview/": {"post"},
        "/api/matches/{match_id}/sheet/": {"get"},
        "/api/records/import/": {"post"},
    }
    for path, methods in expected.items():
        assert methods <= set(paths[path]), path
    assert client_for(None).get("/api/docs/").status_code == 200
