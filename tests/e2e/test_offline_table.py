"""The table page without a network (issue 27, docs/offline.md), in a real browser: moves tapped offline wait
in IndexedDB, shown on the felt as not yet sent, and reach the log once each and in order when the
network returns, by themselves; a refused move is shown against itself with the server's words and the
scorer resolves it. The network is switched off with the browser context (``set_offline``); an answer
lost on its way back is made by letting a request reach the server and then aborting it."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from scoring import services
from scoring.models import Hand, Match
from scoring.rules import move_to_dict
from scoring.rules.moves import Move, PlayCard
from scoring.selectors import hand_audit, match_sheet
from tests.e2e.conftest import shot
from tests.scoring.api_support import make_people, open_match, play, service_record

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 20_000


def _json(move: Move | dict[str, Any]) -> str:
    data = move if isinstance(move, dict) else move_to_dict(move)
    return json.dumps(data, separators=(",", ":"))


def _cards_only_hand(people: Any) -> tuple[dict[str, Any], Hand, list[Move]]:
    """A Tressette match whose first hand is played with cards only (no declarations), the deal recorded:
    the page offers cards offline; declarations are recorded online only."""
    for seed in range(200):
        match, hand = open_match(people, "tressette", seats=4)
        played = play(hand, seed=seed)
        if all(isinstance(m, PlayCard) for m in played.moves[1:]):
            hand = service_record(hand, played.moves[:1], people.scorer)
            return match, hand, list(played.moves)
    raise AssertionError("no hand without declarations in 200 seeds")


def _recorded(hand: Hand) -> list[dict[str, Any]]:
    """The moves in the log, in the order of their versions (the deal first)."""
    return [e["payload"]["move"] for e in hand_audit(hand) if e["type"] == "MoveRecorded"]


def _pending(page: Any) -> int:
    return int(page.locator("#table-root").get_attribute("data-pending") or 0)


KEPT = (
    "async () => { const c = await caches.open('segnapunti-table-v1');"
    " return !!(await c.match(location.pathname, {ignoreVary: true})); }"
)


def _wait_kept(page: Any, timeout_ms: int = TIMEOUT) -> None:
    """Wait until the page is in the service worker's cache. Asked with ``evaluate``, which awaits the
    predicate's promise: ``wait_for_function`` does not, it takes the promise itself for a true answer at
    once (the check it made here before waited for nothing)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(KEPT):
        assert time.monotonic() < deadline, "the page was never kept in the service worker's cache"
        page.wait_for_timeout(100)


def _ready_offline(page: Any) -> None:
    """Wait until the service worker controls the page and keeps it, as a scorer's first visit does."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=TIMEOUT)
    _wait_kept(page)


def _tap(page: Any, move: Move | dict[str, Any]) -> None:
    """A tap on the move's card: the server's button while nothing waits, else the page's own."""
    value = _json(move)
    ours = f"#table-root button[data-move='{value}']:visible"
    servers = f"#table-root button[name=move][value='{value}']:visible"
    page.locator(f"{ours}, {servers}").first.click()


def _wait_sent(page: Any, hand: Hand, version: int) -> None:
    page.wait_for_function(
        "() => { const root = document.getElementById('table-root');"
        f" return root.dataset.pending === '0' && root.dataset.version === '{version}'; }}",
        timeout=60_000,
    )
    hand.refresh_from_db()
    assert hand.version == version


def test_a_whole_hand_recorded_offline_with_a_reload_then_sent(signed_in: Callable[..., Any]) -> None:
    people = make_people()
    match, hand, moves = _cards_only_hand(people)
    page = signed_in(people.scorer)
    page.goto(f"/matches/{match['id']}/hands/1/")
    _ready_offline(page)
    start = hand.version
    page.context.set_offline(True)

    cards = moves[1:]
    for n, move in enumerate(cards):
        if n == 17:  # the phone slept, the page was reloaded without a network: the queue is still there
            page.reload()
            page.wait_for_function(
                "() => document.getElementById('table-root').dataset.pending === '17'", timeout=TIMEOUT
            )
            assert page.locator("#table-root .pending-count").inner_text() == "17 moves not yet sent"
        _tap(page, move)
        page.wait_for_function(
            f"() => document.getElementById('table-root').dataset.pending === '{n + 1}'", timeout=TIMEOUT
        )
        if n == 0:
            assert page.locator("#table-root .pending-count").inner_text() == "1 move not yet sent"
            assert "not yet sent" in page.locator("#table-root .felt .pending-list").inner_text()
    shot(page, "offline-hand-all-queued")
    assert page.locator("#table-root .pending-count").inner_text() == f"{len(cards)} moves not yet sent"
    hand.refresh_from_db()
    assert hand.version == start  # nothing reached the server

    page.context.set_offline(False)  # the browser says "online": the queue is sent by itself
    _wait_sent(page, hand, start + len(cards))
    shot(page, "offline-hand-sent")

    assert hand.status == "over"
    assert _recorded(hand) == [move_to_dict(m) for m in moves]  # every move once, in order
    page.locator("#table-root h3", has_text="Hand over").wait_for(timeout=TIMEOUT)
    page.goto("about:blank")  # the page's polling stops: SQLite's test database takes one writer at a time
    online_match, online_hand = open_match(people, "tressette", seats=4)
    service_record(online_hand, moves, people.scorer)  # the same hand, recorded online
    offline_sheet = match_sheet(Match.objects.get(pk=match["id"]))
    online_sheet = match_sheet(Match.objects.get(pk=online_match["id"]))
    assert offline_sheet["rows"] == online_sheet["rows"]
    assert offline_sheet["totals"] == online_sheet["totals"]


def test_a_page_whose_keeping_failed_is_kept_later_and_opens_offline(signed_in: Callable[..., Any]) -> None:
    """A first visit's page is kept by a request of its own once the worker is ready. When that request
    fails (the network went in that moment), the page asks again a few seconds later: it must not stay
    out of the cache, or a reload offline shows the browser's error page."""
    people = make_people()
    match, _hand, _moves = _cards_only_hand(people)
    page = signed_in(people.scorer)
    url = f"/matches/{match['id']}/hands/1/"
    failed: list[str] = []

    def first_keeping_fails(route: Any) -> None:
        if not route.request.is_navigation_request() and not failed:
            failed.append(route.request.url)  # the page's request for itself (or the worker's, for it)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route(re.compile(r".*/matches/\d+/hands/\d+/$"), first_keeping_fails)
    page.goto(url)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=TIMEOUT)
    _wait_kept(page, timeout_ms=15_000)  # asked again every 3 s
    assert failed, "the first request to keep the page was not seen"

    page.context.set_offline(True)
    reloaded = page.reload()
    assert reloaded is not None and reloaded.from_service_worker
    page.locator("#table-root").wait_for(timeout=TIMEOUT)


def test_a_network_that_drops_and_returns_every_few_moves(signed_in: Callable[..., Any]) -> None:
    """Every few moves the network goes, and some answers are lost on their way back (the server recorded
    the move, the page never heard): the resend with the same key is recognised, nothing is doubled."""
    people = make_people()
    match, hand, moves = _cards_only_hand(people)
    page = signed_in(people.scorer, service_workers="block")
    page.goto(f"/matches/{match['id']}/hands/1/")
    start = hand.version
    posts = {"n": 0, "lost": 0}

    def lose_some_answers(route: Any) -> None:
        posts["n"] += 1
        if posts["n"] % 3 == 0:  # reaches the server; the answer never comes back
            route.fetch()
            posts["lost"] += 1
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(r".*/api/matches/\d+/hands/\d+/moves/.*"), lose_some_answers)
    cards = moves[1:21]
    for n, move in enumerate(cards):
        if n % 4 == 0:
            page.context.set_offline(True)
        if n % 4 == 2:
            page.context.set_offline(False)
        _tap(page, move)
    page.context.set_offline(False)
    _wait_sent(page, hand, start + len(cards))

    assert posts["lost"] >= 3
    assert _recorded(hand) == [move_to_dict(m) for m in moves[: 1 + len(cards)]]


def test_two_devices_one_offline_the_conflict_is_shown_and_resolved(signed_in: Callable[..., Any]) -> None:
    people = make_people()
    match, hand, moves = _cards_only_hand(people)
    url = f"/matches/{match['id']}/hands/1/"
    offline_phone = signed_in(people.scorer, service_workers="block")
    offline_phone.goto(url)
    start = hand.version
    offline_phone.context.set_offline(True)
    _tap(offline_phone, moves[1])
    _tap(offline_phone, moves[2])
    offline_phone.wait_for_function(
        "() => document.getElementById('table-root').dataset.pending === '2'", timeout=TIMEOUT
    )

    # Meanwhile the director, online on his own phone, records that first card and the next.
    services.move_record(hand=hand, move=move_to_dict(moves[1]), expected_version=start)
    hand.refresh_from_db()
    services.move_record(hand=hand, move=move_to_dict(moves[2]), expected_version=start + 1)

    offline_phone.context.set_offline(False)
    refused = offline_phone.locator("#table-root .pending.refused")
    refused.wait_for(timeout=TIMEOUT)
    shot(offline_phone, "offline-conflict")
    assert "refused by the server" in refused.inner_text()
    assert "version" in refused.locator(".server-words").inner_text()  # the server's own words
    assert _pending(offline_phone) == 2  # the move after it still waits
    hand.refresh_from_db()
    assert hand.version == start + 2  # the log was not overwritten, nothing added

    # The scorer sees the other phone's cards on the felt, and drops his own two copies.
    refused.locator("button[data-act=undo]").click()
    offline_phone.locator("#table-root .pending.refused").wait_for(timeout=TIMEOUT)
    offline_phone.wait_for_function(
        "() => document.getElementById('table-root').dataset.pending === '1'", timeout=TIMEOUT
    )
    offline_phone.locator("#table-root .pending.refused button[data-act=undo]").click()
    offline_phone.wait_for_function(
        "() => document.getElementById('table-root').dataset.pending === '0'", timeout=TIMEOUT
    )
    hand.refresh_from_db()
    assert _recorded(hand) == [move_to_dict(m) for m in moves[:3]]  # each card once

    # Then he goes on: the next card is sent on the server's version, which he now sees.
    offline_phone.wait_for_function(
        f"() => document.getElementById('table-root').dataset.version === '{start + 2}'", timeout=TIMEOUT
    )
    _tap(offline_phone, moves[3])
    _wait_sent(offline_phone, hand, start + 3)
    assert _recorded(hand) == [move_to_dict(m) for m in moves[:4]]


def test_a_move_refused_on_sync_stops_the_queue_until_the_scorer_resolves_it(
    signed_in: Callable[..., Any],
) -> None:
    """A first trick is recorded offline, then the next lead is keyed for the wrong seat: the server
    refuses it (422, with its words), the card tapped after it waits; undone, the rest is sent."""
    people = make_people()
    match, hand, moves = _cards_only_hand(people)
    page = signed_in(people.scorer, service_workers="block")
    page.goto(f"/matches/{match['id']}/hands/1/")
    start = hand.version
    page.context.set_offline(True)
    for move in moves[1:5]:
        _tap(page, move)
    lead = moves[5]
    assert isinstance(lead, PlayCard)
    wrong_seat = (lead.seat + 3) % 4  # not the trick's winner
    deal = moves[0]
    wrong_card = next(
        c for c in deal.hands[wrong_seat] if c not in {m.card for m in moves[1:5] if isinstance(m, PlayCard)}
    )
    _tap(page, {"type": "play", "seat": wrong_seat, "card": wrong_card})  # a card names its seat
    _tap(page, lead)  # offered as the next seat's card
    page.wait_for_function("() => document.getElementById('table-root').dataset.pending === '6'")

    page.context.set_offline(False)
    refused = page.locator("#table-root .pending.refused")
    refused.wait_for(timeout=TIMEOUT)
    shot(page, "offline-refused")
    page.wait_for_function("() => document.getElementById('table-root').dataset.pending === '2'")
    words = refused.locator(".server-words").inner_text()
    assert words  # the server's words, against the move
    hand.refresh_from_db()
    assert hand.version == start + 4
    page.wait_for_timeout(3500)  # a sending round later, the move after it still waits
    assert _pending(page) == 2
    hand.refresh_from_db()
    assert hand.version == start + 4

    refused.locator("button[data-act=undo]").click()
    _wait_sent(page, hand, start + 5)
    assert _recorded(hand) == [move_to_dict(m) for m in moves[:6]]


def test_a_refused_move_is_changed_in_its_place(signed_in: Callable[..., Any]) -> None:
    """Offline, the scorer taps a card of the wrong seat (under "A card of another seat"); on sync it is
    refused with the server's words; he taps Change, then the right card: it takes the refused move's
    place in the queue and is sent."""
    people = make_people()
    match, hand, moves = _cards_only_hand(people)
    page = signed_in(people.scorer, service_workers="block")
    page.goto(f"/matches/{match['id']}/hands/1/")
    start = hand.version
    page.context.set_offline(True)
    _tap(page, moves[1])
    second = moves[2]
    assert isinstance(second, PlayCard)
    wrong_seat = (second.seat + 1) % 4
    played = {m.card for m in moves[1:2] if isinstance(m, PlayCard)}
    wrong_card = next(c for c in moves[0].hands[wrong_seat] if c not in played)
    page.locator("#offline-entry .other-seats summary").click()
    _tap(page, {"type": "play", "seat": wrong_seat, "card": wrong_card})
    page.wait_for_function("() => document.getElementById('table-root').dataset.pending === '2'")

    page.context.set_offline(False)
    refused = page.locator("#table-root .pending.refused")
    refused.wait_for(timeout=TIMEOUT)
    assert refused.locator(".server-words").inner_text()
    hand.refresh_from_db()
    assert hand.version == start + 1

    refused.locator("button[data-act=change]").click()
    page.locator("#offline-entry", has_text="Tap the card that replaces it.").wait_for(timeout=TIMEOUT)
    _tap(page, second)  # offered again: the hand as it stood before the refused move
    _wait_sent(page, hand, start + 2)
    assert _recorded(hand) == [move_to_dict(m) for m in moves[:3]]
