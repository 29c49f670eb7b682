"""The pages of a tournament night fit a 390 px phone read in French (issue 24): nothing of the main
content scrolls sideways (a wide data table scrolls inside its own box, never the page), and the lines
that say why a player is above the next wrap instead of being cut."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from clubs.models import Club
from scoring.models import Hand
from scoring.rules.cards import LATIN_40
from scoring.selectors import hand_state
from tests.e2e.conftest import PHONE, shot
from tests.scoring.api_support import make_people, open_match, play, service_record
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

# Every element of the main content whose box reaches past the right edge of the screen, unless it is
# inside a box that scrolls by itself (a wide data table); and every text that its own box cuts off.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const said = (el) => el.tagName + "." + el.className + " " + el.textContent.trim().slice(0, 60);
  const out = [], scrolls = [];
  for (const el of document.querySelectorAll("main *")) {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // nothing shown, or for screen readers only
    let scroller = el.parentElement, inScroller = false;
    while (scroller && scroller.tagName !== "MAIN") {
      const style = getComputedStyle(scroller);
      if (["auto", "scroll"].includes(style.overflowX)) { inScroller = true; break; }
      scroller = scroller.parentElement;
    }
    const style = getComputedStyle(el);
    const clips = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    const wider = el.scrollWidth > el.clientWidth + 1;
    if (!inScroller && box.right > width + 0.5) out.push("past the edge: " + said(el));
    if (["auto", "scroll"].includes(style.overflowX) && wider) scrolls.push(said(el));
    if (clips && wider && el.textContent.trim()) out.push("cut: " + said(el));
  }
  return {out, scrolls};
}"""

# The why-above lines: each one whole on the screen, wrapped within its cell.
WHY = """() => Array.from(document.querySelectorAll("tr.why td:not(:empty)")).map((td) => {
  const box = td.getBoundingClientRect();
  const cut = td.scrollWidth > td.clientWidth + 1;
  return {text: td.textContent.trim(), left: box.left, right: box.right, cut: cut};
})"""


# The pages the issue found too wide: not even a box inside them may scroll sideways. The others may
# keep a wide data table in a box of its own.
STRICT = {"tournament-list", "standings", "live-board", "table"}


def _paths() -> dict[str, str]:
    club = Club.objects.get()
    tournament = Tournament.objects.get()
    flagged = Hand.objects.filter(flagged=True).select_related("match").first()
    assert flagged is not None
    return {
        "tournament-list": "/tournaments/",
        "standings": f"/tournaments/{tournament.pk}/standings/",
        "live-board": f"/tournaments/{tournament.pk}/live/",
        "table": f"/matches/{flagged.match_id}/hands/{flagged.number}/",
        "tournament": f"/tournaments/{tournament.pk}/",
        "round": f"/tournaments/{tournament.pk}/rounds/1/",
        "player": f"/players/{club.players.first().pk}/",
    }


def test_a_tournament_night_fits_a_phone_in_french(signed_in: Callable[..., Any]) -> None:
    call_command("load_demo", verbosity=0)
    director = Club.objects.get().memberships.get(role="director").user
    page = signed_in(director, PHONE, locale="fr-FR")
    problems: dict[str, Any] = {}
    for name, path in _paths().items():
        page.goto(path)
        assert page.get_attribute("html", "lang") == "fr", path
        shot(page, f"phone-fr-{name}")
        width = page.evaluate("document.documentElement.scrollWidth")
        found = page.evaluate(OVERFLOW)
        scrolls = found["scrolls"] if name in STRICT else []
        whys = page.evaluate(WHY)
        cut = [w for w in whys if w["cut"] or w["left"] < 0 or w["right"] > PHONE["width"] + 0.5]
        if width > PHONE["width"] or found["out"] or scrolls or cut:
            problems[name] = {
                "scrollWidth": width,
                "overflow": found["out"][:8],
                "scrolls sideways": scrolls,
                "why cut": cut[:3],
            }
        if name == "standings":
            assert whys, "the demo's standings show no why-above line"
    assert problems == {}, json.dumps(problems, indent=1, ensure_ascii=False)


def test_a_card_keyed_wrong_is_refused_beside_the_field_on_a_phone_in_french(
    signed_in: Callable[..., Any],
) -> None:
    """The scorer keys a card in his own words; a spelling that names no card is refused in French, in
    sight, under the field he typed it in (which keeps what he typed), and the page still fits."""
    people = make_people()
    match, hand = open_match(people, "tressette", seats=4)
    hand = service_record(hand, play(hand, seed=14).moves[:1], people.scorer)  # the deal
    page = signed_in(people.scorer, PHONE, locale="fr-FR")
    page.goto(f"/matches/{match['id']}/hands/1/")

    page.fill("#table-root input[name=card]", "Roi de zut")
    page.click("#table-root .inline-form button.primary")
    page.wait_for_selector("#card-error", timeout=10_000)

    shot(page, "phone-fr-table-card-refused")
    error = page.locator("#card-error")
    assert "'Roi de zut' n'est pas une carte" in error.inner_text()
    box, field = error.bounding_box(), page.locator("#id_card").bounding_box()
    assert box is not None and field is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], "the refusal is out of sight"
    assert 0 <= box["y"] - (field["y"] + field["height"]) < 80, "the refusal is not beside the field"
    assert page.input_value("#id_card") == "Roi de zut"
    assert page.evaluate("document.activeElement.id") == "id_card"
    assert page.locator("#table-root > .error").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert Hand.objects.get(pk=hand.pk).version == hand.version

    page.fill("#table-root input[name=card]", _spoken(hand))
    page.click("#table-root .inline-form button.primary")
    page.wait_for_function(f"() => document.getElementById('table-root').dataset.version > {hand.version}")
    assert page.locator("#card-error").count() == 0


def _spoken(hand: Hand) -> str:
    """The first card the seat to play may play, as a French scorer says it: "Roi ♥"."""
    state = hand_state(hand)["state"]
    card = next(m["card"] for m in state["legal_moves"] if m["type"] == "play")
    return f"{LATIN_40.rank_label(card, 'fr')} {'♠♥♦♣'['SHDC'.index(card[-1])]}"
