"""Recording moves through the API, for every registered game, through the real database: a random legal
hand scores as the engine says; keying errors are refused with nothing written; irregularities are
recorded with their verdicts; a stale version is a conflict; a retry with the same key is harmless."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Hand, StoredEvent
from scoring.rules import Game, HandState, game_names, get_game
from scoring.rules.core import score_str
from scoring.rules.moves import Deal, PlayCard
from tests.scoring.api_support import (
    People,
    hand_url,
    open_match,
    play,
    play_irregular,
    post_move,
    record,
    record_each,
)

pytestmark = pytest.mark.django_db

GAMES = game_names()
TABLES = [(name, seats) for name in GAMES for seats in get_game(name).seat_counts]


def events(hand: Hand) -> int:
    return StoredEvent.objects.filter(stream_id=hand.stream_id).count()


@pytest.mark.parametrize(("name", "seats"), TABLES)
def test_a_random_legal_hand_recorded_through_the_api_scores_as_the_engine(
    people: People, scorer: APIClient, name: str, seats: int
) -> None:
    match, hand = open_match(people, name, seats=seats)
    played = play(hand, seed=seats)

    version = record(scorer, match["id"], 1, played.moves, hand.version)

    state = scorer.get(hand_url(match["id"], 1)).json()
    expected = played.game.result(played.final)
    assert version == 1 + len(played.moves)
    assert state["version"] == version
    assert state["state"]["over"] is True
    assert state["result"]["scores"] == [score_str(s) for s in expected.scores]
    assert state["result"]["outcome"] == expected.outcome
    assert state["verdicts"] == [] and state["flagged"] is False and state["legal"] is True
    detail = scorer.get(f"/api/matches/{match['id']}/").json()
    assert detail["hands"][0]["status"] == "over"
    sheet = scorer.get(f"/api/matches/{match['id']}/sheet/").json()
    totals = played.game.match_result(played.final.options, seats, [expected])
    assert sheet["hands"] == [1]
    assert sheet["totals"] == [score_str(s) for s in totals.totals]
    assert sheet["rows"] == detail["sheet"]["rows"]


@pytest.mark.parametrize("name", GAMES)
def test_the_next_hand_starts_with_the_games_next_dealer_once_the_hand_is_over(
    people: People, scorer: APIClient, name: str
) -> None:
    match, hand = open_match(people, name)
    early = scorer.post(f"/api/matches/{match['id']}/hands/", {}, format="json")
    played = play(hand, seed=11)
    record(scorer, match["id"], 1, played.moves, hand.version)

    started = scorer.post(f"/api/matches/{match['id']}/hands/", {}, format="json")

    assert early.status_code == 422 and early.json()["code"] == "hand.in_play"
    assert started.status_code == 201
    result = played.game.result(played.final)
    seats = played.final.seats
    assert started.json()["number"] == 2
    assert started.json()["dealer"] == played.game.next_dealer(played.final.options, seats, 0, result)
    listed = scorer.get(f"/api/matches/{match['id']}/hands/").json()
    assert [h["number"] for h in listed] == [1, 2]
    assert [h["status"] for h in listed] == ["over", "in_play"]


@pytest.mark.parametrize("name", GAMES)
def test_a_keying_error_is_refused_naming_the_rule_and_nothing_is_written(
    people: People, scorer: APIClient, name: str
) -> None:
    match, hand = open_match(people, name)
    # Up to the first card play: after an auction or a contract choice in some games (and a hand
    # thrown in before any card is played does not do).
    for seed in range(20):
        played = play(hand, seed=seed)
        at = next((i for i, st in enumerate(played.states) if _card_play(played.game, st)), None)
        if at is not None:
            break
    assert at is not None
    deal = played.moves[0]
    assert isinstance(deal, Deal) and deal.hands is not None
    before_deal = post_move(scorer, match["id"], 1, PlayCard(seat=0, card=deal.hands[0][0]), hand.version)
    version = record(scorer, match["id"], 1, played.moves[:at], hand.version)
    count = events(hand)
    seat = played.game.legal_moves(played.states[at])[0].seat
    held = played.states[at].hands
    not_his = sorted(held.deck - held.hand(seat) - held.gone)[0]
    his = sorted(held.hand(seat))[0]

    refusals = [
        post_move(scorer, match["id"], 1, PlayCard(seat=seat, card="ZZ"), version),
        post_move(scorer, match["id"], 1, PlayCard(seat=seat, card=not_his), version),
        post_move(scorer, match["id"], 1, PlayCard(seat=len(deal.hands), card=his), version),
        post_move(scorer, match["id"], 1, deal, version),
        post_move(scorer, match["id"], 1, PlayCard(seat=(seat + 1) % len(deal.hands), card=his), version),
    ]

    assert before_deal.status_code == 422
    assert before_deal.json()["code"] == "phase.wrong"
    assert [r.status_code for r in refusals] == [422] * 5
    codes = [r.json()["code"] for r in refusals]
    assert codes[0] in {"card.unknown", "card.invalid"} and refusals[0].json()["field"] == "card"
    assert codes[1] == "card.not_held" and refusals[1].json()["field"] == "card"
    assert codes[2] == "seat.unknown" and refusals[2].json()["field"] == "seat"
    assert codes[3] == "phase.wrong"
    assert codes[4] == "turn.wrong" and refusals[4].json()["field"] == "seat"
    assert all(set(r.json()) >= {"code", "message", "field"} for r in refusals)
    assert events(hand) == count
    hand.refresh_from_db()
    assert hand.version == version


def _card_play(game: Game[Any], state: HandState) -> bool:
    legal = game.legal_moves(state)
    return bool(legal) and all(isinstance(m, PlayCard) for m in legal)


@pytest.mark.parametrize(
    ("move", "field"),
    [
        ({"type": "teleport", "seat": 0}, "type"),
        ({"type": "play", "seat": 0}, "card"),
        ({"type": "play", "seat": "north", "card": "AS"}, "seat"),
        ({"type": "play", "seat": 0, "card": "AS", "colour": "red"}, "colour"),
    ],
)
def test_a_malformed_move_is_400_naming_the_field(
    people: People, scorer: APIClient, move: dict[str, Any], field: str
) -> None:
    match, hand = open_match(people, GAMES[0])

    response = post_move(scorer, match["id"], 1, move, hand.version)

    assert response.status_code == 400
    assert response.json()["code"] == "move.malformed"
    assert response.json()["field"] == field
    assert events(hand) == 1


def test_a_request_without_a_version_is_400_naming_it(people: People, scorer: APIClient) -> None:
    match, _ = open_match(people, GAMES[0])

    response = scorer.post(hand_url(match["id"], 1, "moves/"), {"move": {"type": "deal"}}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "request.invalid"
    assert response.json()["field"] == "expected_version"


def test_a_stale_version_is_a_conflict_naming_the_current_version(people: People, scorer: APIClient) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=3)
    version = record(scorer, match["id"], 1, played.moves[:3], hand.version)

    stale = post_move(scorer, match["id"], 1, played.moves[3], version - 1)
    ahead = post_move(scorer, match["id"], 1, played.moves[3], version + 5)

    assert stale.status_code == 409
    assert stale.json() == {
        "code": "version.conflict",
        "message": stale.json()["message"],
        "field": "expected_version",
        "expected_version": version - 1,
        "current_version": version,
    }
    assert ahead.status_code == 409 and ahead.json()["current_version"] == version
    assert events(hand) == version


def test_a_stale_version_wins_over_an_impossible_move(people: People, scorer: APIClient) -> None:
    match, hand = open_match(people, GAMES[0])

    response = post_move(scorer, match["id"], 1, PlayCard(seat=0, card="ZZ"), hand.version + 1)

    assert response.status_code == 409


def test_a_retry_with_the_same_key_appends_nothing_and_answers_the_same(
    people: People, scorer: APIClient
) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=4)
    first = post_move(scorer, match["id"], 1, played.moves[0], hand.version, header="tap-1")
    second = post_move(scorer, match["id"], 1, played.moves[1], first.json()["version"], key="tap-2")

    again_header = post_move(scorer, match["id"], 1, played.moves[0], hand.version, header="tap-1")
    again_body = post_move(scorer, match["id"], 1, played.moves[1], first.json()["version"], key="tap-2")

    assert (first.status_code, second.status_code) == (201, 201)
    assert (again_header.status_code, again_body.status_code) == (200, 200)
    assert again_header.json()["replayed"] is True
    assert again_header.json()["version"] == first.json()["version"]
    assert again_body.json()["version"] == second.json()["version"]
    assert events(hand) == 3


def test_a_key_used_for_another_move_is_refused(people: People, scorer: APIClient) -> None:
    match, hand = open_match(people, GAMES[0])
    played = play(hand, seed=4)
    first = post_move(scorer, match["id"], 1, played.moves[0], hand.version, key="k")

    reused = post_move(scorer, match["id"], 1, played.moves[1], first.json()["version"], key="k")
    mismatch = post_move(
        scorer, match["id"], 1, played.moves[1], first.json()["version"], key="a", header="b"
    )

    assert reused.status_code == 422 and reused.json()["code"] == "idempotency.reused"
    # Each well formed, the two keys contradict each other: refused as what cannot stand, naming the field.
    assert mismatch.status_code == 422 and mismatch.json()["code"] == "idempotency.mismatch"
    assert mismatch.json()["field"] == "idempotency_key"
    assert events(hand) == 2


@pytest.mark.parametrize("name", GAMES)
def test_an_irregular_move_is_recorded_with_its_verdict_and_flags_the_hand(
    people: People, scorer: APIClient, name: str
) -> None:
    match, hand = open_match(people, name)
    played = play_irregular(hand, seed=1)
    at = played.irregular_at
    assert at is not None
    version = record(scorer, match["id"], 1, played.moves[:at], hand.version)

    response = post_move(scorer, match["id"], 1, played.moves[at], version)

    assert response.status_code == 201
    verdicts = response.json()["verdicts"]
    assert verdicts, "the irregular move must come back with its verdict"
    expected = played.states[at + 1].verdicts[-len(verdicts) :]
    assert [v["rule"] for v in verdicts] == [v.rule for v in expected]
    assert all(v["move_index"] == at and v["message"] for v in verdicts)
    assert response.json()["hand"]["flagged"] is True
    state = scorer.get(hand_url(match["id"], 1)).json()
    assert state["flagged"] is True and state["legal"] is False
    assert [v["position"] for v in state["verdicts"]] == [response.json()["version"]] * len(verdicts)
    assert state["verdicts"][0]["seat"] == played.moves[at].seat
    assert Hand.objects.get(pk=hand.pk).flagged is True
    # The hand goes on to its end and stays flagged for the director.
    record(scorer, match["id"], 1, played.moves[at + 1 :], response.json()["version"])
    assert scorer.get(f"/api/matches/{match['id']}/").json()["hands"][0]["flagged"] is True


@pytest.mark.parametrize("name", GAMES)
def test_a_strict_table_refuses_the_irregular_move_and_writes_nothing(
    people: People, scorer: APIClient, name: str
) -> None:
    match, hand = open_match(people, name, options={"strict": True})
    played = play_irregular(hand, seed=2)
    at = played.irregular_at
    assert at is not None
    version = record(scorer, match["id"], 1, played.moves[:at], hand.version)

    response = post_move(scorer, match["id"], 1, played.moves[at], version)

    assert response.status_code == 422
    rule = played.states[at + 1].verdicts[-1].rule
    assert response.json()["code"].startswith("irregular.")
    assert response.json()["code"] in {f"irregular.{v.rule}" for v in played.states[at + 1].verdicts}, rule
    assert events(hand) == version
    assert Hand.objects.get(pk=hand.pk).flagged is False


@pytest.mark.parametrize("name", GAMES)
def test_without_the_deal_an_irregularity_is_flagged_when_the_proof_arrives(
    people: People, scorer: APIClient, name: str
) -> None:
    match, hand = open_match(people, name)
    played = play_irregular(hand, seed=3)
    at = played.irregular_at
    assert at is not None
    blind = played.game.moves_only(played.moves)
    flagged_after = [
        body["hand"]["flagged"] for body in record_each(scorer, match["id"], 1, blind, hand.version)
    ]

    state = scorer.get(hand_url(match["id"], 1)).json()
    found = [v for v in state["verdicts"] if v["move_index"] == at]
    assert found, f"the irregularity at move {at} must be found by the end of the hand"
    proof = found[0]["proved_at"]
    # Positions are stream versions: move index i is at version i + 2 (HandStarted is version 1).
    assert found[0]["position"] == at + 2
    first_flag = flagged_after.index(True)
    if proof is None:
        assert first_flag == at
    else:
        assert proof > found[0]["position"]
        assert first_flag == proof - 2
    assert state["result"]["scores"] == [score_str(s) for s in played.game.result(played.final).scores]
