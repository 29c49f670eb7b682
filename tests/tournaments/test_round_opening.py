"""Opening a round: from the seating kept since the event was planned (no planning to wait for), planned
again when the players change, each round telling its own repeats, and its matches created outside the
round's transaction so that the log's ordering lock is never held for a whole round."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from common.errors import ConcurrencyConflict
from scoring.log.store import read_stream
from scoring.models import Match
from tests.scoring.factories import PlayerFactory
from tests.tournaments.support import (
    Club,
    close_round,
    club_with_players,
    finish_round,
    open_round,
    tournament,
)
from tournaments import services
from tournaments.events import RoundOpened
from tournaments.models import KeptSeating, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


def no_planning(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**kwargs: Any) -> None:
        raise AssertionError("the round should open from the kept plan")

    monkeypatch.setattr(services, "plan_seating", refuse)


def seated(rnd: Round) -> list[list[int]]:
    return [list(t.players) for t in rnd.tables.order_by("number")]


def test_the_first_round_plans_the_event_and_the_next_rounds_open_from_the_kept_plan(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = tournament(club, rounds_planned=3)
    first = open_round(t, club.director)
    kept = KeptSeating.objects.get(tournament=t)
    assert kept.first_round == 1 and len(kept.rounds) == 3
    assert seated(first) == [table["players"] for table in kept.rounds[0]["tables"]]
    finish_round(first, seed=1)
    close_round(t, first, club.director)
    no_planning(monkeypatch)

    second = open_round(t, club.director)

    assert seated(second) == [table["players"] for table in kept.rounds[1]["tables"]]
    assert second.seed == first.seed == kept.seed  # the plan's seed: the seating can be made again
    event = read_stream(t.stream_id)[-1].event
    assert isinstance(event, RoundOpened) and event.number == 2
    assert event.planned_from == 1 and event.seed == kept.seed


def test_a_registration_makes_the_kept_plan_stale(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    t = tournament(club, rounds_planned=3)
    first = open_round(t, club.director)
    finish_round(first, seed=2)
    close_round(t, first, club.director)
    late = PlayerFactory(club=club.people.club, name="Ultimo")
    t.refresh_from_db()
    services.player_register(tournament=t, player=late, expected_version=t.version, actor=club.director)
    assert not services.seating_ready(tournament=t)

    second = open_round(t, club.director)

    assert late.pk in [p for table in seated(second) for p in table] + list(
        second.sit_outs.values_list("player_id", flat=True)
    )
    kept = KeptSeating.objects.get(tournament=t)
    assert kept.first_round == 2 and len(kept.rounds) == 2
    assert services.seating_ready(tournament=t)  # round 3 is planned with them


def test_each_round_tells_the_repeats_it_adds_not_those_of_the_rounds_still_planned(club: Club) -> None:
    # 6 players at 3 for 4 rounds: 12 meetings among 15 pairs over 4 rounds cannot avoid repeats, but
    # the first round meets nobody twice.
    t = tournament(club_with_players(6, tag="six"), rounds_planned=4)
    rnd = open_round(t, t.director)

    kept = KeptSeating.objects.get(tournament=t)
    assert sum(r["repeats"] for r in kept.rounds) > 0
    assert rnd.repeats == kept.rounds[0]["repeats"] == 0


def test_a_round_s_matches_are_each_created_in_a_transaction_of_their_own(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = tournament(club)
    depths: list[bool] = []
    create = services.match_create

    def watched(**kwargs: Any) -> Match:
        # The test's own transaction wraps everything; inside it, a round's transaction would be a
        # second level (the ordering lock of the first append held until the whole round commits).
        depths.append(len(connection.savepoint_ids) > 0)
        return create(**kwargs)

    monkeypatch.setattr(services, "match_create", watched)
    rnd = open_round(t, club.director)

    assert depths == [False, False, False]
    assert rnd.tables.count() == 3


def test_a_round_refused_at_the_last_step_leaves_its_matches_private_and_the_log_of_the_round_empty(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = tournament(club, published=True)
    seen = t.version
    create = services.match_create

    def meanwhile(**kwargs: Any) -> Match:
        match = create(**kwargs)
        Tournament.objects.filter(pk=t.pk).update(version=seen + 1)  # another director's write
        return match

    monkeypatch.setattr(services, "match_create", meanwhile)

    with pytest.raises(ConcurrencyConflict):
        services.round_open(tournament=t, expected_version=seen, actor=club.director)

    assert not Round.objects.filter(tournament=t).exists()
    assert not Match.objects.filter(club=club.people.club, published=True).exists()
