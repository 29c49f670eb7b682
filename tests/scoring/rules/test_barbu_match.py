"""Barbù's match: the Quadro (each dealer plays each contract once), the dealer rotation, the running
sheet, and a complete 28-hand match summing to 0."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import get_game
from scoring.rules.barbu import Barbu
from scoring.rules.core import HandResult, HandState
from scoring.rules.errors import ImpossibleMove, InvalidOptions
from scoring.rules.moves import Choose, Move

from .playout import play_random, thorough

GAME = get_game("barbu")
assert isinstance(GAME, Barbu)
CODES = ["MP", "MIS", "NPR", "NPD", "NPC", "NPUD", "DOM"]
THOROUGH = thorough()


def dealt(context: dict[str, Any] | None, dealer: int = 0) -> HandState:
    state = GAME.initial_state(None, seats=4, dealer=dealer, context=context)
    return GAME.apply(state, GAME.random_deal(state, random.Random(1))).state


def offered(state: HandState) -> list[str | None]:
    return [m.value for m in GAME.legal_moves(state) if isinstance(m, Choose)]


def test_with_no_context_every_contract_is_offered() -> None:
    assert offered(dealt(None)) == CODES


@pytest.mark.parametrize(
    "context",
    [
        {"played": {0: ["NPR", "MP"]}},
        {"played": [["NPR", "MP"], [], [], []]},
        json.loads(json.dumps({"played": {0: ["NPR", "MP"]}})),  # seat keys become strings
    ],
)
def test_a_contract_the_dealer_has_played_is_crossed_off_and_refused(context: dict[str, Any]) -> None:
    state = dealt(context)
    assert offered(state) == ["MIS", "NPD", "NPC", "NPUD", "DOM"]
    with pytest.raises(ImpossibleMove) as err:
        GAME.apply(state, Choose(seat=0, choice="contract", value="NPR"))
    assert err.value.code == "barbu.contract_played"
    # Another dealer's Quadro is his own: seat 1 may still choose NPR.
    other = dealt(context, dealer=1)
    assert GAME.apply(other, Choose(seat=1, choice="contract", value="NPR")).state.contract == "NPR"


def test_the_seventh_deal_offers_the_last_contract_and_an_eighth_is_refused() -> None:
    assert offered(dealt({"played": {2: CODES[1:]}}, dealer=2)) == ["MP"]
    with pytest.raises(ImpossibleMove) as full:
        GAME.initial_state(None, seats=4, dealer=2, context={"played": {2: CODES}})
    assert full.value.code == "barbu.quadro_full"


@pytest.mark.parametrize(
    "context",
    [{"played": {0: ["KING"]}}, {"played": [[], []]}, {"played": {5: []}}, {"played": {0: ["MP", "MP"]}}],
)
def test_a_malformed_context_is_refused(context: dict[str, Any]) -> None:
    with pytest.raises(ImpossibleMove) as err:
        GAME.initial_state(None, seats=4, dealer=0, context=context)
    assert err.value.code == "barbu.context"


def test_doubling_is_reserved() -> None:
    with pytest.raises(InvalidOptions):
        GAME.initial_state({"doubling": True}, seats=4, dealer=0)


def hand(contract: str, dealer: int, context: dict[str, Any] | None, seed: int = 0) -> HandResult:
    rng = random.Random(seed)

    def choose(state: HandState, legal: list[Move]) -> Move:
        if state.phase == "contract":
            return Choose(seat=dealer, choice="contract", value=contract)
        return rng.choice(legal)

    p = play_random(GAME, rng, seats=4, dealer=dealer, context=context, choose=choose)
    return GAME.result(p.final)


def test_the_match_context_lists_each_dealers_contracts_in_order() -> None:
    results = [hand("NPD", 0, None), hand("DOM", 1, None), hand("MP", 0, {"played": {0: ["NPD"]}})]
    assert GAME.match_context({}, 4, results) == {"played": [["NPD", "MP"], ["DOM"], [], []]}


def test_the_deal_passes_left_after_every_hand_by_default() -> None:
    result = hand("NPR", 3, None)
    assert GAME.next_dealer({}, 4, 3, result) == 0
    assert GAME.next_dealer({}, 4, 3, None) == 3  # a hand thrown in: the same dealer deals again


def test_seven_in_a_row_keeps_the_deal_until_the_quadro_is_full() -> None:
    options = {"dealer_rotation": "seven_in_a_row"}
    sixth = hand("DOM", 1, {"played": {1: CODES[:5]}})
    seventh = hand("NPR", 1, {"played": {1: [c for c in CODES if c != "NPR"]}})
    assert GAME.next_dealer(options, 4, 1, sixth) == 1
    assert GAME.next_dealer(options, 4, 1, seventh) == 2


def test_the_sheet_has_a_row_per_hand_and_each_players_quadro() -> None:
    first = hand("NPR", 0, None)
    second = hand("DOM", 1, None)
    sheet = GAME.match_result({}, 4, [first, second])
    assert not sheet.finished and sheet.winners == ()
    assert [r["contract"] for r in sheet.rows] == ["NPR", "DOM"]
    assert sheet.rows[1]["totals"] == [a + b for a, b in zip(first.scores, second.scores, strict=True)]
    assert sheet.rows[1]["opening_rank"] == second.details["opening_rank"]
    assert sheet.totals == tuple(sheet.rows[1]["totals"])
    assert sheet.details["sum"] == -20 + 65
    quadro = sheet.details["quadro"]
    assert quadro[0]["played"] == [{"hand": 1, "contract": "NPR", "scores": list(first.scores)}]
    assert quadro[0]["remaining"] == ["MP", "MIS", "NPD", "NPC", "NPUD", "DOM"]
    assert quadro[1]["net"] == 65 and quadro[2]["played"] == []
    json.dumps(sheet.as_dict())  # the sheet is JSON-friendly


@settings(max_examples=200 if THOROUGH else 8)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    rotation=st.sampled_from(["every_hand", "seven_in_a_row"]),
    first=st.integers(0, 3),
)
def test_a_complete_match_of_28_hands_sums_to_zero(seed: int, rotation: str, first: int) -> None:
    rng = random.Random(seed)
    options = {"dealer_rotation": rotation}
    results: list[HandResult] = []
    dealer = first
    dealers = []
    while not GAME.match_result(options, 4, results).finished:
        context = GAME.match_context(options, 4, results)
        # The contract is drawn at random among those the dealer has not played (the legal choices).
        p = play_random(GAME, rng, seats=4, dealer=dealer, options=options, context=context)
        results.append(GAME.result(p.final))
        dealers.append(dealer)
        dealer = GAME.next_dealer(options, 4, dealer, results[-1])
    sheet = GAME.match_result(options, 4, results)
    assert len(results) == 28 and sheet.finished and sheet.details["complete"]
    assert sum(sheet.totals) == 0 and sheet.details["sum"] == 0
    for q in sheet.details["quadro"]:
        assert sorted(e["contract"] for e in q["played"]) == sorted(CODES)
        assert q["remaining"] == [] and q["net"] == 0  # +130 and −130 by each dealer
    if rotation == "every_hand":
        assert dealers == [(first + i) % 4 for i in range(28)]
    else:
        assert dealers == [(first + i // 7) % 4 for i in range(28)]
    best = max(sheet.totals)
    assert sheet.winners == tuple(s for s in range(4) if sheet.totals[s] == best)
    assert sheet.rows[-1]["totals"] == list(sheet.totals)
