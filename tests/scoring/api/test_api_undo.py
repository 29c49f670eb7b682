"""Undo through the API: a scorer takes back his own last move (a director any), the move stays in the
audit trail, the next move can then be recorded; refused after a ruling, after the next hand started,
for another scorer's move, and with a stale version."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import StoredEvent
from scoring.rules import game_names
from tests.scoring.api_support import (
    People,
    client_for,
    hand_url,
    open_match,
    play,
    post_move,
    post_ruling,
    post_undo,
    record,
    ruling_body,
)

pytestmark = pytest.mark.django_db

GAMES = game_names()


@pytest.mark.parametrize("name", GAMES)
def test_a_scorer_takes_back_his_last_move_and_records_the_right_one(
    people: People, scorer: APIClient, name: str
) -> None:
    match, hand = open_match(people, name)
    played = play(hand, seed=2)
    version = record(scorer, match["id"], 1, played.moves[:3], hand.version)
    before = scorer.get(hand_url(match["id"], 1, "replay/2/")).json()

    undone = post_undo(scorer, match["id"], 1, version, reason="wrong card")

    assert undone.status_code == 201
    assert undone.json()["version"] == version + 1
    now = scorer.get(hand_url(match["id"], 1)).json()
    assert now["steps"] == 2
    assert now["state"] == before["state"]
    audit = scorer.get(hand_url(match["id"], 1, "audit/")).json()
    assert [e["type"] for e in audit][-2:] == ["MoveRecorded", "MoveUndone"]
    assert audit[-1]["by"] == "sandro"
    assert audit[-1]["payload"] == {"of_version": version, "reason": "wrong card"}
    # The same move again, recorded after the undo, stands.
    again = post_move(scorer, match["id"], 1, played.moves[2], version + 1)
    assert again.status_code == 201
    assert scorer.get(hand_url(match["id"], 1)).json()["steps"] == 3


def test_two_undos_take_back_two_moves(people: People, scorer: APIClient) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=2)
    version = record(scorer, match["id"], 1, played.moves[:4], hand.version)

    first = post_undo(scorer, match["id"], 1, version)
    second = post_undo(scorer, match["id"], 1, version + 1)

    assert (first.status_code, second.status_code) == (201, 201)
    state = scorer.get(hand_url(match["id"], 1)).json()
    assert [m["position"] for m in state["moves"]] == [2, 3]


def test_a_scorer_cannot_take_back_another_scorers_move_but_a_director_can(
    people: People, scorer: APIClient, director: APIClient
) -> None:
    match, hand = open_match(people, GAMES[0], scorers=["sandro", "otto"])
    played = play(hand, seed=2)
    version = record(scorer, match["id"], 1, played.moves[:2], hand.version)
    other = client_for(people.other_scorer)

    refused = post_undo(other, match["id"], 1, version)
    allowed = post_undo(director, match["id"], 1, version)

    assert refused.status_code == 422 and refused.json()["code"] == "undo.not_yours"
    assert allowed.status_code == 201


def test_undo_with_a_stale_version_is_a_conflict_and_writes_nothing(
    people: People, scorer: APIClient
) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=2)
    version = record(scorer, match["id"], 1, played.moves[:2], hand.version)

    response = post_undo(scorer, match["id"], 1, version - 1)

    assert response.status_code == 409 and response.json()["current_version"] == version
    assert StoredEvent.objects.filter(stream_id=hand.stream_id).count() == version


def test_undo_with_nothing_recorded_is_refused(people: People, scorer: APIClient) -> None:
    match, _ = open_match(people, GAMES[0])

    response = post_undo(scorer, match["id"], 1, 1)

    assert response.status_code == 422 and response.json()["code"] == "undo.nothing"


def test_a_move_with_a_ruling_after_it_cannot_be_taken_back(
    people: People, scorer: APIClient, director: APIClient
) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=2)
    version = record(scorer, match["id"], 1, played.moves[:3], hand.version)
    ruling = ruling_body(version, [version], {"kind": "stands"}, rule="1.1", reason="checked at the table")
    assert post_ruling(director, match["id"], 1, ruling).status_code == 201

    response = post_undo(scorer, match["id"], 1, version + 1)

    assert response.status_code == 422 and response.json()["code"] == "undo.ruled"


def test_the_last_move_of_a_finished_hand_comes_back_until_the_next_hand_starts(
    people: People, scorer: APIClient
) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=2)
    version = record(scorer, match["id"], 1, played.moves, hand.version)
    sheet_before = scorer.get(f"/api/matches/{match['id']}/sheet/").json()

    reopened = post_undo(scorer, match["id"], 1, version)
    sheet_open = scorer.get(f"/api/matches/{match['id']}/sheet/").json()
    closed = post_move(scorer, match["id"], 1, played.moves[-1], version + 1)
    started = scorer.post(f"/api/matches/{match['id']}/hands/", {}, format="json")
    late = post_undo(scorer, match["id"], 1, version + 2)

    assert reopened.status_code == 201 and reopened.json()["status"] == "in_play"
    assert sheet_before["hands"] == [1] and sheet_open["hands"] == []
    assert closed.status_code == 201 and closed.json()["hand"]["status"] == "over"
    assert started.status_code == 201
    assert late.status_code == 422 and late.json()["code"] == "undo.next_hand"
