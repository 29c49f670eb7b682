"""A device's queue of moves in one request (issue 27, ``POST H/moves/queue/``): recorded in order, each
checked by the engine; sent again after a lost answer, recognised by its keys; stopped at the first
refusal, which it names, the moves before it recorded and the ones after it not tried."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.models import Hand
from scoring.rules import move_to_dict
from scoring.rules.moves import Move, PlayCard
from scoring.selectors import hand_audit
from tests.scoring.api_support import client_for, hand_url, make_people, open_match, play, service_record

pytestmark = pytest.mark.django_db


def _queue(moves: list[Move], prefix: str = "k") -> list[dict[str, Any]]:
    return [{"move": move_to_dict(m), "idempotency_key": f"{prefix}-{i}"} for i, m in enumerate(moves)]


def _logged(hand: Hand) -> list[dict[str, Any]]:
    return [e["payload"]["move"] for e in hand_audit(hand) if e["type"] == "MoveRecorded"]


def _setup() -> tuple[Any, dict[str, Any], Hand, list[Move]]:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    played = play(hand, seed=21)
    hand = service_record(hand, played.moves[:1], people.scorer)
    return people, match, hand, [m for m in played.moves[1:] if isinstance(m, PlayCard)]


def test_a_queue_is_recorded_in_order_and_a_resend_records_nothing_twice() -> None:
    people, match, hand, cards = _setup()
    client = client_for(people.scorer)
    url = hand_url(match["id"], 1, "moves/queue/")
    body = {"expected_version": hand.version, "moves": _queue(cards[:6])}

    first = client.post(url, body, format="json")

    assert first.status_code == 200, first.json()
    data = first.json()
    assert data["refused"] is None
    assert [r["version"] for r in data["recorded"]] == list(range(hand.version + 1, hand.version + 7))
    assert not any(r["replayed"] for r in data["recorded"])
    assert data["version"] == hand.version + 6 == data["state"]["version"]

    # The answer was lost: the device sends the same queue, with two more moves tapped since.
    again = client.post(
        url, {"expected_version": hand.version, "moves": _queue(cards[:8])}, format="json"
    ).json()
    assert [r["replayed"] for r in again["recorded"]] == [True] * 6 + [False] * 2
    assert again["version"] == hand.version + 8
    hand.refresh_from_db()
    assert _logged(hand)[1:] == [move_to_dict(m) for m in cards[:8]]  # each once, in order


def test_the_first_refusal_stops_the_queue_and_is_named() -> None:
    people, match, hand, cards = _setup()
    client = client_for(people.scorer)
    gone = cards[0]  # played again at position 2: that card is no longer in its seat's hand
    queue = _queue([cards[0], cards[1], gone, cards[2]])

    data = client.post(
        hand_url(match["id"], 1, "moves/queue/"),
        {"expected_version": hand.version, "moves": queue},
        format="json",
    ).json()

    assert len(data["recorded"]) == 2
    assert data["refused"]["index"] == 2
    assert data["refused"]["status"] == 422
    assert data["refused"]["code"] and data["refused"]["message"]
    assert data["version"] == hand.version + 2  # what the refused move expected, and the next send
    hand.refresh_from_db()
    assert _logged(hand)[1:] == [move_to_dict(m) for m in cards[:2]]  # the one after it not tried


def test_a_queue_built_on_a_version_another_device_moved_is_refused_409() -> None:
    people, match, hand, cards = _setup()
    services.move_record(hand=hand, move=move_to_dict(cards[0]), expected_version=hand.version)

    data = (
        client_for(people.scorer)
        .post(
            hand_url(match["id"], 1, "moves/queue/"),
            {"expected_version": hand.version, "moves": _queue(cards[:3], "offline")},
            format="json",
        )
        .json()
    )

    assert data["recorded"] == []
    assert data["refused"]["index"] == 0
    assert data["refused"]["status"] == 409
    assert data["refused"]["code"] == "version.conflict"
    assert data["refused"]["current_version"] == hand.version + 1
    hand.refresh_from_db()
    assert hand.version == data["refused"]["current_version"]  # nothing overwritten, nothing added


def test_a_malformed_queue_writes_nothing_and_names_the_field() -> None:
    people, match, hand, cards = _setup()
    client = client_for(people.scorer)
    url = hand_url(match["id"], 1, "moves/queue/")

    no_key = client.post(
        url, {"expected_version": hand.version, "moves": [{"move": move_to_dict(cards[0])}]}, format="json"
    )
    extra = client.post(
        url,
        {"expected_version": hand.version, "moves": [{**_queue(cards[:1])[0], "colour": "red"}]},
        format="json",
    )
    empty = client.post(url, {"expected_version": hand.version, "moves": []}, format="json")

    for response in (no_key, extra, empty):
        assert response.status_code == 400, response.json()
        assert response.json()["field"]
    hand.refresh_from_db()
    assert _logged(hand)[1:] == []


def test_only_the_match_s_scorers_may_send_a_queue() -> None:
    people, match, hand, cards = _setup()
    body = {"expected_version": hand.version, "moves": _queue(cards[:1])}
    url = hand_url(match["id"], 1, "moves/queue/")

    assert client_for(people.other_scorer).post(url, body, format="json").status_code == 403
    assert client_for(None).post(url, body, format="json").status_code == 401
    hand.refresh_from_db()
    assert _logged(hand)[1:] == []
