"""The claim solver against a plain minimax over the engine itself (no pruning, no table, no solver code
but the question), on random positions of up to four tricks, for every game and option set that changes
play. The oracle plays the engine's own legal cards and reads the result from the engine's own scoring,
so the solver's compact rules, its equivalent-card runs, its bounds and its table are all checked."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import get_game
from scoring.rules.claims import (
    FAILS,
    HOLDS,
    HOLDS_WITH_BEST_PLAY,
    Question,
    play_line,
    question,
    random_claim,
    random_position,
    result_value,
    solve,
)
from scoring.rules.moves import PlayCard
from tests.scoring.rules.playout import examples

# (game, seats, options, contract): every option that changes which card may be played or what it is worth.
CASES: list[tuple[str, int, dict[str, Any], str | None]] = [
    ("tressette", 4, {}, None),
    ("tressette", 4, {"rounding": "traditional"}, None),
    ("tressette", 4, {"team_rounding": "per_player"}, None),
    ("tressette", 4, {"team_rounding": "per_player", "rounding": "traditional"}, None),
    ("tressette", 3, {}, None),
    ("tressette", 3, {"rounding": "traditional", "removed_four": "4D"}, None),
    ("barbu", 4, {}, "MP"),
    ("barbu", 4, {"mp_trump_obligation": "must_trump"}, "MP"),
    ("barbu", 4, {"mp_trump_obligation": "overtrump_on_trump_lead"}, "MP"),
    ("barbu", 4, {}, "MIS"),
    ("barbu", 4, {"misere_pass": "none"}, "MIS"),
    ("barbu", 4, {}, "NPR"),
    ("barbu", 4, {"must_discard_kh": True}, "NPR"),
    ("barbu", 4, {"early_end": "automatic"}, "NPD"),
    ("barbu", 4, {"early_end": "never"}, "NPC"),
    ("barbu", 4, {}, "NPUD"),
    ("hombre_it", 3, {}, None),
    ("hombre_it", 3, {"n_matadors": 3}, None),
    ("hombre_it", 3, {"plain_order": "natural"}, None),
    ("lhombre", 3, {}, None),
    ("tarocchi", 3, {}, None),
    ("tarocchi", 3, {"must_trump_when_void": False}, None),
    ("tarocchi", 3, {"must_overtrump": True}, None),
    ("tarocchi", 3, {"fanta_rule_scope": "rest_of_deal"}, None),
    ("tarocchi", 3, {"fuggitivo_overrides_obligations": True}, None),
]


def oracle(game: Any, root: Any, state: Any, q: Question, *, careless: bool) -> int:
    """Plain minimax: the side's result (in the claim's unit) with best play on both sides, or with the
    claimer's side playing any card (``careless``) against the best defence."""
    if state.over:
        return result_value(game, root, state, q)
    plays = [m for m in game.legal_moves(state) if isinstance(m, PlayCard)]
    assert plays, "a hand in play always has a card to play"
    values = [oracle(game, root, game.apply(state, m).state, q, careless=careless) for m in plays]
    goodness = [q.better * v for v in values]
    maximise = not careless and plays[0].seat in q.side
    pick = max(goodness) if maximise else min(goodness)
    return q.better * pick


def position(case: tuple[str, int, dict[str, Any], str | None], seed: int, tricks: int) -> tuple[Any, Any]:
    name, seats, options, contract = case
    game = get_game(name)
    rng = random.Random(seed)
    for _attempt in range(50):
        found = random_position(
            game, rng, tricks_left=tricks, options=options, seats=seats, contract=contract
        )
        if found is not None:
            return game, found[0]
    pytest.skip("no hand came to play")


def tricks_for(name: str, seats: int) -> st.SearchStrategy[int]:
    # Four tricks by four players is up to 331,776 lines for the oracle: three tricks there by default.
    return st.integers(1, 4 if seats == 3 else 3)


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[3] or ''}-{'-'.join(map(str, c[2].values()))}"
)
@settings(max_examples=examples(12))
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_the_solver_agrees_with_a_plain_minimax(case: Any, seed: int, data: Any) -> None:
    tricks = data.draw(tricks_for(case[0], case[1]))
    game, state = position(case, seed, tricks)
    claim = random_claim(game, state, random.Random(seed))
    q = question(game, state, claim)
    answer = solve(q, budget=60)
    best = oracle(game, state, state, q, careless=False)
    careless = oracle(game, state, state, q, careless=True)
    assert answer["best"] == best
    assert answer["careless"] == careless
    good = q.better
    if good * careless >= good * q.claimed:
        assert answer["verdict"] == HOLDS
    elif good * best >= good * q.claimed:
        assert answer["verdict"] == HOLDS_WITH_BEST_PLAY
    else:
        assert answer["verdict"] == FAILS
    if answer["verdict"] != HOLDS:
        # The line is legal, reaches the end, and gives what the solver says it gives.
        end = play_line(game, state, answer["line"])
        assert end.over
        assert result_value(game, state, end, q) == answer["line_result"]
        assert good * answer["line_result"] < good * q.claimed
    else:
        assert "line" not in answer


@pytest.mark.parametrize("case", CASES[::2], ids=lambda c: f"{c[0]}-{c[1]}-{c[3] or ''}")
@settings(max_examples=examples(3))
@given(seed=st.integers(0, 2**32 - 1))
def test_a_line_replayed_through_the_fold_gives_what_the_solver_says(case: Any, seed: int) -> None:
    from scoring.hands.records import check_entries, load_hand
    from scoring.rules.moves import move_to_dict

    name, seats, options, contract = case
    game = get_game(name)
    rng = random.Random(seed)
    found = None
    for _attempt in range(50):
        found = random_position(game, rng, tricks_left=4, options=options, seats=seats, contract=contract)
        if found is not None:
            break
    if found is None:
        pytest.skip("no hand came to play")
    state, moves = found
    claim = random_claim(game, state, rng)
    q = question(game, state, claim)
    answer = solve(q, budget=60)
    if answer["verdict"] == HOLDS:
        return
    deal = move_to_dict(moves[0])
    del deal["type"]
    record = {
        "format": "segnapunti.hand",
        "format_version": 1,
        "game": name,
        "options": options,
        "seats": [f"P{i}" for i in range(seats)],
        "dealer": state.dealer,
        "deal": deal,
        "moves": [move_to_dict(m) for m in moves[1:]] + answer["line"][: _until_over(game, state, answer)],
    }
    setup, entries, _direction = load_hand(record)
    view, _verdicts = check_entries(setup, entries)
    assert view.over and view.legal
    assert result_value(game, view.states[len(moves)], view.state, q) == answer["line_result"]


def _until_over(game: Any, state: Any, answer: dict[str, Any]) -> int:
    """How many of the line's cards are played before the hand ends (an automatic early end stops it)."""
    for n, move in enumerate(answer["line"]):
        if state.over:
            return n
        state = game.apply(state, PlayCard(seat=move["seat"], card=move["card"])).state
    return len(answer["line"])
