"""A whole hand recorded by tapping, on a phone-sized screen, in a real browser (issue 14): each card is one
tap on a button that is on screen without scrolling, the page never reloads (its scroll position and its
own state survive), a tap's verdict shows in place, and a move recorded from another device appears by
itself."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from scoring import services
from scoring.models import Hand
from scoring.rules import get_game, move_to_dict
from scoring.rules.moves import PlayCard
from scoring.selectors import hand_state
from tests.e2e.conftest import PHONE, measure, shot
from tests.scoring.api_support import make_people, open_match, play, service_record

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_hand_is_recorded_one_tap_a_card_on_a_phone(signed_in: Callable[[Any], Any]) -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    played = play(hand, seed=11)
    hand = service_record(hand, played.moves[:1], people.scorer)  # the deal, as the scorer entered it
    page = signed_in(people.scorer)
    page.goto(f"/matches/{match['id']}/hands/1/")
    page.evaluate("window.__same_page = true")
    shot(page, "table-phone-start")

    taps, waits = 0, []
    moves = played.moves[1:]  # the cards, and the declarations that come with them
    cards = [m for m in moves if isinstance(m, PlayCard)]
    assert len(cards) == 40
    for n, move in enumerate(moves):
        version = int(page.locator("#table-root").get_attribute("data-version"))
        button = page.locator(f"#table-root button[value='{_json(move)}']")
        box = button.bounding_box()
        assert box is not None, f"move {n + 1} ({move}) is not offered"
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
            f"move {n + 1} ({move}) is off the screen: y={box['y']:.0f}"
        )
        started = time.perf_counter()
        button.click()
        taps += 1
        page.wait_for_function(
            f"() => document.getElementById('table-root').dataset.version > {version}", timeout=10_000
        )
        waits.append(time.perf_counter() - started)
        if n == 3:
            shot(page, "table-phone-after-a-trick")

    shot(page, "table-phone-hand-over")
    assert page.evaluate("window.__same_page") is True  # never reloaded
    assert Hand.objects.get(pk=hand.pk).status == "over"
    assert "Hand over" in page.content()
    waits.sort()
    measure(
        f"table entry, Tressette on a 390x844 phone: {taps} taps for {len(cards)} cards and "
        f"{len(moves) - len(cards)} declarations ({taps / len(moves):.2f} a move, no scrolling); "
        f"tap to verdict in the browser: median {waits[len(waits) // 2] * 1000:.0f} ms, "
        f"worst {waits[-1] * 1000:.0f} ms"
    )


@pytest.mark.parametrize("game", ["barbu", "hombre_it"])
def test_without_the_deal_the_unseen_cards_fit_the_screen_too(
    signed_in: Callable[[Any], Any], game: str
) -> None:
    """A hand recorded without the deal: the buttons are the cards nobody has seen yet, more of them."""
    people = make_people()
    match, hand = open_match(people, game)
    moves = get_game(game).moves_only(play(hand, seed=15).moves)
    hand = service_record(hand, moves[:1], people.scorer)  # "cards dealt", not entered
    page = signed_in(people.scorer)
    page.goto(f"/matches/{match['id']}/hands/1/")
    page.evaluate("window.__same_page = true")
    shot(page, f"table-phone-unseen-{game}")

    for n, move in enumerate(moves[1:13]):
        version = int(page.locator("#table-root").get_attribute("data-version"))
        button = page.locator(f"#table-root button[value='{_json(move)}']")
        box = button.bounding_box()
        assert box is not None, f"move {n + 1} ({move}) is not offered"
        assert box["y"] + box["height"] <= PHONE["height"], f"move {n + 1} ({move}) is off the screen"
        button.click()
        page.wait_for_function(f"() => document.getElementById('table-root').dataset.version > {version}")

    assert page.evaluate("window.__same_page") is True
    assert Hand.objects.get(pk=hand.pk).version == hand.version + 12


def test_an_irregular_card_is_flagged_in_place_and_undone(signed_in: Callable[[Any], Any]) -> None:
    """A revoke really happened: keyed, it is recorded with the engine's verdict and the hand flagged;
    then the scorer takes it back with the undo button, all without leaving the page."""
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    played = play(hand, seed=16)
    hand = service_record(hand, played.moves[:1], people.scorer)
    while True:  # play on until the seat to act holds a card the rules forbid him (he can follow suit)
        state = hand_state(hand)["state"]
        legal = {m["card"] for m in state["legal_moves"] if m["type"] == "play"}
        seat = state["to_act"][0]
        wrong = [c for c in state["hands"][seat] if c not in legal]
        if wrong:
            break
        move = next(m for m in state["legal_moves"] if m["type"] == "play")
        hand = services.move_record(hand=hand, move=move, expected_version=hand.version).hand
    page = signed_in(people.scorer)
    page.goto(f"/matches/{match['id']}/hands/1/")
    page.evaluate("window.__same_page = true")

    page.select_option("#table-root select[name=seat]", str(seat))
    page.fill("#table-root input[name=card]", wrong[0])
    page.click("#table-root .inline-form button.primary")
    page.wait_for_selector("text=flagged for the director", timeout=10_000)
    shot(page, "table-phone-flagged")
    assert Hand.objects.get(pk=hand.pk).flagged

    page.click("#table-root button.danger")  # undo my last move
    page.wait_for_selector("text=Last move undone", timeout=10_000)
    shot(page, "table-phone-undone")

    assert page.evaluate("window.__same_page") is True
    assert not Hand.objects.get(pk=hand.pk).flagged


def test_a_move_recorded_on_another_device_appears_by_itself(signed_in: Callable[[Any], Any]) -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    played = play(hand, seed=12)
    hand = service_record(hand, played.moves[:1], people.scorer)
    page = signed_in(people.scorer)
    page.goto(f"/matches/{match['id']}/hands/1/")
    page.evaluate("window.__same_page = true")

    service_record(hand, played.moves[1:2], people.director)  # the director's phone, meanwhile

    page.wait_for_function(
        "() => document.getElementById('table-root').dataset.version === '2'", timeout=10_000
    )
    assert page.evaluate("window.__same_page") is True
    assert page.locator(f"#table-root button[value='{_json(played.moves[2])}']").count() == 1
    shot(page, "table-phone-followed")


def test_a_keyed_card_already_played_is_refused_in_place(signed_in: Callable[[Any], Any]) -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    played = play(hand, seed=13)
    hand = service_record(hand, played.moves[:2], people.scorer)
    gone = played.moves[1]
    assert isinstance(gone, PlayCard)
    page = signed_in(people.scorer)
    page.goto(f"/matches/{match['id']}/hands/1/")
    page.evaluate("window.__same_page = true")

    page.fill("#table-root input[name=card]", gone.card)
    page.click("#table-root .inline-form button.primary")

    page.wait_for_selector("#table-root .error", timeout=10_000)
    assert "Not recorded" in page.inner_text("#table-root .error")
    assert page.evaluate("window.__same_page") is True
    assert Hand.objects.get(pk=hand.pk).version == hand.version
    shot(page, "table-phone-refused")


def _json(move: Any) -> str:
    """The value of the move's button, as the page writes it (scoring/pages/display.py)."""
    return json.dumps(move_to_dict(move), separators=(",", ":"))


@pytest.mark.parametrize("page_name", ["home", "match-list", "sheet", "table", "replay"])
def test_the_pages_fit_a_phone_s_width(signed_in: Callable[[Any], Any], page_name: str) -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    service_record(hand, play(hand, seed=14).moves[:9], people.scorer)
    page = signed_in(people.scorer)
    path = {
        "home": "/",
        "match-list": f"/clubs/{people.club.pk}/matches/",
        "sheet": f"/matches/{match['id']}/",
        "table": f"/matches/{match['id']}/hands/1/",
        "replay": f"/matches/{match['id']}/hands/1/replay/",
    }[page_name]

    page.goto(path)

    width = page.evaluate("document.documentElement.scrollWidth")
    shot(page, f"phone-{page_name}")
    assert width <= PHONE["width"], f"{path} is {width}px wide on a {PHONE['width']}px phone"
