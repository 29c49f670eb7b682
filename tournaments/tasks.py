"""Celery tasks: thin, each fetches by id and calls a projection or a selector.

Every task here is safe to run twice (the projections compare the log positions they include), so the
app acknowledges a task only once it has run (``acks_late``) and hands it back to the broker when the
worker running it dies (``reject_on_worker_lost``): a killed worker loses nothing, and a re-delivered
task changes nothing that was already done.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from typing import Any

from celery import Task, current_app, shared_task
from django.conf import settings
from django.utils.translation import gettext

from tournaments import projections
from tournaments.selectors import club_roster

log = logging.getLogger(__name__)


def in_process() -> bool:
    """Whether tasks run here, in this process (no broker, or a test that asks so), not on a worker."""
    return bool(current_app.conf.task_always_eager)


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
    """Queue a task without ever holding up the request that asks for it; whether it was taken.

    With a broker, the task is handed to this process's publisher thread and the caller goes on at once:
    a broker that is down, or hung (it takes the connection and never answers), costs the request
    nothing. The publisher gives up on a message after the short timeouts and bounded retry in settings
    and logs it; what it carried is recovered by the periodic catch-up, which finds every match whose
    standings or ratings are behind from the database, not from the broker. A full hand-over queue (the
    broker away for long) refuses the task the same way (False). Run eagerly (no broker: development,
    tests), the task runs here and now.
    """
    if task.app.conf.task_always_eager:
        _publish(task, args)
        return True
    return _publisher().offer(task, args)


def _publish(task: Task[Any, Any], args: tuple[Any, ...]) -> bool:
    routing: dict[str, Any] = {"queue": settings.TOURNAMENTS_QUEUE} if settings.TOURNAMENTS_QUEUE else {}
    try:
        task.apply_async(
            args=args, retry=True, retry_policy=settings.CELERY_TASK_PUBLISH_RETRY_POLICY, **routing
        )
    except Exception as exc:  # whatever the transport raises, the work is left to the catch-up
        if task.app.conf.task_always_eager:
            raise  # run in-process: this is the task's own error, a bug to show
        log.warning("could not queue %s%r (%s): the catch-up will do it", task.name, args, exc)
        return False
    return True


class Publisher:
    """A thread that publishes the tasks handed to it, one after the other, so that no request waits on
    the broker. One per process (started on first use, again after a fork)."""

    SIZE = 1000

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.tasks: queue.Queue[tuple[Task[Any, Any], tuple[Any, ...]] | threading.Event] = queue.Queue(
            self.SIZE
        )
        self.thread = threading.Thread(target=self._run, name="task-publisher", daemon=True)
        self.thread.start()

    def offer(self, task: Task[Any, Any], args: tuple[Any, ...]) -> bool:
        try:
            self.tasks.put_nowait((task, args))
        except queue.Full:
            log.warning(
                "could not queue %s%r (the broker is behind): the catch-up will do it", task.name, args
            )
            return False
        return True

    def drain(self, timeout: float) -> bool:
        """Wait until every task handed over so far was published or given up (tests, shutdown)."""
        done = threading.Event()
        try:
            self.tasks.put(done, timeout=timeout)
        except queue.Full:
            return False
        return done.wait(timeout)

    def _run(self) -> None:
        while True:
            item = self.tasks.get()
            if isinstance(item, threading.Event):
                item.set()
            else:
                _publish(*item)


_publisher_lock = threading.Lock()
_current: Publisher | None = None


def _publisher() -> Publisher:
    global _current
    with _publisher_lock:
        if _current is None or _current.pid != os.getpid():
            _current = Publisher()
        return _current


def publisher_drain(timeout: float = 30.0) -> bool:
    """Wait for this process's publisher to finish what it was handed (True if it did in time)."""
    return _current is None or _current.pid != os.getpid() or _current.drain(timeout)


def on_match_changed(sender: Any, match_id: int, **kwargs: Any) -> None:
    """Receiver of ``scoring.signals.match_changed`` (sent after commit)."""
    enqueue(match_changed_update, match_id)
