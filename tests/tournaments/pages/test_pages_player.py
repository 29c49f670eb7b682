"""A player's page: the tournaments he played, his matches (date, game, table-mates, score, result, the
score sheet), each only where the reader may read it, and a rating chart per game drawn by the server."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scoring import services as scoring_services
from tests.tournaments.page_support import browser, text
from tests.tournaments.support import (
    Club,
    close_round,
    club_with_players,
    finish_round,
    open_round,
    tournament,
)
from tournaments.models import PlayerRating, RatingHistory, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


def two_rounds(club: Club, capture: Any, *, published: bool) -> Tournament:
    t = tournament(club, name="Torneo d'estate", published=published)
    for number in (1, 2):
        rnd = open_round(t, club.director)
        with capture(execute=True):
            finish_round(rnd, seed=number)
        close_round(t, rnd, club.director)
    return t


def test_the_page_lists_the_player_s_tournaments_and_matches(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    t = two_rounds(club, django_capture_on_commit_callbacks, published=True)
    anna = club.players[0]

    page = browser(None).get(f"/players/{anna.pk}/")

    assert page.status_code == 200
    body, shown = page.content.decode(), text(page)
    assert f'href="/tournaments/{t.pk}/"' in body and "Torneo d'estate" in shown
    rank = next(r["rank"] for r in t.standings.data["rows"] if r["player"] == anna.pk)
    assert f"{rank} of 9" in shown
    for table in Round.objects.get(tournament=t, number=1).tables.select_related("match"):
        if anna.pk not in table.players:
            continue
        match = table.match
        assert f'href="/matches/{match.pk}/"' in body  # the score sheet
        assert f"Torneo d'estate, round 1, table {table.number}" in shown
        mates = [s for s in match.seats.all() if s.player_id != anna.pk]
        for seat in mates:
            assert f'<a href="/players/{seat.player_id}/">{seat.name}</a>' in body
        mine = next(s.seat for s in match.seats.all() if s.player_id == anna.pk)
        total = match.sheet["totals"][mine]
        row = text_of(body, match.pk)
        won = mine in match.sheet["winners"]
        assert ("won" in row) == won and ("place " in row) != won
        assert f" {total} " in row
    assert "Sicilian Tarocchi (3 players)" in shown and "tarocchi</td>" not in body


def text_of(body: str, match_id: int) -> str:
    """The row of the match in the history table, as text."""
    rows = re.findall(r"<tr>.*?</tr>", body, re.S)
    row = next(r for r in rows if f'href="/matches/{match_id}/"' in r)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))


def test_a_rating_chart_per_game_is_drawn_on_the_server(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    two_rounds(club, django_capture_on_commit_callbacks, published=True)
    anna = club.players[0]
    rated = RatingHistory.objects.filter(player=anna, game="tarocchi").count()
    assert rated == 2 and PlayerRating.objects.filter(player=anna).count() == 1

    body = browser(None).get(f"/players/{anna.pk}/").content.decode()

    svg = re.search(r'<svg class="chart".*?</svg>', body, re.S)
    assert svg is not None
    chart = svg.group(0)
    assert 'role="img"' in chart and '<title id="rating-tarocchi-title">Rating at Sicilian Tarocchi' in chart
    assert "Rated matches" in chart and "Rating (mu − 3 sigma)" in chart
    width, height = (float(v) for v in re.search(r'viewBox="0 0 (\S+) (\S+)"', chart).groups())  # type: ignore[union-attr]
    points = [(float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', chart)]
    assert len(points) == rated + 1  # the start, then after each rated match
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert all(0 <= x <= width and 0 <= y <= height for x, y in points)
    path = re.search(r'<path class="series" d="([^"]+)"', chart)
    assert path is not None and path.group(1).startswith("M") and path.group(1).count("L") == rated
    assert "Start: 0.0" in chart and "After rated match 2:" in chart
    assert re.search(r'<text x="-7" y="[\d.]+" dy="0.32em" text-anchor="end">-?\d', chart)  # y tick labels


def test_numbers_in_the_chart_stay_machine_readable_in_any_language(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    two_rounds(club, django_capture_on_commit_callbacks, published=True)
    client = browser(None)

    body = client.get(f"/players/{club.players[0].pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()

    chart = re.search(r'<svg class="chart".*?</svg>', body, re.S).group(0)  # type: ignore[union-attr]
    assert not re.search(r'(cx|cy|x|y|x1|x2|y1|y2)="[^"]*,', chart)  # no decimal comma in coordinates
    assert not re.search(r'd="[^"]*\d,\d+,', chart)


def test_a_player_with_no_rated_match_says_so(club: Club) -> None:
    shown = text(browser(None).get(f"/players/{club.players[0].pk}/"))

    assert "No rated match yet." in shown and "No match you may read." in shown


def test_matches_of_an_unpublished_tournament_show_only_to_the_club(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    t = two_rounds(club, django_capture_on_commit_callbacks, published=False)
    anna = club.players[0]

    outside = browser(None).get(f"/players/{anna.pk}/").content.decode()
    inside = browser(club.people.member).get(f"/players/{anna.pk}/").content.decode()

    assert f'href="/tournaments/{t.pk}/"' not in outside and "/matches/" not in outside
    assert f'href="/tournaments/{t.pk}/"' in inside and "/matches/" in inside


def test_a_club_match_is_in_the_history_too(club: Club) -> None:
    anna, bruno, carla = club.players[:3]
    scoring_services.match_create(
        club=club.people.club, game="tarocchi", seats=[anna, bruno, carla], published=True, title="Amichevole"
    )

    shown = text(browser(None).get(f"/players/{anna.pk}/"))

    assert "a club match" in shown and "Bruno , Carla" in shown and "in play" in shown
