from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from scoring.demo import demo_matches_load
from tournaments.models import Club, Player

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
        " the user name) and recorded matches of every game. Safe to run again: nothing is duplicated."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            club, _ = Club.objects.get_or_create(name=DEMO_CLUB, defaults={"city": DEMO_CITY})
            added = sum(Player.objects.get_or_create(club=club, name=name)[1] for name in DEMO_PLAYERS)
        matches = demo_matches_load(club=club)
        self.stdout.write(
            f"{club}: {added} players added, {club.players.count()} in all; {matches} demo matches"
        )
