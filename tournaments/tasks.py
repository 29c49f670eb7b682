"""Celery tasks: thin, each fetches by id and calls a projection or a selector.

Every task here is safe to run twice (the projections compare the log positions they include), so the
app acknowledges a task only once it has run (``acks_late``) and hands it back to the broker when the
worker running it dies (``reject_on_worker_lost``): a killed worker loses nothing, and a re-delivered
task changes nothing that was already done.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.utils.translation import gettext

from tournaments import projections
from tournaments.selectors import club_roster

log = logging.getLogger(__name__)


@shared_task
def club_roster_export(club_id: int) -> list[str]:
    """The club's roster, built by a worker (or in-process when tasks run eagerly)."""
    return club_roster(club_id=club_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def match_changed_update(match_id: int) -> dict[str, bool]:
    """A match finished, or a ruling changed or reopened it: its tournament's standings and its game's
    ratings catch up with it."""
    return {
        "standings": projections.standings_apply_match(match_id=match_id),
        "ratings": projections.ratings_apply_match(match_id=match_id),
    }


@shared_task(acks_late=True, reject_on_worker_lost=True)
def standings_rebuild(tournament_id: int) -> int:
    """The tournament's standings computed again from the event log; returns the position they include."""
    return projections.standings_rebuild(tournament_id=tournament_id).position


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def ratings_rebuild(game: str) -> None:
    projections.ratings_rebuild(game=game)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def catch_up() -> list[int]:
    """Bring standings and ratings up to date with every match whose update was lost (the broker was
    down when it finished, say). Runs periodically (the beat schedule) and when a worker starts."""
    stale = sorted(set(projections.standings_stale()) | set(projections.ratings_stale()))
    for match_id in stale:
        match_changed_update(match_id)
    if stale:
        log.info("caught up with %d matches: %s", len(stale), stale)
    return stale


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def standings_register(tournament_id: int, registration_id: int) -> bool:
    """Rank a tournament's players again after a registration, unless a later registration's task will
    (so a burst of registrations ranks once); whether it ranked."""
    return projections.standings_registered(tournament_id=tournament_id, registration_id=registration_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def seating_prepare(tournament_id: int) -> bool:
    """Plan the tournament's next rounds ahead (its players changed), so that opening one is at once."""
    from tournaments import services  # services queue this task: imported here, not at module level

    return services.seating_prepare(tournament_id=tournament_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def round_open_planned(
    tournament_id: int, expected_version: int, game: str | None, actor_id: int | None
) -> int | None:
    """Plan and open a tournament's next round for a director whose page waits for it; the round's
    number, or None when it could not open (the reason kept for the page)."""
    from django.contrib.auth import get_user_model

    from common.errors import ConcurrencyConflict, ServiceError
    from tournaments import services
    from tournaments.models import Tournament

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    actor = get_user_model().objects.filter(pk=actor_id).first() if actor_id is not None else None
    try:
        rnd = services.round_open(
            tournament=tournament, expected_version=expected_version, game=game, actor=actor
        )
    except ServiceError as exc:
        services.round_open_failed(tournament_id=tournament_id, message=exc.message)
        return None
    except ConcurrencyConflict:
        said = gettext("The tournament changed while its seating was planned: open the round again.")
        services.round_open_failed(tournament_id=tournament_id, message=said)
        return None
    return rnd.number


def enqueue(task: Task[Any, Any], *args: Any) -> bool:
    """Queue a task without ever holding up the request that asks for it.

    Publishing gives up after a short, bounded retry when the broker cannot be reached (the connection
    timeouts are in settings); the work is then left to the catch-up, and the caller goes on.
    """
    routing: dict[str, Any] = {"queue": settings.TOURNAMENTS_QUEUE} if settings.TOURNAMENTS_QUEUE else {}
    try:
        task.apply_async(
            args=args, retry=True, retry_policy=settings.CELERY_TASK_PUBLISH_RETRY_POLICY, **routing
        )
    except Exception as exc:  # whatever the transport raises, the request must go on
        if task.app.conf.task_always_eager:
            raise  # run in-process: this is the task's own error, a bug to show
        log.warning("could not queue %s%r (%s): the catch-up will do it", task.name, args, exc)
        return False
    return True


def on_match_changed(sender: Any, match_id: int, **kwargs: Any) -> None:
    """Receiver of ``scoring.signals.match_changed`` (sent after commit)."""
    enqueue(match_changed_update, match_id)
