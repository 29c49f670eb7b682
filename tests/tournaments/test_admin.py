"""The admin shows tournaments and offers no save: every change goes through the services and the log,
and the service's role may update only some of a tournament's columns (docs/security.md)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.support import club_with_players, tournament

pytestmark = pytest.mark.django_db


def test_the_admin_shows_a_tournament_read_only(client: Client) -> None:
    t = tournament(club_with_players(3))
    client.force_login(User.objects.create_superuser("boss", "boss@example.com", "pw"))

    response = client.get(f"/admin/tournaments/tournament/{t.pk}/change/")

    assert response.status_code == 200
    assert b"Torneo" in response.content
    assert b'name="_save"' not in response.content
