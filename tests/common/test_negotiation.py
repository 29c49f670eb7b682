"""The quick content negotiation answers as DRF's own, on the renderer lists the project uses."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.test import APIRequestFactory

from common.negotiation import QuickContentNegotiation
from tournaments.api.views import StandingsCsvRenderer

RENDERER_LISTS = [
    [r() for r in api_settings.DEFAULT_RENDERER_CLASSES],
    [StandingsCsvRenderer(), JSONRenderer()],
    [JSONRenderer()],
    [BrowsableAPIRenderer(), JSONRenderer()],
]
ACCEPTS = [
    None,
    "",
    "*/*",
    "application/json",
    "application/json; indent=4",
    "application/json;q=0.5, text/html",
    "text/html",
    "text/csv",
    "application/*",
    "*/*; q=0.1",
    "application/xml",
    " application/json",
]
PARSER_LISTS = [
    [p() for p in api_settings.DEFAULT_PARSER_CLASSES],
    [JSONParser(), FormParser(), MultiPartParser()],
    [FormParser(), JSONParser()],
]
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=utf-8",
    "Application/JSON",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "text/plain",
    "",
    "*/*",
    "application/*",
]
QUERIES = ["", "format=json", "format=api", "format=csv", "x=1"]


def answer(negotiation: Any, renderers: list[Any], accept: str | None, query: str, suffix: str | None) -> Any:
    extra = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().post(f"/api/x/?{query}" if query else "/api/x/", **extra))
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers, suffix)
    except NotAcceptable:
        return "not acceptable"
    except Exception as exc:  # whatever DRF raises, the quick one must raise too
        return type(exc).__name__
    return type(renderer), media_type


@pytest.mark.parametrize("renderers", RENDERER_LISTS)
@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("suffix", [None, "json"])
def test_the_quick_answer_is_drfs(
    renderers: list[Any], accept: str | None, query: str, suffix: str | None
) -> None:
    assert answer(QuickContentNegotiation(), renderers, accept, query, suffix) == answer(
        DefaultContentNegotiation(), renderers, accept, query, suffix
    )


@settings(max_examples=300, deadline=None)
@given(
    renderers=st.sampled_from(RENDERER_LISTS),
    accept=st.none() | st.sampled_from(ACCEPTS) | st.text(alphabet="abcjson/*;=q.0123, ", max_size=30),
)
def test_any_accept_header(renderers: list[Any], accept: str | None) -> None:
    assert answer(QuickContentNegotiation(), renderers, accept, "", None) == answer(
        DefaultContentNegotiation(), renderers, accept, "", None
    )


def test_a_move_takes_the_quick_answer() -> None:
    request = Request(APIRequestFactory().post("/api/x/"))
    renderers = [r() for r in api_settings.DEFAULT_RENDERER_CLASSES]
    quick = QuickContentNegotiation()
    quick.settings = None  # type: ignore[assignment]  # DRF's path reads its settings; the quick one not
    renderer, media_type = quick.select_renderer(request, renderers)
    assert (type(renderer), media_type) == (JSONRenderer, "application/json")


@settings(max_examples=300, deadline=None)
@given(
    parsers=st.sampled_from(PARSER_LISTS),
    content_type=st.sampled_from(CONTENT_TYPES) | st.text(alphabet="abcjson/*;=+-x, ", max_size=30),
)
def test_the_quick_parser_is_drfs(parsers: list[Any], content_type: str) -> None:
    request = Request(APIRequestFactory().post("/api/x/", b"{}", content_type=content_type))
    quick = QuickContentNegotiation().select_parser(request, parsers)
    drf = DefaultContentNegotiation().select_parser(request, parsers)
    assert quick is drf


def test_a_move_takes_the_quick_parser() -> None:
    request = Request(APIRequestFactory().post("/api/x/", b"{}", content_type="application/json"))
    parsers = [p() for p in api_settings.DEFAULT_PARSER_CLASSES]
    quick = QuickContentNegotiation()
    quick.settings = None  # type: ignore[assignment]
    assert quick.select_parser(request, parsers) is parsers[0]
