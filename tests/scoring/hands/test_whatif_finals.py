"""A what-if that changes only score-only options scores the hands' earlier folds again instead of
playing them card by card (scoring.hands.whatif.fold_reusing): it must give exactly what the full fold
gives, which stays the reference. And each game's declaration must hold: under score-only options the
same moves make the same finished states, but for the options and the context scoring reads."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hands.fold import Entry, MoveEntry, RulingEntry, Setup
from scoring.hands.fold import fold as fold_hand
from scoring.hands.match import own_results
from scoring.hands.records import export_match
from scoring.hands.whatif import Final, LoggedHand, _hands, fold, fold_reusing
from scoring.rules import Game, HandResult, game_names, get_game
from scoring.rules.claim_ruling import settlement
from scoring.rules.claims import question, solve
from scoring.rules.core import HandState
from scoring.rules.moves import Call, Move, PlayCard
from tests.scoring.hands.test_fold_settle_claim import CLAIM_GAMES, disputed, settle
from tests.scoring.hands.test_whatif import random_options
from tests.scoring.rules.playout import examples, play_random


def random_match(name: str, rng: random.Random, hands: int, options: dict[str, Any]) -> dict[str, Any]:
    """A match record of `hands` random legal hands, each with its match context; where a Tressette
    table lets a side call itself out, now and then a player does (random play never calls)."""
    game = get_game(name)
    seats = rng.choice(game.seat_counts)
    values = game.ruleset.validate(options)
    calls = name == "tressette" and bool(game.play_context(values, {"totals": []}))

    def choose(state: HandState, legal: list[Move]) -> Move:
        if calls and state.phase == "play" and rng.random() < 0.04:
            return Call(seat=rng.randrange(state.seats), call="fuori")
        return rng.choice(legal)

    results: list[HandResult] = []
    played = []
    dealer = rng.randrange(seats)
    for _ in range(hands):
        context = game.match_context(values, seats, results)
        out = play_random(
            game, rng, seats=seats, dealer=dealer, options=options, context=context, choose=choose
        )
        result = game.result(out.final)
        results.append(result)
        played.append((dealer, [MoveEntry(i, m) for i, m in enumerate(out.moves)]))
        dealer = game.next_dealer(values, seats, dealer, result)
    return export_match(name, options, [f"P{i}" for i in range(seats)], "anticlockwise", played)


def score_only_values(name: str, values: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """Some of the score-only options under `values`, each set to a random value it can take."""
    game = get_game(name)
    out: dict[str, Any] = {}
    for option_name in sorted(game.score_only(values)):
        option = game.ruleset.by_name[option_name]
        if rng.random() < 0.3:
            continue
        if option.choices is not None:
            out[option_name] = rng.choice(option.choices)
        elif (option.kind or type(option.default)) is bool:
            out[option_name] = rng.random() < 0.5
        elif option.nullable and rng.random() < 0.3:
            out[option_name] = None
        else:
            low = option.minimum if option.minimum is not None else 0
            out[option_name] = rng.randint(low, low + 40)
    return out


def recorded_options(name: str, rng: random.Random) -> dict[str, Any]:
    """The options a match is recorded with: some with a choice set at random, and some true-or-false
    ones (Tressette's calls of "fuori" among them), but not ``strict`` (random play breaks rules)."""
    game = get_game(name)
    out = random_options(name, rng)
    for option in game.ruleset.options:
        if option.kind is bool and option.choices is None and option.name != "strict" and rng.random() < 0.5:
            out[option.name] = rng.random() < 0.5
    return out


def other_options(name: str, values: Mapping[str, Any], rng: random.Random) -> tuple[dict[str, Any], bool]:
    """Options to compare with: some score-only ones changed, and half the time others too (any option
    with a choice or true or false); and whether only score-only ones were."""
    out = score_only_values(name, values, rng)
    if rng.random() < 0.5:
        return out, True
    return {**recorded_options(name, rng), **out}, False


class Guarded(Sequence[Entry]):
    """A hand's entries that count how often a fold reads them."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries, self.reads = list(entries), 0

    def __len__(self) -> int:
        self.reads += 1
        return len(self.entries)

    def __getitem__(self, index: Any) -> Any:
        self.reads += 1
        return self.entries[index]

    def __iter__(self) -> Iterator[Entry]:
        self.reads += 1
        return iter(self.entries)


def with_penalty(hands: list[LoggedHand], rng: random.Random, seats: int) -> list[LoggedHand]:
    """The hands with a director's penalty on one card play of a random hand (a ruling the re-score
    applies again), when it has one."""
    i = rng.randrange(len(hands))
    dealer, entries, where = hands[i]
    plays = [e for e in entries if isinstance(e, MoveEntry) and isinstance(e.move, PlayCard)]
    if not plays:
        return hands
    # Tressette's pairs (seats 0 and 2, 1 and 3) share their side's score: one number for partners.
    even, odd = rng.randint(-3, 3), rng.randint(-3, 3)
    scores = [odd if s % 2 else even for s in range(seats)]
    ruling = RulingEntry(
        max(e.position for e in entries) + 1,
        (rng.choice(plays).position,),
        "test.penalty",
        "a penalty",
        {"kind": "penalty", "scores": scores},
    )
    return [*hands[:i], (dealer, [*entries, ruling], where), *hands[i + 1 :]]


def random_case(
    name: str, seed: int, hands: int
) -> tuple[random.Random, Game[Any], str, dict[str, Any], tuple[str, ...], list[LoggedHand]]:
    """A random match of `name` (up to `hands` hands, under random recorded options) as a what-if folds
    it, with the generator that made it, to draw the rest of the case from."""
    rng = random.Random(seed)
    record = random_match(name, rng, hands, recorded_options(name, rng))
    game_name, options, seats, parsed = _hands(record)
    return rng, get_game(name), game_name, options, seats, parsed


@settings(max_examples=examples(60), deadline=None)
@given(name=st.sampled_from(game_names()), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 4))
def test_kept_folds_scored_again_give_exactly_the_full_fold(name: str, seed: int, hands: int) -> None:
    rng, game, game_name, options, seats, parsed = random_case(name, seed, hands)
    if rng.random() < 0.5:
        parsed = with_penalty(parsed, rng, len(seats))
    values = game.ruleset.validate(options)
    changes, score_only = other_options(name, values, rng)
    other = {**options, **changes}
    if score_only:
        assert not game.play_changes(values, game.ruleset.validate(other))

    recorded_side, finals = fold_reusing(game_name, options, seats, parsed, ())
    assert recorded_side.refused is None
    guarded = [(dealer, Guarded(entries), where) for dealer, entries, where in parsed]
    fast, _ = fold_reusing(game_name, other, seats, guarded, finals)

    assert fast == fold(game_name, other, seats, parsed)  # the full fold: the reference
    assert recorded_side == fold(game_name, options, seats, parsed)
    # Under score-only options the earlier folds did serve: no hand was played again, but those a claim
    # ended and, where a call of "fuori" reads the sides' totals, those played on other totals.
    plays_on_totals = game.play_context(values, {"totals": [0, 0]}) != {}
    for (_, entries, _), final in zip(guarded, finals, strict=True):
        assert final is not None
        if score_only and not final.claimed and not plays_on_totals:
            assert entries.reads == 0


@settings(max_examples=examples(60), deadline=None)
@given(name=st.sampled_from(game_names()), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 3))
def test_each_games_declarations_leave_play_as_it_was(name: str, seed: int, hands: int) -> None:
    # The declarations themselves (score-only options, options a hand never read, the context play
    # reads): hand by hand, wherever the earlier fold serves, the same moves folded under the other
    # options reach the states it reached, once their options and context are the new ones.
    rng, game, game_name, options, seats, parsed = random_case(name, seed, hands)
    values = game.ruleset.validate(options)
    other = {**options, **other_options(name, values, rng)[0]}
    other_values = game.ruleset.validate(other)
    results: list[HandResult] = []
    for dealer, entries, _ in parsed:
        before = game.match_context(values, len(seats), own_results(results))
        after = game.match_context(other_values, len(seats), own_results(results))
        kept = fold_hand(Setup(game_name, options, tuple(seats), dealer, before), entries)
        if Final.of(kept).serves(game, other_values, after):
            again = fold_hand(Setup(game_name, other, tuple(seats), dealer, after), entries)
            assert again.states == tuple(game.rescored(s, other_values, after) for s in kept.states)
            assert again.state == game.rescored(kept.state, other_values, after)
        if kept.result is not None:
            results.append(kept.result)


@pytest.mark.parametrize(
    ("name", "before", "after", "changes"),
    [
        ("barbu", {}, {"dealer_rotation": "seven_in_a_row"}, False),
        ("barbu", {}, {"mp_trump_obligation": "must_trump"}, True),
        ("barbu", {}, {"early_end": "never"}, True),
        ("tressette", {}, {"rounding": "traditional"}, False),
        ("tressette", {}, {"removed_four": "4S"}, True),
        # With calls of "fuori", the call counts its sure points with the rounding.
        ("tressette", {"chiamarsi_fuori": True}, {"chiamarsi_fuori": True, "rounding": "traditional"}, True),
        ("tressette", {}, {"target": 21}, True),  # a call of "fuori" states the target
        ("tarocchi", {}, {"fuggitivo_last_trick": "lost"}, False),
        ("tarocchi", {}, {"must_overtrump": True}, True),
        ("hombre_it", {}, {"stake": 3, "win_rule": "majority"}, False),
        ("hombre_it", {}, {"n_matadors": 3}, True),
        ("lhombre", {}, {"odd_chips": "integer", "start_chips": 0}, False),
        ("lhombre", {}, {"espadille_force": True}, True),
        ("lhombre", {}, {"strict": True}, True),
    ],
)
def test_which_options_change_play(
    name: str, before: dict[str, Any], after: dict[str, Any], changes: bool
) -> None:
    game = get_game(name)
    assert game.play_changes(game.ruleset.validate(before), game.ruleset.validate(after)) is changes


@pytest.mark.parametrize("name", CLAIM_GAMES)
@pytest.mark.parametrize("seed", range(2))
def test_a_hand_a_claim_ended_is_played_again(name: str, seed: int) -> None:
    # A claim is checked with the options (Tressette counts its points with the rounding): the hand's
    # earlier fold is not scored again but the hand folded in full, here a claim a director settled.
    setup, entries, state, claim, at = disputed(name, seed)
    game = get_game(name)
    settled = settlement(game, state, claim, solve(question(game, state, claim)))
    assert settled is not None
    log = [*entries, settle(len(entries) + 1, at, settled["rectification"]["line"])]
    recorded, finals = fold_reusing(name, {}, setup.seats, [(0, log, "hands[0].")], ())
    assert recorded.refused is None and finals[0] is not None and finals[0].claimed
    other = score_only_values(name, game.ruleset.validate({}), random.Random(seed))
    guarded = Guarded(log)

    fast, _ = fold_reusing(name, other, setup.seats, [(0, guarded, "hands[0].")], finals)

    assert guarded.reads > 0
    assert fast == fold(name, other, setup.seats, [(0, log, "hands[0].")])


def every_other_value(name: str, values: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Each option with a choice or true or false set in turn to each of its other values."""
    for option in get_game(name).ruleset.options:
        choices = option.choices or ((True, False) if option.kind is bool else ())
        for value in choices:
            if value != values[option.name]:
                yield {**values, option.name: value}


@pytest.mark.parametrize("name", game_names())
def test_every_hand_is_played_again_under_any_option_its_play_read(name: str) -> None:
    # Hand by hand, not hypothesis's few examples: 120 random hands (Barbù's seven contracts each some
    # fifteen times), each compared under every other value of every option. Wherever the earlier fold
    # serves, the full fold under those options makes its states; and a hand's own options (Barbù's of
    # its contract) are never taken for unread when changing them changes the states.
    game = get_game(name)
    rng = random.Random(28)
    served = 0
    for _ in range(120):
        options = recorded_options(name, rng)
        seats = rng.choice(game.seat_counts)
        out = play_random(game, rng, seats=seats, options=options)
        setup = Setup(name, options, tuple(f"P{i}" for i in range(seats)), out.dealer)
        entries = [MoveEntry(i, m) for i, m in enumerate(out.moves)]
        kept = fold_hand(setup, entries)
        for other in every_other_value(name, game.ruleset.validate(options)):
            if not Final.of(kept).serves(game, other, {}):
                continue
            served += 1
            again = fold_hand(Setup(name, other, setup.seats, setup.dealer), entries)
            assert again.states == tuple(game.rescored(s, other, {}) for s in kept.states)
    assert served > 0
