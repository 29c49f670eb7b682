"""Random Ombre-family hands with what happens at real tables, for the Hombres' property tests.

A hand is played at random, as :func:`playout.play_random` does, but now and then a player says a call he
may not make now, the talon's cards are drawn in any order when the deal leaves that order out, and a
player plays a card he is not offered (a revoke). With the talon recorded, a draw that is not its top is a
keying error: each such draw is tried, checked refused with the cards expected, and replaced by the top.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from scoring.rules.core import HandState, replay
from scoring.rules.errors import ImpossibleMove
from scoring.rules.moves import Call, Deal, Exchange, Move, PlayCard
from scoring.rules.ombre_hand import OmbreGame, OmbreState

Chooser = Callable[[HandState, list[Move]], Move]


def irregular_hand(
    game: OmbreGame[Any],
    rng: random.Random,
    *,
    options: dict[str, Any],
    choose: Chooser | None = None,
    revoke: float = 0.1,
) -> tuple[list[Move], int]:
    """The moves of one such hand (every one accepted with the deal known) and its dealer. ``revoke``: the
    chance that a play which could be irregular is."""
    dealer = rng.randrange(3)
    state: OmbreState = game.initial_state(options, seats=3, dealer=dealer)
    deal = game.random_deal(state, rng)
    ordered = rng.random() < 0.5
    if not ordered:
        deal = Deal(hands=deal.hands)  # the talon's order not recorded
    moves: list[Move] = [deal]
    state = game.apply(state, deal).state
    while not state.over:
        legal = game.legal_moves(state)
        move = choose(state, legal) if choose else rng.choice(legal)
        if isinstance(move, Call) and rng.random() < 0.2:
            said = Call(seat=move.seat, call=rng.choice(game.calls))  # allowed or not: it was said
            try:
                game.apply(state, said)
                move = said
            except ImpossibleMove:
                pass  # a game that refuses it (the Italian open auction)
        elif isinstance(move, Exchange) and len(move.take) > 0:
            drawn = replace(move, take=tuple(rng.sample(state.talon, len(move.take))))
            if ordered and set(drawn.take) != set(move.take):
                with pytest.raises(ImpossibleMove) as deeper:
                    game.apply(state, drawn)
                assert deeper.value.code == f"{game.prefix}.talon_top"
                assert " ".join(move.take) in deeper.value.message
            elif not ordered:
                move = drawn
        elif isinstance(move, PlayCard) and state.tricks.current.plays and rng.random() < revoke:
            seat = move.seat
            assert seat is not None
            offered = {m.card for m in legal if isinstance(m, PlayCard)}
            wrong = sorted(state.hands.hand(seat) - offered)
            if wrong:
                move = replace(move, card=rng.choice(wrong))
        moves.append(move)
        state = game.apply(state, move).state
    return moves, dealer


def recorded_alike(
    game: OmbreGame[Any], moves: list[Move], *, options: dict[str, Any], dealer: int
) -> list[tuple[int, str, int | None]]:
    """Replay a hand with and without the deal: both accept it and end with the same verdicts (deal known
    all on the move itself; deal unknown on it or proved by a later move) and the same result. Returns
    those verdicts as (move index, rule, seat)."""
    known = replay(game, moves, options=options, seats=3, dealer=dealer)
    blind = replay(game, game.moves_only(moves), options=options, seats=3, dealer=dealer)
    assert all(v.proved_at is None for v in known.verdicts)
    judged = sorted((v.move_index, v.rule, v.seat) for v in known.verdicts)
    assert sorted((v.move_index, v.rule, v.seat) for v in blind.verdicts) == judged
    assert all(v.proved_at is None or v.proved_at > v.move_index for v in blind.verdicts)
    assert game.result(blind.final) == game.result(known.final)
    return judged
