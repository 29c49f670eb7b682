"""Abandoning a table while its last move is recorded, on PostgreSQL (threads, each on a connection of its
own): one decision. Whichever commits first wins and the other is answered 409 with a clear message: a
finished match counts as played, or an abandoned table took no move (issue 25, item 7)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from scoring.models import Hand, Match
from scoring.selectors import hand_view
from tests.scoring.api_support import client_for, post_move, service_record
from tests.tournaments.support import club_with_players, open_round, tournament
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
