"""What if a match had been scored under other options (scoring.hands.whatif): under its own options it
is exactly its sheet; under others it is exactly what checking the record with those options gives, or
it names the hand and move that cannot stand there. Nothing of the record is changed."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hands.fold import MoveEntry
from scoring.hands.records import RecordError, check, export_match
from scoring.hands.whatif import rescore
from scoring.rules import game_names, get_game
from tests.scoring.rules.playout import examples, play_random

EXAMPLE = "docs/examples/tressette-hand.json"


def random_options(name: str, rng: random.Random) -> dict[str, Any]:
    """Some of the game's options with a choice, set at random (the others at their defaults)."""
    game = get_game(name)
    return {o.name: rng.choice(o.choices) for o in game.ruleset.options if o.choices and rng.random() < 0.5}


def random_match(name: str, rng: random.Random, hands: int, options: dict[str, Any]) -> dict[str, Any]:
    """A match record of `hands` random legal hands (each with its match context), dealers in turn."""
    game = get_game(name)
    seats = rng.choice(game.seat_counts)
    values = game.ruleset.validate(options)
    results = []
    played = []
    dealer = rng.randrange(seats)
    for _ in range(hands):
        context = game.match_context(values, seats, results)
        out = play_random(game, rng, seats=seats, dealer=dealer, options=options, context=context)
        result = game.result(out.final)
        results.append(result)
        played.append((dealer, [MoveEntry(i, m) for i, m in enumerate(out.moves)]))
        dealer = game.next_dealer(values, seats, dealer, result)
    return export_match(name, options, [f"P{i}" for i in range(seats)], "anticlockwise", played)


@settings(max_examples=examples(40), deadline=None)
@given(name=st.sampled_from(game_names()), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 3))
def test_under_its_own_options_a_match_is_exactly_its_sheet(name: str, seed: int, hands: int) -> None:
    rng = random.Random(seed)
    record = random_match(name, rng, hands, random_options(name, rng))
    before = copy.deepcopy(record)

    report = rescore(record, {})
    sheet = check(record)

    assert record == before  # a read: the record is not touched
    assert report["what_if"] is True and report["official"] is False
    assert report["changed"] == {} and report["refused"] is None
    assert not any(row["differs"] for row in report["hands"])
    assert report["totals"]["recorded"] == report["totals"]["what_if"] == sheet["scores"]
    assert report["winners"]["recorded"] == report["winners"]["what_if"] == sheet["winners"]
    assert [row["recorded"]["scores"] for row in report["hands"]] == [h["scores"] for h in sheet["hands"]]


@settings(max_examples=examples(60), deadline=None)
@given(name=st.sampled_from(game_names()), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 3))
def test_under_other_options_it_is_what_checking_the_record_under_them_gives(
    name: str, seed: int, hands: int
) -> None:
    rng = random.Random(seed)
    recorded = random_options(name, rng)
    record = random_match(name, rng, hands, recorded)
    other = random_options(name, rng)

    report = rescore(record, other)
    changed = {**record, "options": {**recorded, **other}}
    try:
        expected = check(changed)
    except RecordError as exc:
        # The refusal is the one checking the record under those options meets, at the same place.
        assert report["refused"] is not None
        assert report["refused"]["code"] == exc.code and report["refused"]["field"] == exc.field
        refused_at = report["refused"]["hand"]
        assert all(row["what_if"] is None for row in report["hands"][refused_at:])
        assert all(row["what_if"] is not None for row in report["hands"][:refused_at])
        return
    assert report["refused"] is None
    assert report["totals"]["what_if"] == expected["scores"]
    assert report["winners"]["what_if"] == expected["winners"]
    assert [row["what_if"]["scores"] for row in report["hands"]] == [h["scores"] for h in expected["hands"]]
    differs = [a != b for a, b in zip(report["totals"]["recorded"], report["totals"]["what_if"], strict=True)]
    assert report["totals"]["differs"] == differs


THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "Q": 1, "J": 1}  # docs/rules/tressette.md; 7 6 5 4 are worth 0


def by_hand(captured: list[list[str]], last: int, sides: list[list[int]], rounding: str) -> list[int]:
    """A side's card points as docs/rules/tressette.md words them, counted from the captured cards."""
    points = []
    for side in sides:
        thirds = sum(THIRDS.get(card[:-1], 0) for seat in side for card in captured[seat])
        won_last = last in side
        points.append((thirds + won_last + 1) // 3 if rounding == "seed" else thirds // 3 + won_last)
    return points


@pytest.mark.parametrize("seed", range(6))
def test_tressette_under_the_other_rounding_is_what_the_rules_page_counts(seed: int) -> None:
    record = random_match("tressette", random.Random(1000 + seed), 1, {})
    report = rescore(record, {"rounding": "traditional"})
    details = check(record)["hands"][0]["details"]
    sides = details["sides"]

    assert report["changed"] == {"rounding": ["seed", "traditional"]}
    recorded = [int(s) for s in report["hands"][0]["recorded"]["scores"]]
    what_if = [int(s) for s in report["hands"][0]["what_if"]["scores"]]
    declared = details["declaration_points"]
    seed_points = by_hand(details["captured"], details["last_trick"], sides, "seed")
    traditional = by_hand(details["captured"], details["last_trick"], sides, "traditional")
    for i, side in enumerate(sides):
        for seat in side:
            assert recorded[seat] == seed_points[i] + declared[i]
            assert what_if[seat] == traditional[i] + declared[i]
    assert report["hands"][0]["differs"] == (seed_points != traditional)


def test_a_move_that_cannot_stand_under_other_options_is_named_with_its_hand() -> None:
    # Tressette for three drops one four (the 4 of bastoni, 4C, by default), so a three-player deal holds
    # the other three. Under another `removed_four` one of the dealt cards is out of play: the first
    # hand's deal cannot stand, which the comparison says, and it scores nothing under those options.
    record = next(
        r
        for seed in range(50)
        if len((r := random_match("tressette", random.Random(seed), 2, {}))["seats"]) == 3
    )

    report = rescore(record, {"removed_four": "4D"})

    assert report["refused"] is not None
    assert report["refused"]["hand"] == 0 and report["refused"]["move"] is None  # the deal
    assert report["refused"]["field"].startswith("hands[0].deal")
    assert "hands[" not in report["refused"]["template"]  # the engine's own words, for any language
    assert report["hands"][0]["what_if"] is None and report["hands"][1]["what_if"] is None
    assert all(row["differs"] for row in report["hands"])
    assert report["totals"]["recorded"] == check(record)["scores"]
    assert report["finished"]["what_if"] is False


def test_options_that_are_not_the_games_are_refused_as_malformed() -> None:
    with open(EXAMPLE, encoding="utf-8") as handle:
        record = json.load(handle)

    with pytest.raises(RecordError) as refused:
        rescore(record, {"no_such_option": 1})
    assert refused.value.malformed and refused.value.field is not None
    assert refused.value.field.startswith("options.")

    with pytest.raises(RecordError) as refused:
        rescore(record, ["rounding"])  # type: ignore[arg-type]
    assert refused.value.malformed and refused.value.field == "options"
