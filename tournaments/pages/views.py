"""Public pages of the tournament half: the home page, the tournaments list, a tournament's printable
standings, the live board for a screen in the club room, and a player's history and ratings. Each page
checks who may read it, calls selectors and renders; :mod:`tournaments.pages.display` words what they return.
The director's pages are in :mod:`tournaments.pages.director`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext, ngettext

from scoring import selectors as scoring_selectors
from tournaments import permissions, selectors
from tournaments.models import Tournament
from tournaments.pages import charts, display
from tournaments.plan import ratings

LIVE_ROWS = 10  # the top of the standings a room screen shows
LIVE_COLUMNS = 3  # and the first criteria
LIVE_SECONDS = 15  # how often the live board and the round page ask for news
HISTORY_PAGE = 50  # matches per page of a player's history


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "home.html",
        {
            "clubs": selectors.club_list(),
            "tournaments": permissions.readable(request.user).order_by("-created_at"),
            "clubs_directed": permissions.clubs_directed(request.user),
        },
    )


def tournament_list(request: HttpRequest) -> HttpResponse:
    found = permissions.readable(request.user).order_by("-created_at")
    return render(
        request,
        "tournaments/list.html",
        {"tournaments": found, "clubs_directed": permissions.clubs_directed(request.user)},
    )


def readable_or_denied(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """None when the user may read the tournament; otherwise the sign-in page for an anonymous visitor
    (a 403 for a signed-in one)."""
    if permissions.can_read(request.user, tournament):
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), reverse("pages:login"))
    raise PermissionDenied(gettext("Only the club's members read this tournament until it is published."))


# ---- standings ---------------------------------------------------------------------------------------
def standings_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_get(tournament_id)
    if (denied := readable_or_denied(request, tournament)) is not None:
        return denied
    data = selectors.standings(tournament, user=request.user)
    keys = [k for k in data["precedence"] if k != "lot"]
    reasons = selectors.abandon_reasons(tournament) if data["notes"] else {}
    columns = display.metric_columns(keys)
    return render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "standings": data,
            "columns": columns,
            "rows": display.standings_rows(data["rows"], keys, data["games"]),
            "span": len(columns) + len(data["games"]) + 3,
            "games": [display.game_titles([g]) for g in data["games"]],
            "order": [display.metric_name(k) for k in data["precedence"]],
            "notes": [display.note_text(n, reasons) for n in data["notes"]],
            "tables": selectors.standings_tables(tournament),
            "log_hash": scoring_selectors.log_hash(data["position"]),
            "can_direct": permissions.can_direct(request.user, tournament),
        },
    )


# ---- the tournament's log ---------------------------------------------------------------------------
def events_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Every decision on the tournament in order (what, who, when and why): the page of the API's
    ``…/events/``, for whoever may read the tournament."""
    tournament = selectors.tournament_get(tournament_id)
    if (denied := readable_or_denied(request, tournament)) is not None:
        return denied
    names = selectors.registered_names(tournament)
    entries = [
        {
            **e,
            "at": datetime.fromisoformat(e["at"]),
            "what": display.audit_line(e, names),
            "reason": e["payload"].get("reason", ""),
        }
        for e in selectors.tournament_audit(tournament)
    ]
    return render(request, "tournaments/events.html", {"tournament": tournament, "entries": entries})


# ---- the live board ----------------------------------------------------------------------------------
def live_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings and the round in play, in large type for a screen in the club room; the page asks
    for its board again every few seconds (a meta refresh without JavaScript)."""
    tournament = selectors.tournament_get(tournament_id)
    if (denied := readable_or_denied(request, tournament)) is not None:
        return denied
    return render(request, "tournaments/live.html", _live(tournament, request.user))


def live_board(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live page's board alone, which its script puts in place of the old one."""
    tournament = selectors.tournament_get(tournament_id)
    if (denied := readable_or_denied(request, tournament)) is not None:
        return denied
    return render(request, "tournaments/_live_board.html", _live(tournament, request.user))


def _live(tournament: Tournament, user: Any) -> dict[str, Any]:
    data = selectors.standings(tournament, user=user)
    keys = [k for k in data["precedence"] if k != "lot"][:LIVE_COLUMNS]
    rnd = selectors.round_latest(tournament)
    return {
        "tournament": tournament,
        "standings": data,
        "columns": display.metric_columns(keys),
        "rows": display.standings_rows(data["rows"][:LIVE_ROWS], keys, []),
        "more": max(0, len(data["rows"]) - LIVE_ROWS),
        "progress": selectors.round_progress(rnd) if rnd is not None else None,
        "refresh_seconds": LIVE_SECONDS,
    }


# ---- a player ----------------------------------------------------------------------------------------
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's tournaments and matches (those the reader may read), and his rating in each game with
    its chart."""
    player = selectors.player_get(player_id)
    readable_matches = scoring_selectors.match_list(user=request.user)
    page = Paginator(selectors.player_matches(player, readable_matches), HISTORY_PAGE).get_page(
        request.GET.get("page")
    )
    rated = selectors.player_ratings(player, user=request.user)
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "ratings": [_rating_view(game, r) for game, r in rated["games"].items()],
            "tournaments": selectors.player_tournaments(player, permissions.readable(request.user)),
            "matches": selectors.player_match_rows(player, page.object_list),
            "page": page,
        },
    )


def _rating_view(game: str, rating: dict[str, Any]) -> dict[str, Any]:
    history = rating["history"]
    return {
        "game": game,
        "rating": rating,
        "id": f"rating-{game}",
        "shown": _decimal(rating["ordinal"]),
        "mu": _decimal(rating["mu"]),
        "sigma": _decimal(rating["sigma"]),
        "chart": rating_chart(game, history),
        "desc": ngettext(
            "From %(start)s to %(now)s over %(count)s rated match.",
            "From %(start)s to %(now)s over %(count)s rated matches.",
            len(history),
        )
        % {
            "start": _decimal(ratings.ordinal(ratings.DEFAULT)),
            "now": _decimal(history[-1]["ordinal"] if history else rating["ordinal"]),
            "count": len(history),
        },
    }


def rating_chart(game: str, history: list[dict[str, Any]]) -> charts.LineChart:
    """The rating (ordinal, mu − 3 sigma) from the start (0 rated matches) to after each rated match."""
    start = ratings.ordinal(ratings.DEFAULT)
    values = [start] + [float(h["ordinal"]) for h in history]

    def point(x: float, y: float) -> str:
        if x == 0:
            return gettext("Start: %(rating)s") % {"rating": _decimal(y)}
        return gettext("After rated match %(number)s: %(rating)s") % {"number": int(x), "rating": _decimal(y)}

    return charts.line_chart(
        values,
        title=gettext("Rating at %(game)s") % {"game": display.game_titles([game])},
        x_label=gettext("Rated matches"),
        y_label=gettext("Rating (mu − 3 sigma)"),
        number=_tick,
        point_label=point,
    )


def _tick(value: float) -> str:
    return str(formats.number_format(value, decimal_pos=0 if float(value).is_integer() else 1, use_l10n=True))


def _decimal(value: float) -> str:
    return str(formats.number_format(value, decimal_pos=1, use_l10n=True))
