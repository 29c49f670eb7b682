"""The whole API under ``/api/``, in one namespace: scoring's routes and the tournaments'."""

from scoring.api import urls as scoring_api
from tournaments.api import urls as tournaments_api

app_name = "api"

urlpatterns = [*scoring_api.urlpatterns, *tournaments_api.urlpatterns]
