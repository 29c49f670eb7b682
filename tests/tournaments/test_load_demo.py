from io import StringIO

import pytest
from django.core.management import call_command

from clubs.models import Club, Player
from scoring.models import Match
from tournaments.models import Round, Standings, Tournament

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
    # The demo league registers the players and its tables hold matches; seated players are protected.
    Tournament.objects.all().delete()
    Match.objects.all().delete()
    Player.objects.filter(name="Bruno Russo").delete()

    assert "1 players added" in load_demo()
    assert Player.objects.count() == 12


def test_it_records_demo_matches_of_every_game() -> None:
    assert "6 demo matches" in load_demo()
    assert "0 demo matches" in load_demo()


def test_it_loads_a_league_of_two_games_with_finished_rounds_and_its_standings() -> None:
    assert "the demo league" in load_demo()

    league = Tournament.objects.get()
    assert league.kind == "league" and league.published and league.scoring == "rank_points"
    rounds = list(Round.objects.filter(tournament=league).order_by("number"))
    assert [r.game for r in rounds] == ["tarocchi", "hombre_it", "tarocchi"]
    assert all(r.status == Round.Status.CLOSED for r in rounds)
    rows = Standings.objects.get(tournament=league).data["rows"]
    assert len(rows) == 12 and all(r["tables"] == 3 for r in rows)
    assert "the demo league" not in load_demo()
