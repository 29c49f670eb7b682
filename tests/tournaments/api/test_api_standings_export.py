"""The standings downloads (CSV and JSON) in the reader's language, with stable machine keys in the
JSON, and a CSV that a spreadsheet opens without running a player's name as a formula."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.scoring.api_support import client_for
from tests.scoring.factories import PlayerFactory
from tests.tournaments.support import Club, club_with_players, finish_round, open_round, tournament
from tournaments.models import Tournament
from tournaments.selectors import error_csv

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(django_capture_on_commit_callbacks: Any) -> tuple[Club, Tournament]:
    """Nine players after one round of Tarocchi (every table finished)."""
    club = club_with_players(9)
    t = tournament(club)
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(open_round(t, club.director), seed=4)
    return club, t


def export(client: APIClient, t: Tournament, fmt: str, language: str) -> Any:
    response = client.get(
        f"/api/tournaments/{t.pk}/standings/export/?format={fmt}", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response


def csv_rows(response: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize(
    ("language", "header", "above"),
    [
        ("fr", ["rang", "joueur", "total", "tables gagnées"], " devant "),
        ("it", ["posizione", "giocatore", "totale", "tavoli vinti"], " davanti a "),
        ("en", ["rank", "player", "total", "tables won"], " above "),
    ],
)
def test_the_csv_is_in_the_readers_language(
    played: tuple[Club, Tournament], language: str, header: list[str], above: str
) -> None:
    club, t = played

    rows = csv_rows(export(client_for(club.director), t, "csv", language))

    assert rows[0][:4] == header
    assert (
        rows[0][-3:]
        == {
            "fr": ["tables", "exempts", "pourquoi devant le suivant"],
            "it": ["tavoli", "turni di riposo", "perché davanti al successivo"],
            "en": ["tables", "sit-outs", "why above the next"],
        }[language]
    )
    whys = [r[-1] for r in rows[1:-1]]
    assert whys and all(above in w for w in whys)
    assert rows[-1][-1] == ""  # the last row has no one below it


def test_the_json_keeps_its_machine_keys_and_adds_labels_in_the_readers_language(
    played: tuple[Club, Tournament],
) -> None:
    club, t = played
    director = client_for(club.director)

    french = export(director, t, "json", "fr").json()
    english = export(director, t, "json", "en").json()

    assert french["language"] == "fr"
    assert french["precedence"] == english["precedence"]
    assert [m["key"] for m in french["metrics"]] == [m["key"] for m in english["metrics"]]
    assert [m["name"] for m in french["metrics"]] == [m["name"] for m in english["metrics"]]  # stable
    by_key = {m["key"]: m for m in french["metrics"]}
    assert by_key["tables_won"]["label"] == "tables gagnées" and by_key["tables_won"]["name"] == "tables won"
    assert french["labels"] == {
        "rank": "rang",
        "player": "joueur",
        "tables": "tables",
        "sit_outs": "exempts",
        "why_above_next": "pourquoi devant le suivant",
    }
    for fr_row, en_row in zip(french["rows"], english["rows"], strict=True):
        assert fr_row["values"] == en_row["values"]
        if fr_row["why_above"] is not None:
            assert fr_row["why_above"]["text"] == en_row["why_above"]["text"]  # the English text, kept
            assert " devant " in fr_row["why_above"]["label"]
            assert en_row["why_above"]["label"] == en_row["why_above"]["text"]


DANGEROUS = [
    '=HYPERLINK("http://evil.example","clic")',
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "+39 333",
    "-2+3",
    "\tTab",
    "\rCR",
]


def test_names_that_a_spreadsheet_would_run_are_escaped_in_the_csv(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Issue 25, item 6: such names reached the export as written, at the start of the why-above cells
    too. A text cell starting with = + - @, a tab or a carriage return gets a leading quote."""
    club = club_with_players(3)
    for name in DANGEROUS:
        club.players.append(PlayerFactory(club=club.people.club, name=name))
    t = tournament(club)

    rows = csv_rows(export(client_for(club.director), t, "csv", "en"))

    names = {r[1] for r in rows[1:]}
    assert {"'" + n for n in DANGEROUS} <= names
    assert {"Anna", "Bruno", "Carla"} <= names  # a harmless name is left as it is
    cells = [cell for r in rows for cell in r]
    assert not [
        c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r") or c.startswith("-") and not _number(c)
    ]
    for r in rows[1:-1]:
        assert r[-1][:1] != "=" and (r[-1].startswith("'") == r[1].startswith("'"))


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_an_error_body_in_csv_is_escaped_too() -> None:
    rows = list(csv.reader(io.StringIO(error_csv({"code": "=cmd", "message": "@boom"}))))

    assert rows[1] == ["'=cmd", "'@boom"]


def test_the_export_of_an_unplayed_league_says_why_by_lot_in_the_readers_language() -> None:
    club = club_with_players(4)
    t = tournament(club)

    rows = csv_rows(export(client_for(club.director), t, "csv", "it"))

    assert all("sorteggio, " in r[-1] for r in rows[1:-1])
