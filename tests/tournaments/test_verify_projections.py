"""Issue 25, item 3: what decides a result comes from the hash-chained log. A seat swapped, an option
changed or standings written in the tables, without an event, are named by ``manage.py
verify_projections`` (table, key, stored value, value from the log), and a rebuild from the log restores
the truth whatever the rows say."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoring.models import Match
from tests.tournaments.support import close_round, club_with_players, finish_round, open_round, tournament
from tournaments import projections
from tournaments.models import PlayerRating, Standings, StandingsContribution, Table, Tournament

pytestmark = pytest.mark.django_db


def snapshot(t: Tournament) -> str:
    s = Standings.objects.get(tournament=t)
    contributions = sorted(
        (c.key, c.match_id, c.position, c.data) for c in StandingsContribution.objects.filter(tournament=t)
    )
    return json.dumps({"ledger": s.ledger, "data": s.data, "position": s.position, "c": contributions})


def verify() -> tuple[int, list[str]]:
    """verify_projections' exit status and the lines it printed."""
    out = StringIO()
    try:
        call_command("verify_projections", stdout=out)
    except CommandError as failed:
        return failed.returncode, out.getvalue().splitlines()
    return 0, out.getvalue().splitlines()


def raw(sql: str, params: list[Any]) -> None:
    """A write that no service makes and no event records (the forger's)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.fixture
def night(django_capture_on_commit_callbacks: Any) -> Tournament:
    """A tournament whose first round is played and closed, its standings and ratings projected."""
    club = club_with_players(9)
    t = tournament(club)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = open_round(t, club.director)
        finish_round(rnd, seed=7)
        close_round(t, rnd, club.director)
    return t


def winner_s_table(t: Tournament) -> tuple[Table, int]:
    """The table of the player ranked first, and his seat there."""
    first = Standings.objects.get(tournament=t).data["rows"][0]["player"]
    table = next(tb for tb in Table.objects.filter(round__tournament=t) if first in tb.players)
    return table, table.players.index(first)


def test_rows_that_say_what_the_log_says_pass(night: Tournament) -> None:
    status, lines = verify()

    assert status == 0, lines
    assert lines[-1].startswith("ok: ")


def test_a_forged_seat_swap_is_named_and_the_rebuild_keeps_the_true_winner(night: Tournament) -> None:
    truth = snapshot(night)
    table, seat = winner_s_table(night)
    other = (seat + 1) % len(table.players)
    winner, loser = table.players[seat], table.players[other]
    # The forger swaps the two players' seats, then has the incremental path count the match again.
    raw(
        "UPDATE scoring_matchseat SET player_id = CASE seat WHEN %s THEN %s ELSE %s END"
        " WHERE match_id = %s AND seat IN (%s, %s)",
        [seat, loser, winner, table.match_id, seat, other],
    )
    StandingsContribution.objects.filter(key=projections.match_key(table.match_id)).delete()
    projections.standings_apply_match(match_id=table.match_id)
    assert snapshot(night) != truth  # the forgery reached the standings kept incrementally

    status, lines = verify()

    assert status == 1
    key = f"scoring_matchseat match_id={table.match_id} seat={seat} player_id: "
    assert f"{key}stored {loser}, from the log {winner}" in lines
    assert any(line.startswith(f"tournaments_standings tournament_id={night.pk} data") for line in lines)

    projections.standings_rebuild(tournament_id=night.pk)

    assert snapshot(night) == truth
    status, lines = verify()
    assert status == 1
    assert {line.split(" ", 1)[0] for line in lines} == {"scoring_matchseat"}  # only the forged rows
    assert len(lines) == 2


def test_forged_options_and_ratings_are_named_and_the_rebuild_takes_the_log_s(night: Tournament) -> None:
    truth = snapshot(night)
    table, _ = winner_s_table(night)
    raw("UPDATE scoring_match SET options = %s WHERE id = %s", [json.dumps({"deals": 4}), table.match_id])
    rating = PlayerRating.objects.filter(game="tarocchi").order_by("player_id").first()
    assert rating is not None
    raw("UPDATE tournaments_playerrating SET mu = %s WHERE id = %s", [99.0, rating.pk])

    status, lines = verify()

    assert status == 1
    assert (
        f"scoring_match id={table.match_id} options at .deals: "
        'stored {"deals": 4}, from the log {"deals": 1}' in lines
    )
    assert any(
        line.startswith(
            f"tournaments_playerrating game=tarocchi player_id={rating.player_id} mu: stored 99.0"
        )
        for line in lines
    )
    projections.standings_rebuild(tournament_id=night.pk)
    projections.ratings_rebuild(game="tarocchi")

    assert snapshot(night) == truth
    rating.refresh_from_db()
    assert rating.mu != 99.0
    status, lines = verify()
    assert [line.split(":")[0] for line in lines] == [f"scoring_match id={table.match_id} options at .deals"]
    assert Match.objects.get(pk=table.match_id).options == {"deals": 4}  # named, not rewritten


def test_a_hand_row_that_lies_about_its_stream_is_named(night: Tournament) -> None:
    table, _ = winner_s_table(night)
    raw("UPDATE scoring_hand SET status = 'in_play', result = NULL WHERE match_id = %s", [table.match_id])

    status, lines = verify()

    assert status == 1
    assert (
        f'scoring_hand match_id={table.match_id} number=1 status: stored "in_play", from the log "over"'
        in lines
    )
