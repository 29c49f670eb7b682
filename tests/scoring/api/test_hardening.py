"""Inputs that used to crash a request, limits, throttles and roles (issue 13): each answered with the
API's error body naming the field, and nothing written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.db import OperationalError
from django.test import Client, RequestFactory
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from clubs.models import Player
from common.converters import ID_MAX
from scoring import selectors
from scoring.models import Match, MatchSeat, StoredEvent
from scoring.rules import game_names, get_game, move_to_dict
from segnapunti.error_views import server_error
from tests.scoring.api_support import (
    People,
    client_for,
    create_match,
    hand_of,
    hand_url,
    open_match,
    play,
    post_ruling,
    record,
    ruling_body,
)

pytestmark = pytest.mark.django_db

GAME = game_names()[0]
SEATS = get_game(GAME).seat_counts[0]
DEEP = "[" * 50_000 + "]" * 50_000


@pytest.fixture(autouse=True)
def fresh_throttles() -> Iterator[None]:
    """Throttle counts live in the cache: start and leave it empty, so no other test is slowed."""
    cache.clear()
    yield
    cache.clear()


def events() -> int:
    return StoredEvent.objects.count()


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert set(body) >= {"code", "message", "field"}
    return body


def seats(n: int = SEATS) -> list[str]:
    return [f"Giocatore {i}" for i in range(n)]


def finished_hand(people: People) -> tuple[dict[str, Any], int]:
    match, hand = open_match(people, GAME)
    version = record(client_for(people.director), match["id"], 1, play(hand, seed=3).moves, hand.version)
    return match, version


# ---- bodies that cannot be read -------------------------------------------------------------------------
def test_json_nested_fifty_thousand_levels_is_a_400_on_the_token_endpoint() -> None:
    response = APIClient().post("/api/auth/token/", DEEP, content_type="application/json")

    body = error_of(response, 400)
    assert "nested" in body["message"]


def test_json_nested_fifty_thousand_levels_is_a_400_on_a_write(people: People) -> None:
    before = events()
    response = client_for(people.director).post("/api/matches/", DEEP, content_type="application/json")

    assert "nested" in error_of(response, 400)["message"]
    assert events() == before


def test_json_nested_too_deep_in_the_table_page_form_is_a_form_error(people: People) -> None:
    match, hand = open_match(people, GAME)
    browser = Client()
    browser.force_login(people.director)

    response = browser.post(
        f"/matches/{match['id']}/hands/1/move/",
        {"move_json": "[" * 5000 + "]" * 5000, "expected_version": hand.version},
    )

    assert response.status_code == 302  # back to the table, which says why
    assert b"nested" in browser.get(response["Location"]).content
    assert hand_of(match).version == hand.version


def test_a_number_too_large_in_a_ruling_is_a_400_and_nothing_is_written(people: People) -> None:
    match, version = finished_hand(people)
    before = events()
    zeros = ", 0" * (SEATS - 1)
    raw = (
        f'{{"expected_version": {version}, "refs": [2], "rule": "revoke", "reason": "seen",'
        f' "rectification": {{"kind": "penalty", "scores": [1e400{zeros}]}}}}'
    )

    response = client_for(people.director).post(
        hand_url(match["id"], 1, "rulings/"), raw, content_type="application/json"
    )

    assert "too large" in error_of(response, 400)["message"]
    assert events() == before


def test_a_refused_choice_with_a_nul_in_it_is_quoted_without_the_nul(people: People) -> None:
    """A filter's value that is no choice is quoted back in the message: not its NUL (found by the
    schema fuzzing: the messages are declared free of NULs)."""
    response = client_for(people.director).get("/api/tournaments/", {"kind": "lea\x00gue"})

    body = error_of(response, 400)
    assert body["field"] == "kind"
    assert "\x00" not in json.dumps(body, ensure_ascii=False)
    assert "lea\ufffdgue" in body["message"]


@pytest.mark.parametrize("where", ["seat", "reason"])
def test_the_nul_character_is_refused_wherever_it_is(people: People, where: str) -> None:
    client = client_for(people.director)
    before = events()
    if where == "seat":
        response = client.post(
            "/api/matches/",
            {"club": people.club.pk, "game": GAME, "seats": ["Ada\x00", *seats(SEATS - 1)]},
            format="json",
        )
    else:
        match, version = finished_hand(people)
        before = events()
        body = ruling_body(version, [2], {"kind": "stands"}, reason="seen\x00by all")
        response = post_ruling(client, match["id"], 1, body)

    assert "NUL" in error_of(response, 400)["message"]
    assert events() == before


# ---- fields out of bounds -----------------------------------------------------------------------------
def test_an_idempotency_key_header_over_200_characters_is_refused(people: People) -> None:
    match, hand = open_match(people, GAME)
    deal = play(hand, seed=1).moves[0]

    response = client_for(people.director).post(
        hand_url(match["id"], 1, "moves/"),
        {"expected_version": hand.version, "move": move_to_dict(deal)},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 201,
    )

    assert error_of(response, 400)["field"] == "idempotency_key"
    assert hand_of(match).version == hand.version


def test_a_seat_name_over_120_characters_is_refused_naming_the_seat(people: People) -> None:
    response = client_for(people.director).post(
        "/api/matches/",
        {"club": people.club.pk, "game": GAME, "seats": [*seats(SEATS - 1), "x" * 121]},
        format="json",
    )

    assert error_of(response, 400)["field"] == f"seats.{SEATS - 1}"
    assert not Match.objects.exists()


def test_unknown_keys_in_a_rectification_never_reach_the_log(people: People) -> None:
    match, version = finished_hand(people)
    before = events()
    body = ruling_body(version, [2], {"kind": "stands", "note": "x" * 100_000})

    response = post_ruling(client_for(people.director), match["id"], 1, body)

    assert error_of(response, 400)["field"] == "rectification.note"
    assert events() == before


def test_a_score_beyond_any_game_is_refused(people: People) -> None:
    match, version = finished_hand(people)
    scores = ["1e400", *(["0"] * (SEATS - 1))]
    body = ruling_body(version, [2], {"kind": "assign_score", "scores": scores})

    response = post_ruling(client_for(people.director), match["id"], 1, body)

    assert error_of(response, 400)["field"] == "scores"


# ---- sizes and rates ------------------------------------------------------------------------------------
def test_a_body_over_the_limit_is_refused_before_it_is_read(settings: Any) -> None:
    settings.REQUEST_MAX_BYTES = 1000
    response = APIClient().post("/api/auth/token/", "x" * 5000, content_type="application/json")

    assert error_of(response, 413)["code"] == "request.too_large"


def test_record_endpoints_take_a_larger_documented_limit(people: People, settings: Any) -> None:
    settings.REQUEST_MAX_BYTES = 1000
    settings.RECORD_MAX_BYTES = 100_000
    big = {"record": {"format": "segnapunti.hand", "padding": "x" * 5000}}

    response = client_for(people.director).post("/api/records/check/", big, format="json")

    assert response.status_code != 413  # read, and judged on its content
    too_big = {"record": {"padding": "x" * 200_000}}
    response = client_for(people.director).post("/api/records/check/", too_big, format="json")
    assert error_of(response, 413)["code"] == "request.too_large"


def test_wrong_passwords_for_one_user_name_are_throttled(people: People) -> None:
    client = APIClient()
    answers = [
        client.post(
            "/api/auth/token/",
            {"username": "mario", "password": f"guess-{i}"},
            REMOTE_ADDR=f"10.0.0.{i}",  # from many addresses: the user name is what counts
        ).status_code
        for i in range(12)
    ]

    assert answers[:10] == [401] * 10  # wrong password: not authenticated
    assert answers[10:] == [429, 429]
    # The right password is refused too while the user name is throttled, then works once it is over.
    response = client.post(
        "/api/auth/token/", {"username": "mario", "password": "segreto-di-mario"}, REMOTE_ADDR="10.0.1.1"
    )
    assert response.status_code == 429 and int(response["Retry-After"]) > 0


def test_token_requests_from_one_address_are_throttled() -> None:
    client = APIClient()
    answers = [
        client.post("/api/auth/token/", {"username": f"user{i}", "password": "x"}).status_code
        for i in range(22)
    ]

    assert answers[:20] == [401] * 20 and answers[20:] == [429, 429]


def test_checking_records_is_throttled_per_user(people: People) -> None:
    client = client_for(people.member)
    answers = [
        client.post("/api/records/check/", {"record": {}}, format="json").status_code for _ in range(31)
    ]

    assert 429 not in answers[:30]
    assert answers[30] == 429


def test_the_database_unreachable_is_a_503_with_a_retry_hint(
    people: People, monkeypatch: pytest.MonkeyPatch
) -> None:
    match, _ = open_match(people, GAME)

    def cut(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(selectors, "match_get", cut)
    response = client_for(people.director).get(f"/api/matches/{match['id']}/")

    assert error_of(response, 503)["code"] == "service.unavailable"
    assert int(response["Retry-After"]) > 0


# ---- roles and seats ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "extra"), [("published", {"published": True}), ("scorers", {"scorers": ["otto"]})]
)
def test_a_scorer_may_not_publish_a_match_or_choose_its_scorers(
    people: People, field: str, extra: dict[str, Any]
) -> None:
    response = client_for(people.scorer).post(
        "/api/matches/", {"club": people.club.pk, "game": GAME, "seats": seats(), **extra}, format="json"
    )

    assert error_of(response, 403)["field"] == field
    assert not Match.objects.exists()


def test_a_scorers_own_match_is_private_and_his(people: People) -> None:
    made = create_match(client_for(people.scorer), people.club, GAME)

    match = Match.objects.get(pk=made["id"])
    assert not match.published and list(match.scorers.all()) == [people.scorer]


def test_the_same_player_cannot_sit_in_two_seats(people: People) -> None:
    ada = Player.objects.create(club=people.club, name="Ada")
    response = client_for(people.director).post(
        "/api/matches/",
        {"club": people.club.pk, "game": GAME, "seats": [{"player": ada.pk}, "ada ", *seats(SEATS - 2)]},
        format="json",
    )

    body = error_of(response, 422)
    assert body["code"] == "match.player_twice" and body["field"] == "seats.1"
    assert not Match.objects.exists()


def test_a_typed_name_that_is_a_club_players_is_linked_to_him(people: People) -> None:
    ada = Player.objects.create(club=people.club, name="Ada Bianchi")

    made = create_match(client_for(people.director), people.club, GAME, seats=SEATS)
    linked = client_for(people.director).post(
        "/api/matches/",
        {"club": people.club.pk, "game": GAME, "seats": ["  ada bianchi", *seats(SEATS - 1)]},
        format="json",
    )

    assert linked.status_code == 201, linked.content
    seat = MatchSeat.objects.get(match_id=linked.json()["id"], seat=0)
    assert seat.player == ada and seat.name == "Ada Bianchi"
    assert not MatchSeat.objects.filter(match_id=made["id"], player__isnull=False).exists()


@pytest.mark.parametrize(("who", "shown"), [("director", True), ("scorer", False)])
def test_the_new_match_page_offers_publishing_to_directors_only(
    people: People, who: str, shown: bool
) -> None:
    browser = Client()
    browser.force_login(getattr(people, who))

    page = browser.get(f"/clubs/{people.club.pk}/matches/new/", {"game": GAME})

    assert page.status_code == 200
    assert (b'name="published"' in page.content) is shown


# ---- offline documentation ------------------------------------------------------------------------
def test_the_api_docs_load_nothing_from_another_site() -> None:
    page = APIClient().get("/api/docs/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn." not in html and "unpkg" not in html and "jsdelivr" not in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    # The files it names are the project's own static files (whitenoise serves them).
    assert finders.find("drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")


@pytest.mark.parametrize(
    "path",
    [
        "/api/tournaments/?club=-1054390172480761495552&kind=tournament",
        "/api/matches/?club=99999999999999999999999",
        "/api/matches/99999999999999999999999/",
    ],
)
def test_a_number_beyond_the_database_is_never_a_crash(people: People, path: str) -> None:
    # A filter beyond the ids the service stores is refused by its bounds, naming the field (the schema
    # says the same bounds); an id in the path beyond them names nothing (404), on every database.
    response = client_for(people.director).get(path)

    assert response["Content-Type"].startswith("application/json")
    if "?" in path:
        assert response.status_code == 400, response.content[:300]
        assert (response.json()["code"], response.json()["field"]) == ("request.invalid", "club")
    else:
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_schema_bounds_the_ids_as_the_service_does() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    match = schema["paths"]["/api/matches/{match_id}/"]["get"]
    (param,) = [p for p in match["parameters"] if p["name"] == "match_id"]
    club = [p for p in schema["paths"]["/api/matches/"]["get"]["parameters"] if p["name"] == "club"][0]

    assert (param["schema"]["minimum"], param["schema"]["maximum"]) == (0, ID_MAX)
    assert club["schema"]["maximum"] == ID_MAX
    assert Client().get(f"/api/matches/{ID_MAX + 1}/").status_code == 404
    assert Client().get(f"/matches/{10**25}/").status_code == 404  # the pages too: no 500 on SQLite


# ---- error pages ---------------------------------------------------------------------------------------
def test_an_api_address_that_does_not_exist_answers_the_api_error_body() -> None:
    response = APIClient().get("/api/matches/not-a-number/")

    assert error_of(response, 404)["code"] == "not_found"


def test_a_page_that_does_not_exist_is_a_page_in_the_site_layout() -> None:
    response = Client().get("/no/such/page/")

    assert response.status_code == 404
    html = response.content.decode()
    assert "Not found" in html and "Segnapunti" in html and "Back to the home page" in html


def test_a_page_the_role_does_not_allow_says_why_in_the_site_layout(people: People) -> None:
    browser = Client()
    browser.force_login(people.member)

    response = browser.get(f"/clubs/{people.club.pk}/matches/new/")

    assert response.status_code == 403
    html = response.content.decode()
    assert "Not allowed" in html and "does not allow" in html and "Back to the home page" in html


@pytest.mark.parametrize(("path", "json"), [("/api/matches/", True), ("/clubs/", False)])
def test_a_server_error_answers_in_the_shape_of_where_it_happened(path: str, json: bool) -> None:
    response = server_error(RequestFactory().get(path))

    assert response.status_code == 500
    if json:
        assert response["Content-Type"] == "application/json"
    else:
        assert b"Something went wrong" in response.content and b"Segnapunti" in response.content
