"""A tournament night in a real browser (issue 14): the director signs in on a phone, sets up a small
tournament, registers the players as they arrive, opens round 1 and sees its seating, watches the tables
finish (their matches are played to the end through the services, as the scorers would record them) on
a round page that follows them by itself, closes the round and publishes; then anyone reads the standings,
ranked, each row saying why it is below the one above, and they print on A4. A screenshot of each step
goes to ``e2e-artifacts/`` (and the printed standings as a PDF)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, PHONE, shot
from tests.tournaments.support import club_with_players, finish_round
from tournaments.models import Round, Standings, Tournament
from tournaments.pages import director as director_pages

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "una-sera-al-circolo"


def test_a_director_runs_a_tournament_night(signed_in: Any, settings: Any, monkeypatch: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    monkeypatch.setattr(director_pages, "LIVE_SECONDS", 1)  # the round page asks for news every second
    club = club_with_players(6)
    director = club.director
    director.set_password(PASSWORD)
    director.save()
    page = signed_in(None, PHONE, locale="en-GB")

    # Sign in, and set up the tournament from the list of tournaments.
    page.goto("/accounts/login/?next=/tournaments/")
    page.fill("input[name=username]", director.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.click(f"text=New tournament at {club.people.club.name}")
    page.fill("input[name=name]", "Torneo del giovedì")
    page.check("text=Sicilian Tarocchi (3 players)")
    page.select_option("select[name=tiebreaks] >> nth=0", "total")
    page.select_option("select[name=tiebreaks] >> nth=1", "tables_won")
    page.fill("input[name=rounds_planned]", "2")
    page.check(f"text={club.people.scorer.username}")
    # The evening's matches are one deal each: the game's options, in its group.
    page.click("details[data-game=tarocchi] summary")
    page.fill("input[name=opt_tarocchi__deals]", "1")
    shot(page, "night-phone-1-new-tournament")
    page.click("main button[type=submit]")
    page.wait_for_selector("text=Torneo del giovedì is set up")
    t = Tournament.objects.get()
    assert t.tiebreaks == ["total", "tables_won"]
    assert t.game_options == {"tarocchi": {"deals": 1}}

    # The players arrive: the members present are ticked and registered in one submit.
    for player in club.players:
        page.check(f"#register-members input[name=player][value='{player.pk}']")
    page.click("#register-members button.primary")
    page.wait_for_selector("text=6 players registered:")
    assert page.locator("text=6 players registered").count() >= 1
    shot(page, "night-phone-2-players-registered")

    # Round 1: two tables of three, seated by the planner.
    page.click("text=Open round 1")
    page.wait_for_selector("text=Round 1 is open: 2 tables are seated.")
    rnd = Round.objects.get(tournament=t)
    assert page.url.endswith(f"/tournaments/{t.pk}/rounds/1/")
    for table in rnd.tables.all():
        assert page.locator(f"#table-{table.number}").count() == 1
        assert (
            page.locator(f"#table-{table.number} a[href='/matches/{table.match_id}/hands/1/']").count() == 1
        )
    for player in club.players:
        assert page.locator(f"#round-progress >> text={player.name}").count() == 1
    shot(page, "night-phone-3-round-1-seated")
    desk = signed_in(None, DESKTOP, locale="en-GB")
    desk.goto("/accounts/login/")
    desk.fill("input[name=username]", director.username)
    desk.fill("input[name=password]", PASSWORD)
    desk.click("main button[type=submit]")
    desk.goto(page.url)
    shot(desk, "night-desktop-round-1-seated")

    # The scorers record at the tables (played here through the services); the page follows by itself.
    finish_round(rnd, seed=4, actor=club.people.scorer)
    page.wait_for_selector("#round-progress >> text=2 finished", timeout=15_000)
    assert int(page.locator("#round-progress").get_attribute("data-refresh-count")) >= 1
    shot(page, "night-phone-4-round-1-finished")

    # Close the round, then publish the standings.
    page.click("text=Close round 1")
    page.wait_for_selector("text=Round 1 is closed.")
    shot(page, "night-phone-5-round-closed")
    page.click("text=Publish the standings")
    page.wait_for_selector("text=The standings are published")

    # Anyone now reads the standings: ranked, with why each row is below the one above.
    rows = Standings.objects.get(tournament=t).data["rows"]
    assert len(rows) == 6 and [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6]
    reader = signed_in(None, DESKTOP, locale="en-GB")
    reader.goto(f"/tournaments/{t.pk}/standings/")
    names = reader.locator("table.standings td.name").all_inner_texts()
    assert names == [r["name"] for r in rows]
    why = reader.locator("table.standings tr.why").all_inner_texts()
    assert len(why) == 5 and all(" above " in line for line in why)
    assert why[0].strip().startswith(f"{rows[0]['name']} above {rows[1]['name']}:")
    assert reader.locator("text=Includes the event log up to position").count() == 1
    shot(reader, "night-desktop-standings")
    phone_reader = signed_in(None, PHONE, locale="en-GB")
    phone_reader.goto(f"/tournaments/{t.pk}/standings/")
    shot(phone_reader, "night-phone-6-standings")

    # Printed: no header, no buttons, the integrity line kept.
    reader.emulate_media(media="print")
    assert not reader.locator("header.site").is_visible()
    assert not reader.locator("text=Download CSV").is_visible()
    assert reader.locator("code[data-log-hash]").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    reader.pdf(path=str(ARTIFACTS / "night-standings-a4.pdf"), format="A4")
    shot(reader, "night-desktop-standings-print")
