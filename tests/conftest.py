"""Shared fixtures and the markers that pick which database or services a test needs.

`postgres` tests run only when DATABASE_URL points at PostgreSQL; `worker` tests only when a real broker
is configured (CELERY_BROKER_URL set), with a worker consuming from it.
"""

from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, connections
from django.utils import translation

from scoring.hands import foldcache, whatif
from segnapunti.celery import app as celery_app


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL to a PostgreSQL database")
    if item.get_closest_marker("worker") and settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("needs a Celery worker: set CELERY_BROKER_URL and start one")


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Each test starts in the site's default language: a page read in French by an earlier test (the
    locale middleware activates the request's language in the thread) does not carry over."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def tasks_in_process(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in the test's own process, on its own (uncommitted) data, except in the tests marked
    `worker`, which are about the trip through the broker to a real worker."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    # The app reads Django's settings under the CELERY_ namespace: the override goes under that name.
    eager = celery_app.conf.task_always_eager
    celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = True
    try:
        yield
    finally:
        celery_app.conf["CELERY_TASK_ALWAYS_EAGER"] = eager


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


@pytest.fixture(autouse=True)
def no_kept_folds() -> Iterator[None]:
    """Each test starts with no fold kept from another (the recording's or a what-if's): test databases
    reuse ids after a rollback."""
    foldcache.clear()
    whatif.forget()
    yield
    foldcache.clear()
    whatif.forget()
