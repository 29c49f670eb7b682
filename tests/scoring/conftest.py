from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connections
from rest_framework.test import APIClient

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
def spawn() -> Iterator[Callable[..., Future[Any]]]:
    """Run a function in a thread of its own, hence on a database connection of its own.

    The thread closes its connections when the function returns, so that the test database can be
    flushed and dropped afterwards.
    """
    pool = ThreadPoolExecutor(max_workers=16)

    def submit(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        def run() -> Any:
            try:
                return fn(*args, **kwargs)
            finally:
                connections.close_all()

        return pool.submit(run)

    yield submit
    pool.shutdown(wait=True)
