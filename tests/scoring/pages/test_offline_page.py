"""What the table page gives offline.js (issue 27): the hand's state and the card names in its data
attribute, the words for what waits, and the service worker served under /matches/."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client

from scoring.rules import get_game
from scoring.rules.moves import PlayCard
from tests.scoring.api_support import make_people, open_match, play, service_record

pytestmark = pytest.mark.django_db


def _attribute(page: str, name: str) -> Any:
    found = re.search(rf'{name}="([^"]*)"', page)
    assert found, f"no {name} on the page"
    return json.loads(html.unescape(found.group(1)))


def _client(user: Any, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_table_page_carries_the_hand_for_offline_entry() -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    played = play(hand, seed=3)
    hand = service_record(hand, played.moves[:3], people.scorer)

    page = _client(people.scorer, "it").get(f"/matches/{match['id']}/hands/1/").content.decode()

    state = _attribute(page, "data-offline-hand")
    assert state["hand"] == f"{match['id']}/1"
    assert state["version"] == hand.version
    assert state["queue"] == f"/api/matches/{match['id']}/hands/1/moves/queue/"
    assert state["state"]["deal_known"] is True
    assert sum(len(h) for h in state["state"]["hands"]) == 40 - 2  # two cards played
    assert [p[1] for p in state["state"]["trick"]["plays"]] == [m.card for m in played.moves[1:3]]
    assert len(state["cards"]) == len(get_game("tressette").deck.cards)
    assert state["cards"]["KC"] == "Re di bastoni"  # the reader's language
    words = _attribute(page, "data-offline-words")
    assert words["many"] == "{n} mosse non ancora inviate"
    assert 'src="/static/scoring/offline.js"' in page


def test_without_the_deal_the_page_carries_the_unseen_cards() -> None:
    people = make_people()
    match, hand = open_match(people, "barbu")
    moves = get_game("barbu").moves_only(play(hand, seed=15).moves)
    first = next(i for i, m in enumerate(moves) if isinstance(m, PlayCard))
    service_record(hand, moves[: first + 1], people.scorer)  # the deal not entered, then one card

    page = _client(people.scorer, "fr").get(f"/matches/{match['id']}/hands/1/").content.decode()

    state = _attribute(page, "data-offline-hand")["state"]
    assert state["deal_known"] is False and state["hands"] is None
    assert state["complete"] is True
    unseen = {m["card"] for m in state["plays"]}
    played = moves[first]
    assert isinstance(played, PlayCard)
    assert len(unseen) == 52 - 1 and played.card not in unseen
    assert _attribute(page, "data-offline-words")["one"] == "1 coup pas encore envoyé"


def test_the_service_worker_is_served_under_the_table_pages() -> None:
    response = Client().get("/matches/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/matches/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    for asset in ("pages.css", "table.js", "offline.js"):
        assert f"/static/scoring/{asset}" in body
