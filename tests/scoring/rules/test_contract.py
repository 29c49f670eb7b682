"""The contract every game module keeps: shape, determinism, replay equals step-by-step, legal moves
agree with apply, impossible moves leave the state unchanged, both recording modes score alike."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import game_names, get_game, move_from_dict, move_to_dict, replay
from scoring.rules.core import Game, HandResult
from scoring.rules.errors import ImpossibleMove, IrregularMoveRefused
from scoring.rules.moves import Deal, PlayCard

from .playout import card_turn, examples, play_random

GAMES = game_names()
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def test_every_game_has_the_shape() -> None:
    assert GAMES, "no game is registered"
    for name in GAMES:
        game = get_game(name)
        assert isinstance(game, Game)
        assert game.name == name
        assert game.seat_counts and all(n >= 2 for n in game.seat_counts)
        assert "strict" in game.ruleset.defaults()
        assert len(set(game.deck.cards)) == len(game.deck.cards)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=examples(40))
@given(seed=seeds)
def test_random_hand_keeps_the_contract(name: str, seed: int) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    for seats in game.seat_counts:
        p = play_random(game, rng, seats=seats)
        result = game.result(p.final)
        assert isinstance(result, HandResult)
        assert len(result.scores) == seats

        # Deterministic: replaying the same moves gives equal states at every step.
        again = replay(game, p.moves, options=p.options, seats=seats, dealer=p.dealer)
        assert list(again.states) == p.states
        assert game.result(again.final) == result

        # Moves survive their dict form unchanged.
        assert [move_from_dict(move_to_dict(m)) for m in p.moves] == p.moves

        # A finished hand refuses any further move.
        with pytest.raises(ImpossibleMove) as over:
            game.apply(p.final, p.moves[-1])
        assert over.value.code == "hand.over"

        # The same hand recorded without the deal scores the same and flags nothing.
        blind = replay(game, game.moves_only(p.moves), options=p.options, seats=seats, dealer=p.dealer)
        assert blind.verdicts == ()
        assert game.result(blind.final).scores == result.scores

        # The match sheet takes the hand.
        match = game.match_result(p.options, seats, [result])
        assert len(match.totals) == seats


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=examples(25))
@given(seed=seeds)
def test_legal_moves_agree_with_apply(name: str, seed: int) -> None:
    """Every card a seat holds is either offered (no verdict) or, played anyway, draws a verdict; a card
    it does not hold, or a move by a seat whose turn it is not, is refused with the state unchanged."""
    game = get_game(name)
    rng = random.Random(seed)
    p = play_random(game, rng)
    strict = {**p.options, "strict": True}
    for state in p.states[1:-1]:
        turn = card_turn(game, state)
        if turn is None:
            continue
        seat, offered = turn
        snapshot = state
        for card in sorted(state.hands.hand(seat)):
            move = PlayCard(seat=seat, card=card)
            if card in offered:
                assert game.apply(state, move).verdicts == ()
                continue
            try:
                step = game.apply(state, move)
            except ImpossibleMove:
                continue
            assert step.verdicts, f"{card} is not offered but drew no verdict"
            assert all(v.seat == seat for v in step.verdicts)
            with pytest.raises(IrregularMoveRefused):
                game.apply(replace(state, options=strict), move)
        elsewhere = sorted(state.hands.deck - state.hands.hand(seat) - state.hands.gone)
        if elsewhere:
            with pytest.raises(ImpossibleMove) as not_held:
                game.apply(state, PlayCard(seat=seat, card=elsewhere[0]))
            assert not_held.value.code == "card.not_held"
        if state.hands.gone:
            with pytest.raises(ImpossibleMove) as gone:
                game.apply(state, PlayCard(seat=seat, card=sorted(state.hands.gone)[0]))
            assert gone.value.code == "card.gone"
        wrong = (seat + 1) % p.seats
        if wrong != seat and state.hands.hand(wrong):
            with pytest.raises(ImpossibleMove) as err:
                game.apply(state, PlayCard(seat=wrong, card=sorted(state.hands.hand(wrong))[0]))
            assert err.value.code in {"turn.wrong", "phase.wrong"}
        assert state == snapshot


@pytest.mark.parametrize("name", GAMES)
def test_the_deal_comes_first_and_is_checked(name: str) -> None:
    game = get_game(name)
    seats = game.seat_counts[0]
    state = game.initial_state(None, seats=seats, dealer=0)
    with pytest.raises(ImpossibleMove) as first:
        game.apply(state, PlayCard(seat=0, card=game.deck.cards[0]))
    assert first.value.code == "phase.wrong"
    deal = game.random_deal(state, random.Random(7))
    assert deal.hands is not None
    twice = (deal.hands[0][:-1] + (deal.hands[1][0],), *deal.hands[1:])
    with pytest.raises(ImpossibleMove) as dup:
        game.apply(state, Deal(hands=twice, stock=deal.stock))
    assert dup.value.code == "deal.invalid"
    dealt = game.apply(state, deal).state
    with pytest.raises(ImpossibleMove) as again:
        game.apply(dealt, deal)
    assert again.value.code == "phase.wrong"


@pytest.mark.parametrize("name", GAMES)
def test_options_are_validated(name: str) -> None:
    game = get_game(name)
    seats = game.seat_counts[0]
    with pytest.raises(Exception) as unknown:
        game.initial_state({"no_such_option": 1}, seats=seats, dealer=0)
    assert getattr(unknown.value, "field", None) == "no_such_option"
    with pytest.raises(ImpossibleMove) as bad_seats:
        game.initial_state(None, seats=max(game.seat_counts) + 1, dealer=0)
    assert bad_seats.value.field == "seats"
