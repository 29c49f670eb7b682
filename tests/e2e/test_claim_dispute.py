"""A disputed claim, end to end in a real browser (issue 26): the claim is disputed with a tap at the table
and the answer appears in place; its line opens in the replay viewer at the claim and is stepped through
card by card; the director assigns the result from the ruling form and the sheet changes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from scoring import services
from scoring.models import Hand
from scoring.rules import get_game
from scoring.rules.claim_ruling import careless_line
from scoring.rules.claims import play_line, question, random_position, solve
from scoring.rules.moves import Claim, move_to_dict
from tests.e2e.conftest import shot
from tests.scoring.api_support import make_people

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = ["anna", "bruno", "carla", "dario"]


def _claim_that_fails() -> tuple[Any, list[Any], Claim, dict[str, Any]]:
    game = get_game("tressette")
    rng = random.Random(7)
    while True:
        found = random_position(game, rng, tricks_left=3, seats=4, dealer=0)
        if found is None:
            continue
        state, moves = found
        claim = Claim(seat=state.play.current.leader)
        answer = solve(question(game, state, claim))
        if answer["verdict"] == "fails":
            return state, moves, claim, answer


def test_a_disputed_claim_is_decided_stepped_through_and_ruled(signed_in: Callable[..., Any]) -> None:
    people = make_people()
    match = services.match_create(club=people.club, game="tressette", seats=SEATS, dealer=0)
    state, moves, claim, answer = _claim_that_fails()
    for move in [*moves, claim]:
        hand = Hand.objects.get(match=match, number=1)
        services.move_record(hand=hand, move=move_to_dict(move), expected_version=hand.version)
    assert claim.seat is not None
    page = signed_in(people.director, viewport={"width": 1280, "height": 900})

    # At the table: nothing until the claim is disputed; one tap disputes it, and the answer shows in place.
    page.goto(f"/matches/{match.pk}/hands/1/")
    page.evaluate("window.__same_page = true")
    assert page.locator("#claim").count() == 0
    version = int(page.locator("#table-root").get_attribute("data-version"))
    dispute = {"type": "claim_response", "seat": (claim.seat + 1) % 4, "accept": False}
    page.locator(f"#table-root button[value='{json.dumps(dispute, separators=(',', ':'))}']").click()
    page.wait_for_function(
        f"() => document.getElementById('table-root').dataset.version > {version}", timeout=10_000
    )
    page.wait_for_selector("#claim", timeout=10_000)
    assert page.evaluate("window.__same_page") is True  # put in place, not reloaded
    panel = page.locator("#claim").inner_text()
    assert "The claim fails: the defence beats it." in panel
    assert f"Claimed: {answer['claimed']} tricks." in panel
    shot(page, "claim-table-panel")

    # The line, in the replay viewer from the claim, card by card.
    page.locator("#claim-line").click()
    page.wait_for_selector(".solver-line")
    assert "card 0 of" in page.locator("h2").inner_text()
    for k in range(1, len(answer["line"]) + 1):
        page.locator("a[rel=next]").click()
        page.wait_for_selector(f"[data-line-card='{k}']")
        assert f"({answer['line'][k - 1]['card']})" in page.locator(".solver-move").inner_text()
    assert page.locator("a[rel=next]").count() == 0
    ending = page.locator(".line-result").inner_text()
    assert f"has {answer['line_result']} tricks" in ending
    shot(page, "claim-replay-line-end")

    # The ruling form: the result from the answer, previewed, then committed; the sheet changes.
    page.goto(f"/matches/{match.pk}/")
    sheet_before = page.locator("main").inner_text()
    page.goto(f"/matches/{match.pk}/hands/1/")
    page.get_by_text("Rule on it from this answer").click()
    page.wait_for_selector("#settle-claim")
    reason = page.locator("#id_settle_reason")
    assert "careless play counts as normal" in reason.input_value()
    reason.fill(reason.input_value() + " Seen with both sides.")
    page.locator("#settle-claim button[value=preview]").click()
    page.wait_for_selector("button[value=commit]")
    shot(page, "claim-ruling-preview")
    with page.expect_navigation():
        page.locator("button[value=commit]").click()
    assert f"/matches/{match.pk}/hands/1/" in page.url  # back at the table, the hand over
    assert "A ruling settled this claim." in page.locator("#claim").inner_text()

    game = get_game("tressette")
    found = careless_line(game, state, claim)
    assert found is not None
    expected = game.result(play_line(game, state, found["line"])).scores
    hand = Hand.objects.get(match=match, number=1)
    assert hand.status == Hand.Status.OVER and hand.result["scores"] == list(expected)
    page.goto(f"/matches/{match.pk}/")
    sheet_after = page.locator("main").inner_text()
    assert sheet_after != sheet_before
    match.refresh_from_db()
    assert match.sheet["totals"] == list(expected)  # the hand counts, as the ruling scored it
    shot(page, "claim-sheet-after")
