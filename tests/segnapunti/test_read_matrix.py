"""Who reads what (issue 25, item 5): every read of the site, page or API, for every persona.

The world: a club with a published tournament and, played after it, an unpublished one, both finished
and rated. Personas: anonymous, a player of the club (a member whose user is one of its players), the
scorer of the evening, the club's director, and the director of another club. The club's people read
everything of their club; the others read the published tournament and never the unpublished one: not
its pages, not its matches, not its name in a list, and not the rating changes its matches made (the
player's ratings and chart, and the ratings column of the published standings, stand where the
published matches left them).

Every route of the site is listed here, as a read (with the address it is read at) or as a write: a
route added without saying which fails the first test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.models import Player
from scoring.models import Match
from tests.scoring.api_support import Role, client_for
from tests.scoring.factories import ClubFactory, member
from tests.tournaments.support import (
    Club,
    close_round,
    club_with_players,
    finish_round,
    open_round,
    tournament,
)
from tournaments import services
from tournaments.models import RatingHistory, Tournament

SECRET = "Torneo Segreto"
PERSONAS = ("anonymous", "player", "scorer", "director", "other_club")
INSIDERS = {"player", "scorer", "director"}

# A read: how its address is built from the world, and what it is about: "public" (anyone reads it, and
# nothing of the unpublished tournament may show in it), "hidden" (the unpublished tournament or one of
# its matches: its club's people read it, nobody else), "director" (a director's form: only he).
READS: dict[str, tuple[str, str]] = {
    # pages
    "": ("/", "public"),
    "tournaments/": ("/tournaments/", "public"),
    "clubs/<id:club_id>/tournaments/new/": ("/clubs/{club}/tournaments/new/", "director"),
    "tournaments/<id:tournament_id>/": ("/tournaments/{t}/", "hidden"),
    "tournaments/<id:tournament_id>/settings/": ("/tournaments/{t}/settings/", "director"),
    "tournaments/<id:tournament_id>/rounds/<id:number>/": ("/tournaments/{t}/rounds/1/", "hidden"),
    "tournaments/<id:tournament_id>/rounds/<id:number>/progress/": (
        "/tournaments/{t}/rounds/1/progress/",
        "hidden",
    ),
    "tournaments/<id:tournament_id>/standings/": ("/tournaments/{t}/standings/", "hidden"),
    "tournaments/<id:tournament_id>/live/": ("/tournaments/{t}/live/", "hidden"),
    "tournaments/<id:tournament_id>/live/board/": ("/tournaments/{t}/live/board/", "hidden"),
    "players/<id:player_id>/": ("/players/{player}/", "public"),
    "accounts/login/": ("/accounts/login/", "public"),
    "clubs/": ("/clubs/", "public"),
    "clubs/<id:club_id>/matches/": ("/clubs/{club}/matches/", "public"),
    "clubs/<id:club_id>/matches/new/": ("/clubs/{club}/matches/new/", "staff"),
    "matches/sw.js": ("/matches/sw.js", "public"),
    "matches/<id:match_id>/": ("/matches/{m}/", "hidden"),
    "matches/<id:match_id>/hands/<id:number>/": ("/matches/{m}/hands/1/", "hidden"),
    "matches/<id:match_id>/hands/<id:number>/version/": ("/matches/{m}/hands/1/version/", "hidden"),
    "matches/<id:match_id>/hands/<id:number>/replay/": ("/matches/{m}/hands/1/replay/", "hidden"),
    "matches/<id:match_id>/hands/<id:number>/ruling/": ("/matches/{m}/hands/1/ruling/", "director"),
    # the API
    "api/games/": ("/api/games/", "public"),
    "api/matches/": ("/api/matches/", "public"),
    "api/matches/<id:match_id>/": ("/api/matches/{m}/", "hidden"),
    "api/matches/<id:match_id>/sheet/": ("/api/matches/{m}/sheet/", "hidden"),
    "api/matches/<id:match_id>/record/": ("/api/matches/{m}/record/", "hidden"),
    "api/matches/<id:match_id>/hands/<id:number>/claim/": ("/api/matches/{m}/hands/1/claim/", "hidden"),
    "matches/<id:match_id>/compare/": ("/matches/{m}/compare/", "hidden"),
    "tournaments/<id:tournament_id>/events/": ("/tournaments/{t}/events/", "hidden"),
    "tournaments/<id:tournament_id>/rounds/opening/": ("/tournaments/{t}/rounds/opening/", "director"),
    "api/matches/<id:match_id>/hands/": ("/api/matches/{m}/hands/", "hidden"),
    "api/matches/<id:match_id>/hands/<id:number>/": ("/api/matches/{m}/hands/1/", "hidden"),
    "api/matches/<id:match_id>/hands/<id:number>/replay/<id:step>/": (
        "/api/matches/{m}/hands/1/replay/1/",
        "hidden",
    ),
    "api/matches/<id:match_id>/hands/<id:number>/rulings/": ("/api/matches/{m}/hands/1/rulings/", "hidden"),
    "api/matches/<id:match_id>/hands/<id:number>/audit/": ("/api/matches/{m}/hands/1/audit/", "hidden"),
    "api/matches/<id:match_id>/hands/<id:number>/record/": ("/api/matches/{m}/hands/1/record/", "hidden"),
    "api/tournaments/": ("/api/tournaments/", "public"),
    "api/tournaments/<id:tournament_id>/": ("/api/tournaments/{t}/", "hidden"),
    "api/tournaments/<id:tournament_id>/events/": ("/api/tournaments/{t}/events/", "hidden"),
    "api/tournaments/<id:tournament_id>/registrations/": ("/api/tournaments/{t}/registrations/", "hidden"),
    "api/tournaments/<id:tournament_id>/rounds/": ("/api/tournaments/{t}/rounds/", "hidden"),
    "api/tournaments/<id:tournament_id>/rounds/<id:number>/": ("/api/tournaments/{t}/rounds/1/", "hidden"),
    "api/tournaments/<id:tournament_id>/standings/": ("/api/tournaments/{t}/standings/", "hidden"),
    "api/tournaments/<id:tournament_id>/standings/export/": (
        "/api/tournaments/{t}/standings/export/",
        "hidden",
    ),
    "api/standings/": ("/api/standings/", "public"),
    "api/players/<id:player_id>/ratings/": ("/api/players/{player}/ratings/", "public"),
    "api/schema/": ("/api/schema/", "public"),
    "api/docs/": ("/api/docs/", "public"),
}
# Routes that read nothing: writes (a form's post, an API operation without GET) and the site's plumbing.
WRITES = {
    "tournaments/<id:tournament_id>/publish/",
    "tournaments/<id:tournament_id>/registrations/",
    "tournaments/<id:tournament_id>/registrations/new-player/",
    "tournaments/<id:tournament_id>/registrations/<id:player_id>/withdraw/",
    "tournaments/<id:tournament_id>/rounds/",
    "tournaments/<id:tournament_id>/rounds/<id:number>/close/",
    "tournaments/<id:tournament_id>/rounds/<id:number>/abandon/",
    "i18n/setlang/",
    "accounts/logout/",
    "matches/<id:match_id>/next-hand/",
    "matches/<id:match_id>/hands/<id:number>/move/",
    "matches/<id:match_id>/hands/<id:number>/undo/",
    "api/auth/token/",
    "api/matches/<id:match_id>/hands/<id:number>/moves/",
    "api/matches/<id:match_id>/hands/<id:number>/moves/queue/",
    "api/matches/<id:match_id>/hands/<id:number>/undo/",
    "api/matches/<id:match_id>/hands/<id:number>/rulings/preview/",
    "api/records/import/",
    "api/records/check/",
    "api/tournaments/<id:tournament_id>/publish/",
    "api/tournaments/<id:tournament_id>/registrations/<id:player_id>/withdraw/",
    "api/tournaments/<id:tournament_id>/rounds/<id:number>/close/",
    "api/tournaments/<id:tournament_id>/rounds/<id:number>/tables/<id:table>/abandon/",
    "api/tournaments/<id:tournament_id>/standings/rebuild/",
    "tournaments/<id:tournament_id>/registrations/new-guest/",
    # What-ifs are reads sent as POST (their options in the body): who may ask is the match's or the
    # tournament's readers (tests/scoring/api/test_whatif_api.py, tests/tournaments/test_whatif.py).
    "api/matches/<id:match_id>/whatif/",
    "api/tournaments/<id:tournament_id>/standings/whatif/",
    "favicon.ico",  # a redirect to the static icon
}
# What a reader who may read gets where it is not 200: the claim of a hand that has none (422, the
# hand's own answer).
ANSWERED = {"/api/matches/{m}/hands/1/claim/": 422}


def routes() -> set[str]:
    def walk(patterns: list[Any], prefix: str) -> Any:
        for p in patterns:
            if isinstance(p, URLResolver):
                if not str(p.pattern).startswith("admin/"):
                    yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern)

    return set(walk(get_resolver().url_patterns, ""))


def test_every_route_is_in_the_matrix_as_a_read_or_a_write() -> None:
    assert routes() == set(READS) | WRITES
    assert not set(READS) & WRITES


# ---- the world -------------------------------------------------------------------------------------------
@dataclass
class World:
    club: Club
    player: Player  # the player persona's own player
    users: dict[str, User | None]
    published: Tournament
    hidden: Tournament
    published_matches: set[int]
    hidden_matches: set[int]

    def ids(self, t: Tournament) -> dict[str, int]:
        match = Match.objects.filter(tournament_table__round__tournament=t).order_by("pk").first()
        assert match is not None
        return {"club": self.club.people.club.pk, "t": t.pk, "m": match.pk, "player": self.player.pk}


def played(club: Club, name: str, publish: bool, seed: int) -> Tournament:
    t = tournament(club, name=name)
    rnd = open_round(t, club.director)
    finish_round(rnd, seed=seed)
    close_round(t, rnd, club.director)
    if publish:
        t.refresh_from_db()
        services.standings_publish(
            tournament=t, published=True, expected_version=t.version, actor=club.director
        )
    t.refresh_from_db()
    return t


@pytest.fixture
def world(db: Any, django_capture_on_commit_callbacks: Any) -> World:
    club = club_with_players(3)
    player = club.players[0]
    player.user = club.people.member
    player.save()
    other = ClubFactory(name="Altro circolo")
    with django_capture_on_commit_callbacks(execute=True):
        published = played(club, "Torneo Pubblico", publish=True, seed=1)
    with django_capture_on_commit_callbacks(execute=True):
        hidden = played(club, SECRET, publish=False, seed=2)

    def matches(t: Tournament) -> set[int]:
        return set(Match.objects.filter(tournament_table__round__tournament=t).values_list("pk", flat=True))

    world = World(
        club=club,
        player=player,
        users={
            "anonymous": None,
            "player": club.people.member,
            "scorer": club.people.scorer,
            "director": club.director,
            "other_club": member(other, Role.DIRECTOR, username="oscar"),
        },
        published=published,
        hidden=hidden,
        published_matches=matches(published),
        hidden_matches=matches(hidden),
    )
    # Both tournaments were rated: the player has a rating change from each.
    rated = set(RatingHistory.objects.filter(player=player).values_list("match_id", flat=True))
    assert rated & world.published_matches and rated & world.hidden_matches
    return world


def reader(world: World, persona: str, path: str) -> Client:
    user = world.users[persona]
    if path.startswith("/api/"):
        return client_for(user)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


REFUSED = {302, 401, 403, 404}


def expected(scope: str, persona: str, hidden: bool) -> str:
    """'read' (200), 'refused' (sign in, 401, 403 or 404)."""
    if scope == "director":
        return "read" if persona == "director" else "refused"
    if scope == "staff":
        return "read" if persona in ("scorer", "director") else "refused"
    if scope == "hidden" and hidden:
        return "read" if persona in INSIDERS else "refused"
    return "read"


@pytest.mark.parametrize("persona", PERSONAS)
def test_each_persona_reads_what_its_role_allows_and_nothing_unpublished_leaks(
    world: World, persona: str
) -> None:
    wrong = []
    for address, scope in READS.values():
        for t, is_hidden in ((world.hidden, True), (world.published, False)):
            if scope == "public" and is_hidden:
                continue  # a public read's address names no tournament: read once
            path = address.format(**world.ids(t))
            response = reader(world, persona, path).get(path)
            want = expected(scope, persona, is_hidden)
            body = response.content.decode(errors="replace") if response.status_code == 200 else ""
            answer = ANSWERED.get(address, 200)
            if want == "read" and response.status_code != answer:
                wrong.append(f"{path}: {response.status_code}, expected {answer}")
            if want == "refused" and response.status_code not in REFUSED:
                wrong.append(f"{path}: {response.status_code}, expected a refusal")
            if persona not in INSIDERS and SECRET in body:
                wrong.append(f"{path}: shows {SECRET!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("persona", PERSONAS)
def test_ratings_count_only_the_matches_the_reader_may_see(world: World, persona: str) -> None:
    path = f"/api/players/{world.player.pk}/ratings/"
    games = reader(world, persona, path).get(path).json()["games"]

    seen = {h["match"] for g in games.values() for h in g["history"]}
    if persona in INSIDERS:
        assert seen & world.hidden_matches
    else:
        assert seen and seen <= world.published_matches
        # The rating shown is the one after the last published match, not the one the hidden match made.
        last = RatingHistory.objects.filter(player=world.player, match_id__in=world.published_matches).latest(
            "match_id"
        )
        assert games[last.game]["mu"] == round(last.mu, 4)
        assert games[last.game]["matches"] == len(seen)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_published_standings_ratings_do_not_move_with_unpublished_matches(
    world: World, persona: str
) -> None:
    path = f"/api/tournaments/{world.published.pk}/standings/"
    rows = reader(world, persona, path).get(path).json()["rows"]
    mine = next(r for r in rows if r["player"] == world.player.pk)["ratings"]

    matches = {game: rating["matches"] for game, rating in mine.items()}
    assert matches == {"tarocchi": 2 if persona in INSIDERS else 1}


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_player_pages_chart_shows_only_the_matches_the_reader_may_see(world: World, persona: str) -> None:
    path = f"/players/{world.player.pk}/"
    page = reader(world, persona, path).get(path).content.decode()

    if persona in INSIDERS:
        assert "over 2 rated matches" in page
    else:
        assert "over 1 rated match." in page and "over 2 rated matches" not in page
