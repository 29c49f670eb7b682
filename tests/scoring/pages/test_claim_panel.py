"""A disputed claim decided by search, where the table and the director see it: the table page (also when
its script puts the page in place after a tap), the replay viewer stepping through the solver's line card by
card, and the ruling form, which assigns the claim's decided result in one step. In the reader's language."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Club
from scoring import services
from scoring.models import Hand, Match
from scoring.rules import get_game
from scoring.rules.claim_ruling import careless_line
from scoring.rules.claims import play_line, question, random_position, result_value, solve
from scoring.rules.moves import Claim, ClaimResponse, move_to_dict
from scoring.selectors import hand_disputed_claim
from tests.scoring.api_support import People

pytestmark = pytest.mark.django_db

SEATS = ["anna", "bruno", "carla", "dario"]
VERDICT_WORDS = {
    "holds": "The claim holds, even playing any card.",
    "holds_with_best_play": "The claim holds only with best play",
    "fails": "The claim fails: the defence beats it.",
}


def _client(user: User, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _position(verdict: str | None, seed: int = 3) -> tuple[Any, list[Any], Claim, dict[str, Any]]:
    """A Tressette hand played at random to a claim of all the rest with three tricks left, whose answer
    has ``verdict`` (any, when None): the state at the claim, the moves before it, the claim, the answer."""
    game = get_game("tressette")
    rng = random.Random(seed)
    while True:
        found = random_position(game, rng, tricks_left=3, seats=4, dealer=0)
        if found is None:
            continue
        state, moves = found
        claim = Claim(seat=state.play.current.leader)
        answer = solve(question(game, state, claim))
        if verdict is None or answer["verdict"] == verdict:
            return state, moves, claim, answer


def _claimed_match(
    club: Club, *, dispute: bool, verdict: str | None = None, seed: int = 3
) -> tuple[Match, dict[str, Any], Any, Claim]:
    """A Tressette match whose first hand is played to that claim, disputed by the next seat or not."""
    match = services.match_create(club=club, game="tressette", seats=SEATS, dealer=0)
    hand = Hand.objects.get(match=match, number=1)
    state, moves, claim, answer = _position(verdict, seed)
    moves = [*moves, claim]
    if dispute:
        moves.append(ClaimResponse(seat=(claim.seat + 1) % 4, accept=False))
    for move in moves:
        hand = Hand.objects.get(pk=hand.pk)
        services.move_record(hand=hand, move=move_to_dict(move), expected_version=hand.version)
    return match, answer, state, claim


def _url(match: Match, page: str = "") -> str:
    return f"/matches/{match.pk}/hands/1/{page}"


# ---- the table page -------------------------------------------------------------------------------
def test_the_table_page_shows_nothing_until_the_claim_is_disputed(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=False)

    page = _client(people.scorer).get(_url(match)).text

    assert 'id="claim"' not in page and "decided by search" not in page


def test_the_table_page_shows_the_disputed_claim_decided(people: People) -> None:
    match, answer, _state, claim = _claimed_match(people.club, dispute=True, verdict="fails")

    page = _client(people.scorer).get(_url(match)).text

    panel = page[page.index('id="claim"') :]
    assert claim.seat is not None
    assert f"{SEATS[claim.seat]}'s claim, decided by search" in panel
    assert VERDICT_WORDS["fails"] in panel
    assert f"Claimed: {answer['claimed']} tricks." in panel
    assert f"With best play: {answer['best']} tricks." in panel
    assert f"Playing any card: {answer['careless']} tricks." in panel
    assert panel.count("<li>", panel.index('class="line"'), panel.index("</ol>")) == len(answer["line"])
    assert f"This line gives {answer['line_result']} tricks." in panel
    assert f"/matches/{match.pk}/hands/1/replay/?line=0" in panel
    # A scorer reads the answer; the ruling is the director's.
    assert "Rule on it from this answer" not in panel


def test_the_director_at_the_table_is_offered_the_ruling(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")

    page = _client(people.director).get(_url(match)).text

    assert "Rule on it from this answer" in page and f"/matches/{match.pk}/hands/1/ruling/#claim" in page


def test_the_panel_comes_with_the_page_the_script_puts_in_place(people: People) -> None:
    """The table's script sends the dispute with X-Requested-With: fetch and puts the answer's page in
    place of its own, so the panel appears without a reload."""
    match, answer, _state, claim = _claimed_match(people.club, dispute=False)
    hand = Hand.objects.get(match=match, number=1)
    dispute = {"type": "claim_response", "seat": (claim.seat + 1) % 4, "accept": False}

    response = _client(people.director).post(
        _url(match, "move/"),
        {"move_json": json.dumps(dispute), "expected_version": hand.version},
        HTTP_X_REQUESTED_WITH="fetch",
    )

    assert response.status_code == 200
    assert 'id="claim"' in response.text and VERDICT_WORDS[answer["verdict"]] in response.text


@pytest.mark.parametrize(
    ("language", "words", "english"),
    [
        ("it", "deciso dalla ricerca", "decided by search"),
        ("fr", "tranchée par la recherche", "decided by search"),
    ],
)
def test_the_table_page_speaks_the_reader_s_language(
    people: People, language: str, words: str, english: str
) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")

    page = _client(people.scorer, language).get(_url(match)).text

    assert words in page and english not in page
    assert "Step through the line" not in page


# ---- the replay viewer: the line, card by card ------------------------------------------------------
def test_the_line_opens_at_the_claim_and_steps_card_by_card(people: People) -> None:
    match, answer, state, claim = _claimed_match(people.club, dispute=True, verdict="fails")
    client = _client(people.scorer)
    line = answer["line"]

    start = client.get(_url(match, "replay/?line=0")).text
    assert "Not recorded play" in start and "the solver's line after the claim · card 0 of" in start
    assert 'href="?line=1"' in start and "Solver's line, card" not in start

    for k in range(1, len(line) + 1):
        page = client.get(_url(match, f"replay/?line={k}")).text
        assert f"Solver's line, card {k}:" in page
        assert f'data-line-card="{k}"' in page
        assert f"({line[k - 1]['card']})" in page[page.index(f'data-line-card="{k}"') :]
        assert "the engine finds nothing irregular" in page
        assert (f'href="?line={k + 1}"' in page) == (k < len(line))

    # At its end: the hand's result as the game scores the line, and the figure the solver gave.
    game = get_game("tressette")
    end = play_line(game, state, line)
    assert result_value(game, state, end, question(game, state, claim)) == answer["line_result"]
    assert f"the claimer's side has {answer['line_result']} tricks" in page
    for score in game.result(end).scores:
        assert f'class="num">{score}<' in page


def test_a_step_outside_the_line_is_not_found(people: People) -> None:
    match, answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")

    client = _client(people.scorer)

    assert client.get(_url(match, f"replay/?line={len(answer['line']) + 1}")).status_code == 404
    assert client.get(_url(match, "replay/?line=x")).status_code == 404


def test_there_is_no_line_before_the_dispute(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=False)

    assert _client(people.scorer).get(_url(match, "replay/?line=0")).status_code == 404


def test_the_line_speaks_the_reader_s_language(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")

    page = _client(people.scorer, "it").get(_url(match, "replay/?line=1")).text

    assert "Not recorded play" not in page and "Solver" not in page


# ---- the ruling form: the decided result in one step -----------------------------------------------
def test_a_disputed_claim_is_shown_decided_with_its_line(people: People) -> None:
    match, answer, _state, _claim = _claimed_match(people.club, dispute=True)

    page = _client(people.director).get(_url(match, "ruling/")).text

    assert "decided by search" in page
    assert VERDICT_WORDS[answer["verdict"]] in page
    assert f"Claimed: {answer['claimed']} tricks." in page
    if answer["verdict"] != "holds":
        assert page.count("<li>", page.index('class="line"')) >= len(answer["line"])
    assert "?step=" in page and "Open the hand at the claim in the replay viewer" in page


def test_it_speaks_the_reader_s_language(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True)

    page = _client(people.director, "it").get(_url(match, "ruling/")).text

    assert "deciso dalla ricerca" in page and "decided by search" not in page


def test_a_claim_still_waiting_for_its_answers_is_not_shown(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=False)

    page = _client(people.director).get(_url(match, "ruling/")).text

    assert "decided by search" not in page and 'id="settle-claim"' not in page


def _settle_form(page: str) -> dict[str, Any]:
    """The fields of the ruling form the claim's panel fills, as the browser would send them."""
    form = page[page.index('id="settle-claim"') : page.index("</form>", page.index('id="settle-claim"'))]
    fields: dict[str, Any] = {}
    for name in ("expected_version", "refs", "rule", "kind", "line"):
        at = form.index(f'name="{name}" value="') + len(f'name="{name}" value="')
        fields[name] = form[at : form.index('"', at)].replace("&quot;", '"')
    reason = form[form.index(">", form.index('name="reason"')) + 1 : form.index("</textarea>")]
    fields["reason"] = reason.replace("&#x27;", "'")
    return fields


@pytest.mark.parametrize("verdict", ["fails", "holds_with_best_play"])
def test_the_ruling_form_assigns_the_careless_result_in_one_step(people: People, verdict: str) -> None:
    match, answer, state, claim = _claimed_match(people.club, dispute=True, verdict=verdict)
    client = _client(people.director)
    game = get_game("tressette")
    careless = careless_line(game, state, claim)
    assert careless is not None

    page = client.get(_url(match, "ruling/")).text
    fields = _settle_form(page)
    assert fields["kind"] == "settle_claim" and fields["rule"] == "claim.disputed"
    assert json.loads(fields["line"]) == careless["line"]
    assert f"gets {answer['careless']} tricks" in fields["reason"]

    fields["reason"] += " Checked at the table."  # the reason is the director's to edit
    preview = client.post(_url(match, "ruling/"), {**fields, "action": "preview"})
    assert preview.status_code == 200
    assert "Commit the ruling" in preview.text and "Hand score after" in preview.text
    expected = game.result(play_line(game, state, careless["line"]))
    after = preview.text[preview.text.index("Hand score after") :]
    for score in expected.scores:
        assert f'class="num">{score}<' in after
    assert Hand.objects.get(match=match, number=1).status != Hand.Status.OVER  # nothing written yet

    committed = client.post(_url(match, "ruling/"), {**fields, "action": "commit"})

    assert committed.status_code == 302
    hand = Hand.objects.get(match=match, number=1)
    assert hand.status == Hand.Status.OVER and not hand.flagged
    assert hand.result is not None and hand.result["scores"] == list(expected.scores)
    sheet = client.get(f"/matches/{match.pk}/").text
    assert all(f">{score}<" in sheet for score in expected.scores)
    audit = client.get(_url(match, "replay/")).text
    assert "Checked at the table." in audit and people.director.username in audit
    assert f"played out by a line of {len(careless['line'])} cards" in audit


def test_a_claim_that_holds_is_scored_as_stated(people: People) -> None:
    match, _answer, state, claim = _claimed_match(people.club, dispute=True, verdict="holds", seed=5)
    client = _client(people.director)
    game = get_game("tressette")

    fields = _settle_form(client.get(_url(match, "ruling/")).text)
    assert json.loads(fields["line"]) == [] and "scored as claimed" in fields["reason"]
    client.post(_url(match, "ruling/"), {**fields, "action": "commit"})

    hand = Hand.objects.get(match=match, number=1)
    assert hand.status == Hand.Status.OVER
    assert hand.result["scores"] == list(game.result(game.settle_claim(state, claim)).scores)


def test_the_settling_form_speaks_the_reader_s_language(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")

    page = _client(people.director, "fr").get(_url(match, "ruling/")).text
    fields = _settle_form(page)

    assert "Assign the result" not in page and "careless play" not in fields["reason"]


def test_once_settled_the_form_is_no_longer_offered(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")
    client = _client(people.director)
    fields = _settle_form(client.get(_url(match, "ruling/")).text)
    client.post(_url(match, "ruling/"), {**fields, "action": "commit"})

    page = client.get(_url(match, "ruling/")).text

    assert 'id="settle-claim"' not in page and "A ruling settled this claim." in page


def test_a_scorer_cannot_settle_a_claim(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")
    fields = _settle_form(_client(people.director).get(_url(match, "ruling/")).text)

    response = _client(people.scorer).post(_url(match, "ruling/"), {**fields, "action": "commit"})

    assert response.status_code == 403
    assert Hand.objects.get(match=match, number=1).status != Hand.Status.OVER


def test_a_line_that_does_not_fit_is_refused_beside_its_field_in_the_reader_s_language(
    people: People,
) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")
    client = _client(people.director, "it")
    fields = _settle_form(client.get(_url(match, "ruling/")).text)
    fields["line"] = json.dumps(json.loads(fields["line"])[:4])

    refused = client.post(_url(match, "ruling/"), {**fields, "action": "preview"})

    assert refused.status_code == 422
    field = refused.text[refused.text.index('id="id_line"') :]
    assert "il gioco non porta la mano fino alla fine" in field[: field.index("</p>")]
    assert Hand.objects.get(match=match, number=1).status != Hand.Status.OVER


def test_the_recorded_replay_at_the_claim_leads_into_the_line(people: People) -> None:
    match, _answer, _state, _claim = _claimed_match(people.club, dispute=True, verdict="fails")
    client = _client(people.scorer)
    found = hand_disputed_claim(Hand.objects.get(match=match, number=1))
    assert found is not None
    here = found["step"]
    assert client.get(_url(match, f"replay/?step={here + 1}")).text.count("claims the rest") >= 1

    at_claim = client.get(_url(match, f"replay/?step={here}")).text
    before = client.get(_url(match, f"replay/?step={here - 1}")).text

    assert 'id="claim-line" href="?line=0"' in at_claim
    assert "step through the solver's line from here" in at_claim
    assert 'id="claim-line"' not in before
