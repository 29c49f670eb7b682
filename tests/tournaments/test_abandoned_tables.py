"""An abandoned table is closed: no move, undo, ruling or new hand is taken (a 409 naming the director's
reason, nothing written), and it reads as abandoned on its table page, its sheet, the player pages and the
standings (issue 24, section 3)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client

from scoring.models import Hand, Match, StoredEvent
from scoring.rules.moves import move_to_dict
from scoring.selectors import hand_view
from tests.scoring.api_support import client_for, post_move, post_ruling, post_undo, ruling_body
from tests.tournaments.support import Club, club_with_players, open_round, tournament
from tournaments import services
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db

REASON = "a player fell ill"


def abandoned_table(django_capture_on_commit_callbacks: Any) -> tuple[Club, Tournament, Table, Hand]:
    """A Tarocchi table with a few moves recorded, then abandoned by the director."""
    club = club_with_players(3)
    t = tournament(club, game_options={"tarocchi": {"deals": 3}})
    with django_capture_on_commit_callbacks(execute=True):
        table = open_round(t, club.director).tables.select_related("match").get()
        hand = Hand.objects.get(match=table.match, number=1)
        scorer = client_for(club.people.scorer)
        rng = random.Random(3)
        for _ in range(3):
            view = hand_view(hand)
            move = (
                view.game.random_deal(view.state, rng)
                if view.state.phase == "deal"
                else rng.choice(view.game.legal_moves(view.state))
            )
            assert post_move(scorer, table.match_id, 1, move, hand.version).status_code == 201
            hand.refresh_from_db()
        t.refresh_from_db()
        services.table_abandon(
            tournament=t,
            round_number=1,
            table_number=table.number,
            reason=REASON,
            expected_version=t.version,
            actor=club.director,
        )
    table.refresh_from_db()
    hand.refresh_from_db()
    return club, t, table, hand


def test_an_abandoned_table_takes_no_move_undo_ruling_or_hand(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club, _, table, hand = abandoned_table(django_capture_on_commit_callbacks)
    scorer, director = client_for(club.people.scorer), client_for(club.director)
    view = hand_view(hand)
    move = view.game.legal_moves(view.state)[0]
    events = StoredEvent.objects.count()

    answers = [
        post_move(scorer, table.match_id, 1, move, hand.version),
        post_undo(director, table.match_id, 1, hand.version, reason="x"),
        post_ruling(director, table.match_id, 1, ruling_body(hand.version, [2], {"kind": "stands"})),
        director.post(f"/api/matches/{table.match_id}/hands/", {}, format="json"),
    ]

    for answer in answers:
        assert answer.status_code == 409, answer.content
        body = answer.json()
        assert body["code"] == "match.abandoned"
        assert REASON in body["message"] and "abandoned" in body["message"]
    assert StoredEvent.objects.count() == events
    assert Match.objects.get(pk=table.match_id).status == Match.Status.ABANDONED
    assert scorer.get(f"/api/matches/{table.match_id}/").json()["status"] == "abandoned"
    assert move_to_dict(move)


def test_an_abandoned_table_reads_as_abandoned_everywhere(django_capture_on_commit_callbacks: Any) -> None:
    club, t, table, hand = abandoned_table(django_capture_on_commit_callbacks)
    page = Client()
    page.force_login(club.people.scorer)

    table_page = page.get(f"/matches/{table.match_id}/hands/1/").content.decode()
    sheet_page = page.get(f"/matches/{table.match_id}/").content.decode()
    player_page = page.get(f"/players/{table.players[0]}/").content.decode()
    standings = page.get(f"/tournaments/{t.pk}/standings/").content.decode()

    for text in (table_page, sheet_page):
        assert "Table abandoned." in text and REASON in text
        assert "(in play)" not in text
    assert 'name="move"' not in table_page  # no entry form: nothing can be keyed
    assert "Undo my last move" not in table_page
    assert "data-abandoned" in player_page and "in play" not in player_page
    assert "abandoned" in standings


def test_a_move_keyed_on_the_table_page_of_an_abandoned_table_is_refused_with_the_reason(
    django_capture_on_commit_callbacks: Any,
) -> None:
    club, _, table, hand = abandoned_table(django_capture_on_commit_callbacks)
    page = Client()
    page.force_login(club.people.scorer)
    view = hand_view(hand)
    move = view.game.legal_moves(view.state)[0]
    events = StoredEvent.objects.count()

    answer = page.post(
        f"/matches/{table.match_id}/hands/1/move/",
        {"expected_version": hand.version, "idempotency_key": "k", "move": json.dumps(move_to_dict(move))},
        headers={"X-Requested-With": "fetch"},
    )

    assert answer.status_code == 409
    assert REASON in answer.content.decode()
    assert StoredEvent.objects.count() == events
