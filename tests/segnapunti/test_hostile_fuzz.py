"""Fuzzing where the schema-driven run (test_openapi_fuzz.py) could not reach (issue 25, item 7).

Schemathesis generates a tournament's ``game_options`` from the schema, whose keys are free: it almost
never names one of the tournament's games, so the value under a real game (where a list crashed the
service) was never tried. Here hypothesis generates any JSON under the game's own name, on create and on
update. And a crash that needs two requests at once (two walk-ins of one name) is no single request's:
the second test sends them together, in every mix of case, on PostgreSQL.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from tests.scoring.api_support import client_for
from tests.tournaments.page_support import browser
from tests.tournaments.support import Club, club_with_players, tournament
from tournaments.models import Registration, Tournament

GAME = "tressette"

# Any JSON value: what a client may put where a game's options go. Option names of the game itself come up
# often, so that values reach each option's own check too.
# Texts without NUL: the parser refuses that character anywhere in a body (test_hardening.py), before any
# option is read. No lone surrogates either: a client cannot encode them in UTF-8 to send them.
TEXT = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))
OPTION_NAMES = st.sampled_from(["target", "deals_to_win", "strict", "match_format", "removed_four", "x"])
SCALARS = (
    st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80) | st.text(TEXT, max_size=8)
)
JSON = st.recursive(
    SCALARS | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(OPTION_NAMES | st.text(TEXT, max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
OPTIONS = JSON | st.dictionaries(OPTION_NAMES, SCALARS, max_size=4)
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "60")),  # more for a longer hunt
    deadline=None,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


@pytest.fixture
def club(db: Any) -> Club:
    return club_with_players(4)


def answered(response: Any) -> None:
    """No server error; a refusal is the API's error body naming the game's options."""
    assert response.status_code < 500, response.content[:300]
    if response.status_code == 400:
        body = response.json()
        assert body["field"] and body["field"].startswith("game_options"), body


@pytest.mark.django_db
@FUZZ
@given(options=OPTIONS)
def test_any_json_as_a_games_options_on_create_is_answered_without_a_server_error(
    club: Club, options: Any
) -> None:
    response = client_for(club.director).post(
        "/api/tournaments/",
        {"club": club.people.club.pk, "name": "Fuzz", "games": [GAME], "game_options": {GAME: options}},
        format="json",
    )

    answered(response)
    assert response.status_code in (201, 400)


@pytest.mark.django_db
@FUZZ
@given(options=OPTIONS)
def test_any_json_as_a_games_options_on_update_is_answered_without_a_server_error(
    club: Club, options: Any
) -> None:
    director = client_for(club.director)
    t = Tournament.objects.filter(name="Fuzz update").first() or tournament(
        club, games=(GAME,), name="Fuzz update"
    )
    t.refresh_from_db()

    response = director.patch(
        f"/api/tournaments/{t.pk}/",
        {"game_options": {GAME: options}, "expected_version": t.version},
        format="json",
    )

    answered(response)
    assert response.status_code in (200, 400, 422)  # 422: the same options again, nothing to change


Spawn = Callable[..., Future[Any]]
SPELLINGS = ["Rossi", "ROSSI", "rossi", "Rossi", "rOSSI", "RoSsI", "rossi", "ROSSI"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_walk_ins_of_one_name_entered_at_once_make_one_player(spawn: Spawn) -> None:
    """Eight directors' screens each enter a walk-in "Rossi" (in some case) into a tournament of their
    own of one club, all at the same moment: one player is made and registered, every other screen is told
    he exists (422), none gets a server error."""
    club = club_with_players(4)
    tournaments = [tournament(club, name=f"Serata {i}") for i in range(len(SPELLINGS))]
    barrier = threading.Barrier(len(SPELLINGS))

    def walk_in(t: Tournament, name: str) -> int:
        client = browser(club.director)
        barrier.wait(timeout=20)
        data = {"join-name": name, "join-expected_version": t.version}
        return client.post(f"/tournaments/{t.pk}/registrations/new-player/", data).status_code

    answers = [
        f.result(timeout=120)
        for f in [spawn(walk_in, t, n) for t, n in zip(tournaments, SPELLINGS, strict=True)]
    ]

    assert sorted(answers) == [302] + [422] * (len(SPELLINGS) - 1), answers
    made = Player.objects.filter(club=club.people.club, name__iexact="rossi")
    assert made.count() == 1
    assert Registration.objects.filter(player__in=made).count() == 1
