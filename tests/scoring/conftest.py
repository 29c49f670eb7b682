from collections.abc import Sequence

import pytest
from rest_framework.test import APIClient

from scoring.log import store
from tests.scoring.api_support import People, client_for, make_people


@pytest.fixture
def people(db: None) -> People:
    """The personas at a club of their own (see :class:`tests.scoring.api_support.People`)."""
    return make_people()


@pytest.fixture
def director(people: People) -> APIClient:
    """An API client signed in as the club's director."""
    return client_for(people.director)


@pytest.fixture
def scorer(people: People) -> APIClient:
    """An API client signed in as the scorer the tests assign to their matches."""
    return client_for(people.scorer)


@pytest.fixture
def stream_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many streams each read of the what-if's compact form asked for, in order (one item a query)."""
    reads: list[int] = []
    real = store.read_streams_compact

    def counted(stream_ids: Sequence[str]) -> dict[str, list[store.CompactRow]]:
        reads.append(len(stream_ids))
        return real(stream_ids)

    monkeypatch.setattr(store, "read_streams_compact", counted)
    return reads
