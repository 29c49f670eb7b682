from typing import Any

from celery import current_app as celery_app
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import Club, Player
from scoring.demo import demo_matches_load, demo_users_load
from tournaments.demo import demo_league_load

DEMO_CLUB = "Circolo del Tressette"
DEMO_CITY = "Napoli"
DEMO_PLAYERS = [
    "Anna Esposito",
    "Bruno Russo",
    "Carla Romano",
    "Dario Colombo",
    "Elena Ricci",
    "Franco Marino",
    "Giulia Greco",
    "Luca Bruno",
    "Marta Gallo",
    "Nicola Conti",
    "Paola De Luca",
    "Sergio Mancini",
]


class Command(BaseCommand):
    help = (
        "Load the demo club, its players, three demo accounts (direttore, segnapunti, socio: each password is"
        " the user name), recorded matches of every game and a league with a few finished rounds. Safe to run"
        " again: nothing is duplicated. Its tasks run in-process, so the standings are there when it ends."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            club, _ = Club.objects.get_or_create(name=DEMO_CLUB, defaults={"city": DEMO_CITY})
            added = sum(Player.objects.get_or_create(club=club, name=name)[1] for name in DEMO_PLAYERS)
        eager = celery_app.conf.task_always_eager
        celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = True  # under the CELERY_ namespace the app reads
        try:
            matches = demo_matches_load(club=club)
            director, scorer, _ = demo_users_load(club=club)
            league = demo_league_load(club=club, director=director, scorer=scorer)
        finally:
            celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = eager
        self.stdout.write(
            f"{club}: {added} players added, {club.players.count()} in all; {matches} demo matches"
            f"{'; the demo league' if league else ''}"
        )
