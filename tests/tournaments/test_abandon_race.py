"""Abandoning a table while its last move is recorded, on PostgreSQL (threads, each on a connection of its
own): one decision. Whichever commits first wins and the other is answered 409 with a clear message: a
finished match counts as played, or an abandoned table took no move (issue 25, item 7)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from django.db import connection, transaction

from scoring.models import Hand, Match
from scoring.selectors import hand_view
from tests.scoring.api_support import client_for, post_move, service_record
from tests.tournaments.support import club_with_players, open_round, tournament
from tournaments import projections
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Spawn = Callable[..., Future[Any]]
TABLES = 5  # 15 players: five Tarocchi tables, each raced once


def one_move_from_the_end(match: Match, seed: int) -> tuple[Hand, Any]:
    """The match's one hand played through the service up to its last move; returns it and that move."""
    rng = random.Random(seed)
    hand = Hand.objects.get(match=match, number=1)
    view = hand_view(hand)
    moves = [view.game.random_deal(view.state, rng)]
    state = view.game.apply(view.state, moves[0]).state
    while not state.over:
        moves.append(rng.choice(view.game.legal_moves(state)))
        state = view.game.apply(state, moves[-1]).state
    return service_record(hand, moves[:-1]), moves[-1]


def race(spawn: Spawn, scorer: Any, director: Any, t: Tournament, table: Table, hand: Hand, last: Any) -> Any:
    """The table's last move and its abandon sent at the same moment; the two answers."""
    barrier = threading.Barrier(2)

    def record() -> Any:
        barrier.wait(timeout=10)
        return post_move(scorer, hand.match_id, 1, last, hand.version)

    def abandon() -> Any:
        barrier.wait(timeout=10)
        return director.post(
            f"/api/tournaments/{t.pk}/rounds/1/tables/{table.number}/abandon/",
            {"expected_version": t.version, "reason": "the room closed"},
            format="json",
        )

    return tuple(f.result(timeout=60) for f in [spawn(record), spawn(abandon)])


def test_abandoning_a_table_while_its_last_move_is_recorded_is_one_decision(spawn: Spawn) -> None:
    club = club_with_players(3 * TABLES)
    t = tournament(club, game_options={"tarocchi": {"deals": 1}})
    tables = list(open_round(t, club.director).tables.select_related("match").order_by("number"))
    assert len(tables) == TABLES
    scorer, director = client_for(club.people.scorer), client_for(club.director)
    for table in tables:
        hand, last = one_move_from_the_end(table.match, seed=table.number)
        t.refresh_from_db()

        moved, abandoned = race(spawn, scorer, director, t, table, hand, last)

        codes = (moved.status_code, abandoned.status_code)
        assert codes in ((201, 409), (409, 200)), (moved.json(), abandoned.json())
        table.refresh_from_db()
        match = Match.objects.get(pk=table.match_id)
        if codes == (201, 409):  # the move came first: the match is finished and counts
            assert abandoned.json()["code"] == "table.finished"
            assert "has finished its match" in abandoned.json()["message"]
            assert match.status == Match.Status.FINISHED and not table.abandoned
        else:  # the abandon came first: the move was not recorded
            assert moved.json()["code"] == "match.abandoned"
            assert "the room closed" in moved.json()["message"]
            assert match.status == Match.Status.ABANDONED and table.abandoned
            assert Hand.objects.get(pk=hand.pk).version == hand.version


def test_counting_a_finished_match_waits_for_the_tournament_s_row_before_taking_the_match_s(
    spawn: Spawn,
) -> None:
    # A tournament service's order (table_abandon): the tournament's row, then the match's. The standings
    # counted again meanwhile (a task after a move's commit) must wait holding nothing of the match, or
    # the two deadlock and one is undone.
    club = club_with_players(3)
    t = tournament(club, game_options={"tarocchi": {"deals": 1}})
    table = open_round(t, club.director).tables.select_related("match").get()
    hand, last = one_move_from_the_end(table.match, seed=3)
    assert post_move(client_for(club.people.scorer), hand.match_id, 1, last, hand.version).status_code == 201
    assert Match.objects.get(pk=table.match_id).status == Match.Status.FINISHED

    locked, go_on = threading.Event(), threading.Event()

    def director_like() -> bool:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM tournaments_tournament WHERE id = %s FOR UPDATE", [t.pk])
            locked.set()
            go_on.wait(timeout=10)
            cursor.execute("SET LOCAL lock_timeout = '3s'")
            cursor.execute("SELECT 1 FROM scoring_match WHERE id = %s FOR UPDATE", [table.match_id])
        return True

    holder = spawn(director_like)
    assert locked.wait(timeout=10)
    counting = spawn(projections.standings_rebuild, tournament_id=t.pk)
    time.sleep(0.5)  # the rebuild is at the tournament's row, waiting
    assert not counting.done()
    go_on.set()
    assert holder.result(timeout=10)  # the match's row was free: no lock_timeout error
    assert counting.result(timeout=10).position > 0
