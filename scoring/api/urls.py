"""Scoring's API routes (``segnapunti.api_urls`` puts them under ``/api/`` with the tournaments')."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from scoring.api import login, views

hand = "matches/<id:match_id>/hands/<id:number>/"

urlpatterns = [
    # A scorer's move first: it is the busiest request by far, and Django tries the routes in turn (no
    # other route matches its paths, so the order changes nothing else).
    path(f"{hand}moves/", views.MoveAppendApi.as_view(), name="moves"),
    path("auth/token/", login.TokenApi.as_view(), name="token"),
    path("games/", views.GameListApi.as_view(), name="games"),
    path("matches/", views.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<id:match_id>/", views.MatchDetailUpdateApi.as_view(), name="match"),
    path("matches/<id:match_id>/sheet/", views.MatchSheetApi.as_view(), name="match-sheet"),
    path("matches/<id:match_id>/record/", views.MatchExportApi.as_view(), name="match-record"),
    path("matches/<id:match_id>/whatif/", views.MatchRescoreApi.as_view(), name="match-whatif"),
    path("matches/<id:match_id>/hands/", views.HandListStartApi.as_view(), name="hands"),
    path(hand, views.HandStateApi.as_view(), name="hand"),
    path(f"{hand}moves/queue/", views.MoveQueueApi.as_view(), name="move-queue"),
    path(f"{hand}undo/", views.MoveUndoApi.as_view(), name="undo"),
    path(f"{hand}replay/<id:step>/", views.HandReplayApi.as_view(), name="replay"),
    path(f"{hand}rulings/", views.RulingListRecordApi.as_view(), name="rulings"),
    path(f"{hand}rulings/preview/", views.RulingPreviewApi.as_view(), name="ruling-preview"),
    path(f"{hand}audit/", views.HandAuditApi.as_view(), name="audit"),
    path(f"{hand}claim/", views.HandClaimApi.as_view(), name="claim"),
    path(f"{hand}record/", views.HandExportApi.as_view(), name="hand-record"),
    path("records/import/", views.RecordImportApi.as_view(), name="record-import"),
    path("records/check/", views.RecordCheckApi.as_view(), name="record-check"),
]
