"""A director's penalty or assigned score is an adjustment outside the game's own columns: a zero-sum
game (Barbù) keeps its invariant on what was played, the penalty shows as a column of its own, and the
match can always be finished (issue 24, section 2; docs/rules/rulings.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Hand, Match
from scoring.rules.moves import move_to_dict
from tests.scoring.api_support import (
    People,
    client_for,
    hand_url,
    open_match,
    play,
    post_move,
    post_ruling,
    ruling_body,
    service_record,
)

pytestmark = pytest.mark.django_db

PENALTY = {"kind": "penalty", "scores": [-10, 0, 0, 0]}


def finish_hand(hand: Hand, seed: int) -> Hand:
    return service_record(hand, play(hand, seed=seed).moves)


def barbu_hands(people: People, count: int) -> tuple[dict[str, Any], Hand]:
    """A Barbù match with its first ``count`` hands played through the service; returns the last."""
    match, hand = open_match(people, "barbu")
    hand = finish_hand(hand, seed=1)
    for number in range(2, count + 1):
        hand = finish_hand(services.hand_start(match=Match.objects.get(pk=match["id"])), seed=number)
    return match, hand


def test_a_one_sided_penalty_on_a_finished_barbu_match_is_an_adjustment(
    people: People, director: APIClient
) -> None:
    match, hand = barbu_hands(people, 28)
    assert Match.objects.get(pk=match["id"]).status == Match.Status.FINISHED
    before = director.get(f"/api/matches/{match['id']}/sheet/").json()
    body = ruling_body(hand.version, [2], PENALTY)

    preview = post_ruling(director, match["id"], 28, body, preview=True)
    ruled = post_ruling(director, match["id"], 28, body)

    assert preview.status_code == 200, preview.content
    assert ruled.status_code == 201, ruled.content
    sheet = director.get(f"/api/matches/{match['id']}/sheet/").json()
    assert sheet["details"]["game_totals"] == before["totals"]
    assert sum(sheet["details"]["game_totals"]) == 0  # the game's own zero-sum still holds
    assert sheet["details"]["adjustments"] == [-10, 0, 0, 0]
    assert sheet["totals"] == [before["totals"][0] - 10, *before["totals"][1:]]
    assert sheet["rows"][-1]["adjustment"] == [-10, 0, 0, 0]
    assert sheet["rows"][0]["adjustment"] is None
    best = max(sheet["totals"])
    assert sheet["winners"] == [s for s, t in enumerate(sheet["totals"]) if t == best]
    page = Client()
    page.force_login(people.director)
    text = page.get(f"/matches/{match['id']}/").content.decode()  # the page the sheet is printed from
    assert "Director&#x27;s adjustments" in text and "data-adjusted" in text
    assert "director&#x27;s adjustment</th>" in text  # the hands' column


def test_a_penalty_given_mid_match_lets_the_match_finish(people: People, director: APIClient) -> None:
    match, hand = barbu_hands(people, 1)
    ruled = post_ruling(director, match["id"], 1, ruling_body(hand.version, [2], PENALTY))
    assert ruled.status_code == 201, ruled.content
    for number in range(2, 28):
        hand = finish_hand(services.hand_start(match=Match.objects.get(pk=match["id"])), seed=number)
    last = services.hand_start(match=Match.objects.get(pk=match["id"]))
    moves = play(last, seed=28).moves
    last = service_record(last, moves[:-1])
    scorer = client_for(people.scorer)

    response = post_move(scorer, match["id"], 28, moves[-1], last.version)

    assert response.status_code == 201, response.content
    sheet = scorer.get(f"/api/matches/{match['id']}/sheet/").json()
    assert sheet["finished"] is True
    assert sum(sheet["details"]["game_totals"]) == 0
    assert sum(sheet["totals"]) == -10
    assert sheet["details"]["adjustments"] == [-10, 0, 0, 0]
    assert client_for(people.scorer).get(hand_url(match["id"], 28)).status_code == 200
    assert move_to_dict(moves[-1])  # the last card was a real move of the hand
