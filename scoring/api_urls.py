"""Scoring's API routes (``segnapunti.api_urls`` puts them under ``/api/`` with the tournaments')."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from scoring import api_login, apis

hand = "matches/<id:match_id>/hands/<id:number>/"

urlpatterns = [
    path("auth/token/", api_login.TokenApi.as_view(), name="token"),
    path("games/", apis.GameListApi.as_view(), name="games"),
    path("matches/", apis.MatchListCreateApi.as_view(), name="matches"),
    path("matches/<id:match_id>/", apis.MatchDetailUpdateApi.as_view(), name="match"),
    path("matches/<id:match_id>/sheet/", apis.MatchSheetApi.as_view(), name="match-sheet"),
    path("matches/<id:match_id>/record/", apis.MatchExportApi.as_view(), name="match-record"),
    path("matches/<id:match_id>/hands/", apis.HandListStartApi.as_view(), name="hands"),
    path(hand, apis.HandStateApi.as_view(), name="hand"),
    path(f"{hand}moves/", apis.MoveAppendApi.as_view(), name="moves"),
    path(f"{hand}undo/", apis.MoveUndoApi.as_view(), name="undo"),
    path(f"{hand}replay/<id:step>/", apis.HandReplayApi.as_view(), name="replay"),
    path(f"{hand}rulings/", apis.RulingListRecordApi.as_view(), name="rulings"),
    path(f"{hand}rulings/preview/", apis.RulingPreviewApi.as_view(), name="ruling-preview"),
    path(f"{hand}audit/", apis.HandAuditApi.as_view(), name="audit"),
    path(f"{hand}record/", apis.HandExportApi.as_view(), name="hand-record"),
    path("records/import/", apis.RecordImportApi.as_view(), name="record-import"),
    path("records/check/", apis.RecordCheckApi.as_view(), name="record-check"),
]
