"""The finished hands' results, read at every hand's start and end, are turned from their stored text
into results once per process (``selectors._stored_result``, issue 29): the sheet and the results are
the same as from the rows read afresh, a result changed since (by a ruling) is read anew, and the kept
results are never changed by what reads them."""

import json
from typing import Any

import pytest

from scoring import selectors, services
from scoring.models import Hand, Match
from scoring.rules import get_game
from scoring.selectors import match_results, match_sheet, result_from_dict
from tests.scoring.api_support import People, hand_of, open_match, play, service_record

pytestmark = pytest.mark.django_db


def finished_match(people: People, hands: int) -> Match:
    created, hand = open_match(people, "barbu", seats=4)
    for n in range(hands):
        service_record(hand, play(hand, seed=10 + n).moves, people.scorer)
        if n + 1 < hands:
            hand = services.hand_start(match=Match.objects.get(pk=created["id"]), actor=people.director)
    return Match.objects.get(pk=created["id"])


def afresh(match: Match) -> list[Any]:
    """The results as the ORM reads the rows, each JSON decoded anew."""
    rows = match.hands.order_by("number")
    return [result_from_dict(h.result) for h in rows if h.status == Hand.Status.OVER and h.result]


def test_results_and_sheet_are_those_of_the_rows_read_afresh_and_decoded_once(people: People) -> None:
    match = finished_match(people, 3)
    selectors._stored_result.cache_clear()
    assert match_results(match) == afresh(match)
    decoded = selectors._stored_result.cache_info().misses
    assert decoded == 3
    sheet = match_sheet(match)
    assert match_sheet(match, hands=list(match.hands.order_by("number"))) == sheet  # rows given: decoded here
    assert sheet == Match.objects.get(pk=match.pk).sheet  # what the projection stored with the last hand
    assert selectors._stored_result.cache_info().misses == decoded  # nothing decoded again
    for hand in match.hands.all():  # the kept results, after every read above, are still the stored ones
        kept = selectors._stored_result(json.dumps(hand.result))
        assert kept is not None and kept.as_dict() == hand.result


def test_a_result_changed_since_is_read_anew(people: People) -> None:
    match = finished_match(people, 2)
    match_results(match)
    first = hand_of(match, 1)
    changed = {
        **first.result,
        "adjustments": [4, -4, 0, 0],
        "scores": [s + a for s, a in zip(first.result["scores"], [4, -4, 0, 0], strict=True)],
    }
    Hand.objects.filter(pk=first.pk).update(result=changed)
    got = match_results(match)
    assert got[0].adjustments == (4, -4, 0, 0) and got == afresh(match)
    game = get_game(match.game)
    seats = list(match.seats.values_list("name", flat=True))
    numbered = list(enumerate(afresh(match), start=1))
    assert match_sheet(match) == selectors.sheet_of(
        match.game, game.ruleset.validate(match.options), seats, numbered
    )
