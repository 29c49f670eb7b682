"""A director's night through the services: set up, register, seat rounds, close them, change settings,
with every refusal naming its rule and leaving nothing half-written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from common.errors import ConcurrencyConflict, Invalid, Refused
from scoring.models import Match, StoredEvent
from tests.scoring.factories import ClubFactory, PlayerFactory
from tests.tournaments.support import (
    Club,
    close_round,
    club_with_players,
    finish_match,
    finish_round,
    open_round,
    tournament,
)
from tournaments import services
from tournaments.models import Registration, Round, SitOut, Standings, Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


def events_of(t: Tournament) -> list[str]:
    return list(
        StoredEvent.objects.filter(stream_id=t.stream_id)
        .order_by("version")
        .values_list("event_type", flat=True)
    )


def refused(fn: Callable[..., Any], code: str, **kwargs: Any) -> Refused | Invalid:
    """Call a service that must refuse with ``code``; the tournament's log must not grow."""
    before = StoredEvent.objects.count()
    with pytest.raises((Refused, Invalid)) as err:
        fn(**kwargs)
    assert err.value.code == code, err.value.message
    assert StoredEvent.objects.count() == before
    return err.value


def test_a_new_tournament_is_an_event_stream_with_its_settings_and_empty_standings(club: Club) -> None:
    t = tournament(club, rounds_planned=3, tiebreaks=["total", "tables_won"])

    assert events_of(t) == ["TournamentCreated"] + ["PlayerRegistered"] * 9
    assert t.version == 10 and t.director == club.director
    standings = Standings.objects.get(tournament=t)
    assert [r["name"] for r in standings.data["rows"]] and all(
        r["tables"] == 0 for r in standings.data["rows"]
    )
    assert standings.data["precedence"] == ["total", "tables_won", "lot"]


def test_opening_a_round_seats_every_player_and_creates_a_match_per_table(club: Club) -> None:
    t = tournament(club)

    rnd = open_round(t, club.director)

    tables = list(rnd.tables.select_related("match").order_by("number"))
    assert len(tables) == 3 and rnd.number == 1 and rnd.status == Round.Status.OPEN
    seated = [p for table in tables for p in table.players]
    assert sorted(seated) == sorted(p.pk for p in club.players)
    for table in tables:
        match = table.match
        assert match.game == "tarocchi" and match.options == {"deals": 1}
        assert [s.player_id for s in match.seats.order_by("seat")] == table.players
        assert match.hands.get(number=1).dealer == table.dealer
        assert list(match.scorers.all()) == [club.people.scorer]
    assert events_of(t)[-1] == "RoundOpened"


def test_a_round_with_too_many_players_for_the_tables_seats_the_rest_out_with_the_sit_out_score() -> None:
    club = club_with_players(10)
    t = tournament(club, sit_out_score="3/2")

    rnd = open_round(t, club.director)

    outs = list(SitOut.objects.filter(round=rnd))
    assert len(outs) == 1 and outs[0].score == "3/2"
    row = next(
        r for r in Standings.objects.get(tournament=t).data["rows"] if r["player"] == outs[0].player_id
    )
    assert row["sit_outs"] == 1 and row["values"]["total"] == "3/2"


def test_opening_a_round_while_one_is_open_is_refused(club: Club) -> None:
    t = tournament(club)
    open_round(t, club.director)
    t.refresh_from_db()

    error = refused(
        services.round_open, "round.open", tournament=t, expected_version=t.version, actor=club.director
    )

    assert error.field == "round" and "round 1 is still open" in error.message
    assert Round.objects.filter(tournament=t).count() == 1


def test_opening_a_round_with_fewer_players_than_a_table_is_refused() -> None:
    club = club_with_players(2)
    t = tournament(club)

    refused(
        services.round_open, "round.too_few", tournament=t, expected_version=t.version, actor=club.director
    )

    assert not Match.objects.exists() and not Round.objects.exists()


def test_a_write_at_a_stale_version_is_a_conflict_and_writes_nothing(club: Club) -> None:
    t = tournament(club)
    stale = t.version - 1

    with pytest.raises(ConcurrencyConflict) as err:
        services.round_open(tournament=t, expected_version=stale, actor=club.director)

    assert (err.value.expected, err.value.actual) == (stale, t.version)
    assert not Round.objects.exists() and not Match.objects.exists()


def test_closing_a_round_waits_for_every_table_or_an_abandon_with_a_reason(club: Club) -> None:
    t = tournament(club)
    rnd = open_round(t, club.director)
    first, second, third = rnd.tables.order_by("number")
    for table in (first, second):
        finish_match(table.match, seed=table.number)
    t.refresh_from_db()

    error = refused(
        services.round_close,
        "round.unfinished",
        tournament=t,
        round_number=1,
        expected_version=t.version,
        actor=club.director,
    )
    assert "table 3" in error.message
    refused(
        services.table_abandon,
        "tournament.reason",
        tournament=t,
        round_number=1,
        table_number=3,
        reason=" ",
        expected_version=t.version,
        actor=club.director,
    )
    services.table_abandon(
        tournament=t,
        round_number=1,
        table_number=3,
        reason="Dario was taken ill",
        expected_version=t.version,
        actor=club.director,
    )
    closed = close_round(t, rnd, club.director)

    assert closed.status == Round.Status.CLOSED and closed.closed_position
    assert Table.objects.get(pk=third.pk).abandoned
    notes = Standings.objects.get(tournament=t).data["notes"]
    assert [(n["kind"], n["table"]) for n in notes] == [("abandoned", 3)]
    assert "Dario was taken ill" in notes[0]["text"]


def test_registering_twice_or_another_clubs_player_without_a_guest_entry_is_refused(club: Club) -> None:
    t = tournament(club)
    outsider = PlayerFactory(club=ClubFactory(), name="Ospite")

    refused(
        services.player_register,
        "registration.twice",
        tournament=t,
        player=club.players[0],
        expected_version=t.version,
        actor=club.director,
    )
    error = refused(
        services.player_register,
        "registration.other_club",
        tournament=t,
        player=outsider,
        expected_version=t.version,
        actor=club.director,
    )
    assert error.field == "guest"
    services.player_register(
        tournament=t, player=outsider, guest=True, expected_version=t.version, actor=club.director
    )

    assert Registration.objects.get(tournament=t, player=outsider).guest


def test_a_withdrawn_player_is_seated_no_more_but_stays_in_the_standings(club: Club) -> None:
    t = tournament(club)
    gone = club.players[0]
    services.player_withdraw(
        tournament=t, player=gone, reason="gone home", expected_version=t.version, actor=club.director
    )

    rnd = open_round(t, club.director)

    seated = {p for table in rnd.tables.all() for p in table.players}
    assert gone.pk not in seated
    assert gone.pk in {r["player"] for r in Standings.objects.get(tournament=t).data["rows"]}


def test_changing_the_ranking_after_round_one_needs_a_reason_that_the_log_keeps(club: Club) -> None:
    t = tournament(club)
    services.tournament_update(
        tournament=t, expected_version=t.version, actor=club.director, tiebreaks=["total", "best_result"]
    )  # before round 1: no reason needed
    t.refresh_from_db()
    open_round(t, club.director)
    t.refresh_from_db()

    error = refused(
        services.tournament_update,
        "tournament.reason",
        tournament=t,
        expected_version=t.version,
        actor=club.director,
        tiebreaks=["total", "head_to_head"],
    )
    assert error.field == "reason"
    services.tournament_update(
        tournament=t,
        expected_version=t.version,
        actor=club.director,
        tiebreaks=["total", "head_to_head"],
        reason="agreed with the players",
    )

    last = StoredEvent.objects.filter(stream_id=t.stream_id).order_by("-version").first()
    assert last is not None and last.event_type == "TournamentChanged"
    assert last.recorded_by == club.director.username
    assert last.payload == {
        "changes": {"tiebreaks": ["total", "head_to_head"]},
        "reason": "agreed with the players",
    }
    assert Standings.objects.get(tournament=t).data["precedence"] == ["total", "head_to_head", "lot"]


def test_natural_totals_are_refused_for_a_league_of_several_games(club: Club) -> None:
    error = refused(
        services.tournament_create,
        "tournament.scoring",
        club=club.people.club,
        name="Lega",
        games=["barbu", "tarocchi"],
        scoring="natural",
        actor=club.director,
    )

    assert error.field == "scoring"
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"tiebreaks": ["total", "total"]}, "tiebreaks.repeated", "tiebreaks"),
        ({"tiebreaks": ["nonsense"]}, "tiebreaks.unknown", "tiebreaks"),
        ({"sit_out_score": "one"}, "tournament.score", "sit_out_score"),
        ({"game_options": {"tarocchi": {"deals": 0}}}, "tournament.game_options", "game_options.tarocchi"),
        ({"game_options": {"barbu": {}}}, "tournament.game_options", "game_options"),
        ({"rounds_planned": 0}, "tournament.rounds_planned", "rounds_planned"),
        ({"forbidden_pairs": [[1, 1]]}, "tournament.forbidden_pairs", "forbidden_pairs"),
        ({"name": " "}, "tournament.name", "name"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(
    club: Club, changes: dict[str, Any], code: str, field: str
) -> None:
    t = tournament(club)

    error = refused(
        services.tournament_update,
        code,
        tournament=t,
        expected_version=t.version,
        actor=club.director,
        **changes,
    )

    assert error.field == field


def test_a_round_of_a_league_of_several_games_names_its_game(club: Club) -> None:
    t = tournament(club, games=("tarocchi", "hombre_it"), scoring="rank_points")

    refused(services.round_open, "round.game", tournament=t, expected_version=t.version, actor=club.director)
    rnd = open_round(t, club.director, game="hombre_it")

    assert rnd.game == "hombre_it" and {table.match.game for table in rnd.tables.all()} == {"hombre_it"}


def test_the_same_seed_seats_the_same_round(club: Club) -> None:
    first = tournament(club, name="Uno", seed=42)
    second = services.tournament_create(
        club=club.people.club,
        name="Due",
        games=["tarocchi"],
        game_options={"tarocchi": {"deals": 1}},
        seed=42,
        actor=club.director,
    )
    for player in reversed(club.players):  # registered in another order: the seating must not care
        second.refresh_from_db()
        services.player_register(
            tournament=second, player=player, expected_version=second.version, actor=club.director
        )

    a = open_round(first, club.director)
    b = open_round(second, club.director)

    assert a.seed == b.seed
    assert [t.players for t in a.tables.order_by("number")] == [
        t.players for t in b.tables.order_by("number")
    ]


def test_publishing_the_standings_publishes_the_tables_matches(club: Club) -> None:
    t = tournament(club)
    rnd = open_round(t, club.director)
    t.refresh_from_db()

    services.standings_publish(tournament=t, published=True, expected_version=t.version, actor=club.director)

    assert all(table.match.published for table in rnd.tables.select_related("match"))
    assert Tournament.objects.get(pk=t.pk).published


def test_a_whole_round_then_the_next(club: Club, django_capture_on_commit_callbacks: Any) -> None:
    t = tournament(club, rounds_planned=2)
    rnd = open_round(t, club.director)
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(rnd, seed=1)
    close_round(t, rnd, club.director)

    second = open_round(t, club.director)

    assert second.number == 2 and second.tables.count() == 3
    rows = Standings.objects.get(tournament=t).data["rows"]
    assert sum(r["tables"] for r in rows) == 9


def test_a_pair_no_seating_keeps_apart_is_refused_naming_the_players() -> None:
    club = club_with_players(3)  # one table of Tarocchi: nobody can be kept apart
    first, second = club.players[0], club.players[1]
    t = tournament(club, forbidden_pairs=[[first.pk, second.pk]])

    error = refused(
        services.round_open, "round.seating", tournament=t, expected_version=t.version, actor=club.director
    )

    pair = {
        f"{a.name} and {b.name} cannot be kept apart at these tables"
        for a, b in [(first, second), (second, first)]
    }
    assert error.message in pair
    assert not Round.objects.filter(tournament=t).exists()


def test_a_ranking_criterion_the_standings_do_not_know_is_refused_in_the_request_s_language(
    club: Club,
) -> None:
    from django.utils import translation

    with translation.override("it"):
        error = refused(
            services.tournament_create,
            "tiebreaks.unknown",
            club=club.people.club,
            name="Torneo",
            games=["tarocchi"],
            tiebreaks=["total", "luck"],
            actor=club.director,
        )

    assert error.field == "tiebreaks" and "'luck'" in error.message
    assert error.message.startswith("criterio sconosciuto")


def test_a_scorer_added_mid_round_may_record_at_the_open_tables_and_one_removed_no_longer_may(
    club: Club,
) -> None:
    """The change reaches the tables still in play of the open round, and is kept in the log; a table
    already finished keeps the scorers who recorded it."""
    t = tournament(club)
    rnd = open_round(t, club.director)
    tables = list(rnd.tables.select_related("match").order_by("number"))
    finish_match(tables[0].match, seed=3)
    t.refresh_from_db()

    services.tournament_update(
        tournament=t, expected_version=t.version, actor=club.director, scorers=[club.people.other_scorer]
    )

    assert list(t.scorers.all()) == [club.people.other_scorer]
    assert list(tables[0].match.scorers.all()) == [club.people.scorer]  # finished: as it was
    for table in tables[1:]:
        assert list(table.match.scorers.all()) == [club.people.other_scorer]
    assert events_of(t)[-1] == "TournamentChanged"
    last = StoredEvent.objects.filter(stream_id=t.stream_id).order_by("-version").first()
    assert last is not None and last.payload["changes"] == {"scorers": ["otto"]}


def test_the_same_scorers_again_is_no_change_and_a_member_is_no_scorer(club: Club) -> None:
    t = tournament(club)
    before = StoredEvent.objects.count()

    with pytest.raises(Refused, match="nothing to change"):
        services.tournament_update(
            tournament=t, expected_version=t.version, actor=club.director, scorers=[club.people.scorer]
        )
    with pytest.raises(Refused) as refused:
        services.tournament_update(
            tournament=t, expected_version=t.version, actor=club.director, scorers=[club.people.member]
        )

    assert refused.value.field == "scorers"
    assert StoredEvent.objects.count() == before
    assert list(t.scorers.all()) == [club.people.scorer]
