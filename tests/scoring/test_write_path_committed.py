"""The read models written in the append's own statement, committed with it (PostgreSQL, the service's
transaction the outermost one): after every write of a random evening, the hand's row and the match
sheet are what a rebuild from the log gives."""

from __future__ import annotations

import random
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Club
from common.errors import ConcurrencyConflict
from scoring import services
from scoring.hands.fold import fold
from scoring.log import store
from scoring.log.events import MoveRecorded
from scoring.models import Hand, Match
from scoring.rules import ImpossibleMove, move_to_dict
from scoring.rules.moves import Move
from scoring.selectors import hand_entries, hand_setup, match_sheet
from tests.scoring.api_support import play

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

_clubs = count()


def rebuilt(hand: Hand) -> tuple[int, int, str, bool, object]:
    """The hand's row as its log alone gives it."""
    events = store.read_stream(hand.stream_id)
    view = fold(hand_setup(hand, events), hand_entries(hand, events))
    status = Hand.Status.OVER if view.over else Hand.Status.IN_PLAY
    result = view.result.as_dict() if view.result else None
    return events[-1].version, events[-1].position, status, view.flagged, result


def record(hand: Hand, move: Move) -> Hand:
    return services.move_record(hand=hand, move=move_to_dict(move), expected_version=hand.version).hand


def stored(hand: Hand) -> tuple[int, int, str, bool, object]:
    row = Hand.objects.get(pk=hand.pk)
    return row.version, row.position, row.status, row.flagged, row.result


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), undo_every=st.integers(3, 12))
def test_every_write_leaves_the_read_models_as_a_rebuild_gives_them(seed: int, undo_every: int) -> None:
    rng = random.Random(seed)
    club = Club.objects.create(name=f"Committed {next(_clubs)}")
    seats = ["A", "B", "C", "D"]
    match = services.match_create(club=club, game="tressette", seats=seats, options={"target": 21})
    for _ in range(3):  # hands
        hand = match.hands.order_by("-number").first()
        assert hand is not None
        for n, move in enumerate(play(hand, seed=rng.randrange(10**6)).moves, start=1):
            hand = record(hand, move)
            assert stored(hand) == rebuilt(hand)
            if n % undo_every == 0 and hand.status != Hand.Status.OVER:
                hand = services.move_undo(hand=hand, expected_version=hand.version, actor=None)
                assert stored(hand) == rebuilt(hand)
                hand = record(hand, move)
        match = Match.objects.get(pk=match.pk)
        assert match.sheet == match_sheet(match)
        if match.status == Match.Status.FINISHED:
            return
        hand = services.hand_start(match=match)
        assert stored(hand) == rebuilt(hand)


def rows(hand: Hand) -> tuple[object, ...]:
    """Everything the hand's row and its match's row hold."""
    row = Hand.objects.get(pk=hand.pk)
    match = Match.objects.get(pk=hand.match_id)
    fields = (row.version, row.position, row.status, row.flagged, row.result, row.ruled_against)
    return (*fields, row.updated_at, match.sheet, match.status)


def test_an_append_refused_for_its_version_leaves_the_rows_as_they_were() -> None:
    """The hand's row is written ahead of the append in its message: when the log has moved on without
    the row (written by another way than the service), the append refuses the stale version and the
    row's update is rolled back with it."""
    club = Club.objects.create(name=f"Committed {next(_clubs)}")
    match = services.match_create(club=club, game="tressette", seats=["A", "B", "C", "D"], options={})
    hand = match.hands.get()
    moves = play(hand, seed=3).moves
    hand = record(hand, moves[0])
    before = rows(hand)
    store.append(hand.stream_id, [MoveRecorded(move=move_to_dict(moves[1]))], expected_version=hand.version)

    with pytest.raises(ConcurrencyConflict):
        record(hand, moves[1])

    assert rows(hand) == before
    assert store.stream_version(hand.stream_id) == hand.version + 1


def test_an_append_refused_for_its_key_leaves_the_rows_as_they_were() -> None:
    """A key used for the hand's last move, sent again with another move at the hand's version: the
    append inserts nothing, and the hand's row, written ahead of it, is rolled back."""
    club = Club.objects.create(name=f"Committed {next(_clubs)}")
    match = services.match_create(club=club, game="tressette", seats=["A", "B", "C", "D"], options={})
    hand = match.hands.get()
    moves = play(hand, seed=4).moves
    hand = services.move_record(
        hand=hand, move=move_to_dict(moves[0]), expected_version=hand.version, idempotency_key="k1"
    ).hand
    before = rows(hand)

    with pytest.raises(ImpossibleMove) as refused:
        services.move_record(
            hand=hand, move=move_to_dict(moves[1]), expected_version=hand.version, idempotency_key="k1"
        )

    assert refused.value.code == "idempotency.reused"
    assert rows(hand) == before
    assert store.stream_version(hand.stream_id) == hand.version
