"""Two scorers keying at the same moment on PostgreSQL (threads, each on a connection of its own): the
version check and the engine's check see the same stream, so one move stands and the other is told the
hand moved on; a double tap with one idempotency key records the move once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from clubs.models import Club
from common.errors import ConcurrencyConflict
from scoring import services
from scoring.models import Hand, StoredEvent
from scoring.rules import game_names, get_game, move_to_dict
from tests.scoring.api_support import NAMES, play, service_record
from tests.scoring.factories import ClubFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Spawn = Callable[..., Future[Any]]
GAME = game_names()[0]
ROUNDS = 10


def race(spawn: Spawn, hand: Hand, moves: list[dict[str, Any]], key: str | None = None) -> list[Any]:
    barrier = threading.Barrier(len(moves))

    def scorer(move: dict[str, Any]) -> Any:
        barrier.wait(timeout=10)
        try:
            return services.move_record(
                hand=hand, move=move, expected_version=hand.version, idempotency_key=key
            )
        except ConcurrencyConflict as conflict:
            return conflict

    return [f.result(timeout=30) for f in [spawn(scorer, m) for m in moves]]


def hand_in_play(club: Club, n: int) -> tuple[Hand, list[dict[str, Any]]]:
    """A hand after its deal, and two different legal moves for the seat to act."""
    match = services.match_create(club=club, game=GAME, seats=list(NAMES[: get_game(GAME).seat_counts[0]]))
    hand = match.hands.get()
    played = play(hand, seed=n)
    for cut in range(1, len(played.states)):
        legal = played.game.legal_moves(played.states[cut])
        if len(legal) >= 2:
            hand = service_record(hand, played.moves[:cut])
            return hand, [move_to_dict(legal[0]), move_to_dict(legal[1])]
    raise AssertionError("no choice of moves in this hand")


def test_two_different_moves_at_the_same_version_one_stands(spawn: Spawn) -> None:
    club = ClubFactory()
    for n in range(ROUNDS):
        hand, moves = hand_in_play(club, n)

        outcomes = race(spawn, hand, moves)

        won = [o for o in outcomes if isinstance(o, services.MoveOutcome)]
        lost = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert (lost[0].expected, lost[0].actual) == (hand.version, hand.version + 1)
        stored = StoredEvent.objects.filter(stream_id=hand.stream_id).order_by("version").last()
        assert stored is not None and stored.payload["move"] in moves
        assert Hand.objects.get(pk=hand.pk).version == hand.version + 1


def test_a_double_tap_with_one_key_records_the_move_once(spawn: Spawn) -> None:
    club = ClubFactory()
    for n in range(ROUNDS):
        hand, moves = hand_in_play(club, n)

        outcomes = race(spawn, hand, [moves[0], moves[0]], key=f"tap-{n}")

        assert all(isinstance(o, services.MoveOutcome) for o in outcomes), outcomes
        assert sorted(o.replayed for o in outcomes) == [False, True]
        assert {o.version for o in outcomes} == {hand.version + 1}
        assert StoredEvent.objects.filter(stream_id=hand.stream_id).count() == hand.version + 1
