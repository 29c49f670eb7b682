"""Ratings with openskill: the contests each game's matches hold, the direction of an update, and the
ratings kept by the projection equal to a rebuild in match order, whatever order matches finish in."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from scoring import services as scoring_services
from scoring.models import Match
from tests.tournaments.support import Club, club_with_players, finish_match, open_round, tournament
from tournaments import projections
from tournaments.models import PlayerRating, RatedMatch, RatingHistory
from tournaments.plan.ratings import DEFAULT, Contest, contests, ordinal, rate


def test_tressette_at_four_is_side_against_side_with_the_winners_first() -> None:
    found = contests(
        game="tressette",
        players=[1, 2, 3, 4],
        totals=[31, 20, 31, 20],
        winners=[0, 2],
        sides=[[0, 2], [1, 3]],
        hand_results=[],
    )

    assert found == [Contest(((1, 3), (2, 4)), (Fraction(1), Fraction(2)))]


def test_barbu_and_tarocchi_are_each_for_himself_ties_sharing_their_place() -> None:
    found = contests(
        game="tarocchi",
        players=[7, 8, 9],
        totals=[10, 10, -20],
        winners=[0, 1],
        sides=[[0], [1], [2]],
        hand_results=[],
    )

    assert found == [Contest(((7,), (8,), (9,)), (Fraction(3, 2), Fraction(3, 2), Fraction(3)))]


def test_the_hombres_are_one_against_two_in_every_hand_played() -> None:
    hands = [
        {"outcome": "passed", "teams": [], "team_scores": []},
        {"outcome": "won", "teams": [[1], [0, 2]], "team_scores": [2, -2]},
        {"outcome": "lost", "teams": [[0], [1, 2]], "team_scores": [-4, 4]},
    ]

    found = contests(
        game="hombre_it",
        players=[5, 6, 7],
        totals=[-2, 2, 0],
        winners=[1],
        sides=[[0], [1], [2]],
        hand_results=hands,
    )

    assert found == [
        Contest(((6,), (5, 7)), (Fraction(1), Fraction(2))),
        Contest(((5,), (6, 7)), (Fraction(2), Fraction(1))),
    ]


def test_a_match_with_a_seat_that_is_not_a_player_holds_no_contest() -> None:
    assert (
        contests(
            game="barbu",
            players=[1, None, 3, 4],
            totals=[1, 2, 3, 4],
            winners=[3],
            sides=[[0], [1], [2], [3]],
            hand_results=[],
        )
        == []
    )


def test_winning_raises_a_rating_and_losing_lowers_it_and_partners_move_together() -> None:
    new = rate({}, Contest(((1, 3), (2, 4)), (Fraction(1), Fraction(2))))

    assert new[1] == new[3] and new[2] == new[4]
    assert new[1][0] > DEFAULT[0] > new[2][0]
    assert new[1][1] < DEFAULT[1]  # more is known after a match
    assert ordinal(new[1]) == new[1][0] - 3 * new[1][1]


def ratings_now() -> list[tuple[Any, ...]]:
    return sorted(PlayerRating.objects.values_list("player_id", "game", "mu", "sigma", "matches"))


def history_now() -> list[tuple[Any, ...]]:
    return sorted(RatingHistory.objects.values_list("player_id", "game", "match_id", "mu", "sigma"))


@pytest.mark.django_db
def test_matches_finishing_out_of_order_are_rated_as_a_rebuild_in_match_order_would() -> None:
    club = club_with_players(6)
    t = tournament(club)
    rnd = open_round(t, club.director)
    loose = loose_matches(club)
    matches = [tb.match for tb in rnd.tables.order_by("-number")] + loose  # later ids first
    for i, match in enumerate(matches):
        finish_match(match, seed=i)
        projections.ratings_apply_match(match_id=match.pk)
    incremental = (ratings_now(), history_now())

    projections.ratings_rebuild(game="tarocchi")

    assert (ratings_now(), history_now()) == incremental
    assert RatedMatch.objects.count() == len(matches)
    everyone = {p.pk for p in club.players}
    assert {r[0] for r in incremental[0]} == everyone
    for player_id, _, _, _, count in incremental[0]:
        assert count == RatingHistory.objects.filter(player_id=player_id).count()


def loose_matches(club: Club) -> list[Match]:
    """Two more tarocchi matches between the club's players, outside any tournament."""
    players = club.players
    return [
        scoring_services.match_create(
            club=club.people.club,
            game="tarocchi",
            seats=players[i : i + 3],
            options={"deals": 1},
            actor=club.director,
        )
        for i in (0, 3)
    ]


@pytest.mark.django_db
def test_a_ruling_on_an_early_match_recomputes_the_ratings_after_it() -> None:
    club = club_with_players(3)
    first, second = two_matches_of_three(club)
    for i, match in enumerate((first, second)):
        finish_match(match, seed=20 + i)
        projections.ratings_apply_match(match_id=match.pk)
    hand = first.hands.get(number=1)
    scoring_services.ruling_record(
        hand=hand,
        refs=[hand.version],
        rule="miscount",
        reason="recounted",
        rectification={"kind": "assign_score", "scores": [30, -10, -20]},
        expected_version=hand.version,
        actor=club.director,
    )

    assert projections.ratings_apply_match(match_id=first.pk) is True
    incremental = (ratings_now(), history_now())
    projections.ratings_rebuild(game="tarocchi")

    assert (ratings_now(), history_now()) == incremental
    after_first = {h[0]: h[3] for h in history_now() if h[2] == first.pk}
    a, b, c = (p.pk for p in club.players)
    assert after_first[a] > after_first[b] > after_first[c]  # the assigned scores decide the places


def two_matches_of_three(club: Club) -> tuple[Match, Match]:
    """Two matches between the club's first three players, outside any tournament."""
    make = scoring_services.match_create
    seats = club.players[:3]
    return (
        make(club=club.people.club, game="tarocchi", seats=seats, options={"deals": 1}, actor=club.director),
        make(club=club.people.club, game="tarocchi", seats=seats, options={"deals": 1}, actor=club.director),
    )


@pytest.mark.django_db
def test_a_match_of_typed_names_is_not_rated() -> None:
    club = club_with_players(0)
    match = scoring_services.match_create(
        club=club.people.club,
        game="tarocchi",
        seats=["Ugo", "Vera", "Zeno"],
        options={"deals": 1},
        actor=club.director,
    )
    finish_match(match, seed=1)

    projections.ratings_apply_match(match_id=match.pk)

    assert RatedMatch.objects.filter(match=match).exists()
    assert not PlayerRating.objects.exists() and not RatingHistory.objects.exists()
