"""Standings kept by the projection: each finished match applied once, a repeat changes nothing, a
ruling's change is taken back out exactly, the cost of an update does not grow with the league, and a
rebuild from the event log gives the same bytes."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services as scoring_services
from scoring.models import Hand, Match
from tests.tournaments.support import (
    close_round,
    club_with_players,
    finish_match,
    finish_round,
    open_round,
    tournament,
)
from tournaments import projections, selectors, services, tasks
from tournaments.models import Standings, StandingsContribution, Tournament
from tournaments.plan.standings import Ledger

pytestmark = pytest.mark.django_db


def snapshot(t: Tournament) -> str:
    """Everything the standings hold, as bytes."""
    s = Standings.objects.get(tournament=t)
    contributions = sorted(
        (c.key, c.match_id, c.position, c.data) for c in StandingsContribution.objects.filter(tournament=t)
    )
    return json.dumps(
        {
            "ledger": s.ledger,
            "data": s.data,
            "position": s.position,
            "as_of": str(s.as_of),
            "c": contributions,
        },
        sort_keys=True,
    )


def last_hand(match: Match) -> Hand:
    hand = match.hands.order_by("-number").first()
    assert hand is not None
    return hand


def test_a_finished_match_is_counted_once_and_a_repeat_changes_nothing(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club = club_with_players(9)
    t = tournament(club)
    rnd = open_round(t, club.director)
    table = rnd.tables.select_related("match").first()
    assert table is not None
    with django_capture_on_commit_callbacks(execute=True):
        match = finish_match(table.match, seed=5)
    before = snapshot(t)

    assert projections.standings_apply_match(match_id=match.pk) is False
    assert tasks.match_changed_update.apply(args=[match.pk]).get() == {"standings": False, "ratings": False}

    assert snapshot(t) == before
    standings = Standings.objects.get(tournament=t)
    assert standings.position == last_hand(match).position
    assert standings.as_of == last_hand(match).updated_at
    counted = [r for r in standings.data["rows"] if r["tables"]]
    assert sorted(r["player"] for r in counted) == sorted(table.players)
    totals = {
        p: int(v) for p, v in zip(table.players, Match.objects.get(pk=match.pk).sheet["totals"], strict=True)
    }
    assert {r["player"]: r["values"]["total"] for r in counted} == totals


def test_the_standings_rebuilt_from_the_log_are_the_same_bytes(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club = club_with_players(10)  # one sits out each round
    t = tournament(club, rounds_planned=3, sit_out_score=2)
    director = club.director
    with django_capture_on_commit_callbacks(execute=True):
        first = open_round(t, director)
        finish_round(first, seed=1)
        close_round(t, first, director)
        second = open_round(t, director)
        tables = list(second.tables.select_related("match").order_by("number"))
        for table in tables[:-1]:
            finish_match(table.match, seed=table.number)
        t.refresh_from_db()
        services.table_abandon(
            tournament=t,
            round_number=2,
            table_number=tables[-1].number,
            reason="a fire drill",
            expected_version=t.version,
            actor=director,
        )
        close_round(t, second, director)
        # After round 2 closed, a ruling changes a finished match of round 1 and a correction reopens
        # one of round 2.
        ruled = last_hand(first.tables.order_by("number")[0].match)
        scoring_services.ruling_record(
            hand=ruled,
            refs=[ruled.version],
            rule="slow play",
            reason="warned twice",
            rectification={"kind": "penalty", "scores": [-3, 0, 0]},
            expected_version=ruled.version,
            actor=director,
        )
        reopened = last_hand(tables[0].match)
        scoring_services.move_undo(
            hand=reopened, expected_version=reopened.version, actor=director, reason="mis-keyed"
        )
    incremental = snapshot(t)
    notes = Standings.objects.get(tournament=t).data["notes"]

    projections.standings_rebuild(tournament_id=t.pk)

    assert snapshot(t) == incremental
    assert sorted(n["kind"] for n in notes) == ["abandoned", "changed", "reopened"]


def test_a_ruling_that_changes_a_finished_match_takes_its_old_result_back_out(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club = club_with_players(3)
    t = tournament(club)
    rnd = open_round(t, club.director)
    table = rnd.tables.select_related("match").get()
    with django_capture_on_commit_callbacks(execute=True):
        match = finish_match(table.match, seed=8)
        hand = last_hand(match)
        scoring_services.ruling_record(
            hand=hand,
            refs=[hand.version],
            rule="revoke",
            reason="seen by all",
            rectification={"kind": "assign_score", "scores": [10, -4, -6]},
            expected_version=hand.version,
            actor=club.director,
        )

    rows = {r["player"]: r["values"]["total"] for r in Standings.objects.get(tournament=t).data["rows"]}
    assert rows == dict(zip(table.players, [10, -4, -6], strict=True))
    assert StandingsContribution.objects.filter(tournament=t, match=match).count() == 1


def test_a_match_reopened_after_its_round_closed_stops_counting_until_it_finishes_again(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club = club_with_players(3)
    t = tournament(club)
    rnd = open_round(t, club.director)
    table = rnd.tables.select_related("match").get()
    with django_capture_on_commit_callbacks(execute=True):
        match = finish_match(table.match, seed=9)
    close_round(t, rnd, club.director)
    hand = last_hand(match)

    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.move_undo(
            hand=hand, expected_version=hand.version, actor=club.director, reason="wrong card"
        )
    data = Standings.objects.get(tournament=t).data

    assert all(r["tables"] == 0 for r in data["rows"])
    assert [n["kind"] for n in data["notes"]] == ["reopened"]
    assert "not counted until it finishes again" in data["notes"][0]["text"]

    with django_capture_on_commit_callbacks(execute=True):
        finish_match(match, seed=10)
    data = Standings.objects.get(tournament=t).data
    assert all(r["tables"] == 1 for r in data["rows"])
    assert [n["kind"] for n in data["notes"]] == ["changed"]


def applying_one_match_queries(rounds: int) -> int:
    """How many SQL statements applying one more finished match costs in a league of ``rounds`` rounds."""
    club = club_with_players(9, tag=str(rounds))
    t = tournament(club, name=f"League of {rounds}")
    for n in range(rounds):
        rnd = open_round(t, club.director)
        finish_round(rnd, seed=n)
        for table in rnd.tables.all():
            projections.standings_apply_match(match_id=table.match_id)
        close_round(t, rnd, club.director)
    rnd = open_round(t, club.director)
    table = rnd.tables.select_related("match").order_by("number")[0]
    finish_match(table.match, seed=99)
    with CaptureQueriesContext(connection) as queries:
        assert projections.standings_apply_match(match_id=table.match_id)
    return len(queries.captured_queries)


def test_the_cost_of_one_update_does_not_grow_with_the_league() -> None:
    assert applying_one_match_queries(1) == applying_one_match_queries(4)


def test_the_catch_up_finds_the_matches_whose_update_was_lost() -> None:
    club = club_with_players(6)
    t = tournament(club)
    rnd = open_round(t, club.director)
    # No commit hooks run here: as if the broker had been down when these matches finished.
    finish_round(rnd, seed=3)
    lost = sorted(rnd.tables.values_list("match_id", flat=True))
    assert sorted(projections.standings_stale()) == lost

    assert sorted(tasks.catch_up.apply().get()) == lost

    assert projections.standings_stale() == [] and projections.ratings_stale() == []
    assert sum(r["tables"] for r in Standings.objects.get(tournament=t).data["rows"]) == 6


def test_a_rebuild_recreates_the_standings_once_their_rows_are_deleted(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club = club_with_players(9)
    t = tournament(club)
    rnd = open_round(t, club.director)
    table = rnd.tables.select_related("match").first()
    assert table is not None
    with django_capture_on_commit_callbacks(execute=True):
        finish_match(table.match, seed=5)
    counted = snapshot(t)
    Standings.objects.filter(tournament=t).delete()
    StandingsContribution.objects.filter(tournament=t).delete()

    projections.standings_rebuild(tournament_id=t.pk)

    assert snapshot(t) == counted


def test_an_update_after_the_standings_rows_were_deleted_counts_everything_again(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club = club_with_players(9)
    t = tournament(club)
    rnd = open_round(t, club.director)
    first, second = list(rnd.tables.select_related("match").order_by("number"))[:2]
    with django_capture_on_commit_callbacks(execute=True):
        finish_match(first.match, seed=5)
    Standings.objects.filter(tournament=t).delete()
    with django_capture_on_commit_callbacks(execute=True):
        finish_match(second.match, seed=6)
    live = snapshot(t)

    projections.standings_rebuild(tournament_id=t.pk)

    assert snapshot(t) == live
    assert sum(1 for r in Standings.objects.get(tournament=t).data["rows"] if r["tables"]) == 6


def test_a_sit_out_score_changed_after_round_one_applies_to_every_sit_out(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club = club_with_players(10)  # one sits out each round
    t = tournament(club, rounds_planned=2, sit_out_score=2)
    director = club.director
    with django_capture_on_commit_callbacks(execute=True):
        first = open_round(t, director)
        finish_round(first, seed=1)
        close_round(t, first, director)
        second = open_round(t, director)
    sat = [s.player_id for r in (first, second) for s in r.sit_outs.all()]
    t.refresh_from_db()

    services.tournament_update(
        tournament=t,
        expected_version=t.version,
        actor=director,
        reason="the middle of a table, as agreed",
        sit_out_score="13/2",
    )

    standings = Standings.objects.get(tournament=t)
    rows = {r["player"]: r for r in standings.data["rows"]}
    ledger = Ledger.from_json(standings.ledger)
    assert len(sat) == 2 and sat[0] != sat[1]
    for player in sat:
        assert ledger.tally(player).sit_out_score == Fraction(13, 2)
    # The round-1 sit-out has no table finished yet (round 2 is in play): the sit-out is his total.
    assert rows[sat[0]]["tables"] == 0
    assert rows[sat[0]]["values"]["total"] == "13/2"
    assert all(s.score == "13/2" for r in (first, second) for s in r.sit_outs.all())
    change = selectors.tournament_changes(t)[0]
    assert change["changes"] == {"sit_out_score": "13/2"}
    assert change["reason"] == "the middle of a table, as agreed"
    live = snapshot(t)
    projections.standings_rebuild(tournament_id=t.pk)
    assert snapshot(t) == live
