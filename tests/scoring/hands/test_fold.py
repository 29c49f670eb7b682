"""The fold of a hand's log (pure, no database): moves, undos and rulings, for every game."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hands.fold import (
    Entry,
    MoveEntry,
    RulingEntry,
    Setup,
    UndoEntry,
    _team_scores,
    check_log,
    check_ruling,
    extend,
    fold,
)
from scoring.rules import HandResult, ImpossibleMove, MalformedMove, game_names, get_game
from scoring.rules.moves import Move
from tests.scoring.api_support import first_irregular, side_scores
from tests.scoring.rules.playout import play_random

GAMES = game_names()
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def log_of(name: str, seed: int) -> tuple[Setup, list[MoveEntry], Any]:
    game = get_game(name)
    rng = random.Random(seed)
    p = play_random(game, rng, seats=game.seat_counts[0], dealer=0)
    setup = Setup(name, dict(p.options), tuple(f"p{i}" for i in range(p.seats)), 0)
    return setup, [MoveEntry(i + 1, m, "s") for i, m in enumerate(p.moves)], p


def ruling(position: int, refs: tuple[int, ...], **rect: Any) -> RulingEntry:
    return RulingEntry(position, refs, "rule", "why", rect, "d")


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_extending_move_by_move_equals_folding_the_whole_log(name: str, seed: int) -> None:
    setup, entries, p = log_of(name, seed)
    view = fold(setup, [])

    for entry in entries:
        view, _ = extend(view, entry)

    whole = fold(setup, entries)
    assert view.states == whole.states == tuple(p.states)
    assert view.result == whole.result == p.game.result(p.final)
    assert check_log(setup, entries)[0].result == whole.result


@pytest.mark.parametrize("name", GAMES)
def test_an_undone_move_no_longer_stands(name: str) -> None:
    setup, entries, _ = log_of(name, 1)
    typed = entries[:3]
    undo = UndoEntry(4, 3, "typo")
    again = MoveEntry(5, entries[2].move)

    view = fold(setup, [*typed, undo, again])

    assert [m.position for m in view.moves] == [1, 2, 5]
    assert view.state == fold(setup, entries[:3]).state
    assert view.undone == (undo,)


def irregular_log(name: str) -> tuple[Setup, list[Entry], int]:
    """A finished hand with one irregular card at log position ``at``."""
    game = get_game(name)
    for seed in range(100):
        rng = random.Random(seed)
        p = play_random(game, rng, seats=game.seat_counts[0], dealer=0)
        found = first_irregular(game, p.states)
        if found is None:
            continue
        index, move, step = found
        moves: list[Move] = [*p.moves[:index], move]
        state = step.state
        while not state.over:
            nxt = rng.choice(game.legal_moves(state))
            state = game.apply(state, nxt).state
            moves.append(nxt)
        setup = Setup(name, dict(p.options), tuple(f"p{i}" for i in range(p.seats)), 0)
        return setup, [MoveEntry(i + 1, m) for i, m in enumerate(moves)], index + 1
    raise AssertionError(f"{name}: no irregular hand")


@pytest.mark.parametrize("name", GAMES)
def test_an_irregularity_flags_the_hand_until_a_ruling_settles_it(name: str) -> None:
    setup, entries, at = irregular_log(name)
    end = len(entries) + 1

    found = fold(setup, entries)
    stands = fold(setup, [*entries, ruling(end, (at,), kind="stands")])
    dismissed = fold(setup, [*entries, ruling(end, (at,), kind="dismiss")])

    assert found.flagged and not found.legal
    assert found.verdicts[0].position == at
    assert not stands.flagged and not stands.legal and stands.verdicts[0].ruled_by == (end,)
    assert not dismissed.flagged and dismissed.legal
    assert stands.result == dismissed.result == found.result


@pytest.mark.parametrize("name", GAMES)
def test_a_penalty_adds_and_an_assigned_score_replaces(name: str) -> None:
    setup, entries, at = irregular_log(name)
    end = len(entries) + 1
    before = fold(setup, entries).result
    assert before is not None
    seat = fold(setup, entries).verdicts[0].verdict.seat
    assert seat is not None
    delta = side_scores(before, seat, -2, 1)
    assigned = side_scores(before, seat, "5/3", 0)  # type: ignore[arg-type]

    penalised = fold(setup, [*entries, ruling(end, (at,), kind="penalty", scores=delta)]).result
    replaced = fold(setup, [*entries, ruling(end, (at,), kind="assign_score", scores=assigned)]).result

    assert penalised is not None and replaced is not None
    assert list(penalised.scores) == [s + d for s, d in zip(before.scores, delta, strict=True)]
    assert list(replaced.scores) == [Fraction(5, 3) if s == "5/3" else s for s in assigned]
    assert penalised.details["ruled"] == ["rule"]
    # The line above the scores says what the director did, never what the play alone would say.
    assert penalised.outcome == f"{before.outcome}; penalty by the director (rule)"
    assert replaced.outcome == f"scores assigned by the director (rule); as played: {before.outcome}"
    # So does its text for a translation, with what the play said nested in it.
    assert before.outcome_text is not None
    played = before.outcome_text.as_dict()
    assert penalised.outcome_text is not None and replaced.outcome_text is not None
    assert penalised.outcome_text.params == {"rule": "rule", "outcome": played}
    assert replaced.outcome_text.params == {"rule": "rule", "outcome": played}
    assert penalised.outcome_text.message == f"{before.outcome_text.message}; penalty by the director (rule)"


def test_a_side_that_shares_its_score_is_given_one_number() -> None:
    # Tressette for four: both partners carry the side's score; the side's score follows the ruling.
    shared = HandResult("", (7, 4, 7, 4), teams=((0, 2), (1, 3)), team_scores=(7, 4))
    # An hombre and two defenders who each pay: the defenders' side is their sum.
    summed = HandResult("", (4, -2, -2), teams=((0,), (1, 2)), team_scores=(4, -4))

    assert _team_scores(shared, (9, 2, 9, 2)) == (9, 2)
    with pytest.raises(MalformedMove) as split:
        _team_scores(shared, (9, 2, 8, 2))
    assert split.value.field == "scores"
    assert _team_scores(summed, (4, -3, -1)) == (4, -4)
    assert _team_scores(summed, (6, -3, -1)) == (6, -4)


@pytest.mark.parametrize(
    ("refs", "rect", "error", "code"),
    [
        ((2,), {"kind": "forgive"}, MalformedMove, "ruling.malformed"),
        ((), {"kind": "stands"}, MalformedMove, "ruling.malformed"),
        ((999,), {"kind": "stands"}, ImpossibleMove, "ruling.ref"),
        (
            (2, 3),
            {"kind": "replace_move", "move": {"type": "play", "seat": 0, "card": "AS"}},
            MalformedMove,
            "ruling.malformed",
        ),
        ((2,), {"kind": "replace_move", "move": {"type": "nope"}}, MalformedMove, "move.malformed"),
        ((2,), {"kind": "penalty", "scores": [0]}, ImpossibleMove, "ruling.not_over"),
    ],
)
def test_a_ruling_that_cannot_apply_is_refused(
    refs: tuple[int, ...], rect: dict[str, Any], error: type[Exception], code: str
) -> None:
    setup, entries, _ = log_of(GAMES[0], 2)
    view = fold(setup, entries[:4])

    with pytest.raises(error) as caught:
        check_ruling(view, refs, rect)

    assert caught.value.code == code  # type: ignore[attr-defined]


@pytest.mark.parametrize("scores", [["x", 0, 0, 0], [True, 0, 0, 0], [1.5, 0, 0, 0], [0]])
def test_ruled_scores_must_be_whole_numbers_or_exact_fractions(scores: list[Any]) -> None:
    setup, entries, _ = log_of("tressette" if "tressette" in GAMES else GAMES[0], 2)
    seats = len(setup.seats)
    scores = (scores + [0] * seats)[:seats] if len(scores) > 1 else scores

    with pytest.raises(MalformedMove) as caught:
        fold(setup, [*entries, ruling(len(entries) + 1, (2,), kind="assign_score", scores=scores)])

    assert caught.value.field == "scores"


@pytest.mark.parametrize("name", GAMES)
def test_a_replaced_move_must_still_fit_the_rest_of_the_hand(name: str) -> None:
    setup, entries, _ = log_of(name, 3)
    deal = entries[0]
    # Every later card was dealt by the first deal: an empty deal cannot stand under them.
    bad = ruling(
        len(entries) + 1, (deal.position,), kind="replace_move", move={"type": "deal", "hands": [[]]}
    )

    with pytest.raises(ImpossibleMove) as caught:
        check_log(setup, [*entries, bad])

    assert caught.value.field is not None and caught.value.field.startswith(f"position {len(entries) + 1}")


@pytest.mark.parametrize("name", GAMES)
def test_the_fold_names_the_position_of_a_move_that_cannot_stand(name: str) -> None:
    setup, entries, _ = log_of(name, 4)
    broken = [*entries[:5], MoveEntry(6, entries[3].move), *entries[6:]]
    before = fold(setup, entries[:5]).state  # the hand up to the move that cannot stand
    with pytest.raises(ImpossibleMove) as engine:
        get_game(name).apply(before, entries[3].move)

    with pytest.raises(ImpossibleMove) as caught:
        fold(setup, broken)

    assert type(caught.value) is type(engine.value) and caught.value.code == engine.value.code
    assert caught.value.message == f"move at position 6: {engine.value.message}"
    assert caught.value.field == engine.value.field


def test_check_log_names_the_entry_that_cannot_stand() -> None:
    setup, entries, _ = log_of(GAMES[0], 4)
    broken = [*entries[:5], MoveEntry(6, entries[3].move), *entries[6:]]

    with pytest.raises(ImpossibleMove) as caught:
        check_log(setup, broken, lambda p: f"moves[{p - 1}]")

    assert caught.value.message.startswith("moves[5]: ")
    assert caught.value.field is not None and caught.value.field.startswith("moves[5].")
