"""The match with the director's adjustments (scoring.hands.match): the game scores its own columns, the
adjustments are added after; without any, the match is exactly the game's own."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from scoring.hands.match import adjusted, own_results
from scoring.rules import game_names, get_game
from tests.scoring.test_sheet_from_results import random_match


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("seed", range(3))
def test_without_adjustments_the_match_is_the_games_own(name: str, seed: int) -> None:
    seats, results = random_match(name, seed, hands=30)
    game = get_game(name)
    options = game.ruleset.validate({})

    assert adjusted(game, options, seats, results) == game.match_result(options, seats, results)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("seed", range(3))
def test_adjustments_are_added_to_the_games_totals_and_decide_the_highest(name: str, seed: int) -> None:
    seats, results = random_match(name, seed, hands=30)
    game = get_game(name)
    options = game.ruleset.validate({})
    own = game.match_result(options, seats, results)
    change = tuple([-7, *[0] * (seats - 1)]) if seed else tuple([Fraction(1, 3)] * seats)
    ruled = [
        *results[:-1],
        replace(
            results[-1],
            scores=tuple(s + c for s, c in zip(results[-1].scores, change, strict=True)),
            adjustments=change,
        ),
    ]

    match = adjusted(game, options, seats, ruled)

    assert own_results(ruled) == results  # the game sees what was played
    assert match.details["game_totals"] == list(own.totals)
    assert match.totals == tuple(t + c for t, c in zip(own.totals, change, strict=True))
    assert match.finished == own.finished
    assert match.rows[len(own.rows) - 1]["adjustment"] == list(change)
    if own.finished and set(own.winners) == {s for s, t in enumerate(own.totals) if t == max(own.totals)}:
        assert set(match.winners) == {s for s, t in enumerate(match.totals) if t == max(match.totals)}
