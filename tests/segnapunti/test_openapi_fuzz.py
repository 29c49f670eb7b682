"""The API against its own OpenAPI schema (issue 13): schemathesis generates requests for every operation,
valid and invalid, sends them through the real WSGI application, and checks every answer: no server
error, and nothing the schema does not declare (status, content type, headers, body), with a request the
schema allows never refused as malformed. Each operation is a test of its own, EXAMPLES requests in each
of the two modes."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from segnapunti.wsgi import application
from tests.scoring.api_support import People, make_people, open_match, play, service_record

# 25 per operation and mode in a run of the suite; FUZZ_EXAMPLES=500 for a longer hunt.
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "25"))
# A schema-valid request may still be refused by the rules of a game or of a tournament (an illegal move,
# an impossible record, a round already paired): that is 422, "well formed but cannot stand", which no
# schema can foresee. Everything else the positive check expects stays as schemathesis has it.
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}}}
)
DOCUMENT_CONFIG = SchemathesisConfig.from_dict(
    {"checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "400"]}}}
)
METHODS = ("get", "put", "post", "patch", "delete")
SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
OPERATIONS = sorted(
    (path, method) for path, item in SCHEMA["paths"].items() for method in item if method in METHODS
)
# Operations with something to make invalid (parameters or a body): the others have no invalid request.
MUTABLE = {
    (path, method)
    for path, method in OPERATIONS
    if SCHEMA["paths"][path][method].get("parameters") or SCHEMA["paths"][path][method].get("requestBody")
}
# Operations whose body carries a game's own document: a record, a ruling's rectification, a game's
# options. Their shape is the schema's; what is well formed inside them depends on the game (its
# options, its cards, the record format's rules) and is refused as malformed (400, naming the field) by
# the service. For these, and only these, a 400 to a schema-valid request is not a contradiction.
GAME_DOCUMENTS = {
    ("/api/matches/", "post"),
    ("/api/matches/{match_id}/hands/{number}/rulings/", "post"),
    ("/api/matches/{match_id}/hands/{number}/rulings/preview/", "post"),
    ("/api/records/check/", "post"),
    ("/api/records/import/", "post"),
    ("/api/tournaments/", "post"),
    ("/api/tournaments/{tournament_id}/", "patch"),
    ("/api/matches/{match_id}/whatif/", "post"),
    ("/api/tournaments/{tournament_id}/standings/whatif/", "post"),
}


def load(config: SchemathesisConfig) -> Any:
    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", application, config=config)


@contextmanager
def keep_the_test_connection() -> Iterator[None]:
    """The requests go through the WSGI application itself, whose request signals close the database
    connection at the end of each request (it is inside the test's transaction); Django's own test
    client turns that off around each of its requests, and so does this around the fuzzing: the test's
    transaction (and its data) must outlive each request."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def director_token(db: Any) -> str:
    """A director of a club with a match and a hand under way: ids 1 exist, most others do not."""
    people: People = make_people()
    _, hand = open_match(people, "tressette", seats=4)
    service_record(hand, play(hand, seed=1).moves[:5], people.scorer)
    token, _ = Token.objects.get_or_create(user=people.director)
    return str(token.key)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"])
@pytest.mark.parametrize(("path", "method"), OPERATIONS, ids=[f"{m.upper()} {p}" for p, m in OPERATIONS])
def test_every_operation_answers_as_its_schema_says(
    path: str, method: str, mode: GenerationMode, director_token: str
) -> None:
    if mode == GenerationMode.NEGATIVE and (path, method) not in MUTABLE:
        pytest.skip("no parameter and no body: there is no invalid request to make")
    with keep_the_test_connection():
        schema = load(DOCUMENT_CONFIG if (path, method) in GAME_DOCUMENTS else CONFIG)
    operation = schema[path][method.upper()]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )
    def answers_as_declared(case: Any) -> None:
        cache.clear()  # the throttles count per request here, not across the whole run
        case.call_and_validate(headers={"Authorization": f"Token {director_token}"})

    with keep_the_test_connection():
        answers_as_declared()
