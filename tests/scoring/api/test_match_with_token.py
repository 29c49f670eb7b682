"""The match read with the token's user (scoring.api.auth, ``MatchApi.match_with_token``): the same match,
role and assignment as ``selectors.match_get`` reads for that user, in one message on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from scoring import selectors
from scoring.api.auth import match_read
from scoring.api.views import HandStateApi, MoveAppendApi
from scoring.models import Match
from tests.scoring.api_support import People, hand_url, open_match, play, post_move, record
from tests.scoring.api_support import client_for as client_of

pytestmark = pytest.mark.django_db

GAME = "tressette"


def authenticated(view_class: Any, user: Any, match_id: int) -> Request:
    """A move's request as the view sees it, authenticated with the user's token."""
    token, _ = Token.objects.get_or_create(user=user)
    raw = APIRequestFactory().post(
        hand_url(match_id, 1, "moves/"), {}, format="json", HTTP_AUTHORIZATION=f"Token {token.key}"
    )
    view = view_class()
    view.args, view.kwargs = (), {"match_id": match_id, "number": 1}
    request: Request = view.initialize_request(raw, match_id=match_id, number=1)
    assert request.user == user
    return request


def as_read(match: Match) -> dict[str, Any]:
    fields = {f.attname: getattr(match, f.attname) for f in Match._meta.concrete_fields}
    return {**fields, "viewer_role": match.viewer_role, "viewer_assigned": match.viewer_assigned}  # type: ignore[attr-defined]


@pytest.mark.parametrize("persona", ["director", "scorer", "other_scorer", "member", "outsider"])
def test_the_match_read_with_the_token_is_match_gets(people: People, persona: str) -> None:
    match, _ = open_match(people, GAME, published=persona == "outsider")
    user = getattr(people, persona)

    request = authenticated(MoveAppendApi, user, match["id"])
    read, found = match_read(request, match["id"], request.user)

    assert read
    assert as_read(found) == as_read(selectors.match_get(match["id"], user))
    assert match_read(request, match["id"], request.user) == (False, None)  # taken once


def test_a_match_that_is_not_there_is_read_as_none(people: People) -> None:
    request = authenticated(MoveAppendApi, people.director, 10**9)

    assert match_read(request, 10**9, request.user) == (True, None)
    assert post_move(client_of(people.director), 10**9, 1, {"type": "play"}, 1).status_code == 404


def test_only_for_that_match_and_user_and_only_where_the_view_asks(people: People) -> None:
    match, _ = open_match(people, GAME)

    request = authenticated(MoveAppendApi, people.director, match["id"])
    assert match_read(request, match["id"] + 1, request.user) == (False, None)
    request = authenticated(MoveAppendApi, people.director, match["id"])
    assert match_read(request, match["id"], people.scorer) == (False, None)
    request = authenticated(HandStateApi, people.director, match["id"])
    assert match_read(request, match["id"], request.user) == (False, None)


def test_a_move_reads_its_user_and_match_in_one_message_on_postgresql(people: People) -> None:
    match, hand = open_match(people, GAME)
    moves = play(hand, seed=1).moves
    client = client_of(people.scorer)
    version = record(client, match["id"], 1, moves[:1], hand.version)

    with CaptureQueriesContext(connection) as seen:
        response = post_move(client, match["id"], 1, moves[1], version)

    assert response.status_code == 201
    reads = [q["sql"] for q in seen.captured_queries if "authtoken_token" in (q["sql"] or "")]
    together = connection.vendor == "postgresql"
    assert len(reads) == (1 if together else 2)
    assert ("FROM scoring_match m" in reads[0]) is together
