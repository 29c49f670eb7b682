"""Who may do what, through the API, with personas: a director of the club (everything), a scorer
assigned to the match (moves and undo), a scorer of the club who is not assigned, a member (reads), an
outsider (signed in, no role at the club) and an anonymous visitor (published matches only)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Match, StoredEvent
from scoring.permissions import can_read
from scoring.rules import game_names, get_game
from scoring.selectors import match_list
from tests.scoring.api_support import (
    People,
    Role,
    client_for,
    create_match,
    hand_of,
    hand_url,
    open_match,
    play,
    post_move,
    post_ruling,
    post_undo,
    record,
    ruling_body,
)
from tests.scoring.factories import ClubFactory, member

pytestmark = pytest.mark.django_db

GAME = game_names()[0]
SEATS = get_game(GAME).seat_counts[0]
PERSONAS = ("director", "scorer", "other_scorer", "member", "outsider", "anonymous")


def as_(people: People, persona: str) -> APIClient:
    return client_for(None if persona == "anonymous" else getattr(people, persona))


@pytest.fixture
def match(people: People) -> dict[str, Any]:
    """An unpublished match with its scorer assigned and the deal recorded."""
    match, hand = open_match(people, GAME)
    record(client_for(people.director), match["id"], 1, play(hand, seed=1).moves[:1], hand.version)
    return match


def next_move(match: dict[str, Any]) -> tuple[Any, int]:
    hand = hand_of(match)
    return play(hand, seed=1).moves[1], hand.version


@pytest.mark.parametrize(
    ("persona", "status"),
    [
        ("director", 201),
        ("scorer", 201),
        ("other_scorer", 403),
        ("member", 403),
        ("outsider", 404),
        ("anonymous", 401),
    ],
)
def test_who_may_record_a_move(people: People, match: dict[str, Any], persona: str, status: int) -> None:
    move, version = next_move(match)
    count = StoredEvent.objects.count()

    response = post_move(as_(people, persona), match["id"], 1, move, version)

    assert response.status_code == status
    assert StoredEvent.objects.count() == count + (status == 201)
    if status != 201:
        assert set(response.json()) >= {"code", "message", "field"}


@pytest.mark.parametrize(
    ("persona", "status"),
    [("director", 201), ("scorer", 403), ("other_scorer", 403), ("member", 403), ("anonymous", 401)],
)
def test_only_a_director_rules(people: People, match: dict[str, Any], persona: str, status: int) -> None:
    version = hand_of(match).version
    body = ruling_body(version, [version], {"kind": "stands"}, rule="deal", reason="the deal was checked")
    client = as_(people, persona)

    preview = post_ruling(client, match["id"], 1, body, preview=True)
    ruled = post_ruling(client, match["id"], 1, body)

    assert preview.status_code == (200 if status == 201 else status)
    assert ruled.status_code == status


@pytest.mark.parametrize(
    ("persona", "status"),
    [("director", 201), ("scorer", 201), ("other_scorer", 403), ("member", 403), ("anonymous", 401)],
)
def test_who_may_undo(people: People, match: dict[str, Any], persona: str, status: int) -> None:
    move, version = next_move(match)
    client = as_(people, persona)
    # The move is recorded by the persona when he may, by the scorer otherwise.
    author = client if status == 201 else client_for(people.scorer)
    assert post_move(author, match["id"], 1, move, version).status_code == 201

    response = post_undo(client, match["id"], 1, version + 1)

    assert response.status_code == status


@pytest.mark.parametrize(
    ("persona", "status"),
    [("director", 201), ("scorer", 201), ("other_scorer", 403), ("member", 403), ("anonymous", 401)],
)
def test_who_may_start_the_next_hand(people: People, persona: str, status: int) -> None:
    match, hand = open_match(people, GAME)
    record(client_for(people.director), match["id"], 1, play(hand, seed=1).moves, hand.version)

    response = as_(people, persona).post(f"/api/matches/{match['id']}/hands/", {}, format="json")

    assert response.status_code == status


READS = [
    "",
    "sheet/",
    "record/",
    "hands/",
    "hands/1/",
    "hands/1/replay/1/",
    "hands/1/audit/",
    "hands/1/record/",
]


@pytest.mark.parametrize(
    ("persona", "status"),
    [
        ("director", 200),
        ("scorer", 200),
        ("other_scorer", 200),
        ("member", 200),
        ("outsider", 404),
        ("anonymous", 404),
    ],
)
def test_an_unpublished_match_is_read_by_the_club_only(
    people: People, match: dict[str, Any], persona: str, status: int
) -> None:
    client = as_(people, persona)

    codes = {path: client.get(f"/api/matches/{match['id']}/{path}").status_code for path in READS}

    assert codes == dict.fromkeys(READS, status)


@pytest.mark.parametrize("persona", ["outsider", "anonymous"])
def test_a_published_match_is_read_by_anyone_but_not_changed(
    people: People, match: dict[str, Any], persona: str
) -> None:
    Match.objects.filter(pk=match["id"]).update(published=True)
    client = as_(people, persona)
    move, version = next_move(match)

    codes = {path: client.get(f"/api/matches/{match['id']}/{path}").status_code for path in READS}
    write = post_move(client, match["id"], 1, move, version)

    assert codes == dict.fromkeys(READS, 200)
    assert write.status_code == (401 if persona == "anonymous" else 403)


def test_the_match_list_shows_each_persona_what_he_may_read(people: People) -> None:
    director = client_for(people.director)
    private = create_match(director, people.club, GAME)
    public = create_match(director, people.club, GAME, published=True)
    other_club = make_other_club_match()

    for persona in PERSONAS:
        listed = {m["id"] for m in as_(people, persona).get("/api/matches/").json()}
        user = None if persona == "anonymous" else getattr(people, persona)
        readable = {m.pk for m in Match.objects.all() if can_read(user, m)}
        assert listed == readable, persona
        assert {m.pk for m in match_list(user=user)} == readable
    assert {m["id"] for m in as_(people, "member").get("/api/matches/").json()} == {
        private["id"],
        public["id"],
    }
    assert {m["id"] for m in as_(people, "anonymous").get("/api/matches/").json()} == {public["id"]}
    assert other_club not in {m["id"] for m in as_(people, "member").get("/api/matches/").json()}


def make_other_club_match() -> int:
    club = ClubFactory()
    director = member(club, Role.DIRECTOR, username="altro")
    return create_match(client_for(director), club, GAME)["id"]


@pytest.mark.parametrize(
    ("persona", "status"),
    [
        ("director", 201),
        ("scorer", 201),
        ("other_scorer", 201),
        ("member", 403),
        ("outsider", 403),
        ("anonymous", 401),
    ],
)
def test_who_may_create_a_match(people: People, persona: str, status: int) -> None:
    body = {"club": people.club.pk, "game": GAME, "seats": ["A", "B", "C", "D"][:SEATS]}

    response = as_(people, persona).post("/api/matches/", body, format="json")

    assert response.status_code == status
    if persona.endswith("scorer"):
        # A scorer who opens a table is assigned to it, and so may record there.
        assert response.json()["scorers"] == [getattr(people, persona).username]


@pytest.mark.parametrize(
    ("persona", "status"),
    [("director", 201), ("scorer", 403), ("member", 403), ("outsider", 403), ("anonymous", 401)],
)
def test_only_a_director_imports_a_record(
    people: People, match: dict[str, Any], persona: str, status: int
) -> None:
    record_ = client_for(people.director).get(f"/api/matches/{match['id']}/record/").json()

    response = as_(people, persona).post(
        "/api/records/import/", {"club": people.club.pk, "record": record_}, format="json"
    )

    assert response.status_code == status


def test_a_match_is_assigned_only_the_clubs_scorers(people: People) -> None:
    response = client_for(people.director).post(
        "/api/matches/",
        {
            "club": people.club.pk,
            "game": GAME,
            "seats": ["A", "B", "C", "D"][:SEATS],
            "scorers": ["mario"],
        },
        format="json",
    )

    assert response.status_code == 422
    assert (response.json()["code"], response.json()["field"]) == ("match.scorer", "scorers")


def test_a_bad_token_is_refused_and_session_login_works(people: People, match: dict[str, Any]) -> None:
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    session = APIClient()
    session.force_login(people.member)

    assert bad.get(f"/api/matches/{match['id']}/").status_code == 401
    assert session.get(f"/api/matches/{match['id']}/").status_code == 200


def test_a_token_is_obtained_with_a_username_and_password(people: People) -> None:
    people.member.set_password("segreto-di-mario")
    people.member.save()

    response = APIClient().post("/api/auth/token/", {"username": "mario", "password": "segreto-di-mario"})

    assert response.status_code == 200
    token = response.json()["token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/matches/").status_code == 200


def test_permission_is_checked_before_the_body(people: People, match: dict[str, Any]) -> None:
    url = hand_url(match["id"], 1, "moves/")

    member = as_(people, "member").post(url, {"move": "nonsense"}, format="json")
    outsider = as_(people, "outsider").post(url, {"move": "nonsense"}, format="json")

    assert (member.status_code, outsider.status_code) == (403, 404)


@pytest.mark.parametrize(
    ("persona", "status"),
    [("director", 200), ("scorer", 403), ("member", 403), ("outsider", 404), ("anonymous", 401)],
)
def test_only_a_director_publishes_a_match_or_assigns_its_scorers(
    people: People, match: dict[str, Any], persona: str, status: int
) -> None:
    url = f"/api/matches/{match['id']}/"

    response = as_(people, persona).patch(url, {"published": True, "scorers": ["otto"]}, format="json")

    assert response.status_code == status
    if status == 200:
        assert response.json()["published"] is True and response.json()["scorers"] == ["otto"]
        assert client_for(None).get(url).status_code == 200
        move, version = next_move(match)
        assert post_move(as_(people, "other_scorer"), match["id"], 1, move, version).status_code == 201
        assert post_move(as_(people, "scorer"), match["id"], 1, move, version + 1).status_code == 403
    else:
        assert Match.objects.get(pk=match["id"]).published is False
