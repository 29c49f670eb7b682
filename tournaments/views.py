"""Pages of the tournament half: the home page, the tournaments list, a tournament's printable standings
and a player's ratings. Plain server-rendered pages; each calls a selector and renders."""

from __future__ import annotations

from fractions import Fraction

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from scoring import display
from tournaments import permissions
from tournaments.selectors import club_list, player_get, player_ratings, standings, tournament_get
from tournaments.standings import show


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request, "home.html", {"clubs": club_list(), "tournaments": permissions.readable(request.user)}
    )


def tournament_list(request: HttpRequest) -> HttpResponse:
    found = permissions.readable(request.user).order_by("-created_at")
    return render(request, "tournaments/list.html", {"tournaments": found})


def standings_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_get(tournament_id)
    if not permissions.can_read(request.user, tournament):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), reverse("pages:login"))
        raise PermissionDenied("only the club's members read these standings until they are published")
    data = standings(tournament)
    keys = [k for k in data["precedence"] if k != "lot"]
    columns = [m for m in data["metrics"] if m["key"] in keys]
    rows = [
        {
            **r,
            "cells": [_shown(r["values"].get(k)) for k in keys],
            "ratings_shown": [_rating(r["ratings"].get(g)) for g in data["games"]],
        }
        for r in data["rows"]
    ]
    games = [display.game_title(g) for g in data["games"]]
    return render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "standings": data,
            "columns": columns,
            "rows": rows,
            "games": games,
            "span": len(columns) + len(games) + 3,
        },
    )


def _shown(value: int | str | None) -> str:
    return show(None if value is None else Fraction(str(value)))


def _rating(rating: dict[str, float] | None) -> str:
    return "–" if rating is None else f"{rating['ordinal']:.1f}"


def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = player_get(player_id)
    return render(request, "tournaments/player.html", {"player": player, "ratings": player_ratings(player)})
