"""The pages around a hand, in a real browser (issue 14): signing in with the form, a director's ruling
with its preview, a score sheet printed, a replay stepped through move by move, and the language switch.
Screenshots of each step go to ``e2e-artifacts/``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from clubs.models import Club
from scoring.models import Hand
from scoring.selectors import hand_state
from segnapunti.catalogues import untranslated_in
from tests.e2e.conftest import ARTIFACTS, shot
from tests.scoring.api_support import make_people, open_match, play, play_irregular, service_record
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}


def test_a_director_signs_in_with_the_form(signed_in: Callable[..., Any]) -> None:
    people = make_people()
    people.director.set_password("tavolo-verde")
    people.director.save()
    page = signed_in(None)

    page.goto("/")
    page.click("header.site nav >> text=Sign in")
    page.fill("input[name=username]", "diana")
    page.fill("input[name=password]", "tavolo-verde")
    shot(page, "signin-phone")
    page.click("form.stacked button[type=submit]")

    page.wait_for_selector("header.site nav >> text=Sign out")
    assert "diana" in page.inner_text("header.site nav")


def test_a_wrong_password_is_said_on_the_form(signed_in: Callable[..., Any]) -> None:
    make_people()
    page = signed_in(None)

    page.goto("/accounts/login/")
    page.fill("input[name=username]", "diana")
    page.fill("input[name=password]", "not-the-password")
    page.click("form.stacked button[type=submit]")

    # The form is posted and the page drawn again: wait for it (is_visible alone does not wait, and on a
    # busy machine it read the page before the answer came).
    page.wait_for_selector("form.stacked .error", state="visible")
    assert page.locator("form.stacked .error").is_visible()
    assert "Sign in" in page.inner_text("header.site nav")


def _flagged_hand(people: Any) -> tuple[dict[str, Any], Hand, int]:
    """A Tressette hand played to its end with a revoke in it: the match, the hand, the revoke's move."""
    match, hand = open_match(people, "tressette", seats=4)
    played = play_irregular(hand, seed=21)
    hand = service_record(hand, played.moves, people.scorer)
    assert hand.flagged and played.irregular_at is not None
    return match, hand, played.irregular_at


def test_a_director_rules_on_a_revoke_after_seeing_the_preview(signed_in: Callable[..., Any]) -> None:
    people = make_people()
    match, hand, _ = _flagged_hand(people)
    version = hand.version
    page = signed_in(people.director, DESKTOP)
    page.goto(f"/matches/{match['id']}/hands/1/")
    shot(page, "ruling-0-flagged-table")

    page.click("text=rule on it")
    page.wait_for_selector("form.stacked")
    assert page.locator("input[name=refs]:checked").count() == 1  # the move the verdict is on
    page.fill("textarea[name=reason]", "both sides saw the card")
    page.select_option("select[name=kind]", "assign_score")
    page.fill("input[name=scores]", "0, 11, 0, 11")
    page.click("button[value=preview]")

    page.wait_for_selector(".panel.preview")
    shot(page, "ruling-1-preview")
    preview = page.inner_text(".panel.preview")
    assert "Hand score after" in preview and "No irregularity left without a ruling." in preview
    assert Hand.objects.get(pk=hand.pk).version == version  # a preview writes nothing

    page.click("button[value=commit]")

    page.wait_for_selector("text=Ruling recorded")
    shot(page, "ruling-2-committed")
    ruled = Hand.objects.get(pk=hand.pk)
    assert ruled.version == version + 1 and not ruled.flagged
    assert [str(s) for s in ruled.result["scores"]] == ["0", "11", "0", "11"]
    assert "scores assigned" in page.inner_text(".outcome").lower()


def test_a_score_sheet_prints_without_the_site_s_controls_and_with_its_hashes(
    signed_in: Callable[..., Any],
) -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    service_record(hand, play(hand, seed=22).moves, people.scorer)
    page = signed_in(people.member, DESKTOP)
    page.goto(f"/matches/{match['id']}/")

    page.emulate_media(media="print")

    shot(page, "sheet-print")
    assert not page.locator("header.site nav").is_visible()
    assert not page.locator("button", has_text="Print").is_visible()
    assert page.locator("[data-match-hash]").is_visible()
    assert page.locator("table.sheet tbody tr").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.pdf(path=str(ARTIFACTS / "sheet.pdf"), format="A4")
    assert (ARTIFACTS / "sheet.pdf").stat().st_size > 1000


def test_a_disputed_hand_is_stepped_through_card_by_card(signed_in: Callable[..., Any]) -> None:
    people = make_people()
    match, hand, irregular = _flagged_hand(people)
    steps = len(hand_state(hand)["moves"])
    page = signed_in(people.member)
    page.goto(f"/matches/{match['id']}/hands/1/replay/")

    for step in range(1, irregular + 2):
        page.click("nav.stepper a[rel=next]")
        page.wait_for_url(f"**/replay/?step={step}")
        assert page.inner_text(".this-move").startswith(f"Move {step}:")
    shot(page, "replay-at-the-revoke")
    assert page.locator("ol.log li.irregular .verdict").count() == 1
    assert page.locator(f"ol.log li[value='{irregular + 1}'].irregular").count() == 1

    page.click("nav.stepper >> text=end")
    page.wait_for_url(f"**/replay/?step={steps}")
    assert page.locator("ol.log li").count() == steps


def test_the_language_switch_turns_the_pages_into_italian_and_french(signed_in: Callable[..., Any]) -> None:
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    service_record(hand, play(hand, seed=23).moves[:5], people.scorer)
    page = signed_in(people.scorer, locale="en-GB")
    page.goto(f"/matches/{match['id']}/hands/1/")
    assert page.get_attribute("html", "lang") == "en"

    page.select_option("header.site select[name=language]", "it")

    page.wait_for_function("() => document.documentElement.lang === 'it'")
    shot(page, "language-it")
    assert page.url.endswith(f"/matches/{match['id']}/hands/1/")  # back on the same page
    assert "Partite" in page.inner_text("header.site nav")
    assert "Mosse" in page.inner_text("#table-root")

    page.select_option("header.site select[name=language]", "fr")

    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    shot(page, "language-fr")
    assert "Parties" in page.inner_text("header.site nav")
    page.goto(f"/matches/{match['id']}/")
    assert page.get_attribute("html", "lang") == "fr"  # the choice is kept


@pytest.mark.parametrize("language", ["it", "fr"])
def test_no_english_is_left_on_the_pages_read_in_italian_or_french(
    signed_in: Callable[..., Any], language: str
) -> None:
    """The demo's pages in a browser that asks for Italian (or French), scanned against the catalogues:
    no English source text shows where its translation differs, and no English word at all."""
    call_command("load_demo", verbosity=0)
    club = Club.objects.get()
    director = club.memberships.get(role="director").user
    flagged = Hand.objects.filter(flagged=True).select_related("match").first()
    assert flagged is not None
    tournament = Tournament.objects.get()
    table = f"/matches/{flagged.match_id}/hands/{flagged.number}/"
    paths = [
        "/",
        f"/clubs/{club.pk}/matches/",
        f"/clubs/{club.pk}/matches/new/?game=tarocchi",
        table,
        f"{table}replay/?step=6",
        f"{table}ruling/",
        f"/matches/{flagged.match_id}/",
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/rounds/1/",
        f"/tournaments/{tournament.pk}/standings/",
        f"/tournaments/{tournament.pk}/live/",
        f"/players/{club.players.first().pk}/",
    ]
    page = signed_in(director, locale={"it": "it-IT", "fr": "fr-FR"}[language])

    found = {}
    for path in paths:
        page.goto(path)
        assert page.get_attribute("html", "lang") == language, path
        left = untranslated_in(page.inner_text("body"), language)
        if left:
            found[path] = left
    shot(page, f"player-{language}")

    assert found == {}
