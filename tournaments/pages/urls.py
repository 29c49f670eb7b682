"""The tournament pages: the list, a new tournament, the director's night (the tournament, its rounds
and tables), the standings, the live board, and a player's page. Names are global, as the header's
links expect (``tournament-list``)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments.pages import director, views

t = "tournaments/<id:tournament_id>/"
r = t + "rounds/<id:number>/"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournament-list"),
    path("clubs/<id:club_id>/tournaments/new/", director.tournament_new, name="tournament-new"),
    path(t, director.tournament_page, name="tournament"),
    path(t + "settings/", director.tournament_settings, name="tournament-settings"),
    path(t + "publish/", director.tournament_publish, name="tournament-publish"),
    path(t + "registrations/", director.player_register, name="tournament-register"),
    path(t + "registrations/new-player/", director.player_join, name="tournament-join"),
    path(t + "registrations/new-guest/", director.guest_join, name="tournament-guest"),
    path(
        t + "registrations/<id:player_id>/withdraw/",
        director.player_withdraw,
        name="tournament-withdraw",
    ),
    path(t + "rounds/", director.round_open, name="round-open"),
    path(t + "rounds/opening/", director.round_opening, name="round-opening"),
    path(r, director.round_page, name="round"),
    path(r + "progress/", director.round_progress, name="round-progress"),
    path(r + "close/", director.round_close, name="round-close"),
    path(r + "abandon/", director.table_abandon, name="table-abandon"),
    path(t + "standings/", views.standings_page, name="tournament-standings"),
    path(t + "events/", views.events_page, name="tournament-events-page"),
    path(t + "live/", views.live_page, name="tournament-live"),
    path(t + "live/board/", views.live_board, name="tournament-live-board"),
    path("players/<id:player_id>/", views.player_page, name="player"),
]
