"""The projection: the hand's read model and the match sheet are written with every event, and recording
a move of a hand in play costs the same however many hands the match has already finished."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Hand, Match
from scoring.rules import game_names, get_game
from tests.scoring.api_support import NAMES, People, play, service_record

pytestmark = pytest.mark.django_db

GAME = "tressette" if "tressette" in game_names() else game_names()[0]


def queries_for_a_move(hand: Hand, seed: int) -> tuple[int, Hand]:
    moves = play(hand, seed=seed).moves
    hand = service_record(hand, moves[:2])
    with CaptureQueriesContext(connection) as captured:
        hand = service_record(hand, moves[2:3])
    return len(captured.captured_queries), hand


def finish(hand: Hand, seed: int) -> Hand:
    moves = play(hand, seed=seed).moves
    return service_record(hand, moves[hand.version - 1 :])


def test_a_move_in_play_does_not_fold_the_finished_hands(people: People) -> None:
    match = services.match_create(
        club=people.club,
        game=GAME,
        seats=list(NAMES[: get_game(GAME).seat_counts[0]]),
        options={"target": 999} if GAME == "tressette" else None,
    )
    counts = []
    for number in range(1, 4):
        hand = match.hands.get(number=number)
        count, hand = queries_for_a_move(hand, seed=number)
        counts.append(count)
        sheet = Match.objects.get(pk=match.pk).sheet
        assert sheet["hands"] == list(range(1, number))  # the hand in play is not on the sheet yet
        finish(hand, seed=number)
        assert Match.objects.get(pk=match.pk).sheet["hands"] == list(range(1, number + 1))
        services.hand_start(match=match)

    assert counts[0] == counts[1] == counts[2]


def test_the_read_models_follow_every_write(people: People) -> None:
    match = services.match_create(
        club=people.club, game=GAME, seats=list(NAMES[: get_game(GAME).seat_counts[0]])
    )
    hand = match.hands.get()
    moves = play(hand, seed=9).moves

    hand = service_record(hand, moves)
    stored = Hand.objects.get(pk=hand.pk)

    assert (stored.version, stored.status) == (1 + len(moves), Hand.Status.OVER)
    assert stored.result is not None
    assert Match.objects.get(pk=match.pk).sheet["hands"] == [1]
    undone = services.move_undo(hand=stored, expected_version=stored.version, actor=None)
    assert (undone.status, undone.result) == (Hand.Status.IN_PLAY, None)
    assert Match.objects.get(pk=match.pk).sheet["hands"] == []
