"""A claim of a recorded hand decided by search through the API: the answer the engine gives for the hand
just before the claim, the replay step to open its line at, and the errors."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.rules import get_game
from scoring.rules.claims import question, random_claim, random_position, solve
from scoring.rules.moves import ClaimResponse
from tests.scoring.api_support import People, client_for, create_match, hand_of, hand_url, record, setup_of

pytestmark = pytest.mark.django_db

TIMING = ("nodes", "elapsed_ms")


def disputed_claim(
    client: Any, people: People, name: str, seed: int
) -> tuple[dict[str, Any], Any, Any, Any, int]:
    """A match of ``name`` whose first hand is recorded up to a claim with three tricks left, disputed."""
    match = create_match(client, people.club, name)
    hand = hand_of(match)
    setup = setup_of(hand)
    game = get_game(name)
    rng = random.Random(seed)
    found = None
    while found is None:
        found = random_position(
            game,
            rng,
            tricks_left=3,
            options=setup["options"],
            seats=setup["seats"],
            dealer=setup["dealer"],
            context=setup["context"],
        )
    state, moves = found
    claim = random_claim(game, state, rng)
    moves = [*moves, claim, ClaimResponse(seat=(claim.seat + 1) % state.seats, accept=False)]
    record(client, match["id"], 1, moves, hand.version)
    return match, game, state, claim, len(moves) - 2  # the claim's index among the moves, the deal first


@pytest.mark.parametrize("name", ["tressette", "barbu", "tarocchi", "hombre_it", "lhombre"])
def test_it_answers_the_last_claim_of_the_hand(people: People, name: str) -> None:
    client = client_for(people.member)
    match, game, state, claim, step = disputed_claim(client_for(people.director), people, name, 5)

    response = client.get(hand_url(match["id"], 1, "claim/"))

    assert response.status_code == 200, response.json()
    body = response.json()
    expected = solve(question(game, state, claim))
    assert {k: v for k, v in body.items() if k not in (*TIMING, "position", "step", "claim")} == {
        k: v for k, v in expected.items() if k not in TIMING
    }
    assert body["step"] == step
    replayed = client.get(hand_url(match["id"], 1, f"replay/{step + 1}/")).json()
    assert replayed["moves"][-1] == {
        "position": body["position"],
        "move": body["claim"],
        "by": replayed["moves"][-1]["by"],
    }
    assert body["claim"]["type"] == "claim" and body["claim"]["seat"] == claim.seat


def test_position_names_the_claim(people: People) -> None:
    client = client_for(people.director)
    match, _game, _state, _claim, _step = disputed_claim(client, people, "tressette", 8)
    position = client.get(hand_url(match["id"], 1, "claim/")).json()["position"]

    assert client.get(hand_url(match["id"], 1, f"claim/?position={position}")).json()["position"] == position


def test_a_position_that_is_not_a_claim_is_refused(people: People) -> None:
    client = client_for(people.director)
    match, _game, _state, _claim, _step = disputed_claim(client, people, "tressette", 8)

    response = client.get(hand_url(match["id"], 1, "claim/?position=2"))

    assert response.status_code == 422
    assert response.json()["code"] == "claim.none" and response.json()["field"] == "position"


def test_a_hand_without_a_claim_is_refused(people: People) -> None:
    client = client_for(people.director)
    match = create_match(client, people.club, "tressette")

    response = client.get(hand_url(match["id"], 1, "claim/"))

    assert response.status_code == 422
    assert response.json()["code"] == "claim.none"


def test_a_malformed_position_is_refused(people: People) -> None:
    client = client_for(people.director)
    match = create_match(client, people.club, "tressette")

    assert client.get(hand_url(match["id"], 1, "claim/?position=x")).status_code == 400


def test_an_outsider_cannot_read_it(people: People) -> None:
    match, _game, _state, _claim, _position = disputed_claim(
        client_for(people.director), people, "lhombre", 2
    )

    response = client_for(people.outsider).get(hand_url(match["id"], 1, "claim/"))

    assert response.status_code in (403, 404)
