"""A disputed claim settled through the API (``settle_claim``): the hand ends as the careless line plays it
out, no move is taken after it, and a settlement that cannot apply is refused naming its rule."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import Hand
from scoring.rules import get_game
from scoring.rules.claim_ruling import careless_line
from scoring.rules.claims import play_line
from scoring.rules.core import score_str
from scoring.selectors import hand_disputed_claim
from tests.scoring.api_support import People, hand_url, post_ruling, ruling_body
from tests.scoring.pages.test_claim_panel import _claimed_match

pytestmark = pytest.mark.django_db


def test_the_api_settles_a_disputed_claim_at_its_careless_line(people: People, director: APIClient) -> None:
    match, _answer, state, claim = _claimed_match(people.club, dispute=True, verdict="fails")
    hand = Hand.objects.get(match=match, number=1)
    position = hand_disputed_claim(hand)["position"]
    game = get_game("tressette")
    found = careless_line(game, state, claim)
    assert found is not None
    body = ruling_body(
        hand.version, [position], {"kind": "settle_claim", "line": found["line"]}, rule="claim.disputed"
    )

    ruled = post_ruling(director, match.pk, 1, body)

    assert ruled.status_code == 201, ruled.json()
    expected = game.result(play_line(game, state, found["line"])).scores
    assert ruled.json()["result"]["scores"] == [score_str(s) for s in expected]
    assert ruled.json()["flagged"] is False
    after = director.post(
        hand_url(match.pk, 1, "moves/"),
        {"expected_version": hand.version + 1, "move": found["line"][0]},
        format="json",
    )
    assert after.status_code == 422 and after.json()["code"] == "hand.over"


def test_a_settlement_with_a_line_that_stops_short_is_refused(people: People, director: APIClient) -> None:
    match, _answer, state, claim = _claimed_match(people.club, dispute=True, verdict="fails")
    hand = Hand.objects.get(match=match, number=1)
    position = hand_disputed_claim(hand)["position"]
    found = careless_line(get_game("tressette"), state, claim)
    assert found is not None
    body = ruling_body(
        hand.version, [position], {"kind": "settle_claim", "line": found["line"][:4]}, rule="claim.disputed"
    )

    refused = post_ruling(director, match.pk, 1, body)

    assert refused.status_code == 422
    assert refused.json()["code"] == "ruling.claim_line"
    assert Hand.objects.get(pk=hand.pk).version == hand.version
