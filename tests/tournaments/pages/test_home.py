from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from clubs.models import Club

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_the_clubs_and_their_players(client: Client) -> None:
    call_command("load_demo", stdout=StringIO())

    response = client.get("/")

    assert response.status_code == 200
    assert "Circolo del Tressette" in response.text
    assert "Anna Esposito" in response.text and "Sergio Mancini" in response.text


def test_the_home_page_links_each_club_to_its_matches(client: Client) -> None:
    call_command("load_demo", stdout=StringIO())
    club = Club.objects.get()

    response = client.get("/")

    link = f"/clubs/{club.pk}/matches/"
    assert link in response.text
    assert "Demo 1" in client.get(link).text  # the demo matches are published: anyone may read them


def test_the_home_page_says_how_to_load_demo_data_when_there_is_none(client: Client) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert "load_demo" in response.text


def test_the_api_schema_and_docs_are_served(client: Client) -> None:
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200
