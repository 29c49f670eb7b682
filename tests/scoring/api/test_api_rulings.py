"""Rulings through the API: the director previews (nothing written), then rules; the projection applies
the rectification, the original moves stay in the log, the audit trail says who, when and why."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Hand, StoredEvent
from scoring.rules import game_names
from scoring.rules.core import score_str
from scoring.rules.moves import PlayCard
from tests.scoring.api_support import (
    People,
    Played,
    client_for,
    hand_url,
    open_match,
    play,
    play_irregular,
    post_ruling,
    record,
    ruling_body,
    side_scores,
    tricks_of,
)

pytestmark = pytest.mark.django_db

GAMES = game_names()


def events() -> int:
    return StoredEvent.objects.count()


def irregular_hand(people: People, name: str) -> tuple[dict[str, Any], Played, int]:
    """A finished hand with one irregular card (at stream version ``at + 2``); returns its version."""
    match, hand = open_match(people, name)
    played = play_irregular(hand, seed=7)
    version = record(client_for(people.scorer), match["id"], 1, played.moves, hand.version)
    return match, played, version


@pytest.mark.parametrize("name", GAMES)
def test_a_previewed_score_ruling_writes_nothing_then_applies_as_previewed(
    people: People, director: APIClient, name: str
) -> None:
    match, played, version = irregular_hand(people, name)
    assert played.irregular_at is not None
    position = played.irregular_at + 2
    offender = played.moves[played.irregular_at].seat
    assert offender is not None
    penalty = side_scores(played.game.result(played.final), offender, -3, 1)
    body = ruling_body(version, [position], {"kind": "penalty", "scores": penalty})
    count = events()
    sheet_before = director.get(f"/api/matches/{match['id']}/sheet/").json()

    preview = post_ruling(director, match["id"], 1, body, preview=True)

    assert preview.status_code == 200
    assert events() == count
    assert Hand.objects.get(match_id=match["id"], number=1).flagged is True
    base = played.game.result(played.final).scores
    after = [score_str(s + d) for s, d in zip(base, penalty, strict=True)]
    assert preview.json()["before"]["hand"]["scores"] == [score_str(s) for s in base]
    assert preview.json()["after"]["hand"]["scores"] == after
    assert preview.json()["before"]["sheet"] == sheet_before
    assert preview.json()["after"]["flagged"] is False

    ruled = post_ruling(director, match["id"], 1, body)

    assert ruled.status_code == 201
    assert events() == count + 1
    assert ruled.json()["result"]["scores"] == after
    assert ruled.json()["flagged"] is False
    assert ruled.json()["legal"] is False  # the irregularity stands; the ruling settled it
    assert director.get(f"/api/matches/{match['id']}/sheet/").json() == preview.json()["after"]["sheet"]
    audit = director.get(hand_url(match["id"], 1, "audit/")).json()
    assert audit[-1]["type"] == "RulingRecorded" and audit[-1]["by"] == "diana"
    assert audit[-1]["payload"]["reason"] == "seen by both sides"
    assert audit[-1]["payload"]["refs"] == [position]
    assert [e["type"] for e in audit].count("MoveRecorded") == len(played.moves)
    rulings = director.get(hand_url(match["id"], 1, "rulings/")).json()
    assert rulings == [
        {
            "position": version + 1,
            "refs": [position],
            "rule": "revoke",
            "reason": "seen by both sides",
            "rectification": {"kind": "penalty", "scores": penalty},
            "by": "diana",
        }
    ]


def test_assign_score_replaces_the_hands_scores(people: People, director: APIClient) -> None:
    match, played, version = irregular_hand(people, GAMES[-1])
    scores = side_scores(played.game.result(played.final), 0, "1/3", 0)  # type: ignore[arg-type]

    ruled = post_ruling(
        director,
        match["id"],
        1,
        ruling_body(version, [played.irregular_at + 2], {"kind": "assign_score", "scores": scores}),  # type: ignore[operator]
    )

    assert ruled.status_code == 201
    assert ruled.json()["result"]["scores"] == scores


def test_a_dismissed_irregularity_no_longer_stands(people: People, director: APIClient) -> None:
    match, played, version = irregular_hand(people, GAMES[0])
    assert played.irregular_at is not None

    ruled = post_ruling(
        director, match["id"], 1, ruling_body(version, [played.irregular_at + 2], {"kind": "dismiss"})
    )

    assert ruled.status_code == 201
    assert ruled.json()["legal"] is True and ruled.json()["flagged"] is False
    assert all(v["stands"] is False for v in ruled.json()["verdicts"])
    assert ruled.json()["result"]["scores"] == [score_str(s) for s in played.game.result(played.final).scores]


@pytest.mark.parametrize("name", GAMES)
def test_a_mistyped_card_is_replaced_by_ruling_and_the_original_stays_in_the_log(
    people: People, director: APIClient, name: str
) -> None:
    match, hand = open_match(people, name)
    played = play_irregular(hand, seed=8)
    at = played.irregular_at
    assert at is not None
    version = record(client_for(people.scorer), match["id"], 1, played.moves[: at + 1], hand.version)
    meant = played.game.legal_moves(played.states[at])[0]
    assert isinstance(meant, PlayCard)
    body = ruling_body(
        version,
        [version],
        {"kind": "replace_move", "move": {"type": "play", "seat": meant.seat, "card": meant.card}},
    )

    preview = post_ruling(director, match["id"], 1, body, preview=True)
    ruled = post_ruling(director, match["id"], 1, body)

    assert preview.status_code == 200 and preview.json()["after"]["flagged"] is False
    assert ruled.status_code == 201
    state = ruled.json()
    assert state["verdicts"] == [] and state["flagged"] is False and state["legal"] is True
    assert state["moves"][-1] == {"position": version, "move": body["rectification"]["move"], "by": "sandro"}
    expected = played.game.apply(played.states[at], meant).state
    assert state["state"]["trick"] == director.get(hand_url(match["id"], 1)).json()["state"]["trick"]
    assert state["state"]["hand_counts"] == list(expected.hands.counts)
    audit = director.get(hand_url(match["id"], 1, "audit/")).json()
    assert audit[version - 1]["payload"]["move"]["card"] == played.moves[at].card  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GAMES)
def test_tricks_transferred_by_ruling_rescore_the_hand_as_previewed(
    people: People, director: APIClient, name: str
) -> None:
    match, hand = open_match(people, name)
    for seed in range(30):
        played = play(hand, seed=seed)
        tricks = tricks_of(played.final)
        won = [t.winner for t in tricks.done] if tricks is not None else []
        if won:
            break
    assert won, f"{name}: no hand with tricks in 30 deals"
    version = record(client_for(people.scorer), match["id"], 1, played.moves, hand.version)
    source = won[-1]
    target = (source + 1) % played.final.seats
    body = ruling_body(
        version, [version], {"kind": "transfer_tricks", "from_seat": source, "to_seat": target, "count": 1}
    )

    preview = post_ruling(director, match["id"], 1, body, preview=True)
    ruled = post_ruling(director, match["id"], 1, body)

    assert preview.status_code == 200, preview.json()
    assert ruled.status_code == 201
    assert ruled.json()["result"] == preview.json()["after"]["hand"]
    too_many = ruling_body(
        version + 1,
        [version],
        {"kind": "transfer_tricks", "from_seat": source, "to_seat": target, "count": 99},
    )
    refused = post_ruling(director, match["id"], 1, too_many)
    assert refused.status_code == 422 and refused.json()["code"] == "ruling.transfer"


def test_tressette_tricks_transferred_change_the_card_points(people: People, director: APIClient) -> None:
    if "tressette" not in GAMES:
        pytest.skip("tressette is not registered")
    match, hand = open_match(people, "tressette")
    played = play(hand, seed=1)
    version = record(client_for(people.scorer), match["id"], 1, played.moves, hand.version)
    tricks = tricks_of(played.final)
    assert tricks is not None
    last = tricks.done[-1].winner
    taken = sum(1 for t in tricks.done if t.winner == last)
    body = ruling_body(
        version,
        [version],
        {"kind": "transfer_tricks", "from_seat": last, "to_seat": (last + 1) % 4, "count": taken},
    )

    ruled = post_ruling(director, match["id"], 1, body)

    before = played.game.result(played.final)
    assert ruled.json()["result"]["details"]["card_points"] != before.details["card_points"]


@pytest.mark.parametrize(
    ("change", "status", "code", "field"),
    [
        ({"rectification": {"kind": "forgive"}}, 400, "ruling.malformed", "rectification"),
        ({"rectification": {"kind": "penalty", "scores": [1]}}, 400, "ruling.malformed", "scores"),
        (
            {"rectification": {"kind": "replace_move", "move": {"type": "play"}}},
            400,
            "move.malformed",
            "card",
        ),
        ({"reason": ""}, 400, "request.invalid", "reason"),
        ({"refs": []}, 400, "request.invalid", "refs"),
        ({"refs": [1]}, 422, "ruling.ref", "refs"),
        ({"refs": [999]}, 422, "ruling.ref", "refs"),
        ({"expected_version": 2}, 409, "version.conflict", "expected_version"),
    ],
)
def test_a_ruling_that_cannot_apply_is_refused_and_nothing_is_written(
    people: People,
    director: APIClient,
    change: dict[str, Any],
    status: int,
    code: str,
    field: str,
) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=3)
    version = record(client_for(people.scorer), match["id"], 1, played.moves, hand.version)
    count = events()

    response = post_ruling(
        director, match["id"], 1, {**ruling_body(version, [version], {"kind": "stands"}), **change}
    )

    assert (response.status_code, response.json()["code"], response.json()["field"]) == (status, code, field)
    assert events() == count


def test_a_score_ruling_on_a_hand_in_play_is_refused(people: People, director: APIClient) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=3)
    version = record(client_for(people.scorer), match["id"], 1, played.moves[:3], hand.version)
    seats = played.final.seats

    response = post_ruling(
        director,
        match["id"],
        1,
        ruling_body(version, [version], {"kind": "assign_score", "scores": [0] * seats}),
        preview=True,
    )

    assert response.status_code == 422 and response.json()["code"] == "ruling.not_over"
