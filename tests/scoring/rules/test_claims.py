"""The claim solver's edges: the budget, the hands keyed when the deal was not recorded, claims the engine
refuses, and the answer's shape."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.rules import ImpossibleMove, get_game
from scoring.rules.claims import UNDECIDED, adjudicate, question, random_position, solve
from scoring.rules.moves import Claim


def position(name: str, tricks: int, seed: int = 1, seats: int | None = None) -> Any:
    game = get_game(name)
    rng = random.Random(seed)
    found = None
    while found is None:
        found = random_position(game, rng, tricks_left=tricks, seats=seats)
    return game, found[0]


def leader(state: Any) -> int:
    play = state.__dict__.get("play") or state.__dict__.get("tricks")
    return int(play.current.leader)


def test_a_budget_that_runs_out_answers_undecided_with_the_bounds_proved() -> None:
    game, state = position("tressette", 10, seats=4)

    answer = solve(question(game, state, Claim(seat=leader(state))), budget=0.0)

    assert answer["verdict"] == UNDECIDED
    assert answer["best"] is None and answer["careless"] is None
    assert answer["bounds"] == {"best": [0, 10], "careless": [0, 10]}
    assert "line" not in answer
    assert answer["elapsed_ms"] < 1000


def test_the_answer_has_every_key_in_the_claim_s_unit() -> None:
    game, state = position("tressette", 3, seats=3)

    answer = solve(question(game, state, Claim(seat=leader(state))))

    assert answer["unit"] == "tricks" and answer["claimed"] == 3 and answer["tricks_left"] == 3
    assert 0 <= answer["careless"] <= answer["best"] <= 3
    assert answer["nodes"] > 0 and answer["elapsed_ms"] >= 0
    assert answer["claimer"] == leader(state) and answer["side"] == [leader(state)]


def test_only_the_player_on_lead_may_claim() -> None:
    game, state = position("hombre_it", 4)

    with pytest.raises(ImpossibleMove) as caught:
        question(game, state, Claim(seat=(leader(state) + 1) % 3))

    assert caught.value.code == "claim.not_allowed"


def test_a_claim_in_terms_the_game_refuses_is_refused() -> None:
    game, state = position("tarocchi", 4)

    with pytest.raises(ImpossibleMove) as caught:
        question(game, state, Claim(seat=leader(state), tricks=1))

    assert caught.value.code == "tarocchi.claim_all_only"


def test_keyed_hands_must_match_the_recorded_deal() -> None:
    game, state = position("barbu", 3)
    hands = [sorted(h) for h in state.hands.hands]
    hands[0], hands[1] = hands[1], hands[0]

    with pytest.raises(ImpossibleMove) as caught:
        adjudicate(game, state, Claim(seat=leader(state)), hands=hands)

    assert caught.value.code == "claim.hands"


def test_keyed_hands_cannot_hold_a_card_already_played() -> None:
    game, state = position("tressette", 3, seats=4)
    gone = next(iter(state.hands.gone))
    hands = [sorted(h) for h in state.hands.hands]
    hands[0][0] = gone

    with pytest.raises(ImpossibleMove) as caught:
        adjudicate(game, state, Claim(seat=leader(state)), hands=hands)

    assert caught.value.code in ("card.gone", "claim.hands")


def test_keyed_hands_give_the_same_answer_as_the_recorded_deal() -> None:
    game, state = position("lhombre", 3, seed=4)
    hands = [sorted(h) for h in state.hands.hands]
    claim = Claim(seat=leader(state))

    keyed = adjudicate(game, state, claim, hands=hands)
    recorded = adjudicate(game, state, claim)

    drop = ("nodes", "elapsed_ms")
    assert {k: v for k, v in keyed.items() if k not in drop} == {
        k: v for k, v in recorded.items() if k not in drop
    }
