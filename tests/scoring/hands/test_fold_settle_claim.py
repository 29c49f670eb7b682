"""A disputed claim settled by a director's ruling (``settle_claim``): the hand ends as the ruling's line
plays it out through the game's own scoring, or as the claim was stated when it holds; a ruling that
cannot apply is refused naming its rule. Every game that accepts claims, on random positions."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from scoring.hands.fold import MoveEntry, RulingEntry, Setup, check_ruling, fold
from scoring.hands.records import check_entries, export_hand, load_hand
from scoring.rules import ImpossibleMove, MalformedMove, get_game
from scoring.rules.claim_ruling import careless_line, settlement
from scoring.rules.claims import (
    HOLDS,
    play_line,
    question,
    random_claim,
    random_position,
    result_value,
    solve,
)
from scoring.rules.moves import Claim, ClaimResponse

CLAIM_GAMES = ["tressette", "barbu", "tarocchi", "hombre_it", "lhombre"]
SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "record-format.schema.json").read_text())
SCHEMA_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def disputed(name: str, seed: int, tricks_left: int = 3) -> tuple[Setup, list[MoveEntry], Any, Claim, int]:
    """A hand of ``name`` played at random to a claim, which the next seat disputes: the log, the state
    at the claim, the claim and the claim's position in the log."""
    game = get_game(name)
    rng = random.Random(seed)
    seats = game.seat_counts[0]
    while True:
        found = random_position(game, rng, tricks_left=tricks_left, seats=seats, dealer=0)
        if found is None:
            continue
        state, moves = found
        try:
            claim = random_claim(game, state, rng)
            question(game, state, claim)
        except ImpossibleMove:
            continue
        break
    assert claim.seat is not None
    log = [*moves, claim, ClaimResponse(seat=(claim.seat + 1) % seats, accept=False)]
    setup = Setup(name, {}, tuple(f"p{i}" for i in range(seats)), 0)
    entries = [MoveEntry(i + 1, m, "s") for i, m in enumerate(log)]
    return setup, entries, state, claim, len(moves) + 1


def settle(position: int, claim_at: int, line: list[dict[str, Any]]) -> RulingEntry:
    return RulingEntry(
        position, (claim_at,), "claim.disputed", "why", {"kind": "settle_claim", "line": line}, "d"
    )


@pytest.mark.parametrize("name", CLAIM_GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_a_settled_claim_ends_the_hand_at_what_the_answer_gives(name: str, seed: int) -> None:
    setup, entries, state, claim, at = disputed(name, seed)
    game = get_game(name)
    answer = solve(question(game, state, claim))
    settled = settlement(game, state, claim, answer)
    assert settled is not None
    line = settled["rectification"]["line"]
    before = fold(setup, entries)
    assert not before.over and before.flagged

    check_ruling(before, [at], settled["rectification"])
    after = fold(setup, [*entries, settle(len(entries) + 1, at, line)])

    assert after.over and not after.flagged and after.result is not None
    assert after.moves == before.moves  # the line is the ruling's, not recorded play
    if answer["verdict"] == HOLDS:
        assert line == [] and after.state.settled_claim == claim
        assert after.result == game.result(game.settle_claim(before.state, claim))
    else:
        assert settled["result"] == answer["careless"]
        end = play_line(game, state, line)
        assert result_value(game, state, end, question(game, state, claim)) == answer["careless"]
        assert after.result == game.result(after.state)


def test_the_careless_line_gives_exactly_the_careless_value() -> None:
    for seed in range(30):
        name = CLAIM_GAMES[seed % len(CLAIM_GAMES)]
        _setup, _entries, state, claim, _at = disputed(name, seed, tricks_left=2 + seed % 3)
        game = get_game(name)
        q = question(game, state, claim)
        answer = solve(q)
        found = careless_line(game, state, claim)
        assert found is not None
        end = play_line(game, state, found["line"])
        assert end.over
        assert result_value(game, state, end, q) == found["result"] == answer["careless"]


def test_a_claim_not_disputed_cannot_be_settled() -> None:
    setup, entries, state, claim, at = disputed("tressette", 1)
    accepted = entries[:-1]  # the claim, still waiting for its answers

    with pytest.raises(ImpossibleMove) as err:
        check_ruling(fold(setup, accepted), [at], {"kind": "settle_claim", "line": []})
    assert err.value.code == "ruling.claim"


def test_a_ruling_must_name_the_claim() -> None:
    setup, entries, _state, _claim, at = disputed("tressette", 2)

    with pytest.raises(ImpossibleMove) as err:
        check_ruling(fold(setup, entries), [at - 1], {"kind": "settle_claim", "line": []})
    assert err.value.code == "ruling.claim" and err.value.field == "refs"


def test_once_play_went_on_the_claim_is_ruled_on_as_played() -> None:
    setup, entries, _state, _claim, at = disputed("tressette", 3)
    view = fold(setup, entries)
    game = get_game("tressette")
    card = game.legal_moves(view.state)[0]
    played = [*entries, MoveEntry(len(entries) + 1, card, "s")]

    with pytest.raises(ImpossibleMove) as err:
        check_ruling(fold(setup, played), [at], {"kind": "settle_claim", "line": []})
    assert err.value.code == "ruling.claim" and "play went on" in err.value.message


def test_a_line_that_does_not_fit_is_refused() -> None:
    setup, entries, state, claim, at = disputed("tressette", 4)
    game = get_game("tressette")
    found = careless_line(game, state, claim)
    assert found is not None
    view = fold(setup, entries)

    with pytest.raises(ImpossibleMove) as short:
        check_ruling(view, [at], {"kind": "settle_claim", "line": found["line"][:-1]})
    assert short.value.code == "ruling.claim_line"
    swapped = [found["line"][1], found["line"][0], *found["line"][2:]]
    with pytest.raises(ImpossibleMove) as wrong:
        check_ruling(view, [at], {"kind": "settle_claim", "line": swapped})
    assert wrong.value.code == "ruling.claim_line" and "play 1" in wrong.value.message
    with pytest.raises(MalformedMove) as malformed:
        check_ruling(view, [at], {"kind": "settle_claim", "line": [{"type": "claim", "seat": 0}]})
    assert malformed.value.field == "rectification.line"


def test_a_settled_hand_takes_no_more_moves_nor_a_second_settlement() -> None:
    setup, entries, state, claim, at = disputed("tressette", 5)
    game = get_game("tressette")
    settled = settlement(game, state, claim, solve(question(game, state, claim)))
    assert settled is not None
    view = fold(setup, [*entries, settle(len(entries) + 1, at, settled["rectification"]["line"])])

    with pytest.raises(ImpossibleMove) as err:
        check_ruling(view, [at], settled["rectification"])
    assert err.value.code == "ruling.claim"


@pytest.mark.parametrize("name", CLAIM_GAMES)
def test_a_settled_claim_goes_through_a_record_and_back(name: str) -> None:
    setup, entries, state, claim, at = disputed(name, 7)
    game = get_game(name)
    settled = settlement(game, state, claim, solve(question(game, state, claim)))
    assert settled is not None
    log = [*entries, settle(len(entries) + 1, at, settled["rectification"]["line"])]
    record = export_hand(setup, log, "anticlockwise")

    assert not list(SCHEMA_VALIDATOR.iter_errors(json.loads(json.dumps(record))))
    again, back, _direction = load_hand(json.loads(json.dumps(record)))
    view, _verdicts = check_entries(again, back)
    assert view.over and view.result == fold(setup, log).result
