"""The pages people use at the table, through the real database and the real services.

Personas: a director of the club, a scorer assigned to the match, a scorer of the club who is not, a
member, an outsider (signed in, no role at the club) and an anonymous visitor.
"""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from clubs.models import Club, Player
from scoring import services
from scoring.log import store
from scoring.log.events import MoveRecorded
from scoring.models import Hand, Match
from scoring.pages import display
from scoring.rules import get_game
from scoring.rules.moves import move_to_dict
from scoring.selectors import hand_state, match_sheet
from scoring.voice import Voice
from tests.form_values import form_values
from tests.scoring.api_support import People
from tests.scoring.factories import PlayerFactory

pytestmark = pytest.mark.django_db

SEATS = ["Anna", "Bruno", "Carla", "Dario"]


# ---- personas and a match --------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club(people: People) -> Club:
    """The personas' club, with a player for each seat."""
    for name in SEATS:
        PlayerFactory(club=people.club, name=name)
    return people.club


def _client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def match(club: Club, people: People) -> Match:
    """A Tressette match for four, hand 1 dealt with a fixed shuffle, its scorer assigned."""
    match = services.match_create(club=club, game="tressette", seats=SEATS, dealer=0)
    match.scorers.add(people.scorer)
    hand = match.hands.get(number=1)
    game = get_game("tressette")
    deal = game.random_deal(game.initial_state(seats=4, dealer=0), random.Random(7))
    services.move_record(hand=hand, move=move_to_dict(deal), expected_version=hand.version)
    return match


def _hand(match: Match, number: int = 1) -> Hand:
    return Hand.objects.get(match=match, number=number)


def _moves_in_stream(hand: Hand) -> list[dict[str, Any]]:
    return [e.event.move for e in store.read_stream(hand.stream_id) if isinstance(e.event, MoveRecorded)]


def _url(match: Match, page: str = "", number: int = 1) -> str:
    return f"/matches/{match.pk}/hands/{number}/{page}"


def _post_move(client: Client, match: Match, **fields: Any) -> Any:
    hand = _hand(match)
    data = {"expected_version": hand.version, "idempotency_key": fields.pop("key", "k-" + str(hand.version))}
    return client.post(_url(match, "move/"), {**data, **fields})


def _play(seat: int, card: str) -> str:
    return f'{{"type": "play", "seat": {seat}, "card": "{card}"}}'


def _next_card(match: Match) -> tuple[int, str]:
    """The seat to play on hand 1 and the first card the rules let him play."""
    state = hand_state(_hand(match))["state"]
    return state["to_act"][0], state["legal_moves"][0]["card"]


def _irregular_card(match: Match) -> tuple[int, str]:
    """A card the seat to play holds but may not play (it does not follow suit): plays until one exists."""
    hand = _hand(match)
    while True:
        state = hand_state(hand)["state"]
        seat = state["to_act"][0]
        legal = {m["card"] for m in state["legal_moves"] if m["type"] == "play"}
        wrong = [c for c in state["hands"][seat] if c not in legal]
        if wrong:
            return seat, wrong[0]
        move = next(m for m in state["legal_moves"] if m["type"] == "play")
        hand = services.move_record(hand=hand, move=move, expected_version=hand.version).hand


def _finish_hand(match: Match, number: int = 1, actor: User | None = None) -> Hand:
    hand = _hand(match, number)
    while hand.status != Hand.Status.OVER:
        state = hand_state(hand)["state"]
        move = next(m for m in state["legal_moves"] if m["type"] == "play")
        hand = services.move_record(hand=hand, move=move, expected_version=hand.version, actor=actor).hand
    return hand


def _finish_hand_with_an_irregular_card(match: Match) -> Hand:
    """Hand 1 with a card played against the rules (flagged), then played to its end."""
    seat, card = _irregular_card(match)
    hand = _hand(match)
    services.move_record(
        hand=hand, move={"type": "play", "seat": seat, "card": card}, expected_version=hand.version
    )
    return _finish_hand(match)


# ---- reading: each persona ---------------------------------------------------------------------------
@pytest.mark.parametrize("persona", ["director", "scorer", "other_scorer", "member"])
def test_every_page_renders_for_the_club_s_people(persona: str, people: People, match: Match) -> None:
    client = _client(getattr(people, persona))

    for url in [
        f"/clubs/{match.club_id}/matches/",
        f"/matches/{match.pk}/",
        _url(match),
        _url(match, "replay/") + "?step=1",
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "Anna" in response.text


def test_the_entry_forms_show_only_to_those_who_record(people: People, match: Match) -> None:
    recorder = _client(people.scorer).get(_url(match)).text
    reader = _client(people.member).get(_url(match)).text

    assert "Key a card" in recorder and "Key a card" not in reader
    assert 'name="move"' in recorder and 'name="move"' not in reader


def test_an_outsider_gets_403_on_a_private_match_and_anonymous_is_asked_to_sign_in(
    people: People, match: Match
) -> None:
    assert _client(people.outsider).get(_url(match)).status_code == 403
    response = _client(None).get(_url(match))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_anonymous_sees_only_published_matches(club: Club, match: Match) -> None:
    public = services.match_create(club=club, game="tressette", seats=SEATS, title="Finale", published=True)
    client = _client(None)

    listing = client.get(f"/clubs/{club.pk}/matches/").text

    assert "Finale" in listing
    assert f"/matches/{match.pk}/" not in listing
    assert client.get(f"/matches/{public.pk}/").status_code == 200
    assert client.get(_url(public)).status_code == 200
    assert client.get(f"/matches/{match.pk}/").status_code == 302


def test_a_member_sees_the_club_s_private_matches_in_the_list(
    club: Club, people: People, match: Match
) -> None:
    listing = _client(people.member).get(f"/clubs/{club.pk}/matches/").text

    assert f"/matches/{match.pk}/" in listing
    assert "private" in listing


def test_signing_in_on_the_login_page_opens_a_session(people: People, match: Match) -> None:
    people.member.set_password("pw-mario")
    people.member.save()
    client = Client()

    response = client.post("/accounts/login/", {"username": "mario", "password": "pw-mario"})

    assert response.status_code == 302
    assert client.get(_url(match)).status_code == 200
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get(_url(match)).status_code == 302


# ---- the new match form --------------------------------------------------------------------------------
def test_a_scorer_creates_a_match_with_options_from_the_game_s_ruleset(club: Club, people: People) -> None:
    client = _client(people.scorer)
    form = client.get(f"/clubs/{club.pk}/matches/new/?game=tressette").text
    assert "when to declare" in form and "strict" in form

    anna, bruno = Player.objects.get(name="Anna"), Player.objects.get(name="Bruno")
    response = client.post(
        f"/clubs/{club.pk}/matches/new/?game=tressette",
        {
            "player_0": anna.pk,
            "player_1": bruno.pk,
            "name_2": "Guest",
            "name_3": "Visitor",
            "dealer": "2",
            "direction": "anticlockwise",
            "opt_target": "21",
            "opt_strict": "on",
            "opt_rounding": "traditional",
            "opt_removed_four": "4C",
            "opt_team_rounding": "sum_then_round",
            "opt_declaration_window": "seed",
            "opt_match_format": "points",
            "opt_deals_to_win": "3",
        },
    )

    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/hands/1/"
    assert match.options == {"target": 21, "strict": True, "rounding": "traditional"}
    assert list(match.seats.values_list("name", flat=True)) == ["Anna", "Bruno", "Guest", "Visitor"]
    assert match.hands.get().dealer == 2
    assert list(match.scorers.all()) == [people.scorer]


def test_a_tarocchi_match_is_created_with_the_options_left_as_they_come(club: Club, people: People) -> None:
    """Options with no value by default (no cap on an offer, no stake) and a list of cards are left
    empty on the form and stay at their defaults."""
    client = _client(people.scorer)
    form = client.get(f"/clubs/{club.pk}/matches/new/?game=tarocchi")
    fields = {
        name: value
        for name, value in form_values(form.text).items()
        if name.startswith("opt_") or name in ("dealer", "direction")
    }

    response = client.post(
        f"/clubs/{club.pk}/matches/new/?game=tarocchi",
        {**fields, "name_0": "A", "name_1": "B", "name_2": "C"},
    )

    assert response.status_code == 302, response.text
    assert Match.objects.get().options == {}


def test_a_tarocchi_match_takes_a_cap_on_offers_and_cards_the_dealer_may_not_discard(
    club: Club, people: People
) -> None:
    client = _client(people.scorer)
    fields = {
        name: value
        for name, value in form_values(
            client.get(f"/clubs/{club.pk}/matches/new/?game=tarocchi").text
        ).items()
        if name.startswith("opt_") or name in ("dealer", "direction")
    }
    fields.update({"opt_max_offer": "8", "opt_discard_forbidden": "ks, 5s", "opt_stake_per_point": ""})

    response = client.post(
        f"/clubs/{club.pk}/matches/new/?game=tarocchi",
        {**fields, "name_0": "A", "name_1": "B", "name_2": "C"},
    )

    assert response.status_code == 302, response.text
    assert Match.objects.get().options == {"max_offer": 8, "discard_forbidden": ["5S", "KS"]}


def test_a_cap_on_offers_below_one_is_refused_on_its_field(club: Club, people: People) -> None:
    response = _client(people.scorer).post(
        f"/clubs/{club.pk}/matches/new/?game=tarocchi",
        {
            "name_0": "A",
            "name_1": "B",
            "name_2": "C",
            "dealer": "0",
            "direction": "anticlockwise",
            "opt_max_offer": "0",
            "opt_deals": "12",
        },
    )

    assert response.status_code == 400
    assert "opt_max_offer-errors" in response.text or 'id="id_opt_max_offer"' in response.text
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["“silence consents”:", "“given up”:"]),
        ("it", ["“chi tace acconsente”:", "“ceduto”:"]),
        ("fr", ["« qui ne dit mot consent » :", "« abandonné » :"]),
    ],
)
def test_an_option_s_help_names_its_choices_in_words_not_codes(
    club: Club, people: People, language: str, words: list[str]
) -> None:
    """The engine's help texts name choices by code (``silence_consents: ...``); the page says them as the
    choice lists do."""
    client = _client(people.scorer)
    client.cookies["django_language"] = language
    for game in ("tarocchi", "tressette", "hombre_it", "lhombre"):
        page = client.get(f"/clubs/{club.pk}/matches/new/?game={game}", HTTP_ACCEPT_LANGUAGE=language)
        shown = re.sub(r"<[^>]+>", " ", page.text)
        options = get_game(game).ruleset.options
        for option in options:
            for choice in option.choices or ():
                if isinstance(choice, str) and "_" in choice:
                    assert choice not in shown, (game, option.name, choice)
            if "_" in option.name:
                assert option.name not in shown, (game, option.name)
        if game == "tarocchi":
            for expected in words:
                assert expected in html.unescape(shown).replace("\xa0", " "), expected


def test_the_new_match_form_says_how_many_players_the_game_needs(club: Club, people: People) -> None:
    response = _client(people.director).post(
        f"/clubs/{club.pk}/matches/new/?game=tressette",
        {"name_0": "A", "name_1": "B", "dealer": "0", "direction": "clockwise", "opt_target": "31"},
    )

    assert response.status_code == 400
    assert "played by 4 or 3 players" in response.text
    assert not Match.objects.exists()


def test_a_member_cannot_open_the_new_match_form(club: Club, people: People) -> None:
    assert _client(people.member).get(f"/clubs/{club.pk}/matches/new/").status_code == 403


# ---- the table entry page ------------------------------------------------------------------------------
def test_the_table_page_shows_the_seats_the_turn_and_the_legal_cards_by_name(
    people: People, match: Match
) -> None:
    seat, card = _next_card(match)
    name = get_game("tressette").deck.name_of(card, "en")

    page = _client(people.scorer).get(_url(match)).text

    assert "to play" in page
    assert name in page and card in page
    assert f'value="{{&quot;type&quot;:&quot;play&quot;,&quot;seat&quot;:{seat},' in page


def test_a_move_tapped_on_the_page_is_recorded_in_the_stream(people: People, match: Match) -> None:
    hand = _hand(match)
    seat, card = _next_card(match)
    client = _client(people.scorer)

    response = _post_move(client, match, move=_play(seat, card))

    assert response.status_code == 302
    assert _moves_in_stream(hand)[-1] == {"type": "play", "seat": seat, "card": card}
    page = client.get(response["Location"]).text
    assert "Recorded:" in page
    assert store.read_stream(hand.stream_id)[-1].recorded_by == "sandro"


def test_a_call_in_the_auction_is_a_button_like_any_move(club: Club, people: People) -> None:
    match = services.match_create(club=club, game="hombre_it", seats=SEATS[:3])
    client = _client(people.director)
    _post_move(client, match, entry="deal")
    page = client.get(_url(match)).text
    assert "gioco" in page and "claims the rest" not in page  # no claim during the auction
    seat = hand_state(_hand(match))["state"]["to_act"][0]

    response = _post_move(client, match, move=f'{{"type": "call", "seat": {seat}, "call": "gioco"}}')

    assert response.status_code == 302
    assert _moves_in_stream(_hand(match))[-1] == {"type": "call", "seat": seat, "call": "gioco"}


def test_the_player_on_lead_may_claim_and_the_others_answer_with_buttons(
    people: People, match: Match
) -> None:
    client = _client(people.scorer)
    leader = hand_state(_hand(match))["state"]["to_act"][0]
    assert f"{SEATS[leader]}:</span> claims the rest" in client.get(_url(match)).text

    response = _post_move(client, match, move=f'{{"type": "claim", "seat": {leader}}}')

    assert response.status_code == 302
    page = client.get(_url(match)).text
    assert "accepts the claim" in page and "disputes the claim" in page


def test_a_card_keyed_by_its_code_is_recorded(people: People, match: Match) -> None:
    hand = _hand(match)
    seat, card = _next_card(match)

    response = _post_move(_client(people.scorer), match, card=card.lower(), seat=str(seat))

    assert response.status_code == 302
    assert _moves_in_stream(hand)[-1] == {"type": "play", "seat": seat, "card": card}


def test_an_irregular_card_keyed_is_recorded_with_the_engine_s_verdict_and_flagged(
    people: People, match: Match
) -> None:
    seat, card = _irregular_card(match)
    client = _client(people.scorer)

    response = _post_move(client, match, card=card, seat=str(seat))

    hand = _hand(match)
    assert response.status_code == 302
    assert _moves_in_stream(hand)[-1]["card"] == card
    assert hand.flagged
    page = client.get(_url(match)).text
    assert "Irregular, flagged for the director" in page
    assert "⚑" in page


def test_a_declaration_of_cards_not_held_is_recorded_with_its_verdict_and_every_page_shows_it(
    people: People, match: Match
) -> None:
    # Said aloud at the table by a seat holding fewer than three Aces: three Aces, so at least one of them
    # is a card the recorded deal gives to another seat.
    hands = hand_state(_hand(match))["state"]["hands"]
    seat = next(s for s, held in enumerate(hands) if sum(c[0] == "A" for c in held) < 3)
    declare = {"type": "declare", "seat": seat, "combination": "three_aces", "cards": ["AS", "AH", "AD"]}
    client = _client(people.scorer)

    response = _post_move(client, match, move=json.dumps(declare))

    assert response.status_code == 302
    hand = _hand(match)
    assert _moves_in_stream(hand)[-1]["type"] == "declare" and hand.flagged
    assert (
        'data-rule="tressette.false_declaration">⚑ <strong>False declaration</strong>'
        in client.get(_url(match)).text
    )
    _finish_hand(match)
    for url in [f"/matches/{match.pk}/", _url(match), _url(match, "replay/") + "?step=2"]:
        page = client.get(url)
        assert page.status_code == 200, url
    assert 'data-rule="tressette.false_declaration"' in client.get(_url(match, "replay/") + "?step=2").text


def test_a_low_call_is_recorded_as_a_pass_with_its_verdict_and_the_pages_show_it(
    club: Club, people: People
) -> None:
    match = services.match_create(club=club, game="lhombre", seats=SEATS[:3])
    client = _client(people.director)
    _post_move(client, match, entry="deal")
    first = hand_state(_hand(match))["state"]["to_act"][0]
    _post_move(client, match, move=f'{{"type": "call", "seat": {first}, "call": "je_joue"}}')
    second = hand_state(_hand(match))["state"]["to_act"][0]

    response = _post_move(client, match, move=f'{{"type": "call", "seat": {second}, "call": "je_joue"}}')

    assert response.status_code == 302
    assert _hand(match).flagged
    page = client.get(_url(match)).text
    assert 'data-rule="lhombre.call_low">⚑ <strong>Called no higher than the call to beat</strong>' in page
    assert client.get(_url(match, "replay/") + "?step=3").status_code == 200


def test_a_keying_error_writes_nothing_and_shows_its_plain_message(people: People, match: Match) -> None:
    hand = _hand(match)
    state = hand_state(hand)["state"]
    seat = state["to_act"][0]
    other = (seat + 1) % 4
    card = state["hands"][other][0]  # held by the next seat, not by the one to play
    before = store.stream_version(hand.stream_id)

    client = _client(people.scorer)

    response = _post_move(client, match, card=card, seat=str(seat))

    page = _refused(client, response, match)
    name = get_game("tressette").deck.name_of(card, "en")
    assert f"the recorded deal gives {name} to {SEATS[other]}, not {SEATS[seat]}" in page
    assert f'name="card" value="{card}"' in page  # what was typed, to correct rather than key again
    assert store.stream_version(hand.stream_id) == before


def _refused(client: Client, response: Any, match: Match) -> str:
    """A move refused from a plain form: redirected to the table (a reload cannot send it again), which
    shows why it was not recorded, once."""
    assert response.status_code == 302
    assert response["Location"] == _url(match)
    page = client.get(response["Location"]).text
    assert "Not recorded:" in page
    assert "Not recorded:" not in client.get(response["Location"]).text
    return page


def test_a_card_that_is_not_in_the_deck_is_refused(people: People, match: Match) -> None:
    hand = _hand(match)
    seat = hand_state(hand)["state"]["to_act"][0]
    before = store.stream_version(hand.stream_id)

    client = _client(people.scorer)

    response = _post_move(client, match, card="9S", seat=str(seat))

    assert "&#x27;9S&#x27; is not a card of the Italian 40 deck" in _refused(client, response, match)
    assert store.stream_version(hand.stream_id) == before


def test_a_malformed_move_is_a_400_and_writes_nothing(people: People, match: Match) -> None:
    hand = _hand(match)
    before = store.stream_version(hand.stream_id)

    client = _client(people.scorer)

    response = _post_move(client, match, move_json='{"type": "jump"}')

    assert "unknown move type" in _refused(client, response, match)
    assert store.stream_version(hand.stream_id) == before


def test_a_double_post_with_the_same_idempotency_key_records_once(people: People, match: Match) -> None:
    hand = _hand(match)
    seat, card = _next_card(match)
    client = _client(people.scorer)
    data = {"expected_version": hand.version, "idempotency_key": "tap-1", "move": _play(seat, card)}

    first = client.post(_url(match, "move/"), data)
    second = client.post(_url(match, "move/"), data)

    assert first.status_code == second.status_code == 302
    assert len(_moves_in_stream(hand)) == 2  # the deal and the one card
    assert "Already recorded" in client.get(second["Location"]).text


def test_a_page_that_went_stale_is_refused_with_409_and_nothing_written(people: People, match: Match) -> None:
    hand = _hand(match)
    seat, card = _next_card(match)
    stale = hand.version
    services.move_record(hand=hand, move={"type": "play", "seat": seat, "card": card}, expected_version=stale)
    seat, card = _next_card(match)

    client = _client(people.scorer)

    response = client.post(
        _url(match, "move/"), {"expected_version": stale, "idempotency_key": "x", "move": _play(seat, card)}
    )

    assert "Someone else recorded" in _refused(client, response, match)
    assert store.stream_version(hand.stream_id) == stale + 1


def test_a_member_gets_403_on_the_entry_post(people: People, match: Match) -> None:
    hand = _hand(match)
    before = store.stream_version(hand.stream_id)

    response = _post_move(_client(people.member), match, move=_play(*_next_card(match)))

    assert response.status_code == 403
    assert store.stream_version(hand.stream_id) == before


def test_a_scorer_not_assigned_to_the_match_gets_403(people: People, match: Match) -> None:
    response = _post_move(_client(people.other_scorer), match, move=_play(*_next_card(match)))

    assert response.status_code == 403


def test_anonymous_posting_a_move_is_sent_to_sign_in(match: Match) -> None:
    response = _post_move(_client(None), match, move=_play(0, "AS"))

    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_scorer_undoes_his_own_last_move(people: People, match: Match) -> None:
    client = _client(people.scorer)
    _post_move(client, match, move=_play(*_next_card(match)))
    assert "Undo my last move" in client.get(_url(match)).text

    response = client.post(_url(match, "undo/"), {"expected_version": _hand(match).version})

    assert response.status_code == 302
    assert len(hand_state(_hand(match))["moves"]) == 1  # the deal only
    assert "Undo my last move" not in client.get(_url(match)).text


def test_nobody_undoes_a_move_someone_else_recorded(people: People, match: Match) -> None:
    _post_move(_client(people.director), match, move=_play(*_next_card(match)))
    client = _client(people.scorer)
    assert "Undo my last move" not in client.get(_url(match)).text

    response = client.post(_url(match, "undo/"), {"expected_version": _hand(match).version})

    assert "only the scorer who recorded a move" in _refused(client, response, match)


def test_no_undo_is_offered_on_a_hand_once_the_next_one_has_started(people: People, match: Match) -> None:
    _finish_hand(match, actor=people.scorer)
    client = _client(people.scorer)
    assert "Undo my last move" in client.get(_url(match)).text

    client.post(f"/matches/{match.pk}/next-hand/")

    assert "Undo my last move" not in client.get(_url(match)).text


def test_the_deal_can_be_skipped_to_record_the_moves_only(club: Club, people: People) -> None:
    match = services.match_create(club=club, game="tressette", seats=SEATS)
    client = _client(people.director)
    assert "Cards dealt (record the moves only)" in client.get(_url(match)).text

    response = _post_move(client, match, entry="deal")

    assert response.status_code == 302
    state = hand_state(_hand(match))["state"]
    assert state["phase"] == "play" and not state["deal_known"]


def test_a_deal_entered_by_codes_is_recorded(club: Club, people: People) -> None:
    match = services.match_create(club=club, game="tressette", seats=SEATS)
    cards = get_game("tressette").deck.cards
    hands = {f"hand_{i}": " ".join(cards[i * 10 : i * 10 + 10]) for i in range(4)}

    response = _post_move(_client(people.director), match, entry="deal", **hands)

    assert response.status_code == 302
    assert list(hand_state(_hand(match))["state"]["hands"][0]) == list(cards[:10])


def test_the_next_hand_starts_from_the_page_once_the_hand_is_over(people: People, match: Match) -> None:
    _finish_hand(match)
    client = _client(people.scorer)
    assert "Start hand 2" in client.get(_url(match)).text

    response = client.post(f"/matches/{match.pk}/next-hand/")

    assert response.status_code == 302
    assert response["Location"] == _url(match, number=2)
    assert _hand(match, 2).dealer == 1


# ---- the score sheet -------------------------------------------------------------------------------------
def test_the_sheet_shows_the_game_s_own_columns_running_totals_and_flagged_hands(
    people: People, match: Match
) -> None:
    _finish_hand_with_an_irregular_card(match)
    sheet = match_sheet(match)

    page = _client(people.member).get(f"/matches/{match.pk}/").text

    for column in ("card points", "declarations", "points", "deals won"):
        assert f"<th>{column}</th>" in page
    assert 'class="flagged"' in page and "Hands waiting for the director: 1" in page
    totals = re.search(r'<tr class="totals">(.*?)</tr>', page, re.S)
    assert totals is not None
    assert [int(t) for t in re.findall(r">(-?\d+)<", totals.group(1))] == sheet["totals"]
    assert "@media print" in _static_css()


def _static_css() -> str:
    from django.contrib.staticfiles import finders

    path = finders.find("scoring/pages.css")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_the_sheet_links_the_stylesheet_with_its_print_rules(people: People, match: Match) -> None:
    page = _client(people.member).get(f"/matches/{match.pk}/").text

    assert "scoring/pages.css" in page
    # The Print button's script is a file (the Content-Security-Policy allows no inline handler).
    assert "data-print" in page and "scoring/print.js" in page


# ---- the replay viewer -------------------------------------------------------------------------------
def test_the_replay_viewer_shows_step_n(people: People, match: Match) -> None:
    hand = _hand(match)
    played = []
    for _ in range(3):
        state = hand_state(hand)["state"]
        move = state["legal_moves"][0]
        played.append(move)
        hand = services.move_record(hand=hand, move=move, expected_version=hand.version).hand
    client = _client(people.member)
    deck = get_game("tressette").deck

    page = client.get(_url(match, "replay/") + "?step=3").text

    assert "step 3 of 4" in page
    assert "?step=2" in page and "?step=4" in page  # prev and next
    name = deck.name_of(played[1]["card"], "en")
    assert f"Move 3: <strong>{SEATS[played[1]['seat']]}</strong> {name}" in page
    assert "Trick 1" in page
    assert '<li value="3"' in page and '<li value="4"' not in page  # the moves so far, not the one to come
    assert "Audit trail" in page and "hand started" in page
    assert client.get(_url(match, "replay/") + "?step=99").status_code == 404


def test_the_replay_shows_each_seat_s_holding_where_the_deal_is_known(people: People, match: Match) -> None:
    hand = _hand(match)
    first = hand_state(hand)["state"]["hands"][0][0]

    page = _client(people.member).get(_url(match, "replay/") + "?step=1").text

    assert get_game("tressette").deck.name_of(first, "en") in page


# ---- rulings ---------------------------------------------------------------------------------------------
def test_a_director_previews_a_ruling_without_writing_then_commits_it(people: People, match: Match) -> None:
    hand = _finish_hand_with_an_irregular_card(match)
    position = next(v["position"] for v in hand_state(hand)["verdicts"])
    client = _client(people.director)
    form = {
        "expected_version": hand.version,
        "refs": [str(position)],
        "rule": "revoke",
        "reason": "seen by both sides",
        "kind": "assign_score",
        "scores": "0, 11, 0, 11",
    }
    assert "rule on it" in client.get(_url(match)).text

    preview = client.post(_url(match, "ruling/"), {**form, "action": "preview"})

    assert preview.status_code == 200
    assert "Hand score after" in preview.text and "Commit the ruling" in preview.text
    assert store.stream_version(hand.stream_id) == hand.version

    commit = client.post(_url(match, "ruling/"), {**form, "action": "commit"})

    assert commit.status_code == 302
    hand = _hand(match)
    assert not hand.flagged
    assert hand.result is not None and hand.result["scores"] == [0, 11, 0, 11]
    replay = client.get(_url(match, "replay/")).text
    assert "seen by both sides" in replay and "diana" in replay


def test_a_ruling_the_engine_refuses_shows_its_message_and_writes_nothing(
    people: People, match: Match
) -> None:
    hand = _hand(match)
    position = hand_state(hand)["moves"][0]["position"]

    response = _client(people.director).post(
        _url(match, "ruling/"),
        {
            "expected_version": hand.version,
            "refs": [str(position)],
            "rule": "x",
            "reason": "y",
            "kind": "assign_score",
            "scores": "1, 2, 3, 4",
            "action": "commit",
        },
    )

    assert response.status_code == 422
    assert "assign_score applies to a finished hand" in response.text
    assert store.stream_version(hand.stream_id) == hand.version


def test_a_scorer_cannot_rule(people: People, match: Match) -> None:
    assert _client(people.scorer).get(_url(match, "ruling/")).status_code == 403


# ---- the table page's script: writes answered in place, the version it polls ---------------------------
def _tap(client: Client, match: Match, move: str, key: str = "tap") -> Any:
    """A card tapped on the table page with its script on: sent in the background (X-Requested-With)."""
    data = {"expected_version": _hand(match).version, "idempotency_key": key, "move": move}
    return client.post(_url(match, "move/"), data, headers={"X-Requested-With": "fetch"})


def test_a_tap_sent_by_the_script_is_answered_with_the_table_in_place(match: Match, people: People) -> None:
    client = _client(people.scorer)
    seat, card = _next_card(match)
    before = _hand(match).version

    response = _tap(client, match, _play(seat, card))

    assert response.status_code == 200  # no redirect to follow
    html = response.content.decode()
    assert f'data-version="{before + 1}"' in html
    assert "Recorded:" in html  # the verdict, in the same answer
    assert _hand(match).version == before + 1


def test_a_form_without_the_script_still_posts_redirects_and_gets(match: Match, people: People) -> None:
    seat, card = _next_card(match)

    response = _post_move(_client(people.scorer), match, move=_play(seat, card))

    assert response.status_code == 302 and response["Location"].endswith(_url(match))


def test_a_refused_tap_from_the_script_shows_why_and_writes_nothing(match: Match, people: People) -> None:
    hand = _hand(match)
    seat, card = _next_card(match)
    _post_move(_client(people.scorer), match, move=_play(seat, card))

    again = _tap(_client(people.scorer), match, _play(seat, card), key="other")

    assert again.status_code in (409, 422)
    assert "Not recorded" in again.content.decode()
    assert _hand(match).version == hand.version + 1


def test_the_hand_version_the_page_polls(match: Match, people: People) -> None:
    hand = _hand(match)

    answer = _client(people.member).get(_url(match, "version/")).json()
    hidden = _client(people.outsider).get(_url(match, "version/"))

    assert answer == {"version": hand.version, "status": "in_play"}
    assert hidden.status_code == 404 and hidden.json()["code"] == "not_found"


def test_the_home_page_offers_sign_in_and_shows_admin_only_to_staff(people: People) -> None:
    anonymous = Client().get("/").content.decode()
    staff = people.director
    staff.is_staff = True
    staff.save()

    assert "Sign in" in anonymous and "/admin/" not in anonymous
    assert "/admin/" not in _client(people.scorer).get("/").content.decode()
    assert "/admin/" in _client(staff).get("/").content.decode()


def test_the_felt_counts_seats_from_one_as_the_forms_do(match: Match, people: People) -> None:
    html = _client(people.scorer).get(_url(match)).content.decode()

    assert "seat 1" in html and "seat 4" in html and "seat 0" not in html


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("it", "contratto: Non prendere le Donne"),
        ("fr", "contrat\u00a0: Pas de dames"),
        ("en", "contract: No Queens"),
    ],
)
def test_a_barbu_contract_is_named_not_coded(lang: str, said: str) -> None:
    move = {"type": "choose", "seat": 0, "choice": "contract", "value": "NPD"}

    with translation.override(lang):
        assert display.move_label(move, Voice.of("barbu", ["a", "b", "c", "d"])) == said
