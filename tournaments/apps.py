from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from celery.signals import worker_ready

        from scoring.signals import match_changed
        from tournaments import events, tasks

        assert events.TournamentCreated.type  # the tournament's event types are registered with the store
        match_changed.connect(tasks.on_match_changed, dispatch_uid="tournaments.match_changed")

        def catch_up_on_start(**kwargs: Any) -> None:
            tasks.enqueue(tasks.catch_up)

        worker_ready.connect(catch_up_on_start, weak=False, dispatch_uid="tournaments.catch_up_on_start")
