from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments.pages import views as tournament_views


class FaviconRedirect(RedirectView):
    """Browsers ask for /favicon.ico whatever the page links to: send them to the pages' icon (its
    static URL is looked up per request, once the static files' manifest exists)."""

    permanent = True

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("scoring/favicon.svg")


urlpatterns = [
    # The API first: a scorer's every move is resolved here, and no page's route begins with "api/", so
    # the order changes nothing but the fifty routes tried before it (issue 29).
    path("api/", include("segnapunti.api_urls")),
    path("", tournament_views.home, name="home"),
    path("", include("tournaments.pages.urls")),
    path("favicon.ico", FaviconRedirect.as_view()),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("scoring.pages.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its script from a URL of its own (?script): no inline script, as the
    # Content-Security-Policy requires; its template has no inline style either.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="segnapunti/swagger_ui.html"
        ),
        name="api-docs",
    ),
]

handler400 = "segnapunti.error_views.bad_request"
handler403 = "segnapunti.error_views.permission_denied"
handler404 = "segnapunti.error_views.page_not_found"
handler500 = "segnapunti.error_views.server_error"
