"""The director's ruling form shows a disputed claim decided by search, in the reader's language, with the
line that beats it and a link to the hand at the claim in the replay viewer."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Club
from scoring import services
from scoring.models import Hand, Match
from scoring.rules import get_game
from scoring.rules.claims import question, random_position, solve
from scoring.rules.moves import Claim, ClaimResponse, move_to_dict
from tests.scoring.api_support import People

pytestmark = pytest.mark.django_db

SEATS = ["anna", "bruno", "carla", "dario"]


def _client(user: User, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _claimed_match(club: Club, *, dispute: bool, seed: int = 3) -> tuple[Match, dict]:
    """A Tressette match whose first hand is played to a claim of all the rest with three tricks left."""
    match = services.match_create(club=club, game="tressette", seats=SEATS, dealer=0)
    hand = Hand.objects.get(match=match, number=1)
    game = get_game("tressette")
    found = None
    rng = random.Random(seed)
    while found is None:
        found = random_position(game, rng, tricks_left=3, seats=4, dealer=0)
    state, moves = found
    claim = Claim(seat=state.play.current.leader)
    answer = solve(question(game, state, claim))
    moves = [*moves, claim]
    if dispute:
        moves.append(ClaimResponse(seat=(claim.seat + 1) % 4, accept=False))
    for move in moves:
        hand = Hand.objects.get(pk=hand.pk)
        services.move_record(hand=hand, move=move_to_dict(move), expected_version=hand.version)
    return match, answer


def _ruling_url(match: Match) -> str:
    return f"/matches/{match.pk}/hands/1/ruling/"


def test_a_disputed_claim_is_shown_decided_with_its_line(people: People) -> None:
    match, answer = _claimed_match(people.club, dispute=True)

    page = _client(people.director).get(_ruling_url(match)).text

    assert "decided by search" in page
    words = {
        "holds": "The claim holds, even playing any card.",
        "holds_with_best_play": "The claim holds only with best play",
        "fails": "The claim fails: the defence beats it.",
    }
    assert words[answer["verdict"]] in page
    assert f"Claimed: {answer['claimed']} tricks." in page
    if answer["verdict"] != "holds":
        assert page.count("<li>", page.index('class="line"')) >= len(answer["line"])
    assert "?step=" in page and "Open the hand at the claim in the replay viewer" in page


def test_it_speaks_the_reader_s_language(people: People) -> None:
    match, _answer = _claimed_match(people.club, dispute=True)

    page = _client(people.director, "it").get(_ruling_url(match)).text

    assert "deciso dalla ricerca" in page and "decided by search" not in page


def test_a_claim_still_waiting_for_its_answers_is_not_shown(people: People) -> None:
    match, _answer = _claimed_match(people.club, dispute=False)

    page = _client(people.director).get(_ruling_url(match)).text

    assert "decided by search" not in page
