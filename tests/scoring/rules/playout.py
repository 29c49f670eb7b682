"""Random legal playouts shared by the contract test and the games' property tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hypothesis import settings

from scoring.rules.core import Game, HandState
from scoring.rules.moves import Move, PlayCard


def thorough() -> bool:
    """Whether the ``thorough`` hypothesis profile (thousands of examples) is loaded."""
    return _profile_examples() >= 1000


def examples(n: int) -> int:
    """``n`` examples under the default profile; under the thorough profile, that profile's count when it
    is larger. An explicit ``max_examples`` overrides the profile, hence this helper."""
    return max(n, _profile_examples()) if thorough() else n


def _profile_examples() -> int:
    profile = settings.default
    assert profile is not None, "tests/scoring/rules/conftest.py loads a profile"
    return profile.max_examples


def card_turn(game: Game[Any], state: HandState) -> tuple[int, frozenset[str]] | None:
    """When the only moves are card plays by one seat, with the deal known: that seat and the cards it is
    offered (every other card it holds is irregular now, or impossible)."""
    if state.over or state.phase == "deal" or not state.deal_known:
        return None
    legal = game.legal_moves(state)
    plays = [m for m in legal if isinstance(m, PlayCard)]
    if not plays or len(plays) != len(legal) or plays[0].seat is None:
        return None
    return plays[0].seat, frozenset(m.card for m in plays)


@dataclass
class Playout:
    game: Game[Any]
    options: Mapping[str, Any]
    seats: int
    dealer: int
    moves: list[Move]
    states: list[HandState]

    @property
    def final(self) -> HandState:
        return self.states[-1]


def play_random(
    game: Game[Any],
    rng: random.Random,
    *,
    seats: int | None = None,
    dealer: int | None = None,
    options: Mapping[str, Any] | None = None,
    context: Mapping[str, Any] | None = None,
    choose: Callable[[HandState, list[Move]], Move] | None = None,
    max_moves: int = 2000,
) -> Playout:
    """Deal at random and play random legal moves until the hand is over; every move must draw no verdict."""
    seats = seats if seats is not None else rng.choice(game.seat_counts)
    dealer = dealer if dealer is not None else rng.randrange(seats)
    state = game.initial_state(options, seats=seats, dealer=dealer, context=context)
    deal = game.random_deal(state, rng)
    step = game.apply(state, deal)
    moves: list[Move] = [deal]
    states = [state, step.state]
    state = step.state
    while not state.over:
        legal = game.legal_moves(state)
        assert legal, f"{game.name}: a hand that is not over must offer a move (phase {state.phase})"
        move = choose(state, legal) if choose else rng.choice(legal)
        step = game.apply(state, move)
        assert step.verdicts == (), f"{game.name}: legal move {move} drew {step.verdicts}"
        moves.append(move)
        states.append(step.state)
        state = step.state
        assert len(moves) < max_moves, f"{game.name}: the hand does not end"
    return Playout(game, state.options, seats, dealer, moves, states)
