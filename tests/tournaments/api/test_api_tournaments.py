"""The tournament API: a director's night end to end, roles, the errors each refusal answers with, the
standings in JSON and CSV, the audit trail, ratings, and the page."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.scoring.api_support import client_for
from tests.scoring.factories import PlayerFactory
from tests.tournaments.support import Club, club_with_players, finish_round
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    c = club_with_players(8)
    PlayerFactory(club=c.people.club, name="Niccolò Bàrberi")  # accents must survive the exports
    c.players = list(c.people.club.players.order_by("pk"))
    return c


def create(client: APIClient, club: Club, **extra: Any) -> dict[str, Any]:
    body = {
        "club": club.people.club.pk,
        "name": "Torneo d'autunno",
        "games": ["tarocchi"],
        "game_options": {"tarocchi": {"deals": 1}},
        "rounds_planned": 2,
        **extra,
    }
    response = client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    data: dict[str, Any] = response.json()
    return data


def register_all(client: APIClient, club: Club, t: dict[str, Any]) -> int:
    version = t["version"]
    for player in club.players:
        response = client.post(
            f"/api/tournaments/{t['id']}/registrations/",
            {"player": player.pk, "expected_version": version},
            format="json",
        )
        assert response.status_code == 201, response.json()
        version = response.json()["version"]
    return int(version)


def test_a_director_runs_a_round_to_its_standings_through_the_api(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    director = client_for(club.director)
    t = create(director, club)
    version = register_all(director, club, t)

    opened = director.post(
        f"/api/tournaments/{t['id']}/rounds/", {"expected_version": version}, format="json"
    )
    assert opened.status_code == 201, opened.json()
    body = opened.json()
    assert body["number"] == 1 and len(body["tables"]) == 3
    assert all(table["progress"] == "in_play" for table in body["tables"])
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(Round.objects.get(tournament_id=t["id"], number=1), seed=4)
    progress = director.get(f"/api/tournaments/{t['id']}/rounds/1/").json()
    assert [table["progress"] for table in progress["tables"]] == ["finished"] * 3
    version = director.get(f"/api/tournaments/{t['id']}/").json()["version"]
    closed = director.post(
        f"/api/tournaments/{t['id']}/rounds/1/close/", {"expected_version": version}, format="json"
    )
    assert closed.status_code == 200 and closed.json()["status"] == "closed"

    standings = director.get(f"/api/tournaments/{t['id']}/standings/").json()
    assert [r["rank"] for r in standings["rows"]] == list(range(1, 10))
    assert all(r["tables"] == 1 for r in standings["rows"])
    assert standings["rows"][0]["why_above"] is None
    for row in standings["rows"][1:]:
        assert row["why_above"]["text"].startswith(
            f"{standings['rows'][row['rank'] - 2]['name']} above {row['name']}"
        )
    assert standings["as_of"] is not None and standings["position"] > 0
    assert all(set(r["ratings"]) == {"tarocchi"} for r in standings["rows"])


def test_roles_a_director_runs_members_read_outsiders_see_nothing_until_published(club: Club) -> None:
    t = create(client_for(club.director), club)
    url = f"/api/tournaments/{t['id']}/"
    people = club.people

    assert client_for(people.member).get(url).status_code == 200
    assert client_for(people.outsider).get(url).status_code == 404
    assert client_for(None).get(f"{url}standings/").status_code == 404
    assert (
        client_for(people.scorer)
        .patch(url, {"expected_version": t["version"], "name": "x"}, format="json")
        .status_code
        == 403
    )
    assert (
        client_for(None).post(f"{url}rounds/", {"expected_version": t["version"]}, format="json").status_code
        == 401
    )
    body = {"club": people.club.pk, "name": "Mio", "games": ["barbu"]}
    assert client_for(people.scorer).post("/api/tournaments/", body, format="json").status_code == 403

    published = client_for(club.director).post(
        f"{url}publish/", {"expected_version": t["version"]}, format="json"
    )
    assert published.status_code == 200 and published.json()["published"]
    assert client_for(None).get(f"{url}standings/").status_code == 200
    assert [x["tournament"] for x in client_for(None).get("/api/standings/").json()] == [t["id"]]


def test_refusals_answer_with_their_code_and_field_and_a_stale_version_with_409(club: Club) -> None:
    director = client_for(club.director)
    t = create(director, club)
    url = f"/api/tournaments/{t['id']}/"

    missing = director.post(f"{url}rounds/", {}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "expected_version"
    too_few = director.post(f"{url}rounds/", {"expected_version": t["version"]}, format="json")
    assert too_few.status_code == 422 and too_few.json()["code"] == "round.too_few"
    version = register_all(director, club, t)
    twice = director.post(
        f"{url}registrations/", {"player": club.players[0].pk, "expected_version": version}, format="json"
    )
    assert twice.status_code == 422 and (twice.json()["code"], twice.json()["field"]) == (
        "registration.twice",
        "player",
    )
    stale = director.post(f"{url}rounds/", {"expected_version": version - 1}, format="json")
    assert stale.status_code == 409
    assert (stale.json()["expected_version"], stale.json()["current_version"]) == (version - 1, version)
    assert "the tournament is at version" in stale.json()["message"]
    bad = director.patch(url, {"expected_version": version, "tiebreaks": ["total", "luck"]}, format="json")
    assert bad.status_code == 400 and bad.json()["field"].startswith("tiebreaks")
    assert Round.objects.count() == 0


def test_the_standings_export_as_csv_with_accents_intact_and_as_json(club: Club) -> None:
    director = client_for(club.director)
    t = create(director, club)
    register_all(director, club, t)

    response = director.get(f"/api/tournaments/{t['id']}/standings/export/?format=csv")

    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert f'filename="standings-{t["id"]}.csv"' in response["Content-Disposition"]
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")  # the UTF-8 byte-order mark spreadsheets look for
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:3] == ["rank", "player", "total"]
    assert "Niccolò Bàrberi" in {r[1] for r in rows[1:]} and len(rows) == 10
    as_json = director.get(f"/api/tournaments/{t['id']}/standings/export/?format=json")
    assert as_json.status_code == 200 and len(as_json.json()["rows"]) == 9
    assert director.get(f"/api/tournaments/{t['id']}/standings/export/").content.startswith(b"\xef\xbb\xbf")
    assert director.get(f"/api/tournaments/{t['id']}/standings/export/?format=xls").status_code == 404


def test_the_audit_trail_keeps_who_changed_the_ranking_and_why(club: Club) -> None:
    director = client_for(club.director)
    t = create(director, club)
    version = register_all(director, club, t)
    version = director.post(
        f"/api/tournaments/{t['id']}/rounds/", {"expected_version": version}, format="json"
    ).json()
    version = director.get(f"/api/tournaments/{t['id']}/").json()["version"]

    refused = director.patch(
        f"/api/tournaments/{t['id']}/", {"expected_version": version, "scoring": "rank_points"}, format="json"
    )
    assert refused.status_code == 422 and refused.json()["field"] == "reason"
    changed = director.patch(
        f"/api/tournaments/{t['id']}/",
        {"expected_version": version, "scoring": "rank_points", "reason": "tables of 3 and 4"},
        format="json",
    )
    assert changed.status_code == 200 and changed.json()["scoring"] == "rank_points"

    trail = director.get(f"/api/tournaments/{t['id']}/events/").json()
    assert [e["type"] for e in trail][:2] == ["TournamentCreated", "PlayerRegistered"]
    assert trail[-1] == {
        **trail[-1],
        "type": "TournamentChanged",
        "by": club.director.username,
        "payload": {"changes": {"scoring": "rank_points"}, "reason": "tables of 3 and 4"},
    }


def test_the_scorers_of_the_evening_are_changed_by_username(club: Club) -> None:
    director = client_for(club.director)
    t = create(director, club)

    changed = director.patch(
        f"/api/tournaments/{t['id']}/",
        {"expected_version": t["version"], "scorers": ["sandro", "otto"]},
        format="json",
    )
    unknown = director.patch(
        f"/api/tournaments/{t['id']}/",
        {"expected_version": changed.json()["version"], "scorers": ["nobody"]},
        format="json",
    )

    assert changed.status_code == 200, changed.json()
    assert sorted(changed.json()["scorers"]) == ["otto", "sandro"]
    assert unknown.status_code in (400, 422) and unknown.json()["field"].startswith("scorers")


def test_a_players_ratings_and_the_schema_and_the_pages(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    director = client_for(club.director)
    t = create(director, club, published=True)
    version = register_all(director, club, t)
    director.post(f"/api/tournaments/{t['id']}/rounds/", {"expected_version": version}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(Round.objects.get(tournament_id=t["id"]), seed=2)

    ratings = client_for(None).get(f"/api/players/{club.players[0].pk}/ratings/").json()
    assert set(ratings["games"]) == {"tarocchi"}
    assert len(ratings["games"]["tarocchi"]["history"]) == ratings["games"]["tarocchi"]["matches"] == 1

    schema = client_for(None).get("/api/schema/")
    for operation in (
        "tournament_create",
        "round_open",
        "standings_detail",
        "standings_export",
        "player_ratings",
    ):
        assert f"operationId: {operation}" in schema.content.decode()

    page = client_for(None).get(f"/tournaments/{t['id']}/standings/")
    text = page.content.decode()
    assert page.status_code == 200 and "Includes every game up to" in text and " above " in text
    assert client_for(None).get(f"/players/{club.players[0].pk}/").status_code == 200
    assert "Torneo d&#x27;autunno" in client_for(None).get("/").content.decode()


def test_an_unpublished_standings_page_asks_an_anonymous_visitor_to_sign_in(club: Club) -> None:
    t = create(client_for(club.director), club)

    response = APIClient().get(f"/tournaments/{t['id']}/standings/")

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    member = APIClient()
    member.force_login(club.people.member)
    assert member.get(f"/tournaments/{t['id']}/standings/").status_code == 200


def test_a_guest_from_another_club_is_registered_only_as_a_guest(club: Club) -> None:
    director = client_for(club.director)
    t = create(director, club)
    guest = PlayerFactory()  # of another club

    refused = director.post(
        f"/api/tournaments/{t['id']}/registrations/",
        {"player": guest.pk, "expected_version": t["version"]},
        format="json",
    )
    assert refused.status_code == 422 and refused.json()["code"] == "registration.other_club"
    accepted = director.post(
        f"/api/tournaments/{t['id']}/registrations/",
        {"player": guest.pk, "guest": True, "expected_version": t["version"]},
        format="json",
    )
    assert accepted.status_code == 201
    assert [r["guest"] for r in accepted.json()["registrations"]] == [True]
    assert Tournament.objects.get(pk=t["id"]).registrations.get().guest
