"""Random bodies against the write endpoints (issue 13): whatever arrives, the answer is never a server
error; a refusal is the API's error body naming a field or rule, and it leaves the log as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import StoredEvent
from scoring.rules import game_names, move_to_dict
from tests.scoring.api_support import People, client_for, hand_of, hand_url, open_match, play

pytestmark = pytest.mark.django_db

GAME = game_names()[0]

# JSON values as a client could send them: deep enough to reach nested fields, with numbers far out of
# range and the awkward strings (NUL, very long, not Latin).
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.sampled_from(["", "\x00", "x" * 300, "play", "3S", "stands", "penalty", "Ada"])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)


def bodies(fields: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects whose keys are mostly the endpoint's own fields, with random values."""
    keys = st.sampled_from(fields) | st.text(max_size=10)
    return st.dictionaries(keys, json_values, max_size=len(fields) + 1)


def check(response: Any, before: int) -> None:
    assert response.status_code < 500, response.content[:300]
    if response.status_code >= 400:
        body = response.json()
        assert set(body) >= {"code", "message", "field"}, body
        assert StoredEvent.objects.count() == before


FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def table(people: People) -> tuple[People, dict[str, Any]]:
    """A club and a match with its deal recorded (made once per test; every example writes to it)."""
    match, hand = open_match(people, GAME)
    deal = play(hand, seed=1).moves[0]
    client_for(people.director).post(
        hand_url(match["id"], 1, "moves/"),
        {"expected_version": hand.version, "move": move_to_dict(deal)},
        format="json",
    )
    return people, match


def _people_match(people: People, match: dict[str, Any]) -> tuple[Any, int]:
    return client_for(people.director), hand_of(match).version


@FUZZ
@given(
    body=bodies(["club", "game", "seats", "dealer", "options", "direction", "title", "published", "scorers"])
)
def test_creating_a_match(table: Any, body: dict[str, Any]) -> None:
    people, _ = table
    before = StoredEvent.objects.count()
    check(client_for(people.director).post("/api/matches/", body, format="json"), before)


@FUZZ
@given(body=bodies(["expected_version", "idempotency_key", "move"]), move=bodies(["type", "seat", "card"]))
def test_recording_a_move(table: Any, body: dict[str, Any], move: dict[str, Any]) -> None:
    people, match = table
    client, _ = _people_match(people, match)
    before = StoredEvent.objects.count()
    check(client.post(hand_url(match["id"], 1, "moves/"), {**body, "move": move}, format="json"), before)


@FUZZ
@given(
    body=bodies(["expected_version", "refs", "rule", "reason", "rectification"]),
    rectification=bodies(["kind", "move", "scores", "from_seat", "to_seat", "count"]),
)
def test_recording_a_ruling(table: Any, body: dict[str, Any], rectification: dict[str, Any]) -> None:
    people, match = table
    client, _ = _people_match(people, match)
    before = StoredEvent.objects.count()
    full = {**body, "rectification": rectification}
    check(client.post(hand_url(match["id"], 1, "rulings/"), full, format="json"), before)
    check(client.post(hand_url(match["id"], 1, "rulings/preview/"), full, format="json"), before)


@FUZZ
@given(body=bodies(["expected_version", "idempotency_key", "reason"]))
def test_undoing(table: Any, body: dict[str, Any]) -> None:
    people, match = table
    client, _ = _people_match(people, match)
    before = StoredEvent.objects.count()
    check(client.post(hand_url(match["id"], 1, "undo/"), body, format="json"), before)


@FUZZ
@given(
    body=bodies(["club", "record", "title", "published"]), record=bodies(["format", "game", "hands", "moves"])
)
def test_importing_and_checking_records(table: Any, body: dict[str, Any], record: dict[str, Any]) -> None:
    people, _ = table
    client = client_for(people.director)
    cache.clear()  # the record-check throttle: every example is one user's first check
    before = StoredEvent.objects.count()
    check(client.post("/api/records/import/", {**body, "record": record}, format="json"), before)
    check(client.post("/api/records/check/", {"record": record}, format="json"), before)
