"""The write path's costs and the kept folds: a move in the middle of a hand runs a fixed, small number
of SQL statements; the move that ends a hand costs the same at the last hand as at the first; a kept
fold is used only at the exact version the database holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.hands import foldcache
from scoring.models import Hand
from scoring.rules import move_to_dict
from scoring.selectors import hand_view, hand_view_at
from tests.scoring.api_support import (
    People,
    client_for,
    hand_url,
    make_people,
    open_match,
    play,
    service_record,
)

pytestmark = pytest.mark.django_db

# Token, match, role, hand, then in the write transaction: hand lock, the match's status read again once
# the hand is locked (an abandon that held the lock is seen: one decision, scoring.services._check_open;
# on PostgreSQL sent in the lock's own message),
# ordering lock (PostgreSQL) or BEGIN IMMEDIATE (SQLite), insert, hand update.
MID_HAND_STATEMENTS = 9


def statements(fn: Callable[[], Any]) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        fn()
    return [q["sql"] for q in queries.captured_queries]


# Transactional, as in production: the request's transaction is the outermost one (no savepoints), and
# the moves before are committed, so this process keeps the hand's fold.
@pytest.mark.django_db(transaction=True)
def test_a_mid_hand_move_through_the_api_runs_at_most_nine_statements() -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    moves = play(hand, seed=4).moves
    hand = service_record(hand, moves[:6], people.scorer)
    client = client_for(people.scorer)
    body = {"move": move_to_dict(moves[6]), "expected_version": hand.version}

    ran = statements(lambda: client.post(hand_url(match["id"], 1, "moves/"), body, format="json"))

    assert Hand.objects.get(pk=hand.pk).version == hand.version + 1
    assert len(ran) <= MID_HAND_STATEMENTS, "\n".join(ran)
    assert not any("SAVEPOINT" in sql for sql in ran)


def ending_statements(people: People, hands: int) -> int:
    """The statements of the move that ends the hands-th hand of a Barbù match."""
    _, hand = open_match(people, "barbu")
    for n in range(1, hands):
        hand = service_record(hand, play(hand, seed=n).moves, people.director)
        hand = services.hand_start(match=hand.match, actor=people.director)
    moves = play(hand, seed=hands).moves
    hand = service_record(hand, moves[:-1], people.director)
    return len(statements(lambda: service_record(hand, moves[-1:], people.director)))


def test_the_move_that_ends_a_hand_costs_the_same_at_hand_six_as_at_hand_one(people: People) -> None:
    assert ending_statements(people, 1) == ending_statements(people, 6)


def test_a_kept_fold_is_used_only_at_the_version_the_database_holds(
    people: People, django_capture_on_commit_callbacks: Any
) -> None:
    _, hand = open_match(people, "tressette", seats=4)
    moves = play(hand, seed=2).moves
    with django_capture_on_commit_callbacks(execute=True):
        hand = service_record(hand, moves[:5], people.scorer)
    kept = foldcache.get(hand.stream_id)
    assert kept is not None and kept[0] == hand.version

    # Another process records two moves: this one's kept fold is behind and catches up from the log.
    other = service_record(hand, moves[5:7], people.scorer)
    foldcache.put(hand.stream_id, kept[0], kept[1])
    caught_up = hand_view_at(other)
    foldcache.clear()
    assert caught_up.state == hand_view_at(other).state
    assert len(caught_up.moves) == 7


def test_a_write_rolled_back_leaves_no_kept_fold_at_its_version(
    people: People, django_capture_on_commit_callbacks: Any
) -> None:
    _, hand = open_match(people, "tressette", seats=4)
    moves = play(hand, seed=3).moves

    class Abandon(Exception):
        pass

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(Abandon), transaction.atomic():
        service_record(hand, moves[:1], people.scorer)
        raise Abandon

    assert foldcache.get(hand.stream_id) is None
    assert hand_view(Hand.objects.get(pk=hand.pk)).moves == ()
