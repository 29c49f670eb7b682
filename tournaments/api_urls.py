"""The tournament API's routes (joined to scoring's under ``/api/`` by ``segnapunti.api_urls``)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments import apis

t = "tournaments/<id:tournament_id>/"

urlpatterns = [
    path("tournaments/", apis.TournamentListCreateApi.as_view(), name="tournaments"),
    path(t, apis.TournamentDetailUpdateApi.as_view(), name="tournament"),
    path(f"{t}events/", apis.TournamentAuditApi.as_view(), name="tournament-events"),
    path(f"{t}publish/", apis.TournamentPublishApi.as_view(), name="tournament-publish"),
    path(f"{t}registrations/", apis.RegistrationListCreateApi.as_view(), name="registrations"),
    path(
        f"{t}registrations/<id:player_id>/withdraw/",
        apis.RegistrationWithdrawApi.as_view(),
        name="registration-withdraw",
    ),
    path(f"{t}rounds/", apis.RoundListOpenApi.as_view(), name="rounds"),
    path(f"{t}rounds/<id:number>/", apis.RoundDetailApi.as_view(), name="round"),
    path(f"{t}rounds/<id:number>/close/", apis.RoundCloseApi.as_view(), name="round-close"),
    path(
        f"{t}rounds/<id:number>/tables/<id:table>/abandon/",
        apis.TableAbandonApi.as_view(),
        name="table-abandon",
    ),
    path(f"{t}standings/", apis.StandingsApi.as_view(), name="standings"),
    path(f"{t}standings/export/", apis.StandingsExportApi.as_view(), name="standings-export"),
    path(f"{t}standings/rebuild/", apis.StandingsRebuildApi.as_view(), name="standings-rebuild"),
    path("standings/", apis.StandingsListApi.as_view(), name="standings-list"),
    path("players/<id:player_id>/ratings/", apis.PlayerRatingsApi.as_view(), name="player-ratings"),
]
