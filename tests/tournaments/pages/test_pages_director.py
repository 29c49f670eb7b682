"""The director's night through the pages: set up a tournament, register the players as they arrive, open
a round and watch its tables, abandon one, close the round, publish, change the settings. Each form's
happy path answers with a redirect to the page that shows its result; each refusal comes back on the
page, on the field it names, with nothing written; a form posted against a tournament changed since it
was drawn says so (409), and of two directors opening the same round one wins and the other is told.

Personas: the club's director, a scorer, a member, an outsider (signed in, no role at the club) and an
anonymous visitor.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from clubs.models import Player
from scoring import services as scoring_services
from scoring.models import Hand
from scoring.rules import get_game, move_to_dict
from tests.form_values import form_values
from tests.scoring.api_support import first_irregular, play, service_record
from tests.scoring.factories import ClubFactory, PlayerFactory
from tests.tournaments.page_support import browser, follow, log_size, text
from tests.tournaments.support import Club, club_with_players, finish_match, open_round, tournament
from tournaments import services
from tournaments.models import Registration, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_with_players(9)


@pytest.fixture
def director(club: Club) -> Client:
    return browser(club.director)


def fresh(t: Tournament) -> int:
    t.refresh_from_db()
    return t.version


def url(t: Tournament, rest: str = "") -> str:
    return f"/tournaments/{t.pk}/{rest}"


# ---- a new tournament --------------------------------------------------------------------------------
NEW = {
    "name": "Torneo di primavera",
    "kind": "tournament",
    "games": ["barbu"],
    "scoring": "natural",
    "tiebreaks": ["total", "head_to_head", "", "tables_won", ""],
    "sit_out_score": "0",
    "rounds_planned": "4",
}


def test_a_director_sets_up_a_tournament_and_lands_on_its_page(club: Club, director: Client) -> None:
    form = director.get(f"/clubs/{club.people.club.pk}/tournaments/new/")
    assert form.status_code == 200
    assert "Tie-breaks, in order" in text(form) and "head-to-head" in text(form)
    assert "sandro" in text(form)  # the club's scorer, offered for the evening

    response = director.post(
        f"/clubs/{club.people.club.pk}/tournaments/new/", {**NEW, "scorers": [club.people.scorer.pk]}
    )
    page = follow(director, response)

    t = Tournament.objects.get()
    assert response["Location"] == url(t)
    assert (t.name, t.games, t.rounds_planned, t.director) == (
        "Torneo di primavera",
        ["barbu"],
        4,
        club.director,
    )
    assert t.tiebreaks == ["total", "head_to_head", "tables_won"]  # in the order chosen, blanks skipped
    assert list(t.scorers.all()) == [club.people.scorer]
    shown = text(page)
    assert "Torneo di primavera is set up" in shown
    assert "Barbù" in shown and "total, head-to-head, tables won, lot" in shown
    assert "the game's own total" in shown and "natural" not in shown and "head_to_head" not in shown


def test_no_tie_breaks_chosen_means_the_game_s_usual_order(club: Club, director: Client) -> None:
    director.post(
        f"/clubs/{club.people.club.pk}/tournaments/new/", {**NEW, "games": ["tressette"], "tiebreaks": []}
    )

    assert Tournament.objects.get().tiebreaks[:2] == ["total", "points"]


@pytest.mark.parametrize(
    ("change", "field", "message", "status"),
    [
        ({"games": ["barbu", "tarocchi"]}, "scoring", "cannot be added up across different games", 422),
        ({"tiebreaks": ["total", "total"]}, "tiebreaks", "Each criterion may appear once", 400),
        ({"sit_out_score": "six"}, "sit_out_score", "a whole number or a fraction", 400),
        ({"rounds_planned": "120"}, "rounds_planned", "from 1 to 99", 400),
        ({"name": ""}, "name", "This field is required", 400),
        ({"games": []}, "games", "This field is required", 400),
    ],
)
def test_a_refused_setup_names_the_field_and_writes_nothing(
    club: Club, director: Client, change: dict[str, Any], field: str, message: str, status: int
) -> None:
    before = log_size()

    response = director.post(f"/clubs/{club.people.club.pk}/tournaments/new/", {**NEW, **change})

    assert response.status_code == status
    assert message in response.context["form"].errors[field][0]
    assert message in text(response)
    assert f'id="{field}-errors"' in response.content.decode()
    assert not Tournament.objects.exists() and log_size() == before
    assert 'value="Torneo di primavera"' in response.content.decode() or change.get("name") == ""


def test_a_game_s_options_are_set_with_the_tournament_and_its_tables_play_by_them(
    club: Club, director: Client
) -> None:
    """The form carries every game's options at their defaults; only the ticked game's are read (a
    nonsense value typed for a game not played is neither kept nor refused), and the tables of a
    round are opened with them."""
    page = f"/clubs/{club.people.club.pk}/tournaments/new/"
    form = director.get(page)
    assert "highest offer" in text(form) and "points to win" in text(form)
    fields = {k: v for k, v in form_values(form.content.decode()).items() if k.startswith("opt_")}
    assert fields["opt_tressette__target"] == "31" and fields["opt_tarocchi__max_offer"] == ""

    fields.update({"opt_tressette__target": "21", "opt_tarocchi__deals": "many"})
    response = director.post(page, {**NEW, **fields, "games": ["tressette"], "scoring": "natural"})
    follow(director, response)

    t = Tournament.objects.get()
    assert t.game_options == {"tressette": {"target": 21}}
    for player in club.players:
        t.refresh_from_db()
        services.player_register(tournament=t, player=player, expected_version=t.version, actor=club.director)
    rnd = open_round(t, club.director)
    assert {table.match.options["target"] for table in rnd.tables.select_related("match")} == {21}


def test_a_ticked_game_s_option_out_of_range_is_refused_on_its_field(club: Club, director: Client) -> None:
    before = log_size()

    response = director.post(
        f"/clubs/{club.people.club.pk}/tournaments/new/",
        {**NEW, "games": ["tarocchi"], "opt_tarocchi__max_offer": "0"},
    )

    assert response.status_code == 400
    assert "opt_tarocchi__max_offer" in response.context["form"].errors
    assert 'id="opt_tarocchi__max_offer-errors"' in response.content.decode()
    assert '<details open class="invalid" data-game="tarocchi">' in response.content.decode()
    assert not Tournament.objects.exists() and log_size() == before


def test_only_a_director_of_the_club_sets_up_a_tournament(club: Club) -> None:
    page = f"/clubs/{club.people.club.pk}/tournaments/new/"
    for user in (club.people.member, club.people.scorer, club.people.outsider):
        assert browser(user).get(page).status_code == 403
        assert browser(user).post(page, NEW).status_code == 403
    anonymous = browser(None).get(page)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/?next=")
    assert not Tournament.objects.exists()
    other = ClubFactory()
    assert browser(club.director).get(f"/clubs/{other.pk}/tournaments/new/").status_code == 403


# ---- the tournament's page: registrations ------------------------------------------------------------
@pytest.fixture
def empty(club: Club) -> Tournament:
    """A tournament with nobody registered yet."""
    return tournament(club.__class__(club.people, []), games=("tarocchi",))


def test_the_tournament_page_shows_the_forms_to_its_director_only(club: Club, empty: Tournament) -> None:
    mine = browser(club.director).get(url(empty))
    theirs = browser(club.people.member).get(url(empty))

    assert mine.status_code == theirs.status_code == 200
    assert f'action="/tournaments/{empty.pk}/registrations/"' in mine.content.decode()
    assert "registrations/" not in theirs.content.decode() and "Open round" not in text(theirs)
    assert browser(club.people.outsider).get(url(empty)).status_code == 403
    assert browser(None).get(url(empty))["Location"].startswith("/accounts/login/")


def test_players_are_registered_as_they_arrive(club: Club, director: Client, empty: Tournament) -> None:
    anna = club.players[0]
    page = director.get(url(empty))
    assert f'name="player" value="{anna.pk}"' in page.content.decode()

    response = director.post(
        url(empty, "registrations/"), {"expected_version": fresh(empty), "player": anna.pk}
    )
    after = follow(director, response)

    assert Registration.objects.filter(tournament=empty, player=anna, guest=False).exists()
    assert "Anna registered." in text(after)
    assert f'name="player" value="{anna.pk}"' not in after.content.decode()  # offered no more
    assert "1 player registered" in text(after)


def test_a_walk_in_joins_the_club_and_is_registered_in_one_step(
    club: Club, director: Client, empty: Tournament
) -> None:
    response = director.post(
        url(empty, "registrations/new-player/"),
        {"join-expected_version": fresh(empty), "join-name": " Zeno "},
    )
    after = follow(director, response)

    zeno = Player.objects.get(club=empty.club, name="Zeno")
    assert Registration.objects.filter(tournament=empty, player=zeno, guest=False).exists()
    assert "Zeno joined the club and is registered." in text(after)


def test_a_walk_in_with_a_name_the_club_has_is_refused_and_nothing_is_written(
    club: Club, director: Client, empty: Tournament
) -> None:
    players, before = Player.objects.count(), log_size()

    response = director.post(
        url(empty, "registrations/new-player/"),
        {"join-expected_version": fresh(empty), "join-name": club.players[0].name.upper()},
    )

    assert response.status_code == 422
    assert "is already a player of the club" in response.context["join_form"].errors["name"][0]
    assert Player.objects.count() == players and log_size() == before


def test_a_walk_in_on_a_stale_page_adds_nobody(club: Club, director: Client, empty: Tournament) -> None:
    players = Player.objects.count()

    response = director.post(
        url(empty, "registrations/new-player/"),
        {"join-expected_version": fresh(empty) + 1, "join-name": "Zeno"},
    )

    assert response.status_code == 409
    assert Player.objects.count() == players


def test_registering_twice_is_refused_on_the_player_field(
    club: Club, director: Client, empty: Tournament
) -> None:
    anna = club.players[0]
    director.post(url(empty, "registrations/"), {"expected_version": fresh(empty), "player": anna.pk})
    before = log_size()

    response = director.post(
        url(empty, "registrations/"), {"expected_version": fresh(empty), "player": anna.pk}
    )

    assert response.status_code == 422
    assert response.context["register_form"].errors["player"] == ["Anna is already registered."]
    assert log_size() == before


def test_a_guest_from_another_club_is_registered_as_a_guest(
    club: Club, director: Client, empty: Tournament
) -> None:
    guest = PlayerFactory(name="Ospite", club=ClubFactory(name="Circolo di Modena"))
    page = director.get(url(empty)).content.decode()
    assert '<optgroup label="Circolo di Modena">' in page

    refused = director.post(
        url(empty, "registrations/"), {"expected_version": fresh(empty), "player": guest.pk}
    )
    assert refused.status_code == 422
    assert "Ospite plays for another club: register them as a guest." in text(refused)
    assert not Registration.objects.filter(player=guest).exists()

    response = director.post(
        url(empty, "registrations/"), {"guest-expected_version": fresh(empty), "guest-player": guest.pk}
    )
    after = follow(director, response)
    assert Registration.objects.get(player=guest).guest
    assert "Ospite registered as a guest." in text(after) and "(guest)" in text(after)


def test_a_withdrawal_needs_a_reason(club: Club, director: Client) -> None:
    t = tournament(club)
    anna = club.players[0]
    before = log_size()

    refused = director.post(
        url(t, f"registrations/{anna.pk}/withdraw/"), {"expected_version": fresh(t), "reason": ""}
    )

    assert refused.status_code == 422
    assert refused.context["withdraw_form"].errors["reason"] == ["A withdrawal needs a reason."]
    assert "<details open>" in refused.content.decode()
    assert Registration.objects.get(tournament=t, player=anna).active and log_size() == before

    response = director.post(
        url(t, f"registrations/{anna.pk}/withdraw/"), {"expected_version": fresh(t), "reason": "unwell"}
    )
    after = follow(director, response)
    assert not Registration.objects.get(tournament=t, player=anna).active
    assert "Anna is withdrawn" in text(after) and "withdrawn" in text(after)


def test_a_member_cannot_register_and_anonymous_is_asked_to_sign_in(club: Club, empty: Tournament) -> None:
    data = {"expected_version": fresh(empty), "player": club.players[0].pk}

    assert browser(club.people.member).post(url(empty, "registrations/"), data).status_code == 403
    anonymous = browser(None).post(url(empty, "registrations/"), data)
    assert anonymous.status_code == 302 and anonymous["Location"] == f"/accounts/login/?next={url(empty)}"
    assert not Registration.objects.exists()


def test_a_form_posted_against_a_changed_tournament_says_so_and_writes_nothing(
    club: Club, director: Client, empty: Tournament
) -> None:
    stale = fresh(empty)
    director.post(url(empty, "registrations/"), {"expected_version": stale, "player": club.players[0].pk})
    before = log_size()

    response = director.post(
        url(empty, "registrations/"), {"expected_version": stale, "player": club.players[1].pk}
    )

    assert response.status_code == 409
    assert "Someone else changed this tournament meanwhile" in text(response)
    assert "nothing was written" in text(response)
    assert log_size() == before and Registration.objects.count() == 1
    # The page drawn again carries the version as it is now: sent again, it goes through.
    assert f'name="expected_version" value="{fresh(empty)}"' in response.content.decode()


# ---- rounds ------------------------------------------------------------------------------------------
def test_opening_a_round_seats_the_tables_and_shows_them(club: Club, director: Client) -> None:
    t = tournament(club)

    response = director.post(url(t, "rounds/"), {"expected_version": fresh(t)})
    page = follow(director, response)

    rnd = Round.objects.get(tournament=t)
    assert response["Location"] == url(t, "rounds/1/")
    shown = text(page)
    assert "Round 1 is open: 3 tables are seated." in shown
    for table in rnd.tables.select_related("match"):
        assert f"Table {table.number}" in shown
        assert f'href="/matches/{table.match_id}/hands/1/"' in page.content.decode()
        assert f'href="/matches/{table.match_id}/"' in page.content.decode()
    for player in club.players:
        assert player.name in shown
    assert "0 of 1 hand played" in shown  # Tarocchi of one deal: the planned hands are the deals agreed
    assert "3 in play" in shown and "in_play" not in shown


def test_two_directors_open_the_same_round_one_wins_the_other_is_told(club: Club) -> None:
    t = tournament(club)
    other = browser(club.director)
    mine = browser(club.director)
    seen = fresh(t)  # both pages were drawn at this version

    first = mine.post(url(t, "rounds/"), {"expected_version": seen})
    second = other.post(url(t, "rounds/"), {"expected_version": seen})

    assert first.status_code == second.status_code == 302
    assert Round.objects.filter(tournament=t).count() == 1
    page = other.get(second["Location"])
    assert "Round 1 was opened meanwhile by someone else: here it is." in text(page)


def test_a_round_cannot_be_opened_while_one_is_open(club: Club, director: Client) -> None:
    t = tournament(club)
    open_round(t, club.director)
    before = log_size()

    response = director.post(url(t, "rounds/"), {"expected_version": fresh(t)})

    assert response.status_code == 422
    assert "A round is still open" in text(response)
    assert log_size() == before


def test_a_league_of_several_games_asks_for_the_round_s_game(club: Club, director: Client) -> None:
    t = tournament(club, games=("tarocchi", "hombre_it"), scoring="rank_points")
    page = director.get(url(t))
    assert "Game of the round" in text(page) and "Hombre" in text(page)

    refused = director.post(url(t, "rounds/"), {"expected_version": fresh(t), "game": ""})
    assert refused.status_code == 400 and "Choose the game of this round." in text(refused)

    response = director.post(url(t, "rounds/"), {"expected_version": fresh(t), "game": "hombre_it"})
    assert follow(director, response).status_code == 200
    assert Round.objects.get(tournament=t).game == "hombre_it"


def test_closing_a_round_with_a_table_in_play_is_refused_with_the_reason(
    club: Club, director: Client
) -> None:
    t = tournament(club)
    rnd = open_round(t, club.director)
    before = log_size()

    response = director.post(url(t, "rounds/1/close/"), {"expected_version": fresh(t)})

    assert response.status_code == 422
    assert "A table has not finished" in text(response)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.OPEN and log_size() == before


def test_a_table_is_abandoned_with_a_reason_then_the_round_closes(club: Club, director: Client) -> None:
    t = tournament(club)
    rnd = open_round(t, club.director)
    tables = list(rnd.tables.select_related("match").order_by("number"))
    for table in tables[:2]:
        finish_match(table.match, seed=table.number)

    refused = director.post(
        url(t, "rounds/1/abandon/"), {"expected_version": fresh(t), "table": 3, "reason": ""}
    )
    assert refused.status_code == 422
    assert refused.context["abandon_form"].errors["reason"] == [
        "An abandoned table needs the director's reason."
    ]
    finished = director.post(
        url(t, "rounds/1/abandon/"), {"expected_version": fresh(t), "table": 1, "reason": "x"}
    )
    # A conflict: the match finished first (at the same moment, or long before), so it counts as played.
    assert finished.status_code == 409 and "Table 1 has finished its match" in text(finished)

    response = director.post(
        url(t, "rounds/1/abandon/"),
        {"expected_version": fresh(t), "table": 3, "reason": "a player was taken ill"},
    )
    page = follow(director, response)
    assert "Table 3 is recorded as abandoned" in text(page)
    assert "Abandoned: a player was taken ill" in text(page)
    assert "2 finished" in text(page) and "1 abandoned" in text(page)

    closed = director.post(url(t, "rounds/1/close/"), {"expected_version": fresh(t)})
    assert closed["Location"] == url(t)
    after = follow(director, closed)
    assert "Round 1 is closed." in text(after) and "Open round 2" in text(after)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_the_round_page_shows_hands_waiting_for_a_ruling() -> None:
    club = club_with_players(4, tag="-t")
    t = tournament(club, games=("tressette",))
    rnd = open_round(t, club.director)
    table = rnd.tables.select_related("match").get()
    hand = Hand.objects.get(match=table.match, number=1)
    played = play(hand, seed=5)
    found = first_irregular(get_game("tressette"), played.states)
    assert found is not None
    index, irregular, _ = found
    hand = service_record(hand, played.moves[:index])
    scoring_services.move_record(hand=hand, move=move_to_dict(irregular), expected_version=hand.version)

    page = browser(club.director).get(url(t, "rounds/1/"))

    shown = text(page)
    assert "Hand waiting for a ruling: 1" in shown
    assert f'href="/matches/{table.match_id}/hands/1/ruling/"' in page.content.decode()
    names = [p.name for p in club.players]
    assert " against " in shown and all(n in shown for n in names)  # Tressette's pairs, by name


def test_the_round_refreshes_its_progress_by_itself(club: Club, director: Client) -> None:
    t = tournament(club)
    open_round(t, club.director)

    page = director.get(url(t, "rounds/1/")).content.decode()
    fragment = director.get(url(t, "rounds/1/progress/"))

    assert f'data-refresh-url="{url(t, "rounds/1/progress/")}"' in page
    assert "tournaments/refresh.js" in page and 'http-equiv="refresh"' in page  # the latter in <noscript>
    assert fragment.status_code == 200
    assert "<html" not in fragment.content.decode() and "Table 1" in text(fragment)
    assert browser(None).get(url(t, "rounds/1/progress/")).status_code == 302
    assert browser(club.people.outsider).get(url(t, "rounds/1/progress/")).status_code == 403


def test_a_member_reads_a_round_but_cannot_close_it(club: Club) -> None:
    t = tournament(club)
    open_round(t, club.director)
    member = browser(club.people.member)

    page = member.get(url(t, "rounds/1/"))

    assert page.status_code == 200 and "Close round 1" not in text(page)
    assert member.post(url(t, "rounds/1/close/"), {"expected_version": fresh(t)}).status_code == 403
    assert (
        member.post(
            url(t, "rounds/1/abandon/"), {"expected_version": fresh(t), "table": 1, "reason": "x"}
        ).status_code
        == 403
    )
    assert member.post(url(t, "rounds/"), {"expected_version": fresh(t)}).status_code == 403


# ---- publishing and settings -------------------------------------------------------------------------
def test_publishing_opens_the_standings_to_anyone(club: Club, director: Client) -> None:
    t = tournament(club)
    assert browser(None).get(url(t, "standings/")).status_code == 302

    response = director.post(url(t, "publish/"), {"expected_version": fresh(t), "published": "1"})
    page = follow(director, response)

    assert "The standings are published" in text(page)
    assert browser(None).get(url(t, "standings/")).status_code == 200
    back = director.post(url(t, "publish/"), {"expected_version": fresh(t), "published": ""})
    assert "members only again" in text(follow(director, back))
    assert browser(None).get(url(t, "standings/")).status_code == 302


def test_a_stale_publish_is_refused_with_a_message(club: Club, director: Client) -> None:
    t = tournament(club)
    stale = fresh(t)
    director.post(url(t, "publish/"), {"expected_version": stale, "published": "1"})

    response = director.post(url(t, "publish/"), {"expected_version": stale, "published": ""})

    assert response.status_code == 409 and "Someone else changed this tournament" in text(response)
    t.refresh_from_db()
    assert t.published


def test_after_round_1_changing_the_tie_breaks_needs_a_reason(club: Club, director: Client) -> None:
    t = tournament(club)
    open_round(t, club.director)
    settings = director.get(url(t, "settings/"))
    assert "Round 1 has been played" in text(settings)
    data = {
        "expected_version": fresh(t),
        "name": t.name,
        "scoring": t.scoring,
        "tiebreaks": ["total", "best_result"],
        "sit_out_score": t.sit_out_score,
        "rounds_planned": "",
        "reason": "",
    }
    before = log_size()

    refused = director.post(url(t, "settings/"), data)

    assert refused.status_code == 422
    assert "needs a reason" in refused.context["form"].errors["reason"][0]
    assert log_size() == before
    assert 'value="best_result" selected' in refused.content.decode()  # what was chosen is kept

    response = director.post(url(t, "settings/"), {**data, "reason": "agreed at the start of round 2"})
    follow(director, response)
    t.refresh_from_db()
    assert t.tiebreaks == ["total", "best_result"]
    log = text(director.get(url(t, "settings/")))
    assert "tie-breaks: total, best result" in log and "agreed at the start of round 2" in log


def test_a_setting_left_as_it_was_needs_no_reason(club: Club, director: Client) -> None:
    t = tournament(club)
    open_round(t, club.director)
    data = {
        "expected_version": fresh(t),
        "name": "Torneo rinominato",
        "scoring": t.scoring,
        "tiebreaks": [k for k in t.tiebreaks if k != "lot"],
        "sit_out_score": t.sit_out_score,
        "rounds_planned": "",
    }

    follow(director, director.post(url(t, "settings/"), data))

    t.refresh_from_db()
    assert t.name == "Torneo rinominato"


def test_the_scorers_of_the_evening_are_changed_on_the_settings_page(club: Club, director: Client) -> None:
    t = tournament(club)
    rnd = open_round(t, club.director)
    page = director.get(url(t, "settings/"))
    fields = form_values(page.content.decode())
    assert fields["scorers"] == str(club.people.scorer.pk)  # the evening's scorer, ticked

    response = director.post(url(t, "settings/"), {**fields, "scorers": [club.people.other_scorer.pk]})
    follow(director, response)

    assert list(t.scorers.all()) == [club.people.other_scorer]
    for table in rnd.tables.select_related("match"):
        assert list(table.match.scorers.all()) == [club.people.other_scorer]
    assert "scorers of the evening: otto" in text(director.get(url(t, "settings/")))


def test_stale_settings_come_back_with_the_message(club: Club, director: Client) -> None:
    t = tournament(club)
    data = {
        "expected_version": fresh(t) - 1,
        "name": "Altro nome",
        "scoring": t.scoring,
        "sit_out_score": "0",
    }

    response = director.post(url(t, "settings/"), data)

    assert response.status_code == 409 and "Someone else changed this tournament" in text(response)
    assert 'value="Altro nome"' in response.content.decode()
    t.refresh_from_db()
    assert t.name == "Torneo"


def test_only_a_director_changes_the_settings(club: Club) -> None:
    t = tournament(club)
    assert browser(club.people.member).get(url(t, "settings/")).status_code == 403
    assert browser(club.people.scorer).post(url(t, "settings/"), {"name": "x"}).status_code == 403
    assert browser(None).get(url(t, "settings/"))["Location"].startswith("/accounts/login/")


def test_a_stale_abandon_keeps_the_reason_typed_and_a_stale_close_writes_nothing(
    club: Club, director: Client
) -> None:
    t = tournament(club)
    rnd = open_round(t, club.director)
    stale = fresh(t) - 1
    before = log_size()

    abandon = director.post(
        url(t, "rounds/1/abandon/"), {"expected_version": stale, "table": 2, "reason": "gone home"}
    )
    close = director.post(url(t, "rounds/1/close/"), {"expected_version": stale})

    assert abandon.status_code == close.status_code == 409
    assert "Someone else changed this tournament meanwhile" in text(abandon)
    assert 'value="gone home"' in abandon.content.decode()
    assert "Someone else changed this tournament meanwhile" in text(close)
    assert log_size() == before and not rnd.tables.filter(abandoned=True).exists()
