"""A registration costs the same at 10 or 10,000 players: with a worker, ranking everyone again is left
to it after the commit, once for a burst of registrations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.scoring.factories import PlayerFactory
from tests.tournaments.support import Club, club_with_players, tournament
from tournaments import projections, services, tasks
from tournaments.models import Registration, Standings, Tournament

pytestmark = pytest.mark.django_db


def names(t: Tournament) -> set[str]:
    return {row["name"] for row in Standings.objects.get(tournament=t).data["rows"]}


def register(t: Tournament, name: str) -> Registration:
    t.refresh_from_db()
    player = PlayerFactory(club=t.club, name=name)
    return services.player_register(tournament=t, player=player, expected_version=t.version, actor=None)


def test_with_a_worker_the_request_does_not_rank_and_the_worker_does_after_the_commit(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    t = tournament(club_with_players(4))
    monkeypatch.setattr(tasks, "in_process", lambda: False)  # a worker would take the tasks
    before = names(t)

    with django_capture_on_commit_callbacks(execute=False) as queued:
        register(t, "Nuovo")
    assert names(t) == before  # nothing ranked in the request
    for callback in queued:
        callback()  # the worker's turn (the test's Celery runs tasks at once)

    assert names(t) == before | {"Nuovo"}


def test_a_burst_of_registrations_is_ranked_once_by_the_last_one_s_task() -> None:
    t = tournament(club_with_players(4))
    first = register(t, "Primo")
    second = register(t, "Secondo")

    assert projections.standings_registered(tournament_id=t.pk, registration_id=first.pk) is False
    assert projections.standings_registered(tournament_id=t.pk, registration_id=second.pk) is True
    assert {"Primo", "Secondo"} <= names(t)


def queries_to_register(club: Club, settings: Any, monkeypatch: pytest.MonkeyPatch) -> int:
    t = tournament(club)
    monkeypatch.setattr(tasks, "in_process", lambda: False)  # a worker would take the tasks
    ranked: list[int] = []
    monkeypatch.setattr(projections, "_document", lambda **kw: ranked.append(1))  # ranking everyone
    t.refresh_from_db()
    player = PlayerFactory(club=t.club)
    with CaptureQueriesContext(connection) as done:
        services.player_register(tournament=t, player=player, expected_version=t.version, actor=None)
    monkeypatch.undo()
    assert ranked == []
    return len(done.captured_queries)


def test_a_registration_does_not_rank_and_asks_the_database_as_much_at_5_players_as_at_15(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    few = queries_to_register(club_with_players(5, tag="few"), settings, monkeypatch)
    many = queries_to_register(club_with_players(15, tag="many"), settings, monkeypatch)

    assert few == many
