"""The pages: sign-in, matches of a club, the table entry page, the sheet, the replay and the rulings."""

from django.contrib.auth import views as auth_views
from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from scoring.pages import signin, views

app_name = "pages"

hand = "matches/<id:match_id>/hands/<id:number>/"

urlpatterns = [
    path(
        "accounts/login/",
        signin.SignInView.as_view(),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("clubs/", views.club_list, name="club-list"),
    path("clubs/<id:club_id>/matches/", views.match_list, name="match-list"),
    path("clubs/<id:club_id>/matches/new/", views.match_new, name="match-new"),
    path("matches/sw.js", views.service_worker, name="service-worker"),
    path("matches/<id:match_id>/", views.match_sheet_page, name="match-sheet"),
    path("matches/<id:match_id>/compare/", views.match_compare_page, name="match-compare"),
    path("matches/<id:match_id>/next-hand/", views.hand_next, name="hand-next"),
    path(hand, views.hand_table, name="hand-table"),
    path(hand + "move/", views.hand_move, name="hand-move"),
    path(hand + "undo/", views.hand_undo, name="hand-undo"),
    path(hand + "version/", views.hand_version, name="hand-version"),
    path(hand + "replay/", views.hand_replay_page, name="hand-replay"),
    path(hand + "ruling/", views.hand_ruling, name="hand-ruling"),
]
