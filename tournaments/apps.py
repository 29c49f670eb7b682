from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    # What the service's own database role may do on each of this app's tables (``manage.py
    # grant_app_role``, docs/security.md): model (or "model.m2m field") -> (rights on the table, the
    # only columns it may UPDATE). Rounds, tables and sit-outs are written once but for their closing and
    # abandoning; the projections (standings, ratings) may be rewritten, and a rebuild from the log
    # (``standings_rebuild``, ``verify_projections``) says what they must hold.
    app_role_rights = {
        "Tournament": (
            "SELECT, INSERT",
            (
                "version",
                "published",
                "name",
                "game_options",
                "scoring",
                "tiebreaks",
                "sit_out_score",
                "rounds_planned",
                "forbidden_pairs",
            ),
        ),
        "Tournament.scorers": ("SELECT, INSERT, DELETE", ()),
        "Registration": ("SELECT, INSERT", ("active",)),
        "Round": ("SELECT, INSERT", ("status", "closed_at", "closed_position")),
        "Table": ("SELECT, INSERT", ("abandoned", "abandon_reason")),
        "SitOut": ("SELECT, INSERT", ()),
        "Standings": ("SELECT, INSERT", ("position", "as_of", "ledger", "data", "updated_at")),
        "StandingsContribution": ("SELECT, INSERT, DELETE", ()),
        # The row is the lock of a game's rating updates: SELECT ... FOR UPDATE needs UPDATE on a column.
        "RatingBook": ("SELECT, INSERT", ("game",)),
        "PlayerRating": ("SELECT, INSERT, DELETE", ("mu", "sigma", "matches")),
        "RatedMatch": ("SELECT, INSERT, DELETE", ()),
        "RatingHistory": ("SELECT, INSERT, DELETE", ()),
    }

    def ready(self) -> None:
        from celery.signals import worker_ready

        from scoring.signals import match_changed
        from tournaments import events, tasks

        assert events.TournamentCreated.type  # the tournament's event types are registered with the store
        match_changed.connect(tasks.on_match_changed, dispatch_uid="tournaments.match_changed")

        def catch_up_on_start(**kwargs: Any) -> None:
            tasks.enqueue(tasks.catch_up)

        worker_ready.connect(catch_up_on_start, weak=False, dispatch_uid="tournaments.catch_up_on_start")
