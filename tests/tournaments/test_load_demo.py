from io import StringIO

import pytest
from django.core.management import call_command

from scoring.models import Match
from tournaments.models import Club, Player

pytestmark = pytest.mark.django_db


def load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_it_loads_a_club_and_a_dozen_players() -> None:
    assert "12 players added" in load_demo()

    club = Club.objects.get()
    assert club.name == "Circolo del Tressette"
    assert club.players.count() == 12


def test_it_can_run_again_without_duplicating_anything() -> None:
    load_demo()

    assert "0 players added, 12 in all" in load_demo()
    assert (Club.objects.count(), Player.objects.count()) == (1, 12)


def test_it_puts_back_a_player_deleted_since() -> None:
    load_demo()
    Match.objects.all().delete()  # the demo matches seat the players, and seated players are protected
    Player.objects.filter(name="Bruno Russo").delete()

    assert "1 players added" in load_demo()
    assert Player.objects.count() == 12


def test_it_records_demo_matches_of_every_game() -> None:
    assert "6 demo matches" in load_demo()
    assert "0 demo matches" in load_demo()
