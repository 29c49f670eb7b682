"""``manage.py standings_rebuild``: compute standings (and ratings) again from the event log."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.rules import game_names
from tournaments import projections
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Compute the standings of one tournament (or of every one) again from the event log, and with "
        "--ratings every game's ratings. Prints the log position each one now includes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, help="only this tournament (its id)")
        parser.add_argument("--ratings", action="store_true", help="rebuild the ratings too")

    def handle(self, *args: Any, **options: Any) -> None:
        found = Tournament.objects.order_by("pk")
        if options["tournament"] is not None:
            found = found.filter(pk=options["tournament"])
            if not found.exists():
                raise CommandError(f"no tournament {options['tournament']}", returncode=2)
        for tournament in found:
            standings = projections.standings_rebuild(tournament_id=tournament.pk)
            self.stdout.write(f"{tournament}: standings up to log position {standings.position}")
        if options["ratings"]:
            for game in game_names():
                projections.ratings_rebuild(game=game)
            self.stdout.write("ratings rebuilt for every game")
