"""The tournament API's routes (joined to scoring's under ``/api/`` by ``segnapunti.api_urls``)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments.api import views

t = "tournaments/<id:tournament_id>/"

urlpatterns = [
    path("tournaments/", views.TournamentListCreateApi.as_view(), name="tournaments"),
    path(t, views.TournamentDetailUpdateApi.as_view(), name="tournament"),
    path(f"{t}events/", views.TournamentAuditApi.as_view(), name="tournament-events"),
    path(f"{t}publish/", views.TournamentPublishApi.as_view(), name="tournament-publish"),
    path(f"{t}registrations/", views.RegistrationListCreateApi.as_view(), name="registrations"),
    path(
        f"{t}registrations/<id:player_id>/withdraw/",
        views.RegistrationWithdrawApi.as_view(),
        name="registration-withdraw",
    ),
    path(f"{t}rounds/", views.RoundListOpenApi.as_view(), name="rounds"),
    path(f"{t}rounds/<id:number>/", views.RoundDetailApi.as_view(), name="round"),
    path(f"{t}rounds/<id:number>/close/", views.RoundCloseApi.as_view(), name="round-close"),
    path(
        f"{t}rounds/<id:number>/tables/<id:table>/abandon/",
        views.TableAbandonApi.as_view(),
        name="table-abandon",
    ),
    path(f"{t}standings/", views.StandingsApi.as_view(), name="standings"),
    path(f"{t}standings/export/", views.StandingsExportApi.as_view(), name="standings-export"),
    path(f"{t}standings/rebuild/", views.StandingsRebuildApi.as_view(), name="standings-rebuild"),
    path(f"{t}standings/whatif/", views.StandingsWhatifApi.as_view(), name="standings-whatif"),
    path("standings/", views.StandingsListApi.as_view(), name="standings-list"),
    path("players/<id:player_id>/ratings/", views.PlayerRatingsApi.as_view(), name="player-ratings"),
]
