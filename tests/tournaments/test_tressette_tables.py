"""Tressette's table size is the director's choice: 4 in pairs, 3 alone, or both as the count needs;
the seating follows it, and the director is warned when a mix cannot be avoided or players sit out."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import Invalid
from tests.scoring.api_support import client_for
from tests.tournaments.page_support import browser
from tests.tournaments.support import Club, club_with_players, open_round, tournament
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def eleven() -> Club:
    return club_with_players(11)


def sizes(t: Tournament, club: Club) -> tuple[list[int], int]:
    rnd = open_round(t, club.director)
    return sorted((len(table.players) for table in rnd.tables.all()), reverse=True), rnd.sit_outs.count()


@pytest.mark.parametrize(
    ("choice", "tables", "out"),
    [("mixed", [4, 4, 3], 0), ("pairs", [4, 4], 3), ("solo", [3, 3, 3], 2)],
)
def test_eleven_players_are_seated_at_the_tables_the_director_chose(
    eleven: Club, choice: str, tables: list[int], out: int
) -> None:
    t = tournament(eleven, games=("tressette",), tressette_tables=choice)

    assert sizes(t, eleven) == (tables, out)


def test_a_mix_that_cannot_be_avoided_is_said_and_so_are_the_players_left_out(eleven: Club) -> None:
    t = tournament(eleven, games=("tressette",))

    mixed = selectors.table_warning(t, "tressette", 11)
    assert "2 tables of 4 in pairs and 1 of 3 alone" in mixed and "cannot be avoided" in mixed
    t.tressette_tables = Tournament.TressetteTables.PAIRS
    assert "3 sit out each round" in selectors.table_warning(t, "tressette", 11)
    assert selectors.table_warning(t, "tressette", 12) == ""
    t.tressette_tables = Tournament.TressetteTables.MIXED
    assert selectors.table_warning(t, "tressette", 12) == ""  # three tables of 4: no mix
    assert selectors.table_warning(t, "tarocchi", 11) == ""


def test_the_director_reads_the_warning_before_opening_the_round(eleven: Club) -> None:
    t = tournament(eleven, games=("tressette",))

    page = browser(eleven.director).get(f"/tournaments/{t.pk}/").content.decode()

    assert 'id="table-warning"' in page and "cannot be avoided" in page


def test_the_choice_is_a_setting_kept_in_the_log_and_refused_when_unknown(eleven: Club) -> None:
    t = tournament(eleven, games=("tressette",))

    services.tournament_update(
        tournament=t, expected_version=t.version, actor=eleven.director, tressette_tables="pairs"
    )

    t.refresh_from_db()
    assert t.tressette_tables == "pairs"
    assert sizes(t, eleven) == ([4, 4], 3)
    t.refresh_from_db()
    with pytest.raises(Invalid) as err:
        services.tournament_update(
            tournament=t, expected_version=t.version, actor=eleven.director, tressette_tables="five"
        )
    assert err.value.field == "tressette_tables"


def test_the_settings_page_changes_the_tables(eleven: Club) -> None:
    t = tournament(eleven, games=("tressette",))
    director = browser(eleven.director)
    form: dict[str, Any] = {
        "expected_version": t.version,
        "name": t.name,
        "scoring": t.scoring,
        "tiebreaks": [k for k in t.tiebreaks if k != "lot"],
        "sit_out_score": t.sit_out_score,
        "rounds_planned": "",
        "tressette_tables": "solo",
    }

    answer = director.post(f"/tournaments/{t.pk}/settings/", form)

    assert answer.status_code == 302
    t.refresh_from_db()
    assert t.tressette_tables == "solo"


def test_the_api_sets_and_shows_the_tables(eleven: Club) -> None:
    api = client_for(eleven.director)

    made = api.post(
        "/api/tournaments/",
        {
            "club": eleven.people.club.pk,
            "name": "Tressette",
            "games": ["tressette"],
            "tressette_tables": "pairs",
        },
        format="json",
    )

    assert made.status_code == 201, made.content
    assert made.json()["tressette_tables"] == "pairs"
    bad = api.post(
        "/api/tournaments/",
        {"club": eleven.people.club.pk, "name": "T", "games": ["tressette"], "tressette_tables": "five"},
        format="json",
    )
    assert bad.status_code == 400
