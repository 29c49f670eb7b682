"""The public pages of a tournament: the printable standings (criteria by name with a legend, why each
row is below the one above, the tables included, freshness, exports, the log hash they were built up to),
the live board for the club room, and the links that lead to them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from scoring.log import chain
from scoring.models import StoredEvent
from tests.tournaments.page_support import browser, text
from tests.tournaments.support import (
    Club,
    close_round,
    club_with_players,
    finish_match,
    open_round,
    tournament,
)
from tournaments import services
from tournaments.models import Standings, Tournament
from tournaments.pages import display

pytestmark = pytest.mark.django_db

CSS = Path(__file__).resolve().parents[3] / "tournaments" / "static" / "tournaments" / "tournaments.css"


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


@pytest.fixture
def played(club: Club, django_capture_on_commit_callbacks: Any) -> Tournament:
    """A published Tarocchi tournament of nine players after round 1: tables 1 and 2 finished, table 3
    abandoned, the round closed."""
    t = tournament(club, published=True)
    rnd = open_round(t, club.director)
    tables = list(rnd.tables.select_related("match").order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        for table in tables[:2]:
            finish_match(table.match, seed=table.number)
    t.refresh_from_db()
    services.table_abandon(
        tournament=t,
        round_number=1,
        table_number=3,
        reason="the lights went out",
        expected_version=t.version,
        actor=club.director,
    )
    close_round(t, rnd, club.director)
    return t


def standings_of(t: Tournament) -> dict[str, Any]:
    return dict(Standings.objects.get(tournament=t).data)


# ---- the standings page ------------------------------------------------------------------------------
def test_each_criterion_is_a_column_abbreviated_with_its_full_name_and_a_legend(played: Tournament) -> None:
    page = browser(None).get(f"/tournaments/{played.pk}/standings/")

    body = page.content.decode()
    assert page.status_code == 200
    assert '<abbr title="total (higher is better)">Tot</abbr>' in body
    assert '<abbr title="average rank (lower is better)">AvR</abbr>' in body
    assert "<dt>AvR</dt><dd>average rank (lower is better)</dd>" in body
    shown = text(page)
    order = "total, tables won, average rank, head-to-head, best result, irregularities ruled against, lot"
    assert f"Ranked by {order}, in this order." in shown
    for code in ("tables_won", "average_rank", "head_to_head", "rank_points", "natural", "tarocchi "):
        assert code not in shown


def test_a_line_between_neighbours_says_why_the_upper_one_is_above(played: Tournament) -> None:
    page = browser(None).get(f"/tournaments/{played.pk}/standings/")

    rows = standings_of(played)["rows"]
    lines = re.findall(
        r'<tr class="why"><td></td><td colspan="\d+" class="muted">(.*?)</td></tr>', page.content.decode()
    )
    assert len(lines) == len(rows) - 1
    for line, above, below in zip(lines, rows, rows[1:], strict=False):
        # In English the page's sentence, built again from the facts, is the one the standings keep.
        assert line.replace("&#x27;", "'") == below["why_above"]["text"]
        assert line.startswith(f"{above['name']} above {below['name']}: ")


def test_the_why_above_sentence_is_built_from_the_facts() -> None:
    why = {"key": "average_rank", "above": "3/2", "below": 2, "equal_on": [["total", 24], ["tables_won", 2]]}
    assert display.why_above("Anna", "Bruno", why) == (
        "Anna above Bruno: equal on total 24, tables won 2; average rank 1.5 against 2"
    )
    lot = {"key": "lot", "above": 9, "below": 4, "equal_on": [["total", 6]]}
    assert display.why_above("Carla", "Dario", lot) == (
        "Carla above Dario: equal on total 6; drawn by lot, 9 against 4"
    )
    close = {"key": "average_rank", "above": "19/18", "below": "17/16", "equal_on": []}
    assert display.why_above("Anna", "Bruno", close) == "Anna above Bruno: average rank 1.056 against 1.063"


def test_the_page_says_which_tables_it_includes_and_how_fresh_it_is(played: Tournament) -> None:
    shown = text(browser(None).get(f"/tournaments/{played.pk}/standings/"))

    assert "Includes every game up to" in shown
    assert "Round 1 (Sicilian Tarocchi (3 players)): tables 1, 2 counted; table 3 abandoned." in shown
    assert "Round 1, table 3 was abandoned (the lights went out): it counts nothing." in shown


def test_a_table_still_in_play_is_named_as_not_yet_counted(club: Club) -> None:
    t = tournament(club, published=True)
    open_round(t, club.director)

    shown = text(browser(None).get(f"/tournaments/{t.pk}/standings/"))

    assert "no table counted yet; tables 1, 2, 3 still in play." in shown


def test_a_finished_table_whose_update_is_pending_is_said_finished_and_waiting_to_be_counted(
    club: Club, django_capture_on_commit_callbacks: Any
) -> None:
    """The worker is down: the match finished, its update is queued but not run."""
    t = tournament(club, published=True)
    rnd = open_round(t, club.director)
    tables = list(rnd.tables.select_related("match").order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        finish_match(tables[0].match, seed=1)
    with django_capture_on_commit_callbacks(execute=False):  # the update never reaches a worker
        finish_match(tables[1].match, seed=2)

    shown = text(browser(None).get(f"/tournaments/{t.pk}/standings/"))

    assert "table 1 counted; table 2 finished, waiting to be counted; table 3 still in play." in shown
    shown = text(Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/tournaments/{t.pk}/standings/"))
    assert "tavolo 2 finito, in attesa di essere conteggiato" in shown


def test_the_printed_standings_carry_the_log_position_and_its_hash(played: Tournament) -> None:
    page = browser(None).get(f"/tournaments/{played.pk}/standings/")

    position = Standings.objects.get(tournament=played).position
    expected = chain.short(bytes(StoredEvent.objects.get(position=position).log_hash))
    assert position > 0
    assert f"Includes the event log up to position {position}, log hash {expected}" in text(page)
    assert f'<code class="hash" data-log-hash>{expected}</code>' in page.content.decode()


def test_standings_with_nothing_included_say_so(club: Club) -> None:
    t = tournament(club, published=True)

    shown = text(browser(None).get(f"/tournaments/{t.pk}/standings/"))

    assert "Nothing from the event log is included yet." in shown and "No game finished yet." in shown


def test_the_standings_link_to_the_players_and_to_the_exports(played: Tournament) -> None:
    client = browser(None)
    body = client.get(f"/tournaments/{played.pk}/standings/").content.decode()

    for row in standings_of(played)["rows"]:
        assert f'<a href="/players/{row["player"]}/">{row["name"]}</a>' in body
    csv = f"/api/tournaments/{played.pk}/standings/export/?format=csv"
    assert f'href="{csv}"' in body and "format=json" in body
    assert client.get(csv).status_code == 200


def test_the_standings_print_on_a4_without_navigation_or_buttons(played: Tournament) -> None:
    body = browser(None).get(f"/tournaments/{played.pk}/standings/").content.decode()
    css = CSS.read_text()

    assert "tournaments/tournaments.css" in body
    printed = css[css.index("@media print") :]
    assert "size: A4" in printed
    assert re.search(r"header\.site[^{]*\.actions[^{]*\.no-print[^{]*form, button \{ display: none", printed)
    assert 'class="no-print actions"' in body  # the export links are not printed


def test_unpublished_standings_are_for_the_club_only(club: Club) -> None:
    t = tournament(club)
    page = f"/tournaments/{t.pk}/standings/"

    assert browser(None).get(page)["Location"].startswith("/accounts/login/")
    assert browser(club.people.outsider).get(page).status_code == 403
    assert browser(club.people.member).get(page).status_code == 200


# ---- the live board ----------------------------------------------------------------------------------
def test_the_live_board_shows_the_round_and_the_top_of_the_standings(played: Tournament) -> None:
    client = browser(None)
    page = client.get(f"/tournaments/{played.pk}/live/")
    board = client.get(f"/tournaments/{played.pk}/live/board/")

    body = page.content.decode()
    assert page.status_code == board.status_code == 200
    assert "tournaments/live.css" in body  # large type, no navigation
    assert (
        f'data-refresh-url="/tournaments/{played.pk}/live/board/"' in body
        and 'data-refresh-seconds="15"' in body
    )
    assert '<meta http-equiv="refresh"' in body  # without JavaScript, inside <noscript>
    fragment = board.content.decode()
    assert "<html" not in fragment and "<header" not in fragment
    shown = text(board)
    assert "Round 1 · Sicilian Tarocchi (3 players)" in shown and "2 of 3 tables finished" in shown
    rows = standings_of(played)["rows"]
    assert all(r["name"] in shown for r in rows)  # nine players: all in the top ten
    assert "total" in shown and "tables won" in shown and "average rank" in shown


def test_the_live_board_shows_ten_rows_and_says_how_many_more() -> None:
    club = club_with_players(12)
    t = tournament(club, published=True)

    shown = text(browser(None).get(f"/tournaments/{t.pk}/live/board/"))

    assert "and 2 more players" in shown and "No round yet." in shown


def test_the_live_board_is_read_where_the_standings_are(club: Club) -> None:
    t = tournament(club)

    for path in ("live/", "live/board/"):
        assert browser(None).get(f"/tournaments/{t.pk}/{path}").status_code == 302
        assert browser(club.people.outsider).get(f"/tournaments/{t.pk}/{path}").status_code == 403
        assert browser(club.people.member).get(f"/tournaments/{t.pk}/{path}").status_code == 200


# ---- links -------------------------------------------------------------------------------------------
def test_home_and_the_list_link_to_each_tournament_page(club: Club) -> None:
    t = tournament(club, published=True)
    director: Client = browser(club.director)

    for page in ("/", "/tournaments/"):
        body = director.get(page).content.decode()
        for target in ("", "standings/", "live/"):
            assert f'href="/tournaments/{t.pk}/{target}"' in body, (page, target)
        assert f'href="/clubs/{club.people.club.pk}/tournaments/new/"' in body
        assert "/tournaments/new/" not in browser(club.people.member).get(page).content.decode()
    home = browser(None).get("/").content.decode()
    assert f'href="/players/{club.players[0].pk}/"' in home


def test_values_are_written_in_the_reader_s_notation() -> None:
    with translation.override("it"):
        assert (
            display.number("3/2") == "1,5" and display.number("22/3") == "7,33" and display.number(-4) == "-4"
        )
    with translation.override("en"):
        assert display.number("3/2") == "1.5" and display.number(None) == "–"


@pytest.mark.parametrize("language", ["it", "fr"])
def test_every_page_renders_in_each_language(played: Tournament, club: Club, language: str) -> None:
    client = browser(club.director)
    pages = [
        "/",
        "/tournaments/",
        f"/clubs/{club.people.club.pk}/tournaments/new/",
        f"/tournaments/{played.pk}/",
        f"/tournaments/{played.pk}/settings/",
        f"/tournaments/{played.pk}/rounds/1/",
        f"/tournaments/{played.pk}/rounds/1/progress/",
        f"/tournaments/{played.pk}/standings/",
        f"/tournaments/{played.pk}/live/",
        f"/tournaments/{played.pk}/live/board/",
        f"/players/{club.players[0].pk}/",
    ]
    for page in pages:
        response = client.get(page, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, page
        assert response.headers["Content-Language"] == language
