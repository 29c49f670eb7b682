"""Two directors opening the same round at the same moment on PostgreSQL (threads, each on a connection of
its own): the tournament's version is the check, so one round is opened and the other director is told
the tournament moved on (409 through the API), with nothing half-written."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest

from scoring.models import Match
from tests.scoring.api_support import client_for
from tests.tournaments.support import club_with_players, tournament
from tournaments.models import Round, Table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

Spawn = Callable[..., Future[Any]]


def test_two_directors_opening_the_same_round_one_wins_the_other_gets_a_409(spawn: Spawn) -> None:
    club = club_with_players(9)
    t = tournament(club)
    other = club.people.other_scorer
    other.memberships.update(role="director")  # a second director of the club
    clients = [client_for(club.director), client_for(other)]
    barrier = threading.Barrier(2)

    def open_round(client: Any) -> Any:
        barrier.wait(timeout=10)
        return client.post(f"/api/tournaments/{t.pk}/rounds/", {"expected_version": t.version}, format="json")

    answers = [f.result(timeout=60) for f in [spawn(open_round, c) for c in clients]]

    assert sorted(a.status_code for a in answers) == [201, 409], [a.json() for a in answers]
    lost = next(a for a in answers if a.status_code == 409).json()
    assert (lost["expected_version"], lost["current_version"]) == (t.version, t.version + 1)
    assert Round.objects.filter(tournament=t).count() == 1
    assert Table.objects.count() == 3 and Match.objects.count() == 3
