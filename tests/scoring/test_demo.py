"""The demo data: recorded matches of every game, through the real services and database."""

import pytest

from clubs.models import Club, Membership, Player
from scoring.demo import DEMO_MATCHES, demo_matches_load
from scoring.log import store
from scoring.log.events import MoveRecorded
from scoring.models import Hand, Match
from scoring.rules import game_names
from scoring.selectors import hand_view

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="Circolo")
    for i in range(6):
        Player.objects.create(club=club, name=f"Player {i}")
    return club


def test_every_game_gets_a_finished_recorded_match_and_nothing_twice(club: Club) -> None:
    assert demo_matches_load(club=club) == len(DEMO_MATCHES)
    assert {m.game for m in Match.objects.all()} == set(game_names())
    for match in Match.objects.all():
        hands = list(match.hands.order_by("number"))
        assert hands and all(h.status == Hand.Status.OVER for h in hands)
        assert match.sheet["totals"], "the projection keeps the match sheet"
    assert Membership.objects.filter(club=club).count() == 3
    assert demo_matches_load(club=club) == 0
    assert Match.objects.count() == len(DEMO_MATCHES)


def test_the_first_hand_holds_a_revoke_and_the_second_is_recorded_without_the_deal(club: Club) -> None:
    demo_matches_load(club=club)
    first = Match.objects.get(title__startswith="Demo 1")
    flagged = first.hands.get(number=1)
    assert flagged.flagged
    assert [v.verdict.rule for v in hand_view(flagged).verdicts] == ["follow_suit"]
    blind = first.hands.get(number=2)
    deal = next(e.event for e in store.read_stream(blind.stream_id) if isinstance(e.event, MoveRecorded))
    assert isinstance(deal, MoveRecorded)
    assert deal.move == {"type": "deal", "seat": None}
    assert not blind.flagged
