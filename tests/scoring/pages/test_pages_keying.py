"""Keying a card on the table page: the reader's own names, abbreviations and suit symbols are read, and a
refusal is shown beside the field, in the reader's language, quoting what was typed."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from scoring import services
from scoring.log import store
from scoring.log.events import MoveRecorded
from scoring.models import Hand, Match
from scoring.rules import get_game
from scoring.rules.cards import LATIN_40, suit_of
from scoring.rules.moves import move_to_dict
from scoring.selectors import hand_state
from tests.scoring.api_support import People
from tests.scoring.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bruno", "Carla", "Dario"]
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ITALIAN_RANK = {"K": "R", "Q": "C", "J": "F"}  # Re, Cavallo, Fante; the others are their own numbers


@pytest.fixture
def match(people: People) -> Match:
    """A Tressette match (the Italian 40-card deck) for four, hand 1 dealt, its scorer assigned."""
    for name in SEATS:
        PlayerFactory(club=people.club, name=name)
    match = services.match_create(club=people.club, game="tressette", seats=SEATS, dealer=0)
    match.scorers.add(people.scorer)
    hand = match.hands.get(number=1)
    game = get_game("tressette")
    deal = game.random_deal(game.initial_state(seats=4, dealer=0), random.Random(7))
    services.move_record(hand=hand, move=move_to_dict(deal), expected_version=hand.version)
    return match


def _hand(match: Match) -> Hand:
    return Hand.objects.get(match=match, number=1)


def _client(people: People, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people.scorer)
    return client


def _key(client: Client, match: Match, typed: str, *, seat: int | None = None, fetch: bool = False) -> Any:
    hand = _hand(match)
    if seat is None:
        seat = hand_state(hand)["state"]["to_act"][0]
    data = {
        "expected_version": hand.version,
        "idempotency_key": f"k-{hand.version}",
        "seat": seat,
        "card": typed,
    }
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"} if fetch else {}
    return client.post(f"/matches/{match.pk}/hands/1/move/", data, **headers)


def _next_card(match: Match) -> str:
    state = hand_state(_hand(match))["state"]
    return str(state["legal_moves"][0]["card"])


def _last_card(match: Match) -> str:
    moves = [
        e.event.move for e in store.read_stream(_hand(match).stream_id) if isinstance(e.event, MoveRecorded)
    ]
    return str(moves[-1]["card"])


SPELLINGS: list[tuple[str, Callable[[str], str]]] = [
    ("it", lambda card: LATIN_40.name_of(card, "it")),  # "Re di coppe"
    ("it", lambda card: LATIN_40.name_of(card, "it").lower().replace(" di ", " ")),  # "re coppe"
    ("it", lambda card: ITALIAN_RANK.get(card[0], card[0]) + SYMBOL[suit_of(card)]),  # "R♥"
    (
        "it",
        lambda card: (
            ITALIAN_RANK.get(card[0], card[0]) + {"S": "spade", "H": "co", "D": "d", "C": "B"}[card[1]]
        ),
    ),
    ("fr", lambda card: LATIN_40.name_of(card, "fr")),  # "Roi de cœur"
    ("fr", lambda card: LATIN_40.rank_label(card, "fr") + " " + SYMBOL[suit_of(card)]),  # "Roi ♥"
    ("en", lambda card: card.lower()),  # "kh"
    ("en", lambda card: LATIN_40.name_of(card, "en")),  # "King of cups"
]


def test_a_card_keyed_in_the_readers_words_is_recorded(people: People, match: Match) -> None:
    for language, spell in SPELLINGS:
        card = _next_card(match)
        typed = spell(card)

        response = _key(_client(people, language), match, typed)

        assert response.status_code == 302, typed
        assert _last_card(match) == card, typed


def test_the_spellings_the_issue_found_refused_are_read(people: People, match: Match) -> None:
    """Each is read as its card: recorded when the seat to play may play it, else refused by the rules
    with the card named (never refused as a spelling)."""
    client = _client(people, "it")
    for typed, card in [("RC", "KH"), ("R♥", "KH"), ("3 di spade", "3S"), ("7 ♦", "7D")]:
        response = _key(client, match, typed, fetch=True)

        if response.status_code == 200:
            assert _last_card(match) == card
        else:
            assert response.status_code == 422
            assert LATIN_40.name_of(card, "it") in _card_error(response.content.decode())


def _card_error(page: str) -> str:
    """The refusal shown beside the card field (and not at the top of the page), as text."""
    found = re.search(r'<p class="error field-error" id="card-error" role="alert">(.*?)</p>', page, re.S)
    assert found, "no refusal beside the card field"
    assert page.index('id="id_card"') < found.start() < page.index('id="card-help"')
    assert '<div class="error" role="alert">' not in page  # not at the top, out of the scorer's sight
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def test_a_card_that_cannot_be_read_is_refused_beside_the_field_in_french(
    people: People, match: Match
) -> None:
    before = store.stream_version(_hand(match).stream_id)

    response = _key(_client(people, "fr"), match, "Roi de zut", fetch=True)

    assert response.status_code == 400
    page = response.content.decode()
    assert _card_error(page) == (
        "Non enregistré\u00a0: 'Roi de zut' n'est pas une carte : saisissez la valeur puis la couleur, "
        "comme 7♥ ou Roi de trèfle"
    )
    assert 'value="Roi de zut"' in page and 'aria-invalid="true"' in page
    assert store.stream_version(_hand(match).stream_id) == before


def test_a_card_of_another_deck_is_quoted_back_as_typed(people: People, match: Match) -> None:
    client = _client(people, "en")

    response = _key(client, match, "10H")

    assert response.status_code == 302  # a plain form: the table shows the refusal once
    page = client.get(response["Location"]).content.decode()
    assert _card_error(page) == "Not recorded: '10H' is not a card of the Italian 40 deck"
    assert "TH" not in _card_error(page)
    assert 'value="10H"' in page and "autofocus" in page
    assert "card-error" not in client.get(response["Location"]).content.decode()


def test_an_ambiguous_spelling_is_refused_naming_both_cards_in_italian(people: People, match: Match) -> None:
    response = _key(_client(people, "it"), match, "AC", fetch=True)

    assert response.status_code == 400
    assert _card_error(response.content.decode()) == (
        "Non registrato: 'AC' può voler dire più carte (Asso di coppe, Asso di bastoni): scrivi il seme "
        "con il suo simbolo o per esteso"
    )


def test_a_card_read_but_held_by_another_seat_is_refused_beside_the_field(
    people: People, match: Match
) -> None:
    state = hand_state(_hand(match))["state"]
    seat = state["to_act"][0]
    other = (seat + 1) % 4
    card = state["hands"][other][0]

    response = _key(_client(people, "en"), match, LATIN_40.name_of(card, "en"), seat=seat, fetch=True)

    assert response.status_code == 422
    assert f"gives {LATIN_40.name_of(card, 'en')} to {SEATS[other]}" in _card_error(response.content.decode())


def test_a_tapped_move_refused_still_says_so_at_the_top(people: People, match: Match) -> None:
    hand = _hand(match)
    data = {"expected_version": hand.version, "idempotency_key": "k", "move": '{"type": "jump"}'}

    response = _client(people, "en").post(
        f"/matches/{match.pk}/hands/1/move/", data, HTTP_X_REQUESTED_WITH="fetch"
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert '<div class="error" role="alert">' in page and 'id="card-error"' not in page


# ---- the deal, keyed seat by seat ------------------------------------------------------------------
@pytest.fixture
def undealt(people: People, match: Match) -> Match:
    """A second Tressette match of the same club, hand 1 waiting for its deal."""
    other = services.match_create(club=people.club, game="tressette", seats=SEATS, dealer=0)
    other.scorers.add(people.scorer)
    return other


def _deal(client: Client, match: Match, hands: list[str], fetch: bool = False) -> Any:
    hand = _hand(match)
    data: dict[str, Any] = {"expected_version": hand.version, "idempotency_key": "deal", "entry": "deal"}
    data.update({f"hand_{i}": text for i, text in enumerate(hands)})
    headers = {"HTTP_X_REQUESTED_WITH": "fetch"} if fetch else {}
    return client.post(f"/matches/{match.pk}/hands/1/move/", data, **headers)


def test_a_deal_keyed_in_the_readers_words_is_recorded(people: People, undealt: Match) -> None:
    game = get_game("tressette")
    deal = game.random_deal(game.initial_state(seats=4, dealer=0), random.Random(3))
    written = [
        ", ".join(LATIN_40.name_of(c, "it") for c in deal.hands[0]),  # "Re di coppe, 3 di spade, ..."
        " ".join(ITALIAN_RANK.get(c[0], c[0]) + SYMBOL[suit_of(c)] for c in deal.hands[1]),  # "R♥ 3♠"
        " ".join(c.lower() for c in deal.hands[2] if not c.endswith("C"))  # codes; clubs as symbols
        + " "
        + " ".join(c[0] + "♣" for c in deal.hands[2] if c.endswith("C")),
        "; ".join(LATIN_40.name_of(c, "it").lower() for c in deal.hands[3]),
    ]

    response = _deal(_client(people, "it"), undealt, written)

    assert response.status_code == 302
    dealt = [
        e.event.move for e in store.read_stream(_hand(undealt).stream_id) if isinstance(e.event, MoveRecorded)
    ]
    assert [sorted(h) for h in dealt[0]["hands"]] == [sorted(h) for h in deal.hands]


def test_a_seats_cards_that_do_not_read_are_refused_under_that_seat(people: People, undealt: Match) -> None:
    game = get_game("tressette")
    deal = game.random_deal(game.initial_state(seats=4, dealer=0), random.Random(3))
    written = [" ".join(h) for h in deal.hands]
    written[2] = written[2].replace(deal.hands[2][4], "ZZ")
    before = store.stream_version(_hand(undealt).stream_id)

    response = _deal(_client(people, "en"), undealt, written, fetch=True)

    assert response.status_code == 400
    page = response.content.decode()
    found = re.search(
        r'<span class="error field-error" id="deal-error" role="alert">(.*?)</span>', page, re.S
    )
    assert found, "no refusal beside the seat's field"
    assert page.index('name="hand_2"') < found.start() < page.index('name="hand_3"')
    assert "'ZZ' is not a card" in html.unescape(found.group(1))
    assert '<div class="error" role="alert">' not in page
    assert written[2] in page  # what was typed is kept, to be corrected
    assert store.stream_version(_hand(undealt).stream_id) == before
