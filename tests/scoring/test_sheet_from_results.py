"""The match sheet, and the context a new hand starts from, are computed from the results the projection
stored with each hand (no hand folded again): for every game they must equal what the engine's own
results give."""

from __future__ import annotations

import json
import random

import pytest

from scoring.rules import HandResult, game_names, get_game
from scoring.selectors import result_from_dict, sheet_of
from tests.scoring.rules.playout import play_random


def random_match(name: str, seed: int, hands: int) -> tuple[int, list[HandResult]]:
    """Hands played at random on the engine, each with the match's context so far."""
    game = get_game(name)
    rng = random.Random(seed)
    seats = rng.choice(game.seat_counts)
    options = game.ruleset.validate({})
    results: list[HandResult] = []
    dealer = 0
    for _ in range(hands):
        if results and game.match_result(options, seats, results).finished:
            break
        context = game.match_context(options, seats, results)
        played = play_random(game, rng, seats=seats, dealer=dealer, context=context)
        result = game.result(played.final)
        results.append(result)
        dealer = game.next_dealer(options, seats, dealer, result)
    return seats, results


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("seed", range(4))
def test_the_sheet_from_stored_results_equals_the_sheet_from_the_engines_results(
    name: str, seed: int
) -> None:
    seats, results = random_match(name, seed, hands=12)
    stored = [json.loads(json.dumps(r.as_dict())) for r in results]  # as the database gives them back
    names = [f"P{i}" for i in range(seats)]
    options = get_game(name).ruleset.validate({})

    from_engine = sheet_of(name, options, names, list(enumerate(results, start=1)))
    from_rows = sheet_of(
        name, options, names, [(n, result_from_dict(r)) for n, r in enumerate(stored, start=1)]
    )

    assert from_rows == from_engine
    assert [result_from_dict(r).scores for r in stored] == [r.scores for r in results]
    game = get_game(name)
    rebuilt = [result_from_dict(r) for r in stored]
    assert game.match_context(options, seats, rebuilt) == game.match_context(options, seats, results)


@pytest.mark.parametrize("name", game_names())
def test_results_stored_before_outcome_texts_still_make_the_sheet(name: str) -> None:
    seats, results = random_match(name, 5, hands=4)
    stored = [{k: v for k, v in r.as_dict().items() if k != "outcome_text"} for r in results]
    names = [f"P{i}" for i in range(seats)]
    options = get_game(name).ruleset.validate({})

    old = [result_from_dict(r) for r in json.loads(json.dumps(stored))]
    sheet = sheet_of(name, options, names, list(enumerate(old, start=1)))
    now = sheet_of(name, options, names, list(enumerate(results, start=1)))

    assert all(r.outcome_text is None for r in old)
    assert all(row.get("outcome_text") is None for row in sheet["rows"])
    # The same sheet in every other way: the texts are only missing.
    untexted = [{**row, "outcome_text": None} if "outcome_text" in row else row for row in now["rows"]]
    assert sheet == {**now, "rows": untexted}
