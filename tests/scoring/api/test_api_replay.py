"""Replay through the API: the hand at step N is what the projection showed when the hand had N moves,
for every game, with and without the deal recorded, irregularities included."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules import game_names
from tests.scoring.api_support import (
    People,
    client_for,
    create_match,
    hand_of,
    hand_url,
    play_irregular,
    record,
    record_each,
)

pytestmark = pytest.mark.django_db

GAMES = game_names()
COMPARED = ("step", "moves", "state", "verdicts", "seats")


def shown(body: dict[str, Any]) -> dict[str, Any]:
    return {key: body[key] for key in COMPARED}


@pytest.mark.parametrize("deal_known", [True, False], ids=["deal", "moves-only"])
@pytest.mark.parametrize("name", GAMES)
def test_replay_at_every_step_equals_the_projection_of_the_prefix(
    people: People, name: str, deal_known: bool
) -> None:
    client = client_for(people.director)
    match = create_match(client, people.club, name)
    hand = hand_of(match)
    played = play_irregular(hand, seed=4)
    moves = played.moves if deal_known else played.game.moves_only(played.moves)
    projections = [client.get(hand_url(match["id"], 1)).json()]
    projections += [body["state"] for body in record_each(client, match["id"], 1, moves, hand.version)]

    replays = [client.get(hand_url(match["id"], 1, f"replay/{n}/")).json() for n in range(len(moves) + 1)]

    assert [shown(r) for r in replays] == [shown(p) for p in projections]
    assert replays[0]["state"]["phase"] == "deal" and replays[0]["moves"] == []
    assert replays[-1]["state"]["over"] is True
    assert replays[-1]["result"] == projections[-1]["result"] is not None
    assert all(r["steps"] == len(moves) for r in replays)
    assert any(r["verdicts"] for r in replays), "the injected irregularity shows in the replay"
    assert replays[-1]["verdicts"][0]["move_index"] == played.irregular_at


def test_a_step_past_the_end_is_refused(people: People) -> None:
    client = client_for(people.director)
    match = create_match(client, people.club, GAMES[0])

    response = client.get(hand_url(match["id"], 1, "replay/1/"))

    assert response.status_code == 422
    assert response.json() == {
        "code": "replay.step",
        "message": "step must be between 0 and 0",
        "field": "step",
        "params": {},
    }


def test_replay_shows_the_holdings_the_trick_and_the_legal_moves(people: People) -> None:
    client = client_for(people.director)
    match = create_match(client, people.club, GAMES[0])
    hand = hand_of(match)
    played = play_irregular(hand, seed=4)
    record(client, match["id"], 1, played.moves, hand.version)
    step = 1 + next(i for i, s in enumerate(played.states[1:]) if played.game.legal_moves(s))

    body = client.get(hand_url(match["id"], 1, f"replay/{step}/")).json()

    state = played.states[step]
    assert body["state"]["hands"] == [sorted(h, key=played.game.deck.cards.index) for h in state.hands.hands]
    assert body["state"]["legal_move_count"] == len(played.game.legal_moves(state))
    assert body["state"]["to_act"] == sorted(played.game.to_act(state))
    assert set(body["state"]) >= {"trick", "tricks_taken", "hand_counts", "phase", "game_state"}
